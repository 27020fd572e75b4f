import Foundation

extension String {
    /// This text as one path segment of a URL (RFC 3986 `segment`): `/`, `?`, `#`, `%` and
    /// anything outside `pchar` percent-encoded, so `Message#2` is `Message%232` in a `Location`
    /// and a client does not read `#2` as a fragment.
    var percentEncodedPathSegment: String {
        addingPercentEncoding(withAllowedCharacters: Self.pathSegmentAllowed) ?? self
    }

    private static let pathSegmentAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
}

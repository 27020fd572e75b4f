import Foundation

extension String {
    /// This text as one path segment of a URL (RFC 3986 `segment`): `/`, `?`, `#`, `%` and
    /// anything outside `pchar` percent-encoded, so an id such as `a#b` (a session stored with
    /// the former `Message#2` ids) is `a%23b` in a `Location` and not read as a fragment.
    var percentEncodedPathSegment: String {
        addingPercentEncoding(withAllowedCharacters: Self.pathSegmentAllowed) ?? self
    }

    private static let pathSegmentAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
}

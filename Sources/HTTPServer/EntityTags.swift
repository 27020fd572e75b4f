/// The value of an `If-Match` or `If-None-Match` field: `*`, or a list of entity tags
/// (RFC 9110 §8.8.3, §13.1.1).
///
/// ```
/// entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE
/// etagc      = %x21 / %x23-7E / obs-text
/// ```
/// List elements are separated by commas with optional whitespace; empty elements are allowed
/// (RFC 9110 §5.6.1) but at least one tag must be present.
public struct EntityTags: Sendable, Equatable {
    /// `true` for `*`.
    public var matchesAny: Bool
    /// The opaque tags without quotes, strong ones only (weak tags never match strongly).
    public var strong: [String]
    /// The weak tags (`W/"…"`), without `W/` and quotes.
    public var weak: [String]

    /// Parses a field value; `nil` when it is not `*` or a well-formed list of entity tags.
    public init?(ifMatch value: String) {
        let bytes = Array(value.utf8)
        var i = 0
        func skipSpace() { while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 } }
        skipSpace()
        var end = bytes.count
        while end > i, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        if end - i == 1, bytes[i] == UInt8(ascii: "*") {
            self.init(matchesAny: true, strong: [], weak: [])
            return
        }
        var strong: [String] = [], weak: [String] = []
        var expectTag = true  // after the start or a comma
        while i < end {
            skipSpace()
            guard i < end else { break }
            if bytes[i] == UInt8(ascii: ",") { i += 1; expectTag = true; continue }
            guard expectTag else { return nil }  // two tags without a comma
            var isWeak = false
            if bytes[i] == UInt8(ascii: "W"), i + 1 < end, bytes[i + 1] == UInt8(ascii: "/") {
                isWeak = true
                i += 2
            }
            guard i < end, bytes[i] == 0x22 else { return nil }
            i += 1
            let start = i
            while i < end, bytes[i] != 0x22 {
                let c = bytes[i]
                guard c == 0x21 || (0x23...0x7E).contains(c) || c >= 0x80 else { return nil }
                i += 1
            }
            guard i < end else { return nil }  // no closing quote
            let tag = String(decoding: bytes[start..<i], as: UTF8.self)
            i += 1
            if isWeak { weak.append(tag) } else { strong.append(tag) }
            expectTag = false
        }
        guard !strong.isEmpty || !weak.isEmpty else { return nil }
        self.init(matchesAny: false, strong: strong, weak: weak)
    }

    public init(matchesAny: Bool, strong: [String], weak: [String]) {
        self.matchesAny = matchesAny
        self.strong = strong
        self.weak = weak
    }
}

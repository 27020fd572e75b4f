/// Header fields in the order they were received or added.
///
/// Field names compare case-insensitively (RFC 9110 §5.1), ASCII only: `headers["content-type"]`
/// finds `Content-Type`. Repeated fields are kept as separate pairs.
public struct HTTPHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// `(name, value)` pairs, names as written by the sender.
    public var pairs: [(String, String)]

    public init() {
        pairs = []
    }

    public init(_ pairs: [(String, String)]) {
        self.pairs = pairs
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        pairs = elements
    }

    /// The first value of the field `name`, or `nil`; any case matches.
    ///
    /// Setting replaces every field of that name with one (appended last); `nil` removes them.
    public subscript(name: String) -> String? {
        get {
            pairs.first { Self.sameName($0.0, name) }?.1
        }
        set {
            pairs.removeAll { Self.sameName($0.0, name) }
            if let newValue { pairs.append((name, newValue)) }
        }
    }

    /// Every value of the field `name`, in order (RFC 9110 §5.3 allows a field to repeat).
    public func values(for name: String) -> [String] {
        pairs.filter { Self.sameName($0.0, name) }.map(\.1)
    }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(_ name: String, _ value: String) {
        pairs.append((name, value))
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    /// A `Content-Type` value's media type: the part before any `;`, without surrounding
    /// whitespace, lower-cased (type and subtype are case-insensitive, RFC 9110 §8.3.1).
    public static func mediaType(_ contentType: String) -> String {
        var text = contentType
        // ASCII (every media type is): one pass over the bytes, one String (the
        // Character-by-Character form is slower, and a write asks three times).
        let ascii: String? = text.withUTF8 { bytes in
            var end = 0
            while end < bytes.count, bytes[end] != UInt8(ascii: ";") {
                guard bytes[end] < 0x80 else { return nil }
                end += 1
            }
            var start = 0
            let blank = { (b: UInt8) in b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }
            while start < end, blank(bytes[start]) { start += 1 }
            while end > start, blank(bytes[end - 1]) { end -= 1 }
            let essence = UnsafeBufferPointer(rebasing: bytes[start..<end])
            guard essence.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else {
                return String(decoding: essence, as: UTF8.self)
            }
            return String(
                decoding: essence.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 },
                as: UTF8.self)
        }
        if let ascii { return ascii }
        let essence = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return essence.trimmed(" \t").lowercased()
    }

    /// ASCII case-insensitive comparison without allocating lowercased copies.
    /// Names of different lengths, most of a lookup's candidates, are told apart by their counts
    /// alone (native strings store it), before any byte is compared.
    static func sameName(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return a.utf8.elementsEqual(b.utf8) { x, y in
            x == y || (x ^ y == 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
        }
    }
}

extension Substring {
    /// Drops leading and trailing characters in `set` (Foundation-free).
    func trimmed(_ set: String) -> String {
        var s = self
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}

/// A JSON value with ordered object members: what navsim parses request bodies into and builds
/// replies from (RFC 8259). Parsing bounds depth so hostile input cannot exhaust the stack.
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    /// Equal values: objects compare member by member in order (the same members in another
    /// order are another value).
    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The first member named `key` of an object; nil when there is none or this is not an object.
    public subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members.first { $0.0 == key }?.1 }
        return nil
    }
    // The payload when the value is of that kind, else nil (`isNull`: whether it is `null`).
    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var bool: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var number: Double? { if case .number(let n) = self { return n }; return nil }
    public var array: [JSON]? { if case .array(let a) = self { return a }; return nil }
    public var object: [(String, JSON)]? { if case .object(let o) = self { return o }; return nil }
    public var isNull: Bool { if case .null = self { return true }; return false }

    /// `nil` becomes `null`.
    public static func from(_ s: String?) -> JSON { s.map { .string($0) } ?? .null }
    public static func from(_ b: Bool?) -> JSON { b.map { .bool($0) } ?? .null }
    public static func from(_ i: Int?) -> JSON { i.map { .number(Double($0)) } ?? .null }
    public static func from(_ ids: [String]?) -> JSON { ids.map { .array($0.map { .string($0) }) } ?? .null }
}

// MARK: - Serialising

extension JSON {
    /// Compact UTF-8 bytes (``JSONWriter``'s spelling).
    public var bytes: [UInt8] {
        var w = JSONWriter()
        w.value(self)
        return w.finish()
    }
    /// Compact text (``bytes`` as UTF-8).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether `byte` stands for itself in a JSON string (RFC 8259 §7): not a quote, a
    /// backslash or a control character.
    @inlinable public static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    /// Whether every byte of `bytes` stands for itself in a JSON string (``isPlain(_:)-(UInt8)``):
    /// a loop over the buffer, not `contains(where:)` over a UTF-8 view, which a request log line
    /// paid for three times per request.
    @inlinable public static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where !isPlain(byte) { return false }
        return true
    }

    /// Appends `s` as a JSON string literal (RFC 8259 §7): quotes, backslashes and control
    /// characters escaped, everything else as its UTF-8 bytes. Text with nothing to escape (the
    /// usual id or path) is appended in one copy.
    public static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = s
        let plain = text.withUTF8 { bytes in
            guard isPlain(bytes) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if plain {
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(92); out.append(34)
            case UInt8(ascii: "\\"): out.append(92); out.append(92)
            case 0x0A: out.append(92); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(92); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(92); out.append(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

// MARK: - Parsing

/// Why a body is not JSON: the byte offset and what was wrong (answered as 400 `invalid-body`).
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the text went wrong: a byte offset from its start.
    public var offset: Int
    /// What was wrong there, in words.
    public var reason: String
    /// Set when the text went past one of `parse`'s bounds (`maxDepth`: `jsonDepth`,
    /// `maxContainers`: `jsonContainers`): a limit, answered as 422 `limit-exceeded` naming it,
    /// not as malformed JSON.
    public var exceeded: ExceededLimit? = nil

    /// A bound of `JSON.parse` that the text went past: its name in `Limits` and its value.
    public struct ExceededLimit: Sendable, Equatable {
        /// The bound's name (`jsonDepth`, `jsonContainers`).
        public var name: String
        /// The bound's value.
        public var max: Int
        /// The bound `name` of value `max`.
        public init(name: String, max: Int) {
            self.name = name
            self.max = max
        }
    }
    /// An error at byte `offset` for `reason`; `exceeded` when a bound was passed.
    public init(offset: Int, reason: String, exceeded: ExceededLimit? = nil) {
        self.offset = offset
        self.reason = reason
        self.exceeded = exceeded
    }

    /// The offset and the reason in a sentence.
    public var description: String { "Malformed JSON at byte \(offset): \(reason)." }
}

extension JSON {
    /// Parses RFC 8259 JSON from UTF-8 bytes in time linear in their count. Depth is limited
    /// to `maxDepth` nested containers, and the whole text to `maxContainers` arrays and objects
    /// (each one is an allocation: 1 MiB can hold 500,000 of them).
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 64, maxContainers: Int = .max) throws(JSONParseError) -> JSON {
        // The parser reads a buffer, not the array: every read is already behind an index check,
        // so the array's own bounds checks and uniqueness checks per read are work for nothing.
        let result: Result<JSON, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            var p = Parser(bytes: buffer, maxDepth: maxDepth, maxContainers: maxContainers)
            do throws(JSONParseError) {
                p.skipSpace()
                let value = try p.value(depth: 0)
                p.skipSpace()
                if p.i != buffer.count { throw p.fail("unexpected data after the value") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private struct Parser {
        /// The text; valid while `parse` runs, and read only at indices below `count`.
        let bytes: UnsafeBufferPointer<UInt8>
        let maxDepth: Int
        let maxContainers: Int
        var containers = 0
        var i = 0

        mutating func openContainer(depth: Int) throws(JSONParseError) {
            guard depth < maxDepth else {
                throw JSONParseError(
                    offset: i, reason: "nesting deeper than \(maxDepth)",
                    exceeded: .init(name: "jsonDepth", max: maxDepth))
            }
            containers += 1
            guard containers <= maxContainers else {
                throw JSONParseError(
                    offset: i, reason: "more than \(maxContainers) arrays and objects",
                    exceeded: .init(name: "jsonContainers", max: maxContainers))
            }
        }

        func fail(_ reason: String) -> JSONParseError { JSONParseError(offset: i, reason: reason) }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        mutating func literal(_ word: StaticString, _ v: JSON) throws(JSONParseError) -> JSON {
            let count = word.utf8CodeUnitCount
            guard i + count <= bytes.count else { throw fail("invalid literal") }
            let matches = word.withUTF8Buffer { w in
                for k in 0..<count where bytes[i + k] != w[k] { return false }
                return true
            }
            guard matches else { throw fail("invalid literal") }
            i += count
            return v
        }

        mutating func value(depth: Int) throws(JSONParseError) -> JSON {
            guard i < bytes.count else { throw fail("unexpected end of input") }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                try openContainer(depth: depth)
                i += 1
                var members: [(String, JSON)] = []
                // Duplicate check: a scan while the object is small (no hashing for the usual
                // handful of members), then one hash lookup per member, so an object's cost is
                // linear in its size (a scan of all members made 96k members take 45 s).
                var names: NameIndex?
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
                    let keyOffset = i
                    let key = try string()
                    let duplicate: Bool
                    if members.count < 8 {
                        duplicate = members.contains { $0.0 == key }
                    } else {
                        if names == nil { names = NameIndex(members) }
                        duplicate = !names!.insert(key, index: members.count, in: members)
                    }
                    if duplicate { throw JSONParseError(offset: keyOffset, reason: "duplicate member '\(key)'") }
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                    i += 1
                    skipSpace()
                    let v = try value(depth: depth + 1)
                    members.append((key, v))
                    skipSpace()
                    guard i < bytes.count else { throw fail("unexpected end of input") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                    throw fail("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                try openContainer(depth: depth)
                i += 1
                var items: [JSON] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard i < bytes.count else { throw fail("unexpected end of input") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                    throw fail("expected ',' or ']'")
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default: return try number()
            }
        }

        mutating func number() throws(JSONParseError) -> JSON {
            let start = i
            let negative = i < bytes.count && bytes[i] == UInt8(ascii: "-")
            var isFloat = false
            if negative { i += 1 }
            func digits() -> Int { let s = i; while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { i += 1 }; return i - s }
            guard i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 else { throw fail("invalid value") }
            if bytes[i] == 48 { i += 1 } else { _ = digits() }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                isFloat = true
                i += 1
                guard digits() > 0 else { throw fail("invalid number") }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                isFloat = true
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { throw fail("invalid number") }
            }
            // Integers of up to 15 digits are exact in a Double: no text conversion needed.
            if !isFloat, i - start - (negative ? 1 : 0) <= 15 {
                var n: Int64 = 0
                for k in (negative ? start + 1 : start)..<i { n = n * 10 + Int64(bytes[k] - 48) }
                return .number(negative ? -Double(n) : Double(n))  // -0 stays -0
            }
            guard let d = Double(String(decoding: bytes[start..<i], as: UTF8.self)) else { throw fail("invalid number") }
            return .number(d)
        }

        mutating func hex4() throws(JSONParseError) -> UInt32 {
            guard i + 4 <= bytes.count else { throw fail("truncated \\u escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[i]
                let d: UInt32
                switch b {
                case 48...57: d = UInt32(b - 48)
                case 65...70: d = UInt32(b - 55)
                case 97...102: d = UInt32(b - 87)
                default: throw fail("invalid \\u escape")
                }
                v = v * 16 + d
                i += 1
            }
            return v
        }

        mutating func string() throws(JSONParseError) -> String {
            i += 1  // opening quote
            // Most strings have no escape: made straight from the input bytes (no buffer).
            let start = i
            var high: UInt8 = 0  // any byte >= 0x80 sets the top bit: the text is not plain ASCII
            while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 {
                high |= bytes[i]
                i += 1
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
                guard let s = UTF8Text.make(UnsafeBufferPointer(rebasing: bytes[start..<i]), ascii: high < 0x80) else {
                    throw fail("invalid UTF-8 in string")
                }
                i += 1
                return s
            }
            var out = Array(bytes[start..<i])
            while true {
                guard i < bytes.count else { throw fail("unterminated string") }
                let b = bytes[i]
                if b == UInt8(ascii: "\"") { i += 1; break }
                if b < 0x20 { throw fail("control character in string") }
                if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
                i += 1
                guard i < bytes.count else { throw fail("unterminated escape") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): out.append(34)
                case UInt8(ascii: "\\"): out.append(92)
                case UInt8(ascii: "/"): out.append(47)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard i + 1 < bytes.count, bytes[i] == 92, bytes[i + 1] == UInt8(ascii: "u") else { throw fail("lone surrogate") }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("invalid surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw fail("lone surrogate")
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw fail("invalid code point") }
                    UTF8.encode(u) { out.append($0) }
                default: throw fail("invalid escape")
                }
            }
            guard let s = out.withUnsafeBufferPointer({ UTF8Text.make($0, ascii: false) }) else { throw fail("invalid UTF-8 in string") }
            return s
        }
    }
}

/// Strings from UTF-8 bytes that must be valid, without the standard library's generic
/// `String(validating:as:)`: across the module boundary it runs unspecialized, so a body of many
/// short strings (as `scripts/hostile.py` sends) spends its time in generic-metadata lookups
/// (`swift_getGenericMetadata`, `swift_getAssociatedTypeWitness`). `String(decoding:as:)` on a buffer of bytes is the standard
/// library's concrete fast path; it repairs invalid sequences with U+FFFD, so text that it did
/// not keep byte for byte was not valid UTF-8.
enum UTF8Text {
    /// `bytes` as a String, or nil when they are not valid UTF-8 (RFC 3629). `ascii`: the caller
    /// has seen that every byte is below 0x80, which is valid UTF-8 as it stands.
    static func make(_ bytes: UnsafeBufferPointer<UInt8>, ascii: Bool) -> String? {
        let s = String(decoding: bytes, as: UTF8.self)
        if ascii { return s }
        var copy = s
        let same = copy.withUTF8 { $0.elementsEqual(bytes) }
        return same ? s : nil
    }
}

/// The member names of one large object being parsed: an open-addressing table of member
/// indices keyed by an FNV-1a hash of the name's UTF-8 bytes, cheaper per lookup than
/// `Set<String>` (which hashes with SipHash); equal hashes are confirmed by comparing names.
struct NameIndex {
    private var slots: [(index: Int32, hash: UInt32)]
    private var count = 0

    init(_ members: [(String, JSON)]) {
        slots = Array(repeating: (-1, 0), count: 64)
        for (index, member) in members.enumerated() { _ = insert(member.0, index: index, in: members) }
    }

    private static func hash(_ name: String) -> UInt32 {
        var h: UInt32 = 2_166_136_261
        for byte in name.utf8 { h = (h ^ UInt32(byte)) &* 16_777_619 }
        return h
    }

    /// Records `name` as member `index`; false when `members` already has that name.
    mutating func insert(_ name: String, index: Int, in members: [(String, JSON)]) -> Bool {
        if (count + 1) * 2 > slots.count { grow() }
        let h = Self.hash(name)
        let mask = slots.count - 1
        var slot = Int(h) & mask
        while slots[slot].index >= 0 {
            if slots[slot].hash == h, members[Int(slots[slot].index)].0 == name { return false }
            slot = (slot + 1) & mask
        }
        slots[slot] = (Int32(index), h)
        count += 1
        return true
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: (-1, 0), count: old.count * 2)
        let mask = slots.count - 1
        for entry in old where entry.index >= 0 {
            var slot = Int(entry.hash) & mask
            while slots[slot].index >= 0 { slot = (slot + 1) & mask }
            slots[slot] = entry
        }
    }
}

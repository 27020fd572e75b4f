/// Compact JSON text (RFC 8259) appended straight to bytes, member by member, with no ``JSON``
/// tree in between: what replies, cached controller pieces and ``JSON/bytes`` are written with
/// (a tree of enums, arrays and tuples per reply was most of a reply's encoding time).
///
/// The caller opens and closes objects and arrays and names each member; the writer places the
/// commas. Strings are escaped by ``JSON/writeString(_:into:)``, numbers spelt by ``number(_:)``:
/// one spelling for every encoder.
///
/// Its members are inlinable: the reply encoders in other modules call them once per value, and
/// a call across the module boundary would cost about as much as the small step it makes.
public struct JSONWriter: Sendable {
    /// The text so far.
    public var bytes: [UInt8]
    /// A value was just written: the next member or element needs a comma first.
    @usableFromInline var comma = false

    /// An empty text with room for `capacity` bytes.
    @inlinable public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// A member name written once as its JSON text and a colon (`"title":`), for names that are
    /// not literals (such as the service's table of configuration fields).
    public struct Key: Sendable {
        /// The name as a JSON string and a colon.
        public let text: [UInt8]
        /// `name` escaped (``JSON/writeString(_:into:)``) and followed by a colon.
        public init(_ name: String) {
            var text: [UInt8] = []
            JSON.writeString(name, into: &text)
            text.append(UInt8(ascii: ":"))
            self.text = text
        }
    }

    @inlinable mutating func separate() {
        if comma { bytes.append(UInt8(ascii: ",")) }
    }

    // MARK: Containers

    /// Starts an object (`{`); end it with ``closeObject()``.
    @inlinable public mutating func openObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        comma = false
    }

    /// Ends the innermost open object (`}`).
    @inlinable public mutating func closeObject() {
        bytes.append(UInt8(ascii: "}"))
        comma = true
    }

    /// Starts an array (`[`); end it with ``closeArray()``.
    @inlinable public mutating func openArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        comma = false
    }

    /// Ends the innermost open array (`]`).
    @inlinable public mutating func closeArray() {
        bytes.append(UInt8(ascii: "]"))
        comma = true
    }

    // MARK: Member names

    /// A member name that is a literal: plain ASCII with nothing to escape (checked in debug builds).
    // Always inlined: the reply encoders name most members this way, and its debug check kept the
    // optimizer from inlining it into them once they were in another module.
    @inlinable @inline(__always) public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { text in
            assert(
                !text.contains { $0 < 0x20 || $0 >= 0x80 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") },
                "a literal member name needs escaping")
            bytes.append(contentsOf: text)
        }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        comma = false
    }

    /// A member name from data (a controller id, a segue identifier): escaped.
    @inlinable public mutating func key(_ name: String) {
        separate()
        JSON.writeString(name, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        comma = false
    }

    /// A member name encoded beforehand.
    @inlinable public mutating func key(_ name: Key) {
        separate()
        bytes.append(contentsOf: name.text)
        comma = false
    }

    // MARK: Values

    /// `null`.
    @inlinable public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        comma = true
    }

    /// `true` or `false`.
    @inlinable public mutating func bool(_ b: Bool) {
        separate()
        if b { bytes.append(contentsOf: "true".utf8) } else { bytes.append(contentsOf: "false".utf8) }
        comma = true
    }

    /// A string, escaped by ``JSON/writeString(_:into:)``.
    @inlinable public mutating func string(_ s: String) {
        separate()
        JSON.writeString(s, into: &bytes)
        comma = true
    }

    /// The string, or `null`.
    @inlinable public mutating func string(_ s: String?) {
        if let s { string(s) } else { null() }
    }

    /// An integer in decimal, without a `String` in between.
    @inlinable public mutating func int(_ i: Int) {
        separate()
        if i < 0 { bytes.append(UInt8(ascii: "-")) }
        var rest = i.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
        comma = true
    }

    /// The integer, or `null`.
    @inlinable public mutating func int(_ i: Int?) {
        if let i { int(i) } else { null() }
    }

    /// A number: whole numbers below 10¹⁵ in magnitude (exact in a `Double`) without a fraction
    /// (`3`, not `3.0`), others as Swift spells a `Double` (`0.3`, `1e+20`); not finite (which
    /// JSON cannot spell): `null`.
    @inlinable public mutating func number(_ n: Double) {
        if n.isFinite, n == n.rounded(), abs(n) < 1e15 {
            int(Int(n))
        } else if n.isFinite {
            separate()
            bytes.append(contentsOf: "\(n)".utf8)
            comma = true
        } else {
            null()
        }
    }

    /// An array of strings, or `null`.
    @inlinable public mutating func strings(_ items: [String]?) {
        guard let items else { return null() }
        openArray()
        for item in items { string(item) }
        closeArray()
    }

    /// A value already encoded (a cached piece), copied as it is.
    @inlinable public mutating func raw<Bytes: Collection<UInt8>>(_ text: Bytes) {
        separate()
        bytes.append(contentsOf: text)
        comma = true
    }

    /// Text copied as it is, part of a value or of several (a cached head up to a number that
    /// changes): no comma placed before it. `endsWithValue`: the text ends with a whole value,
    /// so what follows needs a comma; false when it ends open (after `{` or a member name).
    @inlinable public mutating func splice<Bytes: Collection<UInt8>>(_ text: Bytes, endsWithValue: Bool) {
        bytes.append(contentsOf: text)
        comma = endsWithValue
    }

    /// The members of an object already encoded (`{…}`), spliced into the open object.
    @inlinable public mutating func rawMembers(ofObject text: [UInt8]) {
        precondition(text.first == UInt8(ascii: "{") && text.last == UInt8(ascii: "}"), "not an object's text")
        guard text.count > 2 else { return }
        separate()
        bytes.append(contentsOf: text[1..<(text.count - 1)])
        comma = true
    }

    /// A ``JSON`` value (a tree some caller already has, such as a problem's).
    @inlinable public mutating func value(_ v: JSON) {
        switch v {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let n): number(n)
        case .string(let s): string(s)
        case .array(let items):
            openArray()
            for item in items { value(item) }
            closeArray()
        case .object(let members):
            openObject()
            for (name, item) in members {
                key(name)
                value(item)
            }
            closeObject()
        }
    }

    // MARK: Members

    // A member name and its value in one call (`null` for a nil value, as the value writers do).
    @inlinable public mutating func member(_ name: StaticString, _ s: String) { key(name); string(s) }
    @inlinable public mutating func member(_ name: StaticString, _ s: String?) { key(name); string(s) }
    @inlinable public mutating func member(_ name: StaticString, _ b: Bool) { key(name); bool(b) }
    @inlinable public mutating func member(_ name: StaticString, _ b: Bool?) { key(name); if let b { bool(b) } else { null() } }
    @inlinable public mutating func member(_ name: StaticString, _ i: Int?) { key(name); int(i) }
    @inlinable public mutating func member(_ name: StaticString, _ items: [String]?) { key(name); strings(items) }
    @inlinable public mutating func member(_ name: Key, _ s: String?) { key(name); string(s) }
    @inlinable public mutating func member(_ name: Key, _ b: Bool) { key(name); bool(b) }
    @inlinable public mutating func member(_ name: Key, _ items: [String]) { key(name); strings(items) }
}

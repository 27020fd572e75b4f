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
    // The text lives in `storage`'s first `length` bytes; the rest is room, zeroed. Each step
    // writes its bytes through one pointer into that room (one uniqueness check a step), where
    // `Array.append` paid a uniqueness and a capacity check a byte and a call a copy: about half
    // of a reply's encoding.
    @usableFromInline var storage: [UInt8]
    @usableFromInline var length = 0
    /// A value was just written: the next member or element needs a comma first.
    @usableFromInline var comma = false

    /// An empty text with room for `capacity` bytes.
    @inlinable public init(capacity: Int = 256) {
        storage = [UInt8](repeating: 0, count: Swift.max(capacity, 16))
    }

    /// The text so far (a copy; ``finish()`` hands over the text without one).
    @inlinable public var bytes: [UInt8] { Array(storage[..<length]) }

    /// How many bytes are written so far.
    @inlinable public var count: Int { length }

    /// The bytes written from offset `start` on.
    @inlinable public func written(from start: Int) -> ArraySlice<UInt8> { storage[start..<length] }

    /// Whether the bytes written from offset `start` on are `other`, compared eight bytes at a
    /// time (a cached piece checked against its new encoding: a generic element-by-element
    /// comparison cost several instructions a byte).
    @inlinable public func written(from start: Int, equal other: ArraySlice<UInt8>) -> Bool {
        guard length - start == other.count else { return false }
        return storage.withUnsafeBytes { mine in
            other.withUnsafeBytes { theirs in
                let a = UnsafeRawBufferPointer(rebasing: mine[start..<length])
                var i = 0
                while i + 8 <= a.count {
                    if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != theirs.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
                    i += 8
                }
                while i < a.count {
                    if a[i] != theirs[i] { return false }
                    i += 1
                }
                return true
            }
        }
    }

    /// The text, with the writer done.
    @inlinable public consuming func finish() -> [UInt8] {
        storage.removeSubrange(length...)
        return storage
    }

    /// Makes room for at least `needed` bytes in all, doubling.
    @usableFromInline @inline(never) mutating func grow(to needed: Int) {
        var size = storage.count * 2
        while size < needed { size *= 2 }
        storage.append(contentsOf: repeatElement(0, count: size - storage.count))
    }

    /// Writes `n` bytes by `body`, given where they go, after a comma when `separated` and one is due.
    @inlinable @inline(__always) mutating func write(_ n: Int, separated: Bool = true, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        let comma = separated && self.comma
        let total = n + (comma ? 1 : 0)
        if length + total > storage.count { grow(to: length + total) }
        let at = length
        storage.withUnsafeMutableBufferPointer { buffer in
            var p = buffer.baseAddress! + at
            if comma {
                p.pointee = UInt8(ascii: ",")
                p += 1
            }
            body(p)
        }
        length += total
    }

    /// Writes `text` as it is, after a comma when one is due and `separated`.
    @inlinable @inline(__always) mutating func write(_ text: UnsafeBufferPointer<UInt8>, separated: Bool = true) {
        write(text.count, separated: separated) { p in
            if let base = text.baseAddress { p.update(from: base, count: text.count) }
        }
    }

    /// Writes `text` as it is, after a comma when one is due and `separated`.
    @inlinable @inline(__always) mutating func write(_ text: StaticString, separated: Bool = true) {
        write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), separated: separated)
    }

    /// Writes `text`'s bytes as they are.
    @inlinable mutating func write<Bytes: Collection<UInt8>>(_ text: Bytes, separated: Bool) {
        if text.withContiguousStorageIfAvailable({ write($0, separated: separated) }) == nil {
            let copy = Array(text)
            copy.withUnsafeBufferPointer { write($0, separated: separated) }
        }
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

    // MARK: Containers

    /// Starts an object (`{`); end it with ``closeObject()``.
    @inlinable public mutating func openObject() {
        write(1) { $0.pointee = UInt8(ascii: "{") }
        comma = false
    }

    /// Ends the innermost open object (`}`).
    @inlinable public mutating func closeObject() {
        write(1, separated: false) { $0.pointee = UInt8(ascii: "}") }
        comma = true
    }

    /// Starts an array (`[`); end it with ``closeArray()``.
    @inlinable public mutating func openArray() {
        write(1) { $0.pointee = UInt8(ascii: "[") }
        comma = false
    }

    /// Ends the innermost open array (`]`).
    @inlinable public mutating func closeArray() {
        write(1, separated: false) { $0.pointee = UInt8(ascii: "]") }
        comma = true
    }

    // MARK: Member names

    /// A member name that is a literal: plain ASCII with nothing to escape (checked in debug builds).
    // Always inlined: the reply encoders name most members this way, and its debug check kept the
    // optimizer from inlining it into them once they were in another module.
    @inlinable @inline(__always) public mutating func key(_ name: StaticString) {
        let n = name.utf8CodeUnitCount
        assert(
            !UnsafeBufferPointer(start: name.utf8Start, count: n).contains { !JSON.isPlain($0) || $0 >= 0x80 },
            "a literal member name needs escaping")
        write(n + 3) { p in
            p.pointee = UInt8(ascii: "\"")
            (p + 1).update(from: name.utf8Start, count: n)
            p[n + 1] = UInt8(ascii: "\"")
            p[n + 2] = UInt8(ascii: ":")
        }
        comma = false
    }

    /// A member name, escaped by ``JSON/writeString(_:into:)``.
    @inlinable public mutating func key(_ name: String) {
        string(name)
        write(1, separated: false) { $0.pointee = UInt8(ascii: ":") }
        comma = false
    }

    /// A member name encoded beforehand.
    @inlinable public mutating func key(_ name: Key) {
        name.text.withUnsafeBufferPointer { write($0) }
        comma = false
    }

    // MARK: Values

    /// `null`.
    @inlinable public mutating func null() {
        write("null")
        comma = true
    }

    /// `true` or `false`.
    @inlinable public mutating func bool(_ b: Bool) {
        write(b ? "true" : "false")
        comma = true
    }

    /// A string, escaped by ``JSON/writeString(_:into:)``: text with nothing to escape (the
    /// usual id or title) in one copy, other text through that function.
    @inlinable public mutating func string(_ s: String) {
        var text = s
        let plain = text.withUTF8 { bytes in
            guard JSON.isPlain(bytes) else { return false }
            write(bytes.count + 2) { p in
                p.pointee = UInt8(ascii: "\"")
                if let base = bytes.baseAddress { (p + 1).update(from: base, count: bytes.count) }
                p[bytes.count + 1] = UInt8(ascii: "\"")
            }
            return true
        }
        if !plain {
            var escaped: [UInt8] = []
            JSON.writeString(s, into: &escaped)
            escaped.withUnsafeBufferPointer { write($0) }
        }
        comma = true
    }

    /// The string, or `null`.
    @inlinable public mutating func string(_ s: String?) {
        if let s { string(s) } else { null() }
    }

    /// An integer in decimal, without a `String` in between.
    @inlinable public mutating func int(_ i: Int) {
        var rest = i.magnitude
        var digits = 1
        var scale: UInt = 10
        while rest >= scale, digits < 19 {
            digits += 1
            scale &*= 10
        }
        if digits == 19 && rest >= scale { digits = 20 }
        let sign = i < 0 ? 1 : 0
        write(digits + sign) { p in
            if sign == 1 { p.pointee = UInt8(ascii: "-") }
            var at = digits + sign - 1
            repeat {
                p[at] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
                at -= 1
            } while rest > 0
        }
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
            write("\(n)".utf8, separated: true)
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
        write(text, separated: true)
        comma = true
    }

    /// Text copied as it is, part of a value or of several (a cached head up to a number that
    /// changes): no comma placed before it. `endsWithValue`: the text ends with a whole value,
    /// so what follows needs a comma; false when it ends open (after `{` or a member name).
    @inlinable public mutating func splice<Bytes: Collection<UInt8>>(_ text: Bytes, endsWithValue: Bool) {
        write(text, separated: false)
        comma = endsWithValue
    }

    /// The members of an object already encoded (`{…}`), spliced into the open object.
    @inlinable public mutating func rawMembers(ofObject text: [UInt8]) {
        precondition(text.first == UInt8(ascii: "{") && text.last == UInt8(ascii: "}"), "not an object's text")
        guard text.count > 2 else { return }
        write(text[1..<(text.count - 1)], separated: true)
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

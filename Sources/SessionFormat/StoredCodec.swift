import JSONValues

/// The codec of the stored format (`StoredFormat.swift`): a `Decoder` that reads rows (every
/// stored type is `Decodable`, and its declaration is how a row is read), and an `Encoder` for
/// the one kind of value the row writer (`StoredRowWriter.swift`) does not write itself: the
/// core's own `Codable` values inside a configuration (delegates, trait overrides), whose
/// conformances in NavigationCore are their one declaration. Both cost a few microseconds
/// where Foundation's `JSONEncoder`/`JSONDecoder` cost tens.
///
/// It reads what Foundation's encoder wrote (every row stored before it; key order does not
/// matter), and what it writes Foundation's decoder reads to the same values. Members come in
/// the order the `encode(to:)` code writes them, except a `[String: V]` dictionary's, which are
/// sorted so equal values give equal bytes. Optionals left out by `encodeIfPresent` are absent;
/// a nil encoded explicitly is `null`. Integers are written as digits; a `Double` as its
/// shortest round-trip form (integral values without a fraction, as Foundation writes them); a
/// non-finite `Double` is an `EncodingError`. Strings escape quotes, backslashes and control
/// characters (RFC 8259 §7), everything else as UTF-8.
///
/// Reading parses with ``JSON/parse(_:maxDepth:maxContainers:)`` and decodes from that tree;
/// malformed text is a thrown ``JSONParseError``, a shape that does not fit the type a
/// `DecodingError`. Numbers are IEEE doubles on the way in, so an integer is exact up to 2^53
/// (stored integers are counters far below that).
enum StoredCodec {
    /// Deepest nesting a stored row may have: a stored command nests about two levels per level
    /// of the request it came from, whose depth `Limits.jsonDepth` bounds.
    static let maxDepth = 512

    /// `value` as compact JSON bytes.
    /// - Throws: `EncodingError.invalidValue` for a non-finite `Double`.
    static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let writer = StoredWriter()
        try writer.writeValue(value, level: 0, encoder: nil)
        writer.closeAll()
        return writer.out
    }

    /// The `T` that `bytes` (JSON) stand for.
    /// - Throws: ``JSONParseError`` for text that is not JSON, `DecodingError` for JSON that is not a `T`.
    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decode(T.self, from: try JSON.parse(bytes, maxDepth: maxDepth))
    }

    /// The `T` that `json` (a parsed row, or part of one) stands for.
    /// - Throws: `DecodingError` for JSON that is not a `T`.
    static func decode<T: Decodable>(_ type: T.Type, from json: JSON) throws -> T {
        try StoredReader.value(T.self, json, parent: nil, key: nil)
    }

    /// The `T` that `text` (JSON) stands for.
    static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try decode(T.self, from: Array(text.utf8))
    }
}

// MARK: - Writing

/// Dictionaries keyed by strings, written with their keys sorted (deterministic bytes).
private protocol SortedKeysEncodable {
    func writeSorted(_ writer: StoredWriter, level: Int) throws
}

extension Dictionary: SortedKeysEncodable where Key == String, Value: Encodable {
    fileprivate func writeSorted(_ writer: StoredWriter, level: Int) throws {
        writer.out.append(UInt8(ascii: "{"))
        for (i, key) in keys.sorted().enumerated() {
            if i > 0 { writer.out.append(UInt8(ascii: ",")) }
            JSON.writeString(key, into: &writer.out)
            writer.out.append(UInt8(ascii: ":"))
            try writer.writeValue(self[key]!, level: level, encoder: nil)
            writer.closeAbove(level)
        }
        writer.out.append(UInt8(ascii: "}"))
    }
}

/// The output and the containers still open, outermost first. A container is closed lazily,
/// when its parent writes its next member (or at the end), so a value's `encode(to:)` may ask
/// its encoder for the same keyed container twice (a controller's members, then its
/// configuration beside them) and keep writing into one object.
final class StoredWriter {
    struct Frame {
        /// `}` or `]`.
        var close: UInt8
        /// Members or elements written so far.
        var count: Int
        /// The encoder whose value this container is.
        var owner: ObjectIdentifier
    }

    var out: [UInt8] = []
    var frames: [Frame] = []

    init() { out.reserveCapacity(1024) }

    /// Continues `out` (``StoredBytes/encoded(_:)``).
    init(out: [UInt8]) { self.out = out }

    /// Closes every container deeper than `level` (the number of containers that stay open).
    func closeAbove(_ level: Int) {
        while frames.count > level { out.append(frames.removeLast().close) }
    }

    func closeAll() { closeAbove(0) }

    /// Starts the next member or element of the container at index `level` (closing deeper ones).
    func beginItem(_ level: Int) {
        closeAbove(level + 1)
        if frames[level].count > 0 { out.append(UInt8(ascii: ",")) }
        frames[level].count += 1
    }

    /// Opens (or, for the same encoder, reopens) the container of `encoder`'s value.
    func open(_ bracket: UInt8, close: UInt8, for encoder: StoredEncoder) {
        let level = encoder.level
        let id = ObjectIdentifier(encoder)
        if frames.count > level, frames[level].owner == id, frames[level].close == close {
            closeAbove(level + 1)
            return
        }
        closeAbove(level)
        out.append(bracket)
        frames.append(Frame(close: close, count: 0, owner: id))
    }

    func writeInt<I: BinaryInteger>(_ v: I) {
        if v == 0 { out.append(UInt8(ascii: "0")); return }
        out.append(contentsOf: String(v).utf8)
    }

    func writeDouble(_ d: Double, path: @autoclosure () -> [any CodingKey]) throws {
        guard d.isFinite else {
            throw EncodingError.invalidValue(d, .init(codingPath: path(), debugDescription: "Unable to encode Double.\(d) directly in JSON."))
        }
        if d == d.rounded(), abs(d) < 1e15 {
            writeInt(Int64(d))
        } else {
            out.append(contentsOf: "\(d)".utf8)
        }
    }

    /// Writes `value` as the value that starts here, its containers at index `level` and deeper.
    ///
    /// The scalar types and `[String]` are told apart by comparing metatypes, not by dynamic
    /// casts: a cast costs a runtime call per case tried, and `as? [String]` on another array
    /// type checks it element by element. Any other value writes itself through its `Encodable`
    /// conformance (an optional as its payload or null, as before).
    func writeValue<T: Encodable>(_ value: T, level: Int, encoder parent: StoredEncoder?, key: (any CodingKey)? = nil) throws {
        if T.self == String.self {
            JSON.writeString(unsafeBitCast(value, to: String.self), into: &out)
        } else if T.self == Bool.self {
            out.append(contentsOf: (unsafeBitCast(value, to: Bool.self) ? "true" : "false").utf8)
        } else if T.self == Int.self {
            writeInt(unsafeBitCast(value, to: Int.self))
        } else if T.self == Double.self {
            try writeDouble(unsafeBitCast(value, to: Double.self), path: (parent?.codingPath ?? []) + [key].compactMap { $0 })
        } else if T.self == [String].self {
            out.append(UInt8(ascii: "["))
            for (i, s) in unsafeBitCast(value, to: [String].self).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSON.writeString(s, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        } else if let dictionary = value as? any SortedKeysEncodable {
            try dictionary.writeSorted(self, level: level)
        } else {
            let encoder = StoredEncoder(writer: self, level: level, parent: parent, key: key)
            let start = out.count
            try value.encode(to: encoder)
            // A value that wrote nothing is an empty object, as Foundation writes it.
            if out.count == start { out.append(contentsOf: "{}".utf8) }
        }
    }
}

/// One value being written: `level` is the number of containers around it.
final class StoredEncoder: Swift.Encoder {
    let writer: StoredWriter
    let level: Int
    private let parent: StoredEncoder?
    private let key: (any CodingKey)?

    init(writer: StoredWriter, level: Int, parent: StoredEncoder?, key: (any CodingKey)?) {
        self.writer = writer
        self.level = level
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var e: StoredEncoder? = self
        while let current = e {
            if let k = current.key { path.append(k) }
            e = current.parent
        }
        return path.reversed()
    }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        writer.open(UInt8(ascii: "{"), close: UInt8(ascii: "}"), for: self)
        return KeyedEncodingContainer(StoredKeyedEncoding<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.open(UInt8(ascii: "["), close: UInt8(ascii: "]"), for: self)
        return StoredUnkeyedEncoding(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { StoredSingleEncoding(encoder: self) }
}

private struct StoredKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: StoredEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    private var writer: StoredWriter { encoder.writer }

    private func begin(_ key: Key) {
        writer.beginItem(encoder.level)
        JSON.writeString(key.stringValue, into: &writer.out)
        writer.out.append(UInt8(ascii: ":"))
    }

    mutating func encodeNil(forKey key: Key) throws { begin(key); writer.out.append(contentsOf: "null".utf8) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { begin(key); writer.out.append(contentsOf: (value ? "true" : "false").utf8) }
    mutating func encode(_ value: String, forKey key: Key) throws { begin(key); JSON.writeString(value, into: &writer.out) }
    mutating func encode(_ value: Int, forKey key: Key) throws { begin(key); writer.writeInt(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        begin(key)
        try writer.writeDouble(value, path: encoder.codingPath + [key])
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        begin(key)
        try writer.writeValue(value, level: encoder.level + 1, encoder: encoder, key: key)
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        begin(key)
        return StoredEncoder(writer: writer, level: encoder.level + 1, parent: encoder, key: key).container(keyedBy: NestedKey.self)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        begin(key)
        return StoredEncoder(writer: writer, level: encoder.level + 1, parent: encoder, key: key).unkeyedContainer()
    }
    /// The value under `"super"`; it must write something (no stored type uses this).
    mutating func superEncoder() -> any Swift.Encoder {
        writer.beginItem(encoder.level)
        JSON.writeString("super", into: &writer.out)
        writer.out.append(UInt8(ascii: ":"))
        return StoredEncoder(writer: writer, level: encoder.level + 1, parent: encoder, key: nil)
    }
    mutating func superEncoder(forKey key: Key) -> any Swift.Encoder {
        begin(key)
        return StoredEncoder(writer: writer, level: encoder.level + 1, parent: encoder, key: key)
    }
}

/// A position in an unkeyed container, for coding paths.
private struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct StoredUnkeyedEncoding: UnkeyedEncodingContainer {
    let encoder: StoredEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.writer.frames.count > encoder.level ? encoder.writer.frames[encoder.level].count : 0 }
    private var writer: StoredWriter { encoder.writer }

    mutating func encodeNil() throws { writer.beginItem(encoder.level); writer.out.append(contentsOf: "null".utf8) }
    mutating func encode(_ value: String) throws { writer.beginItem(encoder.level); JSON.writeString(value, into: &writer.out) }
    mutating func encode(_ value: Bool) throws { writer.beginItem(encoder.level); writer.out.append(contentsOf: (value ? "true" : "false").utf8) }
    mutating func encode(_ value: Int) throws { writer.beginItem(encoder.level); writer.writeInt(value) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = count
        writer.beginItem(encoder.level)
        try writer.writeValue(value, level: encoder.level + 1, encoder: encoder, key: IndexKey(index))
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let index = count
        writer.beginItem(encoder.level)
        return StoredEncoder(writer: writer, level: encoder.level + 1, parent: encoder, key: IndexKey(index)).container(keyedBy: NestedKey.self)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let index = count
        writer.beginItem(encoder.level)
        return StoredEncoder(writer: writer, level: encoder.level + 1, parent: encoder, key: IndexKey(index)).unkeyedContainer()
    }
    mutating func superEncoder() -> any Swift.Encoder {
        let index = count
        writer.beginItem(encoder.level)
        return StoredEncoder(writer: writer, level: encoder.level + 1, parent: encoder, key: IndexKey(index))
    }
}

/// The encoder's value itself (an enumeration's raw value, an optional's payload).
private struct StoredSingleEncoding: SingleValueEncodingContainer {
    let encoder: StoredEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    private var writer: StoredWriter { encoder.writer }

    mutating func encodeNil() throws { writer.out.append(contentsOf: "null".utf8) }
    mutating func encode(_ value: Bool) throws { writer.out.append(contentsOf: (value ? "true" : "false").utf8) }
    mutating func encode(_ value: String) throws { JSON.writeString(value, into: &writer.out) }
    mutating func encode(_ value: Int) throws { writer.writeInt(value) }
    mutating func encode(_ value: Double) throws { try writer.writeDouble(value, path: encoder.codingPath) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        // Metatype comparisons, as in `StoredWriter.writeValue`.
        if T.self == String.self {
            try encode(unsafeBitCast(value, to: String.self))
        } else if T.self == Bool.self {
            try encode(unsafeBitCast(value, to: Bool.self))
        } else if T.self == Int.self {
            try encode(unsafeBitCast(value, to: Int.self))
        } else if T.self == Double.self {
            try encode(unsafeBitCast(value, to: Double.self))
        } else {
            try value.encode(to: encoder)
        }
    }
}

// MARK: - Reading

/// Decodes from a parsed ``JSON`` tree.
enum StoredReader {
    static func value<T: Decodable>(_ type: T.Type, _ json: JSON, parent: StoredDecoder?, key: (any CodingKey)?) throws -> T {
        if T.self == String.self {
            guard case .string(let s) = json else { throw mismatch(T.self, json, parent, key) }
            return s as! T
        }
        if T.self == Bool.self {
            guard case .bool(let b) = json else { throw mismatch(T.self, json, parent, key) }
            return b as! T
        }
        if T.self == Int.self { return try int(json, parent, key) as! T }
        if T.self == Double.self {
            guard case .number(let d) = json else { throw mismatch(T.self, json, parent, key) }
            return d as! T
        }
        if T.self == [String].self {
            guard case .array(let items) = json else { throw mismatch(T.self, json, parent, key) }
            var out: [String] = []
            out.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                guard case .string(let s) = item else {
                    throw mismatch(String.self, item, StoredDecoder(json, parent: parent, key: key), IndexKey(i))
                }
                out.append(s)
            }
            return out as! T
        }
        return try T(from: StoredDecoder(json, parent: parent, key: key))
    }

    static func int(_ json: JSON, _ parent: StoredDecoder?, _ key: (any CodingKey)?) throws -> Int {
        guard case .number(let d) = json else { throw mismatch(Int.self, json, parent, key) }
        guard let i = Int(exactly: d) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: path(parent, key),
                    debugDescription: "Number \(d) is not representable in Swift as Int."))
        }
        return i
    }

    static func path(_ parent: StoredDecoder?, _ key: (any CodingKey)?) -> [any CodingKey] {
        (parent?.codingPath ?? []) + (key.map { [$0] } ?? [])
    }

    static func mismatch(_ type: Any.Type, _ json: JSON, _ parent: StoredDecoder?, _ key: (any CodingKey)?) -> DecodingError {
        if json.isNull {
            return .valueNotFound(type, .init(codingPath: path(parent, key), debugDescription: "Expected \(type) value but found null instead."))
        }
        return .typeMismatch(type, .init(codingPath: path(parent, key), debugDescription: "Expected to decode \(type) but found \(kind(json)) instead."))
    }

    static func kind(_ json: JSON) -> String {
        switch json {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }
}

/// One value being read.
final class StoredDecoder: Swift.Decoder {
    let json: JSON
    private let parent: StoredDecoder?
    private let key: (any CodingKey)?

    init(_ json: JSON, parent: StoredDecoder?, key: (any CodingKey)?) {
        self.json = json
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var d: StoredDecoder? = self
        while let current = d {
            if let k = current.key { path.append(k) }
            d = current.parent
        }
        return path.reversed()
    }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = json else {
            throw StoredReader.mismatch([String: Any].self, json, parent, key)
        }
        return KeyedDecodingContainer(StoredKeyedDecoding<Key>(decoder: self, members: members))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = json else { throw StoredReader.mismatch([Any].self, json, parent, key) }
        return StoredUnkeyedDecoding(decoder: self, items: items)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { StoredSingleDecoding(decoder: self) }
}

/// An object's members. Lookups start where the last one hit: the stored types read their
/// members in about the order they wrote them, so most lookups compare one or two names.
private final class StoredKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: StoredDecoder
    let members: [(String, JSON)]
    private var cursor = 0

    init(decoder: StoredDecoder, members: [(String, JSON)]) {
        self.decoder = decoder
        self.members = members
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.0) } }

    private func find(_ key: Key) -> JSON? {
        let n = members.count
        guard n > 0 else { return nil }
        let name = key.stringValue
        var i = cursor < n ? cursor : 0
        for _ in 0..<n {
            if members[i].0 == name {
                cursor = i
                return members[i].1
            }
            i += 1
            if i == n { i = 0 }
        }
        return nil
    }

    private func required(_ key: Key) throws -> JSON {
        guard let v = find(key) else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return v
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { try required(key).isNull }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try StoredReader.value(String.self, try required(key), parent: decoder, key: key)
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try StoredReader.value(Bool.self, try required(key), parent: decoder, key: key)
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try StoredReader.int(try required(key), decoder, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try StoredReader.value(Double.self, try required(key), parent: decoder, key: key)
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try StoredReader.value(T.self, try required(key), parent: decoder, key: key)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(String.self, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(Bool.self, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(Int.self, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(Double.self, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try present(T.self, key) }

    /// Absent or null: nil (as Foundation's decoder reads an optional member).
    private func present<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        guard let v = find(key), !v.isNull else { return nil }
        return try StoredReader.value(T.self, v, parent: decoder, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try StoredDecoder(try required(key), parent: decoder, key: key).container(keyedBy: NestedKey.self)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try StoredDecoder(try required(key), parent: decoder, key: key).unkeyedContainer()
    }
    func superDecoder() throws -> any Swift.Decoder {
        StoredDecoder(members.first { $0.0 == "super" }?.1 ?? .null, parent: decoder, key: nil)
    }
    func superDecoder(forKey key: Key) throws -> any Swift.Decoder {
        StoredDecoder(find(key) ?? .null, parent: decoder, key: key)
    }
}

private struct StoredUnkeyedDecoding: UnkeyedDecodingContainer {
    let decoder: StoredDecoder
    let items: [JSON]
    var currentIndex = 0

    init(decoder: StoredDecoder, items: [JSON]) {
        self.decoder = decoder
        self.items = items
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next(_ type: Any.Type) throws -> JSON {
        guard currentIndex < items.count else {
            throw DecodingError.valueNotFound(
                type,
                .init(
                    codingPath: codingPath + [IndexKey(currentIndex)],
                    debugDescription: "Unkeyed container is at end."))
        }
        defer { currentIndex += 1 }
        return items[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard currentIndex < items.count else { throw DecodingError.valueNotFound(Any?.self, .init(codingPath: codingPath, debugDescription: "Unkeyed container is at end.")) }
        if items[currentIndex].isNull { currentIndex += 1; return true }
        return false
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let index = currentIndex
        return try StoredReader.value(T.self, try next(T.self), parent: decoder, key: IndexKey(index))
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let index = currentIndex
        return try StoredDecoder(try next([String: Any].self), parent: decoder, key: IndexKey(index)).container(keyedBy: NestedKey.self)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let index = currentIndex
        return try StoredDecoder(try next([Any].self), parent: decoder, key: IndexKey(index)).unkeyedContainer()
    }
    mutating func superDecoder() throws -> any Swift.Decoder {
        let index = currentIndex
        return StoredDecoder(try next(Any.self), parent: decoder, key: IndexKey(index))
    }
}

private struct StoredSingleDecoding: SingleValueDecodingContainer {
    let decoder: StoredDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.json.isNull }
    func decode(_ type: String.Type) throws -> String { try StoredReader.value(String.self, decoder.json, parent: decoder, key: nil) }
    func decode(_ type: Bool.Type) throws -> Bool { try StoredReader.value(Bool.self, decoder.json, parent: decoder, key: nil) }
    func decode(_ type: Int.Type) throws -> Int { try StoredReader.int(decoder.json, decoder, nil) }
    func decode(_ type: Double.Type) throws -> Double { try StoredReader.value(Double.self, decoder.json, parent: decoder, key: nil) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == String.self || T.self == Bool.self || T.self == Int.self || T.self == Double.self || T.self == [String].self {
            return try StoredReader.value(T.self, decoder.json, parent: decoder, key: nil)
        }
        return try T(from: decoder)
    }
}

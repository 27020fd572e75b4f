/// A parameter of a query, sent in PostgreSQL's text format except for bytes.
///
/// Text-format parameters are typed by the server from the statement (`$1` compared with a
/// BIGINT column is read as a BIGINT), so the wrapper needs no type OIDs. `.bytes` is sent in
/// binary format, so a `bytea` value crosses unescaped.
public enum PostgresValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case text(String)
    case bytes([UInt8])
    case bool(Bool)

    /// `.text(value)`, or `.null` for nil.
    public static func optional(_ value: String?) -> PostgresValue {
        value.map(PostgresValue.text) ?? .null
    }

    /// `.integer(value)`, or `.null` for nil.
    public static func optional(_ value: Int?) -> PostgresValue {
        value.map { .integer(Int64($0)) } ?? .null
    }
}

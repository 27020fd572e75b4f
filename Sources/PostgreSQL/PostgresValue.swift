/// A parameter of a query, sent in PostgreSQL's text format except for bytes.
///
/// Text-format parameters are typed by the server from the statement (`$1` compared with a
/// BIGINT column is read as a BIGINT), so the wrapper needs no type OIDs. `.bytes` is sent in
/// binary format, so a `bytea` value crosses unescaped.
public enum PostgresValue: Sendable, Equatable {
    /// SQL NULL.
    case null
    /// An integer, sent as its decimal text (fits `int2`/`int4`/`int8` columns by range).
    case integer(Int64)
    /// UTF-8 text; PostgreSQL text cannot hold U+0000, so such a value is refused by the server.
    case text(String)
    /// Raw bytes for a `bytea` column, sent in binary format.
    case bytes([UInt8])
    /// A boolean, sent as `t` or `f`.
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

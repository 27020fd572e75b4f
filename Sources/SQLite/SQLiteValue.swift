/// One SQLite value, by storage class (<https://sqlite.org/datatype3.html>).
///
/// Used both for statement parameters and for result columns. SQLite stores exactly these five
/// classes; dates, booleans and JSON are the caller's encoding on top of them.
///
/// ```swift
/// try db.run("INSERT INTO item(id, name, data) VALUES (?, ?, ?)",
///            [.integer(1), .text("Ünïcödé"), .blob([0x00, 0xFF])])
/// ```
///
/// Binding notes, from the SQLite documentation:
/// * `.real(.nan)` is stored as NULL: SQLite has no NaN value.
/// * `.text` is bound as UTF-8 with its exact byte length, so embedded NUL characters survive.
/// * `.blob([])` stays an empty blob (not NULL); it is bound with `sqlite3_bind_zeroblob(…, 0)`
///   because `sqlite3_bind_blob` with a null pointer means NULL.
public enum SQLiteValue: Sendable, Equatable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer (SQLite's INTEGER storage class; the full `Int64` range).
    case integer(Int64)
    /// An IEEE 754 double (SQLite's REAL storage class).
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral
{
    /// `1` in a bindings array means `.integer(1)`.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// `1.5` in a bindings array means `.real(1.5)`.
    public init(floatLiteral value: Double) { self = .real(value) }
    /// `"x"` in a bindings array means `.text("x")`.
    public init(stringLiteral value: String) { self = .text(value) }
}

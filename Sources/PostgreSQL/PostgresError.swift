/// An error reported by the PostgreSQL server or by libpq, or a misuse of this wrapper.
///
/// `sqlState` is the server's five-character SQLSTATE when the server sent one
/// (<https://www.postgresql.org/docs/15/errcodes-appendix.html>), e.g. `23505` for a unique
/// violation; errors libpq raises itself (connection refused, connection lost) have none.
///
/// ```swift
/// do { try db.run("INSERT INTO t (id) VALUES ($1)", [.text(id)]) }
/// catch let error as PostgresError where error.sqlState == PostgresError.uniqueViolation { … }
/// ```
public struct PostgresError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The SQLSTATE, e.g. `"23505"`; nil when libpq failed without the server's word.
    public let sqlState: String?
    /// The primary message (`PG_DIAG_MESSAGE_PRIMARY`), or libpq's/the wrapper's own text.
    public let message: String
    /// The server's detail line (`PG_DIAG_MESSAGE_DETAIL`), if any.
    public let detail: String?
    /// The SQL being run, if there was one.
    public let sql: String?

    /// Creates an error; the wrapper builds these, tests rarely need to.
    public init(sqlState: String?, message: String, detail: String? = nil, sql: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.sql = sql
    }

    /// SQLSTATE `23505` unique_violation.
    public static let uniqueViolation = "23505"
    /// SQLSTATE `23503` foreign_key_violation.
    public static let foreignKeyViolation = "23503"
    /// SQLSTATE `40001` serialization_failure.
    public static let serializationFailure = "40001"
    /// SQLSTATE `42P01` undefined_table.
    public static let undefinedTable = "42P01"

    /// Whether the SQLSTATE is of class 23, integrity constraint violation.
    public var isConstraintViolation: Bool { sqlState?.hasPrefix("23") ?? false }

    /// `PostgreSQL error 23505: duplicate key value violates … (Key (id)=(x) already exists.); SQL: INSERT …`
    public var description: String {
        var text = "PostgreSQL error \(sqlState ?? "(no SQLSTATE)"): \(message)"
        if let detail { text += " (\(detail))" }
        if let sql { text += "; SQL: \(sql)" }
        return text
    }
}

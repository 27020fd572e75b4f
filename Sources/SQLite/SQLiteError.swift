import CSQLite

/// An error reported by SQLite, or a misuse of this wrapper detected before SQLite saw it.
///
/// `code` is SQLite's *extended* result code (extended codes are switched on for every
/// ``Connection``), so a foreign-key failure reads `787` (`SQLITE_CONSTRAINT_FOREIGNKEY`), not
/// just `19` (`SQLITE_CONSTRAINT`). Compare ``primaryCode`` when the family is enough.
/// See <https://sqlite.org/rescode.html>.
///
/// ```swift
/// do { try db.run("INSERT INTO child(parent_id) VALUES (?)", [.integer(42)]) }
/// catch let error as SQLiteError where error.primaryCode == 19 { /* constraint */ }
/// ```
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The extended result code, e.g. `787` for `SQLITE_CONSTRAINT_FOREIGNKEY`.
    public let code: Int32
    /// SQLite's message for this failure (`sqlite3_errmsg`), or the wrapper's own explanation.
    public let message: String
    /// The SQL being prepared or run when the error happened, if there was one.
    public let sql: String?

    /// Creates an error; the wrapper builds these, tests and callers rarely need to.
    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code: the low 8 bits of ``code`` (e.g. `19`, `SQLITE_CONSTRAINT`).
    ///
    /// Extended codes are defined as `primary | (n << 8)`, so masking recovers the family.
    public var primaryCode: Int32 { code & 0xFF }

    /// `SQLITE_FULL` (13): the disk, or the database's `max_page_count`, is full.
    public var isFull: Bool { primaryCode == SQLITE_FULL }

    /// `SQLite error 787 (constraint failed): FOREIGN KEY constraint failed; SQL: INSERT …`
    public var description: String {
        guard let sql else { return descriptionWithoutSQL }
        return descriptionWithoutSQL + "; SQL: \(sql)"
    }

    /// `SQLite error 1 (SQL logic error): near "FROB": syntax error`: the code and both texts,
    /// without the statement (for messages where the SQL would be noise or leak the schema).
    public var descriptionWithoutSQL: String {
        // sqlite3_errstr gives the generic English text of a result code; the specific message
        // (which constraint, which column) is in `message`.
        "SQLite error \(code) (\(String(cString: sqlite3_errstr(code)))): \(message)"
    }
}

extension SQLiteError {
    /// Reads the current error of `db` (extended code and message) and tags it with `sql`.
    ///
    /// `code` is passed in because the functions that fail return it directly; the connection's
    /// message is the one SQLite wrote for that same failure.
    init(code: Int32, db: OpaquePointer?, sql: String?) {
        let message =
            db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        self.init(code: code, message: message, sql: sql)
    }

    /// A wrapper-detected misuse, reported as `SQLITE_MISUSE` so callers see one error type.
    static func misuse(_ message: String, sql: String? = nil) -> SQLiteError {
        SQLiteError(code: SQLITE_MISUSE, message: message, sql: sql)
    }
}

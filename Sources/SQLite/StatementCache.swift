import CSQLite

/// `SQLITE_TRANSIENT` is a C macro (`((sqlite3_destructor_type)-1)`) that Swift cannot import.
/// It tells SQLite to copy bound text and blobs before the bind call returns, which is what
/// Swift needs: the buffers handed out by `withUTF8`/`withUnsafeBytes` die with the closure.
let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// `SQLITE_STATIC` (`((sqlite3_destructor_type)0)`): SQLite uses the bound bytes in place, so
/// they must stay valid until the statement is reset or rebound (`Connection.bound`).
let SQLITE_STATIC: sqlite3_destructor_type? = nil

/// Compiled statements of one connection, keyed by their SQL text.
///
/// Preparing is a large share of a small statement's cost (the navsim prototype measured 2×
/// throughput at 100 rows per transaction with a cache), so `run`/`query` reuse statements.
/// They are prepared with `SQLITE_PREPARE_PERSISTENT`, SQLite's hint that "the prepared
/// statement will be retained for a long time and probably reused many times"
/// (<https://sqlite.org/c3ref/c_prepare_normalize.html>). Statements made with
/// `sqlite3_prepare_v3` re-prepare themselves after a schema change, so the cache never needs
/// invalidating.
struct StatementCache {
    /// More distinct SQL texts than a service has is a sign of values interpolated into SQL
    /// instead of bound; past this many the cache starts over rather than growing forever.
    static let capacity = 256

    private var statements: [String: OpaquePointer] = [:]
    /// The statements found last, looked at before the dictionary: a store's SQL texts are
    /// constants, so a length check and `==` (which sees the same string storage at once) find
    /// the hot ones, where the dictionary hashes every byte of a text on every use.
    private var recent: [(sql: String, statement: OpaquePointer)] = []
    /// Where the next statement found in the dictionary replaces one of ``recent``.
    private var nextRecent = 0
    static let recentCapacity = 12

    var count: Int { statements.count }

    /// The cached statement for `sql`, prepared on first use.
    mutating func statement(for sql: String, in db: OpaquePointer) throws(SQLiteError) -> OpaquePointer {
        let length = sql.utf8.count
        for entry in recent where entry.sql.utf8.count == length && entry.sql == sql { return entry.statement }
        let statement: OpaquePointer
        if let cached = statements[sql] {
            statement = cached
        } else {
            statement = try Self.prepare(sql, in: db, persistent: true)
            if statements.count >= Self.capacity { finalizeAll() }
            statements[sql] = statement
        }
        if recent.count < Self.recentCapacity {
            recent.append((sql, statement))
        } else {
            recent[nextRecent] = (sql, statement)
            nextRecent = (nextRecent + 1) % Self.recentCapacity
        }
        return statement
    }

    /// Finalizes every statement; required before `sqlite3_close_v2` can free the connection.
    mutating func finalizeAll() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
        recent.removeAll()
        nextRecent = 0
    }

    /// Compiles exactly one SQL statement.
    ///
    /// `sqlite3_prepare_v3` silently ignores everything after the first statement, so a second
    /// statement in `sql` (comments and whitespace are fine) is reported as misuse instead of
    /// being dropped without a trace.
    static func prepare(_ sql: String, in db: OpaquePointer, persistent: Bool) throws(SQLiteError) -> OpaquePointer {
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        var statement: OpaquePointer?
        var hasSecondStatement = false
        let rc = sql.withCString { text -> Int32 in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v3(db, text, -1, flags, &statement, &tail)
            if rc == SQLITE_OK, let tail, tail.pointee != 0 {
                // Compile the remainder only to learn whether it holds another statement;
                // text that does not even parse counts as one.
                var rest: OpaquePointer?
                let restRC = sqlite3_prepare_v3(db, tail, -1, 0, &rest, nil)
                hasSecondStatement = restRC != SQLITE_OK || rest != nil
                sqlite3_finalize(rest)
            }
            return rc
        }
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, db: db, sql: sql) }
        guard let statement else {
            throw .misuse("no SQL statement to run (empty or only comments)", sql: sql)
        }
        if hasSecondStatement {
            sqlite3_finalize(statement)
            throw .misuse("run/query take exactly one statement; use execute(_:) for scripts", sql: sql)
        }
        return statement
    }
}

import CSQLite

/// One SQLite database connection with a statement cache.
///
/// ```swift
/// let db = try Connection(path: "/var/lib/navsim/navsim.sqlite")
/// try db.transaction {
///     try db.run("INSERT INTO session(id, version) VALUES (?, ?)", [.text(id), .integer(1)])
/// }
/// let rows = try db.query("SELECT version FROM session WHERE id = ?", [.text(id)])
/// ```
///
/// **Threading.** Not `Sendable`: use a connection from one thread at a time, e.g. owned by a
/// `Mutex`. It is opened with `SQLITE_OPEN_NOMUTEX` ("multi-thread" mode), which drops SQLite's
/// per-call mutex and is safe "provided that no single database connection … is used in two
/// or more threads at the same time" (<https://sqlite.org/threadsafe.html>); the owner's lock
/// already guarantees that, so SQLite's own would be paid for twice.
///
/// **Defaults** set by ``init(path:readOnly:durability:)``, each for a documented reason:
/// * `journal_mode=WAL`: "readers do not block writers and a writer does not block readers"
///   (<https://sqlite.org/wal.html>). The mode is persistent in the file, and SQLite answers
///   the pragma with the mode actually in effect, so the answer is checked.
/// * `synchronous` from ``Durability``.
/// * `busy_timeout=5000`: wait up to 5 s for another connection's lock instead of failing with
///   `SQLITE_BUSY` at once (<https://sqlite.org/c3ref/busy_timeout.html>).
/// * `foreign_keys=ON`: "foreign key constraints are disabled by default … so must be enabled
///   separately for each database connection" (<https://sqlite.org/foreignkeys.html>).
/// * Extended result codes on, so errors say *which* constraint family failed
///   (<https://sqlite.org/rescode.html#extrc>).
/// * Double-quoted string literals off (`SQLITE_DBCONFIG_DQS_DML`/`_DDL`): otherwise a
///   misspelled `"column"` silently becomes a string; the SQLite authors call accepting them a
///   misfeature (<https://sqlite.org/quirks.html#dblquote>). Identifiers in double quotes work.
///
/// Errors are ``SQLiteError`` values carrying the extended code, SQLite's message and the SQL.
public final class Connection {
    /// How hard a commit works to survive power loss; sets `PRAGMA synchronous`.
    ///
    /// Both levels survive a crash of the process (`kill -9`) and neither corrupts the database.
    /// They differ on power loss or an OS crash (<https://sqlite.org/pragma.html#pragma_synchronous>).
    public enum Durability: Sendable {
        /// `synchronous=NORMAL`: in WAL mode, syncs only at checkpoints. "A transaction
        /// committed in WAL mode with synchronous=NORMAL might roll back following a power
        /// loss or system crash." About 5× the single-row commit rate of `.full` here.
        case normal
        /// `synchronous=FULL`: the WAL is synced on every commit, so a transaction that
        /// returned from COMMIT survives power loss. The default: an acknowledged write stays.
        case full
    }

    /// The path the connection was opened with (`:memory:` for a private in-memory database).
    public let path: String
    /// Whether the connection was opened with `SQLITE_OPEN_READONLY`.
    public let isReadOnly: Bool

    /// The `sqlite3*` handle; never leaves this module.
    let handle: OpaquePointer
    private var statements = StatementCache()
    /// Statements run so far through ``run(_:_:)``, ``query(_:_:)`` and ``transaction(_:)``
    /// (not ``execute(_:)``): lets tests count what a write costs in statements.
    public private(set) var statementsRun = 0
    /// How many ``transaction(_:)`` calls are running as savepoints inside an outer one.
    private var savepointDepth = 0

    /// Opens (and for read-write, creates) the database at `path` and applies the defaults above.
    ///
    /// - Parameters:
    ///   - path: A file path, or `:memory:`. The directory must exist.
    ///   - readOnly: Open with `SQLITE_OPEN_READONLY`; writes then fail with `SQLITE_READONLY`.
    ///     The journal mode is left as the file has it, since changing it is a write.
    ///   - durability: The `synchronous` level; `.full` unless losing the last commits on
    ///     power loss is acceptable.
    /// - Throws: ``SQLiteError`` if the file cannot be opened (`SQLITE_CANTOPEN`, message names
    ///   the path), is not a database, or refuses WAL mode (file systems without shared memory).
    public init(path: String, readOnly: Bool = false, durability: Durability = .full) throws {
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_NOMUTEX
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            // SQLite hands back a handle even on failure (except out of memory); it carries the
            // message and must be closed all the same.
            let code = db.map { sqlite3_extended_errcode($0) } ?? rc
            let base = SQLiteError(code: code, db: db, sql: nil)
            sqlite3_close_v2(db)
            throw SQLiteError(code: code, message: "\(base.message) (path: \(path))", sql: nil)
        }
        self.path = path
        self.isReadOnly = readOnly
        self.handle = db
        // From here on a throw runs deinit, which closes the handle.
        try configure(readOnly: readOnly, durability: durability)
    }

    deinit {
        // sqlite3_close_v2 would defer the close while statements are alive ("zombie"
        // connection); finalizing first makes the close immediate.
        statements.finalizeAll()
        sqlite3_close_v2(handle)
    }

    private func configure(readOnly: Bool, durability: Durability) throws(SQLiteError) {
        sqlite3_extended_result_codes(handle, 1)
        // First, so that the journal-mode switch below already waits for other connections.
        try check(sqlite3_busy_timeout(handle, 5000), sql: "PRAGMA busy_timeout = 5000")
        try check(csqlite_db_config_int(handle, SQLITE_DBCONFIG_DQS_DML, 0, nil), sql: nil)
        try check(csqlite_db_config_int(handle, SQLITE_DBCONFIG_DQS_DDL, 0, nil), sql: nil)
        try perform("PRAGMA foreign_keys = ON")
        // Asked for read-write, SQLite falls back to read-only when the file or its file system
        // is; say so now, naming the path, instead of failing the journal-mode switch below.
        if !readOnly, sqlite3_db_readonly(handle, "main") == 1 {
            throw SQLiteError(code: SQLITE_READONLY, message: "the database cannot be written (path: \(path))", sql: nil)
        }
        if !readOnly {
            let sql = "PRAGMA journal_mode = WAL"
            let mode = try rows(sql, [], cached: false).first?.text(0)?.lowercased()
            // In-memory and temporary databases have no file name and answer "memory".
            let fileName = sqlite3_db_filename(handle, "main").map { String(cString: $0) } ?? ""
            if !fileName.isEmpty && mode != "wal" {
                throw SQLiteError(
                    code: SQLITE_ERROR,
                    message: "journal_mode stayed \(mode ?? "unknown") instead of wal; WAL needs "
                        + "shared memory, which this file system may not provide (path: \(path))",
                    sql: sql)
            }
        }
        switch durability {
        case .normal: try perform("PRAGMA synchronous = NORMAL")
        case .full: try perform("PRAGMA synchronous = FULL")
        }
    }

    /// Proves the database can be written, so a server refuses to start rather than failing
    /// every write later: SQLite quietly opens a file it may not write (read-only file or file
    /// system) read-only (`sqlite3_db_readonly`), and a directory where the journal cannot be
    /// written only shows at the first commit, so this also commits one real write: the header's
    /// `user_version` rewritten with its own value, which changes nothing.
    /// - Throws: ``SQLiteError`` `SQLITE_READONLY` naming the path, or the write's own error
    ///   (`SQLITE_READONLY`, `SQLITE_CANTOPEN`, `SQLITE_IOERR`, `SQLITE_FULL`).
    public func checkWritable() throws(SQLiteError) {
        if isReadOnly || sqlite3_db_readonly(handle, "main") == 1 {
            throw SQLiteError(code: SQLITE_READONLY, message: "the database cannot be written (path: \(path))", sql: nil)
        }
        let version = try rows("PRAGMA user_version", [], cached: false).first?.int(0) ?? 0
        do {
            try perform("BEGIN IMMEDIATE")
            try perform("PRAGMA user_version = \(version)")
            try perform("COMMIT")
        } catch {
            if isInTransaction { try? perform("ROLLBACK") }
            throw SQLiteError(code: error.code, message: "\(error.message) (path: \(path))", sql: nil)
        }
    }

    // MARK: Running SQL

    /// Runs one or more `;`-separated statements, discarding any rows (`sqlite3_exec`).
    ///
    /// For scripts and schema: migrations, `PRAGMA`s. Nothing is cached and nothing can be
    /// bound, so values belong in ``run(_:_:)`` instead.
    /// - Throws: ``SQLiteError`` from the first failing statement; earlier ones stay applied
    ///   unless you are inside ``transaction(_:)``.
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard rc == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            throw SQLiteError(code: rc, message: text, sql: sql)
        }
    }

    /// Runs one statement with positional `?` parameters, stepping it to completion.
    ///
    /// The compiled statement is cached by `sql`, so keep the SQL constant and pass values in
    /// `bindings`. Rows the statement produces (e.g. `RETURNING`) are discarded; use
    /// ``query(_:_:)`` to read them.
    /// - Parameters:
    ///   - sql: Exactly one statement.
    ///   - bindings: One value per parameter, in order (`?NNN` and `:name` count by position).
    /// - Throws: ``SQLiteError``: SQLite's failure (constraint, busy, …), or `SQLITE_MISUSE`
    ///   for a binding count that differs from the statement's or a second statement in `sql`.
    public func run(_ sql: String, _ bindings: [SQLiteValue] = []) throws {
        try perform(sql, bindings)
    }

    /// Runs one statement and returns all of its rows.
    ///
    /// Cached and bound like ``run(_:_:)``. Every row is read before returning, so the
    /// statement is free again and the rows are plain values.
    /// - Returns: The rows in SQLite's order; empty when nothing matched.
    /// - Throws: ``SQLiteError`` as for ``run(_:_:)``.
    public func query(_ sql: String, _ bindings: [SQLiteValue] = []) throws -> [Row] {
        try rows(sql, bindings, cached: true)
    }

    /// The rowid of the most recent successful `INSERT` on this connection
    /// (`sqlite3_last_insert_rowid`); 0 if there was none.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the most recent `INSERT`, `UPDATE` or `DELETE` on this connection, not
    /// counting triggers or foreign-key actions (`sqlite3_changes64`).
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The database's `PRAGMA user_version`: an integer SQLite stores in the file header and
    /// never interprets; SessionStorage's `Migrator` keeps the number of applied migrations in it.
    public var userVersion: Int {
        get throws { Int(try rows("PRAGMA user_version", [], cached: true).first?.int(0) ?? 0) }
    }

    // MARK: Transactions

    /// Whether a transaction is open (SQLite is not in autocommit mode).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` in a write transaction: `BEGIN IMMEDIATE`, then `COMMIT`, or `ROLLBACK` if
    /// `body` or the commit throws.
    ///
    /// IMMEDIATE takes the write lock up front (waiting up to the busy timeout). A plain
    /// (DEFERRED) transaction that reads and then writes can instead fail with `SQLITE_BUSY`
    /// on the lock upgrade, and SQLite skips the busy handler there to avoid deadlock
    /// (<https://sqlite.org/lang_transaction.html>, <https://sqlite.org/c3ref/busy_handler.html>).
    ///
    /// **Nesting** is supported with savepoints: called while a transaction is open, this runs
    /// `SAVEPOINT` … `RELEASE`. A throwing inner body rolls back only its own changes and
    /// rethrows; the outer transaction goes on if its body catches the error. Nothing is
    /// durable until the outermost transaction commits.
    ///
    /// - Returns: What `body` returned, once committed.
    /// - Throws: `body`'s error unchanged (after the rollback), or ``SQLiteError`` from
    ///   `BEGIN`/`COMMIT` (after which nothing was committed).
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction { return try savepoint(body) }
        try perform("BEGIN IMMEDIATE")
        let value: T
        do {
            value = try body()
            try perform("COMMIT")
        } catch {
            // A failed COMMIT (e.g. SQLITE_BUSY, deferred foreign keys) leaves the transaction
            // open; some errors (SQLITE_FULL, SQLITE_IOERR, …) already rolled it back.
            if isInTransaction { try? perform("ROLLBACK") }
            throw error
        }
        return value
    }

    private func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let sql = SavepointSQL.at(savepointDepth)
        try perform(sql.begin)
        let value: T
        do {
            value = try body()
        } catch {
            // ROLLBACK TO undoes the work but keeps the savepoint; RELEASE then pops it. If an
            // error already rolled back the whole transaction there is nothing left to undo.
            if isInTransaction {
                try? perform(sql.rollback)
                try? perform(sql.release)
            }
            throw error
        }
        try perform(sql.release)
        return value
    }

    /// The three statements of the savepoint at one nesting depth, built once: a group commit
    /// runs a savepoint per queued write, and building their texts per use was string work
    /// repeated for every write.
    private struct SavepointSQL: Sendable {
        let begin: String, release: String, rollback: String

        init(depth: Int) {
            let name = "navsim_savepoint_\(depth)"
            begin = "SAVEPOINT \(name)"
            release = "RELEASE \(name)"
            rollback = "ROLLBACK TO \(name)"
        }

        /// The depths a store nests (a batch's savepoint inside its transaction, and a few more).
        private static let built = (1...4).map(SavepointSQL.init(depth:))

        static func at(_ depth: Int) -> SavepointSQL {
            depth <= built.count ? built[depth - 1] : SavepointSQL(depth: depth)
        }
    }

    /// Copies the whole write-ahead log into the database and truncates it to zero bytes
    /// (`PRAGMA wal_checkpoint(TRUNCATE)`).
    ///
    /// SQLite already checkpoints automatically every 1000 pages; call this to bound the WAL
    /// after bursts or before a backup. It waits up to the busy timeout for readers and writers.
    /// A no-op for databases not in WAL mode.
    /// - Throws: ``SQLiteError`` `SQLITE_BUSY` if other connections kept it from finishing.
    public func checkpoint() throws {
        let rc = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
        try check(rc, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    }

    // MARK: Internals

    /// Steps a cached statement to completion, discarding rows: an `INSERT … RETURNING` only
    /// finishes its work when stepped until `SQLITE_DONE`.
    private func perform(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) {
        try withStatement(sql, bindings, cached: true) { (statement) throws(SQLiteError) in
            while true {
                let rc = sqlite3_step(statement)
                if rc == SQLITE_DONE { return }
                if rc != SQLITE_ROW { throw SQLiteError(code: rc, db: handle, sql: sql) }
            }
        }
    }

    private func check(_ rc: Int32, sql: String?) throws(SQLiteError) {
        if rc != SQLITE_OK { throw SQLiteError(code: rc, db: handle, sql: sql) }
    }

    func rows(_ sql: String, _ bindings: [SQLiteValue], cached: Bool) throws(SQLiteError) -> [Row] {
        try withStatement(sql, bindings, cached: cached) { (statement) throws(SQLiteError) in
            var rows: [Row] = []
            // Read the columns only after the first step: a cached statement re-prepares
            // itself inside sqlite3_step after a schema change, so `SELECT *` can gain columns.
            var names: [String] = []
            while true {
                let rc = sqlite3_step(statement)
                if rc == SQLITE_DONE { return rows }
                guard rc == SQLITE_ROW else { throw SQLiteError(code: rc, db: handle, sql: sql) }
                if rows.isEmpty {
                    names = (0..<sqlite3_column_count(statement)).map { column in
                        // NULL only when SQLite is out of memory; an empty name beats a crash.
                        sqlite3_column_name(statement, column).map { String(cString: $0) } ?? ""
                    }
                }
                var values: [SQLiteValue] = []
                values.reserveCapacity(names.count)
                for column in 0..<Int32(names.count) {
                    values.append(try value(statement, column, sql: sql))
                }
                rows.append(Row(columnNames: names, values: values))
            }
        }
    }

    /// Hands `body` a statement with `bindings` applied, and leaves it reusable afterwards:
    /// cached statements are reset (which also releases their read locks) and their bindings
    /// cleared so no value lingers; one-off statements are finalized.
    private func withStatement<R>(
        _ sql: String, _ bindings: [SQLiteValue], cached: Bool,
        _ body: (OpaquePointer) throws(SQLiteError) -> R
    ) throws(SQLiteError) -> R {
        statementsRun &+= 1
        let statement =
            cached
            ? try statements.statement(for: sql, in: handle)
            : try StatementCache.prepare(sql, in: handle, persistent: false)
        defer {
            if cached {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            } else {
                sqlite3_finalize(statement)
            }
        }
        let expected = Int(sqlite3_bind_parameter_count(statement))
        guard bindings.count == expected else {
            throw .misuse("statement has \(expected) parameter(s) but \(bindings.count) value(s) were bound", sql: sql)
        }
        return try bound(bindings, from: 0, to: statement, sql: sql, body)
    }

    /// Binds `bindings[index...]` (SQLite parameters are 1-based) and runs `body` with them bound.
    ///
    /// Text and blobs are bound `SQLITE_STATIC`, so SQLite does not allocate and copy each one:
    /// each is bound inside the closure that lends its bytes, and `body` (the statement's steps,
    /// the only time SQLite reads them) runs inside all those closures. The caller resets the
    /// statement and clears its bindings before anything could read them again.
    private func bound<R>(
        _ bindings: [SQLiteValue], from index: Int, to statement: OpaquePointer, sql: String,
        _ body: (OpaquePointer) throws(SQLiteError) -> R
    ) throws(SQLiteError) -> R {
        var offset = index
        while offset < bindings.count {
            let position = Int32(offset + 1)
            switch bindings[offset] {
            case .null:
                try check(sqlite3_bind_null(statement, position), sql: sql)
            case .integer(let int):
                try check(sqlite3_bind_int64(statement, position, int), sql: sql)
            case .real(let double):
                try check(sqlite3_bind_double(statement, position, double), sql: sql)
            case .text(var text):
                return try text.withUTF8 { utf8 in
                    // A nil base (possible for empty strings) would bind NULL, not ''.
                    guard let base = utf8.baseAddress, !utf8.isEmpty else {
                        return bindThenRest(
                            { sqlite3_bind_text64(statement, position, "", 0, SQLITE_TRANSIENT, UInt8(SQLITE_UTF8)) },
                            bindings, after: offset, to: statement, sql: sql, body)
                    }
                    // Handed to C as `const char *`; Swift never reads it as `CChar`.
                    return bindThenRest(
                        {
                            sqlite3_bind_text64(
                                statement, position, UnsafePointer<CChar>(OpaquePointer(base)),
                                UInt64(utf8.count), SQLITE_STATIC, UInt8(SQLITE_UTF8))
                        },
                        bindings, after: offset, to: statement, sql: sql, body)
                }.get()
            case .blob(let bytes):
                // sqlite3_bind_blob with a NULL pointer binds NULL; a zero-length zeroblob is the empty blob.
                if bytes.isEmpty {
                    try check(sqlite3_bind_zeroblob(statement, position, 0), sql: sql)
                } else {
                    return try bytes.withUnsafeBytes { raw in
                        bindThenRest(
                            { sqlite3_bind_blob64(statement, position, raw.baseAddress, UInt64(raw.count), SQLITE_STATIC) },
                            bindings, after: offset, to: statement, sql: sql, body)
                    }.get()
                }
            }
            offset += 1
        }
        return try body(statement)
    }

    /// One binding by `bind` (inside the closure lending its bytes), then the bindings after
    /// `offset` and `body`, as ``bound(_:from:to:sql:_:)``; the error as a value, since the
    /// lending closures do not pass typed errors on.
    private func bindThenRest<R>(
        _ bind: () -> Int32, _ bindings: [SQLiteValue], after offset: Int, to statement: OpaquePointer, sql: String,
        _ body: (OpaquePointer) throws(SQLiteError) -> R
    ) -> Result<R, SQLiteError> {
        do throws(SQLiteError) {
            try check(bind(), sql: sql)
            return .success(try bound(bindings, from: offset + 1, to: statement, sql: sql, body))
        } catch {
            return .failure(error)
        }
    }

    private func value(_ statement: OpaquePointer, _ column: Int32, sql: String) throws(SQLiteError) -> SQLiteValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_NULL:
            return .null
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(statement, column))
        case SQLITE_BLOB:
            // Pointer first, then the byte count, as https://sqlite.org/c3ref/column_blob.html asks.
            let bytes = sqlite3_column_blob(statement, column)
            let count = Int(sqlite3_column_bytes(statement, column))
            guard let bytes, count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default:  // SQLITE_TEXT
            guard let text = sqlite3_column_text(statement, column) else {
                // NULL for a TEXT value means the conversion ran out of memory.
                throw SQLiteError(code: SQLITE_NOMEM, db: handle, sql: sql)
            }
            let count = Int(sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        }
    }
}

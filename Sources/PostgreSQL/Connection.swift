import CLibPQ
#if canImport(Glibc)
import Glibc
#endif

/// One PostgreSQL connection through libpq, with parameterized queries as prepared statements.
///
/// ```swift
/// let db = try Connection(url: "postgresql://navsim@127.0.0.1:5432/navsim")
/// try db.transaction {
///     try db.run("INSERT INTO sessions (id, version) VALUES ($1, $2)", [.text(id), .integer(0)])
/// }
/// let rows = try db.query("SELECT version FROM sessions WHERE id = $1", [.text(id)])
/// ```
///
/// **Threading.** Not `Sendable`, like the SQLite target's connection: libpq allows a `PGconn`
/// on one thread at a time ("libpq is reentrant and thread-safe … two threads [must not]
/// manipulate the same PGconn object at the same time",
/// <https://www.postgresql.org/docs/15/libpq-threading.html>), so its owner keeps it in a `Mutex`.
///
/// **Protocol.** Parameters and results use the text format (bytes parameters go in binary,
/// see ``PostgresValue``). Each distinct SQL text is prepared once (`PQprepare`) and then run
/// by name (`PQexecPrepared`), so the server parses and plans it once per connection.
///
/// **Session settings** made by ``init(url:)``: `synchronous_commit = on` (a `COMMIT` returns
/// only after its WAL record is flushed to disk, <https://www.postgresql.org/docs/15/runtime-config-wal.html>),
/// checked with `SHOW`, and `client_min_messages = warning`, so that notices such as
/// "relation already exists, skipping" do not reach standard error.
///
/// Errors are ``PostgresError`` values with the SQLSTATE, the server's message and the SQL.
public final class Connection {
    /// The `PGconn*`; never leaves this module.
    private let handle: OpaquePointer
    /// Prepared statement names by SQL text.
    private var prepared: [String: String] = [:]
    /// How many ``transaction(_:)`` calls run as savepoints inside an outer one.
    private var savepointDepth = 0

    /// Connects with a libpq connection string: a URI (`postgresql://user@host:port/db?…`,
    /// `postgres://` too) or `key=value` pairs (<https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-CONNSTRING>).
    /// - Throws: ``PostgresError`` without SQLSTATE when the server cannot be reached or refuses
    ///   the login (libpq's message), or the settings above fail.
    public init(url: String) throws {
        guard let conn = PQconnectdb(url) else {
            throw PostgresError(sqlState: nil, message: "libpq could not allocate a connection")
        }
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = Self.trimmed(PQerrorMessage(conn))
            PQfinish(conn)
            throw PostgresError(sqlState: nil, message: "cannot connect: \(message)")
        }
        handle = conn
        try execute("SET client_min_messages = warning; SET synchronous_commit = on")
        let setting = try query("SHOW synchronous_commit").first?.text(0)
        guard setting == "on" else {
            throw PostgresError(sqlState: nil, message: "synchronous_commit stayed \(setting ?? "unknown") instead of on")
        }
    }

    deinit { PQfinish(handle) }

    /// Whether the connection is still usable (`PQstatus` is `CONNECTION_OK`).
    public var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// The server's backend process id (`PQbackendPID`); a notification sent by this connection
    /// carries it.
    public var backendPID: Int32 { PQbackendPID(handle) }

    // MARK: Statements

    /// Runs one or more statements without parameters (`PQexec`), e.g. a migration file.
    /// Results are discarded.
    public func execute(_ sql: String) throws {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Runs one statement with parameters `$1…$n`.
    /// - Returns: The number of rows the statement inserted, updated or deleted (`PQcmdTuples`),
    ///   0 for other statements.
    @discardableResult
    public func run(_ sql: String, _ parameters: [PostgresValue] = []) throws -> Int {
        let result = try perform(sql, parameters)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// Runs one statement with parameters `$1…$n` and returns its rows.
    public func query(_ sql: String, _ parameters: [PostgresValue] = []) throws -> [Row] {
        let result = try perform(sql, parameters)
        defer { PQclear(result) }
        let columns = PQnfields(result)
        let names = (0..<columns).map { String(cString: PQfname(result, $0)) }
        return (0..<PQntuples(result)).map { row in
            Row(
                columnNames: names,
                values: (0..<columns).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
                })
        }
    }

    /// Prepares `sql` once per connection, runs it, and returns the checked result to be cleared.
    private func perform(_ sql: String, _ parameters: [PostgresValue]) throws -> OpaquePointer {
        let name: String
        if let known = prepared[sql] {
            name = known
        } else {
            name = "s\(prepared.count + 1)"
            let result = PQprepare(handle, name, sql, 0, nil)
            defer { PQclear(result) }
            try check(result, sql: sql)
            prepared[sql] = name
        }
        let result = Self.withParameters(parameters) { values, lengths, formats in
            PQexecPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 0)
        }
        do {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            throw error
        }
        guard let result else { throw PostgresError(sqlState: nil, message: "no result", sql: sql) }
        return result
    }

    /// Copies the parameters into C memory for the duration of `body`.
    private static func withParameters<R>(
        _ parameters: [PostgresValue],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> R
    ) -> R {
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        func copy(_ bytes: some Collection<UInt8>, format: Int32) {
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            var i = 0
            for byte in bytes { buffer[i] = CChar(bitPattern: byte); i += 1 }
            buffer[i] = 0
            buffers.append(buffer)
            lengths.append(Int32(bytes.count))
            formats.append(format)
        }
        for parameter in parameters {
            switch parameter {
            case .null:
                buffers.append(nil)
                lengths.append(0)
                formats.append(0)
            case .integer(let value): copy(String(value).utf8, format: 0)
            case .text(let value): copy(value.utf8, format: 0)
            case .bool(let value): copy((value ? "t" : "f").utf8, format: 0)
            case .bytes(let value): copy(value, format: 1)
            }
        }
        defer { for buffer in buffers { buffer?.deallocate() } }
        let values = buffers.map { $0.map { UnsafePointer($0) } }
        return values.withUnsafeBufferPointer { v in
            lengths.withUnsafeBufferPointer { l in
                formats.withUnsafeBufferPointer { f in body(v.baseAddress, l.baseAddress, f.baseAddress) }
            }
        }
    }

    /// Throws unless `result` is a success (`PGRES_COMMAND_OK`, `PGRES_TUPLES_OK`, `PGRES_EMPTY_QUERY`).
    private func check(_ result: OpaquePointer?, sql: String?) throws {
        guard let result else {
            throw PostgresError(sqlState: nil, message: Self.trimmed(PQerrorMessage(handle)), sql: sql)
        }
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY { return }
        func field(_ code: UInt8) -> String? {
            PQresultErrorField(result, Int32(code)).map { String(cString: $0) }
        }
        throw PostgresError(
            sqlState: field(UInt8(ascii: "C")),  // PG_DIAG_SQLSTATE
            message: field(UInt8(ascii: "M")) ?? Self.trimmed(PQresultErrorMessage(result)),  // PG_DIAG_MESSAGE_PRIMARY
            detail: field(UInt8(ascii: "D")),  // PG_DIAG_MESSAGE_DETAIL
            sql: sql)
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "unknown libpq error" }
        var text = String(cString: message)
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }

    // MARK: Transactions

    /// Whether a transaction is open, healthy or aborted by an error (`PQtransactionStatus` is
    /// `PQTRANS_INTRANS`, `PQTRANS_INERROR` or `PQTRANS_ACTIVE`). False on a broken connection
    /// (`PQTRANS_UNKNOWN`), whose transaction the server has rolled back.
    public var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Runs `body` in a transaction: `BEGIN` (or `begin`, e.g.
    /// `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`) … `COMMIT`, or `ROLLBACK` when `body`
    /// throws. Inside an open transaction it runs as `SAVEPOINT` … `RELEASE`, and a throw rolls
    /// back to the savepoint only, so the outer transaction goes on (PostgreSQL otherwise refuses
    /// every statement after an error until the transaction ends).
    ///
    /// - Throws: `body`'s error, or the error of `BEGIN`/`COMMIT`. A `COMMIT` of a transaction
    ///   that an error aborted is an error here (the server would answer it with a silent
    ///   `ROLLBACK`).
    public func transaction<T>(begin: String = "BEGIN", _ body: () throws -> T) throws -> T {
        if isInTransaction { return try savepoint(body) }
        try execute(begin)
        do {
            let value = try body()
            guard PQtransactionStatus(handle) == PQTRANS_INTRANS else {
                throw PostgresError(sqlState: "25P02", message: "the transaction was aborted by an earlier error")
            }
            try execute("COMMIT")
            return value
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    private func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "sp\(savepointDepth)"
        try execute("SAVEPOINT \(name)")
        do {
            let value = try body()
            try execute("RELEASE SAVEPOINT \(name)")
            return value
        } catch {
            if isInTransaction {
                try? execute("ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)")
            }
            throw error
        }
    }

    // MARK: LISTEN / NOTIFY

    /// A notification received on a channel this connection listens to.
    public struct Notification: Sendable, Equatable {
        /// The channel name.
        public var channel: String
        /// The payload (empty when none was given).
        public var payload: String
        /// The backend process id of the sender (``Connection/backendPID`` of its connection).
        public var senderPID: Int32

        /// Creates a notification; ``Connection/nextNotification(timeoutMilliseconds:)`` builds these.
        public init(channel: String, payload: String, senderPID: Int32) {
            self.channel = channel
            self.payload = payload
            self.senderPID = senderPID
        }
    }

    /// `LISTEN channel` (quoted as an identifier, so any name works).
    /// (<https://www.postgresql.org/docs/15/sql-listen.html>)
    public func listen(_ channel: String) throws {
        try execute("LISTEN \(Self.quoteIdentifier(channel))")
    }

    /// Sends a notification (`pg_notify`); it is delivered when the sender's transaction commits,
    /// at once outside a transaction.
    public func notify(_ channel: String, payload: String = "") throws {
        try run("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)])
    }

    /// The next notification received, waiting at most `timeoutMilliseconds` for one (0: only
    /// what has arrived already). Returns nil when none came.
    /// - Throws: ``PostgresError`` if the connection broke while reading.
    public func nextNotification(timeoutMilliseconds: Int32) throws -> Notification? {
        if let ready = try takeNotification() { return ready }
        guard timeoutMilliseconds > 0 else { return nil }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        guard descriptor.fd >= 0 else { throw PostgresError(sqlState: nil, message: "the connection has no socket") }
        _ = poll(&descriptor, 1, timeoutMilliseconds)
        return try takeNotification()
    }

    private func takeNotification() throws -> Notification? {
        guard PQconsumeInput(handle) == 1 else {
            throw PostgresError(sqlState: nil, message: Self.trimmed(PQerrorMessage(handle)))
        }
        guard let notify = PQnotifies(handle) else { return nil }
        defer { PQfreemem(notify) }
        return Notification(
            channel: String(cString: notify.pointee.relname),
            payload: String(cString: notify.pointee.extra), senderPID: notify.pointee.be_pid)
    }

    /// `name` as a double-quoted SQL identifier, inner quotes doubled.
    public static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}

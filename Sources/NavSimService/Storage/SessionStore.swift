import Dispatch
import SQLite
import Synchronization

/// A row of `controllers`: one live view controller of a session.
public struct ControllerRow: Sendable, Equatable {
    /// The controller's id, unique within its session.
    public var id: String
    /// The containment parent's id (navigation, tab bar, split, page or custom container).
    public var parent: String?
    /// The id of the controller that presented this one.
    public var presenting: String?
    /// The id of the controller this one presents.
    public var presented: String?
    /// JSON of the controller (a `StoredController`).
    public var body: String
    /// The persistence format `body` is written in (``StoredFormat``).
    public var format: Int

    public init(id: String, parent: String? = nil, presenting: String? = nil, presented: String? = nil, body: String,
                format: Int = StoredFormat.current) {
        self.id = id
        self.parent = parent
        self.presenting = presenting
        self.presented = presented
        self.body = body
        self.format = format
    }
}

/// A row of `history`: one accepted operation of a session.
public struct HistoryRow: Sendable, Equatable {
    /// The session version this operation produced; unique per session.
    public var version: Int
    /// When it was accepted (ISO 8601).
    public var at: String
    /// The request method and path, as received.
    public var method: String
    public var path: String
    /// The request body, if there was one.
    public var body: String?
    /// JSON of the command(s) used to replay the operation (`StoredCommand`s).
    public var command: String
    /// JSON of the events/transition as reported to the client; for entry 0 (session creation)
    /// the initial state, the replay base (a `StoredSessionState`).
    public var result: String
    /// The persistence format of `command`, `changes`, `checkpoint` (and of entry 0's `result`), ``StoredFormat``.
    public var format: Int
    /// JSON of what the entry changed (a `StoredChange`); nil in entries written before
    /// migration 0004, which are read by replaying `command`.
    public var changes: String?
    /// JSON of the whole state after the entry (a `StoredSessionState` with controllers) on every
    /// `SessionHistory.checkpointInterval`-th entry; nil on the others.
    public var checkpoint: String?
    /// The ``RulesVersion`` that produced the entry; nil in entries written before it was recorded.
    public var rulesVersion: Int?

    public init(
        version: Int, at: String, method: String, path: String, body: String? = nil,
        command: String, result: String, format: Int = StoredFormat.current,
        changes: String? = nil, checkpoint: String? = nil, rulesVersion: Int? = nil
    ) {
        self.format = format
        self.changes = changes
        self.checkpoint = checkpoint
        self.rulesVersion = rulesVersion
        self.version = version
        self.at = at
        self.method = method
        self.path = path
        self.body = body
        self.command = command
        self.result = result
    }
}

/// A row of `sessions`.
public struct SessionRow: Sendable, Equatable {
    public var id: String
    /// The number of operations accepted so far.
    public var version: Int
    /// When the session was created (ISO 8601).
    public var createdAt: String
    /// JSON of the session minus its controllers (a `StoredSessionState`).
    public var state: String
    /// The persistence format `state` is written in (``StoredFormat``).
    public var format: Int

    public init(id: String, version: Int, createdAt: String, state: String, format: Int = StoredFormat.current) {
        self.format = format
        self.id = id
        self.version = version
        self.createdAt = createdAt
        self.state = state
    }
}

/// One accepted operation (or session creation): everything that must be durable before the reply.
///
/// Applied in this order, all or nothing: the session row is upserted, `deletedControllers` are
/// deleted, `upsertedControllers` are upserted (so an id in both lists ends up present), and
/// `history` is inserted.
public struct SessionCommit: Sendable {
    /// Inserted, or replacing the stored row of the same id.
    public var session: SessionRow
    /// Inserted, or replacing the stored row of the same (session, id).
    public var upsertedControllers: [ControllerRow]
    /// Ids of controllers to delete; unknown ids are ignored.
    public var deletedControllers: [String]
    /// The operation's history entry; `nil` for session creation. Its version must be new for
    /// the session, or the commit fails with a `SQLITE_CONSTRAINT_PRIMARYKEY` ``SQLiteError``.
    public var history: HistoryRow?

    public init(
        session: SessionRow, upsertedControllers: [ControllerRow] = [], deletedControllers: [String] = [],
        history: HistoryRow? = nil
    ) {
        self.session = session
        self.upsertedControllers = upsertedControllers
        self.deletedControllers = deletedControllers
        self.history = history
    }
}

/// A session as stored: what start-up rebuilds the in-memory state from.
public struct StoredSession: Sendable, Equatable {
    public var session: SessionRow
    /// The session's controllers, ordered by id (the order carries no meaning: the structure is
    /// in `parent`, `presenting` and `presented`).
    public var controllers: [ControllerRow]

    public init(session: SessionRow, controllers: [ControllerRow]) {
        self.session = session
        self.controllers = controllers
    }
}

/// A row of `storyboards`.
public struct StoredStoryboard: Sendable, Equatable {
    public var name: String
    /// The document exactly as uploaded.
    public var xml: [UInt8]
    /// JSON of the declared custom segue classes, if any.
    public var customSegues: String?
    /// JSON of the declared view controller classes (`PUT …/classes`), if any.
    public var classes: String?
    /// When it was last uploaded (ISO 8601).
    public var updatedAt: String

    public init(name: String, xml: [UInt8], customSegues: String? = nil, classes: String? = nil, updatedAt: String) {
        self.name = name
        self.xml = xml
        self.customSegues = customSegues
        self.classes = classes
        self.updatedAt = updatedAt
    }
}

/// The durable side of navsim: sessions, their controllers and history, and storyboards, in one
/// SQLite file whose schema comes from the `migrations` folder.
///
/// ```swift
/// let store = try SessionStore(path: "/var/lib/navsim/navsim.sqlite", migrationsDirectory: "migrations")
/// try store.commit(SessionCommit(session: row, upsertedControllers: changed, history: entry))
/// // only now may the reply go out: the operation survives kill -9 and power loss
/// ```
///
/// **Durability.** ``commit(_:)`` returns only after SQLite's `COMMIT` has returned on a
/// connection in WAL mode with `synchronous=FULL`, i.e. after the write-ahead log was synced:
/// an acknowledged operation survives a crash of the process and a power loss.
///
/// **Speed: group commit.** That sync is the whole cost of a small commit: ENGINEERING.md §3.2
/// measured about 6–7 k single-row `BEGIN IMMEDIATE…COMMIT` per second with WAL+FULL (one
/// fsync, ~150 µs, each) against 260–280 k rows/s when 100 rows share a transaction. Rather than
/// buy speed with `synchronous=NORMAL` (which may lose acknowledged commits on power loss), the
/// store shares one sync between concurrent callers: while one transaction is being written,
/// arriving commits queue up, and the next transaction writes all of them. A lone caller pays
/// exactly one transaction, as before; under load the number of syncs per commit falls with the
/// queue length. Durability is the same for every caller: none returns before its own data has
/// been synced.
///
/// **Connections.** One writer connection, owned by a `Mutex`, does every write. A second,
/// read-only connection in its own `Mutex` serves history pages and the start-up loads; WAL lets
/// it read the last committed state while the writer is writing, so reads never wait for a sync.
public final class SessionStore: Sendable {
    private let writer: Mutex<Connection>
    private let reader: Mutex<Connection>
    private let queue = Mutex(CommitQueue())
    private let counters = Mutex(Counters())

    /// Opens (creating) the database at `path`, applies the migrations found in `migrationsDirectory`.
    ///
    /// - Parameters:
    ///   - path: A file path (not `:memory:`: the reader connection must see the writer's file).
    ///     The directory must exist.
    ///   - migrationsDirectory: The folder of `NNNN_name.sql` steps (see ``Migrator``).
    /// - Throws: ``SQLiteError`` if the file cannot be opened, written, or put in WAL mode;
    ///   ``MigrationError`` if the migrations are invalid, fail, or the file was written by a
    ///   newer build.
    public init(path: String, migrationsDirectory: String) throws {
        let migrator = try Migrator(directory: migrationsDirectory)
        let writer = try Connection(path: path, durability: .full)
        // Before migrating: a database that cannot be written is refused now, naming its path.
        try writer.checkWritable()
        _ = try migrator.migrate(writer)
        // Opened after the writer, which has switched the file to WAL mode and created the -wal
        // and -shm files a read-only connection cannot create itself.
        let reader = try Connection(path: path, readOnly: true, durability: .full)
        self.writer = Mutex(writer)
        self.reader = Mutex(reader)
    }

    /// Caps the database at its current size plus `extraPages` pages (`PRAGMA max_page_count`),
    /// so a write needing more fails with `SQLITE_FULL` as on a full disk; nil lifts the cap.
    /// For tests of the disk-full path.
    func capPages(extra extraPages: Int?) throws {
        try writer.withLock { db in
            let pages = try db.query("PRAGMA page_count").first?.int(0) ?? 0
            try db.execute("PRAGMA max_page_count = \(extraPages.map { Int(pages) + $0 } ?? 1_073_741_823)")
        }
    }

    // MARK: Writing

    /// Writes one operation; durable before it returns (WAL + `synchronous=FULL`).
    ///
    /// Concurrent callers are batched into one transaction (group commit, leader/follower): the
    /// first caller that finds no commit in flight becomes the leader and writes everything queued
    /// so far in one `BEGIN IMMEDIATE` transaction; callers arriving meanwhile queue up and wait on
    /// a semaphore for their own success or error. Each commit runs in its own `SAVEPOINT` inside
    /// the batch, so one that fails (say, a duplicate history version) is rolled back alone and
    /// reported to its caller alone; the others of the batch still commit.
    ///
    /// When a leader has written its batch it hands the lead to the oldest caller that queued up
    /// meanwhile and returns at once, instead of looping over the queue itself: a caller waits at
    /// most for the transaction in flight when it arrived and then the one carrying its own
    /// commit, never for an unbounded stream of later ones.
    ///
    /// - Throws: This commit's own error, with none of its changes applied: a ``SQLiteError``
    ///   such as `SQLITE_CONSTRAINT_PRIMARYKEY` for a history version the session already has,
    ///   or the error of `BEGIN`/`COMMIT` if the whole transaction failed.
    public func commit(_ commit: SessionCommit) throws {
        let ticket = Ticket(commit)
        let leads = queue.withLock { queue in
            queue.waiting.append(ticket)
            if queue.writing { return false }
            queue.writing = true
            return true
        }
        if !leads, case .finished(let result) = ticket.wait() {
            return try result.get()
        }
        // Either no transaction was in flight, or the previous leader handed over: write the
        // queue, which includes this caller's own ticket.
        try lead(ticket).get()
    }

    /// Writes everything queued in one transaction, wakes the followers with their results, hands
    /// the lead on if more arrived meanwhile, and returns `own`'s result.
    private func lead(_ own: Ticket) -> Result<Void, any Error> {
        let batch = queue.withLock { queue in
            defer { queue.waiting.removeAll() }
            return queue.waiting
        }
        let results = commitBatch(batch.map(\.commit))
        let next = queue.withLock { queue in
            // Invariant: while nobody is writing, nobody is waiting; a caller arriving now will
            // either find `writing` false and lead, or be in `waiting` and be handed the lead.
            if queue.waiting.isEmpty { queue.writing = false }
            return queue.waiting.first
        }
        var ownResult: Result<Void, any Error> = .success(())
        for (ticket, result) in zip(batch, results) {
            if ticket === own { ownResult = result } else { ticket.resolve(.finished(result)) }
        }
        next?.resolve(.lead)
        return ownResult
    }

    /// Writes `commits` in one `BEGIN IMMEDIATE` transaction, each inside its own savepoint, and
    /// returns each one's outcome in order.
    ///
    /// A commit whose statements fail is rolled back to its savepoint alone and reported as
    /// failed; the others still commit. If the transaction as a whole fails (`BEGIN`, `COMMIT`,
    /// or an I/O or disk-full error that makes SQLite roll everything back), nothing was written
    /// and every commit reports that error. Internal so tests can build a batch deterministically.
    func commitBatch(_ commits: [SessionCommit]) -> [Result<Void, any Error>] {
        guard !commits.isEmpty else { return [] }
        let results = writer.withLock { db -> [Result<Void, any Error>] in
            var results: [Result<Void, any Error>] = []
            results.reserveCapacity(commits.count)
            do {
                try db.transaction {
                    for commit in commits {
                        do {
                            // Nested transaction() = SAVEPOINT … RELEASE, or ROLLBACK TO on error.
                            try db.transaction { try Self.apply(commit, to: db) }
                            results.append(.success(()))
                        } catch {
                            // Some errors (SQLITE_FULL, SQLITE_IOERR, …) roll back the whole
                            // transaction, taking the earlier commits with it; going on would
                            // start a new transaction per commit. Fail the batch instead.
                            guard db.isInTransaction else { throw error }
                            results.append(.failure(error))
                        }
                    }
                }
            } catch {
                return Array(repeating: .failure(error), count: commits.count)
            }
            return results
        }
        counters.withLock { counters in
            counters.commits += commits.count
            counters.batches += 1
            counters.largestBatch = max(counters.largestBatch, commits.count)
        }
        batchObserver.withLock { $0 }?(commits.count)
        return results
    }

    private static func apply(_ commit: SessionCommit, to db: Connection) throws {
        let session = commit.session
        // An upsert, not INSERT OR REPLACE: REPLACE deletes the old row first, and with
        // foreign keys on that delete would cascade to the session's controllers and history.
        try db.run(
            """
            INSERT INTO sessions (id, version, created_at, state, format) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET
                version = excluded.version, created_at = excluded.created_at, state = excluded.state,
                format = excluded.format
            """,
            [.text(session.id), .integer(Int64(session.version)), .text(session.createdAt), .text(session.state),
             .integer(Int64(session.format))])
        for id in commit.deletedControllers {
            try db.run("DELETE FROM controllers WHERE session_id = ? AND id = ?", [.text(session.id), .text(id)])
        }
        for controller in commit.upsertedControllers {
            try db.run(
                """
                INSERT INTO controllers (session_id, id, parent, presenting, presented, body, format)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (session_id, id) DO UPDATE SET
                    parent = excluded.parent, presenting = excluded.presenting,
                    presented = excluded.presented, body = excluded.body, format = excluded.format
                """,
                [
                    .text(session.id), .text(controller.id), .optional(controller.parent),
                    .optional(controller.presenting), .optional(controller.presented), .text(controller.body),
                    .integer(Int64(controller.format)),
                ])
        }
        if let entry = commit.history {
            try db.run(
                """
                INSERT INTO history (session_id, version, at, method, path, body, command, result, format,
                                     changes, checkpoint, rules_version)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(session.id), .integer(Int64(entry.version)), .text(entry.at), .text(entry.method),
                    .text(entry.path), .optional(entry.body), .text(entry.command), .text(entry.result),
                    .integer(Int64(entry.format)), .optional(entry.changes), .optional(entry.checkpoint),
                    entry.rulesVersion.map { .integer(Int64($0)) } ?? .null,
                ])
        }
    }

    /// Deletes a session with its controllers and history (by `ON DELETE CASCADE`); durable
    /// before it returns. Deleting an unknown session does nothing.
    ///
    /// Not group-committed: deletions are rare, and the caller's per-session lock already orders
    /// this after the session's last ``commit(_:)``.
    public func deleteSession(_ id: String) throws {
        try writer.withLock { db in
            try db.transaction { try db.run("DELETE FROM sessions WHERE id = ?", [.text(id)]) }
        }
    }

    /// Stores a storyboard, replacing one of the same name; durable before it returns.
    public func putStoryboard(_ s: StoredStoryboard) throws {
        try writer.withLock { db in
            try db.transaction {
                try db.run(
                    """
                    INSERT INTO storyboards (name, xml, custom_segues, classes, updated_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (name) DO UPDATE SET
                        xml = excluded.xml, custom_segues = excluded.custom_segues, classes = excluded.classes,
                        updated_at = excluded.updated_at
                    """,
                    [.text(s.name), .blob(s.xml), .optional(s.customSegues), .optional(s.classes), .text(s.updatedAt)])
            }
        }
    }

    /// Stores several storyboards in one transaction (all or none), durable before it returns:
    /// a refactor's two documents (`POST /v1/storyboards/{name}/refactor`).
    public func putStoryboards(_ list: [StoredStoryboard]) throws {
        try writer.withLock { db in
            try db.transaction {
                for s in list {
                    try db.run(
                        """
                        INSERT INTO storyboards (name, xml, custom_segues, classes, updated_at) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT (name) DO UPDATE SET
                            xml = excluded.xml, custom_segues = excluded.custom_segues, classes = excluded.classes,
                        updated_at = excluded.updated_at
                        """,
                        [.text(s.name), .blob(s.xml), .optional(s.customSegues), .optional(s.classes), .text(s.updatedAt)])
                }
            }
        }
    }

    /// Deletes a storyboard; durable before it returns.
    /// - Returns: Whether a storyboard of that name existed.
    public func deleteStoryboard(_ name: String) throws -> Bool {
        try writer.withLock { db in
            try db.transaction {
                try db.run("DELETE FROM storyboards WHERE name = ?", [.text(name)])
                return db.changes > 0
            }
        }
    }

    // MARK: Reading

    /// Every session with its controllers, ordered by session id: what start-up rebuilds the
    /// in-memory state from. Read in one transaction, so sessions and controllers agree.
    public func loadSessions() throws -> [StoredSession] {
        try read { db in
            let sessions = try db.query("SELECT id, version, created_at, state, format FROM sessions ORDER BY id")
            var controllers: [String: [ControllerRow]] = [:]
            for row in try db.query(
                "SELECT session_id, id, parent, presenting, presented, body, format FROM controllers ORDER BY session_id, id")
            {
                let controller = ControllerRow(
                    id: try row.required("id"), parent: row.text("parent"), presenting: row.text("presenting"),
                    presented: row.text("presented"), body: try row.required("body"), format: try row.requiredInt("format"))
                controllers[try row.required("session_id"), default: []].append(controller)
            }
            return try sessions.map { row in
                let session = SessionRow(
                    id: try row.required("id"), version: try row.requiredInt("version"),
                    createdAt: try row.required("created_at"), state: try row.required("state"),
                    format: try row.requiredInt("format"))
                return StoredSession(session: session, controllers: controllers[session.id] ?? [])
            }
        }
    }

    /// A page of a session's history: entries with `version > after`, ascending, at most `limit`.
    /// Empty for an unknown session. Without `checkpoints` the rows' `checkpoint` is nil and the
    /// column (a whole state every 64th entry) is not read: history pages and rebuilds that
    /// start from a kept checkpoint do not use it.
    public func history(session: String, after: Int, limit: Int, checkpoints: Bool = true) throws -> [HistoryRow] {
        try read { db in
            try db.query(
                """
                SELECT version, at, method, path, body, command, result, format, changes,
                       \(checkpoints ? "checkpoint" : "NULL AS checkpoint"), rules_version
                FROM history WHERE session_id = ? AND version > ? ORDER BY version LIMIT ?
                """,
                [.text(session), .integer(Int64(after)), .integer(Int64(max(limit, 0)))]
            ).map { row in
                HistoryRow(
                    version: try row.requiredInt("version"), at: try row.required("at"),
                    method: try row.required("method"), path: try row.required("path"), body: row.text("body"),
                    command: try row.required("command"), result: try row.required("result"),
                    format: try row.requiredInt("format"), changes: row.text("changes"),
                    checkpoint: row.text("checkpoint"), rulesVersion: row.int("rules_version").map { Int($0) })
            }
        }
    }

    /// The number of history entries of a session; 0 for an unknown session.
    public func historyCount(session: String) throws -> Int {
        try read { db in
            let row = try db.query("SELECT count(*) AS count FROM history WHERE session_id = ?", [.text(session)])
            return Int(row.first?.int("count") ?? 0)
        }
    }

    /// Every storyboard, ordered by name.
    public func loadStoryboards() throws -> [StoredStoryboard] {
        try read { db in
            try db.query("SELECT name, xml, custom_segues, classes, updated_at FROM storyboards ORDER BY name").map { row in
                guard let xml = row.blob("xml") else { throw SessionStoreError.unexpectedValue(column: "xml") }
                return StoredStoryboard(
                    name: try row.required("name"), xml: xml, customSegues: row.text("custom_segues"),
                    classes: row.text("classes"), updatedAt: try row.required("updated_at"))
            }
        }
    }

    /// Runs `body` on the reader connection inside one read transaction, so that several
    /// queries see the same snapshot of the database.
    ///
    /// `BEGIN` (DEFERRED), not ``Connection/transaction(_:)``: that one starts `BEGIN IMMEDIATE`,
    /// which asks for the write lock a read-only connection cannot take.
    private func read<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        try reader.withLock { db in
            try db.execute("BEGIN")
            do {
                let value = try body(db)
                try db.execute("COMMIT")
                return value
            } catch {
                if db.isInTransaction { try? db.execute("ROLLBACK") }
                throw error
            }
        }
    }

    // MARK: Metrics

    /// Told each transaction's commit count once it is written (the service's batch-size histogram).
    public let batchObserver = Mutex<(@Sendable (Int) -> Void)?>(nil)

    /// Counters for /metrics: commits, batches (transactions), largest batch.
    ///
    /// `commits / batches` is the average batch size, i.e. how many commits shared each sync.
    public var statistics: (commits: Int, batches: Int, largestBatch: Int) {
        counters.withLock { ($0.commits, $0.batches, $0.largestBatch) }
    }
}

/// A stored value that does not have the type the schema gives its column. The STRICT tables
/// make this unreachable short of someone editing the file by hand.
public enum SessionStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    case unexpectedValue(column: String)

    public var description: String {
        switch self {
        case .unexpectedValue(let column):
            "the database holds a value of the wrong type (or NULL) in column \(column)"
        }
    }
}

// MARK: - Group commit bookkeeping

/// The commits waiting for the next transaction, and whether a leader is writing one.
private struct CommitQueue {
    var waiting: [Ticket] = []
    var writing = false
}

private struct Counters {
    var commits = 0
    var batches = 0
    var largestBatch = 0
}

/// One caller's commit and the slot through which whoever writes it answers.
private final class Ticket: Sendable {
    enum Outcome: Sendable {
        /// Written (or failed) by another caller's transaction.
        case finished(Result<Void, any Error>)
        /// The previous leader is done and this caller writes the next batch.
        case lead
    }

    let commit: SessionCommit
    private let semaphore = DispatchSemaphore(value: 0)
    private let outcome = Mutex<Outcome?>(nil)

    init(_ commit: SessionCommit) {
        self.commit = commit
    }

    /// Blocks until ``resolve(_:)``.
    func wait() -> Outcome {
        semaphore.wait()
        return outcome.withLock { outcome in
            guard let outcome else { preconditionFailure("a ticket was signalled without an outcome") }
            return outcome
        }
    }

    func resolve(_ outcome: Outcome) {
        self.outcome.withLock { $0 = outcome }
        semaphore.signal()
    }
}

// MARK: - Row helpers

extension SQLiteValue {
    /// `.text(value)`, or `.null` for `nil`.
    fileprivate static func optional(_ value: String?) -> SQLiteValue {
        value.map(SQLiteValue.text) ?? .null
    }
}

extension Row {
    fileprivate func required(_ column: String) throws -> String {
        guard let value = text(column) else { throw SessionStoreError.unexpectedValue(column: column) }
        return value
    }

    fileprivate func requiredInt(_ column: String) throws -> Int {
        guard let value = int(column) else { throw SessionStoreError.unexpectedValue(column: column) }
        return Int(value)
    }
}

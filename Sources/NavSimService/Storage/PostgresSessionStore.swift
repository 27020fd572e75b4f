import PostgreSQL
import SQLite
import Synchronization

/// PostgreSQL's connection; SQLite (imported for `Migrator`) has a `Connection` too.
private typealias PGConnection = PostgreSQL.Connection

/// Why ``PostgresSessionStore`` refused a commit or could not open its database.
public enum PostgresStoreError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Optimistic concurrency: the commit was computed from version `expected` of the session
    /// (nil: it creates the session), but the database holds version `stored` (nil: no such
    /// session). Another instance wrote first; nothing of this commit was written. The caller
    /// reloads the session and retries, or answers as for a stale `If-Match` (RFC 9110 §13.1.1).
    case staleVersion(session: String, expected: Int?, stored: Int?)
    /// A schema step failed and was rolled back with every step of its run.
    case migrationFailed(version: Int, name: String, error: PostgresError)

    /// One line naming the session and versions, or the failed step.
    public var description: String {
        switch self {
        case .staleVersion(let session, let expected, let stored):
            "session \(session) is at version \(stored.map(String.init) ?? "none") in the database, "
                + "not \(expected.map(String.init) ?? "none") as this commit assumed: another instance wrote it first"
        case .migrationFailed(let version, let name, let error):
            "migration \(Migration.fileName(version: version, name: name)) failed and was rolled back: \(error)"
        }
    }
}

/// The durable side of navsim in a PostgreSQL database that several navsim instances can share:
/// the same tables and rows as ``SessionStore``, with the schema from `migrations-postgres/`.
///
/// ```swift
/// let store = try PostgresSessionStore(url: "postgresql://navsim@db:5432/navsim",
///                                      migrationsDirectory: "migrations-postgres")
/// try store.commit(commit)   // durable once it returns; throws .staleVersion if another instance wrote first
/// ```
///
/// **Durability.** Every connection runs with `synchronous_commit = on`, so `COMMIT` returns
/// only after the server flushed its WAL record (and, with synchronous standbys configured,
/// after they confirmed it). The server must run with `fsync = on`, its default.
///
/// **Group commit.** As in ``SessionStore``: one writer connection on one writer thread
/// (``WriterQueue``); commits queued while a transaction is in flight wait, and the next
/// transaction writes all of them, each inside its own `SAVEPOINT` so that one refused commit
/// is rolled back alone. Completions come on the writer in queue order. A follower
/// (``SessionCommit/followsPending``) of a failed commit fails unwritten with
/// ``SessionStoreError/predecessorFailed(session:version:)``, as in ``SessionStore``.
///
/// **Optimistic concurrency.** A commit of version v updates the session row only
/// `WHERE id = $1 AND version = v − 1`; a creation (version 0) inserts only if the id is free.
/// Otherwise ``PostgresStoreError/staleVersion(session:expected:stored:)`` is thrown and the
/// commit's savepoint is rolled back: nothing of it is written, the rest of its batch is.
///
/// **Schema.** `schema_migrations (version, name, applied_at)` records the applied steps. Opening
/// takes a transaction-scoped advisory lock, so instances starting together migrate once; a
/// database whose newest step is past this binary's is refused (``MigrationError/databaseTooNew(userVersion:latestKnown:)``).
/// `schema` puts everything in a PostgreSQL schema of that name (created if missing) instead of
/// the connection's default `search_path`: several deployments (or test runs) can share one database.
///
/// **Deleting.** One `DELETE` of the session row, whose `ON DELETE CASCADE` removes its
/// controllers and history in the same transaction: not chunked, so nothing is left to sweep
/// and `pending_deletions` (step 5) stays empty. PostgreSQL's row locks let other sessions'
/// commits proceed meanwhile, apart from the writer connection being busy for that time.
///
/// **Listing.** `sessions.id` has the `"C"` collation (step 5), so the primary key's order is
/// byte order whatever the database's locale, as SQLite's BINARY: keyset pages use that index.
///
/// **Connections.** A writer and a reader, each in a `Mutex`, named ``applicationName(schema:)``
/// in `pg_stat_activity`. One the server dropped (a restart, a failover) fails the batch or read
/// in flight with its error; the next one reconnects.
///
/// **Storyboards.** Puts and deletes send `NOTIFY navsim_storyboards, '<name>'` in their
/// transaction, so instances listening (``storyboardChannel``) hear of uploads by others.
public final class PostgresSessionStore: SessionStoring {
    /// The channel storyboard puts and deletes notify, with the storyboard's name as payload.
    public static let storyboardChannel = "navsim_storyboards"

    private let url: String
    private let schema: String?
    private let writer: Mutex<PGConnection>
    private let reader: Mutex<PGConnection>
    private let writes = WriterQueue<SessionCommit>(label: "navsim.postgres.writer")
    private let counters = Mutex((commits: 0, batches: 0, largestBatch: 0))
    /// Sessions whose commit at the given version failed, so their followers fail too. Read and
    /// written on the writer thread only.
    private let brokenSessions = Mutex<[String: Int]>([:])

    /// Told each transaction's commit count once it is written (on the writer).
    public let batchObserver = Mutex<BatchObserver?>(nil)

    /// Connects (two connections: a writer and a reader) and applies the pending migrations.
    ///
    /// - Parameters:
    ///   - url: A libpq connection string, e.g. `postgresql://user@host:5432/db`.
    ///   - migrationsDirectory: The folder of `NNNN_name.sql` steps in PostgreSQL's dialect
    ///     (the repository's `migrations-postgres`).
    ///   - schema: A PostgreSQL schema to keep the tables in, created if missing; nil for the
    ///     connection's default.
    /// - Throws: ``PostgresError`` when the server cannot be reached or refuses a setting;
    ///   ``MigrationError`` for invalid migration files or a database newer than this build;
    ///   ``PostgresStoreError/migrationFailed(version:name:error:)`` when a step fails.
    public init(url: String, migrationsDirectory: String, schema: String? = nil) throws {
        let migrator = try Migrator(directory: migrationsDirectory)
        self.url = url
        self.schema = schema
        let writer = try Self.connect(url, schema: schema, create: true)
        try Self.migrate(writer, migrator.migrations)
        self.writer = Mutex(writer)
        self.reader = Mutex(try Self.connect(url, schema: schema, create: false))
    }

    private static func connect(_ url: String, schema: String?, create: Bool) throws -> PGConnection {
        let db = try PGConnection(url: url)
        // Names the deployment in pg_stat_activity (63 bytes at most, the server truncates).
        try db.run("SELECT set_config('application_name', $1, false)", [.text(applicationName(schema: schema))])
        if let schema {
            let name = PGConnection.quoteIdentifier(schema)
            if create { try db.execute("CREATE SCHEMA IF NOT EXISTS \(name)") }
            try db.execute("SET search_path TO \(name)")
        }
        return db
    }

    /// The `application_name` of this store's connections: `navsim`, or `navsim:<schema>`.
    public static func applicationName(schema: String?) -> String {
        schema.map { "navsim:" + $0 } ?? "navsim"
    }

    /// Applies the steps past the newest recorded one, all in one transaction under an advisory
    /// lock (so concurrent openers wait, then find nothing left to do). Returns the version reached.
    @discardableResult
    private static func migrate(_ db: PGConnection, _ migrations: [Migration]) throws -> Int {
        let latest = migrations.last?.version ?? 0
        return try db.transaction {
            // Keyed by the schema, so deployments in different schemas do not wait for each other.
            try db.run("SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.navsim-migrations'))")
            try db.execute(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version    INTEGER PRIMARY KEY,
                    name       TEXT NOT NULL,
                    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
                )
                """)
            let current = Int(try db.query("SELECT coalesce(max(version), 0) AS v FROM schema_migrations").first?.int("v") ?? 0)
            if current > latest { throw MigrationError.databaseTooNew(userVersion: current, latestKnown: latest) }
            for step in migrations where step.version > current {
                do {
                    try db.execute(step.sql)
                    try db.run("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                               [.integer(Int64(step.version)), .text(step.name)])
                } catch let error as PostgresError {
                    throw PostgresStoreError.migrationFailed(version: step.version, name: step.name, error: error)
                }
            }
            return max(current, latest)
        }
    }

    // MARK: Writing

    /// Writes one operation; durable before it returns. The queue of ``enqueue(_:then:)``, waited on.
    /// - Throws: ``PostgresStoreError/staleVersion(session:expected:stored:)`` when the stored
    ///   version is not the commit's base; a ``PostgresError`` (e.g. `23505` for a history
    ///   version the session has) for this commit alone;
    ///   ``SessionStoreError/predecessorFailed(session:version:)``; or the transaction's error.
    public func commit(_ commit: SessionCommit) throws {
        try writes.submit(commit) { [self] in commitBatch($0) }
    }

    /// Queues one operation for the writer and returns at once; `completion` is called on the
    /// writer, in queue order, once the transaction holding it committed (`synchronous_commit
    /// = on`) or failed. Errors as for ``commit(_:)``.
    public func enqueue(_ commit: SessionCommit, then completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        writes.enqueue(commit, writeBatch: { [self] in commitBatch($0) }, then: completion)
    }

    /// Test hook: queued commits wait until ``releaseWrites()`` (to line several up in one batch).
    func holdWrites() { writes.hold() }

    /// Ends ``holdWrites()``.
    func releaseWrites() { writes.release() }

    /// Writes `commits` in one transaction, each in its own savepoint; one result per commit.
    /// Internal so tests can build a batch deterministically.
    func commitBatch(_ commits: [SessionCommit]) -> [Result<Void, any Error>] {
        guard !commits.isEmpty else { return [] }
        var broken = brokenSessions.withLock { $0 }
        let results = withWriter { [broken] db -> ([Result<Void, any Error>], [String: Int]) in
            var broken = broken
            var results: [Result<Void, any Error>] = []
            results.reserveCapacity(commits.count)
            try db.transaction {
                for commit in commits {
                    let id = commit.session.id, version = commit.history?.version ?? 0
                    // A follower of a failed commit of its session fails unwritten.
                    if let failed = broken[id] {
                        if commit.followsPending, version > failed {
                            results.append(.failure(SessionStoreError.predecessorFailed(session: id, version: failed)))
                            continue
                        }
                        // Built on durable state (the caller rolled back): the chain is over.
                        if !commit.followsPending { broken[id] = nil }
                    }
                    do {
                        try db.transaction { try Self.apply(commit, to: db) }
                        results.append(.success(()))
                    } catch {
                        // A broken connection ends the transaction: fail the whole batch.
                        guard db.isInTransaction else { throw error }
                        broken[id] = version
                        results.append(.failure(error))
                    }
                }
            }
            return (results, broken)
        }
        switch results {
        case .success(let (_, after)): broken = after
        // Nothing of the batch was written: each session's first commit in it failed.
        case .failure: for commit in commits.reversed() { broken[commit.session.id] = commit.history?.version ?? 0 }
        }
        brokenSessions.withLock { [broken] in $0 = broken }
        counters.withLock { c in
            c.commits += commits.count
            c.batches += 1
            c.largestBatch = max(c.largestBatch, commits.count)
        }
        batchObserver.withLock { $0 }?.observe(commits.count)
        switch results {
        case .success(let (each, _)): return each
        case .failure(let error): return Array(repeating: .failure(error), count: commits.count)
        }
    }

    /// Runs `body` on the writer, reconnecting first if the connection broke (a server restart):
    /// the failed batch was answered with its error, the next one gets a fresh connection.
    private func withWriter<T: Sendable>(_ body: (PGConnection) throws -> T) -> Result<T, any Error> {
        writer.withLock { db in
            do {
                if !db.isConnected { db = try Self.connect(url, schema: schema, create: false) }
                return .success(try body(db))
            } catch {
                return .failure(error)
            }
        }
    }

    private static func apply(_ commit: SessionCommit, to db: PGConnection) throws {
        let s = commit.session
        let values: [PostgresValue] = [.text(s.id), .integer(Int64(s.version)), .text(s.createdAt), .text(s.state),
                                       .integer(Int64(s.format))]
        let written: Int
        if s.version == 0 {
            written = try db.run(
                """
                INSERT INTO sessions (id, version, created_at, state, format) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (id) DO NOTHING
                """, values)
        } else {
            written = try db.run(
                """
                UPDATE sessions SET version = $2, created_at = $3, state = $4, format = $5
                WHERE id = $1 AND version = $2 - 1
                """, values)
        }
        guard written == 1 else {
            let stored = try db.query("SELECT version FROM sessions WHERE id = $1", [.text(s.id)]).first?.int("version")
            throw PostgresStoreError.staleVersion(
                session: s.id, expected: s.version == 0 ? nil : s.version - 1, stored: stored.map { Int($0) })
        }
        for id in commit.deletedControllers {
            try db.run("DELETE FROM controllers WHERE session_id = $1 AND id = $2", [.text(s.id), .text(id)])
        }
        for c in commit.upsertedControllers {
            try db.run(
                """
                INSERT INTO controllers (session_id, id, parent, presenting, presented, body, format)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                ON CONFLICT (session_id, id) DO UPDATE SET
                    parent = excluded.parent, presenting = excluded.presenting,
                    presented = excluded.presented, body = excluded.body, format = excluded.format
                """,
                [.text(s.id), .text(c.id), .optional(c.parent), .optional(c.presenting), .optional(c.presented),
                 .text(c.body), .integer(Int64(c.format))])
        }
        if let e = commit.history {
            try db.run(
                """
                INSERT INTO history (session_id, version, at, method, path, body, command, result, format,
                                     changes, checkpoint, rules_version)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
                """,
                [.text(s.id), .integer(Int64(e.version)), .text(e.at), .text(e.method), .text(e.path),
                 .optional(e.body), .text(e.command), .text(e.result), .integer(Int64(e.format)),
                 .optional(e.changes), .optional(e.checkpoint), .optional(e.rulesVersion)])
        }
    }

    /// Deletes a session with its controllers and history in one transaction (`ON DELETE
    /// CASCADE`, not chunked); durable before it returns; an unknown id does nothing.
    /// - Parameter sweep: Ignored: nothing is left for a sweep.
    public func deleteSession(_ id: String, sweep: Bool) throws {
        try withWriter { db in
            try db.transaction { _ = try db.run("DELETE FROM sessions WHERE id = $1", [.text(id)]) }
        }.get()
    }

    /// Returns at once: ``deleteSession(_:sweep:)`` leaves nothing behind.
    public func finishDeletion(_ id: String) throws {}

    /// Does nothing: ``deleteSession(_:sweep:)`` leaves nothing behind.
    public func resumeDeletions() {}

    /// Returns at once: no removal runs in the background.
    public func waitForDeletions() {}

    /// Stores a storyboard, replacing one of the same name, and notifies ``storyboardChannel``.
    public func putStoryboard(_ s: StoredStoryboard) throws {
        try putStoryboards([s])
    }

    /// Stores several storyboards in one transaction (all or none) and notifies each name.
    public func putStoryboards(_ list: [StoredStoryboard]) throws {
        try withWriter { db in
            try db.transaction {
                for s in list {
                    try db.run(
                        """
                        INSERT INTO storyboards (name, xml, custom_segues, classes, updated_at) VALUES ($1, $2, $3, $4, $5)
                        ON CONFLICT (name) DO UPDATE SET
                            xml = excluded.xml, custom_segues = excluded.custom_segues, classes = excluded.classes,
                            updated_at = excluded.updated_at
                        """,
                        [.text(s.name), .bytes(s.xml), .optional(s.customSegues), .optional(s.classes), .text(s.updatedAt)])
                    try db.notify(Self.storyboardChannel, payload: s.name)
                }
            }
        }.get()
    }

    /// Deletes a storyboard and notifies ``storyboardChannel``; returns whether it existed.
    public func deleteStoryboard(_ name: String) throws -> Bool {
        try withWriter { db in
            try db.transaction {
                let deleted = try db.run("DELETE FROM storyboards WHERE name = $1", [.text(name)]) > 0
                if deleted { try db.notify(Self.storyboardChannel, payload: name) }
                return deleted
            }
        }.get()
    }

    // MARK: Reading

    /// One session with its controllers (ordered by id), from one snapshot; nil for an unknown id.
    public func loadSession(_ id: String) throws -> StoredSession? {
        try read { db in
            guard let row = try db.query("SELECT id, version, created_at, state, format FROM sessions WHERE id = $1",
                                         [.text(id)]).first else { return nil }
            let session = SessionRow(
                id: try row.required("id"), version: try row.requiredInt("version"),
                createdAt: try row.required("created_at"), state: try row.required("state"),
                format: try row.requiredInt("format"))
            let controllers = try db.query(
                "SELECT id, parent, presenting, presented, body, format FROM controllers WHERE session_id = $1 ORDER BY id COLLATE \"C\"",
                [.text(id)]
            ).map { row in
                ControllerRow(
                    id: try row.required("id"), parent: row.text("parent"), presenting: row.text("presenting"),
                    presented: row.text("presented"), body: try row.required("body"), format: try row.requiredInt("format"))
            }
            return StoredSession(session: session, controllers: controllers)
        }
    }

    /// The session's version in the database, nil when there is none: one statement on the
    /// primary key, outside a transaction (the service's check before it serves a cached copy).
    public func sessionVersion(_ id: String) throws -> Int? {
        try reader.withLock { db in
            if !db.isConnected { db = try Self.connect(url, schema: schema, create: false) }
            return try db.query("SELECT version FROM sessions WHERE id = $1", [.text(id)]).first?.int("version").map { Int($0) }
        }
    }

    /// Every session id, ascending in byte order (the primary key's, collation `"C"`).
    public func sessionIDs() throws -> [String] {
        try read { db in try db.query("SELECT id FROM sessions ORDER BY id").map { try $0.required("id") } }
    }

    /// Up to `limit` sessions whose id sorts after `after` (all when nil), ascending: one range
    /// of the primary key's index (`WHERE id > $1 ORDER BY id LIMIT $2`, byte order).
    public func sessionPage(after: String?, limit: Int) throws -> [(id: String, version: Int, createdAt: String)] {
        try read { db in
            try db.query(
                "SELECT id, version, created_at FROM sessions WHERE id > $1 ORDER BY id LIMIT $2",
                [.text(after ?? ""), .integer(Int64(max(limit, 0)))]
            ).map { (try $0.required("id"), try $0.requiredInt("version"), try $0.required("created_at")) }
        }
    }

    /// A page of a session's history: `version > after`, ascending, at most `limit`; without
    /// `checkpoints` the column is not read and every row's `checkpoint` is nil.
    public func history(session: String, after: Int, limit: Int, checkpoints: Bool) throws -> [HistoryRow] {
        try read { db in
            try db.query(
                """
                SELECT version, at, method, path, body, command, result, format, changes,
                       \(checkpoints ? "checkpoint" : "NULL AS checkpoint"), rules_version
                FROM history WHERE session_id = $1 AND version > $2 ORDER BY version LIMIT $3
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

    /// The number of history entries of a session; 0 for an unknown one.
    public func historyCount(session: String) throws -> Int {
        try read { db in
            Int(try db.query("SELECT count(*) AS count FROM history WHERE session_id = $1", [.text(session)])
                .first?.int("count") ?? 0)
        }
    }

    /// Every storyboard, ordered by name.
    public func loadStoryboards() throws -> [StoredStoryboard] {
        try read { db in
            try db.query("SELECT name, xml, custom_segues, classes, updated_at FROM storyboards ORDER BY name").map { row in
                guard let xml = row.bytes("xml") else { throw SessionStoreError.unexpectedValue(column: "xml") }
                return StoredStoryboard(
                    name: try row.required("name"), xml: xml, customSegues: row.text("custom_segues"),
                    classes: row.text("classes"), updatedAt: try row.required("updated_at"))
            }
        }
    }

    /// Runs `body` on the reader in one `REPEATABLE READ READ ONLY` transaction: one snapshot.
    private func read<T: Sendable>(_ body: (PGConnection) throws -> T) throws -> T {
        try reader.withLock { db in
            if !db.isConnected { db = try Self.connect(url, schema: schema, create: false) }
            // Spelled out rather than through transaction(begin:_:): a closure capturing both
            // `body` and `db` would merge their isolation regions, which the Mutex's inout forbids.
            try db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
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

    /// Commits, batches (transactions) and the largest batch so far.
    public var statistics: (commits: Int, batches: Int, largestBatch: Int) {
        counters.withLock { $0 }
    }
}

extension PostgreSQL.Row {
    fileprivate func required(_ column: String) throws -> String {
        guard let value = text(column) else { throw SessionStoreError.unexpectedValue(column: column) }
        return value
    }

    fileprivate func requiredInt(_ column: String) throws -> Int {
        guard let value = int(column) else { throw SessionStoreError.unexpectedValue(column: column) }
        return Int(value)
    }
}

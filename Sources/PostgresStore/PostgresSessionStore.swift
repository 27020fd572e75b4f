import Dispatch
public import PostgreSQL
public import SessionStorage
public import Synchronization

/// PostgreSQL's connection, named apart from the stores' `StoreConnection`.
typealias PGConnection = PostgreSQL.Connection

/// Why ``PostgresSessionStore`` refused a commit or could not open its database.
public enum PostgresStoreError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Optimistic concurrency: the commit was computed from version `expected` of the session
    /// (nil: it creates the session), but the database holds version `stored` (nil: no such
    /// session). Another instance wrote first; nothing of this commit was written. The caller
    /// reloads the session and retries, or answers as for a stale `If-Match` (RFC 9110 §13.1.1).
    case staleVersion(session: String, expected: Int?, stored: Int?)
    /// A schema step failed and was rolled back with every step of its run.
    case migrationFailed(version: Int, name: String, error: PostgresError)
    /// The connection broke while `COMMIT` was on its way: the transaction may or may not have
    /// been written, and it is not run again. The associated text is libpq's error. A session's
    /// next write finds out through the version check (``staleVersion(session:expected:stored:)``).
    case commitOutcomeUnknown(String)

    /// One line naming the session and versions, or the failed step.
    public var description: String {
        switch self {
        case .staleVersion(let session, let expected, let stored):
            "session \(session) is at version \(stored.map(String.init) ?? "none") in the database, "
                + "not \(expected.map(String.init) ?? "none") as this commit assumed: another instance wrote it first"
        case .migrationFailed(let version, let name, let error):
            "migration \(Migration.fileName(version: version, name: name)) failed and was rolled back: \(error)"
        case .commitOutcomeUnknown(let error):
            "the connection broke while the transaction was being committed; it may have been written: \(error)"
        }
    }
}

/// The durable side of navsim in a PostgreSQL database that several navsim instances can share:
/// the same tables and rows as SQLiteStore's `SessionStore`, with the schema from `migrations-postgres/`.
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
/// **Group commit.** As in SQLiteStore's `SessionStore`: one writer connection on one writer thread
/// (``WriterQueue``); commits queued while a transaction is in flight wait, and the next
/// transaction writes all of them, each inside its own `SAVEPOINT` so that one refused commit
/// is rolled back alone. Completions come on the writer in queue order. A follower
/// (``SessionCommit/followsPending``) of a failed commit fails unwritten with
/// ``SessionStoreError/predecessorFailed(session:version:)``, as in SQLiteStore's `SessionStore`.
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
/// **Deleting.** As in SQLiteStore's `SessionStore`: the session row goes and its id is recorded in
/// `pending_deletions` in one transaction (gone at once, for every instance); its controllers
/// and history go afterwards, ``deletionChunkRows`` rows per transaction on a background queue
/// (``sweepDeletion(_:chunkRows:maxChunks:)``), so a long session's removal never holds the
/// writer connection for long and other commits interleave. The pending ids live in the
/// database, not in memory: ``finishDeletion(_:)`` asks it (another instance may have deleted
/// the id), and ``resumeDeletions()`` sweeps whatever any instance left unfinished. Step 7 drops
/// the children's `ON DELETE CASCADE`, which would remove them all in the row's own `DELETE`.
///
/// **Listing.** `sessions.id` has the `"C"` collation (step 5), so the primary key's order is
/// byte order whatever the database's locale, as SQLite's BINARY: keyset pages use that index.
///
/// **Connections.** A writer and a reader, each in a `Mutex`, named ``applicationName(schema:)``
/// in `pg_stat_activity`. One the server dropped (a restart, a failover, `pg_terminate_backend`)
/// is replaced by a fresh one, and what ran on it runs once more there when that is safe: a read
/// always (it changes nothing); a write transaction only when it broke before its `COMMIT` was
/// sent, because the server rolls back a transaction whose connection ends uncommitted. A
/// transaction whose connection broke at `COMMIT` may have been written, so it is never run
/// again: it fails with ``PostgresStoreError/commitOutcomeUnknown(_:)``.
///
/// **Reachability.** Every operation reports, after its reconnect and retry, whether the
/// database answered (``reachability``, which logs one line when it goes and one when it answers
/// again); one that did not reach it fails with ``StoreUnreachable``, and the next operation
/// connects again, whenever it comes (no back-off). ``checkReachability()`` reads that for
/// `/readyz` and `navsim_store_up` and, when nothing has used the database for
/// ``StoreReachability/probeIntervalMillis``, probes it (`SELECT 1`) in the background.
///
/// **Storyboards.** Puts and deletes add one to `storyboard_revision` (step 6) in their
/// transaction, which ``storyboardRevision()`` reads, so every instance's catalog sees a change
/// on its next use; they also send `NOTIFY navsim_storyboards, '<name>'` (``storyboardChannel``).
public final class PostgresSessionStore: SessionStoring {
    /// The channel storyboard puts and deletes notify, with the storyboard's name as payload.
    public static let storyboardChannel = "navsim_storyboards"

    let url: String
    let schema: String?
    let writer: Mutex<PGConnection>
    let reader: Mutex<PGConnection>
    /// Reads only the storyboard revision (``storyboardRevision()``), outside any transaction.
    let revisionReader: Mutex<PGConnection>
    let writes = WriterQueue(label: "navsim.postgres.writer")
    let counters = Mutex((commits: 0, batches: 0, largestBatch: 0))
    /// Runs the chunked removals of deleted sessions after the reply, one at a time.
    let deletions = DispatchQueue(label: "navsim.postgres.deletions")
    /// Sessions whose commit at the given version failed, so their followers fail too. Read and
    /// written on the writer thread only.
    let brokenChains = Mutex(BrokenChains())

    /// Told each transaction's commit count once it is written (on the writer).
    public let batchObserver = Mutex<BatchObserver?>(nil)

    /// Whether the database answered the last attempt to use it (`/readyz`).
    public let reachability: StoreReachability
    /// Runs the probes ``checkReachability()`` starts, one at a time.
    let probes = DispatchQueue(label: "navsim.postgres.probe")

    /// The steps of `migrations-postgres/` this code is written against, in order: a folder that
    /// lacks one is refused before connecting (``Migrator/check(provides:directory:)``). A new
    /// step is added here too; `SchemaStepsTests` keeps the two in agreement.
    public static let schemaSteps = [
        "0001_initial.sql", "0002_stored_format.sql", "0003_storyboard_classes.sql", "0004_history_changes.sql",
        "0005_pending_deletions.sql", "0006_storyboard_revision.sql", "0007_chunked_deletes.sql",
    ]

    /// Connects (two connections: a writer and a reader) and applies the pending migrations.
    ///
    /// - Parameters:
    ///   - url: A libpq connection string, e.g. `postgresql://user@host:5432/db`.
    ///   - migrationsDirectory: The folder of `NNNN_name.sql` steps in PostgreSQL's dialect
    ///     (the repository's `migrations-postgres`).
    ///   - schema: A PostgreSQL schema to keep the tables in, created if missing; nil for the
    ///     connection's default.
    ///   - probeIntervalMillis: the least time, in milliseconds, between two probes of an idle
    ///     database by ``checkReachability()``.
    /// - Throws: ``PostgresError`` when the server cannot be reached or refuses a setting;
    ///   ``MigrationError`` for invalid migration files or a database newer than this build;
    ///   ``PostgresStoreError/migrationFailed(version:name:error:)`` when a step fails.
    public init(
        url: String, migrationsDirectory: String, schema: String? = nil,
        probeIntervalMillis: Int64 = 1_000
    ) throws {
        let migrator = try Migrator(directory: migrationsDirectory)
        // Before connecting: an older build's folder would leave tables this code uses missing.
        try migrator.check(provides: Self.schemaSteps, directory: migrationsDirectory)
        self.url = url
        self.schema = schema
        self.reachability = StoreReachability(probeIntervalMillis: probeIntervalMillis)
        let writer = try Self.connect(url, schema: schema, create: true)
        try Self.migrate(writer, migrator.migrations)
        self.writer = Mutex(writer)
        self.reader = Mutex(try Self.connect(url, schema: schema, create: false))
        self.revisionReader = Mutex(try Self.connect(url, schema: schema, create: false))
    }

    static func connect(_ url: String, schema: String?, create: Bool) throws -> PGConnection {
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

    /// This store's ``applicationName(schema:)``.
    var applicationName: String { Self.applicationName(schema: schema) }

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
                    try db.run(
                        "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
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

    /// Writes `commits` in one transaction, each in its own savepoint; one result per commit.
    /// Internal so tests can build a batch deterministically.
    func commitBatch(_ commits: [SessionCommit]) -> [Result<Void, any Error>] {
        guard !commits.isEmpty else { return [] }
        var chains = brokenChains.withLock { $0 }
        // Each run starts from the chains as they were: a run that broke before COMMIT wrote nothing.
        let results = writing(commits: commits.count) { [chains] db -> ([Result<Void, any Error>], BrokenChains) in
            var chains = chains
            let each = try chains.writeEach(commits, isInTransaction: { db.isInTransaction }) { commit in
                try db.transaction { try Self.apply(commit, to: db) }
            }
            return (each, chains)
        }
        switch results {
        case .success(let (_, after)): chains = after
        case .failure: chains.batchFailed(commits)
        }
        brokenChains.withLock { [chains] in $0 = chains }
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

    /// Runs `body` in one transaction on the writer (`BEGIN` … `COMMIT`).
    ///
    /// When the connection turns out broken before `COMMIT` was sent (the server restarted or
    /// dropped it: libpq learns that from the first statement that fails), the server has rolled
    /// the transaction back, so the whole transaction runs once more on a fresh connection. When
    /// it broke at `COMMIT`, the outcome is unknown and it fails with
    /// ``PostgresStoreError/commitOutcomeUnknown(_:)``; any other error fails it as it is. When
    /// the database cannot be reached (connecting fails, or the fresh connection breaks too) it
    /// fails with ``StoreUnreachable``. The outcome goes to ``reachability``, `commits` writes
    /// failed when the database was not reached.
    func writing<T: Sendable>(commits: Int = 1, _ body: (PGConnection) throws -> T) -> Result<T, any Error> {
        let started = StoreReachability.now()
        var (result, connected) = writingOnce(body)
        if case .failure(is BrokeBeforeCommit) = result {
            (result, connected) = writingOnce(body)
            result = result.mapError { ($0 as? BrokeBeforeCommit)?.error ?? $0 }
        }
        return reported(result, connected: connected, failed: .writes(commits), started: started)
    }

    /// The error of a transaction whose connection broke before its `COMMIT` was sent.
    private struct BrokeBeforeCommit: Error {
        let error: any Error
    }

    func writingOnce<T: Sendable>(_ body: (PGConnection) throws -> T) -> (Result<T, any Error>, connected: Bool) {
        withWriter { db in
            var committing = false
            do {
                return try db.transaction {
                    let value = try body(db)
                    committing = true
                    return value
                }
            } catch  where !db.isConnected {
                if committing { throw PostgresStoreError.commitOutcomeUnknown(String(describing: error)) }
                throw BrokeBeforeCommit(error: error)
            }
        }
    }

    /// Runs `body` on the writer, connecting first if the connection broke; also says whether
    /// the writer is connected afterwards (false: the database was not reached).
    private func withWriter<T: Sendable>(_ body: (PGConnection) throws -> T) -> (Result<T, any Error>, connected: Bool) {
        writer.withLock { db in
            do {
                if !db.isConnected { db = try Self.connect(url, schema: schema, create: false) }
                return (.success(try body(db)), true)
            } catch {
                return (.failure(error), db.isConnected)
            }
        }
    }

    /// Reports an operation's outcome, after its reconnect and retry, to ``reachability`` and
    /// logs the change it makes (one line when the database goes, one when it answers again);
    /// returns the outcome, its error as ``StoreUnreachable`` when the database was not reached
    /// (``PostgresStoreError/commitOutcomeUnknown(_:)`` stays as it is: it may have been written).
    func reported<T>(
        _ result: Result<T, any Error>, connected: Bool,
        failed: StoreReachability.Failed, started: Int64
    ) -> Result<T, any Error> {
        let error: (any Error)? = if case .failure(let e) = result { e } else { nil }
        let reached = error == nil || connected
        if let change = reachability.attempted(reached: reached, failed: failed, error: error, started: started) {
            StoreReachability.report(change)
        }
        guard let error, !reached, !error.isStoreUnreachable else { return result }
        return .failure(StoreUnreachable(error))
    }

    private static func apply(_ commit: SessionCommit, to db: PGConnection) throws {
        if commit.laterCheckpoint != nil { return try db.writeLaterCheckpoint(of: commit) }
        let s = commit.session
        let values: [PostgresValue] = s.parameters()
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
        try db.writeChildren(of: commit)
    }

    /// Rows (controllers or history entries) removed per transaction when a session is
    /// deleted, as SQLiteStore's `SessionStore.deletionChunkRows`.
    public static let deletionChunkRows = 100

    /// Deletes a session: durable before it returns; the session row is gone (for every instance)
    /// and its id is in `pending_deletions`, in one transaction. Its controllers and history are
    /// removed afterwards, a chunk per transaction, on the background queue. Not group-committed
    /// (deletions are rare; the caller's session lock orders it after the session's commits).
    /// An unknown id does nothing.
    /// - Parameter sweep: false leaves the rows for a later sweep (tests of a stop between chunks).
    public func deleteSession(_ id: String, sweep: Bool) throws {
        let existed = try writing { db -> Bool in
            guard try db.run("DELETE FROM sessions WHERE id = $1", [.text(id)]) > 0 else { return false }
            try db.run("INSERT INTO pending_deletions (session_id) VALUES ($1) ON CONFLICT DO NOTHING", [.text(id)])
            return true
        }.get()
        guard existed, sweep else { return }
        deletions.async { [self] in _ = try? sweepDeletion(id) }
    }

    /// Removes what is left of deleted session `id`, at most `chunkRows` rows per transaction
    /// (history first, then controllers), for at most `maxChunks` transactions; the transaction
    /// that finds nothing left drops the id from `pending_deletions`. Each chunk first locks the
    /// id's pending row (`FOR UPDATE`): instances sweeping one id take turns, and a sweep that
    /// finds the id no longer pending stops, so it never touches a session created again under
    /// the id after ``finishDeletion(_:)``.
    /// - Returns: whether nothing is left (the id is no longer pending).
    @discardableResult
    func sweepDeletion(
        _ id: String, chunkRows: Int = PostgresSessionStore.deletionChunkRows,
        maxChunks: Int = .max
    ) throws -> Bool {
        let limit = Int64(max(chunkRows, 1))
        var chunks = 0
        while chunks < maxChunks {
            chunks += 1
            let done = try writing { db -> Bool in
                guard
                    try !db.query(
                        "SELECT 1 FROM pending_deletions WHERE session_id = $1 FOR UPDATE",
                        [.text(id)]
                    ).isEmpty
                else { return true }
                if try db.run(
                    """
                    DELETE FROM history WHERE session_id = $1
                    AND version IN (SELECT version FROM history WHERE session_id = $1 LIMIT $2)
                    """, [.text(id), .integer(limit)]) > 0
                {
                    return false
                }
                if try db.run(
                    """
                    DELETE FROM controllers WHERE session_id = $1
                    AND id IN (SELECT id FROM controllers WHERE session_id = $1 LIMIT $2)
                    """, [.text(id), .integer(limit)]) > 0
                {
                    return false
                }
                try db.run("DELETE FROM pending_deletions WHERE session_id = $1", [.text(id)])
                return true
            }.get()
            if done { return true }
        }
        return false
    }

    /// Finishes the removal of deleted session `id` now if the database lists it as pending
    /// (whichever instance deleted it): a session created again under the id must not meet its
    /// predecessor's rows. One read when nothing is pending.
    public func finishDeletion(_ id: String) throws {
        guard try !pendingDeletionIDs(id).isEmpty else { return }
        try sweepDeletion(id)
    }

    /// Calls `body` on the background queue once ``finishDeletion(_:)`` has run for `id` (the
    /// database decides whether anything is pending, whichever instance deleted it).
    public func afterDeletion(of id: String, _ body: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        deletions.async { [self] in body(Result { try finishDeletion(id) }) }
    }

    /// Sweeps, on the background queue, every deletion the database lists as unfinished (left
    /// by this instance or another; start-up). A failure to read the list leaves it for the
    /// next start, or for ``finishDeletion(_:)``.
    public func resumeDeletions() {
        guard let ids = try? pendingDeletionIDs(nil) else { return }
        for id in ids { deletions.async { [self] in _ = try? sweepDeletion(id) } }
    }

    /// Waits until the background removals queued so far on this instance have run (tests, shutdown).
    public func waitForDeletions() {
        deletions.sync {}
    }

    /// The ids `pending_deletions` lists, ascending; only `id` when given.
    func pendingDeletionIDs(_ id: String?) throws -> [String] {
        try read { db in
            try db.query(
                "SELECT session_id FROM pending_deletions WHERE $1::text IS NULL OR session_id = $1 ORDER BY session_id",
                [.optional(id)]
            ).map { try $0.required("session_id") }
        }
    }

    /// Rows of `controllers` and `history` that carry `session`'s id (tests of the chunked delete).
    func childRowCount(session: String) throws -> Int {
        try read { db in
            Int(
                try db.query(
                    "SELECT (SELECT count(*) FROM controllers WHERE session_id = $1) + (SELECT count(*) FROM history WHERE session_id = $1) AS n",
                    [.text(session)]
                ).first?.int("n") ?? 0)
        }
    }

    /// Stores a storyboard, replacing one of the same name, and notifies ``storyboardChannel``.
    public func putStoryboard(_ s: StoredStoryboard) throws {
        try putStoryboards([s])
    }

    /// Stores several storyboards in one transaction (all or none) and notifies each name.
    public func putStoryboards(_ list: [StoredStoryboard]) throws {
        try writing { db in
            try db.upsert(list)
            for s in list { try db.notify(Self.storyboardChannel, payload: s.name) }
        }.get()
    }

    /// Deletes a storyboard and notifies ``storyboardChannel``; returns whether it existed.
    public func deleteStoryboard(_ name: String) throws -> Bool {
        try writing { db in
            let deleted = try db.run(PGConnection.statements.deleteStoryboard, [.text(name)]) > 0
            if deleted {
                try db.bumpStoryboardRevision()
                try db.notify(Self.storyboardChannel, payload: name)
            }
            return deleted
        }.get()
    }
}

import Dispatch
public import PostgreSQL
public import SessionStorage
import Synchronization

extension PostgresSessionStore {
    // MARK: Reading

    /// One session with its controllers (ordered by id), from one snapshot; nil for an unknown id.
    public func loadSession(_ id: String) throws -> StoredSession? {
        try read { db in try db.readSession(id) }
    }

    /// The session's version in the database, nil when there is none: one statement on the
    /// primary key, outside a transaction (the service's check before it serves a cached copy).
    public func sessionVersion(_ id: String) throws -> (version: Int, createdAt: String)? {
        let started = StoreReachability.now()
        let (result, connected) = reader.withLock { db in
            reconnectingRead(&db) { db -> (version: Int, createdAt: String)? in
                guard let row = try db.query("SELECT version, created_at FROM sessions WHERE id = $1", [.text(id)]).first,
                    let version = row.int("version"), let createdAt = row.text("created_at")
                else { return nil }
                return (Int(version), createdAt)
            }
        }
        return try reported(result, connected: connected, failed: .read, started: started).get()
    }

    /// Every session id, ascending in byte order (the primary key's, collation `"C"`).
    public func sessionIDs() throws -> [String] {
        try read { db in try db.readSessionIDs() }
    }

    /// How many sessions the database holds, every instance's: `navsim_sessions` of `/metrics`
    /// (one count over the primary key's index per scrape).
    public func sessionCount() throws -> Int {
        try read { db in Int(try db.query("SELECT count(*) AS n FROM sessions").first?.int("n") ?? 0) }
    }

    /// Up to `limit` sessions whose id sorts after `after` (all when nil), ascending: one range
    /// of the primary key's index (`WHERE id > $1 ORDER BY id LIMIT $2`, byte order).
    public func sessionPage(after: String?, limit: Int) throws -> [(id: String, version: Int, createdAt: String)] {
        try read { db in try db.readSessionPage(after: after, limit: limit) }
    }

    /// A page of a session's history: `version > after`, ascending, at most `limit`; without
    /// `checkpoints` the column is not read and every row's `checkpoint` is nil.
    public func history(session: String, after: Int, limit: Int, checkpoints: Bool) throws -> [HistoryRow] {
        try read { db in try db.readHistory(session: session, after: after, limit: limit, checkpoints: checkpoints) }
    }

    /// The number of history entries of a session; 0 for an unknown one.
    public func historyCount(session: String) throws -> Int {
        try read { db in try db.readHistoryCount(session: session) }
    }

    /// Every storyboard, ordered by name.
    public func loadStoryboards() throws -> [StoredStoryboard] {
        try read { db in try db.readStoryboards() }
    }

    /// The storyboard revision (migration 0006), which every storyboard-changing transaction of
    /// any instance bumps: one primary-key row, read on a connection of its own so that the
    /// catalog's check before each use never waits behind a long read. Reconnects when the
    /// server dropped the connection.
    public func storyboardRevision() throws -> Int? {
        let started = StoreReachability.now()
        let (result, connected) = revisionReader.withLock { db in
            reconnectingRead(&db) { db in try db.readStoryboardRevision() }
        }
        return try reported(result, connected: connected, failed: .read, started: started).get()
    }

    /// Runs `body` on the reader in one `REPEATABLE READ READ ONLY` transaction: one snapshot.
    /// A read whose connection broke under it runs once more, as ``reconnectingRead(_:_:)``
    /// says; ``snapshot(_:)`` reconnects first. The outcome goes to ``reachability``.
    func read<T: Sendable>(_ body: (PGConnection) throws -> T) throws -> T {
        let started = StoreReachability.now()
        var (result, connected) = snapshot(body)
        if case .failure = result, !connected { (result, connected) = snapshot(body) }
        return try reported(result, connected: connected, failed: .read, started: started).get()
    }

    /// One attempt of ``read(_:)``; also says whether the reader is connected afterwards.
    func snapshot<T: Sendable>(_ body: (PGConnection) throws -> T) -> (Result<T, any Error>, connected: Bool) {
        reader.withLock { db in
            do {
                if !db.isConnected { db = try Self.connect(url, schema: schema, create: false) }
                // Spelled out rather than through transaction(begin:_:): a closure capturing both
                // `body` and `db` would merge their isolation regions, which the Mutex's inout forbids.
                try db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                do {
                    let value = try body(db)
                    try db.execute("COMMIT")
                    return (.success(value), true)
                } catch {
                    if db.isInTransaction { try? db.execute("ROLLBACK") }
                    throw error
                }
            } catch {
                return (.failure(error), db.isConnected)
            }
        }
    }

    /// Runs the read `body` on `db`, connecting first when it is not connected. A read whose
    /// connection broke under it (the server restarted: libpq learns it on the next statement)
    /// runs once more on a fresh connection, so a restart of PostgreSQL does not fail the first
    /// read on each connection; a read changes nothing, so running it again is safe. (Writes run
    /// again only when they broke before `COMMIT`: ``writing(commits:_:)``.) Also says whether
    /// `db` is connected afterwards; the caller reports the outcome (``reported(_:connected:failed:started:)``).
    func reconnectingRead<T: Sendable>(_ db: inout PGConnection, _ body: (PGConnection) throws -> T)
        -> (Result<T, any Error>, connected: Bool)
    {
        do {
            if !db.isConnected { db = try Self.connect(url, schema: schema, create: false) }
            do {
                return (.success(try body(db)), true)
            } catch  where !db.isConnected {
                db = try Self.connect(url, schema: schema, create: false)
                return (.success(try body(db)), true)
            }
        } catch {
            return (.failure(error), db.isConnected)
        }
    }

    // MARK: Reachability

    /// Whether the database answered the last attempt to use it; no round trip. When nothing
    /// has used it for ``StoreReachability/probeIntervalMillis``, starts one probe (`SELECT 1`
    /// on the storyboard revision's connection, reconnecting when needed) on a background queue,
    /// whose outcome a later call sees (and which logs a change as any operation does).
    public func checkReachability() -> Bool {
        let (reachable, probe) = reachability.check()
        if probe {
            probes.async { [self] in
                let started = StoreReachability.now()
                let (result, connected) = revisionReader.withLock { db in
                    reconnectingRead(&db) { db in try db.run("SELECT 1") }
                }
                let error: (any Error)? = if case .failure(let e) = result { e } else { nil }
                if let change = reachability.probeFinished(reached: error == nil || connected, error: error, started: started) {
                    StoreReachability.report(change)
                }
            }
        }
        return reachable
    }

    // MARK: Metrics

    /// Commits, batches (transactions) and the largest batch so far.
    public var statistics: (commits: Int, batches: Int, largestBatch: Int) {
        counters.withLock { $0 }
    }

    /// Any number of navsim instances may share the database.
    public var isShared: Bool { true }
}

extension PostgresStoreError: StoreFault {
    /// Whether another instance wrote the session first (``staleVersion(session:expected:stored:)``).
    public var isStaleVersion: Bool {
        if case .staleVersion = self { return true }
        return false
    }

    /// Whether the connection broke at `COMMIT` (``commitOutcomeUnknown(_:)``).
    public var isCommitOutcomeUnknown: Bool {
        if case .commitOutcomeUnknown = self { return true }
        return false
    }

    /// The SQLSTATE of a failed schema step.
    public var storeCode: StoreCode? {
        if case .migrationFailed(_, _, let error) = self { return error.sqlState.map(StoreCode.sqlState) }
        return nil
    }
}

extension PostgresError: StoreFault {
    /// The SQLSTATE, when the server sent one.
    public var storeCode: StoreCode? { sqlState.map(StoreCode.sqlState) }
}

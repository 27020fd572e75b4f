import Synchronization

/// What the service needs of its durable store: sessions with their controllers and history,
/// and storyboards. ``SessionStore`` (one SQLite file, the default) and
/// ``PostgresSessionStore`` (a PostgreSQL database several instances can share) implement it,
/// and `Tests/StoreTests` runs one suite against both.
///
/// The rows are the stored format's (`StoredFormat.swift`); a store keeps them as given and
/// never reads their JSON.
///
/// Every implementation promises:
/// - **Durable before return.** A write method returns only once its data would survive a
///   crash of the process and a power loss (SQLite: WAL with `synchronous=FULL`; PostgreSQL:
///   `synchronous_commit = on`).
/// - **All or nothing.** A write that throws changed nothing.
/// - **Batched.** Concurrent ``commit(_:)`` calls share transactions (group commit), and each
///   batch is reported to ``batchObserver``.
/// - **One version after another.** `SessionCommit.session.version` is one past the version
///   the commit was computed from (every accepted operation adds one; creation is version 0),
///   and a commit whose history version the session already has is refused. PostgreSQL, where
///   several instances write, also refuses a commit whose base version is not the stored one
///   (``PostgresStoreError/staleVersion(session:expected:stored:)``).
public protocol SessionStoring: AnyObject, Sendable {
    /// Writes one accepted operation (or a session creation); durable before it returns.
    func commit(_ commit: SessionCommit) throws
    /// Deletes a session with its controllers and history; an unknown id does nothing.
    func deleteSession(_ id: String) throws
    /// Stores a storyboard, replacing one of the same name.
    func putStoryboard(_ s: StoredStoryboard) throws
    /// Stores several storyboards in one transaction, all or none.
    func putStoryboards(_ list: [StoredStoryboard]) throws
    /// Deletes a storyboard; returns whether one of that name existed.
    func deleteStoryboard(_ name: String) throws -> Bool
    /// Every session with its controllers, ordered by session id, read as one snapshot.
    func loadSessions() throws -> [StoredSession]
    /// A page of a session's history: `version > after`, ascending, at most `limit` entries.
    func history(session: String, after: Int, limit: Int) throws -> [HistoryRow]
    /// The number of history entries of a session; 0 for an unknown one.
    func historyCount(session: String) throws -> Int
    /// Every storyboard, ordered by name.
    func loadStoryboards() throws -> [StoredStoryboard]
    /// Told each written batch's commit count (the service's batch-size histogram).
    var batchObserver: Mutex<(@Sendable (Int) -> Void)?> { get }
    /// Counters for /metrics: commits, batches (transactions), the largest batch.
    var statistics: (commits: Int, batches: Int, largestBatch: Int) { get }
}

extension SessionStore: SessionStoring {}

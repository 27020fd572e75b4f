public import Synchronization

/// What the service needs of its durable store: sessions with their controllers and history,
/// and storyboards. `SessionStore` (SQLiteStore: one SQLite file, the default) and
/// `PostgresSessionStore` (PostgresStore: a PostgreSQL database several instances can share)
/// implement it, and `Tests/StoreTests` runs one suite against both.
///
/// The list is what `Service`, `LiveSession`'s loader, the storyboard catalog and `/metrics` use
/// of the store, no more. Requirements carry no default arguments; an implementation may add
/// them (`SessionStore` defaults `sweep` and `checkpoints` to true).
///
/// The rows (`Rows.swift`) carry the service's stored format; a store keeps them as given and
/// never reads their JSON.
///
/// Every implementation promises:
/// - **Durable before acknowledged.** A write method returns (``enqueue(_:then:)`` calls back
///   with success) only once its data would survive a crash of the process and a power loss
///   (SQLite: WAL with `synchronous=FULL`; PostgreSQL: `synchronous_commit = on`).
/// - **All or nothing.** A write that fails changed nothing.
/// - **Batched, in order.** Commits queued while a transaction is in flight share the next one
///   (group commit); each transaction's commit count is told to ``batchObserver``. Completions
///   are called one at a time in the order the commits were queued.
/// - **Followers of a failure fail.** A commit marked ``SessionCommit/followsPending`` queued
///   after a failed commit of its session, with a higher version, fails unwritten with
///   ``SessionStoreError/predecessorFailed(session:version:)``.
/// - **One version after another.** `SessionCommit.session.version` is one past the version
///   the commit was computed from (every accepted operation adds one; creation is version 0),
///   and a commit whose history version the session already has is refused. PostgreSQL, where
///   several instances write, also refuses a commit whose base version is not the stored one
///   (PostgresStore's `PostgresStoreError.staleVersion`, a ``StoreFault``).
/// - **Gone at once.** After ``deleteSession(_:sweep:)`` returns, the session is absent from
///   ``loadSession(_:)``, ``sessionIDs()`` and ``sessionPage(after:limit:)``; its controllers and
///   history may go later (``finishDeletion(_:)`` removes them before the id is used again).
public protocol SessionStoring: AnyObject, Sendable {
    /// Queues one operation (or a session creation) and returns at once; `completion` is told
    /// its outcome once the transaction holding it is durable, or has failed.
    func enqueue(_ commit: SessionCommit, then completion: @escaping @Sendable (Result<Void, any Error>) -> Void)
    /// ``enqueue(_:then:)`` waited on: durable before it returns; throws this commit's error.
    func commit(_ commit: SessionCommit) throws
    /// Deletes a session; an unknown id does nothing. The session row goes in this call;
    /// `sweep` false leaves any rows the store removes later for a later sweep (tests).
    func deleteSession(_ id: String, sweep: Bool) throws
    /// Removes now whatever a deletion of `id` left, so a session created again under the id
    /// does not meet its predecessor's rows; returns at once when nothing is pending.
    func finishDeletion(_ id: String) throws
    /// Calls `body` once no rows of a deleted session `id` are left (``finishDeletion(_:)``
    /// without holding the caller's thread: a creation under a recently deleted id is answered
    /// from there). `body` receives the removal's error, if any.
    func afterDeletion(of id: String, _ body: @escaping @Sendable (Result<Void, any Error>) -> Void)
    /// Resumes, in the background, the removals a previous run left unfinished (start-up).
    func resumeDeletions()
    /// Waits until the background removals queued so far have run (tests, shutdown).
    func waitForDeletions()
    /// One session with its controllers (ordered by id), read as one snapshot; nil if none has the id.
    func loadSession(_ id: String) throws -> StoredSession?
    /// Every session id, ascending in Unicode scalar order (the primary key's).
    func sessionIDs() throws -> [String]
    /// How many sessions the store holds: every instance's, on a shared store.
    func sessionCount() throws -> Int
    /// Up to `limit` sessions whose id sorts after `after` (all when nil), ascending: keyset
    /// paging on the primary key. Ids compare byte by byte in UTF-8 (Unicode scalar order).
    func sessionPage(after: String?, limit: Int) throws -> [(id: String, version: Int, createdAt: String)]
    /// A page of a session's history: `version > after`, ascending, at most `limit` entries;
    /// without `checkpoints` every row's `checkpoint` is nil (the column is not read).
    func history(session: String, after: Int, limit: Int, checkpoints: Bool) throws -> [HistoryRow]
    /// The number of history entries of a session; 0 for an unknown one.
    func historyCount(session: String) throws -> Int
    /// Stores a storyboard, replacing one of the same name.
    func putStoryboard(_ s: StoredStoryboard) throws
    /// Stores several storyboards in one transaction, all or none.
    func putStoryboards(_ list: [StoredStoryboard]) throws
    /// Deletes a storyboard; returns whether one of that name existed.
    func deleteStoryboard(_ name: String) throws -> Bool
    /// Every storyboard, ordered by name.
    func loadStoryboards() throws -> [StoredStoryboard]
    /// The storyboard revision: a number every transaction that changes storyboards (put,
    /// declarations, delete) moves, read cheaply; nil when only this process writes the store's
    /// storyboards, so a catalog need never check (SQLite). A catalog holding storyboards in
    /// memory compares it with the revision it loaded at before each use and reloads when it
    /// moved (a change through one instance is seen by every other on its next use).
    func storyboardRevision() throws -> Int?
    /// Told each written transaction's commit count (the service's batch-size histogram).
    var batchObserver: Mutex<BatchObserver?> { get }
    /// Counters for /metrics: commits, batches (transactions), the largest batch.
    var statistics: (commits: Int, batches: Int, largestBatch: Int) { get }
    /// The session's version and creation time as stored, nil when there is none: what a
    /// shared store's reads check a cached copy against (``isShared``). The creation time tells
    /// a session deleted and created again under the same id from the one the copy is of.
    func sessionVersion(_ id: String) throws -> (version: Int, createdAt: String)?
    /// Whether other processes may write this store's sessions (several navsim instances on one
    /// PostgreSQL database). The service then looks up a session id it has not registered in
    /// the store (another instance created it), and treats its in-memory copies as caches that
    /// a stale-version refusal invalidates.
    var isShared: Bool { get }
    /// Whether the store's database answered the last attempt to use it, and none has failed
    /// since: what `GET /readyz` and `navsim_store_up` report. Cheap, no round trip; a store may
    /// start a background probe from here when it has not used its database for a while
    /// (``StoreReachability``).
    func checkReachability() -> Bool
}

extension SessionStoring {
    /// ``history(session:after:limit:checkpoints:)`` with the checkpoint column read.
    public func history(session: String, after: Int, limit: Int) throws -> [HistoryRow] {
        try history(session: session, after: after, limit: limit, checkpoints: true)
    }

    /// ``deleteSession(_:sweep:)`` sweeping what the deletion leaves.
    public func deleteSession(_ id: String) throws { try deleteSession(id, sweep: true) }
}

/// What the service asks of a store's error to answer for it without knowing the store: each
/// store makes its database's errors conform (SQLiteStore: `SQLiteError`; PostgresStore:
/// `PostgresError`, `PostgresStoreError`). Every member defaults to "no".
public protocol StoreFault: Error {
    /// A refusal of a commit computed from a version the database no longer holds: another
    /// instance wrote the session first, and nothing of the commit was written.
    var isStaleVersion: Bool { get }
    /// The database or its disk is full: nothing was stored.
    var isStorageFull: Bool { get }
    /// The connection broke while the transaction was being committed: it may have been stored.
    var isCommitOutcomeUnknown: Bool { get }
    /// The database's own code, for the operator's log line.
    var storeCode: StoreCode? { get }
}

/// A database's own code for an error: SQLite's extended result code
/// (<https://sqlite.org/rescode.html>) or PostgreSQL's SQLSTATE.
public enum StoreCode: Sendable, Equatable {
    case resultCode(Int32)
    case sqlState(String)
}

extension StoreFault {
    public var isStaleVersion: Bool { false }
    public var isStorageFull: Bool { false }
    public var isCommitOutcomeUnknown: Bool { false }
    public var storeCode: StoreCode? { nil }
}

extension Error {
    /// This error as a ``StoreFault``, nil for any other error.
    public var storeFault: (any StoreFault)? { self as? any StoreFault }
    /// Whether this is a refusal of a commit computed from a version the database no longer
    /// holds (``StoreFault/isStaleVersion``).
    public var isStaleVersion: Bool { storeFault?.isStaleVersion ?? false }
}

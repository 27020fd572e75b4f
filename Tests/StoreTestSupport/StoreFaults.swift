import Dispatch
public import SessionStorage
public import Synchronization

// Faults for tests, put around a store from outside: the stores carry no test hooks.

/// Holds a store's writer from outside, as a client whose commit is slow to be answered would:
/// `init` queues a commit that writes nothing (the checkpoint of a session that does not exist)
/// and returns once the writer is inside that commit's completion, where it waits until
/// ``release()``. Commits queued meanwhile wait, and the writer takes all of them in its next
/// transaction (`SessionStoring`: "batched, in order"). The held commit is one commit in a batch
/// of its own: statistics and batch observers see it.
public final class WriterHold: Sendable {
    private let go = DispatchSemaphore(value: 0)

    /// Holds `store`'s writer; returns once it is held.
    public init(_ store: any SessionStoring) {
        let entered = DispatchSemaphore(value: 0)
        store.enqueue(.checkpoint(session: "\u{1}writer-hold", createdAt: "", version: 0, text: "")) { [go] _ in
            entered.signal()
            go.wait()
        }
        entered.wait()
    }

    /// Lets the writer go on; call exactly once.
    public func release() { go.signal() }
}

/// A store fault the tests inject: the database or its disk is full, as SQLite's `SQLITE_FULL`.
public struct DiskFull: StoreFault, CustomStringConvertible {
    public init() {}
    public var isStorageFull: Bool { true }
    public var description: String { "database or disk is full (injected)" }
}

/// A store whose writes fail with ``fault`` while it is set, and pass to `inner` otherwise;
/// reads always pass. A failed write reaches no database, so it changed nothing.
public final class FaultyStore: SessionStoring {
    public let inner: any SessionStoring
    /// The error every write fails with; nil lets writes through.
    public let fault = Mutex<(any Error & Sendable)?>(nil)
    /// Completions of failed writes are called here, off the caller's thread, as the writer
    /// calls them.
    private let completions = DispatchQueue(label: "navsim.test.faulty-store")

    public init(_ inner: any SessionStoring) { self.inner = inner }

    private func failure() -> (any Error)? { fault.withLock { $0 } }

    public func enqueue(_ commit: SessionCommit, then completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        guard let error = failure() else { return inner.enqueue(commit, then: completion) }
        completions.async { completion(.failure(error)) }
    }
    public func commit(_ commit: SessionCommit) throws {
        if let error = failure() { throw error }
        try inner.commit(commit)
    }
    public func deleteSession(_ id: String, sweep: Bool) throws {
        if let error = failure() { throw error }
        try inner.deleteSession(id, sweep: sweep)
    }
    public func finishDeletion(_ id: String) throws { try inner.finishDeletion(id) }
    public func afterDeletion(of id: String, _ body: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        inner.afterDeletion(of: id, body)
    }
    public func resumeDeletions() { inner.resumeDeletions() }
    public func waitForDeletions() { inner.waitForDeletions() }
    public func loadSession(_ id: String) throws -> StoredSession? { try inner.loadSession(id) }
    public func sessionIDs() throws -> [String] { try inner.sessionIDs() }
    public func sessionCount() throws -> Int { try inner.sessionCount() }
    public func sessionPage(after: String?, limit: Int) throws -> [(id: String, version: Int, createdAt: String)] {
        try inner.sessionPage(after: after, limit: limit)
    }
    public func history(session: String, after: Int, limit: Int, checkpoints: Bool) throws -> [HistoryRow] {
        try inner.history(session: session, after: after, limit: limit, checkpoints: checkpoints)
    }
    public func historyCount(session: String) throws -> Int { try inner.historyCount(session: session) }
    public func putStoryboard(_ s: StoredStoryboard) throws {
        if let error = failure() { throw error }
        try inner.putStoryboard(s)
    }
    public func putStoryboards(_ list: [StoredStoryboard]) throws {
        if let error = failure() { throw error }
        try inner.putStoryboards(list)
    }
    public func deleteStoryboard(_ name: String) throws -> Bool {
        if let error = failure() { throw error }
        return try inner.deleteStoryboard(name)
    }
    public func loadStoryboards() throws -> [StoredStoryboard] { try inner.loadStoryboards() }
    public func storyboardRevision() throws -> Int? { try inner.storyboardRevision() }
    /// Its own, not `inner`'s (a `Mutex` cannot be handed on): the service's batch histogram
    /// sees no batch through this store.
    public let batchObserver = Mutex<BatchObserver?>(nil)
    public var statistics: (commits: Int, batches: Int, largestBatch: Int) { inner.statistics }
    public func sessionVersion(_ id: String) throws -> (version: Int, createdAt: String)? { try inner.sessionVersion(id) }
    public var isShared: Bool { inner.isShared }
    public func checkReachability() -> Bool { inner.checkReachability() }
}

import Dispatch
import Foundation
import Synchronization

import NavSimService
import SessionStorage
import SQLiteStore

/// A store whose writes the test holds back: the SQLite store underneath keeps the rows, and
/// everything not held goes straight to it.
/// - Session commits: while ``holding`` is set, every `enqueue` is kept, not forwarded, until
///   the test answers it (``awaitHeld(_:)``), so a test can play a store's answers in any
///   interleaving. With `shared`, the service treats its copies as caches, as on PostgreSQL.
/// - Storyboard writes: while ``storyboardsGated`` is set, each signals ``storyboardWriteStarted``
///   and then waits for one signal of ``storyboardGate``: a storyboard commit held back.
final class ScriptedStore: SessionStoring {
    struct Held: Sendable {
        let commit: SessionCommit
        let completion: @Sendable (Result<Void, any Error>) -> Void
    }

    let inner: SessionStore
    let isShared: Bool
    let holding = Atomic<Bool>(false)
    private let held = Mutex<[Held]>([])
    private let arrivals = DispatchSemaphore(value: 0)
    let storyboardsGated = Atomic<Bool>(false)
    let storyboardGate = DispatchSemaphore(value: 0)
    let storyboardWriteStarted = DispatchSemaphore(value: 0)
    /// Storyboard writes that reached the store, held or not.
    let storyboardWrites = Atomic<Int>(0)

    /// The temporary folder of ``onFreshFile(shared:)``'s database, removed with the store.
    private let folder: String?

    init(_ inner: SessionStore, shared: Bool) {
        self.inner = inner
        isShared = shared
        folder = nil
    }

    /// A store on a SQLite file of its own, in a fresh temporary folder that goes with the store.
    init(onFreshFile shared: Bool) throws {
        let folder = NSTemporaryDirectory() + "ScriptedStore-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        inner = try SessionStore(path: folder + "/navsim.sqlite", migrationsDirectory: ServiceFiles.migrations)
        isShared = shared
        self.folder = folder
    }

    deinit { if let folder { try? FileManager.default.removeItem(atPath: folder) } }

    /// The next `count` commits kept while ``holding``, in the order they came; nil when they did
    /// not all come within 10 s.
    func awaitHeld(_ count: Int) -> [Held]? {
        for _ in 0..<count where arrivals.wait(timeout: .now() + 10) == .timedOut { return nil }
        return held.withLock { kept in
            let first = Array(kept.prefix(count))
            kept.removeFirst(first.count)
            return first
        }
    }

    func enqueue(_ commit: SessionCommit, then completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        guard holding.load(ordering: .acquiring) else { return inner.enqueue(commit, then: completion) }
        held.withLock { $0.append(Held(commit: commit, completion: completion)) }
        arrivals.signal()
    }

    func commit(_ commit: SessionCommit) throws { try inner.commit(commit) }
    func deleteSession(_ id: String, sweep: Bool) throws { try inner.deleteSession(id, sweep: sweep) }
    func finishDeletion(_ id: String) throws { try inner.finishDeletion(id) }
    func afterDeletion(of id: String, _ body: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        inner.afterDeletion(of: id, body)
    }
    func resumeDeletions() { inner.resumeDeletions() }
    func waitForDeletions() { inner.waitForDeletions() }
    func loadSession(_ id: String) throws -> StoredSession? { try inner.loadSession(id) }
    func sessionIDs() throws -> [String] { try inner.sessionIDs() }
    func sessionCount() throws -> Int { try inner.sessionCount() }
    func sessionPage(after: String?, limit: Int) throws -> [(id: String, version: Int, createdAt: String)] {
        try inner.sessionPage(after: after, limit: limit)
    }
    func history(session: String, after: Int, limit: Int, checkpoints: Bool) throws -> [HistoryRow] {
        try inner.history(session: session, after: after, limit: limit, checkpoints: checkpoints)
    }
    func historyCount(session: String) throws -> Int { try inner.historyCount(session: session) }
    private func passStoryboardGate() {
        storyboardWrites.add(1, ordering: .relaxed)
        guard storyboardsGated.load(ordering: .relaxed) else { return }
        storyboardWriteStarted.signal()
        storyboardGate.wait()
    }
    func putStoryboard(_ s: StoredStoryboard) throws {
        passStoryboardGate()
        try inner.putStoryboard(s)
    }
    func putStoryboards(_ list: [StoredStoryboard]) throws {
        passStoryboardGate()
        try inner.putStoryboards(list)
    }
    func deleteStoryboard(_ name: String) throws -> Bool {
        passStoryboardGate()
        return try inner.deleteStoryboard(name)
    }
    func loadStoryboards() throws -> [StoredStoryboard] { try inner.loadStoryboards() }
    func storyboardRevision() throws -> Int? { try inner.storyboardRevision() }
    /// The service's batch-size histogram is not fed from here (the test does not read it).
    let batchObserver = Mutex<BatchObserver?>(nil)
    var statistics: (commits: Int, batches: Int, largestBatch: Int) { inner.statistics }
    func sessionVersion(_ id: String) throws -> (version: Int, createdAt: String)? { try inner.sessionVersion(id) }
    func checkReachability() -> Bool { inner.checkReachability() }
}

import Dispatch
import Foundation
import HTTPServer
import PostgreSQL
import Synchronization
import JSONValues
import Testing

import NavSimService
import SessionStorage
import SQLiteStore
import PostgresStore

/// A store whose database can be taken away, wrapped around a SQLite store from outside: while
/// ``down`` is set, every operation fails as ``PostgresSessionStore``'s do when they cannot
/// connect (``StoreUnreachable``) and reports that to its ``StoreReachability``, as that store
/// does; otherwise it goes to the SQLite store underneath, which keeps the rows. With
/// ``commitFailure`` set, session commits fail with that error instead (a connection that broke
/// at `COMMIT`). Commits pass one serial queue, so their completions keep their order and never
/// run on the caller's thread (the service queues commits under a session's lock).
final class UnreachableStore: SessionStoring {
    let inner: SessionStore
    let isShared: Bool
    let down = Atomic<Bool>(false)
    let commitFailure = Mutex<(any Error)?>(nil)
    /// Probes whenever asked, as a store whose probe interval is 0.
    let reachability = StoreReachability(probeIntervalMillis: 0)
    /// The changes ``reachability`` reported, in order: what the server would log.
    let changes = Mutex<[StoreReachability.Change]>([])
    private let writer = DispatchQueue(label: "UnreachableStore.writer")
    private let folder: String?

    /// A store on a SQLite file of its own, in a fresh temporary folder that goes with the store.
    init(shared: Bool) throws {
        let folder = NSTemporaryDirectory() + "UnreachableStore-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        inner = try SessionStore(path: folder + "/navsim.sqlite", migrationsDirectory: ServiceFiles.migrations)
        isShared = shared
        self.folder = folder
    }

    /// Another instance's view of `other`'s rows (a database two instances share).
    init(sharing other: UnreachableStore) {
        inner = other.inner
        isShared = true
        folder = nil
    }

    deinit { if let folder { try? FileManager.default.removeItem(atPath: folder) } }

    static let refused = PostgresError(sqlState: nil, message: "cannot connect: connection to server at \"127.0.0.1\", port 5432 failed: Connection refused")

    private func note(_ change: StoreReachability.Change?) {
        if let change { changes.withLock { $0.append(change) } }
    }

    private func use<T>(_ failed: StoreReachability.Failed, _ body: () throws -> T) throws -> T {
        if down.load(ordering: .acquiring) {
            note(reachability.attempted(reached: false, failed: failed, error: Self.refused))
            throw StoreUnreachable(Self.refused)
        }
        let value = try body()
        note(reachability.attempted(reached: true))
        return value
    }

    private func write(_ commit: SessionCommit) throws {
        if let error = commitFailure.withLock({ $0 }) { throw error }
        try use(.writes(1)) { try inner.commit(commit) }
    }

    func enqueue(_ commit: SessionCommit, then completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        writer.async { [self] in completion(Result { try write(commit) }) }
    }
    func commit(_ commit: SessionCommit) throws { try writer.sync { try write(commit) } }
    func deleteSession(_ id: String, sweep: Bool) throws { try use(.writes(1)) { try inner.deleteSession(id, sweep: sweep) } }
    func finishDeletion(_ id: String) throws { try use(.writes(1)) { try inner.finishDeletion(id) } }
    func afterDeletion(of id: String, _ body: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        DispatchQueue.global().async { [self] in body(Result { try finishDeletion(id) }) }
    }
    func resumeDeletions() { inner.resumeDeletions() }
    func waitForDeletions() { inner.waitForDeletions() }
    func loadSession(_ id: String) throws -> StoredSession? { try use(.read) { try inner.loadSession(id) } }
    func sessionIDs() throws -> [String] { try use(.read) { try inner.sessionIDs() } }
    func sessionCount() throws -> Int { try use(.read) { try inner.sessionCount() } }
    func sessionPage(after: String?, limit: Int) throws -> [(id: String, version: Int, createdAt: String)] {
        try use(.read) { try inner.sessionPage(after: after, limit: limit) }
    }
    func history(session: String, after: Int, limit: Int, checkpoints: Bool) throws -> [HistoryRow] {
        try use(.read) { try inner.history(session: session, after: after, limit: limit, checkpoints: checkpoints) }
    }
    func historyCount(session: String) throws -> Int { try use(.read) { try inner.historyCount(session: session) } }
    func putStoryboard(_ s: StoredStoryboard) throws { try use(.writes(1)) { try inner.putStoryboard(s) } }
    func putStoryboards(_ list: [StoredStoryboard]) throws { try use(.writes(1)) { try inner.putStoryboards(list) } }
    func deleteStoryboard(_ name: String) throws -> Bool { try use(.writes(1)) { try inner.deleteStoryboard(name) } }
    func loadStoryboards() throws -> [StoredStoryboard] { try use(.read) { try inner.loadStoryboards() } }
    /// Read before every use of the catalogue, as on PostgreSQL (where it is not nil).
    func storyboardRevision() throws -> Int? { try use(.read) { 0 } }
    let batchObserver = Mutex<BatchObserver?>(nil)
    var statistics: (commits: Int, batches: Int, largestBatch: Int) { inner.statistics }
    func sessionVersion(_ id: String) throws -> (version: Int, createdAt: String)? {
        try use(.read) { try inner.sessionVersion(id) }
    }
    func checkReachability() -> Bool {
        let (reachable, probe) = reachability.check()
        guard probe else { return reachable }
        note(reachability.probeFinished(reached: !down.load(ordering: .acquiring), error: Self.refused))
        return reachability.isReachable
    }
}

/// What navsim answers while its store's database cannot be reached, and once it can again: the
/// service on ``UnreachableStore``, so these run without PostgreSQL (`StoreOutageTests` does the
/// same on a real server with NAVSIM_TEST_POSTGRES, scripts/cluster-sim.py behind HAProxy).
@Suite("Store unreachable")
struct StoreUnreachableTests {
    /// A 503 `store-unreachable` problem with `Retry-After`, as every request that needs the
    /// database must answer during an outage.
    static func expectUnreachable(_ reply: ServiceReply, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reply.status == 503, "\(what): \(reply)", sourceLocation: sourceLocation)
        #expect(reply.slug == "store-unreachable", "\(what): \(reply)", sourceLocation: sourceLocation)
        // One title for the type, whichever request met the outage (RFC 9457 §3.1.3).
        #expect(reply.json["title"]?.string == "Store unreachable", "\(what): \(reply)", sourceLocation: sourceLocation)
        #expect(reply.headers["content-type"] == "application/problem+json", "\(what)", sourceLocation: sourceLocation)
        #expect(reply.headers["retry-after"] == "1", "\(what): \(reply.headers)", sourceLocation: sourceLocation)
    }

    static func storeUp(_ service: NavSimService) -> String? {
        call(service, "GET", "/metrics").text.split(separator: "\n").first { $0.hasPrefix("navsim_store_up ") }.map(String.init)
    }

    @Test(
        "while the database is unreachable every request that needs it answers 503 store-unreachable with Retry-After (never 500, never 404 for a session another instance holds); /healthz stays 200, /readyz and navsim_store_up say so; the first write after it answers succeeds, and nothing refused was stored"
    )
    func outageOnASharedStore() throws {
        let store = try UnreachableStore(shared: true)
        let service = try NavSimService(store: store, openAPI: [])
        // A second instance on the same database, which has not registered the session.
        let otherStore = UnreachableStore(sharing: store)
        let other = try NavSimService(store: otherStore, openAPI: [])
        #expect(createSession(service, "s").status == 201)
        #expect(retitle(service, "s", "before")["version"]?.number == 1)
        #expect(call(service, "GET", "/readyz").status == 200)
        #expect(Self.storeUp(service) == "navsim_store_up 1")

        store.down.store(true, ordering: .releasing)
        otherStore.down.store(true, ordering: .releasing)
        Self.expectUnreachable(retitle(service, "s", "during"), "a write")
        Self.expectUnreachable(call(service, "GET", "/v1/sessions/s"), "a read")
        Self.expectUnreachable(call(other, "GET", "/v1/sessions/s"), "a read of a session this instance has not loaded")
        Self.expectUnreachable(retitle(other, "s", "during, elsewhere"), "a write of a session this instance has not loaded")
        Self.expectUnreachable(createSession(service, "t"), "a creation")
        Self.expectUnreachable(call(service, "GET", "/v1/sessions"), "the listing")
        Self.expectUnreachable(call(service, "GET", "/v1/sessions/s/history?after=-1"), "the history")
        Self.expectUnreachable(call(service, "DELETE", "/v1/sessions/s"), "a deletion")
        let write = retitle(service, "s", "during, again")
        #expect(write["detail"]?.string?.contains("nothing was stored") == true, "\(write)")

        // Liveness: the process serves. Readiness: the store does not answer.
        let live = call(service, "GET", "/healthz")
        #expect(live.status == 200 && live["status"]?.string == "ok", "\(live)")
        let ready = call(service, "GET", "/readyz")
        Self.expectUnreachable(ready, "/readyz")
        #expect(Self.storeUp(service) == "navsim_store_up 0")

        store.down.store(false, ordering: .releasing)
        otherStore.down.store(false, ordering: .releasing)
        // The first write after the database answers again succeeds, on top of the last
        // acknowledged version: none of the refused writes was stored.
        let first = retitle(service, "s", "after")
        #expect(first.status == 200, "\(first)")
        #expect(first["version"]?.number == 2)
        #expect(call(other, "GET", "/v1/sessions/s")["version"]?.number == 2)
        #expect(call(service, "GET", "/v1/sessions/t").status == 404)
        let history = call(service, "GET", "/v1/sessions/s/history?after=-1")
        #expect(history["entries"]?.array?.count == 3, "\(history)")
        #expect(call(service, "GET", "/readyz").status == 200)
        #expect(Self.storeUp(service) == "navsim_store_up 1")

        // One change each way, the failures counted in the second (not one line per request).
        let changes = store.changes.withLock { $0 }
        #expect(changes.count == 2, "\(changes)")
        if case .unreachable? = changes.first {} else { Issue.record("first change: \(String(describing: changes.first))") }
        if case .reachableAgain(_, let reads, let writes)? = changes.last {
            #expect(reads >= 5 && writes >= 1, "reads \(reads), writes \(writes)")
        } else {
            Issue.record("last change: \(String(describing: changes.last))")
        }
    }

    @Test("a commit that fails because the database went away answers 503 store-unreachable, a creation's too; one whose connection broke at COMMIT says it may have been stored")
    func commitFailures() throws {
        // Not shared: a write goes to its commit without reading the stored version first.
        let store = try UnreachableStore(shared: false)
        let service = try NavSimService(store: store, openAPI: [])
        #expect(createSession(service, "s").status == 201)

        store.down.store(true, ordering: .releasing)
        Self.expectUnreachable(retitle(service, "s", "lost"), "a write whose commit failed")
        Self.expectUnreachable(createSession(service, "t"), "a creation whose commit failed")
        // Nothing of them applies in memory either: reads come from memory on a store of one instance.
        #expect(call(service, "GET", "/v1/sessions/s")["version"]?.number == 0)
        #expect(call(service, "GET", "/v1/sessions/t").status == 404)
        store.down.store(false, ordering: .releasing)

        store.commitFailure.withLock { $0 = PostgresStoreError.commitOutcomeUnknown("server closed the connection unexpectedly") }
        let unknown = retitle(service, "s", "maybe")
        Self.expectUnreachable(unknown, "a write whose connection broke at COMMIT")
        #expect(unknown["detail"]?.string?.contains("may have been stored") == true, "\(unknown)")
        store.commitFailure.withLock { $0 = nil }
        #expect(retitle(service, "s", "after")["version"]?.number == 1)
    }
}

import Dispatch
import Foundation
import HTTPServer
import Synchronization
import Testing

@testable import NavSimService

/// A shared store whose commits the test answers by hand: the SQLite store underneath keeps the
/// rows, `isShared` makes the service treat its copies as caches (as on PostgreSQL), and while
/// ``holding`` is set every `enqueue` is kept, not forwarded, until the test answers it. That
/// lets a test play the store's answers in any interleaving a real shared store can produce.
final class ScriptedStore: SessionStoring {
    struct Held: Sendable {
        let commit: SessionCommit
        let completion: @Sendable (Result<Void, any Error>) -> Void
    }

    let inner: SessionStore
    let holding = Atomic<Bool>(false)
    private let held = Mutex<[Held]>([])
    private let arrivals = DispatchSemaphore(value: 0)

    init(_ inner: SessionStore) { self.inner = inner }

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

    var isShared: Bool { true }
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
    func sessionPage(after: String?, limit: Int) throws -> [(id: String, version: Int, createdAt: String)] {
        try inner.sessionPage(after: after, limit: limit)
    }
    func history(session: String, after: Int, limit: Int, checkpoints: Bool) throws -> [HistoryRow] {
        try inner.history(session: session, after: after, limit: limit, checkpoints: checkpoints)
    }
    func historyCount(session: String) throws -> Int { try inner.historyCount(session: session) }
    func putStoryboard(_ s: StoredStoryboard) throws { try inner.putStoryboard(s) }
    func putStoryboards(_ list: [StoredStoryboard]) throws { try inner.putStoryboards(list) }
    func deleteStoryboard(_ name: String) throws -> Bool { try inner.deleteStoryboard(name) }
    func loadStoryboards() throws -> [StoredStoryboard] { try inner.loadStoryboards() }
    func storyboardRevision() throws -> Int? { try inner.storyboardRevision() }
    /// The service's batch-size histogram is not fed from here (the test does not read it).
    let batchObserver = Mutex<BatchObserver?>(nil)
    var statistics: (commits: Int, batches: Int, largestBatch: Int) { inner.statistics }
    func sessionVersion(_ id: String) throws -> (version: Int, createdAt: String)? { try inner.sessionVersion(id) }
    func checkReachability() -> Bool { inner.checkReachability() }
}

/// The reruns after a commit refused as stale (issue 15, `Service.committed`).
@Suite struct StaleRerunTests {
    /// A request in process, answered at once; a mutation's reply is deferred until its commit.
    func patch(_ service: NavSimService, title: String, ifMatch: String? = nil) -> DeferredResponse? {
        var headers = HTTPHeaders([("Content-Type", "application/json")])
        if let ifMatch { headers.add("If-Match", ifMatch) }
        return service.serve(HTTPRequest(method: "PATCH", path: "/v1/sessions/s/controllers/home", headers: headers,
                                         body: Array(#"{"title": "\#(title)"}"#.utf8))).deferred
    }

    /// A's write (If-Match the version it saw) and B's, pipelined on top of it, are both refused
    /// as stale: another instance wrote the session first. Both run again on the session read
    /// back; A's If-Match no longer holds (412), so B's rerun takes the number its own dropped
    /// first run had. The store's late `predecessorFailed` for that first run must not fail the
    /// rerun: each applied version is matched by its own token, not by (version, reply).
    @Test func aDroppedFollowersLateAnswerDoesNotFailItsRerun() throws {
        let directory = NSTemporaryDirectory() + "StaleRerun-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sqlite = try SessionStore(path: directory + "/navsim.sqlite", migrationsDirectory: ServiceFiles.migrations)
        let store = ScriptedStore(sqlite)
        let service = try NavSimService(store: store, openAPI: [])
        // The other instance: its own copies, on the same rows.
        let elsewhere = try NavSimService(store: ScriptedStore(sqlite), openAPI: [])
        #expect(createSession(service, "s").status == 201)
        #expect(retitle(service, "s", "one")["version"]?.number == 1)

        store.holding.store(true, ordering: .releasing)
        let a = try #require(patch(service, title: "A", ifMatch: "\"1\""))
        let b = try #require(patch(service, title: "B"))
        let firstRuns = try #require(store.awaitHeld(2))
        #expect(firstRuns.map(\.commit.session.version) == [2, 3])
        // Meanwhile the other instance writes version 2.
        store.holding.store(false, ordering: .releasing)
        #expect(retitle(elsewhere, "s", "elsewhere")["version"]?.number == 2)
        store.holding.store(true, ordering: .releasing)

        // The store refuses A's commit as stale; the service drops A and B and runs both again.
        firstRuns[0].completion(.failure(PostgresStoreError.staleVersion(session: "s", expected: 1, stored: 2)))
        let rerun = try #require(store.awaitHeld(1), "B's rerun reached the store")
        #expect(rerun.map(\.commit.session.version) == [3])
        #expect(a.isComplete)
        // Only now the store's answer for B's first run, failed behind A's: it is no longer pending.
        firstRuns[1].completion(.failure(SessionStoreError.predecessorFailed(session: "s", version: 2)))
        #expect(!b.isComplete, "the late answer for B's first run answered B's rerun")
        store.holding.store(false, ordering: .releasing)
        sqlite.enqueue(rerun[0].commit, then: rerun[0].completion)

        let answerA = a.wait(), answerB = b.wait()
        #expect(answerA.status == 412)
        #expect(answerB.status == 200, "\(String(decoding: answerB.body, as: UTF8.self))")
        #expect((try JSON.parse(answerB.body))["version"]?.number == 3)
        #expect(try sqlite.history(session: "s", after: -1, limit: 10).map(\.version) == [0, 1, 2, 3])
        let home = call(service, "GET", "/v1/sessions/s/controllers/home")
        #expect(home["title"]?.string == "B")
        #expect(try sqlite.loadSession("s")?.session.version == 3)
    }
}

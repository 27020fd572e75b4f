import Foundation
import HTTPServer
import JSONValues
import NavigationCore
import Testing

@testable import NavSimService
@testable import SessionStorage
@testable import SQLiteStore
@testable import PostgresStore
import StoreTestSupport
import Synchronization

/// `POST /v1/sessions` and `DELETE /v1/sessions/{sid}` do not hold a handler thread on
/// the durable write. Their replies are deferred like a mutation's. A creation is visible only
/// once its commit is durable; a refused or failed creation leaves nothing behind. The registry
/// also hands free pages back after eviction batches.
@Suite struct CreationAndDeletionTests {
    static let body = #"{"id": "s", "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"id": "home"}]}}"#

    func request(_ method: String, _ path: String, _ body: String? = nil, headers: [(String, String)] = []) -> HTTPRequest {
        var h = HTTPHeaders(headers)
        if body != nil { h.add("Content-Type", "application/json") }
        return HTTPRequest(method: method, path: path, headers: h, body: body.map { Array($0.utf8) } ?? [])
    }

    func listed(_ h: ServiceHarness) -> [String] {
        h.send("GET", "/v1/sessions?limit=1000")["sessions"]?.array?.compactMap { $0["id"]?.string } ?? []
    }

    @Test func aCreationIsAnsweredOnceDurableAndIsInvisibleUntilThen() throws {
        let h = try ServiceHarness()
        let service = try #require(h.service)
        let hold = WriterHold(service.store)
        let response = service.serve(request("POST", "/v1/sessions", Self.body))
        let deferred = try #require(response.deferred, "a creation's reply waits for its commit, off the handler thread")
        #expect(!deferred.isComplete)
        // Not a session yet for anyone, but its id is taken.
        expectProblem(h.send("GET", "/v1/sessions/s"), 404, "unknown-session")
        expectProblem(h.send("POST", "/v1/sessions", Self.body), 409, "session-exists")
        #expect(listed(h).isEmpty)
        hold.release()
        let reply = deferred.wait()
        #expect(reply.status == 201, "\(String(decoding: reply.body, as: UTF8.self))")
        #expect(reply.headers["etag"] == #""0""#)
        #expect(reply.headers["location"] == "/v1/sessions/s")
        #expect((try? JSON.parse(reply.body))?["events"]?.array?.isEmpty == false)
        #expect(h.send("GET", "/v1/sessions/s").status == 200)
        #expect(listed(h) == ["s"])
        try h.restart()
        #expect(h.version("s") == 0)
    }

    @Test func aFailedCreationCommitAnswers5xxAndLeavesNoSession() throws {
        let h = try ServiceHarness()
        let store = try #require(h.service?.sqlite)
        // The session row's insert fails in the database itself, inside the store's transaction.
        let fault = try SQLiteFault(h.databasePath, on: "sessions", when: "NEW.id = 's'")
        let reply = h.send("POST", "/v1/sessions", Self.body)
        expectProblem(reply, 500, "storage-failure")
        expectProblem(h.send("GET", "/v1/sessions/s"), 404, "unknown-session")
        #expect(listed(h).isEmpty)
        #expect(try store.childRowCount(session: "s") == 0)
        try fault.remove()
        try h.restart()
        expectProblem(h.send("GET", "/v1/sessions/s"), 404, "unknown-session")
        // The id was given back: the next creation under it succeeds.
        h.ok("POST", "/v1/sessions", Self.body, status: 201)
        #expect(h.send("GET", "/v1/sessions/s/history?after=-1")["entries"]?.array?.count == 1)
    }

    @Test func aRefusedCreationWritesNothing() throws {
        let h = try ServiceHarness()
        let store = try #require(h.service?.sqlite)
        let commits = store.statistics.commits
        let refused = [
            #"{"id": "s", "root": "nav"}"#,
            #"{"id": "s", "colour": "red"}"#,
            #"{"id": "s", "traits": {"horizontalSizeClass": "huge"}}"#,
            #"{"id": "a/b"}"#,
            #"{"id": "s", "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"id": "x"}, {"id": "x"}]}}"#,
        ]
        for body in refused {
            let reply = h.send("POST", "/v1/sessions", body)
            #expect((400..<500).contains(reply.status), "\(body): \(reply)")
        }
        #expect(store.statistics.commits == commits)
        #expect(listed(h).isEmpty)
        #expect(try store.childRowCount(session: "s") == 0)
        // No id was left taken.
        h.ok("POST", "/v1/sessions", Self.body, status: 201)
    }

    @Test func aDeleteIsDeferredAndChecksIfMatchWhenItRuns() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        let service = try #require(h.service)
        let stale = service.serve(request("DELETE", "/v1/sessions/s", headers: [("If-Match", #""7""#)]))
        let staleReply = try #require(stale.deferred, "a delete's reply waits for the durable delete").wait()
        #expect(staleReply.status == 412)
        #expect(h.version("s") == 0)
        let delete = service.serve(request("DELETE", "/v1/sessions/s", headers: [("If-Match", #""0""#)]))
        #expect(try #require(delete.deferred).wait().status == 204)
        expectProblem(h.send("GET", "/v1/sessions/s"), 404, "unknown-session")
        expectProblem(h.send("DELETE", "/v1/sessions/s"), 404, "unknown-session")
        try h.restart()
        expectProblem(h.send("GET", "/v1/sessions/s"), 404, "unknown-session")
    }

    @Test func creatingUnderAnIdWhoseRowsAreStillBeingRemovedWaitsForThemOffTheHandlerThread() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        for i in 0..<5 { h.ok("PATCH", "/v1/sessions/s/controllers/home", #"{"title": "t\#(i)"}"#) }
        let service = try #require(h.service)
        // The row goes, its history stays pending (as after a crash between chunks).
        try service.sqlite.deleteSession("s", sweep: false)
        service.sessions.remove("s")
        #expect(service.sqlite.pendingDeletionIDs == ["s"])
        let reply = h.send("POST", "/v1/sessions", Self.body)
        #expect(reply.status == 201, "\(reply)")
        #expect(service.sqlite.pendingDeletionIDs.isEmpty)
        // Only the new session's creation is left under the id.
        #expect(h.send("GET", "/v1/sessions/s/history?after=-1")["entries"]?.array?.count == 1)
        #expect(h.send("GET", "/v1/sessions/s")["controllers"]?["home"]?["title"]?.string == nil)
    }

    @Test func evictionBatchesHandFreePagesBackOncePerBatch() {
        let registry = SessionRegistry(
            cacheBudget: 0, residentBudget: 2, freePagesEvery: 3,
            freePages: FreePages(minimumInterval: .zero)
        ) { id in
            LiveSession(id: id, createdAt: "2026-01-01T00:00:00Z", version: 0, state: SessionState())
        }
        let ids = (0..<10).map { "s\($0)" }
        registry.register(ids: ids)
        func use(_ id: String) { _ = registry.box(id)?.withLock { _ in Result<Void, Problem>.success(()) } }
        // Two loads fit the budget: nothing evicted, no pass.
        use(ids[0])
        use(ids[1])
        registry.freePages.waitForPasses()
        #expect(registry.freePages.passes.load(ordering: .relaxed) == 0)
        for id in ids.dropFirst(2) { use(id) }
        registry.freePages.waitForPasses()
        #expect(registry.resident.load(ordering: .relaxed) <= 2)
        // Eight evictions, a pass asked for after the third and the sixth: two passes, or one
        // when the second was asked while the first still waited to run; never one per eviction.
        let passes = registry.freePages.passes.load(ordering: .relaxed)
        #expect((1...2).contains(passes), "\(passes) passes")
    }

    @Test func aPassAskedForTooSoonAfterAnotherWaits() {
        let pages = FreePages(minimumInterval: .seconds(3600))
        pages.schedule()
        pages.waitForPasses()
        #expect(pages.passes.load(ordering: .relaxed) == 1)
        // Within the interval: queued for later, and asking again adds nothing.
        pages.schedule()
        pages.schedule()
        pages.waitForPasses()
        #expect(pages.passes.load(ordering: .relaxed) == 1)
    }
}

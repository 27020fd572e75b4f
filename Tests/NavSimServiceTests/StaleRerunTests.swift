import Dispatch
import Foundation
import HTTPServer
import JSONValues
import Synchronization
import Testing

import NavSimService
import SessionStorage
import PostgresStore
import SQLiteStore

/// The reruns after a commit refused as stale (`Service.committed`).
@Suite struct StaleRerunTests {
    /// A request in process, answered at once; a mutation's reply is deferred until its commit.
    func patch(_ service: NavSimService, title: String, ifMatch: String? = nil) -> DeferredResponse? {
        var headers = HTTPHeaders([("Content-Type", "application/json")])
        if let ifMatch { headers.add("If-Match", ifMatch) }
        return service.serve(
            HTTPRequest(
                method: "PATCH", path: "/v1/sessions/s/controllers/home", headers: headers,
                body: Array(#"{"title": "\#(title)"}"#.utf8))
        ).deferred
    }

    /// A's write (If-Match the version it saw) and B's, pipelined on top of it, are both refused
    /// as stale: another instance wrote the session first. Both run again on the session read
    /// back; A's If-Match no longer holds (412), so B's rerun takes the number its own dropped
    /// first run had. The store's late `predecessorFailed` for that first run must not fail the
    /// rerun: each applied version is matched by its own token, not by (version, reply).
    @Test func aDroppedFollowersLateAnswerDoesNotFailItsRerun() throws {
        let store = try ScriptedStore(onFreshFile: true)
        let sqlite = store.inner
        let service = try NavSimService(store: store, openAPI: [])
        // The other instance: its own copies, on the same rows.
        let elsewhere = try NavSimService(store: ScriptedStore(sqlite, shared: true), openAPI: [])
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

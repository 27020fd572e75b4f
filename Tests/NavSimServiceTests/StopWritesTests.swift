import Dispatch
import Foundation
import HTTPServer
import JSONValues
import Synchronization
import Testing

@testable import NavSimService
@testable import SessionStorage
@testable import SQLiteStore
import StoreTestSupport

/// A stop while session writes are queued (applied, in a session's preparer or held at the
/// group-commit writer): `stopWrites` answers every admitted write with its outcome before it
/// returns, which is before the server would answer the still-pending ones 503, and refuses
/// later ones before anything is applied. After a restart every reply agrees with the store:
/// each 200 is an entry with the reply's session, each refusal left nothing.
@Suite struct StopWritesTests {
    func request(_ method: String, _ path: String, _ body: String) -> HTTPRequest {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json")
        return HTTPRequest(method: method, path: path, headers: headers, body: Array(body.utf8))
    }

    /// The reply a client of the server would get: the deferred one if complete when the
    /// server stops answering, else the server's own 503 (HTTPServer.stop's `resumeAll`).
    func answered(_ response: HTTPResponse) -> HTTPResponse {
        guard let deferred = response.deferred else { return response }
        return deferred.isComplete ? deferred.wait() : HTTPResponse(status: 503)
    }

    @Test func noWriteAnswered503AtStopLandsAndEveryAdmittedOneIsAnsweredWithItsOutcome() throws {
        let h = try ServiceHarness()
        let sessions = (0..<6).map { "s\($0)" }
        for sid in sessions { h.makeSession(sid) }
        let service = try #require(h.service)
        let hold = WriterHold(service.store)
        // Writers on every session at once, several deep each (pipelined on one session).
        let sent = Mutex<[(sid: String, response: HTTPResponse)]>([])
        DispatchQueue.concurrentPerform(iterations: 24) { i in
            let sid = sessions[i % sessions.count]
            let r = service.serve(
                request(
                    "POST", "/v1/sessions/\(sid)/controllers/nav/push",
                    #"{"viewController": {"id": "v\#(i)"}, "animated": false}"#))
            sent.withLock { $0.append((sid, r)) }
        }
        #expect(sent.withLock { $0.allSatisfy { $0.response.deferred?.isComplete == false } }, "held at the writer")
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            service.stopWrites()
            stopped.signal()
        }
        #expect(
            stopped.wait(timeout: .now() + .milliseconds(300)) == .timedOut,
            "stopWrites returned while admitted session writes were still queued")
        // Sent after the stop began: refused at once, before anything is applied.
        let late = service.serve(request("POST", "/v1/sessions/s0/controllers/nav/push", #"{"viewController": {"id": "late"}}"#))
        let lateCreate = service.serve(request("POST", "/v1/sessions", #"{"id": "late"}"#))
        let lateDelete = service.serve(HTTPRequest(method: "DELETE", path: "/v1/sessions/s1", headers: HTTPHeaders(), body: []))
        for refused in [late, lateCreate, lateDelete] {
            #expect(refused.deferred == nil && refused.status == 503, "\(refused.status)")
            #expect((try? JSON.parse(refused.body))?["type"]?.string == "/v1/problems/server-stopping")
        }
        hold.release()
        #expect(stopped.wait(timeout: .now() + 30) == .success)
        let replies = sent.withLock { $0 }.map { ($0.sid, answered($0.response)) }
        #expect(replies.allSatisfy { $0.1.status == 200 }, "\(replies.map { $0.1.status })")

        try h.restart()
        for sid in sessions {
            let mine = replies.filter { $0.0 == sid }
            let told = mine.compactMap { (try? JSON.parse($0.1.body))?["version"]?.number.map { Int($0) } }
            let stored = h.send("GET", "/v1/sessions/\(sid)")["version"]?.number.map { Int($0) } ?? -1
            // Every 200 is an entry; nothing else was stored (no push after the stop, no refused one).
            #expect(
                told.sorted() == (0..<told.count).map { $0 + 1 } && stored == told.count,
                "\(sid): told \(told.sorted()), stored up to \(stored)")
            for reply in mine {
                let json = try JSON.parse(reply.1.body)
                let version = try #require(json["version"]?.number.map { Int($0) })
                #expect(h.send("GET", "/v1/sessions/\(sid)?version=\(version)").json == json["session"], "\(sid) v\(version)")
            }
        }
        #expect(h.send("GET", "/v1/sessions/late").status == 404)
        #expect(h.send("GET", "/v1/sessions/s1").status == 200)
    }
}

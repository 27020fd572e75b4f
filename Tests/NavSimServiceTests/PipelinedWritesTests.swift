import Dispatch
import Foundation
import HTTPServer
import JSONValues
import NavigationCore
import Synchronization
import Testing

@testable import NavSimService
@testable import SessionStorage
@testable import SQLiteStore
import StoreTestSupport

/// The write path: a commit writes what the turn changed; one session's writes apply
/// on top of each other while earlier ones sync, and are answered in version order once
/// durable; a failed commit fails the writes made on top of it and reads never show them.
@Suite struct PipelinedWritesTests {
    func request(_ method: String, _ path: String, _ body: String?, headers: [(String, String)] = []) -> HTTPRequest {
        var h = HTTPHeaders(headers)
        if body != nil { h.add("Content-Type", "application/json") }
        return HTTPRequest(method: method, path: path, headers: h, body: body.map { Array($0.utf8) } ?? [])
    }

    func title(_ sid: String, _ cid: String, _ text: String) -> HTTPRequest {
        request("PATCH", "/v1/sessions/\(sid)/controllers/\(cid)", #"{"title": "\#(text)"}"#)
    }

    func version(_ response: HTTPResponse) -> Int? {
        (try? JSON.parse(response.body))?["version"]?.number.map { Int($0) }
    }

    @Test func aCommitWritesTheRowsOfTheControllersThatChangedOnly() throws {
        let h = try ServiceHarness()
        let stack = (0..<10).map { #"{"id": "c\#($0)"}"# }.joined(separator: ",")
        h.ok(
            "POST", "/v1/sessions", #"{"id": "s", "root": {"id": "nav", "kind": "navigationController", "viewControllers": [\#(stack)]}}"#,
            status: 201)
        let store = try #require(h.service?.sqlite)
        let before = store.controllerRowsWritten
        h.ok("PATCH", "/v1/sessions/s/controllers/c3", #"{"title": "Three"}"#)
        #expect(store.controllerRowsWritten - before == 1)
        // A push writes the navigation controller, the new one and the one it covers.
        h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "top"}, "animated": false}"#)
        #expect(store.controllerRowsWritten - before == 4)
        // A patch that changes nothing still adds its entry, and writes no controller row.
        h.ok("PATCH", "/v1/sessions/s/controllers/c3", #"{"title": "Three"}"#)
        #expect(store.controllerRowsWritten - before == 4)
        // What was written is what a restart reads back.
        let live = h.send("GET", "/v1/sessions/s").text
        try h.restart()
        #expect(h.send("GET", "/v1/sessions/s").text == live)
        #expect(h.send("GET", "/v1/sessions/s?version=1")["controllers"]?["c3"]?["title"]?.string == "Three")
    }

    @Test func concurrentWritesToOneSessionGetGaplessVersionsAnsweredInOrder() throws {
        let h = try ServiceHarness()
        h.makeSession("one")
        let service = try #require(h.service)
        let threads = 8, each = 25
        let answered = Mutex<[Int]>([])
        let statuses = Mutex<[Int]>([])
        let waiting = Mutex<[DeferredResponse]>([])
        // The writer is held while the requests apply, so every reply's finishing step is
        // registered before any commit can complete it: the steps then run in the order the
        // service hands the replies on. (Registered after a completion, a step runs at once on
        // the registering thread, which says nothing about that order.)
        let hold = WriterHold(service.store)
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            for i in 0..<each {
                let response = service.serve(title("one", "home", "t\(t)-\(i)"))
                guard let deferred = response.deferred else {
                    statuses.withLock { $0.append(response.status) }
                    continue
                }
                deferred.finishing { reply in
                    answered.withLock { $0.append(self.version(reply) ?? -1) }
                    statuses.withLock { $0.append(reply.status) }
                }
                waiting.withLock { $0.append(deferred) }
            }
        }
        #expect(waiting.withLock { $0.allSatisfy { !$0.isComplete } })
        hold.release()
        for d in waiting.withLock({ $0 }) { _ = d.wait() }
        #expect(statuses.withLock { $0 }.allSatisfy { $0 == 200 })
        #expect(answered.withLock { $0 } == Array(1...(threads * each)))
        let history = h.send("GET", "/v1/sessions/one/history?after=0&limit=1000")
        let versions = history["entries"]?.array?.compactMap { $0["version"]?.number.map { Int($0) } }
        #expect(versions == Array(1...(threads * each)))
        #expect(h.version("one") == threads * each)
    }

    /// The lock covers only the turn: rows, representation and reply are built after it by the
    /// session's preparer, each from the version before, while other writers apply. Whatever
    /// thread prepares which version, each reply is the session as stored at its version, and
    /// each thread's replies come in the order of its requests.
    @Test func versionsPreparedOutsideTheLockAreEachTheStoredVersion() throws {
        let h = try ServiceHarness()
        let stack = (0..<6).map { #"{"id": "c\#($0)"}"# }.joined(separator: ",")
        h.ok(
            "POST", "/v1/sessions", #"{"id": "s", "root": {"id": "nav", "kind": "navigationController", "viewControllers": [\#(stack)]}}"#,
            status: 201)
        let service = try #require(h.service)
        let threads = 6, each = 30
        let replies = Mutex<[Int: JSON]>([:])
        let inOrder = Mutex(true)
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            var last = 0
            for i in 0..<each {
                // Retitles (the window unchanged), and pushes and pops (the window and stack move).
                let request: HTTPRequest
                switch i % 3 {
                case 0: request = title("s", "c\(t)", "t\(t)-\(i)")
                case 1:
                    request = self.request(
                        "POST", "/v1/sessions/s/controllers/nav/push",
                        #"{"viewController": {"id": "p\#(t)-\#(i)"}, "animated": false}"#)
                default: request = self.request("POST", "/v1/sessions/s/controllers/nav/pop", #"{"animated": false}"#)
                }
                let reply = service.handle(request)
                guard reply.status == 200, let json = try? JSON.parse(reply.body), let v = self.version(reply) else {
                    inOrder.withLock { $0 = false }
                    continue
                }
                if v <= last { inOrder.withLock { $0 = false } }
                last = v
                replies.withLock { $0[v] = json["session"] }
            }
        }
        #expect(inOrder.withLock { $0 })
        let seen = replies.withLock { $0 }
        #expect(seen.keys.sorted() == Array(1...(threads * each)))
        for (version, session) in seen.sorted(by: { $0.key < $1.key }) {
            #expect(h.send("GET", "/v1/sessions/s?version=\(version)").json == session, "version \(version)")
        }
        let live = h.send("GET", "/v1/sessions/s").json
        #expect(live == seen[threads * each])
        try h.restart()
        #expect(h.send("GET", "/v1/sessions/s").json == live)
    }

    @Test func aFailedCommitFailsTheWritesOnTopOfItAndReadsNeverShowThem() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        let service = try #require(h.service)
        let hold = WriterHold(service.store)
        // Entry 2's insert fails in the database itself, inside the writer's batch.
        let fault = try SQLiteFault(h.databasePath, on: "history", when: "NEW.session_id = 's' AND NEW.version = 2")
        let first = service.serve(title("s", "home", "one"))
        let second = service.serve(title("s", "home", "two"))
        // If-Match is checked against the applied head, which is ahead of what reads show.
        let third = service.serve(
            request(
                "PATCH", "/v1/sessions/s/controllers/home", #"{"title": "three"}"#,
                headers: [("If-Match", #""2""#)]))
        let stale = service.serve(
            request(
                "PATCH", "/v1/sessions/s/controllers/home", #"{"title": "x"}"#,
                headers: [("If-Match", #""0""#)]))
        #expect(stale.status == 412)
        // Nothing durable yet: reads show version 0 and its history only.
        #expect(h.version("s") == 0)
        #expect(h.send("GET", "/v1/sessions/s")["controllers"]?["home"]?["title"]?.string == nil)
        #expect(h.send("GET", "/v1/sessions/s/history?after=0")["entries"]?.array?.isEmpty == true)
        #expect(first.deferred?.isComplete == false)
        hold.release()
        let replies = [first, second, third].map { $0.deferred?.wait() ?? $0 }
        try fault.remove()
        #expect(replies.map(\.status) == [200, 500, 500], "\(replies.map { String(decoding: $0.body, as: UTF8.self) })")
        #expect(version(replies[0]) == 1)
        // Back at the last durable version; the next write takes version 2 and sticks.
        #expect(h.version("s") == 1)
        #expect(h.send("GET", "/v1/sessions/s")["controllers"]?["home"]?["title"]?.string == "one")
        let next = h.ok("PATCH", "/v1/sessions/s/controllers/home", #"{"title": "again"}"#)
        #expect(next["version"]?.number == 2)
        try h.restart()
        #expect(h.version("s") == 2)
        let titles = h.send("GET", "/v1/sessions/s/history?after=0")["entries"]?.array?.map { $0["request"]?["body"]?["title"]?.string }
        #expect(titles == ["one", "again"])
    }

    @Test func aDeleteWaitsForTheSessionsQueuedCommits() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        let service = try #require(h.service)
        let write = service.serve(title("s", "home", "one"))
        #expect(h.send("DELETE", "/v1/sessions/s").status == 204)
        #expect(write.deferred?.wait().status == 200)
        try h.restart()
        #expect(h.send("GET", "/v1/sessions/s").status == 404)
    }
}

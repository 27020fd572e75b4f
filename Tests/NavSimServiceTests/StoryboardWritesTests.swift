import Dispatch
import Foundation
import HTTPServer
import JSONValues
import Synchronization
import Testing
import TestSupport

@testable import NavSimService
import SQLiteStore
import SessionStorage

/// Storyboard uploads, declarations, refactors and deletions do not hold a handler
/// thread on the durable write. Each answers at once with a deferred reply that completes once
/// the store's write has returned; until then the library (what reads and sessions see) is the
/// one before the write, and reading it does not wait for the write.
@Suite struct StoryboardWritesTests {
    static func scene(_ id: String) -> String {
        #"<scene sceneID="scene-\#(id)"><objects><viewController id="\#(id)" sceneMemberID="viewController"/></objects></scene>"#
    }

    static let xml = StoryboardXML.document(initial: "a", scenes: [scene("a"), scene("b")])

    func request(_ method: String, _ path: String, _ body: String = "", type: String = "application/json") -> HTTPRequest {
        var headers = HTTPHeaders()
        if !body.isEmpty { headers.add("Content-Type", type) }
        return HTTPRequest(method: method, path: path, headers: headers, body: Array(body.utf8))
    }

    func status(_ service: NavSimService, _ method: String, _ path: String) -> Int {
        service.handle(request(method, path)).status
    }

    /// Sends `req`, checks that its reply is deferred and still pending while the store's write
    /// is held, runs `meanwhile`, then lets the write go and returns the reply.
    func held(
        _ service: NavSimService, _ store: ScriptedStore, _ req: HTTPRequest,
        meanwhile: () -> Void = {}
    ) throws -> HTTPResponse {
        let response = service.serve(req)
        let deferred = try #require(response.deferred, "\(req.method) \(req.path): the reply waits for the write, off the handler thread")
        store.storyboardWriteStarted.wait()
        #expect(!deferred.isComplete, "\(req.method) \(req.path) is not answered before its write is durable")
        meanwhile()
        #expect(!deferred.isComplete)
        store.storyboardGate.signal()
        return deferred.wait()
    }

    @Test func everyStoryboardWriteIsAnsweredOnceDurable() throws {
        let store = try ScriptedStore(onFreshFile: false)
        store.storyboardsGated.store(true, ordering: .relaxed)
        let service = try NavSimService(store: store, openAPI: [], pictures: Pictures())

        let created = try held(service, store, request("PUT", "/v1/storyboards/Main", Self.xml, type: "application/xml")) {
            // Not in the library before it is durable; and reading the library does not wait.
            #expect(status(service, "GET", "/v1/storyboards/Main") == 404)
        }
        #expect(created.status == 201)
        #expect(created.headers["location"] == "/v1/storyboards/Main")
        #expect(status(service, "GET", "/v1/storyboards/Main") == 200)

        let replaced = try held(service, store, request("PUT", "/v1/storyboards/Main", Self.xml, type: "application/xml"))
        #expect(replaced.status == 200)

        let segues = try held(service, store, request("PUT", "/v1/storyboards/Main/customSegues", #"{"FadeSegue": {"performs": "push"}}"#)) {
            let before = service.handle(request("GET", "/v1/storyboards/Main"))
            #expect((try? JSON.parse(before.body))?["customSegues"]?["FadeSegue"] == nil)
        }
        #expect(segues.status == 200)
        #expect((try? JSON.parse(segues.body))?["customSegues"]?["FadeSegue"]?["performs"]?.string == "push")

        let classes = try held(service, store, request("PUT", "/v1/storyboards/Main/classes", #"{"AViewController": {"title": "A"}}"#))
        #expect(classes.status == 200, "\(String(decoding: classes.body, as: UTF8.self))")

        let refactored = try held(service, store, request("POST", "/v1/storyboards/Main/refactor", #"{"scenes": ["b"], "into": "Flow"}"#)) {
            #expect(status(service, "GET", "/v1/storyboards/Flow") == 404)
        }
        #expect(refactored.status == 200, "\(String(decoding: refactored.body, as: UTF8.self))")
        #expect((try? JSON.parse(refactored.body))?["storyboards"]?.array?.compactMap { $0["name"]?.string } == ["Main", "Flow"])

        let deleted = try held(service, store, request("DELETE", "/v1/storyboards/Flow")) {
            #expect(status(service, "GET", "/v1/storyboards/Flow") == 200)
        }
        #expect(deleted.status == 204)
        #expect(status(service, "GET", "/v1/storyboards/Flow") == 404)

        // Everything acknowledged is stored, declarations included.
        let rows = try store.inner.loadStoryboards()
        #expect(rows.map(\.name) == ["Main"])
        #expect(rows.first?.customSegues?.contains("FadeSegue") == true)
        #expect(rows.first?.classes?.contains("AViewController") == true)
    }

    @Test func refusalsAreDeferredWithTheSameAnswersAndWriteNothing() throws {
        let store = try ScriptedStore(onFreshFile: false)
        let service = try NavSimService(store: store, openAPI: [], pictures: Pictures())
        // Refused before the write queue: the body itself is wrong.
        #expect(status(service, "PUT", "/v1/storyboards/Main") == 415)
        // Refused on the write queue, against the library: the same answers as before.
        for (method, path, body) in [
            ("DELETE", "/v1/storyboards/Main", ""),
            ("PUT", "/v1/storyboards/Main/customSegues", "{}"),
            ("PUT", "/v1/storyboards/Main/classes", "{}"),
            ("POST", "/v1/storyboards/Main/refactor", #"{"scenes": ["b"], "into": "Flow"}"#),
        ] {
            let reply = service.handle(request(method, path, body))
            #expect(reply.status == 404, "\(method) \(path)")
            #expect((try? JSON.parse(reply.body))?["type"]?.string == "/v1/problems/unknown-storyboard")
        }
        #expect(service.handle(request("PUT", "/v1/storyboards/Main", Self.xml, type: "application/xml")).status == 201)
        #expect(service.handle(request("PUT", "/v1/storyboards/Flow", Self.xml, type: "application/xml")).status == 201)
        let clash = service.handle(request("POST", "/v1/storyboards/Main/refactor", #"{"scenes": ["b"], "into": "Flow"}"#))
        #expect(clash.status == 409)
        #expect((try? JSON.parse(clash.body))?["type"]?.string == "/v1/problems/storyboard-exists")
        #expect(store.storyboardWrites.load(ordering: .relaxed) == 2, "only the two uploads wrote")
    }

    /// A stop (``NavSimService/stopWrites()``) while one storyboard write is being stored and
    /// another is queued behind it: the first lands and is answered with its outcome, after
    /// `stopWrites` has waited for it; the queued one, and one sent after the stop, answer 503
    /// `server-stopping` and store nothing. No client hears "failed" for a write that lands.
    @Test func aStopAnswersTheWriteUnderWayAndRefusesTheQueuedOnesUnstored() throws {
        let store = try ScriptedStore(onFreshFile: false)
        store.storyboardsGated.store(true, ordering: .relaxed)
        let service = try NavSimService(store: store, openAPI: [], pictures: Pictures())

        let first = try #require(service.serve(request("PUT", "/v1/storyboards/Main", Self.xml, type: "application/xml")).deferred)
        store.storyboardWriteStarted.wait()
        // A queued write that did run would not wait at the gate: the counts below would show it.
        store.storyboardsGated.store(false, ordering: .relaxed)
        let queued = try #require(service.serve(request("PUT", "/v1/storyboards/Flow", Self.xml, type: "application/xml")).deferred)

        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            service.stopWrites()
            stopped.signal()
        }
        // stopWrites waits for the write under way; its reply is not given up meanwhile.
        #expect(stopped.wait(timeout: .now() + .milliseconds(300)) == .timedOut, "stopWrites returned while a write was being stored")
        #expect(!first.isComplete)
        store.storyboardGate.signal()
        stopped.wait()
        // Both outcomes are known when stopWrites returns, before a server would answer 503.
        #expect(first.isComplete && queued.isComplete)
        #expect(first.wait().status == 201)
        let refused = queued.wait()
        #expect(refused.status == 503)
        #expect((try? JSON.parse(refused.body))?["type"]?.string == "/v1/problems/server-stopping")

        let later = service.handle(request("DELETE", "/v1/storyboards/Main"))
        #expect(later.status == 503, "a write sent after the stop is refused too")
        #expect(store.storyboardWrites.load(ordering: .relaxed) == 1, "only the write under way reached the store")
        #expect(try store.inner.loadStoryboards().map(\.name) == ["Main"])
        #expect(status(service, "GET", "/v1/storyboards/Main") == 200, "reads still answer")
    }
}

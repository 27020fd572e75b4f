import Dispatch
import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

@testable import NavSimService

/// Issue 11: storyboard uploads, declarations, refactors and deletions do not hold a handler
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
    func held(_ service: NavSimService, _ store: GatedStoryboardStore, _ req: HTTPRequest,
              meanwhile: () -> Void = {}) throws -> HTTPResponse {
        let response = service.serve(req)
        let deferred = try #require(response.deferred, "\(req.method) \(req.path): the reply waits for the write, off the handler thread")
        store.writeStarted.wait()
        #expect(!deferred.isComplete, "\(req.method) \(req.path) is not answered before its write is durable")
        meanwhile()
        #expect(!deferred.isComplete)
        store.gate.signal()
        return deferred.wait()
    }

    @Test func everyStoryboardWriteIsAnsweredOnceDurable() throws {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("StoryboardWritesTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let inner = try SessionStore(path: (directory as NSString).appendingPathComponent("navsim.sqlite"),
                                     migrationsDirectory: ServiceFiles.migrations)
        let store = GatedStoryboardStore(inner)
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
        let rows = try inner.loadStoryboards()
        #expect(rows.map(\.name) == ["Main"])
        #expect(rows.first?.customSegues?.contains("FadeSegue") == true)
        #expect(rows.first?.classes?.contains("AViewController") == true)
    }

    @Test func refusalsAreDeferredWithTheSameAnswersAndWriteNothing() throws {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("StoryboardWritesTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let inner = try SessionStore(path: (directory as NSString).appendingPathComponent("navsim.sqlite"),
                                     migrationsDirectory: ServiceFiles.migrations)
        let store = GatedStoryboardStore(inner)
        store.gated.store(false, ordering: .relaxed)
        let service = try NavSimService(store: store, openAPI: [], pictures: Pictures())
        // Refused before the write queue: the body itself is wrong.
        #expect(status(service, "PUT", "/v1/storyboards/Main") == 415)
        // Refused on the write queue, against the library: the same answers as before.
        for (method, path, body) in [("DELETE", "/v1/storyboards/Main", ""),
                                     ("PUT", "/v1/storyboards/Main/customSegues", "{}"),
                                     ("PUT", "/v1/storyboards/Main/classes", "{}"),
                                     ("POST", "/v1/storyboards/Main/refactor", #"{"scenes": ["b"], "into": "Flow"}"#)] {
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
}

/// A SQLite store whose storyboard writes wait for ``gate`` (one signal per write) when
/// ``gated`` is set, after signalling ``writeStarted``: a store whose commit is held back.
/// Everything else goes straight to the store inside.
final class GatedStoryboardStore: SessionStoring {
    let inner: SessionStore
    let gate = DispatchSemaphore(value: 0)
    let writeStarted = DispatchSemaphore(value: 0)
    let gated = Atomic<Bool>(true)
    let storyboardWrites = Atomic<Int>(0)

    init(_ inner: SessionStore) { self.inner = inner }

    private func waitForGate() {
        storyboardWrites.add(1, ordering: .relaxed)
        guard gated.load(ordering: .relaxed) else { return }
        writeStarted.signal()
        gate.wait()
    }

    func putStoryboard(_ s: StoredStoryboard) throws {
        waitForGate()
        try inner.putStoryboard(s)
    }
    func putStoryboards(_ list: [StoredStoryboard]) throws {
        waitForGate()
        try inner.putStoryboards(list)
    }
    func deleteStoryboard(_ name: String) throws -> Bool {
        waitForGate()
        return try inner.deleteStoryboard(name)
    }

    func enqueue(_ commit: SessionCommit, then completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        inner.enqueue(commit, then: completion)
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
    func loadStoryboards() throws -> [StoredStoryboard] { try inner.loadStoryboards() }
    func storyboardRevision() throws -> Int? { try inner.storyboardRevision() }
    /// The service's batch-size observer lands here and hears nothing (tests only).
    let batchObserver = Mutex<BatchObserver?>(nil)
    var statistics: (commits: Int, batches: Int, largestBatch: Int) { inner.statistics }
    func sessionVersion(_ id: String) throws -> (version: Int, createdAt: String)? { try inner.sessionVersion(id) }
    var isShared: Bool { false }
}

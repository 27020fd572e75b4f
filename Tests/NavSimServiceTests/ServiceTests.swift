import Foundation
import HTTPServer
import Testing

@testable import NavSimService
import SQLiteStore

// MARK: - ServiceHarness (shared with OpenAPITests.swift)

/// Files of the checkout the tests read: the schema and the spec the service ships.
enum ServiceFiles {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // NavSimServiceTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository root
    static let migrations = root.appendingPathComponent("migrations").path
    static let openAPI = root.appendingPathComponent("openapi.yaml").path
}

/// One reply of `NavSimService.handle`, with its body parsed when it is JSON.
struct ServiceReply: CustomStringConvertible {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
    /// The parsed body, or `.null` when it is not JSON.
    var json: JSON { (try? JSON.parse(body)) ?? .null }
    subscript(key: String) -> JSON? { json[key] }
    /// The problem's slug: `type` without `/v1/problems/`.
    var slug: String? {
        guard let type = json["type"]?.string, type.hasPrefix("/v1/problems/") else { return nil }
        return String(type.dropFirst("/v1/problems/".count))
    }
    /// The `Allow` header's methods.
    var allow: Set<String> {
        Set((headers["allow"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }
    var description: String { "\(status) \(text.prefix(600))" }
}

/// What a session looks like from outside: its JSON, its version and its whole history.
struct SessionSnapshot: Equatable {
    var status: Int
    var session: String
    var etag: String?
    var history: String
}

/// A service on a database in a fresh temporary directory, driven in process through `handle`.
final class ServiceHarness {
    let directory: String
    let databasePath: String
    var service: NavSimService?
    let limits: Limits
    let tokens: BearerTokens
    /// Sessions the service keeps decoded in memory (`--max-loaded-sessions`).
    let loadedSessions: Int
    /// Sent as `Authorization: Bearer …` with every request that carries no `Authorization` of
    /// its own; the first of `tokens` by default. Set to `nil` to send none.
    var bearer: String?

    /// `tokens`: bearer tokens the service requires (none: no authentication).
    init(limits: Limits = .defaults, tokens: [String] = [], loadedSessions: Int = NavSimService.defaultLoadedSessions) throws {
        self.limits = limits
        self.loadedSessions = loadedSessions
        self.tokens = BearerTokens(tokens)
        bearer = tokens.first
        directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("ServiceTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        databasePath = (directory as NSString).appendingPathComponent("navsim.sqlite")
        service = try Self.open(databasePath, limits: limits, tokens: self.tokens, loadedSessions: loadedSessions)
    }

    deinit {
        service = nil
        try? FileManager.default.removeItem(atPath: directory)
    }

    static func open(_ path: String, limits: Limits = .defaults, tokens: BearerTokens = BearerTokens([]),
                     loadedSessions: Int = NavSimService.defaultLoadedSessions) throws -> NavSimService {
        let spec = FileManager.default.contents(atPath: ServiceFiles.openAPI).map { Array($0) } ?? []
        return try NavSimService(store: SessionStore(path: path, migrationsDirectory: ServiceFiles.migrations), openAPI: spec,
                                 limits: limits, tokens: tokens, loadedSessions: loadedSessions)
    }

    /// Drops the running service, then builds a new one on the same database file: a restart.
    func restart() throws {
        service?.sqlite.waitForDeletions()
        service = nil
        service = try Self.open(databasePath, limits: limits, tokens: tokens, loadedSessions: loadedSessions)
    }

    /// Sends one request. `target` may carry a query (`/v1/sessions/s/history?after=2`); `body`
    /// goes with `contentType` (none when nil).
    @discardableResult
    func send(_ method: String, _ target: String, _ body: String? = nil, contentType: String? = "application/json",
              headers extra: [(String, String)] = [], bodyTooLarge: Bool = false) -> ServiceReply {
        var path = target
        var query: [String: String] = [:]
        var repeated: [String] = []  // as the server reports them (HTTPRequest.repeatedQueryNames)
        if let q = target.firstIndex(of: "?") {
            path = String(target[..<q])
            for pair in target[target.index(after: q)...].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if query.updateValue(kv.count > 1 ? String(kv[1]) : "", forKey: String(kv[0])) != nil,
                   !repeated.contains(String(kv[0])) { repeated.append(String(kv[0])) }
            }
        }
        var headers = HTTPHeaders(extra)
        if let bearer, headers["authorization"] == nil { headers.add("Authorization", "Bearer \(bearer)") }
        if let body, !body.isEmpty, let contentType { headers.add("Content-Type", contentType) }
        let request = HTTPRequest(method: method, path: path, query: query, repeatedQueryNames: repeated, headers: headers,
                                  body: body.map { Array($0.utf8) } ?? [], bodyTooLarge: bodyTooLarge)
        guard let service else { fatalError("the harness has no service") }
        let response = service.handle(request)
        return ServiceReply(status: response.status, headers: response.headers, body: response.body)
    }

    /// Creates a session whose window's root is the navigation controller `nav` holding `home`.
    @discardableResult
    func makeSession(_ id: String, options: String = #"{"transitions": "immediate"}"#,
                     sourceLocation: SourceLocation = #_sourceLocation) -> ServiceReply {
        let reply = send("POST", "/v1/sessions", """
            {"id": "\(id)", "options": \(options),
             "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"id": "home", "class": "HomeViewController"}]}}
            """)
        #expect(reply.status == 201, "creating \(id): \(reply)", sourceLocation: sourceLocation)
        return reply
    }

    /// Sends a request that must succeed with `status`; returns the reply.
    @discardableResult
    func ok(_ method: String, _ target: String, _ body: String? = nil, status: Int = 200,
            sourceLocation: SourceLocation = #_sourceLocation) -> ServiceReply {
        let reply = send(method, target, body)
        #expect(reply.status == status, "\(method) \(target): \(reply)", sourceLocation: sourceLocation)
        return reply
    }

    func snapshot(_ sid: String) -> SessionSnapshot {
        let session = send("GET", "/v1/sessions/\(sid)")
        let history = send("GET", "/v1/sessions/\(sid)/history?after=0&limit=1000")
        return SessionSnapshot(status: session.status, session: session.text, etag: session.headers["etag"],
                               history: history.text)
    }

    func version(_ sid: String) -> Int? {
        send("GET", "/v1/sessions/\(sid)")["version"]?.number.map { Int($0) }
    }

    /// Runs `body`, then expects the session to look exactly as before (JSON, version, history)
    /// and the list of sessions to be unchanged.
    func expectUnchanged(_ sid: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void) {
        let before = snapshot(sid)
        let sessionsBefore = send("GET", "/v1/sessions?limit=1000").text
        #expect(before.status == 200, sourceLocation: sourceLocation)
        body()
        let after = snapshot(sid)
        #expect(after == before, "session \(sid) changed", sourceLocation: sourceLocation)
        #expect(send("GET", "/v1/sessions?limit=1000").text == sessionsBefore, "the session list changed",
                sourceLocation: sourceLocation)
    }
}

/// Expects a problem+json reply with this status and slug whose body repeats the status and
/// carries a detail.
func expectProblem(_ reply: ServiceReply, _ status: Int, _ slug: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(reply.status == status, "\(reply)", sourceLocation: sourceLocation)
    #expect(reply.slug == slug, "\(reply)", sourceLocation: sourceLocation)
    #expect(reply.headers["content-type"] == "application/problem+json", sourceLocation: sourceLocation)
    #expect(reply["status"]?.number == Double(status), sourceLocation: sourceLocation)
    let detail = reply["detail"]?.string ?? ""
    #expect(!detail.isEmpty, "no detail: \(reply)", sourceLocation: sourceLocation)
    #expect(reply["title"]?.string != nil, sourceLocation: sourceLocation)
}

private func strings(_ json: JSON?) -> [String] { json?.array?.compactMap(\.string) ?? [] }

private func versions(_ reply: ServiceReply) -> [Int] {
    (reply["entries"]?.array ?? []).compactMap { $0["version"]?.number.map { Int($0) } }
}

/// The style names of docs/api.md, in its order.
private let presentationStyles = ["automatic", "fullScreen", "pageSheet", "formSheet", "currentContext", "custom",
                                  "overFullScreen", "overCurrentContext", "popover", "none"]
private let transitionStyles = ["coverVertical", "flipHorizontal", "crossDissolve", "partialCurl"]

// MARK: - Bad input: a clear problem, nothing changed

@Suite("Service: bad input is refused and changes nothing")
struct BadInputTests {
    @Test func malformedJSONIs400InvalidBody() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p1"}}"#)
        h.expectUnchanged("s") {
            let r = h.send("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p2""#)
            expectProblem(r, 400, "invalid-body")
            #expect(r["detail"]?.string?.contains("byte") == true, "the detail says where: \(r)")
            expectProblem(h.send("POST", "/v1/sessions/s/turns", #"{"operations": [,]}"#), 400, "invalid-body")
            expectProblem(h.send("PATCH", "/v1/sessions/s/controllers/home", "{title: 'x'}"), 400, "invalid-body")
            expectProblem(h.send("PATCH", "/v1/sessions/s", #"{"traits": {}} trailing"#), 400, "invalid-body")
            expectProblem(h.send("POST", "/v1/sessions", #"{"id": "other""#), 400, "invalid-body")
            // Well-formed JSON that is not an object is invalid, not malformed.
            expectProblem(h.send("POST", "/v1/sessions/s/controllers/nav/push", "[1, 2]"), 422, "invalid-body")
        }
        #expect(h.send("GET", "/v1/sessions/other").status == 404)
    }

    @Test func unknownFieldIs422NamingTheFieldAndTheAllowedNames() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.expectUnchanged("s") {
            // A typo next to the operation's own fields.
            var r = h.send("POST", "/v1/sessions/s/controllers/nav/present",
                           #"{"viewController": {"id": "m"}, "modalPresentatonStyle": "formSheet"}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "modalPresentatonStyle", "\(r)")
            #expect(r["detail"]?.string?.contains("modalPresentatonStyle") == true, "\(r)")
            #expect(strings(r["allowed"]) == ["viewController", "modalPresentationStyle", "modalTransitionStyle", "popover", "animated"],
                    "\(r)")
            #expect(r["detail"]?.string?.contains("modalPresentationStyle") == true, "the detail lists the allowed names: \(r)")

            // The same typo inside a ControllerSpec names the nested field.
            r = h.send("POST", "/v1/sessions/s/controllers/nav/present", #"{"viewController": {"id": "m", "modalPresentatonStyle": "formSheet"}}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "viewController.modalPresentatonStyle", "\(r)")
            #expect(strings(r["allowed"]).contains("modalPresentationStyle"), "\(r)")
            #expect(strings(r["allowed"]).contains("transitioningDelegate"), "\(r)")

            // Setting a property at run time.
            r = h.send("PATCH", "/v1/sessions/s/controllers/home", #"{"modalPresentatonStyle": "formSheet"}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "modalPresentatonStyle", "\(r)")
            #expect(strings(r["allowed"]).contains("modalPresentationStyle"), "\(r)")

            // Inside a turn, the whole turn is refused before anything runs.
            r = h.send("POST", "/v1/sessions/s/turns", """
                {"operations": [{"controller": "nav", "operation": "push", "viewController": {"id": "p1"}},
                                {"controller": "nav", "operation": "present", "viewController": {"id": "m"}, "modalPresentatonStyle": "formSheet"}]}
                """)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "modalPresentatonStyle", "\(r)")

            r = h.send("PATCH", "/v1/sessions/s", #"{"trait": {"horizontalSizeClass": "regular"}}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "trait" && strings(r["allowed"]) == ["traits"], "\(r)")
        }
        let r = h.send("POST", "/v1/sessions", #"{"id": "t", "option": {}}"#)
        expectProblem(r, 422, "invalid-body")
        #expect(r["field"]?.string == "option" && strings(r["allowed"]).contains("options"), "\(r)")
        #expect(h.send("GET", "/v1/sessions/t").status == 404)
    }

    @Test func unknownEnumValueIs422WithTheAllowedValues() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.expectUnchanged("s") {
            var r = h.send("POST", "/v1/sessions/s/controllers/nav/present",
                           #"{"viewController": {"id": "m"}, "modalPresentationStyle": "sideways"}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "modalPresentationStyle", "\(r)")
            #expect(strings(r["allowed"]) == presentationStyles, "\(r)")
            #expect(r["detail"]?.string?.contains("sideways") == true, "\(r)")

            r = h.send("POST", "/v1/sessions/s/controllers/nav/present", #"{"viewController": {"id": "m", "modalTransitionStyle": "spin"}}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "viewController.modalTransitionStyle", "\(r)")
            #expect(strings(r["allowed"]) == transitionStyles, "\(r)")

            r = h.send("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "x", "kind": "tableView"}}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(strings(r["allowed"]).contains("tableViewController"), "\(r)")

            r = h.send("PATCH", "/v1/sessions/s/controllers/home", #"{"modalTransitionStyle": "spin"}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(strings(r["allowed"]) == transitionStyles, "\(r)")

            r = h.send("PATCH", "/v1/sessions/s", #"{"traits": {"horizontalSizeClass": "large"}}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "traits.horizontalSizeClass", "\(r)")
            #expect(strings(r["allowed"]) == ["compact", "regular"], "\(r)")
        }
        var r = h.send("POST", "/v1/sessions", #"{"id": "t", "options": {"transitions": "slow"}}"#)
        expectProblem(r, 422, "invalid-body")
        #expect(r["field"]?.string == "options.transitions" && strings(r["allowed"]) == ["immediate", "manual"], "\(r)")
        r = h.send("POST", "/v1/sessions", #"{"id": "t", "traits": {"userInterfaceIdiom": "watch"}}"#)
        expectProblem(r, 422, "invalid-body")
        #expect(Set(strings(r["allowed"])).isSuperset(of: ["phone", "pad"]), "\(r)")
        #expect(h.send("GET", "/v1/sessions/t").status == 404)
    }

    @Test func bodyOverOneMebibyteIs413() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        #expect(NavSimService.maxBodyBytes == 1 << 20)
        h.expectUnchanged("s") {
            expectProblem(h.send("POST", "/v1/sessions/s/controllers/nav/push", nil, bodyTooLarge: true), 413, "payload-too-large")
            expectProblem(h.send("POST", "/v1/sessions/s/turns", nil, bodyTooLarge: true), 413, "payload-too-large")
            expectProblem(h.send("PATCH", "/v1/sessions/s/controllers/home", nil, bodyTooLarge: true), 413, "payload-too-large")
            expectProblem(h.send("POST", "/v1/sessions", nil, bodyTooLarge: true), 413, "payload-too-large")
        }
    }

    @Test func wrongContentTypeIs415() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        let body = #"{"viewController": {"id": "p1"}}"#
        h.expectUnchanged("s") {
            let r = h.send("POST", "/v1/sessions/s/controllers/nav/push", body, contentType: "text/plain")
            expectProblem(r, 415, "unsupported-media-type")
            #expect(r["detail"]?.string?.contains("application/json") == true, "the detail names the expected type: \(r)")
            expectProblem(h.send("POST", "/v1/sessions/s/controllers/nav/push", body, contentType: nil), 415, "unsupported-media-type")
            expectProblem(h.send("POST", "/v1/sessions/s/controllers/nav/push", body, contentType: "application/xml"),
                          415, "unsupported-media-type")
            expectProblem(h.send("PATCH", "/v1/sessions/s", #"{"traits": {}}"#, contentType: "application/x-www-form-urlencoded"),
                          415, "unsupported-media-type")
            expectProblem(h.send("POST", "/v1/sessions", #"{"id": "t"}"#, contentType: "text/plain"), 415, "unsupported-media-type")
        }
        // Only application/json and application/problem+json, any case, with parameters.
        h.expectUnchanged("s") {
            for type in ["application/vnd.api+json", "application/jsonx", "text/json", "application/merge-patch+json"] {
                expectProblem(h.send("POST", "/v1/sessions/s/controllers/nav/push", body, contentType: type), 415, "unsupported-media-type")
            }
        }
        #expect(h.send("POST", "/v1/sessions/s/controllers/nav/push", body, contentType: "application/json; charset=utf-8").status == 200)
        #expect(h.send("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p2"}}"#,
                       contentType: "Application/Problem+JSON").status == 200)
    }

    @Test func unknownSessionIs404() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.expectUnchanged("s") {
            expectProblem(h.send("GET", "/v1/sessions/nope"), 404, "unknown-session")
            expectProblem(h.send("GET", "/v1/sessions/nope?version=0"), 404, "unknown-session")
            expectProblem(h.send("PATCH", "/v1/sessions/nope", #"{"traits": {}}"#), 404, "unknown-session")
            expectProblem(h.send("DELETE", "/v1/sessions/nope"), 404, "unknown-session")
            expectProblem(h.send("GET", "/v1/sessions/nope/history"), 404, "unknown-session")
            expectProblem(h.send("GET", "/v1/sessions/nope/transitions"), 404, "unknown-session")
            expectProblem(h.send("POST", "/v1/sessions/nope/transitions/complete", "{}"), 404, "unknown-session")
            expectProblem(h.send("POST", "/v1/sessions/nope/controllers", #"{"id": "x"}"#), 404, "unknown-session")
            expectProblem(h.send("GET", "/v1/sessions/nope/controllers/nav"), 404, "unknown-session")
            expectProblem(h.send("POST", "/v1/sessions/nope/controllers/nav/push", #"{"viewController": {"id": "x"}}"#),
                          404, "unknown-session")
            expectProblem(h.send("POST", "/v1/sessions/nope/turns", #"{"operations": []}"#), 404, "unknown-session")
            expectProblem(h.send("PUT", "/v1/sessions/nope/rootViewController", #"{"viewController": {"id": "x"}}"#),
                          404, "unknown-session")
        }
    }

    @Test func unknownControllerIs404() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.expectUnchanged("s") {
            var r = h.send("GET", "/v1/sessions/s/controllers/ghost")
            expectProblem(r, 404, "unknown-controller")
            #expect(r["detail"]?.string?.contains("ghost") == true, "\(r)")
            // As the receiver, as the argument, as a PATCH target, inside a container spec.
            r = h.send("POST", "/v1/sessions/s/controllers/ghost/present", #"{"viewController": {"id": "m"}}"#)
            expectProblem(r, 404, "unknown-controller")
            #expect(r["detail"]?.string?.contains("ghost") == true, "\(r)")
            expectProblem(h.send("POST", "/v1/sessions/s/controllers/nav/present", #"{"viewController": "ghost"}"#), 404, "unknown-controller")
            expectProblem(h.send("POST", "/v1/sessions/s/controllers/nav/popTo", #"{"viewController": "ghost"}"#), 404, "unknown-controller")
            expectProblem(h.send("PATCH", "/v1/sessions/s/controllers/ghost", #"{"title": "x"}"#), 404, "unknown-controller")
            expectProblem(h.send("PUT", "/v1/sessions/s/rootViewController", #"{"viewController": "ghost"}"#), 404, "unknown-controller")
        }
    }

    @Test func unknownOperationIs404ListingTheOperations() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.expectUnchanged("s") {
            let r = h.send("POST", "/v1/sessions/s/controllers/nav/presnt", #"{"viewController": {"id": "m"}}"#)
            expectProblem(r, 404, "unknown-operation")
            #expect(strings(r["allowed"]).contains("present"), "\(r)")
            expectProblem(h.send("POST", "/v1/sessions/s/turns", #"{"operations": [{"controller": "nav", "operation": "presnt"}]}"#),
                          404, "unknown-operation")
        }
    }

    @Test func wrongMethodIs405WithAllow() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        let cases: [(String, String, Set<String>)] = [
            ("PUT", "/v1/sessions", ["GET", "HEAD", "POST"]),
            ("DELETE", "/v1/sessions", ["GET", "HEAD", "POST"]),
            ("POST", "/v1/sessions/s", ["GET", "HEAD", "PATCH", "DELETE"]),
            ("PUT", "/v1/sessions/s", ["GET", "HEAD", "PATCH", "DELETE"]),
            ("GET", "/v1/sessions/s/rootViewController", ["PUT"]),
            ("GET", "/v1/sessions/s/controllers", ["POST"]),
            ("PUT", "/v1/sessions/s/controllers/nav", ["GET", "HEAD", "PATCH", "DELETE"]),
            ("GET", "/v1/sessions/s/controllers/nav/push", ["POST"]),
            ("GET", "/v1/sessions/s/turns", ["POST"]),
            ("DELETE", "/v1/sessions/s/history", ["GET", "HEAD"]),
            ("POST", "/v1/sessions/s/history", ["GET", "HEAD"]),
            ("POST", "/v1/sessions/s/transitions", ["GET", "HEAD"]),
            ("GET", "/v1/sessions/s/transitions/complete", ["POST"]),
            ("GET", "/v1/sessions/s/transitions/t1/cancel", ["POST"]),
            ("DELETE", "/healthz", ["GET", "HEAD"]),
            ("POST", "/metrics", ["GET", "HEAD"]),
            ("PUT", "/openapi.yaml", ["GET", "HEAD"]),
        ]
        h.expectUnchanged("s") {
            for (method, path, allow) in cases {
                let r = h.send(method, path, method == "GET" || method == "DELETE" ? nil : "{}")
                expectProblem(r, 405, "method-not-allowed")
                #expect(r.allow == allow, "\(method) \(path): Allow \(r.headers["allow"] ?? "none")")
            }
        }
        // RFC 9110 §9.3.2: HEAD answers as GET does (the server leaves the content out).
        let head = h.send("HEAD", "/v1/sessions/s")
        #expect(head.status == 200 && head.headers["etag"] == h.send("GET", "/v1/sessions/s").headers["etag"])
    }

    @Test func ifMatchMismatchIs412() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p1"}}"#)
        h.expectUnchanged("s") {
            for stale in [#""0""#, #""2""#, #"W/"7""#, #"W/"1""#, #""0", "2""#] {
                let r = h.send("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p2"}}"#,
                               headers: [("If-Match", stale)])
                expectProblem(r, 412, "version-mismatch")
                #expect(r["detail"]?.string?.contains("1") == true, "the detail gives the current version: \(r)")
            }
            expectProblem(h.send("POST", "/v1/sessions/s/turns", #"{"operations": []}"#, headers: [("If-Match", #""0""#)]),
                          412, "version-mismatch")
            expectProblem(h.send("PATCH", "/v1/sessions/s/controllers/home", #"{"title": "Home"}"#, headers: [("If-Match", #""0""#)]),
                          412, "version-mismatch")
            expectProblem(h.send("PATCH", "/v1/sessions/s", #"{"traits": {}}"#, headers: [("If-Match", #""5""#)]),
                          412, "version-mismatch")
            expectProblem(h.send("POST", "/v1/sessions/s/controllers", #"{"id": "loose"}"#, headers: [("If-Match", #""0""#)]),
                          412, "version-mismatch")
            expectProblem(h.send("DELETE", "/v1/sessions/s", nil, headers: [("If-Match", #""0""#)]), 412, "version-mismatch")
            // RFC 9110 §8.8.3: not `*` and not entity tags is a malformed header (400), not a stale version.
            for malformed in ["1", #""1"#, "W/1", #""1" "2""#, ",", ""] {
                let r = h.send("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p2"}}"#,
                               headers: [("If-Match", malformed)])
                expectProblem(r, 400, "invalid-header")
                #expect(r["field"]?.string == "If-Match", "\(r)")
            }
            expectProblem(h.send("DELETE", "/v1/sessions/s", nil, headers: [("If-Match", "1")]), 400, "invalid-header")
        }

        // RFC 9110 §13.1.1: a list matches when one of its strong tags does.
        let r = h.send("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p2"}}"#,
                       headers: [("If-Match", #""0", "1""#)])
        #expect(r.status == 200, "\(r)")
        #expect(r["version"]?.number == 2)
        #expect(r.headers["etag"] == #""2""#)
        // Two If-Match lines are one list (RFC 9110 §5.3).
        #expect(h.send("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p3"}}"#,
                       headers: [("If-Match", #""7""#), ("If-Match", #""2""#)]).status == 200)
        #expect(h.send("DELETE", "/v1/sessions/s", nil, headers: [("If-Match", #""3""#)]).status == 204)
    }

    /// Bodies that say nothing a route takes are refused, not recorded (found by schemathesis).
    @Test func bodiesARouteDoesNotTakeAre422() throws {
        let h = try ServiceHarness()
        h.makeSession("s", options: #"{"transitions": "manual"}"#)
        h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "b"}}"#)
        h.expectUnchanged("s") {
            for path in ["/v1/sessions/s/transitions/complete", "/v1/sessions/s/transitions/t2/complete", "/v1/sessions/s/transitions/t2/cancel"] {
                expectProblem(h.send("POST", path, #"{"junk": 1}"#), 422, "invalid-body")
                expectProblem(h.send("POST", path, "[1, 2]"), 422, "invalid-body")
            }
            expectProblem(h.send("PATCH", "/v1/sessions/s", "{}"), 422, "invalid-body")
            expectProblem(h.send("PATCH", "/v1/sessions/s", nil), 422, "invalid-body")
        }
        expectProblem(h.send("POST", "/v1/sessions", #"{"id": "r", "root": "home"}"#), 422, "invalid-body")
        #expect(h.send("GET", "/v1/sessions/r").status == 404)
        #expect(h.send("POST", "/v1/sessions/s/transitions/complete", "{}").status == 200, "an empty object is fine")
    }

    /// `after` and `limit` that are not integers in range are 422, not silently replaced.
    @Test func badPagingIs422() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        for query in ["after=abc", "after=-2", "limit=0", "limit=-5", "limit=1001", "limit=x"] {
            expectProblem(h.send("GET", "/v1/sessions/s/history?\(query)"), 422, "invalid-query")
        }
        expectProblem(h.send("GET", "/v1/sessions?limit=0"), 422, "invalid-query")
        #expect(h.send("GET", "/v1/sessions/s/history?after=0&limit=1000").status == 200)
    }

    @Test func uikitRefusalIs409AndChangesNothing() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.ok("POST", "/v1/sessions/s/controllers/nav/present", #"{"viewController": {"id": "m1"}}"#)
        h.expectUnchanged("s") {
            let r = h.send("POST", "/v1/sessions/s/controllers/nav/present", #"{"viewController": {"id": "m2"}}"#)
            expectProblem(r, 409, "already-presenting")
            #expect(r["uikit"]?["code"]?.string == "D6", "\(r)")
            #expect(r["detail"]?.string?.contains("<UINavigationController: nav>") == true, "\(r)")
        }
        #expect(h.send("GET", "/v1/sessions/s/controllers/m2").status == 404)
    }

    /// R81 over HTTP: `options.navTransitionPolicy` decides between a queued transition and D22.
    @Test func navTransitionPolicyOption() throws {
        let h = try ServiceHarness()
        h.makeSession("q", options: #"{"transitions": "manual"}"#)
        #expect(h.ok("GET", "/v1/sessions/q")["options"]?["navTransitionPolicy"]?.string == "queue")
        let first = h.ok("POST", "/v1/sessions/q/controllers/nav/push", #"{"viewController": {"id": "b"}}"#)
        var r = h.ok("POST", "/v1/sessions/q/controllers/nav/push", #"{"viewController": {"id": "c"}}"#)
        #expect(r["transition"]?["state"]?.string == "queued", "\(r)")
        #expect(r["session"]?["controllers"]?["b"]?["transitionCoordinator"] == first["transition"]?["id"], "R62: \(r)")
        #expect(r["session"]?["controllers"]?["c"]?["transitionCoordinator"] == .null, "queued, not running: \(r)")
        r = h.ok("GET", "/v1/sessions/q/transitions")
        #expect(r["transitions"]?.array?.compactMap { $0["state"]?.string } == ["inProgress", "queued"], "\(r)")

        h.makeSession("d", options: #"{"transitions": "manual", "navTransitionPolicy": "warnAndDrop"}"#)
        h.ok("POST", "/v1/sessions/d/controllers/nav/push", #"{"viewController": {"id": "b"}}"#)
        h.expectUnchanged("d") {
            let r = h.send("POST", "/v1/sessions/d/controllers/nav/pop", "{}")
            expectProblem(r, 409, "nested-navigation-transition")
            #expect(r["uikit"]?["code"]?.string == "D22" && r["uikit"]?["severity"]?.string == "warning", "\(r)")
            #expect(r["detail"]?.string == "nested pop animation can result in corrupted navigation bar", "\(r)")
        }
        expectProblem(h.send("POST", "/v1/sessions", #"{"options": {"navTransitionPolicy": "drop"}}"#), 422, "invalid-body")

        // A queued transition cannot be completed by id (409), an unknown one is 404; neither changes anything.
        let queued = try #require(r["transitions"]?.array?.last?["id"]?.string)
        h.expectUnchanged("q") {
            expectProblem(h.send("POST", "/v1/sessions/q/transitions/\(queued)/complete"), 409, "transition-conflict")
            expectProblem(h.send("POST", "/v1/sessions/q/transitions/\(queued)/cancel"), 409, "transition-conflict")
            expectProblem(h.send("POST", "/v1/sessions/q/transitions/t999/complete"), 404, "unknown-transition")
        }
    }

    /// docs/api.md: "Where UIKit returns nil (`pop` at the root), `returned` is null."
    @Test func popAtRootReturnsNull() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        let r = h.ok("POST", "/v1/sessions/s/controllers/nav/pop", "{}")
        #expect(r["returned"] == .null, "\(r)")
        #expect(h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "b"}}"#)["returned"] == nil)
    }

    /// D21 comes back in `warnings` of an accepted operation (docs/api.md), R17 as a 409 without a §17 code.
    @Test func loggedWarningsAndUncataloguedRefusals() throws {
        let h = try ServiceHarness()
        h.makeSession("s", options: #"{"transitions": "manual"}"#)
        h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "b"}}"#)
        let r = h.ok("POST", "/v1/sessions/s/controllers/b/present", #"{"viewController": {"id": "x"}, "modalPresentationStyle": "fullScreen"}"#)
        let warning = r["warnings"]?.array?.first
        #expect(warning?["type"]?.string == "/v1/problems/unbalanced-appearance", "\(r)")
        #expect(warning?["uikit"]?["code"]?.string == "D21", "\(r)")
        #expect(warning?["status"] == nil && warning?["title"]?.string == "UIKit logs a warning", "the call went on: \(r)")
        let history = h.ok("GET", "/v1/sessions/s/history?after=0&limit=100")
        #expect(history["entries"]?.array?.last?["warnings"]?.array?.first?["uikit"]?["code"]?.string == "D21", "\(history)")

        _ = h.send("POST", "/v1/sessions", #"{"id": "p", "traits": {"userInterfaceIdiom": "pad", "horizontalSizeClass": "regular", "verticalSizeClass": "regular"}, "root": {"id": "root"}}"#)
        h.ok("POST", "/v1/sessions/p/controllers/root/present",
             #"{"viewController": {"id": "pop"}, "modalPresentationStyle": "popover", "popover": {"sourceView": "button"}}"#)
        h.expectUnchanged("p") {
            let r = h.send("POST", "/v1/sessions/p/controllers/pop/present",
                           #"{"viewController": {"id": "x"}, "modalPresentationStyle": "overCurrentContext", "modalTransitionStyle": "crossDissolve"}"#)
            expectProblem(r, 409, "context-style-in-popover")
            #expect(r["uikit"]?["code"] == nil && r["uikit"]?["name"]?.string == "NSInvalidArgumentException", "\(r)")
        }
    }

    /// R82, R87, R89 over HTTP: delegates in the ControllerSpec, `tapTab` as a user's tap.
    @Test func delegatesAndTapTab() throws {
        let h = try ServiceHarness()
        let created = h.send("POST", "/v1/sessions", """
            {"id": "t", "root": {"id": "tabs", "kind": "tabBarController", "tabBarDelegate": {},
             "viewControllers": [{"id": "n", "kind": "navigationController", "navigationDelegate": {},
                                  "viewControllers": [{"id": "a"}]}, {"id": "c"}]}}
            """)
        #expect(created.status == 201, "\(created)")
        #expect(created["controllers"]?["n"]?["navigationDelegate"] != nil, "\(created)")
        var r = h.ok("POST", "/v1/sessions/t/controllers/n/push", #"{"viewController": {"id": "b"}, "animated": false}"#)
        let callbacks = { (r: ServiceReply) in r["events"]?.array?.compactMap { $0["callback"]?.string } ?? [] }
        #expect(callbacks(r).first(where: { $0.hasPrefix("navigationController") }) == "navigationControllerWillShow", "\(r)")
        #expect(callbacks(r).last == "navigationControllerDidShow", "\(r)")
        r = h.ok("POST", "/v1/sessions/t/controllers/tabs/tapTab", #"{"index": 0}"#)
        #expect(callbacks(r).first == "tabBarControllerShouldSelect" && r["transition"]?["operation"]?.string == "popToRoot", "\(r)")
        #expect(r["session"]?["controllers"]?["n"]?["viewControllers"]?.array?.count == 1, "R89: \(r)")
        h.ok("PATCH", "/v1/sessions/t/controllers/tabs", #"{"tabBarDelegate": {"shouldSelect": false}}"#)
        r = h.ok("POST", "/v1/sessions/t/controllers/tabs/tapTab", #"{"viewController": "c"}"#)
        #expect(callbacks(r) == ["tabBarControllerShouldSelect"] && r["session"]?["controllers"]?["tabs"]?["selectedIndex"]?.number == 0, "\(r)")
    }
}

// MARK: - Headers, creation, history, versions, turns, restart

@Suite("Service: sessions, history and replay")
struct SessionTests {
    @Test func getAnswersWithETagOfTheVersion() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        var r = h.ok("GET", "/v1/sessions/s")
        #expect(r.headers["etag"] == #""0""#)
        #expect(r.headers["content-type"] == "application/json")
        r = h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p1"}}"#)
        #expect(r.headers["etag"] == #""1""#, "a mutation answers with the new version's ETag")
        r = h.ok("GET", "/v1/sessions/s")
        #expect(r.headers["etag"] == #""1""#)
        #expect(r["version"]?.number == 1)
        r = h.ok("GET", "/v1/sessions/s/controllers/p1")
        #expect(r.headers["etag"] == #""1""#)
        #expect(h.ok("GET", "/v1/sessions/s/history").headers["etag"] == #""1""#)
        #expect(h.ok("GET", "/v1/sessions/s/transitions").headers["etag"] == #""1""#)
        #expect(h.ok("GET", "/v1/sessions/s?version=0").headers["etag"] == #""0""#)
    }

    @Test func createAnswers201WithLocation() throws {
        let h = try ServiceHarness()
        var r = h.makeSession("s")
        #expect(r.headers["location"] == "/v1/sessions/s")
        #expect(r.headers["etag"] == #""0""#)
        #expect(r["id"]?.string == "s" && r["version"]?.number == 0)
        #expect(r["window"]?["rootViewController"]?.string == "nav")
        #expect(r["window"]?["visibleViewController"]?.string == "home")
        let fetched = h.ok("GET", r.headers["location"] ?? "-")
        // The 201 also carries the creation's `events` (the root appearing).
        var created = r.json
        if case .object(let members) = created { created = .object(members.filter { $0.0 != "events" }) }
        #expect(fetched.json == created, "GET at Location answers the session the 201 carried")
        #expect(r["events"]?.array?.isEmpty == false)

        // Without an id, one is made up; Location names it.
        r = h.ok("POST", "/v1/sessions", "{}", status: 201)
        let id = try #require(r["id"]?.string)
        #expect(!id.isEmpty)
        #expect(r.headers["location"] == "/v1/sessions/\(id)")
        #expect(r["traits"]?["userInterfaceIdiom"]?.string == "phone")
        #expect(r["options"]?["iOS"]?.string == "17" && r["options"]?["transitions"]?.string == "immediate")
        #expect(h.send("POST", "/v1/sessions").status == 201, "an empty body is an empty object")

        // A controller outside any hierarchy.
        r = h.ok("POST", "/v1/sessions/s/controllers", #"{"id": "loose", "class": "LooseViewController"}"#, status: 201)
        #expect(r.headers["location"] == "/v1/sessions/s/controllers/loose")
        #expect(r.headers["etag"] == #""1""#)
        #expect(r["id"]?.string == "loose" && r["parent"] == .null)
        #expect(h.ok("GET", "/v1/sessions/s/controllers/loose").text == r.text)
        #expect(h.version("s") == 1, "POST …/controllers appends one history entry")

        // The id is taken now.
        h.expectUnchanged("s") {
            expectProblem(h.send("POST", "/v1/sessions", #"{"id": "s"}"#), 409, "session-exists")
        }
    }

    @Test func listPagesAndDelete() throws {
        let h = try ServiceHarness()
        for id in ["d", "b", "e", "a", "c"] { h.makeSession(id) }
        func ids(_ r: ServiceReply) -> [String] { (r["sessions"]?.array ?? []).compactMap { $0["id"]?.string } }
        func walk(limit: Int) -> [String] {
            var seen: [String] = []
            var after: String?
            for _ in 0..<10 {
                let r = h.ok("GET", "/v1/sessions?limit=\(limit)" + (after.map { "&after=\($0)" } ?? ""))
                seen += ids(r)
                #expect((r["sessions"]?.array ?? []).allSatisfy { $0["version"]?.number != nil && $0["createdAt"]?.string != nil })
                guard let next = r["next"]?.string else { break }
                after = next
            }
            return seen
        }
        let all = ids(h.ok("GET", "/v1/sessions"))
        #expect(Set(all) == ["a", "b", "c", "d", "e"] && all.count == 5)
        #expect(walk(limit: 2) == all, "following next visits every session once, in the list's order")
        #expect(walk(limit: 1) == all)

        let r = h.send("DELETE", "/v1/sessions/c")
        #expect(r.status == 204 && r.body.isEmpty)
        expectProblem(h.send("GET", "/v1/sessions/c"), 404, "unknown-session")
        expectProblem(h.send("GET", "/v1/sessions/c/history"), 404, "unknown-session")
        #expect(ids(h.ok("GET", "/v1/sessions")) == all.filter { $0 != "c" })

        // The cursor's own session deleted between two pages: the next page still follows it.
        let first = h.ok("GET", "/v1/sessions?limit=2")
        let cursor = try #require(first["next"]?.string)
        #expect(h.send("DELETE", "/v1/sessions/\(cursor)").status == 204)
        let second = h.ok("GET", "/v1/sessions?limit=10&after=\(cursor)")
        #expect(ids(first) + ids(second) == all.filter { $0 != "c" }, "pages after a deleted cursor: \(second)")

        // The order is the same after a restart.
        let before = h.ok("GET", "/v1/sessions").text
        try h.restart()
        #expect(h.ok("GET", "/v1/sessions").text == before)
    }

    @Test func historyPages() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        for i in 1...7 {
            let r = h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p\#(i)"}, "animated": \#(i % 2 == 0)}"#)
            #expect(r["version"]?.number == Double(i))
        }
        var r = h.ok("GET", "/v1/sessions/s/history?limit=3")
        #expect(versions(r) == [1, 2, 3])
        #expect(r["next"]?.number == 3)
        r = h.ok("GET", "/v1/sessions/s/history?after=3&limit=3")
        #expect(versions(r) == [4, 5, 6])
        #expect(r["next"]?.number == 6)
        r = h.ok("GET", "/v1/sessions/s/history?after=6&limit=3")
        #expect(versions(r) == [7])
        #expect(r["next"] == nil, "the last page has no next: \(r)")
        r = h.ok("GET", "/v1/sessions/s/history?after=7")
        #expect(versions(r) == [] && r["next"] == nil)

        // Following `next` visits every entry once; the version is the number of entries.
        var all: [JSON] = []
        var after: Int?
        for _ in 0..<20 {
            let page = h.ok("GET", "/v1/sessions/s/history?limit=2" + (after.map { "&after=\($0)" } ?? ""))
            all += page["entries"]?.array ?? []
            guard let next = page["next"]?.number else { break }
            after = Int(next)
        }
        #expect(all.compactMap { $0["version"]?.number } == (1...7).map(Double.init))
        #expect(versions(h.ok("GET", "/v1/sessions/s/history")) == Array(1...7))

        // Each entry records the request and what UIKit did.
        for (i, entry) in all.enumerated() {
            let n = i + 1
            #expect(entry["request"]?["method"]?.string == "POST")
            #expect(entry["request"]?["path"]?.string == "/v1/sessions/s/controllers/nav/push")
            #expect(entry["request"]?["body"] == .object([("viewController", .object([("id", .string("p\(n)"))])),
                                                           ("animated", .bool(n % 2 == 0))]))
            #expect(entry["transition"]?["operation"]?.string == "push")
            #expect(entry["transition"]?["toViewController"]?.string == "p\(n)")
            #expect(entry["transition"]?["animated"]?.bool == (n % 2 == 0))
            #expect(entry["events"]?.array?.isEmpty == false)
            #expect(entry["at"]?.string != nil)
        }
    }

    /// Records the session's JSON after every accepted request, then asks for each version.
    @Test func versionQueryReplaysToTheSameJSON() throws {
        let h = try ServiceHarness()
        var recorded: [String: [Int: String]] = [:]
        func record(_ sid: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let r = h.send("GET", "/v1/sessions/\(sid)")
            let v = Int(r["version"]?.number ?? -1)
            #expect(recorded[sid]?[v] == nil, "version \(v) recorded twice", sourceLocation: sourceLocation)
            recorded[sid, default: [:]][v] = r.text
        }
        func op(_ sid: String, _ method: String, _ path: String, _ body: String, status: Int = 200,
                sourceLocation: SourceLocation = #_sourceLocation) {
            h.ok(method, "/v1/sessions/\(sid)\(path)", body, status: status, sourceLocation: sourceLocation)
            record(sid, sourceLocation: sourceLocation)
        }

        h.makeSession("s")
        record("s")
        op("s", "POST", "/controllers/nav/push", #"{"viewController": {"id": "p1", "title": "One"}}"#)
        op("s", "POST", "/controllers/p1/present", #"{"viewController": {"id": "m1", "kind": "navigationController", "viewControllers": [{"id": "m1root"}]}, "modalPresentationStyle": "formSheet"}"#)
        #expect(h.send("POST", "/v1/sessions/s/controllers/p1/present", #"{"viewController": {"id": "m2"}}"#).status == 409)
        op("s", "POST", "/controllers/m1/push", #"{"viewController": {"id": "m1detail"}, "animated": false}"#)
        op("s", "PATCH", "/controllers/home", #"{"title": "Home", "modalPresentationStyle": "overFullScreen", "definesPresentationContext": true}"#)
        op("s", "PATCH", "", #"{"traits": {"horizontalSizeClass": "regular", "userInterfaceIdiom": "pad"}}"#)
        op("s", "POST", "/turns", """
            {"operations": [{"controller": "m1", "operation": "dismiss"},
                            {"controller": "nav", "operation": "present", "viewController": {"id": "m3"}},
                            {"controller": "nav", "operation": "pop", "animated": false}]}
            """)
        op("s", "POST", "/controllers", #"{"id": "loose", "kind": "tabBarController", "viewControllers": [{"id": "t1"}, {"id": "t2"}]}"#,
           status: 201)
        op("s", "POST", "/controllers/loose/select", #"{"index": 1}"#)
        op("s", "PUT", "/rootViewController", #"{"viewController": "loose"}"#)
        op("s", "POST", "/controllers/t2/present", #"{"viewController": {"id": "sheet", "transitioningDelegate": {"name": "Fade", "duration": 0.2}}}"#)
        op("s", "POST", "/controllers/sheet/dismiss", #"{"animated": false}"#)

        // Manual transitions: in flight, then finished by ticks.
        h.makeSession("m", options: #"{"transitions": "manual", "iOS": "18"}"#)
        record("m")
        op("m", "POST", "/controllers/nav/present", #"{"viewController": {"id": "a"}}"#)
        let inFlight = h.ok("GET", "/v1/sessions/m/transitions")["transitions"]?.array ?? []
        #expect(inFlight.count == 1 && inFlight.first?["state"]?.string == "inProgress", "\(inFlight)")
        let tid = try #require(inFlight.first?["id"]?.string)
        op("m", "POST", "/transitions/\(tid)/complete", "{}")
        op("m", "POST", "/controllers/nav/push", #"{"viewController": {"id": "b"}}"#)
        op("m", "POST", "/transitions/complete", "{}")
        op("m", "POST", "/controllers/a/dismiss", "{}")

        for (sid, byVersion) in recorded {
            let current = try #require(h.version(sid))
            #expect(Set(byVersion.keys) == Set(0...current), "\(sid): one recording per version")
            for (v, text) in byVersion.sorted(by: { $0.key < $1.key }) {
                let r = h.send("GET", "/v1/sessions/\(sid)?version=\(v)")
                #expect(r.status == 200, "\(sid)?version=\(v): \(r)")
                #expect(r.headers["etag"] == "\"\(v)\"")
                #expect(r.text == text, "\(sid)?version=\(v) replays to different JSON")
            }
            expectProblem(h.send("GET", "/v1/sessions/\(sid)?version=\(current + 1)"), 404, "unknown-version")
            expectProblem(h.send("GET", "/v1/sessions/\(sid)?version=one"), 422, "invalid-query")
        }
    }

    @Test func turnReportsARefusalInItsPlaceAndAppendsOneEntry() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p1"}}"#)
        let r = h.ok("POST", "/v1/sessions/s/turns", """
            {"operations": [{"controller": "nav", "operation": "present", "viewController": {"id": "m1"}},
                            {"controller": "nav", "operation": "present", "viewController": {"id": "m2"}},
                            {"controller": "nav", "operation": "pop", "animated": false}]}
            """)
        #expect(r["version"]?.number == 2)
        #expect(r.headers["etag"] == #""2""#)
        let results = r["results"]?.array ?? []
        try #require(results.count == 3, "\(r)")
        #expect(results[0]["transition"]?["operation"]?.string == "present", "\(results[0])")
        #expect(results[0]["session"] == nil, "results carry no session")
        // The second present meets the first one's links: UIKit's warning, reported in its place.
        #expect(results[1]["status"]?.number == 409, "\(results[1])")
        #expect(results[1]["type"]?.string?.hasPrefix("/v1/problems/") == true, "\(results[1])")
        #expect(results[1]["uikit"]?["code"]?.string != nil, "\(results[1])")
        #expect(results[1]["detail"]?.string?.contains("m2") == true, "\(results[1])")
        // The others still ran.
        #expect(results[2]["transition"]?["operation"]?.string == "pop", "\(results[2])")
        #expect(strings(results[2]["returned"]) == ["p1"], "\(results[2])")

        let session = h.ok("GET", "/v1/sessions/s")
        #expect(r["session"] == session.json, "the turn's session is the session now")
        #expect(session["controllers"]?["m1"]?["presentingViewController"]?.string == "nav")
        #expect(session["controllers"]?["m2"] == nil, "the refused present created nothing")
        #expect(session["controllers"]?["nav"]?["viewControllers"].map(strings) == ["home"])

        let entries = h.ok("GET", "/v1/sessions/s/history?after=1")["entries"]?.array ?? []
        #expect(entries.count == 1, "the turn appends exactly one entry")
        #expect(entries.first?["version"]?.number == 2)
        #expect(entries.first?["request"]?["path"]?.string == "/v1/sessions/s/turns")

        // A turn whose every operation is refused is still one accepted request.
        let refused = h.ok("POST", "/v1/sessions/s/turns",
                           #"{"operations": [{"controller": "nav", "operation": "present", "viewController": {"id": "m3"}}]}"#)
        #expect(refused["version"]?.number == 3)
        #expect((refused["results"]?.array ?? []).first?["status"]?.number == 409, "\(refused)")
        #expect(versions(h.ok("GET", "/v1/sessions/s/history")) == [1, 2, 3])
        #expect(h.ok("GET", "/v1/sessions/s")["controllers"]?["m3"] == nil)
    }

    @Test func restartLoadsEverySessionUnchanged() throws {
        let h = try ServiceHarness()
        // Created out of id order, so that the session list's order is tested too.
        h.ok("POST", "/v1/sessions", #"{"id": "c", "traits": {"userInterfaceIdiom": "pad"}, "root": {"id": "split", "kind": "splitViewController", "style": "doubleColumn", "primary": {"id": "list"}, "secondary": {"id": "detail"}}}"#, status: 201)
        h.makeSession("gone")
        h.makeSession("b", options: #"{"transitions": "manual"}"#)
        h.makeSession("a")
        for i in 1...4 { h.ok("POST", "/v1/sessions/a/controllers/nav/push", #"{"viewController": {"id": "a\#(i)"}}"#) }
        h.ok("POST", "/v1/sessions/a/controllers/nav/pop", "{}")
        h.ok("POST", "/v1/sessions/a/controllers/a3/present", #"{"viewController": {"id": "sheet"}, "modalPresentationStyle": "pageSheet"}"#)
        h.ok("PATCH", "/v1/sessions/a/controllers/sheet", #"{"isModalInPresentation": true, "presentationDelegate": {"shouldDismiss": false}}"#)
        h.ok("POST", "/v1/sessions/a/controllers/sheet/interactiveDismiss", #"{"completes": true}"#)
        h.ok("POST", "/v1/sessions/b/controllers/nav/present", #"{"viewController": {"id": "inflight"}}"#)  // left in progress
        h.ok("POST", "/v1/sessions/c/controllers/list/showDetail", #"{"viewController": {"id": "detail2"}}"#)
        h.ok("PATCH", "/v1/sessions/c", #"{"traits": {"horizontalSizeClass": "compact"}}"#)
        h.ok("POST", "/v1/sessions/c/controllers", #"{"id": "orphan"}"#, status: 201)
        #expect(h.send("DELETE", "/v1/sessions/gone").status == 204)
        #expect(h.send("POST", "/v1/sessions/a/controllers/a3/present", #"{"viewController": {"id": "x"}}"#).status == 409)

        let ids = ["a", "b", "c"]
        let before = Dictionary(uniqueKeysWithValues: ids.map { ($0, h.snapshot($0)) })
        let replays = Dictionary(uniqueKeysWithValues: ids.map { id in
            (id, (0...(h.version(id) ?? 0)).map { h.send("GET", "/v1/sessions/\(id)?version=\($0)").text })
        })
        let list = h.ok("GET", "/v1/sessions").text
        let transitions = h.ok("GET", "/v1/sessions/b/transitions").text
        #expect(transitions.contains("inProgress"))

        try h.restart()

        for id in ids {
            let after = h.snapshot(id)
            #expect(after.status == 200)
            #expect(after.session == before[id]?.session, "session \(id) differs after the restart")
            #expect(after.etag == before[id]?.etag)
            #expect(after.history == before[id]?.history, "history of \(id) differs after the restart")
            for (v, text) in (replays[id] ?? []).enumerated() {
                #expect(h.send("GET", "/v1/sessions/\(id)?version=\(v)").text == text, "\(id)?version=\(v) after the restart")
            }
        }
        #expect(h.ok("GET", "/v1/sessions").text == list)
        #expect(h.ok("GET", "/v1/sessions/b/transitions").text == transitions)
        expectProblem(h.send("GET", "/v1/sessions/gone"), 404, "unknown-session")

        // The restarted service carries on where the old one stopped.
        let r = h.ok("POST", "/v1/sessions/b/transitions/complete", "{}")
        #expect(r["version"]?.number == 2, "\(r)")
        #expect(h.ok("POST", "/v1/sessions/a/controllers/nav/popToRoot", "{}")["version"]?.number == 9)
        try h.restart()
        #expect(h.version("a") == 9 && h.version("b") == 2)
        #expect(versions(h.ok("GET", "/v1/sessions/a/history")) == Array(1...9))
    }

    /// R90/R91 over HTTP: a doubleColumn split's columns are wrapped in `<split id>.<column>`
    /// navigation controllers; `splitDelegate.topColumnForCollapsing` is decoded; both survive a restart.
    @Test func doubleColumnSplitAnswersItsWrappers() throws {
        let h = try ServiceHarness()
        let r = h.ok("POST", "/v1/sessions", """
            {"id": "s", "traits": {"userInterfaceIdiom": "pad", "horizontalSizeClass": "regular", "verticalSizeClass": "regular"},
             "root": {"id": "split", "kind": "splitViewController", "style": "doubleColumn",
                      "primary": {"id": "list", "class": "ListViewController"},
                      "secondary": {"id": "detail", "class": "DetailViewController"}}}
            """, status: 201)
        func controller(_ id: String) -> JSON? { r["controllers"]?[id] }
        #expect(strings(controller("split")?["children"]) == ["split.primary", "split.secondary"], "\(r)")
        #expect(controller("split")?["style"]?.string == "doubleColumn")
        #expect(controller("split")?["isCollapsed"]?.bool == false)
        #expect(controller("split")?["displayMode"]?.string == "oneBesideSecondary")
        #expect(controller("split")?["primary"]?.string == "list" && controller("split")?["secondary"]?.string == "detail")
        #expect(controller("split")?["supplementary"] == .null)
        for (wrapper, content) in [("split.primary", "list"), ("split.secondary", "detail")] {
            #expect(controller(wrapper)?["kind"]?.string == "navigationController", "\(r)")
            #expect(controller(wrapper)?["class"]?.string == "UINavigationController")
            #expect(controller(wrapper)?["parent"]?.string == "split")
            #expect(strings(controller(wrapper)?["viewControllers"]) == [content])
            #expect(controller(content)?["parent"]?.string == wrapper)
            #expect(controller(content)?["navigationController"]?.string == wrapper)
            #expect(controller(content)?["splitViewController"]?.string == "split")
        }
        #expect(strings(r["window"]?["viewsInWindow"]) == ["split", "split.primary", "list", "split.secondary", "detail"])
        #expect(r["window"]?["visibleViewController"]?.string == "detail")

        // Compact width: the secondary is merged onto the primary column's stack (proposed .secondary).
        h.ok("PATCH", "/v1/sessions/s", #"{"traits": {"horizontalSizeClass": "compact"}}"#)
        let session = h.ok("GET", "/v1/sessions/s")
        #expect(session["controllers"]?["split"]?["isCollapsed"]?.bool == true, "\(session)")
        #expect(session["controllers"]?["split"]?["displayMode"]?.string == "secondaryOnly")
        #expect(strings(session["controllers"]?["split.primary"]?["viewControllers"]) == ["list", "detail"])
        #expect(session["controllers"]?["detail"]?["navigationController"]?.string == "split.primary")
        #expect(strings(session["window"]?["viewsInWindow"]) == ["split", "split.primary", "detail"])

        // The column-style delegate answer; an unknown column is a 422 naming the allowed ones.
        let t = h.ok("POST", "/v1/sessions", """
            {"id": "t", "root": {"id": "split", "kind": "splitViewController", "style": "doubleColumn",
             "splitDelegate": {"topColumnForCollapsing": "primary"},
             "primary": {"id": "list"}, "secondary": {"id": "detail"}}}
            """, status: 201)
        #expect(strings(t["controllers"]?["split.primary"]?["viewControllers"]) == ["list"], "\(t)")
        let triple = h.ok("POST", "/v1/sessions", """
            {"id": "triple", "traits": {"userInterfaceIdiom": "pad", "horizontalSizeClass": "regular", "verticalSizeClass": "regular"},
             "root": {"id": "split", "kind": "splitViewController", "style": "tripleColumn",
             "primary": {"id": "a"}, "supplementary": {"id": "b"}, "secondary": {"id": "c"}}}
            """, status: 201)
        #expect(triple["controllers"]?["split"]?["displayMode"]?.string == "twoBesideSecondary", "three columns on screen: \(triple)")
        #expect(strings(t["controllers"]?["split.secondary"]?["viewControllers"]) == ["detail"])
        #expect(t["window"]?["visibleViewController"]?.string == "list")
        let bad = h.send("POST", "/v1/sessions", """
            {"id": "u", "root": {"kind": "splitViewController", "style": "doubleColumn", "splitDelegate": {"topColumnForCollapsing": "compact"}}}
            """)
        expectProblem(bad, 422, "invalid-body")
        #expect(bad["field"]?.string == "root.splitDelegate.topColumnForCollapsing", "\(bad)")
        #expect(strings(bad["allowed"]) == ["primary", "supplementary", "secondary"], "\(bad)")

        let before = (h.snapshot("s"), h.snapshot("t"))
        try h.restart()
        #expect(h.snapshot("s") == before.0 && h.snapshot("t") == before.1, "persisted and reloaded unchanged")
    }

    @Test func metaEndpoints() throws {
        let h = try ServiceHarness()
        var r = h.ok("GET", "/healthz")
        #expect(r.json == .object([("status", .string("ok"))]))
        r = h.ok("GET", "/openapi.yaml")
        #expect(r.body == FileManager.default.contents(atPath: ServiceFiles.openAPI).map { Array($0) })
        r = h.ok("GET", "/metrics")
        #expect(r.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(r.text.contains("navsim_requests_total"))
        expectProblem(h.send("GET", "/nothing"), 404, "not-found")
        expectProblem(h.send("GET", "/v1/sessions/s/nothing"), 404, "not-found")
    }
}

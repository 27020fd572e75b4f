@testable import Flows
import Foundation
import FoundationXML
import HTTPServer
import JSONValues
import NavSimService
import ProcessSpawning
import Synchronization
import Testing
import SQLiteStore

@Suite("In-process target")
struct InProcessTests {
    @Test func aFlowPlaysAgainstAFreshServiceWithNoSocket() throws {
        let result = try play(presentFlow)
        #expect(result.passed, "\(result.line)")
        #expect(result.line == "ok   inline.json :: present B")
    }

    @Test func eachTargetHasItsOwnDatabase() throws {
        // The same fixed id twice: on one shared database the second creation would be a 409.
        let flow = """
            {"steps": [{"do": "POST /v1/sessions", "body": {"id": "fixed"}, "expect": {"status": 201}}]}
            """
        #expect(try play(flow).passed)
        #expect(try play(flow).passed)
    }

    @Test func theTokenIsSentAsABearerCredential() throws {
        final class Recording: FlowTarget {
            let seen = Mutex<[String?]>([])
            func send(_ request: HTTPRequest) throws(FlowTargetError) -> HTTPResponse {
                seen.withLock { $0.append(request.headers["authorization"]) }
                return HTTPResponse(status: 200)
            }
        }
        let target = Recording()
        let flow = try #require(try flows(#"{"steps": [{"do": "GET /healthz"}]}"#).first)
        #expect(FlowRunner(token: "s3cret").play(flow, on: target).passed)
        #expect(target.seen.withLock { $0 } == ["Bearer s3cret"])
    }

    @Test func queryStringsReachTheService() throws {
        let result = try play(
            """
            {"steps": [
              {"do": "POST /v1/sessions", "body": {"id": "q"}, "expect": {"status": 201}},
              {"do": "GET /v1/sessions?limit=abc", "expect": {"status": 422}},
              {"do": "GET /v1/sessions/q?version=0", "expect": {"json": {"version": 0}}}
            ]}
            """)
        #expect(result.passed, "\(result.line)")
    }

    @Test func theRepositorysFlowsPassInProcess() throws {
        let suite = FlowSuite(runner: FlowRunner()) { try InProcessTarget(migrationsDirectory: Checkout.migrations) }
        let results = suite.run([Checkout.flows])
        #expect(results.count >= 81)
        for r in results where !r.passed { Issue.record("\(r.line)") }
        #expect(FlowSuite.summary(results) == "\(results.count) passed, 0 failed")
    }
}

@Suite("HTTP target")
struct HTTPTargetTests {
    @Test func aFlowPlaysOverRealHTTP() throws {
        let scratch = try Scratch()
        let service = try NavSimService(
            store: SessionStore(
                path: scratch.url.appendingPathComponent("db.sqlite").path,
                migrationsDirectory: Checkout.migrations), openAPI: [])
        let server = try HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), handler: service.handle)
        defer { server.stop() }
        let flow = try #require(try flows(presentFlow).first)
        let result = FlowRunner().play(flow, on: HTTPTarget(base: "http://127.0.0.1:\(server.port)/"))
        #expect(result.passed, "\(result.line)")
    }

    @Test func repliesAreReadWithContentLengthOrChunked() throws {
        let plain = Array("HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nETag: \"0\"\r\nContent-Length: 2\r\n\r\n{}".utf8)
        let r = try HTTPTarget.parse(plain, method: "POST", base: "b")
        #expect(r.status == 201)
        #expect(r.headers["etag"] == "\"0\"")
        #expect(r.body == Array("{}".utf8))
        let chunked = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\n\r\n".utf8)
        #expect(try HTTPTarget.parse(chunked, method: "GET", base: "b").body == Array(#"{"a":1}"#.utf8))
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n".utf8)
        #expect(try HTTPTarget.parse(head, method: "HEAD", base: "b").body.isEmpty)
        #expect(throws: FlowTargetError.self) { try HTTPTarget.parse(Array("SSH-2.0\r\n\r\n".utf8), method: "GET", base: "b") }
        #expect(throws: FlowTargetError.self) { try HTTPTarget.parse([], method: "GET", base: "b") }
        let truncated = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nff\r\nabc".utf8)
        #expect(throws: FlowTargetError.self) { try HTTPTarget.parse(truncated, method: "GET", base: "b") }
    }

    @Test func headerValuesCannotSmuggleLines() throws {
        let target = HTTPTarget(base: "http://127.0.0.1:9")
        #expect(throws: FlowTargetError.self) {
            try target.send(HTTPRequest(method: "GET", path: "/", headers: HTTPHeaders([("X-A", "1\r\nX-B: 2")])))
        }
        #expect(throws: FlowTargetError.self) { try HTTPTarget(base: "https://example.invalid").send(HTTPRequest(method: "GET", path: "/")) }
        #expect(throws: FlowTargetError.self) { try HTTPTarget(base: "http://127.0.0.1:99999", timeout: 1e300).send(HTTPRequest(method: "GET", path: "/")) }
        let huge = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nabc".utf8)
        #expect(throws: FlowTargetError.self) { try HTTPTarget.parse(huge, method: "GET", base: "b") }
    }

    @Test func noServerIsAFailureNamingTheStep() throws {
        // Port 9 (discard) on loopback: nothing listens there on a test machine.
        let flow = try #require(try flows(#"{"steps": [{"name": "health", "do": "GET /healthz"}]}"#).first)
        let result = FlowRunner().play(flow, on: HTTPTarget(base: "http://127.0.0.1:9", timeout: 5))
        #expect(result.failure?.step == 1)
        #expect(result.line.contains("step 1 \"health\": no reply"))
    }
}

@Suite("Matchers")
struct MatcherTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var expected: String
        var actual: String?  // nil: the path is missing
        var passes: Bool
        var testDescription: String { "\(expected) vs \(actual ?? "missing") → \(passes)" }
    }

    static let cases: [Case] = [
        .init(expected: #"{"$absent": true}"#, actual: nil, passes: true),
        .init(expected: #"{"$absent": true}"#, actual: "null", passes: true),
        .init(expected: #"{"$absent": true}"#, actual: #""A""#, passes: false),
        .init(expected: #"{"$absent": false}"#, actual: #""A""#, passes: true),
        .init(expected: #"{"$absent": false}"#, actual: nil, passes: false),
        .init(expected: #"{"$length": 2}"#, actual: #"["A", "B"]"#, passes: true),
        .init(expected: #"{"$length": 2}"#, actual: #"["A"]"#, passes: false),
        .init(expected: #"{"$length": 3}"#, actual: #""abc""#, passes: true),
        .init(expected: #"{"$length": 1}"#, actual: #"{"a": 1}"#, passes: true),
        .init(expected: #"{"$length": 0}"#, actual: nil, passes: false),
        .init(expected: #"{"$contains": "B"}"#, actual: #"["A", "B"]"#, passes: true),
        .init(expected: #"{"$contains": "C"}"#, actual: #"["A", "B"]"#, passes: false),
        .init(expected: #"{"$contains": "same view"}"#, actual: #""the same view controller""#, passes: true),
        .init(expected: #"{"$contains": "other"}"#, actual: #""the same view controller""#, passes: false),
        .init(expected: #"{"$contains": "a"}"#, actual: #"{"a": 1}"#, passes: true),
        .init(expected: #"{"$contains": {"id": "B"}}"#, actual: #"[{"id": "A"}, {"id": "B"}]"#, passes: true),
        .init(expected: #"{"$oneOf": ["pageSheet", "formSheet"]}"#, actual: #""formSheet""#, passes: true),
        .init(expected: #"{"$oneOf": ["pageSheet", "formSheet"]}"#, actual: #""fullScreen""#, passes: false),
        .init(expected: #"{"$not": 3}"#, actual: "4", passes: true),
        .init(expected: #"{"$not": 3}"#, actual: "3", passes: false),
        .init(expected: #"{"$not": 3}"#, actual: nil, passes: false),
        .init(expected: #""A""#, actual: #""A""#, passes: true),
        .init(expected: #""A""#, actual: nil, passes: false),
        .init(expected: "1", actual: "1.0", passes: true),
        .init(expected: #"{"b": 2, "a": 1}"#, actual: #"{"a": 1, "b": 2}"#, passes: true),
        .init(expected: #"{"a": 1}"#, actual: #"{"a": 1, "b": 2}"#, passes: false),
        .init(expected: #"{"a": {"$absent": false}, "b": 2}"#, actual: #"{"a": 1, "b": 2}"#, passes: true),
        .init(expected: #"[1, 2]"#, actual: #"[1, 2, 3]"#, passes: false),
        .init(expected: "null", actual: "null", passes: true),
    ]

    @Test(arguments: cases)
    func matcher(_ c: Case) throws {
        let got = try c.actual.map(json)
        let mismatch = Matcher.check(try json(c.expected), got, at: try JSONPath("$.x"))
        #expect((mismatch == nil) == c.passes, "\(mismatch?.description ?? "matched")")
        if let mismatch { #expect(mismatch.path.hasPrefix("$.x")) }
    }

    @Test func theFirstDifferenceIsNamedByItsPath() throws {
        let m = try #require(
            Matcher.check(
                try json(#"{"events": [{"callback": "viewWillAppear"}]}"#),
                try json(#"{"events": [{"callback": "viewDidLoad"}]}"#), at: JSONPath([])))
        #expect(m.description == #"$.events[0].callback expected "viewWillAppear", got "viewDidLoad""#)
    }

    @Test func anUnknownMatcherIsAFormatError() throws {
        #expect(throws: FlowFormatError.self) {
            _ = try flows(#"{"steps": [{"do": "GET /", "expect": {"json": {"a": {"$len": 1}}}}]}"#)
        }
    }

    @Test func pathsParse() throws {
        #expect(try JSONPath("$.events[2].callback").components == [.member("events"), .index(2), .member("callback")])
        #expect(try JSONPath("controllers.A.appearance").description == "$.controllers.A.appearance")
        #expect(try JSONPath(#"controllers["nav.root"].id"#).components == [.member("controllers"), .member("nav.root"), .member("id")])
        #expect(try JSONPath("$").components.isEmpty)
        #expect(throws: JSONPath.SyntaxError.self) { try JSONPath("a..b") }
        #expect(throws: JSONPath.SyntaxError.self) { try JSONPath("a[x]") }
        #expect(throws: JSONPath.SyntaxError.self) { try JSONPath("a[1") }
    }

    @Test func headersMatchByPrefixWhateverTheNameCase() throws {
        let reply = HTTPResponse(status: 409, headers: ["Content-Type": "application/problem+json"])
        var e = ReplyExpectation()
        e.status = .number(409)
        e.headers = [("content-type", .string("application/problem"))]
        #expect(FlowRunner.check(e, reply: reply, doc: nil) == nil)
        e.headers = [("Content-Type", .string("application/json"))]
        #expect(FlowRunner.check(e, reply: reply, doc: nil)?.path == "header Content-Type")
        e.headers = [("ETag", try json(#"{"$absent": true}"#))]
        #expect(FlowRunner.check(e, reply: reply, doc: nil) == nil)
    }

    @Test func statusDefaultsToAnySuccess() throws {
        let e = ReplyExpectation()
        #expect(FlowRunner.check(e, reply: HTTPResponse(status: 204), doc: nil) == nil)
        let m = FlowRunner.check(e, reply: HTTPResponse(status: 404, body: Array("{}".utf8)), doc: nil)
        #expect(m?.path == "status")
        #expect(m?.expected == "2xx")
    }
}

@Suite("Event expectations")
struct EventTests {
    static let reply = """
        {"events": [{"controller": "B", "callback": "viewDidLoad"}, {"controller": "A", "callback": "viewWillDisappear"},
                    {"controller": "B", "callback": "viewWillAppear"}]}
        """

    func check(_ set: (inout ReplyExpectation) -> Void, doc: String = reply) throws -> Mismatch? {
        var e = ReplyExpectation()
        set(&e)
        return FlowRunner.check(e, reply: HTTPResponse(status: 200), doc: try json(doc))
    }

    let b = EventPattern(controller: "B", callback: "viewDidLoad")
    let a = EventPattern(controller: "A", callback: "viewWillDisappear")
    let c = EventPattern(controller: "B", callback: "viewWillAppear")

    @Test func exactOrder() throws {
        #expect(try check { $0.events = [b, a, c] } == nil)
        let m = try #require(check { $0.events = [b, c, a] })
        #expect(m.path == "$.events[1]")
        #expect(m.expected == "\"B.viewWillAppear\"")
        #expect(try check { $0.events = [b, a] }?.path == "$.events[2]")
        #expect(try check { $0.events = [b, a, c, c] }?.path == "$.events[3]")
    }

    @Test func includedInOrderWithGaps() throws {
        #expect(try check { $0.eventsInclude = [b, c] } == nil)
        #expect(try check { $0.eventsInclude = [c, b] } != nil)
        #expect(try check { $0.eventsInclude = [EventPattern(controller: "C", callback: "viewDidLoad")] } != nil)
    }

    @Test func excluded() throws {
        #expect(try check { $0.eventsExclude = [EventPattern(controller: "A", callback: "viewDidAppear")] } == nil)
        #expect(try check { $0.eventsExclude = [a] }?.path == "$.events[1]")
        // A reply without events (a refusal) fired nothing: exclusions hold, an exact list does not.
        #expect(try check({ $0.eventsExclude = [a] }, doc: #"{"status": 409}"#) == nil)
        #expect(try check({ $0.events = [] }, doc: #"{"status": 409}"#) != nil)
    }

    @Test func aTurnsEventsAreItsResultsEventsInOrder() throws {
        let turn = """
            {"results": [{"events": [{"controller": "B", "callback": "viewDidLoad"}]}, {"status": 409},
                         {"events": [{"controller": "A", "callback": "viewWillDisappear"}]}]}
            """
        #expect(try check({ $0.events = [b, a] }, doc: turn) == nil)
        #expect(try check({ $0.events = [a, b] }, doc: turn) != nil)
    }

    @Test func bothSpellingsOfAnEvent() throws {
        let flow = try #require(
            try flows(
                """
                {"steps": [{"do": "GET /", "expect": {"events": ["nav.root.viewDidLoad", ["B", "viewWillAppear"]]}}]}
                """
            ).first)
        #expect(flow.steps[0].expect.events == [EventPattern(controller: "nav.root", callback: "viewDidLoad"), c])
    }
}

@Suite("Variables")
struct VariableTests {
    @Test func savedValuesFillPathsBodiesAndHeaders() throws {
        let result = try play(
            """
            {"steps": [
              {"do": "POST /v1/sessions", "body": {"id": "v-${run}", "root": {"id": "A"}, "options": {"transitions": "immediate"}},
               "expect": {"status": 201}, "save": {"sid": "id", "v": "$.version", "root": "window.rootViewController"}},
              {"do": "POST /v1/sessions/${sid}/controllers/${root}/present", "headers": {"If-Match": "\\"${v}\\""},
               "body": {"viewController": {"id": "B-${root}"}}, "expect": {"json": {"version": 1, "session.window.visibleViewController": "B-A"}},
               "save": {"v": "version"}},
              {"do": "GET /v1/sessions/${sid}", "expect": {"json": {"version": "${v}", "id": "v-${run}"}}}
            ]}
            """)
        #expect(result.passed, "\(result.line)")
    }

    @Test func aStaleSavedVersionMakesIfMatchFail() throws {
        let result = try play(
            """
            {"steps": [
              {"do": "POST /v1/sessions", "body": {"root": {"id": "A"}}, "expect": {"status": 201}, "save": {"sid": "id", "v": "version"}},
              {"do": "POST /v1/sessions/${sid}/controllers/A/present", "body": {"viewController": {"id": "B"}}},
              {"do": "POST /v1/sessions/${sid}/controllers/B/dismiss", "headers": {"If-Match": "\\"${v}\\""}, "body": {}}
            ]}
            """)
        #expect(result.failure?.step == 3)
        #expect(result.failure?.message.hasPrefix("status expected 2xx, got 412") == true)
    }

    @Test func aWholePlaceholderKeepsItsType() throws {
        let vars = Variables(["v": .number(3), "s": .string("x")])
        #expect(try vars.json(.string("${v}")) == .number(3))
        #expect(try vars.json(.string("v${v}-${s}")) == .string("v3-x"))
        #expect(try vars.text("$${v}") == "${v}")
    }

    @Test func anUnknownVariableFailsTheStepThatUsesIt() throws {
        let result = try play(#"{"steps": [{"do": "GET /healthz"}, {"do": "GET /v1/sessions/${nope}"}]}"#)
        #expect(result.failure?.step == 2)
        #expect(result.failure?.message.contains("${nope}") == true)
    }

    @Test func savingAMissingPathFails() throws {
        let result = try play(#"{"steps": [{"do": "GET /healthz", "save": {"x": "nothing.here"}}]}"#)
        #expect(result.line.contains("cannot save x: the reply has no $.nothing.here"))
    }

    @Test func eachPlayHasItsOwnRunToken() throws {
        let flow = #"{"steps": [{"do": "POST /v1/sessions", "body": {"id": "same-${run}"}, "expect": {"status": 201}}]}"#
        let parsed = try #require(try flows(flow).first)
        let target = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        #expect(FlowRunner().play(parsed, on: target).passed)
        #expect(FlowRunner().play(parsed, on: target).passed)
    }
}

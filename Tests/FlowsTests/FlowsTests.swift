@testable import Flows
import Foundation
import FoundationXML
import HTTPServer
import NavSimService
import ProcessSpawning
import Synchronization
import Testing
import SQLiteStore

/// The checkout's folders: migrations for the in-process service, the repository's own flows.
enum Checkout {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // FlowsTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository root
    static let migrations = root.appendingPathComponent("migrations").path
    static let flows = root.appendingPathComponent("Tests/Flows").path
}

/// A folder that goes away with the value.
final class Scratch {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("flows-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func write(_ name: String, _ text: String) throws -> String {
        let path = url.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

func json(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

func flows(_ text: String, file: String = "inline.json") throws -> [Flow] { try Flow.decode(try json(text), file: file) }

func play(_ text: String, file: String = "inline.json", token: String? = nil) throws -> FlowResult {
    let flow = try #require(try flows(text, file: file).first)
    return FlowRunner(token: token).play(flow, on: try InProcessTarget(migrationsDirectory: Checkout.migrations))
}

/// A session with root A and B presented full screen: the steps most tests start from.
let presentFlow = """
{"name": "present B", "steps": [
  {"do": "POST /v1/sessions",
   "body": {"id": "s-${run}", "options": {"iOS": "17", "transitions": "immediate"}, "root": {"id": "A", "class": "AViewController"}},
   "expect": {"status": 201, "json": {"window.rootViewController": "A"}}, "save": {"sid": "id"}},
  {"name": "present", "do": "POST /v1/sessions/${sid}/controllers/A/present",
   "body": {"viewController": {"id": "B", "class": "BViewController"}, "modalPresentationStyle": "fullScreen"},
   "expect": {"json": {"transition.state": "completed"},
              "events": ["B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
                         "B.viewDidAppear", "A.viewDidDisappear", "A.completion"]}}
]}
"""

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
        let result = try play("""
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
        let service = try NavSimService(store: SessionStore(path: scratch.url.appendingPathComponent("db.sqlite").path,
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
        let m = try #require(Matcher.check(try json(#"{"events": [{"callback": "viewWillAppear"}]}"#),
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
        let flow = try #require(try flows("""
        {"steps": [{"do": "GET /", "expect": {"events": ["nav.root.viewDidLoad", ["B", "viewWillAppear"]]}}]}
        """).first)
        #expect(flow.steps[0].expect.events == [EventPattern(controller: "nav.root", callback: "viewDidLoad"), c])
    }
}

@Suite("Variables")
struct VariableTests {
    @Test func savedValuesFillPathsBodiesAndHeaders() throws {
        let result = try play("""
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
        let result = try play("""
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

@Suite("Storyboards from files")
struct StoryboardFileTests {
    @Test func xmlFileIsReadBesideTheFlow() throws {
        let scratch = try Scratch()
        let source = Checkout.root.appendingPathComponent("Tests/Flows/storyboards/a-presents-b.storyboard")
        _ = try scratch.write("app/Main.storyboard", try String(contentsOf: source, encoding: .utf8))
        let file = try scratch.write("app/flow.json", """
        {"name": "from my storyboard", "steps": [
          {"do": "PUT /v1/storyboards/Main-${run}", "xmlFile": "Main.storyboard"},
          {"do": "POST /v1/sessions", "body": {"root": {"storyboard": "Main-${run}"}, "options": {"transitions": "immediate"}},
           "expect": {"status": 201, "json": {"controllers": {"$length": 1}}}, "save": {"sid": "id", "a": "window.rootViewController"}},
          {"do": "POST /v1/sessions/${sid}/controllers/${a}/performSegue", "body": {"identifier": "toB"},
           "expect": {"eventsInclude": ["${a}.prepareForSegue"]}}
        ]}
        """)
        let flow = try #require(try Flow.load(file: file).first)
        let result = FlowRunner().play(flow, on: try InProcessTarget(migrationsDirectory: Checkout.migrations))
        #expect(result.passed, "\(result.line)")
    }

    @Test func aMissingXMLFileFailsItsStep() throws {
        let scratch = try Scratch()
        let file = try scratch.write("flow.json", #"{"steps": [{"name": "upload", "do": "PUT /v1/storyboards/x", "xmlFile": "Nope.storyboard"}]}"#)
        let flow = try #require(try Flow.load(file: file).first)
        let result = FlowRunner().play(flow, on: try InProcessTarget(migrationsDirectory: Checkout.migrations))
        #expect(result.line.contains("step 1 \"upload\": cannot read xmlFile Nope.storyboard"))
    }
}

@Suite("Failure reports")
struct FailureReportTests {
    @Test func aFailingFlowNamesTheStepAndTheFirstDifferingPath() throws {
        let wrong = presentFlow.replacingOccurrences(of: #""transition.state": "completed""#, with: #""transition.state": "running""#)
        let result = try play(wrong, file: "flows/08.json")
        #expect(!result.passed)
        #expect(result.line == #"FAIL flows/08.json :: present B: step 2 "present": $.transition.state expected "running", got "completed""#)
    }

    /// A turn's warnings are those of its results, in order, each with UIKit's code when it has one.
    @Test func aTurnsWarningsAreItsResultsWarnings() throws {
        let doc = try json("""
        {"results": [{"events": []},
                     {"warnings": [{"type": "/v1/problems/present-while-presenting", "detail": "Attempt to present B", "uikit": {"code": "D21"}}]},
                     {"warnings": [{"type": "/v1/problems/unwind-destination-not-found", "detail": "none"}]}]}
        """)
        #expect(FlowRunner.warnings(in: doc) == "D21 present-while-presenting: Attempt to present B; unwind-destination-not-found: none")
        #expect(FlowRunner.warnings(in: try json(#"{"events": []}"#)) == nil)
    }

    @Test func aWrongEventNamesItsIndex() throws {
        let wrong = presentFlow.replacingOccurrences(of: #""B.viewWillAppear", "B.viewIsAppearing""#, with: #""B.viewIsAppearing", "B.viewWillAppear""#)
        let result = try play(wrong)
        #expect(result.failure?.message.hasPrefix(#"$.events[2] expected "B.viewIsAppearing", got "B.viewWillAppear""#) == true)
    }

    @Test func suitesCountFilesThatCannotBeReadAsFailures() throws {
        let scratch = try Scratch()
        _ = try scratch.write("a.json", presentFlow)
        _ = try scratch.write("b.json", #"{"steps": [{"do": "GET /", "expectt": {}}]}"#)
        _ = try scratch.write("c.json", "[not json")
        _ = try scratch.write("notes.txt", "ignored")
        let suite = FlowSuite(runner: FlowRunner()) { try InProcessTarget(migrationsDirectory: Checkout.migrations) }
        let results = suite.run([scratch.url.path])
        #expect(results.map(\.passed) == [true, false, false])
        #expect(results[1].line.contains("unknown key 'expectt'"))
        #expect(FlowSuite.summary(results) == "1 passed, 2 failed")
    }

    @Test func formatErrorsNameTheKey() throws {
        let cases = [
            (#"{"steps": [{"do": "GET"}]}"#, "$.steps[0].do"),
            (#"{"steps": [{"do": "GET /", "body": {}, "raw": ""}]}"#, "give one of"),
            (#"{"steps": [{"do": "GET /", "expect": {"events": ["noDot"]}}]}"#, "$.steps[0].expect.events[0]"),
            (#"{"steps": [{"do": "GET /", "expect": {"status": "200"}}]}"#, "$.steps[0].expect.status"),
            (#"{"stpes": []}"#, "unknown key 'stpes'"),
        ]
        for (text, needle) in cases {
            do {
                _ = try flows(text)
                Issue.record("\(text) decoded")
            } catch {
                #expect("\(error)".contains(needle), "\(error)")
            }
        }
    }
}

@Suite("JUnit")
struct JUnitTests {
    @Test func theReportParsesAsJUnitXML() throws {
        let results = [
            FlowResult(file: "a.json", name: "ok flow", failure: nil, seconds: 0.25),
            FlowResult(file: "a.json", name: "bad <flow> & \"quotes\"",
                       failure: FlowFailure(step: 3, label: "push \"detail\"", message: "$.x expected 1, got 2\u{1}\n"), seconds: 1),
            FlowResult(file: "b.json", name: nil, failure: nil, seconds: 0),
        ]
        let text = JUnit.xml(results)
        let doc = try XMLDocument(data: Data(text.utf8))
        let root = try #require(doc.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "3")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == ["a.json", "b.json"])
        let cases = suites[0].elements(forName: "testcase")
        #expect(cases.count == 2)
        #expect(cases[1].attribute(forName: "name")?.stringValue == "bad <flow> & \"quotes\"")
        let failure = try #require(cases[1].elements(forName: "failure").first)
        let message = try #require(failure.attribute(forName: "message")?.stringValue)
        #expect(message.hasPrefix("step 3 \"push \"detail\"\": $.x expected 1, got 2"))
        #expect(cases[0].elements(forName: "failure").isEmpty)
        #expect(cases[0].attribute(forName: "time")?.stringValue == "0.250")
        #expect(suites[1].elements(forName: "testcase").first?.attribute(forName: "name")?.stringValue == "b.json")
    }
}

@Suite("Record and replay")
struct RecordTests {
    /// Requests as a curl user would send them, against `target`.
    func send(_ target: any FlowTarget, _ method: String, _ path: String, _ body: String? = nil) throws -> HTTPResponse {
        var headers = HTTPHeaders()
        if body != nil { headers["Content-Type"] = "application/json" }
        return try target.send(HTTPRequest(method: method, path: path, headers: headers, body: Array((body ?? "").utf8)))
    }

    func makeSession(on target: any FlowTarget) throws {
        #expect(try send(target, "POST", "/v1/sessions", """
        {"id": "bug", "traits": {"userInterfaceIdiom": "pad"}, "options": {"iOS": "17", "transitions": "manual"},
         "root": {"id": "T", "kind": "tabBarController", "viewControllers": [
            {"id": "N", "kind": "navigationController", "viewControllers": [{"id": "A", "class": "AViewController", "title": "Home"}]},
            {"id": "S", "class": "SettingsViewController", "definesPresentationContext": true}]}}
        """).status == 201)
        #expect(try send(target, "POST", "/v1/sessions/bug/controllers/N/push", #"{"viewController": {"id": "B"}, "animated": false}"#).status == 200)
        #expect(try send(target, "POST", "/v1/sessions/bug/controllers/B/present", #"{"viewController": {"id": "M"}, "modalPresentationStyle": "formSheet"}"#).status == 200)
        #expect(try send(target, "POST", "/v1/sessions/bug/transitions/complete").status == 200)
        #expect(try send(target, "POST", "/v1/sessions/bug/turns", """
        {"operations": [{"controller": "M", "operation": "dismiss", "animated": false},
                        {"controller": "T", "operation": "select", "index": 1}]}
        """).status == 200)
        #expect(try send(target, "POST", "/v1/sessions/bug/controllers", #"{"id": "X"}"#).status == 201)
    }

    @Test func aRecordedSessionReplaysAsAPassingFlow() throws {
        let original = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        try makeSession(on: original)
        let recorded = try Recorder().record(session: "bug", on: original)
        // What record prints must read back as a flow.
        let text = PrettyJSON.text(recorded)
        let flow = try #require(try flows(text, file: "bug.json").first)
        #expect(flow.steps.count >= 5)
        #expect(flow.steps[0].method == "POST" && flow.steps[0].path == "/v1/sessions")
        // On a fresh service, and on the same one (a new id each run, so no conflict).
        for target in [try InProcessTarget(migrationsDirectory: Checkout.migrations), original] {
            let result = FlowRunner().play(flow, on: target)
            #expect(result.passed, "\(result.line)\n\(text)")
        }
    }

    /// A collapsed classic split (iPhone) keeps its secondary inside the
    /// primary's stack; the recording rebuilds the creation from the split's primary and
    /// secondary, so the replay is created (no 409 D12) and has the secondary after expanding,
    /// for a navigation-controller secondary and a plain one.
    @Test(arguments: [
        #"{"id": "dnav", "kind": "navigationController", "viewControllers": [{"id": "detail"}]}"#,
        #"{"id": "detail"}"#,
    ])
    func aRecordedCollapsedSplitReplays(secondary: String) throws {
        let original = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        let created = try send(original, "POST", "/v1/sessions", """
        {"id": "sp", "options": {"transitions": "immediate"},
         "root": {"id": "split", "kind": "splitViewController", "viewControllers": [
            {"id": "mnav", "kind": "navigationController", "viewControllers": [
               {"id": "master"}]},
            \(secondary)]}}
        """)
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        for (method, path, body) in [
            ("PATCH", "/v1/sessions/sp", #"{"traits": {"horizontalSizeClass": "regular"}}"#),
            ("POST", "/v1/sessions/sp/controllers/master/showDetail", #"{"viewController": {"id": "d2"}}"#),
            ("PATCH", "/v1/sessions/sp", #"{"traits": {"horizontalSizeClass": "compact"}}"#),
            ("PATCH", "/v1/sessions/sp", #"{"traits": {"horizontalSizeClass": "regular"}}"#),
        ] {
            let r = try send(original, method, path, body)
            #expect(r.status == 200, "\(path): \(String(decoding: r.body, as: UTF8.self))")
        }
        let text = PrettyJSON.text(try Recorder().record(session: "sp", on: original))
        let flow = try #require(try flows(text, file: "split.json").first)
        guard case .json(let body)? = flow.steps.first?.body else { Issue.record("no JSON body: \(text)"); return }
        let children = body["root"]?["viewControllers"]?.array?.compactMap { $0["id"]?.string }
        let secondaryID = secondary.contains("dnav") ? "dnav" : "detail"
        #expect(children == ["mnav", secondaryID], "\(text)")
        let result = FlowRunner().play(flow, on: try InProcessTarget(migrationsDirectory: Checkout.migrations))
        #expect(result.passed, "\(result.line)\n\(text)")
    }

    /// The creation's warnings (D7: the root's `viewDidLoad` presents) are kept
    /// in history entry 0 and step 1 expects them, as later steps expect theirs.
    @Test func aRecordingExpectsTheCreationsWarnings() throws {
        let original = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        #expect(try send(original, "POST", "/v1/sessions", """
        {"id": "w", "root": {"id": "home", "on": {"viewDidLoad": [{"operation": "present", "viewController": {"id": "x"}}]}}}
        """).status == 201)
        let recorded = try Recorder().record(session: "w", on: original)
        let step1 = recorded["steps"]?.array?.first
        let warnings = step1?["expect"]?["json"]?["warnings"]?.array
        #expect(warnings?.map { $0["uikit"]?["code"]?.string } == ["D7"], "\(PrettyJSON.text(recorded))")
    }

    /// A root with `on` code cannot be rebuilt from replies (they list each call as
    /// operation, receiver and `once` only), so history entry 0 keeps the creation body and the
    /// recording sends it again: the root's viewDidLoad adds a child's view, and the replay
    /// creates the same window with the same events. An entry 0 without a body (stored before)
    /// still gets the body rebuilt from the initial state.
    @Test func aRecordedRootWithLifecycleCodeReplaysFromTheKeptBody() throws {
        let original = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        let sent = """
        {"id": "code", "options": {"transitions": "immediate"},
         "root": {"id": "P", "on": {"viewDidLoad": [{"operation": "addChild", "viewController": {"id": "C"}},
                                                  {"operation": "addSubview", "viewController": "C"}]}}}
        """
        #expect(try send(original, "POST", "/v1/sessions", sent).status == 201)
        #expect(try send(original, "POST", "/v1/sessions/code/controllers", #"{"id": "X"}"#).status == 201)
        let entry0 = try JSON.parse(try send(original, "GET", "/v1/sessions/code/history?after=-1&limit=1").body)["entries"]?.array?.first
        #expect(entry0?["request"]?["body"] == (try JSON.parse(Array(sent.utf8))), "entry 0 keeps the creation body")
        let recorded = try Recorder().record(session: "code", on: original)
        let text = PrettyJSON.text(recorded)
        let flow = try #require(try flows(text, file: "code.json").first)
        guard case .json(let body)? = flow.steps.first?.body else { Issue.record("no JSON body: \(text)"); return }
        #expect(body["id"]?.string == "code-${run}")
        #expect(body["root"]?["on"]?["viewDidLoad"]?.array?.count == 2, "\(text)")
        let events = recorded["steps"]?.array?.first?["expect"]?["json"]?["events"]?.array?.compactMap { e in
            e["controller"]?.string.flatMap { c in e["callback"]?.string.map { "\(c).\($0)" } }
        }
        #expect(events == ["P.viewDidLoad", "C.willMoveToParent", "C.viewDidLoad", "P.viewWillAppear", "P.viewIsAppearing",
                           "C.viewWillAppear", "C.viewIsAppearing", "P.viewDidAppear", "C.viewDidAppear"], "\(text)")
        let result = FlowRunner().play(flow, on: try InProcessTarget(migrationsDirectory: Checkout.migrations))
        #expect(result.passed, "\(result.line)\n\(text)")
        // Without a kept body (an entry 0 stored before): rebuilt, and the `on` code is lost.
        let initial = try JSON.parse(try send(original, "GET", "/v1/sessions/code?version=0").body)
        let rebuilt = Recorder().creationStep(sid: "code", initial: initial)
        #expect(rebuilt["body"]?["root"]?["id"]?.string == "P" && rebuilt["body"]?["root"]?["on"] == nil)
    }

    /// A creation rebuilt from the initial state keeps every flag the reply shows set, as the
    /// core's field table lists them: `prefersStatusBarHidden` as much as `isModalInPresentation`.
    @Test func aRebuiltCreationKeepsEveryFlagTheRootSets() throws {
        let original = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        let sent = #"{"id": "flags", "root": {"id": "P", "prefersStatusBarHidden": true, "isModalInPresentation": true}}"#
        #expect(try send(original, "POST", "/v1/sessions", sent).status == 201)
        let initial = try JSON.parse(try send(original, "GET", "/v1/sessions/flags?version=0").body)
        let root = Recorder().creationStep(sid: "flags", initial: initial)["body"]?["root"]
        #expect(root?["prefersStatusBarHidden"]?.bool == true, "\(root.map { PrettyJSON.text($0) } ?? "no root")")
        #expect(root?["isModalInPresentation"]?.bool == true)
        #expect(root?["definesPresentationContext"] == nil, "a flag left at its default is not sent")
    }

    @Test func aRecordedFlowCatchesAChangedReply() throws {
        let original = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        try makeSession(on: original)
        let text = PrettyJSON.text(try Recorder().record(session: "bug", on: original))
        // As if the server now answered the push with different events.
        let changed = text.replacingOccurrences(of: #""callback": "viewDidLoad""#, with: #""callback": "loadView""#)
        #expect(changed != text)
        let flow = try #require(try flows(changed).first)
        let result = FlowRunner().play(flow, on: try InProcessTarget(migrationsDirectory: Checkout.migrations))
        #expect(!result.passed)
        #expect(result.failure?.message.contains("expected \"loadView\", got \"viewDidLoad\"") == true, "\(result.line)")
    }

    /// A session made from storyboards replays on a server that has none of them: the recording
    /// uploads each storyboard the session used (the document as the server has it) and its
    /// class and custom segue declarations before creating the session. Without the
    /// declarations the replay would differ: FadeSegue would present instead of push, and the
    /// unwind would find no `unwindToA:` (navsim's `unwind-destination-not-found`).
    @Test func aRecordedStoryboardSessionReplaysOnAnEmptyServer() throws {
        let original = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        for (name, file) in [("Unwind", "unwind-to-a"), ("Fade", "a-custom-segue-b")] {
            let xml = try Data(contentsOf: Checkout.root.appendingPathComponent("Tests/Flows/storyboards/\(file).storyboard"))
            let r = try original.send(HTTPRequest(method: "PUT", path: "/v1/storyboards/\(name)",
                                                  headers: HTTPHeaders([("Content-Type", "application/xml")]), body: Array(xml)))
            #expect(r.status == 201, "\(String(decoding: r.body, as: UTF8.self))")
        }
        #expect(try send(original, "PUT", "/v1/storyboards/Unwind/classes", #"{"AViewController": {"unwindActions": ["unwindToA:"]}}"#).status == 200)
        #expect(try send(original, "PUT", "/v1/storyboards/Fade/customSegues", #"{"FadeSegue": {"performs": "push"}}"#).status == 200)
        #expect(try send(original, "POST", "/v1/sessions", """
        {"id": "app", "options": {"transitions": "immediate"},
         "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"storyboard": "Fade", "identifier": "A", "id": "FA"}]}}
        """).status == 201)
        for (path, body) in [
            ("FA/performSegue", #"{"identifier": "toB"}"#),
            ("B/present", #"{"viewController": {"storyboard": "Unwind", "identifier": "A", "id": "UA"}, "modalPresentationStyle": "fullScreen"}"#),
            ("UA/present", #"{"viewController": {"storyboard": "Unwind", "identifier": "C"}}"#),
            ("C/performSegue", #"{"identifier": "unwindToA"}"#),
        ] {
            let r = try send(original, "POST", "/v1/sessions/app/controllers/\(path)", body)
            let reply = try JSON.parse(r.body)
            #expect(r.status == 200 && reply["warnings"] == nil, "\(path): \(String(decoding: r.body, as: UTF8.self))")
        }
        let recorded = try Recorder().record(session: "app", on: original)
        let text = PrettyJSON.text(recorded)
        let flow = try #require(try flows(text, file: "app.json").first)
        #expect(flow.steps.prefix(4).map { "\($0.method) \($0.path)" } == [
            "PUT /v1/storyboards/Fade", "PUT /v1/storyboards/Fade/customSegues",
            "PUT /v1/storyboards/Unwind", "PUT /v1/storyboards/Unwind/classes",
        ], "\(text)")
        // A second server, empty; then the first, where the uploads replace what is there.
        for target in [try InProcessTarget(migrationsDirectory: Checkout.migrations), original] {
            let result = FlowRunner().play(flow, on: target)
            #expect(result.passed, "\(result.line)\n\(text)")
        }
    }

    @Test func aStoryboardIsReadAsUploadedWhenAcceptPrefersXML() throws {
        let target = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        let xml = try Data(contentsOf: Checkout.root.appendingPathComponent("Tests/Flows/storyboards/a-presents-b.storyboard"))
        _ = try target.send(HTTPRequest(method: "PUT", path: "/v1/storyboards/Main",
                                        headers: HTTPHeaders([("Content-Type", "application/xml")]), body: Array(xml)))
        func get(_ accept: String) throws -> HTTPResponse {
            try target.send(HTTPRequest(method: "GET", path: "/v1/storyboards/Main", headers: HTTPHeaders([("Accept", accept)])))
        }
        for accept in ["application/xml", "text/xml", "application/json;q=0.5, application/xml"] {
            let r = try get(accept)
            #expect(r.status == 200 && r.body == Array(xml) && r.headers["Content-Type"] == "application/xml", "\(accept)")
            #expect(r.headers["Vary"] == "Accept")
        }
        for accept in ["*/*", "application/json, application/xml", "application/*"] {
            #expect(try get(accept).headers["Content-Type"]?.hasPrefix("application/json") == true, "\(accept)")
        }
        let missing = try target.send(HTTPRequest(method: "GET", path: "/v1/storyboards/Nope", headers: HTTPHeaders([("Accept", "application/xml")])))
        #expect(missing.status == 404)
    }

    @Test func recordingAnUnknownSessionFails() throws {
        let target = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        #expect(throws: Recorder.Failure.self) { try Recorder().record(session: "nope", on: target) }
    }
}

/// `navsim test` as users run it: the binary built beside this test runner.
@Suite("navsim test command")
struct TestCommandTests {
    static func binary() throws -> String {
        var candidates: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("navsim").path)
        }
        candidates.append(Checkout.root.appendingPathComponent(".build/debug/navsim").path)
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0) }, "no navsim binary in \(candidates)")
    }

    /// Runs `navsim ARGS` to its end in `folder`; its status and stdout (stderr appended).
    struct RunError: Error, CustomStringConvertible {
        let description: String
    }

    func navsim(_ args: [String], in folder: URL) throws -> (status: Int32, lines: [String]) {
        var environment = ProcessInfo.processInfo.environment
        environment["NAVSIM_MIGRATIONS"] = Checkout.migrations
        // Beside the folder, not in it: the command under test may list the folder.
        let outputPath = folder.deletingLastPathComponent().appendingPathComponent("\(folder.lastPathComponent).output").path
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let process = try ChildProcess(executable: try Self.binary(), arguments: args, environment: environment,
                                       workingDirectory: folder.path,
                                       standardOutput: .appending(toFile: outputPath), standardError: .appending(toFile: outputPath))
        let ended = process.wait(timeout: 120)
        guard case .exited(let status) = ended else {
            process.signal(SIGKILL)
            throw RunError(description: "navsim \(args) did not exit within 120 s, or died of a signal: \(String(describing: ended))")
        }
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return (status, text.split(separator: "\n").map(String.init))
    }

    @Test func aFailingFlowExitsNonZeroNamingTheStepAndWritesJUnit() throws {
        let scratch = try Scratch()
        _ = try scratch.write("flows/a-good.json", presentFlow)
        _ = try scratch.write("flows/b-bad.json", presentFlow.replacingOccurrences(of: #""completed""#, with: #""cancelled""#))
        let run = try navsim(["test", "--junit", "report.xml", "flows"], in: scratch.url)
        #expect(run.status == 1)
        #expect(run.lines.count == 3)
        #expect(run.lines.first == "ok   flows/a-good.json :: present B")
        #expect(run.lines.dropFirst().first?.hasPrefix(#"FAIL flows/b-bad.json :: present B: step 2 "present": $.transition.state expected "cancelled""#) == true)
        #expect(run.lines.last == "1 passed, 1 failed")
        let report = try XMLDocument(contentsOf: scratch.url.appendingPathComponent("report.xml"))
        #expect(try report.nodes(forXPath: "//testcase").count == 2)
        #expect(try report.nodes(forXPath: "//testcase/failure").count == 1)
    }

    /// A failing step's line carries the reply's warnings: here the unwind finds no
    /// destination (no class declares `unwindToA:`), and the line says so, not only that the
    /// visible controller differs.
    @Test func aFailingStepShowsTheRepliesWarnings() throws {
        let scratch = try Scratch()
        let storyboard = Checkout.root.appendingPathComponent("Tests/Flows/storyboards/unwind-to-a.storyboard").path
        _ = try scratch.write("unwind.json", """
        {"name": "unwind to A", "steps": [
          {"do": "PUT /v1/storyboards/u-${run}", "xmlFile": "\(storyboard)"},
          {"do": "POST /v1/sessions", "body": {"id": "u-${run}", "options": {"transitions": "immediate"},
                                              "root": {"storyboard": "u-${run}", "identifier": "A"}}, "save": {"sid": "id"}},
          {"do": "POST /v1/sessions/${sid}/controllers/A/present", "body": {"viewController": {"storyboard": "u-${run}", "identifier": "C"}}},
          {"name": "unwind", "do": "POST /v1/sessions/${sid}/controllers/C/performSegue", "body": {"identifier": "unwindToA"},
           "expect": {"json": {"session.window.visibleViewController": "A"}}}
        ]}
        """)
        let run = try navsim(["test", "unwind.json"], in: scratch.url)
        #expect(run.status == 1)
        let line = try #require(run.lines.first)
        #expect(line.hasPrefix(#"FAIL unwind.json :: unwind to A: step 4 "unwind": $.session.window.visibleViewController expected "A", got "C"; the reply warned: unwind-destination-not-found: The unwind from <CViewController: C> found no destination"#), "\(line)")
        #expect(line.contains("unwindToA:"), "\(line)")
    }

    @Test func passingFlowsExitZero() throws {
        let scratch = try Scratch()
        _ = try scratch.write("ok.json", presentFlow)
        let run = try navsim(["test", "ok.json"], in: scratch.url)
        #expect(run.status == 0)
        #expect(run.lines.last == "1 passed, 0 failed")
    }

    @Test func usageErrorsExitTwo() throws {
        let scratch = try Scratch()
        #expect(try navsim(["test"], in: scratch.url).status == 2)
        #expect(try navsim(["test", "missing.json"], in: scratch.url).status == 2)
        #expect(try navsim(["record", "sid"], in: scratch.url).status == 2)
    }
}

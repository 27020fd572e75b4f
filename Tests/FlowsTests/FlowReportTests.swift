@testable import Flows
import Foundation
import FoundationXML
import HTTPServer
import NavSimService
import ProcessSpawning
import Synchronization
import Testing
import SQLiteStore

@Suite("Storyboards from files")
struct StoryboardFileTests {
    @Test func xmlFileIsReadBesideTheFlow() throws {
        let scratch = try Scratch()
        let source = Checkout.root.appendingPathComponent("Tests/Flows/storyboards/a-presents-b.storyboard")
        _ = try scratch.write("app/Main.storyboard", try String(contentsOf: source, encoding: .utf8))
        let file = try scratch.write(
            "app/flow.json",
            """
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
        let doc = try json(
            """
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
            FlowResult(
                file: "a.json", name: "bad <flow> & \"quotes\"",
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
        let process = try ChildProcess(
            executable: try Self.binary(), arguments: args, environment: environment,
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
        _ = try scratch.write(
            "unwind.json",
            """
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
        #expect(
            line.hasPrefix(
                #"FAIL unwind.json :: unwind to A: step 4 "unwind": $.session.window.visibleViewController expected "A", got "C"; the reply warned: unwind-destination-not-found: The unwind from <CViewController: C> found no destination"#
            ), "\(line)")
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

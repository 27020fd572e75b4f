import Flows
import Foundation
import FoundationXML
import HTTPServer
import JSONValues
import NavSimService
import ProcessSpawning
import SQLiteStore
import Testing

/// `navsim test --coverage` over Tests/Fixtures/Coverage: three flows that perform four of the
/// seven segues of Mail.storyboard (one of its two unwinds), push twice and pop once.
@Suite("navsim test --coverage")
struct CoverageTests {
    static let fixtures = Checkout.root.appendingPathComponent("Tests/Fixtures/Coverage")
    static let storyboard = "Tests/Fixtures/Coverage/Mail.storyboard"
    static let flows = "Tests/Fixtures/Coverage/flows"

    /// The line of the element whose `id` is `id` in the fixture, counted from the file itself.
    static func line(of id: String) throws -> Int {
        let text = try String(contentsOf: Checkout.root.appendingPathComponent(storyboard), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.contains(" id=\"\(id)\"") }, "no element \(id)")
        return index + 1
    }

    /// Runs `navsim ARGS` in the checkout (so that paths below it are reported relative to it);
    /// its status and its output lines, stdout and stderr together.
    func navsim(_ args: [String], scratch: Scratch) throws -> (status: Int32, lines: [String]) {
        var environment = ProcessInfo.processInfo.environment
        environment["NAVSIM_MIGRATIONS"] = Checkout.migrations
        let output = scratch.url.appendingPathComponent("output.txt").path
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let process = try ChildProcess(
            executable: try TestCommandTests.binary(), arguments: args, environment: environment,
            workingDirectory: Checkout.root.path,
            standardOutput: .appending(toFile: output), standardError: .appending(toFile: output))
        let ended = process.wait(timeout: 120)
        guard case .exited(let status) = ended else {
            process.signal(SIGKILL)
            throw TestCommandTests.RunError(description: "navsim \(args) did not exit within 120 s: \(String(describing: ended))")
        }
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return (status, text.split(separator: "\n").map(String.init))
    }

    func read(_ path: String) throws -> JSON {
        try JSON.parse(Array(try #require(FileManager.default.contents(atPath: path))))
    }

    /// `[(id, line)]` of a list of segues in the JSON report.
    func places(_ list: JSON?) -> [String] {
        (list?.array ?? []).map { "\($0["id"]?.string ?? "?"):\(Int($0["line"]?.number ?? 0))" }
    }

    @Test func theReportNamesExactlyThePerformedSeguesAtTheirLines() throws {
        let scratch = try Scratch()
        let out = scratch.url.appendingPathComponent("coverage.json").path
        let run = try navsim(["test", "--coverage", out, Self.flows], scratch: scratch)
        #expect(run.status == 0, "\(run.lines)")
        #expect(run.lines.suffix(2) == ["coverage: 4 of 7 segues performed (57.1 %) in 1 storyboard", "3 passed, 0 failed"])
        let report = try read(out)
        let boards = try #require(report["storyboards"]?.array)
        #expect(boards.count == 1)
        let mail = try #require(boards.first)
        #expect(mail["file"]?.string == Self.storyboard)
        #expect(mail["segues"]?["total"]?.number == 7)
        #expect(mail["segues"]?["performed"]?.number == 4)
        let covered = try ["inbox-about", "inbox-message", "inbox-compose", "compose-unwind"].map { "\($0):\(try Self.line(of: $0))" }
        let uncovered = try ["inbox-help", "inbox-quick", "message-unwind"].map { "\($0):\(try Self.line(of: $0))" }
        #expect(places(mail["segues"]?["covered"]) == covered)
        #expect(places(mail["segues"]?["uncovered"]) == uncovered)
        #expect(places(mail["unwinds"]?["covered"]) == [covered[3]])
        #expect(places(mail["unwinds"]?["uncovered"]) == [uncovered[2]])
        #expect(mail["unwinds"]?["total"]?.number == 2)
        // Each performed once; the segue without an identifier was named by its element id.
        #expect((mail["segues"]?["covered"]?.array ?? []).allSatisfy { $0["performed"]?.number == 1 })
        #expect(mail["presentationStyles"]?.object?.map(\.0) == ["formSheet"])
        let containers = try #require(mail["containerOperations"]?.array)
        #expect(containers.count == 1)
        #expect(containers.first?["scene"]?.string == "nav-vc")
        #expect(containers.first?["line"]?.number == Double(try Self.line(of: "nav-vc")))
        #expect(containers.first?["operations"] == .object([("pop", .number(1)), ("push", .number(2))]))
        #expect(report["segues"] == .object([("total", .number(7)), ("performed", .number(4))]))
    }

    /// The same flows against a server (`--base`) give the same report: it is built from the
    /// replies, which both paths share, not from the in-process service.
    @Test func aServerGivesTheSameCoverageAsInProcess() throws {
        let scratch = try Scratch()
        let service = try NavSimService(
            store: SessionStore(path: scratch.url.appendingPathComponent("db.sqlite").path, migrationsDirectory: Checkout.migrations),
            openAPI: [])
        let server = try HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), handler: service.handle)
        defer { server.stop() }
        let local = scratch.url.appendingPathComponent("local.json").path
        let remote = scratch.url.appendingPathComponent("remote.json").path
        let first = try navsim(["test", "--coverage", local, Self.flows], scratch: scratch)
        let second = try navsim(["test", "--base", "http://127.0.0.1:\(server.port)", "--coverage", remote, Self.flows], scratch: scratch)
        #expect(first.status == 0 && second.status == 0, "\(first.lines) \(second.lines)")
        #expect(try read(local) == read(remote))
        #expect(try read(remote)["segues"]?["performed"]?.number == 4)
    }

    /// Cobertura by extension: valid against coverage-04.dtd, one `<line>` per segue line with
    /// its hits, the file named as the repository names it.
    @Test func coberturaIsValidAndMarksEachSegueLine() throws {
        let scratch = try Scratch()
        let out = scratch.url.appendingPathComponent("coverage.xml").path
        let run = try navsim(["test", "--coverage", out, Self.flows], scratch: scratch)
        #expect(run.status == 0, "\(run.lines)")
        var text = try String(contentsOfFile: out, encoding: .utf8)
        // Validate against the DTD given inline, so that libxml2 fetches nothing.
        let dtd = try String(
            contentsOf: Checkout.root.appendingPathComponent("Tests/Schemas/cobertura/coverage-04.dtd"), encoding: .utf8)
        let doctype = try #require(text.range(of: "<!DOCTYPE coverage SYSTEM \"http://cobertura.sourceforge.net/xml/coverage-04.dtd\">"))
        text.replaceSubrange(doctype, with: "<!DOCTYPE coverage [\n\(dtd)\n]>")
        let document = try XMLDocument(data: Data(text.utf8))
        try document.validate()
        // The check has teeth: a line without its required `hits` is refused.
        let broken = try XMLDocument(data: Data(text.replacingOccurrences(of: " hits=\"0\"", with: "").utf8))
        #expect(throws: (any Error).self) { try broken.validate() }
        let classes = try document.nodes(forXPath: "//class") as? [XMLElement] ?? []
        #expect(classes.map { $0.attribute(forName: "filename")?.stringValue } == [Self.storyboard])
        let lines = try document.nodes(forXPath: "//class/lines/line") as? [XMLElement] ?? []
        let marks = lines.map { "\($0.attribute(forName: "number")?.stringValue ?? "?")=\($0.attribute(forName: "hits")?.stringValue ?? "?")" }
        let expected = try [
            ("inbox-about", 1), ("inbox-help", 0), ("inbox-message", 1), ("inbox-compose", 1), ("inbox-quick", 0),
            ("message-unwind", 0), ("compose-unwind", 1),
        ].map { "\(try Self.line(of: $0.0))=\($0.1)" }
        #expect(marks == expected)
        let root = try #require(document.rootElement())
        #expect(root.attribute(forName: "lines-valid")?.stringValue == "7")
        #expect(root.attribute(forName: "lines-covered")?.stringValue == "4")
        #expect(root.attribute(forName: "line-rate")?.stringValue == "0.5714")
    }

    /// `--coverage-sarif`: one `uncovered-segue` result per segue no flow performed, at its place.
    @Test func sarifListsTheUncoveredSegues() throws {
        let scratch = try Scratch()
        let out = scratch.url.appendingPathComponent("coverage.sarif").path
        let run = try navsim(["test", "--coverage-sarif", out, Self.flows], scratch: scratch)
        #expect(run.status == 0, "\(run.lines)")
        let log = try read(out)
        #expect(log["version"]?.string == "2.1.0")
        let runs = try #require(log["runs"]?.array)
        #expect(runs.first?["tool"]?["driver"]?["rules"]?.array?.first?["id"]?.string == "uncovered-segue")
        let results = runs.first?["results"]?.array ?? []
        let found = results.map { r -> String in
            let region = r["locations"]?.array?.first?["physicalLocation"]?["region"]
            let uri = r["locations"]?.array?.first?["physicalLocation"]?["artifactLocation"]?["uri"]?.string ?? "?"
            return "\(r["ruleId"]?.string ?? "?") \(uri):\(Int(region?["startLine"]?.number ?? 0))"
        }
        let expected = try ["inbox-help", "inbox-quick", "message-unwind"].map { "uncovered-segue \(Self.storyboard):\(try Self.line(of: $0))" }
        #expect(found == expected)
        #expect(results.allSatisfy { ($0["message"]?["text"]?.string ?? "").contains("No flow performed") })
    }

    /// A report that cannot be written is a usage error before any flow plays.
    @Test func aReportWithNowhereToGoIsAUsageError() throws {
        let scratch = try Scratch()
        let out = scratch.url.appendingPathComponent("missing/coverage.json").path
        let run = try navsim(["test", "--coverage", out, Self.flows], scratch: scratch)
        #expect(run.status == 2)
        #expect(run.lines.count == 1)
        #expect(run.lines.first?.hasPrefix("navsim: test: cannot write \(out): ") == true, "\(run.lines)")
        let folder = try navsim(["test", "--coverage-sarif", scratch.url.path, Self.flows], scratch: scratch)
        #expect(folder.status == 2)
        #expect(folder.lines == ["navsim: test: cannot write \(scratch.url.path): it is a folder"])
    }
}

/// The recorder on its own, with a storyboard written inline in the flow.
@Suite("Coverage recorder")
struct CoverageRecorderTests {
    /// Inline XML is reported as `FLOW#NAME`; a segue `shouldPerformSegue` vetoes is not
    /// performed; inside a turn, `operations[i]` tells apart two segues without an identifier
    /// that lead to the same scene (inbox-about and inbox-help both lead to about-vc).
    @Test func inlineStoryboardsTurnsAndVetoes() throws {
        let xml = try String(contentsOf: CoverageTests.fixtures.appendingPathComponent("Mail.storyboard"), encoding: .utf8)
        let body = String(decoding: JSON.string(xml).bytes, as: UTF8.self)
        let flow = try #require(
            try flows(
                """
                {"name": "inline", "steps": [
                  {"do": "PUT /v1/storyboards/m-${run}", "xml": \(body.replacingOccurrences(of: "${", with: "$${"))},
                  {"do": "POST /v1/sessions", "body": {"id": "c-${run}", "options": {"transitions": "immediate"},
                     "root": {"storyboard": "m-${run}"}}, "save": {"sid": "id"}},
                  {"do": "PATCH /v1/sessions/${sid}/controllers/inbox-vc", "body": {"shouldPerformSegue": {"showMessage": false}}},
                  {"do": "POST /v1/sessions/${sid}/controllers/inbox-vc/triggerSegue", "body": {"segue": "showMessage"},
                   "expect": {"events": ["inbox-vc.shouldPerformSegue"]}},
                  {"do": "POST /v1/sessions/${sid}/turns", "body": {"operations": [
                     {"controller": "inbox-vc", "operation": "triggerSegue", "segue": "inbox-help"}]},
                   "expect": {"json": {"session.window.visibleViewController": "about-vc"}}}
                ]}
                """, file: "flows/inline.json"
            ).first)
        let recorder = CoverageRecorder()
        let result = FlowRunner(observer: recorder).play(flow, on: try InProcessTarget(migrationsDirectory: Checkout.migrations))
        #expect(result.passed, "\(result.line)")
        let report = recorder.report()
        #expect(report.storyboards.map(\.file) == ["flows/inline.json#m-${run}"])
        let performed = report.storyboards.first?.segues.filter { $0.performed > 0 }.map(\.id)
        #expect(performed == ["inbox-help"])
        #expect(report.storyboards.first?.presentationStyles.values.reduce(0, +) == 1)
        // Inline storyboards have no file whose lines a viewer could mark.
        #expect(!report.cobertura().contains("<class "))
        let sarif = try JSON.parse(Array(report.sarif.utf8))
        #expect(sarif["runs"]?.array?.first?["results"]?.array?.isEmpty == true)
    }
}

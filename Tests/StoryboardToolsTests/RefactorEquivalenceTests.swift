import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HTTPServer
import JSONValues
import Storyboards
import Testing
import TestSupport

@testable import NavSimService
@testable import StoryboardTools
import SQLiteStore
import NavigationCore
import Synchronization

// Behaviour preserved, proved (docs/refactor.md): every scene entered by a segue is refactored into a new
// storyboard, one at a time (with its containment children, which must move with it), plus a few
// multi-scene selections; for each refactor every identified segue of the source is performed
// before and after on an in-process NavSimService, and the replies (transition, events, session
// state) must be the same, ids aside.

private let repositoryRoot = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// One in-process service on a fresh database.
final class ServiceHarness {
    let directory: String
    let service: NavSimService

    init() throws {
        directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("RefactorEquivalence-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        service = try NavSimService(
            store: SessionStore(
                path: (directory as NSString).appendingPathComponent("navsim.sqlite"),
                migrationsDirectory: repositoryRoot.appendingPathComponent("migrations").path),
            openAPI: [])
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func send(_ method: String, _ path: String, _ body: [UInt8] = [], type: String = "application/json") -> (status: Int, json: JSON) {
        var headers = HTTPHeaders()
        if !body.isEmpty { headers.add("Content-Type", type) }
        let response = service.handle(HTTPRequest(method: method, path: path, query: [:], headers: headers, body: body))
        return (response.status, response.body.isEmpty ? .null : (try? JSON.parse(response.body)) ?? .null)
    }

    /// The stored XML of a storyboard, as the catalog holds it.
    func xml(_ name: String) -> [UInt8] {
        service.storyboards.contents.withLock { $0.xml[name] ?? [] }
    }

    func json(_ method: String, _ path: String, _ value: JSON) -> (status: Int, json: JSON) {
        send(method, path, value.bytes)
    }
}

/// Gives every controller without a Storyboard ID its element id as one, so that every scene can
/// be a session's root (`{"storyboard", "identifier"}`) and controller ids are the element ids
/// before and after. Storyboard references are left alone.
func stampIdentifiers(_ xml: [UInt8]) throws -> [UInt8] {
    let document = try XMLDocument(data: Data(xml), options: [.nodePreserveAll])
    var taken = Set<String>()
    let controllers = try document.nodes(forXPath: "//*[@sceneMemberID='viewController']").compactMap { $0 as? XMLElement }
    for element in controllers { if let id = element.attribute(forName: "storyboardIdentifier")?.stringValue { taken.insert(id) } }
    for element in controllers where element.name != "viewControllerPlaceholder" {
        guard element.attribute(forName: "storyboardIdentifier")?.stringValue?.isEmpty ?? true,
            let id = element.attribute(forName: "id")?.stringValue, !taken.contains(id)
        else { continue }
        taken.insert(id)
        element.addAttribute(XMLNode.attribute(withName: "storyboardIdentifier", stringValue: id) as! XMLNode)
    }
    return Array(document.xmlData(options: [.nodePreserveAll]))
}

/// The scenes to move for one selection: the scenes and, transitively, their relationship and
/// embed children (which UIKit instantiates with them, R102).
func closure(_ ids: [String], in storyboard: Storyboard) -> [String] {
    var out: [String] = []
    var queue = ids
    while let id = queue.first {
        queue.removeFirst()
        guard !out.contains(id), let scene = storyboard.scene(id: id) else { continue }
        out.append(id)
        queue += scene.segues.filter { $0.kind == .relationship || $0.kind == .embed }.compactMap(\.destination)
    }
    return out
}

/// What one performed segue did, with session ids and storyboard names taken out.
func fingerprint(_ reply: (status: Int, json: JSON), session: String, names: [String: String]) -> String {
    var text = "\(reply.status) " + reply.json.text.replacingOccurrences(of: session, with: "<session>")
    for (from, to) in names { text = text.replacingOccurrences(of: "\"\(from)\"", with: "\"\(to)\"") }
    // Timestamps (`createdAt`, …) differ between any two sessions.
    return text.replacingOccurrences(of: #""[A-Za-z]*At":"[0-9T:.Z+-]*""#, with: "<time>", options: .regularExpression)
}

struct EquivalenceCounts {
    var refactors = 0
    var refused = 0
    var seguesChecked = 0
    var entryPointsChecked = 0
    var mismatches: [String] = []
}

/// Runs the equivalence over one app (files uploaded together).
func checkApp(_ files: [(name: String, xml: [UInt8])], counts: inout EquivalenceCounts) throws {
    let stamped = try files.map { (name: $0.name, xml: try stampIdentifiers($0.xml)) }
    let harness = try ServiceHarness()
    var parsed: [String: Storyboard] = [:]
    for file in stamped {
        let reply = harness.send("PUT", "/v1/storyboards/\(file.name)", file.xml, type: "application/xml")
        guard reply.status == 200 || reply.status == 201 else { continue }
        parsed[file.name] = try StoryboardParser.parse(name: file.name, data: file.xml)
    }
    for file in stamped {
        guard let storyboard = parsed[file.name] else { continue }
        // Segues to check: identified, performable by identifier, from a real controller.
        let segues = storyboard.scenes.filter { !$0.isReference }.flatMap { scene in
            scene.segues.filter { segue in
                segue.identifier != nil && ![.unwind, .relationship, .embed].contains(segue.kind)
            }.map { (scene: scene, segue: $0) }
        }
        func performAll(movedInto newName: String?, moved: Set<String>) -> [String] {
            // The entry point first: `{"storyboard"}` alone instantiates the initial controller (R102).
            let initial = harness.json(
                "POST", "/v1/sessions",
                .object([
                    ("options", .object([("transitions", .string("immediate"))])),
                    ("root", .object([("storyboard", .string(file.name))])),
                ]))
            let initialID = initial.json["id"]?.string ?? "-"
            _ = harness.send("DELETE", "/v1/sessions/\(initialID)")
            return [fingerprint(initial, session: initialID, names: newName.map { [$0: file.name] } ?? [:])]
                + segues.map { item in
                    let home = moved.contains(item.scene.id) ? newName! : file.name
                    let session = harness.json(
                        "POST", "/v1/sessions",
                        .object([
                            ("options", .object([("transitions", .string("immediate"))])),
                            (
                                "root",
                                .object([
                                    ("storyboard", .string(home)),
                                    ("identifier", .string(item.scene.storyboardIdentifier ?? item.scene.id)),
                                ])
                            ),
                        ]))
                    guard session.status == 201, let sid = session.json["id"]?.string else {
                        return "session \(session.status) \(session.json["type"]?.string ?? "")"
                    }
                    let controller = item.scene.storyboardIdentifier ?? item.scene.id
                    let reply = harness.json(
                        "POST", "/v1/sessions/\(sid)/controllers/\(controller.percentEncodedPathSegment)/performSegue",
                        .object([("identifier", .string(item.segue.identifier!))]))
                    _ = harness.send("DELETE", "/v1/sessions/\(sid)")
                    return fingerprint(reply, session: sid, names: newName.map { [$0: file.name] } ?? [:])
                }
        }
        guard !segues.isEmpty else { continue }
        let before = performAll(movedInto: nil, moved: [])

        var selections: [[String]] = []
        let entered = storyboard.scenes.filter { scene in
            !scene.isReference
                && storyboard.allSegues.contains {
                    $0.segue.destination == scene.id && ![.unwind, .relationship, .embed].contains($0.segue.kind)
                }
        }.map(\.id)
        selections += entered.map { closure([$0], in: storyboard) }
        if entered.count >= 2 { selections.append(closure(Array(entered.prefix(2)), in: storyboard)) }
        if entered.count >= 4 { selections.append(closure(Array(entered.suffix(3)), in: storyboard)) }

        let newName = "Refactored\(file.name.filter { $0.isLetter || $0.isNumber })"
        var seen = Set<Set<String>>()
        for selection in selections where seen.insert(Set(selection)).inserted {
            let reply = harness.json(
                "POST", "/v1/storyboards/\(file.name.percentEncodedPathSegment)/refactor",
                .object([
                    ("scenes", .array(selection.map { .string($0) })), ("into", .string(newName)),
                ]))
            if reply.status == 409, reply.json["type"]?.string == "/v1/problems/refactor-refused" { counts.refused += 1; continue }
            guard reply.status == 200 else {
                counts.mismatches.append("\(file.name) \(selection): refactor answered \(reply.status) \(reply.json.text)")
                continue
            }
            counts.refactors += 1
            // Valid Interface Builder XML with no new diagnostics, moved scenes keeping their ids.
            let source = try StoryboardParser.parse(name: file.name, data: harness.xml(file.name))
            let extracted = try StoryboardParser.parse(name: newName, data: harness.xml(newName))
            for id in selection where extracted.scene(id: id) == nil {
                counts.mismatches.append("\(file.name) moving \(selection): '\(id)' lost its id")
            }
            var folder = StoryboardLibrary(Array(parsed.values))
            let codesBefore = parsed.keys.flatMap { folder.diagnostics(for: $0).map(\.code.rawValue) }.sorted()
            folder.insert(source)
            folder.insert(extracted)
            let codesAfter = folder.names.flatMap { folder.diagnostics(for: $0).map(\.code.rawValue) }.sorted()
            if codesAfter != codesBefore {
                counts.mismatches.append("\(file.name) moving \(selection): diagnostics \(codesBefore) became \(codesAfter)")
            }
            let after = performAll(movedInto: newName, moved: Set(selection))
            for (index, (old, new)) in zip(before, after).enumerated() where old != new {
                let what = index == 0 ? "the entry point" : "segue '\(segues[index - 1].segue.id)'"
                counts.mismatches.append("\(file.name) moving \(selection), \(what):\n  before \(old.prefix(2000))\n  after  \(new.prefix(2000))")
            }
            counts.seguesChecked += segues.count
            counts.entryPointsChecked += 1
            // Restore the source for the next selection.
            _ = harness.send("PUT", "/v1/storyboards/\(file.name.percentEncodedPathSegment)", file.xml, type: "application/xml")
            _ = harness.send("DELETE", "/v1/storyboards/\(newName)")
        }
    }
}

@Suite struct RefactorEquivalenceTests {
    func run(_ corpus: StoryboardCorpus) throws -> EquivalenceCounts {
        var counts = EquivalenceCounts()
        for app in corpus.apps {
            let files = try app.map { (name: $0.name, xml: try corpus.data($0)) }
            try checkApp(files, counts: &counts)
        }
        print(
            "refactor equivalence (\(corpus.title)): \(counts.refactors) refactors, \(counts.refused) refused, "
                + "\(counts.seguesChecked) segues and \(counts.entryPointsChecked) entry points checked, "
                + "\(counts.mismatches.count) mismatches")
        return counts
    }

    @Test func fixturesBehaveTheSameAfterRefactoring() throws {
        let counts = try run(try StoryboardCorpus.fixtures.get())
        #expect(counts.refactors > 50)
        #expect(counts.seguesChecked > 100)
        #expect(counts.mismatches.isEmpty, "\(counts.mismatches.prefix(2).joined(separator: "\n"))")
    }

    @Test(.enabled(if: StoryboardCorpus.sharedIsPresent))
    func sharedCorpusBehavesTheSameAfterRefactoring() throws {
        let corpus = try #require(StoryboardCorpus.shared).get()
        let counts = try run(corpus)
        #expect(counts.mismatches.isEmpty, "\(counts.mismatches.prefix(2).joined(separator: "\n"))")
    }
}

import Flows
import Foundation
import FoundationXML
import HTTPServer
import NavSimService
import ProcessSpawning
import Synchronization
import JSONValues
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

import Flows
import Foundation
import HTTPServer
import JSONValues
import NavSimService
import SQLiteStore
import Testing

/// `navsim record` on a session a previous release stored (Tests/Fixtures/Databases/main.sqlite,
/// whose `nav` and `tabs` were created without `options`, so on that release's default, iOS 17):
/// the flow names the session's release, so it replays as recorded whatever the default is now.
@Suite("Recording a session stored before the default release changed")
struct RecordStoredReleaseTests {
    /// A service on a copy of a fixture database, driven in process as `InProcessTarget` is.
    final class FixtureTarget: FlowTarget {
        let service: NavSimService
        let folder: URL

        init(_ fixture: String) throws {
            let fm = FileManager.default
            folder = fm.temporaryDirectory.appendingPathComponent("navsim-record-\(UUID().uuidString)")
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("\(fixture).sqlite").path
            try fm.copyItem(atPath: Checkout.root.appendingPathComponent("Tests/Fixtures/Databases/\(fixture).sqlite").path, toPath: path)
            service = try NavSimService(
                store: SessionStore(path: path, migrationsDirectory: Checkout.migrations), openAPI: Array("openapi: 3.1.0\n".utf8))
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        func send(_ request: HTTPRequest) throws(FlowTargetError) -> HTTPResponse {
            var r = request
            // The recorder's targets carry their query in the path, as a client sends them.
            let url = URLComponents(string: request.path)
            r.path = url?.path ?? request.path
            r.query = Dictionary((url?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
            return service.handle(r)
        }
    }

    /// `tabs` was stored before the More navigation controller had its list (R165): its flow
    /// names the release all the same, but replays to a More stack with the list, a difference of
    /// rules that docs/history.md ("Rules versions") describes, so only `nav` is played.
    @Test(arguments: [("nav", true), ("tabs", false)])
    func aRecordedFlowReplaysOnTheReleaseTheSessionWasCreatedOn(session: String, replays: Bool) throws {
        let stored = try FixtureTarget("main")
        let recorded = try Recorder().record(session: session, on: stored)
        let creation = recorded["steps"]?.array?.first { $0["do"]?.string == "POST /v1/sessions" }
        #expect(creation?["body"]?["options"]?["iOS"]?.string == "17", "\(PrettyJSON.text(recorded).prefix(600))")
        guard replays else { return }
        let flow = try #require(try flows(PrettyJSON.text(recorded), file: "\(session).json").first)
        let result = FlowRunner().play(flow, on: try InProcessTarget(migrationsDirectory: Checkout.migrations))
        #expect(result.passed, "\(result.line)")
    }
}

import Foundation
import HTTPServer
import JSONValues
import Testing

import NavSimService
import SessionStorage
import SQLiteStore

/// Databases written by earlier releases (Tests/Fixtures/Databases: `today.sqlite` by an early
/// one, `main.sqlite` by the release before the storage targets; make-fixture.py beside them says
/// how) open with this code and read back as those releases read them: every recorded reply,
/// byte for byte. `PostgresFixtureTests` does the same for PostgreSQL.
@Suite("A database written by the previous release reads back identically")
struct PersistenceFixtureTests {
    static let folder = ServiceFiles.root.appendingPathComponent("Tests/Fixtures/Databases")

    struct Recorded { var path: String; var status: Int; var body: String }

    static func recorded(_ name: String = "today") throws -> [Recorded] {
        let data = try #require(FileManager.default.contents(atPath: folder.appendingPathComponent("\(name)-replies.json").path))
        let items = try #require(try JSON.parse(Array(data), maxContainers: 1_000_000).array)
        return try items.map { item in
            Recorded(
                path: try #require(item["path"]?.string), status: Int(try #require(item["status"]?.number)),
                body: try #require(item["body"]?.string))
        }
    }

    /// Sends each recorded GET to `service` and records an issue for the first few that differ;
    /// returns how many differ.
    static func differing(_ service: NavSimService, from replies: [Recorded]) -> Int {
        var differing = 0
        for r in replies {
            let (status, body) = get(service, r.path)
            if status != r.status || body != r.body {
                differing += 1
                if differing <= 3 {
                    let at = zip(body, r.body).prefix { $0 == $1 }.count
                    Issue.record(
                        "GET \(r.path): \(status) vs recorded \(r.status); first difference at character \(at): now …\(body.dropFirst(max(0, at - 80)).prefix(200))… recorded …\(r.body.dropFirst(max(0, at - 80)).prefix(200))…"
                    )
                }
            }
        }
        return differing
    }

    @Test(arguments: ["today", "main"])
    func everyRecordedReplyIsTheSame(fixture: String) throws {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("Fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = (directory as NSString).appendingPathComponent("\(fixture).sqlite")
        try FileManager.default.copyItem(atPath: Self.folder.appendingPathComponent("\(fixture).sqlite").path, toPath: path)
        let service = try ServiceHarness.open(path)
        let replies = try Self.recorded(fixture)
        #expect(replies.count > 50)
        let differing = Self.differing(service, from: replies)
        #expect(differing == 0, "\(differing) of \(replies.count) replies differ")
    }

    /// GET `target` (which may carry a query) on `service`: the status and body.
    static func get(_ service: NavSimService, _ target: String) -> (Int, String) {
        var path = target
        var query: [String: String] = [:]
        if let q = target.firstIndex(of: "?") {
            path = String(target[..<q])
            for pair in target[target.index(after: q)...].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                query[String(kv[0])] = kv.count > 1 ? String(kv[1]) : ""
            }
        }
        let r = service.handle(HTTPRequest(method: "GET", path: path, query: query, headers: HTTPHeaders(), body: []))
        return (r.status, String(decoding: r.body, as: UTF8.self))
    }

    /// A session of the previous release that this code changes holds rows of both ages (the
    /// controllers it did not touch and the old history stay format 1 as written); reopened, it
    /// reads back as it did before the restart, every version included.
    @Test func aSessionContinuedByThisReleaseReadsBackIdentically() throws {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("Fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = (directory as NSString).appendingPathComponent("today.sqlite")
        try FileManager.default.copyItem(atPath: Self.folder.appendingPathComponent("today.sqlite").path, toPath: path)
        let version = 9  // the fixture's `nav` is at 8; one push more
        let targets =
            (0...version).map { "/v1/sessions/nav?version=\($0)" }
            + ["/v1/sessions/nav", "/v1/sessions/nav/history", "/v1/sessions/nav/history?after=7&limit=5"]
        var before: [(Int, String)] = []
        do {
            let service = try ServiceHarness.open(path)
            let body = Array(#"{"viewController": {"id": "later", "title": "Later", "prefersStatusBarHidden": true}}"#.utf8)
            var headers = HTTPHeaders()
            headers.add("Content-Type", "application/json")
            let push = service.handle(
                HTTPRequest(
                    method: "POST", path: "/v1/sessions/nav/controllers/nav/push", query: [:],
                    headers: headers, body: body))
            #expect(push.status == 200, "\(String(decoding: push.body, as: UTF8.self))")
            let stored = try #require(try service.sqlite.loadSessions().first { $0.session.id == "nav" })
            #expect(stored.controllers.allSatisfy { $0.format == 1 } && stored.session.format == StoredFormat.current)
            before = targets.map { Self.get(service, $0) }
        }
        #expect(before.allSatisfy { $0.0 == 200 }, "\(before.map(\.0))")
        #expect(before[version].1.contains(#""later""#))
        let reopened = try ServiceHarness.open(path)
        for (target, old) in zip(targets, before) {
            let now = Self.get(reopened, target)
            #expect(now == old, "GET \(target) after reopening")
        }
    }
}

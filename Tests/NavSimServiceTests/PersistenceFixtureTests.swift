import Foundation
import HTTPServer
import Testing

@testable import NavSimService

/// A database written by an earlier release (Tests/Fixtures/Databases/today.sqlite, made by
/// make-fixture.py beside it) opens with this code and reads back as that release read it:
/// every recorded reply, byte for byte.
@Suite("A database written by the previous release reads back identically")
struct PersistenceFixtureTests {
    static let folder = ServiceFiles.root.appendingPathComponent("Tests/Fixtures/Databases")

    struct Recorded { var path: String; var status: Int; var body: String }

    static func recorded() throws -> [Recorded] {
        let data = try #require(FileManager.default.contents(atPath: folder.appendingPathComponent("today-replies.json").path))
        let items = try #require(try JSON.parse(Array(data), maxContainers: 1_000_000).array)
        return try items.map { item in
            Recorded(path: try #require(item["path"]?.string), status: Int(try #require(item["status"]?.number)),
                     body: try #require(item["body"]?.string))
        }
    }

    @Test func everyRecordedReplyIsTheSame() throws {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("Fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = (directory as NSString).appendingPathComponent("today.sqlite")
        try FileManager.default.copyItem(atPath: Self.folder.appendingPathComponent("today.sqlite").path, toPath: path)
        let service = try ServiceHarness.open(path)
        let replies = try Self.recorded()
        #expect(replies.count > 50)
        var differing = 0
        for r in replies {
            var target = r.path
            var query: [String: String] = [:]
            if let q = r.path.firstIndex(of: "?") {
                target = String(r.path[..<q])
                for pair in r.path[r.path.index(after: q)...].split(separator: "&") {
                    let kv = pair.split(separator: "=", maxSplits: 1)
                    query[String(kv[0])] = kv.count > 1 ? String(kv[1]) : ""
                }
            }
            let response = service.handle(HTTPRequest(method: "GET", path: target, query: query, headers: HTTPHeaders(), body: []))
            let body = String(decoding: response.body, as: UTF8.self)
            if response.status != r.status || body != r.body {
                differing += 1
                if differing <= 3 {
                    let at = zip(body, r.body).prefix { $0 == $1 }.count
                    Issue.record("GET \(r.path): \(response.status) vs recorded \(r.status); first difference at character \(at): now …\(body.dropFirst(max(0, at - 80)).prefix(200))… recorded …\(r.body.dropFirst(max(0, at - 80)).prefix(200))…")
                }
            }
        }
        #expect(differing == 0, "\(differing) of \(replies.count) replies differ")
    }
}

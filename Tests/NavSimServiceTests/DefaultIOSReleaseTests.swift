import Foundation
import HTTPServer
import JSONValues
import NavigationCore
import Testing

import NavSimService

/// The release a session reproduces when its client names none (`IOSRelease.default`,
/// docs/ios-profiles.md), and the release a session stored before that default changed keeps.
@Suite("The default iOS profile (R18, R118)")
struct DefaultIOSReleaseTests {
    /// The callbacks of a reply as `controller.callback` strings.
    static func events(_ reply: JSON?) -> [String] {
        (reply?["events"]?.array ?? []).map { "\($0["controller"]?.string ?? "?").\($0["callback"]?.string ?? "?")" }
    }

    /// A session created without `options` reproduces iOS 26: its reply and GET name the release,
    /// `automatic` resolves to a form sheet (R18) and a first appearance reports `updateProperties`
    /// right after `viewIsAppearing` (R118), also after a restart.
    @Test func aSessionWithoutOptionsReproducesIOS26() throws {
        let h = try ServiceHarness()
        let made = h.send(
            "POST", "/v1/sessions",
            #"{"id": "plain", "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"id": "home"}]}}"#)
        #expect(made.status == 201, "\(made)")
        #expect(made["options"]?["iOS"]?.string == "26", "\(made)")
        let launch = Self.events(made.json)
        #expect(launch.firstIndex(of: "home.updateProperties").map { launch[$0 - 1] } == "home.viewIsAppearing", "\(launch)")

        let pushed = h.ok("POST", "/v1/sessions/plain/controllers/nav/push", #"{"viewController": {"id": "detail"}}"#)
        let list = Self.events(pushed.json)
        #expect(list.firstIndex(of: "detail.updateProperties").map { list[$0 - 1] } == "detail.viewIsAppearing", "\(list)")

        let presented = h.ok("POST", "/v1/sessions/plain/controllers/detail/present", #"{"viewController": {"id": "sheet"}}"#)
        #expect(presented["transition"]?["presentationStyle"]?.string == "formSheet", "\(presented)")

        try h.restart()
        let read = h.ok("GET", "/v1/sessions/plain")
        #expect(read["options"]?["iOS"]?.string == "26", "\(read)")
        #expect(read["controllers"]?["sheet"]?["presentation"]?["style"]?.string == "formSheet", "\(read)")
    }

    /// Databases written before the default changed (Tests/Fixtures/Databases: `today.sqlite` and
    /// `main.sqlite`, whose `tabs` session was created without `options`) keep iOS 17: the session
    /// reads back as `"17"`, and continued now it presents `automatic` as a page sheet with no
    /// `updateProperties`, as a replay of its history does.
    @Test(arguments: ["today", "main"])
    func aSessionStoredWithoutAReleaseKeepsIOS17(fixture: String) throws {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("DefaultRelease-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = (directory as NSString).appendingPathComponent("\(fixture).sqlite")
        try FileManager.default.copyItem(atPath: PersistenceFixtureTests.folder.appendingPathComponent("\(fixture).sqlite").path, toPath: path)
        let service = try ServiceHarness.open(path)
        func send(_ method: String, _ target: String, _ body: String? = nil) -> (status: Int, json: JSON) {
            var path = target
            var query: [String: String] = [:]
            if let q = target.firstIndex(of: "?") {
                path = String(target[..<q])
                for pair in target[target.index(after: q)...].split(separator: "&") {
                    let kv = pair.split(separator: "=", maxSplits: 1)
                    query[String(kv[0])] = String(kv[1])
                }
            }
            var headers = HTTPHeaders()
            if body != nil { headers.add("Content-Type", "application/json") }
            let r = service.handle(
                HTTPRequest(method: method, path: path, query: query, headers: headers, body: Array((body ?? "").utf8)))
            return (r.status, (try? JSON.parse(r.body)) ?? .null)
        }

        let stored = send("GET", "/v1/sessions/tabs")
        #expect(stored.status == 200 && stored.json["options"]?["iOS"]?.string == "17", "\(stored)")

        let presented = send("POST", "/v1/sessions/tabs/controllers/tab0/present", #"{"viewController": {"id": "later"}}"#)
        #expect(presented.status == 200, "\(presented)")
        #expect(presented.json["transition"]?["presentationStyle"]?.string == "pageSheet", "\(presented)")
        let list = Self.events(presented.json)
        #expect(list.contains("later.viewIsAppearing") && !list.contains("later.updateProperties"), "\(list)")

        let version = try #require(presented.json["version"]?.number.map { Int($0) })
        let replayed = send("GET", "/v1/sessions/tabs?version=\(version)&replay=true")
        #expect(replayed.status == 200 && replayed.json["options"]?["iOS"]?.string == "17", "\(replayed)")
        #expect(replayed.json["controllers"]?["later"]?["presentation"]?["style"]?.string == "pageSheet", "\(replayed)")
    }
}

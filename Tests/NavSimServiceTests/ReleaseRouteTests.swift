import Foundation
import JSONValues
import Testing
import NavSimService
import HTTPServer

/// `DELETE …/controllers/{cid}` and the `release` option (NavigationCore/Release.swift) through
/// the service: history, replies, and what a restart reads back.
@Suite(.serialized) struct ReleaseRouteTests {
    static func ids(_ j: JSON?) -> [String] { j?.array?.compactMap(\.string) ?? [] }

    @Test func releaseIsOneHistoryEntryAndAPastVersionStillShowsTheController() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.ok("POST", "/v1/sessions/s/controllers", #"{"id": "d"}"#, status: 201)
        let held = h.send("DELETE", "/v1/sessions/s/controllers/home")
        #expect(held.status == 409)
        #expect(held["type"]?.string == "/v1/problems/controller-held")
        #expect(h.version("s") == 1, "a refused release adds no entry")
        let r = h.send("DELETE", "/v1/sessions/s/controllers/d", nil, headers: [("If-Match", #""1""#)])
        #expect(r.status == 200)
        #expect(Self.ids(r["released"]) == ["d"])
        #expect(r.headers["etag"] == #""2""#)
        #expect(h.send("GET", "/v1/sessions/s/controllers/d").status == 404)
        #expect(h.send("GET", "/v1/sessions/s?version=1")["controllers"]?["d"] != nil)
        let stale = h.send("DELETE", "/v1/sessions/s/controllers/nav", nil, headers: [("If-Match", #""1""#)])
        #expect(stale.status == 412)
        let history = h.send("GET", "/v1/sessions/s/history?after=1")
        #expect(history["entries"]?.array?.first?["request"]?["method"]?.string == "DELETE")
        #expect(h.send("DELETE", "/v1/sessions/s/controllers/d").status == 404)
        #expect(h.send("DELETE", "/v1/sessions/s/controllers/home", #"{"x": 1}"#).status == 422)
    }

    @Test func automaticOptionAndClientReferencesSurviveARestart() throws {
        let h = try ServiceHarness()
        h.makeSession("a", options: #"{"release": "automatic"}"#)
        h.ok("POST", "/v1/sessions/a/controllers", #"{"id": "kept"}"#, status: 201)
        h.ok("POST", "/v1/sessions/a/controllers/nav/push", #"{"viewController": "kept", "animated": false}"#)
        try h.restart()
        #expect(h.send("GET", "/v1/sessions/a")["options"]?["release"]?.string == "automatic")
        let pop = h.ok("POST", "/v1/sessions/a/controllers/nav/pop", #"{"animated": false}"#)
        #expect(pop["released"] == nil, "the client still holds kept after the restart")
        let push = h.ok("POST", "/v1/sessions/a/controllers/nav/push", #"{"viewController": {"id": "inline"}, "animated": false}"#)
        #expect(push["released"] == nil)
        let pop2 = h.ok("POST", "/v1/sessions/a/controllers/nav/pop", #"{"animated": false}"#)
        #expect(Self.ids(pop2["released"]) == ["inline"])
        #expect(h.send("POST", "/v1/sessions", #"{"id": "b", "options": {"release": "sometimes"}}"#).status == 422)
        h.makeSession("m")
        #expect(h.send("GET", "/v1/sessions/m")["options"]?["release"] == nil, "manual, the default, is not shown")
    }

    /// The trial that crashed the server: a push queued behind a running push starts after m,
    /// which was on screen when it was queued, is released. The session must answer, advance,
    /// and load again after a restart (its stored history ends with the release).
    @Test(arguments: ["automatic", "manual"])
    func queuedPushStartsAfterARelease(release: String) throws {
        let h = try ServiceHarness()
        let s = "/v1/sessions/q"
        h.makeSession("q", options: #"{"transitions": "manual", "release": "\#(release)"}"#)
        h.ok("POST", "\(s)/controllers/nav/push", #"{"viewController": {"id": "p1"}}"#)
        h.ok("POST", "\(s)/controllers/home/present", #"{"viewController": {"id": "m", "modalPresentationStyle": "fullScreen"}}"#)
        let queued = h.ok("POST", "\(s)/controllers/nav/push", #"{"viewController": {"id": "p2"}}"#)["transition"]
        #expect(queued?["state"]?.string == "queued", "R81: the reply reports the queued push")
        let p2 = try #require(queued?["id"]?.string)
        h.ok("POST", "\(s)/transitions/t3/complete", "{}")
        let dismissal = try #require(h.ok("POST", "\(s)/controllers/home/dismiss", "{}")["transition"]?["id"]?.string)
        h.ok("POST", "\(s)/transitions/\(dismissal)/complete", "{}")
        if release == "manual" { #expect(Self.ids(h.ok("DELETE", "\(s)/controllers/m")["released"]) == ["m"]) }
        #expect(h.send("GET", "\(s)/controllers/m").status == 404)
        h.ok("POST", "\(s)/transitions/t2/complete", "{}")
        #expect(h.send("GET", "\(s)/transitions")["transitions"]?.array?.compactMap { $0["id"]?.string } == [p2], "p2's push started")
        h.ok("POST", "\(s)/transitions/\(p2)/complete", "{}")
        #expect(h.send("GET", "\(s)/transitions")["transitions"]?.array?.isEmpty == true)
        try h.restart()
        #expect(Self.ids(h.send("GET", "\(s)/controllers/nav")["viewControllers"]) == ["home", "p1", "p2"])
        h.ok("POST", "\(s)/controllers/nav/pop", #"{"animated": false}"#)
        #expect(Self.ids(h.send("GET", "\(s)/controllers/nav")["viewControllers"]) == ["home", "p1"], "the loaded session advances")
    }
}

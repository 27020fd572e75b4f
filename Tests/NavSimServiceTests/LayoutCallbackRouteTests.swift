import Foundation
import JSONValues
import Testing
import NavSimService
import HTTPServer

/// The `layoutCallbacks` option (R117) through the service: the creation reply, an operation's
/// reply, the history, a restart, and sessions without it.
@Suite(.serialized) struct LayoutCallbackRouteTests {
    static func events(_ j: JSON?) -> [String] {
        j?.array?.compactMap { e in
            guard let c = e["controller"]?.string, let cb = e["callback"]?.string else { return nil }
            return "\(c).\(cb)"
        } ?? []
    }

    @Test func theOptionReportsLayoutPassesInRepliesAndHistoryAndSurvivesARestart() throws {
        let h = try ServiceHarness()
        let created = h.makeSession("l", options: #"{"iOS": "17", "layoutCallbacks": true}"#)
        #expect(created["options"]?["layoutCallbacks"]?.bool == true)
        #expect(
            Self.events(created["events"]) == [
                "nav.viewDidLoad", "home.viewDidLoad",
                "nav.viewWillAppear", "nav.viewIsAppearing", "nav.viewWillLayoutSubviews", "nav.viewDidLayoutSubviews",
                "home.viewWillAppear", "home.viewIsAppearing", "home.viewWillLayoutSubviews", "home.viewDidLayoutSubviews",
                "nav.viewDidAppear", "home.viewDidAppear",
            ])
        let layout = created["events"]?.array?.first { $0["callback"]?.string == "viewWillLayoutSubviews" }
        #expect(layout?["animated"] == nil, "the layout methods take no argument")
        try h.restart()
        #expect(h.send("GET", "/v1/sessions/l")["options"]?["layoutCallbacks"]?.bool == true, "the option is stored")
        let push = h.ok("POST", "/v1/sessions/l/controllers/nav/push", #"{"viewController": {"id": "b"}, "animated": false}"#)
        #expect(
            Self.events(push["events"]) == [
                "b.willMoveToParent", "b.viewDidLoad", "home.viewWillDisappear",
                "b.viewWillAppear", "b.viewIsAppearing", "b.viewWillLayoutSubviews", "b.viewDidLayoutSubviews",
                "home.viewDidDisappear", "b.viewDidAppear", "b.didMoveToParent",
            ])
        let history = h.send("GET", "/v1/sessions/l/history?after=0")
        let entry = history["entries"]?.array?.first
        #expect(Self.events(entry?["events"]) == Self.events(push["events"]), "the history keeps what the reply said")
        let replay = h.send("GET", "/v1/sessions/l?version=1&replay=true")
        #expect(replay.status == 200)
        #expect(replay["options"]?["layoutCallbacks"]?.bool == true)
    }

    @Test func withoutTheOptionNothingChanges() throws {
        let h = try ServiceHarness()
        let created = h.makeSession("d")
        #expect(created["options"]?["layoutCallbacks"] == nil, "false, the default, is not shown")
        #expect(!Self.events(created["events"]).contains { $0.hasSuffix("LayoutSubviews") })
        let push = h.ok("POST", "/v1/sessions/d/controllers/nav/push", #"{"viewController": {"id": "b"}}"#)
        #expect(!Self.events(push["events"]).contains { $0.hasSuffix("LayoutSubviews") })
        let off = h.makeSession("f", options: #"{"iOS": "17", "layoutCallbacks": false}"#)
        #expect(off["options"]?["layoutCallbacks"] == nil)
        #expect(Self.events(off["events"]) == Self.events(created["events"]))
    }

    @Test func aValueThatIsNotABooleanIsRefusedAndCreatesNothing() throws {
        let h = try ServiceHarness()
        let r = h.send("POST", "/v1/sessions", #"{"id": "x", "options": {"layoutCallbacks": "yes"}}"#)
        #expect(r.status == 422)
        #expect(r["field"]?.string == "options.layoutCallbacks")
        #expect(h.send("GET", "/v1/sessions/x").status == 404)
    }
}

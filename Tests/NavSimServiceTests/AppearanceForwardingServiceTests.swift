import JSONValues
import Testing

/// R37 and R105 at the HTTP face: `shouldAutomaticallyForwardAppearanceMethods` on a spec and a
/// PATCH, the `beginAppearanceTransition` / `endAppearanceTransition` routes, their D21 warnings,
/// their bad bodies, and a begin's `animated` kept across a restart.
@Suite("manual appearance forwarding over HTTP")
struct AppearanceForwardingServiceTests {
    /// The callbacks of a reply as `controller.callback` strings.
    func events(_ reply: ServiceReply) -> [String] {
        (reply["events"]?.array ?? []).map { "\($0["controller"]?.string ?? "?").\($0["callback"]?.string ?? "?")" }
    }

    @Test func containerForwardsByHandThroughTheRoutes() throws {
        let h = try ServiceHarness()
        #expect(h.send("POST", "/v1/sessions", #"{"id": "s", "options": {"iOS": "17"}, "root": {"id": "home"}}"#).status == 201)
        let made = h.send(
            "POST", "/v1/sessions/s/controllers",
            #"{"id": "box", "shouldAutomaticallyForwardAppearanceMethods": false, "children": [{"id": "child"}]}"#)
        #expect(made.status == 200 || made.status == 201, "\(made)")
        let shown = h.send(
            "POST", "/v1/sessions/s/controllers/home/present",
            #"{"viewController": "box", "modalPresentationStyle": "fullScreen", "animated": false}"#)
        #expect(shown.status == 200, "\(shown)")
        #expect(!events(shown).contains { $0.hasPrefix("child.view") && $0 != "child.viewDidLoad" }, "\(events(shown))")
        #expect(events(shown).contains("box.viewDidAppear"), "\(events(shown))")
        let box = shown["session"]?["controllers"]?["box"]
        #expect(box?["shouldAutomaticallyForwardAppearanceMethods"]?.bool == false, "\(String(describing: box))")
        let child = shown["session"]?["controllers"]?["child"]
        #expect(child?["appearance"]?.string == "disappeared" && child?["viewInWindow"]?.bool == true, "\(String(describing: child))")
        // Controllers that keep the default do not list it.
        #expect(shown["session"]?["controllers"]?["home"]?["shouldAutomaticallyForwardAppearanceMethods"] == nil)

        let begin = h.send(
            "POST", "/v1/sessions/s/controllers/child/beginAppearanceTransition", #"{"isAppearing": true, "animated": true}"#)
        #expect(begin.status == 200, "\(begin)")
        #expect(events(begin) == ["child.viewWillAppear", "child.viewIsAppearing"], "\(begin)")
        #expect(begin["events"]?.array?.first?["animated"]?.bool == true)
        #expect(begin["transition"]?.isNull ?? true, "\(begin)")
        #expect(begin["session"]?["controllers"]?["child"]?["appearance"]?.string == "appearing")

        let end = h.send("POST", "/v1/sessions/s/controllers/child/endAppearanceTransition", "{}")
        #expect(events(end) == ["child.viewDidAppear"], "\(end)")
        #expect(end["events"]?.array?.first?["animated"]?.bool == true, "the begin's animated: \(end)")
        #expect(end["warnings"] == nil, "\(end)")

        // A second end has no begin: UIKit's log, nothing else.
        let stray = h.send("POST", "/v1/sessions/s/controllers/child/endAppearanceTransition", "{}")
        #expect(stray.status == 200 && events(stray).isEmpty, "\(stray)")
        let warning = stray["warnings"]?.array?.first
        #expect(warning?["uikit"]?["code"]?.string == "D21", "\(stray)")
        #expect(warning?["detail"]?.string == "Unbalanced calls to begin/end appearance transitions for <UIViewController: child>.", "\(stray)")

        // transition(from:to:) needs a container that forwards: D23, nothing changes.
        #expect(h.send("POST", "/v1/sessions/s/controllers/box/addChild", #"{"viewController": {"id": "other"}}"#).status == 200)
        let swap = h.send("POST", "/v1/sessions/s/controllers/box/transitionChild", #"{"from": "child", "to": "other"}"#)
        #expect(swap.status == 409 && swap["uikit"]?["code"]?.string == "D23", "\(swap)")

        // The begin's animated survives a restart, and the did carries it.
        #expect(
            h.send("POST", "/v1/sessions/s/controllers/child/beginAppearanceTransition", #"{"isAppearing": false, "animated": true}"#).status
                == 200)
        try h.restart()
        let gone = h.send("POST", "/v1/sessions/s/controllers/child/endAppearanceTransition", #"{"animated": false}"#)
        #expect(events(gone) == ["child.viewDidDisappear"], "\(gone)")
        #expect(gone["events"]?.array?.first?["animated"]?.bool == true, "\(gone)")

        // History keeps the new commands: a replay of every entry rebuilds the same child.
        if let version = gone["version"]?.number {
            let stored = h.send("GET", "/v1/sessions/s?version=\(Int(version))")
            let replayed = h.send("GET", "/v1/sessions/s?version=\(Int(version))&replay=true")
            #expect(stored.status == 200 && replayed.status == 200, "\(stored) \(replayed)")
            #expect(replayed["controllers"]?["child"] == stored["controllers"]?["child"], "\(replayed)")
            #expect(stored["controllers"]?["child"]?["appearance"]?.string == "disappeared", "\(stored)")
        } else {
            Issue.record("no version in \(gone)")
        }

        // PATCH turns forwarding back on; the reply stops listing the property.
        let patched = h.send("PATCH", "/v1/sessions/s/controllers/box", #"{"shouldAutomaticallyForwardAppearanceMethods": true}"#)
        #expect(patched.status == 200, "\(patched)")
        #expect(patched["session"]?["controllers"]?["box"]?["shouldAutomaticallyForwardAppearanceMethods"] == nil, "\(patched)")
    }

    @Test func badBodiesAreRefusedAndChangeNothing() throws {
        let h = try ServiceHarness()
        #expect(h.send("POST", "/v1/sessions", #"{"id": "s", "options": {"iOS": "17"}, "root": {"id": "home"}}"#).status == 201)
        let before = h.send("GET", "/v1/sessions/s")
        for body in ["{}", #"{"isAppearing": "yes"}"#, #"{"isAppearing": null}"#, #"{"isAppearing": true, "extra": 1}"#] {
            let r = h.send("POST", "/v1/sessions/s/controllers/home/beginAppearanceTransition", body)
            #expect(r.status == 422, "\(body): \(r)")
            #expect(r["type"]?.string == "/v1/problems/invalid-body", "\(body): \(r)")
        }
        let missing = h.send("POST", "/v1/sessions/s/controllers/nope/endAppearanceTransition", "{}")
        #expect(missing.status == 404, "\(missing)")
        let flag = h.send("PATCH", "/v1/sessions/s/controllers/home", #"{"shouldAutomaticallyForwardAppearanceMethods": "no"}"#)
        #expect(flag.status == 422, "\(flag)")
        #expect(h.send("GET", "/v1/sessions/s")["version"] == before["version"])
    }

    @Test func containerCodeForwardsInsideOneTurn() throws {
        let h = try ServiceHarness()
        #expect(h.send("POST", "/v1/sessions", #"{"id": "s", "options": {"iOS": "17"}, "root": {"id": "home"}}"#).status == 201)
        let shown = h.send(
            "POST", "/v1/sessions/s/controllers/home/present",
            #"""
            {"modalPresentationStyle": "fullScreen", "animated": false, "viewController": {
              "id": "box", "shouldAutomaticallyForwardAppearanceMethods": false, "children": [{"id": "child"}],
              "on": {"viewWillAppear": [{"operation": "beginAppearanceTransition", "receiver": "child", "isAppearing": true, "animated": false}],
                     "viewDidAppear": [{"operation": "endAppearanceTransition", "receiver": "child"}]}}}
            """#)
        #expect(shown.status == 200, "\(shown)")
        let list = events(shown)
        let order = ["box.viewWillAppear", "child.viewWillAppear", "box.viewDidAppear", "child.viewDidAppear"].map { list.firstIndex(of: $0) ?? -1 }
        #expect(!order.contains(-1) && order == order.sorted(), "\(list)")
        #expect(shown["session"]?["controllers"]?["child"]?["appearance"]?.string == "appeared", "\(shown)")
        let on = shown["session"]?["controllers"]?["box"]?["on"]?["viewWillAppear"]?.array?.first
        #expect(on?["operation"]?.string == "beginAppearanceTransition", "\(String(describing: on))")
    }
}

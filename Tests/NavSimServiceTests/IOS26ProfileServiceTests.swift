import JSONValues
import Testing

/// The iOS 26 profile at the HTTP face: `options.iOS` `"26"`, the `setNeedsUpdateProperties`
/// route and its `updateProperties` events (R118, R119), `interactivePop`'s `gesture` (R120),
/// their refusals, and a stale `updateProperties` kept across a restart and a replay.
@Suite("iOS 26 profile over HTTP")
struct IOS26ProfileServiceTests {
    /// The callbacks of a reply as `controller.callback` strings.
    func events(_ reply: ServiceReply) -> [String] {
        (reply["events"]?.array ?? []).map { "\($0["controller"]?.string ?? "?").\($0["callback"]?.string ?? "?")" }
    }

    let stack = #"{"kind": "navigationController", "id": "nav", "viewControllers": [{"id": "home"}]}"#

    @Test func updatePropertiesThroughTheRoutes() throws {
        let h = try ServiceHarness()
        let made = h.send("POST", "/v1/sessions", #"{"id": "s", "options": {"iOS": "26"}, "root": \#(stack)}"#)
        #expect(made.status == 201, "\(made)")
        #expect(made["options"]?["iOS"]?.string == "26", "\(made)")

        let pushed = h.send("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "detail"}}"#)
        #expect(pushed.status == 200, "\(pushed)")
        let list = events(pushed)
        let at = list.firstIndex(of: "detail.updateProperties")
        #expect(at != nil && at.map { list[$0 - 1] } == "detail.viewIsAppearing", "\(list)")

        // On screen: one update in the reply of the call.
        let asked = h.send("POST", "/v1/sessions/s/controllers/detail/setNeedsUpdateProperties", "{}")
        #expect(asked.status == 200 && events(asked) == ["detail.updateProperties"], "\(asked)")
        #expect(asked["transition"]?.isNull ?? true, "\(asked)")

        // Two calls in one turn: one update, in the outcome of the last call, after which the layout pass runs.
        let turn = h.send(
            "POST", "/v1/sessions/s/turns",
            #"{"operations": [{"controller": "detail", "operation": "setNeedsUpdateProperties"}, {"controller": "detail", "operation": "setNeedsUpdateProperties"}]}"#)
        #expect(turn.status == 200, "\(turn)")
        let outcomes = turn["results"]?.array ?? turn["outcomes"]?.array ?? []
        let perCall = outcomes.map { ($0["events"]?.array ?? []).compactMap { $0["callback"]?.string } }
        #expect(perCall == [[], ["updateProperties"]], "\(turn)")

        // Off screen: nothing now; the update waits for the next appearance, across a restart.
        let covered = h.send("POST", "/v1/sessions/s/controllers/home/setNeedsUpdateProperties", "{}")
        #expect(covered.status == 200 && events(covered).isEmpty, "\(covered)")
        try h.restart()
        let popped = h.send("POST", "/v1/sessions/s/controllers/nav/pop", "{}")
        let back = events(popped)
        let update = back.firstIndex(of: "home.updateProperties")
        #expect(update != nil && update.map { back[$0 - 1] } == "home.viewIsAppearing", "\(back)")

        // History keeps the operation: a replay rebuilds the same controllers.
        if let version = popped["version"]?.number {
            let stored = h.send("GET", "/v1/sessions/s?version=\(Int(version))")
            let replayed = h.send("GET", "/v1/sessions/s?version=\(Int(version))&replay=true")
            #expect(stored.status == 200 && replayed.status == 200, "\(stored) \(replayed)")
            #expect(replayed["controllers"] == stored["controllers"], "\(replayed)")
        } else {
            Issue.record("no version in \(popped)")
        }
    }

    @Test func contentSwipeThroughTheRoute() throws {
        let h = try ServiceHarness()
        for (sid, release) in [("new", "26"), ("old", "18")] {
            #expect(h.send("POST", "/v1/sessions", #"{"id": "\#(sid)", "options": {"iOS": "\#(release)"}, "root": \#(stack)}"#).status == 201)
            #expect(h.send("POST", "/v1/sessions/\(sid)/controllers/nav/push", #"{"viewController": {"id": "detail"}}"#).status == 200)
        }
        let swiped = h.send("POST", "/v1/sessions/new/controllers/detail/interactivePop", #"{"gesture": "content"}"#)
        #expect(swiped.status == 200, "\(swiped)")
        #expect(swiped["transition"]?["operation"]?.string == "interactivePop", "\(swiped)")
        #expect(swiped["session"]?["controllers"]?["nav"]?["viewControllers"]?.array?.count == 1, "\(swiped)")

        // Before iOS 26 the navigation controller has no content gesture: nothing happens.
        let before = h.send("GET", "/v1/sessions/old")
        let ignored = h.send("POST", "/v1/sessions/old/controllers/nav/interactivePop", #"{"gesture": "content"}"#)
        #expect(ignored.status == 200 && events(ignored).isEmpty, "\(ignored)")
        #expect(ignored["transition"]?.isNull ?? true, "\(ignored)")
        #expect(ignored["session"]?["controllers"] == before["controllers"], "\(ignored)")
        // The edge swipe is unchanged there.
        let edge = h.send("POST", "/v1/sessions/old/controllers/nav/interactivePop", #"{"gesture": "edge"}"#)
        #expect(edge["transition"]?["operation"]?.string == "interactivePop", "\(edge)")
    }

    @Test func badInputIsRefusedAndChangesNothing() throws {
        let h = try ServiceHarness()
        #expect(h.send("POST", "/v1/sessions", #"{"id": "s", "options": {"iOS": "18"}, "root": \#(stack)}"#).status == 201)
        #expect(h.send("POST", "/v1/sessions", #"{"id": "n", "options": {"iOS": "26"}, "root": \#(stack)}"#).status == 201)
        let before = h.send("GET", "/v1/sessions/s")
        // The method does not exist before iOS 26.
        let old = h.send("POST", "/v1/sessions/s/controllers/home/setNeedsUpdateProperties", "{}")
        #expect(old.status == 422 && old["type"]?.string == "/v1/problems/invalid-body", "\(old)")
        let detail: String = old["detail"]?.string ?? ""
        #expect(detail.contains("iOS 26"), "\(old)")
        for body in [#"{"gesture": "middle"}"#, #"{"gesture": 1}"#] {
            let r = h.send("POST", "/v1/sessions/s/controllers/nav/interactivePop", body)
            #expect(r.status == 422 && r["type"]?.string == "/v1/problems/invalid-body", "\(body): \(r)")
        }
        #expect(h.send("GET", "/v1/sessions/s")["version"] == before["version"])
        let extra = h.send("POST", "/v1/sessions/n/controllers/home/setNeedsUpdateProperties", #"{"extra": 1}"#)
        #expect(extra.status == 422, "\(extra)")
        #expect(h.send("POST", "/v1/sessions/n/controllers/nope/setNeedsUpdateProperties", "{}").status == 404)
        let release = h.send("POST", "/v1/sessions", #"{"id": "x", "options": {"iOS": "27"}}"#)
        #expect(release.status == 422, "\(release)")
    }
}

import JSONValues
import Testing

/// Custom navigation transitions, the transition coordinator's blocks and customised unwinds at
/// the HTTP face (R140–R148): the routes and fields, their refusals, and a running transition's
/// registrations kept across a restart and a replay.
@Suite("custom transitions, coordinator blocks and unwind overrides over HTTP")
struct TransitionCoordinatorServiceTests {
    /// The callbacks of a reply as `controller.callback` strings.
    func events(_ reply: ServiceReply) -> [String] {
        (reply["events"]?.array ?? []).map { "\($0["controller"]?.string ?? "?").\($0["callback"]?.string ?? "?")" }
    }

    let delegated = #"""
        {"id": "s", "options": {"transitions": "manual"}, "root": {"kind": "navigationController", "id": "nav",
         "navigationDelegate": {"animationController": {"name": "Card", "duration": 0.5}, "interactionController": "Pan"},
         "viewControllers": [{"id": "home"}]}}
        """#

    @Test func registrationsOnARunningPushSurviveARestart() throws {
        let h = try ServiceHarness()
        let made = h.send("POST", "/v1/sessions", delegated)
        #expect(made.status == 201, "\(made)")
        #expect(made["controllers"]?["nav"]?["navigationDelegate"]?["interactionController"]?.string == "Pan", "\(made)")
        let pushed = h.send("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "detail"}}"#)
        #expect(
            Array(events(pushed).prefix(3)) == ["detail.willMoveToParent", "nav.navigationControllerAnimationControllerFor", "nav.navigationControllerInteractionControllerFor"],
            "\(pushed)")
        let asked = pushed["events"]?.array ?? []
        #expect(asked.count > 1 && asked[1]["operation"]?.string == "push", "\(pushed)")
        #expect(pushed["transition"]?["animator"]?.string == "Card" && pushed["transition"]?["duration"]?.number == 0.5, "\(pushed)")
        let tid = try #require(pushed["transition"]?["id"]?.string)

        let along = h.send("POST", "/v1/sessions/s/controllers/detail/animateAlongsideTransition", "{}")
        #expect(along.status == 200 && events(along) == ["detail.animateAlongsideTransition"], "\(along)")
        let notify = h.send("POST", "/v1/sessions/s/controllers/detail/notifyWhenInteractionChanges", "{}")
        #expect(notify.status == 200 && events(notify).isEmpty, "\(notify)")

        // The completion and the handler wait in the stored transition.
        try h.restart()
        let cancelled = h.send("POST", "/v1/sessions/s/transitions/\(tid)/cancel", "{}")
        #expect(cancelled.status == 200, "\(cancelled)")
        let list = cancelled["events"]?.array ?? []
        #expect(list.first?["callback"]?.string == "notifyWhenInteractionChanges" && list.first?["isCancelled"]?.bool == true, "\(cancelled)")
        #expect(list.last?["callback"]?.string == "animateAlongsideTransitionCompletion" && list.last?["isCancelled"]?.bool == true, "\(cancelled)")

        // History keeps the operations: a replay rebuilds the same controllers.
        let version = try #require(cancelled["version"]?.number)
        let stored = h.send("GET", "/v1/sessions/s?version=\(Int(version))")
        let replayed = h.send("GET", "/v1/sessions/s?version=\(Int(version))&replay=true")
        #expect(stored.status == 200 && replayed.status == 200, "\(stored) \(replayed)")
        #expect(replayed["controllers"] == stored["controllers"], "\(replayed)")
    }

    @Test func unwindOverridesThroughPatch() throws {
        let h = try ServiceHarness()
        let made = h.send("POST", "/v1/sessions", #"{"id": "u", "root": {"id": "box", "unwindActions": ["done:"], "children": [{"id": "a", "unwindActions": ["done:"]}]}}"#)
        #expect(made.status == 201, "\(made)")
        let patched = h.send("PATCH", "/v1/sessions/u/controllers/box", #"{"allowedChildrenForUnwinding": ["a"], "on": {"unwindForTowards": [{"operation": "pop"}]}}"#)
        #expect(patched.status == 200, "\(patched)")
        let box = h.send("GET", "/v1/sessions/u/controllers/box")
        #expect(box["allowedChildrenForUnwinding"]?.array?.compactMap(\.string) == ["a"], "\(box)")
        #expect(box["on"]?["unwindForTowards"]?.array?.count == 1, "\(box)")
        let a = h.send("PATCH", "/v1/sessions/u/controllers/a", #"{"canPerformUnwindSegueAction": {"done:": false}}"#)
        #expect(a["session"]?["controllers"]?["a"]?["canPerformUnwindSegueAction"]?["done:"]?.bool == false, "\(a)")
    }

    @Test func badInputIsRefusedAndChangesNothing() throws {
        let h = try ServiceHarness()
        #expect(h.send("POST", "/v1/sessions", delegated).status == 201)
        let before = h.send("GET", "/v1/sessions/s")
        for body in [
            #"{"navigationDelegate": {"animator": {"name": "x"}}}"#,
            #"{"navigationDelegate": {"interactionController": ""}}"#,
            #"{"navigationDelegate": {"interactionController": 3}}"#,
            #"{"navigationDelegate": {"animationController": {"duration": 1}}}"#,
            #"{"canPerformUnwindSegueAction": {"done:": "yes"}}"#,
            #"{"allowedChildrenForUnwinding": "home"}"#,
            #"{"on": {"unwind": []}}"#,
        ] {
            let r = h.send("PATCH", "/v1/sessions/s/controllers/nav", body)
            #expect(r.status == 422 && r["type"]?.string == "/v1/problems/invalid-body", "\(body): \(r)")
        }
        #expect(h.send("POST", "/v1/sessions/s/controllers/home/animateAlongsideTransition", #"{"extra": 1}"#).status == 422)
        #expect(h.send("POST", "/v1/sessions/s/controllers/nope/notifyWhenInteractionChanges", "{}").status == 404)
        #expect(h.send("GET", "/v1/sessions/s")["version"] == before["version"])
    }
}

import Testing
import JSONValues
import NavSimService

/// R160 and R161 over the service's handler: a gesture under a dimmed sheet, and the
/// `presentationDelegate` members that say which optional methods a delegate implements.
@Suite("gestures under a sheet and unimplemented delegate methods over the routes")
struct GestureAndDelegateServiceTests {
    func callbacks(_ reply: ServiceReply) -> [String]? {
        reply["events"]?.array?.compactMap { e in e["callback"]?.string.map { "\(e["controller"]?.string ?? "").\($0)" } }
    }

    @Test("R160: interactivePop under a dimmed sheet is 200 with no events and one history entry; pop still pops")
    func swipeBackUnderSheet() throws {
        let h = try ServiceHarness()
        h.send(
            "POST", "/v1/sessions",
            #"{"id": "s", "options": {"iOS": "17"}, "root": {"id": "Nav", "kind": "navigationController", "viewControllers": [{"id": "A"}, {"id": "B"}]}}"#)
        #expect(h.send("POST", "/v1/sessions/s/controllers/B/present", #"{"viewController": {"id": "S"}, "modalPresentationStyle": "pageSheet"}"#).status == 200)
        let swipe = h.send("POST", "/v1/sessions/s/controllers/Nav/interactivePop", #"{"completes": true}"#)
        #expect(swipe.status == 200, "\(swipe)")
        #expect(swipe["events"] == .array([]) && swipe["transition"] == .null, "\(swipe)")
        #expect(swipe["version"]?.number == 2)
        #expect(swipe["session"]?["controllers"]?["Nav"]?["viewControllers"] == .array([.string("A"), .string("B")]))
        let pop = h.send("POST", "/v1/sessions/s/controllers/Nav/pop", #"{}"#)
        #expect(pop["session"]?["controllers"]?["Nav"]?["viewControllers"] == .array([.string("A")]), "\(pop)")
    }

    @Test("R161: a delegate with no shouldDismiss answer is not asked; didDismiss false leaves that call out; the members survive a restart")
    func unimplementedDelegateMethods() throws {
        let h = try ServiceHarness()
        h.send("POST", "/v1/sessions", #"{"id": "s", "options": {"iOS": "17"}, "root": {"id": "A"}}"#)
        let presented = h.send(
            "POST", "/v1/sessions/s/controllers/A/present",
            #"{"viewController": {"id": "S", "presentationDelegate": {"didDismiss": false}}, "modalPresentationStyle": "pageSheet"}"#)
        #expect(presented.status == 200, "\(presented)")
        #expect(presented["session"]?["controllers"]?["S"]?["presentationDelegate"]?["didDismiss"] == .bool(false))
        #expect(presented["session"]?["controllers"]?["S"]?["presentationDelegate"]?["willDismiss"] == nil)
        try h.restart()
        let gone = h.send("POST", "/v1/sessions/s/controllers/S/interactiveDismiss", #"{"completes": true}"#)
        #expect(gone.status == 200, "\(gone)")
        #expect(callbacks(gone) == ["S.presentationControllerWillDismiss", "S.viewWillDisappear", "S.viewDidDisappear"], "\(gone)")

        let bad = h.send("PATCH", "/v1/sessions/s/controllers/S", #"{"presentationDelegate": {"willDismiss": "yes"}}"#)
        #expect(bad.status == 422, "\(bad)")
        #expect(bad["field"]?.string == "presentationDelegate.willDismiss", "\(bad)")
    }
}

import Testing
import JSONValues
import NavSimService

/// R150–R154 over the service's handler: the new members of `presentationDelegate`, the
/// `popoverPresentationController` property, `interactiveDismiss`'s `tappedView`, their refusals,
/// and the replacement and the taps surviving a restart and a replay of history.
@Suite("adaptive replacement and popover taps over the routes")
struct AdaptivePopoverServiceTests {
    static let pad = #"{"userInterfaceIdiom": "pad"}"#

    @Test("R150/R151: a trait change swaps the replacement in and out; the stored session and its versions agree")
    func replacementThroughTraitChanges() throws {
        let h = try ServiceHarness()
        let created = h.send(
            "POST", "/v1/sessions", #"{"id": "s", "traits": \#(Self.pad), "root": {"id": "Doc"}}"#)
        #expect(created.status == 201, "\(created)")
        let presented = h.send(
            "POST", "/v1/sessions/s/controllers/Doc/present",
            #"{"modalPresentationStyle": "popover", "popover": {"sourceView": "button"}, "viewController": {"id": "Menu", "presentationDelegate": {"viewControllerForAdaptivePresentationStyle": "navigationController"}}}"#
        )
        #expect(presented.status == 200, "\(presented)")
        #expect(presented["session"]?["controllers"]?["Doc"]?["presentedViewController"]?.string == "Menu")
        let compact = h.send("PATCH", "/v1/sessions/s", #"{"traits": {"horizontalSizeClass": "compact"}}"#)
        #expect(compact.status == 200, "\(compact)")
        let events = compact["events"]?.array?.compactMap { e in
            e["callback"]?.string.map { "\(e["controller"]?.string ?? "").\($0)" }
        }
        #expect(events?.first == "Menu.viewControllerForAdaptivePresentationStyle", "\(compact)")
        #expect(compact["events"]?.array?.first?["style"]?.string == "formSheet")
        let adapted = compact["session"]?["controllers"]
        #expect(adapted?["Doc"]?["presentedViewController"]?.string == "Menu.adaptive")
        #expect(adapted?["Menu"]?["navigationController"]?.string == "Menu.adaptive")
        #expect(adapted?["Menu"]?["presentingViewController"]?.string == "Doc")
        #expect(adapted?["Menu.adaptive"]?["presentation"]?["style"]?.string == "formSheet")

        try h.restart()
        let reloaded = h.send("GET", "/v1/sessions/s")
        #expect(reloaded["controllers"]?["Doc"]?["presentedViewController"]?.string == "Menu.adaptive", "\(reloaded)")
        let back = h.send("PATCH", "/v1/sessions/s", #"{"traits": {"horizontalSizeClass": "regular"}}"#)
        #expect(back.status == 200, "\(back)")
        #expect(back["session"]?["controllers"]?["Doc"]?["presentedViewController"]?.string == "Menu")
        #expect(back["session"]?["controllers"]?["Menu"]?["parent"] == .null)
        // Past versions are rebuilt by replaying the stored commands.
        let past = h.send("GET", "/v1/sessions/s?version=2")
        #expect(past["controllers"]?["Menu"]?["parent"]?.string == "Menu.adaptive", "\(past)")
    }

    @Test("R152: a tap on a passthrough view keeps the popover; elsewhere it dismisses; the taps replay")
    func passthroughOverTheRoutes() throws {
        let h = try ServiceHarness()
        h.send(
            "POST", "/v1/sessions",
            #"{"id": "s", "traits": \#(Self.pad), "root": {"id": "Nav", "kind": "navigationController", "viewControllers": [{"id": "Doc"}]}}"#)
        let presented = h.send(
            "POST", "/v1/sessions/s/controllers/Doc/present",
            #"{"modalPresentationStyle": "popover", "popover": {"sourceView": "button"}, "animated": false, "viewController": {"id": "Menu", "popoverPresentationController": {"passthroughViews": ["Doc"]}, "presentationDelegate": {}}}"#
        )
        #expect(presented["session"]?["controllers"]?["Menu"]?["popoverPresentationController"]?["passthroughViews"] == .array([.string("Doc")]))
        let kept = h.send("POST", "/v1/sessions/s/controllers/Menu/interactiveDismiss", #"{"tappedView": "Doc"}"#)
        #expect(kept.status == 200 && kept["events"] == .array([]), "\(kept)")
        #expect(kept["session"]?["controllers"]?["Nav"]?["presentedViewController"]?.string == "Menu")
        let gone = h.send("POST", "/v1/sessions/s/controllers/Menu/interactiveDismiss", #"{"tappedView": "Nav"}"#)
        #expect(gone.status == 200, "\(gone)")
        // R161: `{}` gives no should-dismiss answer, so it is not asked; it is told.
        #expect(gone["events"]?.array?.first?["callback"]?.string == "presentationControllerWillDismiss")
        #expect(gone["session"]?["controllers"]?["Nav"]?["presentedViewController"] == .null)
        try h.restart()
        #expect(h.send("GET", "/v1/sessions/s?version=2")["controllers"]?["Nav"]?["presentedViewController"]?.string == "Menu")
        #expect(h.send("GET", "/v1/sessions/s?version=3")["controllers"]?["Nav"]?["presentedViewController"] == .null)
    }

    @Test("R152–R154: bad input is a 422 naming the field, and nothing changes")
    func refusals() throws {
        let h = try ServiceHarness()
        h.send("POST", "/v1/sessions", #"{"id": "s", "traits": \#(Self.pad), "root": {"id": "Doc"}}"#)
        let kind = h.send(
            "PATCH", "/v1/sessions/s/controllers/Doc",
            #"{"presentationDelegate": {"viewControllerForAdaptivePresentationStyle": "tabBarController"}}"#)
        #expect(kind.status == 422 && kind["field"]?.string == "presentationDelegate.viewControllerForAdaptivePresentationStyle", "\(kind)")
        let id = h.send("PATCH", "/v1/sessions/s/controllers/Doc", #"{"popoverPresentationController": {"passthroughViews": [""]}}"#)
        #expect(id.status == 422 && id["field"]?.string == "popoverPresentationController.passthroughViews", "\(id)")
        h.send(
            "POST", "/v1/sessions/s/controllers/Doc/present",
            #"{"modalPresentationStyle": "formSheet", "animated": false, "viewController": {"id": "Sheet"}}"#)
        let before = h.send("GET", "/v1/sessions/s")
        let sheet = h.send("POST", "/v1/sessions/s/controllers/Sheet/interactiveDismiss", #"{"tappedView": "Doc"}"#)
        #expect(sheet.status == 422 && sheet["field"]?.string == "tappedView", "\(sheet)")
        #expect(sheet["detail"]?.string == "tappedView is a tap outside a popover, and <UIViewController: Sheet> is presented as formSheet; a swipe down on a sheet names no view.")
        #expect(h.send("GET", "/v1/sessions/s")["version"] == before["version"])
    }
}

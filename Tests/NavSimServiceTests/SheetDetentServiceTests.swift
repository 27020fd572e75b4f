import JSONValues
import Testing

/// R110–R113 at the HTTP face: `sheetPresentationController` on a spec and a PATCH, the
/// `dragSheet` route and its delegate event, `window.undimmedViews`, bad settings and bodies,
/// and the selected detent kept across a restart and in a replayed history.
@Suite("sheets with detents over HTTP")
struct SheetDetentServiceTests {
    func events(_ reply: ServiceReply) -> [String] {
        (reply["events"]?.array ?? []).map { "\($0["controller"]?.string ?? "?").\($0["callback"]?.string ?? "?")" }
    }

    func strings(_ value: JSON?) -> [String]? { value?.array?.compactMap(\.string) }

    @Test func dragBetweenDetentsThroughTheRoutes() throws {
        let h = try ServiceHarness()
        #expect(h.send("POST", "/v1/sessions", #"{"id": "s", "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"id": "map"}]}}"#).status == 201)
        let shown = h.send(
            "POST", "/v1/sessions/s/controllers/map/present",
            #"""
            {"modalPresentationStyle": "pageSheet", "viewController": {"id": "card", "sheetPresentationController": {
              "detents": [{"identifier": "peek", "height": 120}, {"identifier": "medium"}, {"identifier": "large"}],
              "largestUndimmedDetentIdentifier": "medium", "prefersGrabberVisible": true, "hasDelegate": true}}}
            """#)
        #expect(shown.status == 200, "\(shown)")
        let card = shown["session"]?["controllers"]?["card"]?["sheetPresentationController"]
        #expect(card?["detents"]?.array?.count == 3, "\(String(describing: card))")
        #expect(card?["detents"]?.array?.first?["height"]?.number == 120)
        #expect(card?["selectedDetentIdentifier"]?.isNull == true && card?["prefersGrabberVisible"]?.bool == true)
        #expect(card?["prefersScrollingExpandsWhenScrolledToEdge"]?.bool == true, "UIKit's default: \(String(describing: card))")
        // Resting at peek, undimmed: the map behind the sheet takes touches.
        #expect(strings(shown["session"]?["window"]?["undimmedViews"]) == ["nav", "map"], "\(shown)")
        // Controllers without settings list none.
        #expect(shown["session"]?["controllers"]?["map"]?["sheetPresentationController"] == nil)

        let up = h.send("POST", "/v1/sessions/s/controllers/card/dragSheet", #"{"detent": "large"}"#)
        #expect(up.status == 200, "\(up)")
        #expect(events(up) == ["card.sheetPresentationControllerDidChangeSelectedDetentIdentifier"], "\(up)")
        #expect(up["transition"]?.isNull ?? true, "\(up)")
        #expect(up["session"]?["controllers"]?["card"]?["sheetPresentationController"]?["selectedDetentIdentifier"]?.string == "large")
        // At large the dimming view is back: the member is gone.
        #expect(up["session"]?["window"]?["undimmedViews"] == nil, "\(up)")

        // The same detent again: nothing.
        let again = h.send("POST", "/v1/sessions/s/controllers/card/dragSheet", #"{"detent": "large"}"#)
        #expect(again.status == 200 && events(again).isEmpty, "\(again)")

        // The selection survives a restart; a replay of the history rebuilds it.
        try h.restart()
        let down = h.send("POST", "/v1/sessions/s/controllers/card/dragSheet", #"{"detent": "medium"}"#)
        #expect(events(down) == ["card.sheetPresentationControllerDidChangeSelectedDetentIdentifier"], "\(down)")
        #expect(strings(down["session"]?["window"]?["undimmedViews"]) == ["nav", "map"], "\(down)")
        if let version = down["version"]?.number {
            let stored = h.send("GET", "/v1/sessions/s?version=\(Int(version))")
            let replayed = h.send("GET", "/v1/sessions/s?version=\(Int(version))&replay=true")
            #expect(stored.status == 200 && replayed.status == 200, "\(stored) \(replayed)")
            #expect(replayed["controllers"]?["card"] == stored["controllers"]?["card"], "\(replayed)")
            #expect(replayed["window"] == stored["window"], "\(replayed)")
        } else {
            Issue.record("no version in \(down)")
        }

        // Setting the selection in code tells the delegate nothing.
        let patched = h.send(
            "PATCH", "/v1/sessions/s/controllers/card",
            #"{"sheetPresentationController": {"detents": [{"identifier": "medium"}, {"identifier": "large"}], "selectedDetentIdentifier": "large", "hasDelegate": true}}"#)
        #expect(patched.status == 200 && events(patched).isEmpty, "\(patched)")
        #expect(patched["session"]?["window"]?["undimmedViews"] == nil, "\(patched)")
        // null clears the settings: UIKit's defaults again (one detent, large).
        let cleared = h.send("PATCH", "/v1/sessions/s/controllers/card", #"{"sheetPresentationController": null}"#)
        #expect(cleared.status == 200, "\(cleared)")
        #expect(cleared["session"]?["controllers"]?["card"]?["sheetPresentationController"] == nil, "\(cleared)")
    }

    @Test func badSettingsAndBodiesAreRefusedAndChangeNothing() throws {
        let h = try ServiceHarness()
        #expect(h.send("POST", "/v1/sessions", #"{"id": "s", "root": {"id": "home"}}"#).status == 201)
        let shown = h.send(
            "POST", "/v1/sessions/s/controllers/home/present",
            #"{"modalPresentationStyle": "pageSheet", "viewController": {"id": "sheet", "sheetPresentationController": {"detents": [{"identifier": "medium"}, {"identifier": "large"}]}}}"#
        )
        #expect(shown.status == 200, "\(shown)")
        let before = h.send("GET", "/v1/sessions/s")
        let settings = [
            #"{"detents": []}"#, #"{"detents": [{"identifier": "medium"}, {"identifier": "medium"}]}"#,
            #"{"detents": [{"identifier": "large", "height": 300}]}"#, #"{"detents": [{"identifier": "peek"}]}"#,
            // Largest first: Apple's documentation asks for smallest to largest.
            #"{"detents": [{"identifier": "large"}, {"identifier": "medium"}]}"#,
            #"{"detents": [{"identifier": "peek", "height": -1}]}"#, #"{"detents": "medium"}"#, #"{"detents": [{"id": "medium"}]}"#,
            #"{"grabber": true}"#, #"{"prefersGrabberVisible": "yes"}"#,
        ]
        for body in settings {
            let r = h.send("PATCH", "/v1/sessions/s/controllers/sheet", #"{"sheetPresentationController": \#(body)}"#)
            #expect(r.status == 422, "\(body): \(r)")
        }
        for body in ["{}", #"{"detent": 2}"#, #"{"detent": "small"}"#, #"{"detent": "large", "extra": 1}"#] {
            let r = h.send("POST", "/v1/sessions/s/controllers/sheet/dragSheet", body)
            #expect(r.status == 422, "\(body): \(r)")
        }
        let unknown = h.send("POST", "/v1/sessions/s/controllers/sheet/dragSheet", #"{"detent": "small"}"#)
        #expect(unknown["detail"]?.string == "small is not one of the sheet's detents (medium, large).", "\(unknown)")
        #expect(h.send("POST", "/v1/sessions/s/controllers/nope/dragSheet", #"{"detent": "large"}"#).status == 404)
        #expect(h.send("GET", "/v1/sessions/s")["version"] == before["version"])
        // A drag on the window's root, which is no sheet: a gesture on nothing to drag, 200 with nothing.
        let root = h.send("POST", "/v1/sessions/s/controllers/home/dragSheet", #"{"detent": "medium"}"#)
        #expect(root.status == 200 && events(root).isEmpty, "\(root)")
        #expect(root["session"]?["controllers"]?["home"]?["sheetPresentationController"] == nil, "\(root)")
    }

    /// The presenter's size classes decide whether detents apply (R110): overriding them to
    /// regular width makes the sheet a centred form, and the map is dimmed again.
    @Test func aTraitOverrideOnThePresenterEndsTheUndimmedDetent() throws {
        let h = try ServiceHarness()
        #expect(h.send("POST", "/v1/sessions", #"{"id": "s", "root": {"id": "home"}}"#).status == 201)
        let shown = h.send(
            "POST", "/v1/sessions/s/controllers/home/present",
            #"{"modalPresentationStyle": "pageSheet", "viewController": {"id": "sheet", "sheetPresentationController": {"detents": [{"identifier": "medium"}, {"identifier": "large"}], "largestUndimmedDetentIdentifier": "medium"}}}"#
        )
        #expect(strings(shown["session"]?["window"]?["undimmedViews"]) == ["home"], "\(shown)")
        let wide = h.send("PATCH", "/v1/sessions/s/controllers/home", #"{"traitOverrides": {"horizontalSizeClass": "regular"}}"#)
        #expect(wide.status == 200, "\(wide)")
        #expect(wide["session"]?["window"]?["undimmedViews"] == nil, "\(wide)")
        #expect(h.send("GET", "/v1/sessions/s")["window"]?["undimmedViews"] == nil)
    }

    @Test func iOS12HasNoSheetPresentationController() throws {
        let h = try ServiceHarness()
        #expect(h.send("POST", "/v1/sessions", #"{"id": "s", "options": {"iOS": "12"}, "root": {"id": "home"}}"#).status == 201)
        let shown = h.send(
            "POST", "/v1/sessions/s/controllers/home/present",
            #"{"modalPresentationStyle": "pageSheet", "viewController": {"id": "sheet", "sheetPresentationController": {"detents": [{"identifier": "medium"}, {"identifier": "large"}], "largestUndimmedDetentIdentifier": "large", "hasDelegate": true}}}"#
        )
        #expect(shown.status == 200, "\(shown)")
        #expect(shown["session"]?["window"]?["undimmedViews"] == nil, "\(shown)")
        let drag = h.send("POST", "/v1/sessions/s/controllers/sheet/dragSheet", #"{"detent": "large"}"#)
        #expect(drag.status == 200 && events(drag).isEmpty, "\(drag)")
        #expect(drag["session"]?["controllers"]?["sheet"]?["sheetPresentationController"]?["selectedDetentIdentifier"]?.isNull == true)
    }

    @Test func aClassDeclarationGivesStoryboardScenesTheirDetents() throws {
        let h = try ServiceHarness()
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="21701" targetRuntime="iOS.CocoaTouch" initialViewController="home">
              <scenes>
                <scene sceneID="s1"><objects>
                  <viewController storyboardIdentifier="Home" id="home" customClass="HomeViewController" sceneMemberID="viewController">
                    <connections><segue destination="card" kind="presentation" identifier="showCard" modalPresentationStyle="pageSheet" id="seg1"/></connections>
                  </viewController>
                </objects></scene>
                <scene sceneID="s2"><objects>
                  <viewController storyboardIdentifier="Card" id="card" customClass="CardViewController" sceneMemberID="viewController"/>
                </objects></scene>
              </scenes>
            </document>
            """
        let put = h.send("PUT", "/v1/storyboards/Main", xml, contentType: "application/xml")
        #expect(put.status == 200 || put.status == 201, "\(put)")
        let declared = h.send(
            "PUT", "/v1/storyboards/Main/classes",
            #"{"CardViewController": {"sheetPresentationController": {"detents": [{"identifier": "medium"}, {"identifier": "large"}], "hasDelegate": true}}}"#)
        #expect(declared.status == 200, "\(declared)")
        #expect(h.send("POST", "/v1/sessions", #"{"id": "s", "root": {"storyboard": "Main", "identifier": "Home", "id": "home"}}"#).status == 201)
        let segue = h.send("POST", "/v1/sessions/s/controllers/home/performSegue", #"{"identifier": "showCard"}"#)
        #expect(segue.status == 200, "\(segue)")
        // The instance is named after its Storyboard ID.
        let drag = h.send("POST", "/v1/sessions/s/controllers/Card/dragSheet", #"{"detent": "large"}"#)
        #expect(events(drag) == ["Card.sheetPresentationControllerDidChangeSelectedDetentIdentifier"], "\(segue) \(drag)")
    }

    /// Kukai's `BottomSheetMediumSegue.perform()` sets `detents = [.medium()]` and the grabber,
    /// then presents: declared on the segue class, the destination gets them, the declaration
    /// survives a restart, and a replayed history gives the same sheet.
    @Test func aCustomSegueDeclarationSetsTheDestinationsSheet() throws {
        let h = try ServiceHarness()
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="21701" targetRuntime="iOS.CocoaTouch" initialViewController="home">
              <scenes>
                <scene sceneID="s1"><objects>
                  <viewController storyboardIdentifier="Home" id="home" sceneMemberID="viewController">
                    <connections><segue destination="card" kind="custom" identifier="showCard" customClass="BottomSheetMediumSegue" customModule="App" id="seg1"/></connections>
                  </viewController>
                </objects></scene>
                <scene sceneID="s2"><objects>
                  <viewController storyboardIdentifier="Card" id="card" sceneMemberID="viewController"/>
                </objects></scene>
              </scenes>
            </document>
            """
        let put = h.send("PUT", "/v1/storyboards/Main", xml, contentType: "application/xml")
        #expect(put.status == 200 || put.status == 201, "\(put)")
        let declared = h.send(
            "PUT", "/v1/storyboards/Main/customSegues",
            #"{"BottomSheetMediumSegue": {"performs": "present", "sheetPresentationController": {"detents": [{"identifier": "medium"}], "prefersGrabberVisible": true}}}"#
        )
        #expect(declared.status == 200, "\(declared)")
        #expect(declared["customSegues"]?["BottomSheetMediumSegue"]?["sheetPresentationController"]?["prefersGrabberVisible"]?.bool == true)
        let bad = h.send(
            "PUT", "/v1/storyboards/Main/customSegues", #"{"BottomSheetMediumSegue": {"performs": "present", "sheetPresentationController": {"detents": []}}}"#)
        #expect(bad.status == 422, "\(bad)")
        try h.restart()
        #expect(h.send("POST", "/v1/sessions", #"{"id": "s", "root": {"storyboard": "Main", "identifier": "Home"}}"#).status == 201)
        let segue = h.send("POST", "/v1/sessions/s/controllers/Home/performSegue", #"{"identifier": "showCard"}"#)
        #expect(segue.status == 200, "\(segue)")
        let sheet = segue["session"]?["controllers"]?["Card"]?["sheetPresentationController"]
        #expect(sheet?["detents"]?.array?.compactMap { $0["identifier"]?.string } == ["medium"], "\(segue)")
        #expect(sheet?["prefersGrabberVisible"]?.bool == true, "\(segue)")
        // One detent: nothing to drag to but itself.
        #expect(events(h.send("POST", "/v1/sessions/s/controllers/Card/dragSheet", #"{"detent": "medium"}"#)).isEmpty)
        if let version = segue["version"]?.number {
            let replayed = h.send("GET", "/v1/sessions/s?version=\(Int(version))&replay=true")
            #expect(replayed["controllers"]?["Card"] == segue["session"]?["controllers"]?["Card"], "\(replayed)")
        }

        // Refactor to Storyboard keeps them: the new file takes the declaration of the segue
        // class its moved scenes use, sheet settings included.
        let moved = h.send("POST", "/v1/storyboards/Main/refactor", #"{"scenes": ["home", "card"], "into": "Cards"}"#)
        #expect(moved.status == 200, "\(moved)")
        let copied = h.send("GET", "/v1/storyboards/Cards")["customSegues"]?["BottomSheetMediumSegue"]
        #expect(copied == declared["customSegues"]?["BottomSheetMediumSegue"], "\(String(describing: copied))")
    }
}

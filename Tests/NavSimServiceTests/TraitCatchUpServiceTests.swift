import JSONValues
import Testing

/// R166 through the service: the traits a controller missed off screen are stored with it, so a
/// restart between the rotation and the controller's return changes nothing of what it is told.
/// R165: a stored session's More list survives the same restart.
@Suite struct TraitCatchUpServiceTests {
    static func events(_ reply: ServiceReply) -> [String] {
        (reply["events"]?.array ?? []).map { "\($0["controller"]?.string ?? "?").\($0["callback"]?.string ?? "?")" }
    }

    @Test("R166: a tab off screen during a rotation is told when it comes back, across a restart of the service")
    func missedTraitsSurviveARestart() throws {
        let h = try ServiceHarness()
        h.ok(
            "POST", "/v1/sessions",
            """
            {"id": "rot", "options": {"iOS": "17", "transitions": "immediate"},
             "traits": {"userInterfaceIdiom": "phone", "size": {"width": 390, "height": 844}},
             "root": {"id": "Tabs", "kind": "tabBarController",
                      "viewControllers": [{"id": "Feed"}, {"id": "Nav", "kind": "navigationController", "viewControllers": [{"id": "List"}]}]}}
            """, status: 201)
        h.ok("POST", "/v1/sessions/rot/controllers/Tabs/tapTab", #"{"index": 1}"#)
        h.ok("POST", "/v1/sessions/rot/controllers/Tabs/tapTab", #"{"index": 0}"#)
        let rotation = h.ok("PATCH", "/v1/sessions/rot", #"{"traits": {"size": {"width": 844, "height": 390}}}"#)
        #expect(!Self.events(rotation).contains("Nav.traitCollectionDidChange"))
        try h.restart()
        let back = h.ok("POST", "/v1/sessions/rot/controllers/Tabs/tapTab", #"{"index": 1}"#)
        #expect(
            Array(Self.events(back).prefix(6)) == [
                "Nav.viewWillAppear", "Nav.traitCollectionDidChange", "Nav.viewIsAppearing",
                "List.viewWillAppear", "List.traitCollectionDidChange", "List.viewIsAppearing",
            ])
        let previous = back["events"]?.array?[1]["previousTraitCollection"]
        #expect(previous?["verticalSizeClass"]?.string == "regular")
    }

    @Test("R165: after a restart the More navigation controller still starts with its list, and a re-tap of More pops to it")
    func moreListSurvivesARestart() throws {
        let h = try ServiceHarness()
        let tabs = (0..<7).map { #"{"id": "V\#($0)"}"# }.joined(separator: ", ")
        h.ok(
            "POST", "/v1/sessions",
            #"{"id": "more", "options": {"iOS": "17", "transitions": "immediate"}, "root": {"id": "T", "kind": "tabBarController", "viewControllers": [\#(tabs)]}}"#,
            status: 201)
        h.ok("POST", "/v1/sessions/more/controllers/T/select", #"{"viewController": "V5"}"#)
        try h.restart()
        let more = h.ok("GET", "/v1/sessions/more/controllers/T.more")
        #expect(strings(more["viewControllers"]) == ["T.more.list", "V5"])
        let list = h.ok("GET", "/v1/sessions/more/controllers/T.more.list")
        #expect(list["class"]?.string == "UIMoreListController")
        let tap = h.ok("POST", "/v1/sessions/more/controllers/T/tapTab", #"{"viewController": "T.more"}"#)
        #expect(
            Self.events(tap) == [
                "T.more.list.viewDidLoad", "V5.viewWillDisappear", "T.more.list.viewWillAppear", "T.more.list.viewIsAppearing",
                "V5.viewDidDisappear", "T.more.list.viewDidAppear",
            ])
        #expect(tap["session"]?["controllers"]?["T"]?["selectedViewController"]?.string == "T.more")
    }
}

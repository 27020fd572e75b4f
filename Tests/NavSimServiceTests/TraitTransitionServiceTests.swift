import JSONValues
import Testing

/// R106–R108 at the HTTP face: `traits.size` on a session and a PATCH, the size classes a size
/// alone gives, the transition callbacks and notifications in the PATCH's reply,
/// `registersForTraitChanges` on a spec, bad sizes and names, and the size kept across a restart.
@Suite("trait and size changes over HTTP")
struct TraitTransitionServiceTests {
    /// The callbacks of a reply as `controller.callback` strings.
    func events(_ reply: ServiceReply) -> [String] {
        (reply["events"]?.array ?? []).map { "\($0["controller"]?.string ?? "?").\($0["callback"]?.string ?? "?")" }
    }

    func makeUprightPhone(_ h: ServiceHarness) {
        let made = h.send(
            "POST", "/v1/sessions",
            """
            {"id": "s", "traits": {"userInterfaceIdiom": "phone", "size": {"width": 430, "height": 932}},
             "root": {"id": "nav", "kind": "navigationController",
                      "viewControllers": [{"id": "home", "registersForTraitChanges": ["horizontalSizeClass"]}]}}
            """)
        #expect(made.status == 201, "\(made)")
        #expect(made["traits"]?["size"]?["width"]?.number == 430, "\(made)")
        #expect(made["traits"]?["verticalSizeClass"]?.string == "regular")
        #expect(made["controllers"]?["home"]?["registersForTraitChanges"]?.array?.first?.string == "horizontalSizeClass", "\(made)")
        #expect(made["controllers"]?["nav"]?["registersForTraitChanges"] == nil, "left out when empty")
    }

    @Test func turningThePhoneSendsTheTransitionDownTheHierarchy() throws {
        let h = try ServiceHarness()
        makeUprightPhone(h)
        // An iPhone Max turned: the size alone gives regular width and compact height (R107).
        let turned = h.ok("PATCH", "/v1/sessions/s", #"{"traits": {"size": {"width": 932, "height": 430}}}"#)
        #expect(
            events(turned) == [
                "nav.willTransitionToTraitCollection", "home.willTransitionToTraitCollection",
                "nav.viewWillTransitionToSize", "home.viewWillTransitionToSize",
                "nav.traitCollectionDidChange", "home.traitCollectionDidChange", "home.traitChangeHandler",
            ], "\(turned)")
        let list = turned["events"]?.array ?? []
        #expect(list.first?["traitCollection"]?["horizontalSizeClass"]?.string == "regular", "\(turned)")
        #expect(list[safe: 2]?["size"]?["width"]?.number == 932 && list[safe: 2]?["size"]?["height"]?.number == 430)
        #expect(list[safe: 4]?["previousTraitCollection"]?["verticalSizeClass"]?.string == "regular")
        #expect(list.last?["traits"]?.array?.map { $0.string } == ["horizontalSizeClass"])
        let traits = turned["session"]?["traits"]
        #expect(traits?["horizontalSizeClass"]?.string == "regular" && traits?["verticalSizeClass"]?.string == "compact", "\(turned)")
        #expect(traits?["size"]?["width"]?.number == 932)
        // A controller's trait collection lists its size classes, not the window's size.
        #expect(turned["session"]?["controllers"]?["home"]?["traitCollection"]?["size"] == nil)

        // The size is kept across a restart, and the same size again changes nothing.
        try h.restart()
        #expect(h.ok("GET", "/v1/sessions/s")["traits"]?["size"]?["height"]?.number == 430)
        let again = h.ok("PATCH", "/v1/sessions/s", #"{"traits": {"size": {"width": 932, "height": 430}}}"#)
        #expect(events(again).isEmpty, "\(again)")
    }

    @Test func sizeClassesGivenWithTheSizeWin() throws {
        let h = try ServiceHarness()
        makeUprightPhone(h)
        // Split View on an iPad-sized window the client describes itself.
        let r = h.ok(
            "PATCH", "/v1/sessions/s",
            #"{"traits": {"size": {"width": 932, "height": 430}, "horizontalSizeClass": "compact"}}"#)
        #expect(r["session"]?["traits"]?["horizontalSizeClass"]?.string == "compact", "\(r)")
        #expect(!events(r).contains("home.traitChangeHandler"), "the width did not change: \(events(r))")
    }

    @Test func badSizesAndTraitNamesChangeNothing() throws {
        let h = try ServiceHarness()
        makeUprightPhone(h)
        for body in [
            #"{"traits": {"size": {"width": 0, "height": 430}}}"#,
            #"{"traits": {"size": {"width": 932}}}"#,
            #"{"traits": {"size": {"width": 932, "height": 430, "depth": 1}}}"#,
            #"{"traits": {"size": "932x430"}}"#,
            #"{"traits": {"size": {"width": 1e9, "height": 430}}}"#,
        ] {
            h.expectUnchanged("s") {
                let r = h.send("PATCH", "/v1/sessions/s", body)
                expectProblem(r, 422, "invalid-body")
                #expect(r["field"]?.string?.hasPrefix("traits.size") == true, "\(body): \(r)")
            }
        }
        h.expectUnchanged("s") {
            let r = h.send("PATCH", "/v1/sessions/s/controllers/home", #"{"registersForTraitChanges": ["userInterfaceStyle"]}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "registersForTraitChanges", "\(r)")
            #expect(r["allowed"]?.array?.count == 3, "\(r)")
        }
    }
}

extension Array {
    fileprivate subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}

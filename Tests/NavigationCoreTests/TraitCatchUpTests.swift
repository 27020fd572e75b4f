import Testing
import NavigationCore

/// R166: a controller whose view was out of the window during a trait change is told of it when
/// its view comes back.
@Suite("trait catch-up (R166)")
struct TraitCatchUpTests {
    let ios17 = Options(iOS: .iOS17)
    let upright = Traits(
        userInterfaceIdiom: .phone, horizontalSizeClass: .compact, verticalSizeClass: .regular, size: .init(width: 390, height: 844))
    let turned = Traits(
        userInterfaceIdiom: .phone, horizontalSizeClass: .compact, verticalSizeClass: .compact, size: .init(width: 844, height: 390))

    @Test("R166: a tab off screen during a rotation is told of the change when it is selected again, between viewWillAppear and viewIsAppearing")
    func tabBackAfterRotation() {
        var w = Window(
            root: tabs("T", [vc("A"), vc("B") { $0.registersForTraitChanges = [.verticalSizeClass] }]), traits: upright,
            options: ios17)
        w.perform(.select(receiver: "T", index: 1, viewController: nil))
        w.perform(.select(receiver: "T", index: 0, viewController: nil))
        // The rotation reaches the tab bar and A; B's view is out of the window and hears nothing.
        let rotation = w.send(.setTraits(turned)) {
            $0.traits = turned
            $0.modify("B") { $0.traitsLastSeen = upright }
        }
        #expect(!names(rotation).contains { $0.hasPrefix("B.") })
        w.send(
            .select(receiver: "T", index: 1, viewController: nil),
            events: [
                "B.viewWillAppear", "B.traitCollectionDidChange", "B.traitChangeHandler", "B.viewIsAppearing",
                "A.viewWillDisappear", "A.viewDidDisappear", "B.viewDidAppear",
            ]
        ) {
            $0.modify("B") { $0.traitsLastSeen = nil }
            $0.appeared("B")
            $0.disappeared("A")
            $0.setSelected("T", "B")
            $0.nextTransitionNumber += 1
        }
        // Told once: the next appearance says nothing of traits.
        w.perform(.select(receiver: "T", index: 0, viewController: nil))
        let again = w.perform(.select(receiver: "T", index: 1, viewController: nil))
        #expect(!names(again).contains("B.traitCollectionDidChange"))
    }

    @Test("R166: the previous collection is the one the controller last saw, and a change undone while away is no change")
    func previousIsLastSeen() throws {
        var w = Window(root: tabs("T", [vc("A"), vc("B")]), traits: upright, options: ios17)
        w.perform(.select(receiver: "T", index: 1, viewController: nil))
        w.perform(.select(receiver: "T", index: 0, viewController: nil))
        w.perform(.setTraits(turned))
        w.perform(.setTraits(upright))
        #expect(w["B"].traitsLastSeen == upright)
        let back = w.perform(.select(receiver: "T", index: 1, viewController: nil))
        #expect(!names(back).contains("B.traitCollectionDidChange"))
        #expect(w["B"].traitsLastSeen == nil)

        // Two changes while away: the callback names the first collection, not the one between.
        w.perform(.select(receiver: "T", index: 0, viewController: nil))
        let pad = Traits(userInterfaceIdiom: .phone, horizontalSizeClass: .regular, verticalSizeClass: .compact, size: .init(width: 926, height: 428))
        w.perform(.setTraits(turned))
        w.perform(.setTraits(pad))
        let r = w.perform(.select(receiver: "T", index: 1, viewController: nil))
        let call = try #require(r.events.first { $0.controller == "B" && $0.callback == .traitCollectionDidChange })
        #expect(call.traitCollection == upright)
    }

    @Test("R166: the controller a pop uncovers after a rotation is told as it comes back (iOS 12: no viewIsAppearing, no handlers)")
    func popBackAfterRotation() {
        for release in [IOSRelease.iOS12, .iOS17] {
            var w = Window(root: nav("N", vc("R") { $0.registersForTraitChanges = [.verticalSizeClass] }), traits: upright, options: Options(iOS: release))
            w.perform(Op.push("N", vc("X"), animated: false))
            w.perform(.setTraits(turned))
            #expect(w["R"].traitsLastSeen == upright)
            #expect(w["X"].traitsLastSeen == nil, "X is on screen and was told")
            let r = w.perform(Op.pop("N", animated: false))
            let expected =
                release == .iOS12
                ? [
                    "X.willMoveToParent(nil)", "X.viewWillDisappear", "R.viewWillAppear", "R.traitCollectionDidChange", "X.viewDidDisappear", "R.viewDidAppear",
                    "X.didMoveToParent(nil)",
                ]
                : [
                    "X.willMoveToParent(nil)", "X.viewWillDisappear", "R.viewWillAppear", "R.traitCollectionDidChange", "R.traitChangeHandler",
                    "R.viewIsAppearing", "X.viewDidDisappear", "R.viewDidAppear", "X.didMoveToParent(nil)",
                ]
            #expect(names(r) == expected, "iOS \(release.rawValue)")
            #expect(w["R"].traitsLastSeen == nil)
        }
    }

    @Test("R166/R106: a presenter a full-screen presentation covers is reached by the change itself, so its dismissal reveals it without a second call")
    func presenterRevealedByDismissal() {
        var w = Window(root: vc("P"), traits: upright, options: ios17)
        w.perform(Op.present("P", vc("F") { $0.modalPresentationStyle = .fullScreen }, animated: false))
        let rotation = w.perform(.setTraits(turned))
        #expect(names(rotation).contains("P.traitCollectionDidChange"))
        #expect(w["P"].traitsLastSeen == nil)
        let r = w.perform(Op.dismiss("P", animated: false))
        #expect(!names(r).contains("P.traitCollectionDidChange"))
    }

    @Test("R166: a session without a window size reports no trait callbacks, so nothing is remembered")
    func sizelessSessionUnchanged() {
        var w = Window(root: tabs("T", [vc("A"), vc("B")]), options: ios17)
        w.perform(.select(receiver: "T", index: 1, viewController: nil))
        w.perform(.select(receiver: "T", index: 0, viewController: nil))
        w.perform(.setTraits(Traits(userInterfaceIdiom: .phone, horizontalSizeClass: .compact, verticalSizeClass: .compact)))
        #expect(w["B"].traitsLastSeen == nil)
        let r = w.perform(.select(receiver: "T", index: 1, viewController: nil))
        #expect(!names(r).contains("B.traitCollectionDidChange"))
    }
}

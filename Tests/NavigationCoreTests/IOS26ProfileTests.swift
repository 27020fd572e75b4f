import Testing
import NavigationCore

/// The iOS 26 profile (docs/ios-profiles.md): `updateProperties()` (R118, R119) and the swipe
/// back from anywhere in the content (R120), each with the whole state change.
@Suite("iOS 26 profile")
struct IOS26ProfileTests {
    let ios26 = Options(iOS: .iOS26)

    /// `N[A]` on iOS 26, launched: A and N appeared and had their first `updateProperties`.
    func launched(_ options: Options? = nil) -> Window {
        Window(root: nav("N", vc("A")), options: options ?? ios26)
    }

    @Test("R118 exhaustive: launching on iOS 26 updates the properties of every controller that appears")
    func launchUpdatesProperties() {
        let w = launched()
        #expect(w["N"].propertiesUpToDate && w["A"].propertiesUpToDate)
        let older = launched(Options(iOS: .iOS18))
        #expect(!older["N"].propertiesUpToDate && !older["A"].propertiesUpToDate)
    }

    @Test("R118 exhaustive: a pushed controller gets updateProperties right after viewIsAppearing, before the did callbacks")
    func pushUpdatesPropertiesAfterIsAppearing() {
        var w = launched()
        w.send(
            Op.push("N", vc("B")),
            events: [
                "B.willMoveToParent(N)", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
                "B.updateProperties", "A.viewDidDisappear", "B.viewDidAppear", "B.didMoveToParent(N)",
            ]
        ) {
            $0.pushedNew("B", onto: "N", over: ["A"])
            $0.modify("B") { $0.propertiesUpToDate = true }
        }
    }

    @Test("R118 exhaustive: the same push on iOS 18 has no updateProperties and marks nothing")
    func pushOnIOS18HasNoUpdateProperties() {
        var w = launched(Options(iOS: .iOS18))
        let r = w.send(Op.push("N", vc("B"))) { $0.pushedNew("B", onto: "N", over: ["A"]) }
        #expect(!names(r).contains("B.updateProperties"))
    }

    @Test("R118 exhaustive: a controller that appears again with nothing invalidated gets no second updateProperties")
    func reappearingIsNotUpdatedAgain() {
        var w = launched()
        w.perform(Op.push("N", vc("B")))
        w.send(
            Op.pop("N"),
            events: [
                "B.willMoveToParent(nil)", "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing",
                "B.viewDidDisappear", "A.viewDidAppear", "B.didMoveToParent(nil)",
            ]
        ) {
            $0.modify("B") { $0.parent = nil }
            $0.disappeared("B")
            $0.appeared("A")
            $0.modify("N") { $0.children = ["A"] }
            $0.setStack("N", ["A"])
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R119 exhaustive: setNeedsUpdateProperties on a controller on screen runs updateProperties once in the turn")
    func setNeedsOnScreenRunsOnce() {
        var w = launched()
        // Up to date again after the update: the state is what it was.
        w.send(.setNeedsUpdateProperties(receiver: "A"), events: ["A.updateProperties"]) { _ in }
        let outcomes = w.sendTurn([.setNeedsUpdateProperties(receiver: "A"), .setNeedsUpdateProperties(receiver: "A")]) { _ in }
        guard case .applied(let first) = outcomes[0], case .applied(let second) = outcomes[1] else {
            Issue.record("expected both calls to apply: \(outcomes)")
            return
        }
        // Coalesced into the turn's one layout pass, which runs after the last call: reported there.
        #expect(names(first).isEmpty)
        #expect(names(second) == ["A.updateProperties"])
    }

    @Test("R119: the coalesced update is reported where the layout pass ran: after the turn's last operation and its transition")
    func coalescedUpdateFollowsTheLastOperation() {
        var w = launched()
        let outcomes = w.turn([.setNeedsUpdateProperties(receiver: "N"), Op.push("N", vc("B"))])
        guard case .applied(let first) = outcomes[0], case .applied(let second) = outcomes[1] else {
            Issue.record("expected both calls to apply: \(outcomes)")
            return
        }
        #expect(names(first).isEmpty)
        // N stays in the window: its update follows the push's callbacks.
        #expect(names(second).last == "N.updateProperties", "\(names(second))")
        #expect(names(second).first == "B.willMoveToParent(N)", "\(names(second))")
        // A refused last operation reports nothing: the update goes to the last one applied.
        var r = launched()
        let refused = r.turn([.setNeedsUpdateProperties(receiver: "A"), .setNeedsUpdateProperties(receiver: "nobody")])
        guard case .applied(let asked) = refused[0] else {
            Issue.record("expected the first call to apply: \(refused)")
            return
        }
        #expect(names(asked) == ["A.updateProperties"], "\(refused)")
    }

    @Test("R119 exhaustive: setNeedsUpdateProperties off screen waits; the update comes when the view next appears")
    func setNeedsOffScreenWaitsForAppearance() {
        var w = launched()
        w.perform(Op.push("N", vc("B")))
        // A is under B, out of the window.
        w.send(.setNeedsUpdateProperties(receiver: "A"), events: []) {
            $0.modify("A") { $0.propertiesUpToDate = false }
        }
        w.send(
            Op.pop("N"),
            events: [
                "B.willMoveToParent(nil)", "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing",
                "A.updateProperties", "B.viewDidDisappear", "A.viewDidAppear", "B.didMoveToParent(nil)",
            ]
        ) {
            $0.modify("B") { $0.parent = nil }
            $0.disappeared("B")
            $0.appeared("A")
            $0.modify("A") { $0.propertiesUpToDate = true }
            $0.modify("N") { $0.children = ["A"] }
            $0.setStack("N", ["A"])
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R119: setNeedsUpdateProperties before iOS 26 is not a method there: invalid, nothing changes")
    func setNeedsBeforeIOS26IsInvalid() {
        for release in [IOSRelease.iOS12, .iOS17, .iOS18] {
            var w = launched(Options(iOS: release))
            let e = w.sendInvalid(.setNeedsUpdateProperties(receiver: "A"))
            #expect(e?.kind == .invalid)
            #expect(e?.message.contains("iOS 26") == true)
        }
        var w = launched()
        #expect(w.sendInvalid(.setNeedsUpdateProperties(receiver: "ghost"))?.kind == .unknownController)
    }

    @Test("R120 exhaustive: on iOS 26 a finished content swipe pops exactly as the edge swipe does")
    func contentSwipePopsOnIOS26() {
        var edge = Window(root: nav("N", vc("A"), vc("B")), options: ios26)
        var content = edge
        // A's view loads as it first appears, and its properties get their first update.
        let expected: [String] = [
            "B.willMoveToParent(nil)", "A.viewDidLoad", "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing",
            "A.updateProperties", "B.viewDidDisappear", "A.viewDidAppear", "B.didMoveToParent(nil)",
        ]
        func popped(_ s: inout SessionState) {
            s.modify("B") { $0.parent = nil }
            s.disappeared("B")
            s.appeared("A")
            s.modify("A") { $0.propertiesUpToDate = true }
            s.modify("N") { $0.children = ["A"] }
            s.setStack("N", ["A"])
            s.nextTransitionNumber += 1
        }
        let viaContent = content.send(.interactivePop(receiver: "N", completes: true, gesture: .content), events: expected, popped)
        let viaEdge = edge.send(.interactivePop(receiver: "N", completes: true, gesture: .edge), events: expected, popped)
        #expect(viaContent.transition?.operation == .interactivePop)
        #expect(viaContent == viaEdge)
    }

    @Test("R120 exhaustive: a cancelled content swipe on iOS 26 leaves the stack as it was")
    func cancelledContentSwipe() {
        var w = Window(root: nav("N", vc("A"), vc("B")), options: ios26)
        let r = w.send(.interactivePop(receiver: "N", completes: false, gesture: .content)) {
            // A comes and goes: its view loads and its properties get their first update.
            $0.modify("A") {
                $0.isViewLoaded = true
                $0.propertiesUpToDate = true
            }
            $0.nextTransitionNumber += 1
        }
        #expect(r.transition?.state == .cancelled)
        #expect(names(r).contains("A.updateProperties"))
    }

    @Test("R120 exhaustive: before iOS 26 a pan in the content is no gesture of the navigation controller: nothing pops")
    func contentSwipeBeforeIOS26DoesNothing() {
        for release in [IOSRelease.iOS12, .iOS17, .iOS18] {
            var w = Window(root: nav("N", vc("A"), vc("B")), options: Options(iOS: release))
            let r = w.send(.interactivePop(receiver: "N", completes: true, gesture: .content), events: []) { _ in }
            #expect(r.transition == nil)
        }
    }

    @Test("R118/R105 exhaustive: a child whose appearance is forwarded by hand gets its first update after its begin's viewIsAppearing")
    func manualForwardingUpdatesProperties() {
        var w = Window(root: vc("A"), options: ios26)
        let container = make("C", .viewController) {
            $0.children = [vc("K")]
            $0.shouldAutomaticallyForwardAppearanceMethods = false
        }
        w.perform(Op.present("A", container, .fullScreen, animated: false))
        w.send(
            .beginAppearanceTransition(receiver: "K", isAppearing: true, animated: true),
            events: ["K.viewWillAppear", "K.viewIsAppearing", "K.updateProperties"]
        ) {
            $0.modify("K") {
                $0.appearance = .appearing
                $0.manualAppearanceAnimated = true
                $0.propertiesUpToDate = true
            }
        }
    }

    @Test("R18: iOS 26 resolves automatic as iOS 18 does (form sheet), and keeps every iOS 18 switch")
    func automaticAsOnIOS18() {
        let p26 = Options(iOS: .iOS26).profile, p18 = Options(iOS: .iOS18).profile
        #expect(p26.automaticStyle == .formSheet)
        #expect(p26.automaticStyle == p18.automaticStyle)
        #expect(p26.emitsViewIsAppearing && p26.hasSheetGestures)
        #expect(!p26.usesActiveControllerWording && !p26.usesLegacyPresentWarning && !p26.usesLegacyDuplicatePushWording)
        #expect(p26.sendsUpdateProperties && !p18.sendsUpdateProperties)
        #expect(p26.hasContentPopGesture && !p18.hasContentPopGesture)
    }
}

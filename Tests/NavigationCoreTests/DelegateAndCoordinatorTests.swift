import Testing
import NavigationCore

/// Delegates told about container changes (R82 navigation, R87/R89 tab bar taps), the transition
/// coordinator (R62), and what the transitioning delegate and presentation controller see (R22, R26).
@Suite("delegates, taps and the transition coordinator (R22, R26, R62, R82, R87, R89)")
struct DelegateAndCoordinatorTests {
    func delegatedNavigation(_ ids: String...) -> Window {
        var w = Window(
            root: make("N", .navigationController) {
                $0.viewControllers = [vc(ids[0])]
                $0.navigationDelegate = NavigationDelegate()
            })
        for id in ids.dropFirst() { w.perform(Op.push("N", vc(id), animated: false)) }
        return w
    }

    @Test("R82: push tells the navigation delegate willShow before the appearance callbacks and didShow after")
    func navigationDelegateOnPush() {
        var w = delegatedNavigation("A")
        #expect(
            names(w.perform(Op.push("N", vc("B")))) == [
                "B.willMoveToParent(N)", "B.viewDidLoad", "B.navigationControllerWillShow",
                "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
                "A.viewDidDisappear", "B.viewDidAppear", "B.didMoveToParent(N)", "B.navigationControllerDidShow",
            ])
    }

    @Test("R82: pop and setViewControllers tell it about the new top; an unchanged top tells nothing")
    func navigationDelegateOnPopAndSet() {
        var w = delegatedNavigation("A", "B")
        #expect(
            names(w.perform(Op.pop("N"))) == [
                "B.willMoveToParent(nil)", "A.navigationControllerWillShow", "B.viewWillDisappear", "A.viewWillAppear",
                "A.viewIsAppearing", "B.viewDidDisappear", "A.viewDidAppear", "B.didMoveToParent(nil)",
                "A.navigationControllerDidShow",
            ])
        let same = names(w.perform(Op.setViewControllers("N", [vc("Z"), id("A")])))
        #expect(same == ["Z.willMoveToParent(N)", "Z.didMoveToParent(N)"], "A stays on top: no delegate call")
    }

    @Test("R82/R83: a cancelled back swipe tells willShow but never didShow")
    func navigationDelegateOnCancelledSwipe() {
        var w = delegatedNavigation("A", "B")
        let events = names(w.perform(.interactivePop(receiver: "N", completes: false)))
        #expect(events.contains("A.navigationControllerWillShow"))
        #expect(!events.contains("A.navigationControllerDidShow"))
        #expect(w.stack("N") == ["A", "B"])
    }

    @Test("R82: a navigation controller's first appearance tells the delegate about its top")
    func navigationDelegateOnFirstAppearance() {
        var w = Window(root: vc("R"))
        let r = w.perform(
            .setRoot(
                make("N", .navigationController) {
                    $0.viewControllers = [vc("A"), vc("B")]
                    $0.navigationDelegate = NavigationDelegate()
                }, animated: false))
        let events = names(r)
        #expect(events.filter { $0.contains("navigationController") } == ["B.navigationControllerWillShow", "B.navigationControllerDidShow"])
        #expect(events.firstIndex(of: "B.navigationControllerWillShow")! < events.firstIndex(of: "B.viewWillAppear")!)
        #expect(events.firstIndex(of: "B.navigationControllerDidShow")! > events.firstIndex(of: "B.viewDidAppear")!)
        // Back after a full-screen presentation: not a first appearance, no delegate call.
        w.perform(Op.present("B", vc("X"), .fullScreen))
        #expect(!names(w.perform(Op.dismiss("X"))).contains { $0.contains("navigationController") })
    }

    @Test("R82: a navigation controller off screen has no visible top change to report")
    func navigationDelegateOffScreen() {
        var w = Window(
            root: tabs(
                "T",
                [
                    vc("A"),
                    make("N", .navigationController) {
                        $0.viewControllers = [vc("B")]
                        $0.navigationDelegate = NavigationDelegate()
                    },
                ], selected: 0))
        #expect(names(w.perform(Op.push("N", vc("C")))) == ["C.willMoveToParent(N)", "C.didMoveToParent(N)"])
    }

    func delegatedTabs(shouldSelect: Bool? = nil) -> Window {
        var w = Window(
            root: make("T", .tabBarController) {
                $0.viewControllers = [nav("N", vc("A")), vc("C")]
                $0.tabBarDelegate = TabBarDelegate(shouldSelect: shouldSelect)
            })
        w.perform(Op.push("N", vc("B"), animated: false))
        return w
    }

    @Test("R87: a user tap asks shouldSelect first and tells didSelect after the switch's callbacks")
    func tapAsksTheDelegate() {
        var w = delegatedTabs(shouldSelect: true)
        let events = withoutIsAppearing(names(w.perform(.tapTab(receiver: "T", index: 1, viewController: nil))))
        #expect(
            events == [
                "C.tabBarControllerShouldSelect", "C.viewDidLoad", "C.viewWillAppear",
                "N.viewWillDisappear", "B.viewWillDisappear", "N.viewDidDisappear", "B.viewDidDisappear",
                "C.viewDidAppear", "C.tabBarControllerDidSelect",
            ])
        #expect(w["T"].selectedViewController == "C")
        // Programmatic selection asks nobody (S65).
        let programmatic = names(w.perform(.select(receiver: "T", index: 0, viewController: nil)))
        #expect(!programmatic.contains { $0.contains("tabBarController") })
    }

    @Test("R87: shouldSelect false keeps the selection")
    func tapRefusedByDelegate() {
        var w = delegatedTabs(shouldSelect: false)
        let r = w.perform(.tapTab(receiver: "T", index: 1, viewController: nil))
        #expect(names(r) == ["C.tabBarControllerShouldSelect"])
        #expect(w["T"].selectedViewController == "N" && w.isAppeared("B"))
    }

    @Test("R89: tapping the selected tab pops its navigation controller to the root")
    func reselectPopsToRoot() {
        var w = delegatedTabs(shouldSelect: true)
        let r = w.perform(.tapTab(receiver: "T", index: 0, viewController: nil))
        #expect(
            names(r) == [
                "N.tabBarControllerShouldSelect", "B.willMoveToParent(nil)", "N.tabBarControllerDidSelect",
                "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing",
                "B.viewDidDisappear", "A.viewDidAppear", "B.didMoveToParent(nil)",
            ])
        #expect(r.returned == nil, "a tap returns nothing")
        #expect(r.transition?.operation == .popToRoot && r.transition?.animated == true)
        #expect(w.stack("N") == ["A"])
        // At the root already: nothing more happens.
        #expect(
            names(w.perform(.tapTab(receiver: "T", index: 0, viewController: nil)))
                == ["N.tabBarControllerShouldSelect", "N.tabBarControllerDidSelect"])
    }

    @Test("R161: a tab bar delegate without shouldSelect is not asked; the tap selects and didSelect is told")
    func tapWithoutShouldSelect() {
        var w = delegatedTabs()
        let events = withoutIsAppearing(names(w.perform(.tapTab(receiver: "T", index: 1, viewController: nil))))
        #expect(!events.contains("C.tabBarControllerShouldSelect"), "\(events)")
        #expect(events.first == "C.viewDidLoad" && events.last == "C.tabBarControllerDidSelect", "\(events)")
        #expect(w["T"].selectedViewController == "C")
        // R89 without shouldSelect: the re-tap pops to the root and tells only didSelect.
        w.perform(.select(receiver: "T", index: 0, viewController: nil))
        let retap = names(w.perform(.tapTab(receiver: "T", index: 0, viewController: nil)))
        #expect(retap.prefix(2) == ["B.willMoveToParent(nil)", "N.tabBarControllerDidSelect"], "\(retap)")
    }

    @Test("R88/R89: only items on the bar can be tapped; tabs under More are reached through More")
    func tapUnderMore() {
        var w = Window(root: tabs("T", (0..<7).map { vc("V\($0)") }, selected: 0))
        let (_, outcome) = Navigator.apply(.tapTab(receiver: "T", index: 5, viewController: nil), to: w.state)
        guard case .invalid = outcome else {
            Issue.record("expected an input error, got \(outcome)")
            return
        }
        w.perform(.tapTab(receiver: "T", index: nil, viewController: "T.more"))
        #expect(w["T"].selectedViewController == "T.more")
    }

    // MARK: - Transition coordinator, delegate arguments, presentation controller

    @Test("R62: transitionCoordinator is set on the involved controllers only while the transition runs")
    func transitionCoordinator() {
        var w = Window(root: nav("N", vc("A")), options: manual)
        let t = w.perform(Op.push("N", vc("B"))).transition!.id
        #expect(w.state.transitionCoordinator("A") == t && w.state.transitionCoordinator("B") == t)
        #expect(w.state.transitionCoordinator("N") == t, "the navigation controller animating the push")
        w.perform(Op.tick)
        #expect(w.state.transitionCoordinator("A") == nil && w.state.transitionCoordinator("B") == nil)
    }

    @Test("R22/R58: the transitioning delegate sees presented V, presenting P (resolved), source S")
    func delegateArguments() {
        var w = Window(root: tabs("T", [vc("S")], selected: 0))
        let r = w.perform(Op.present("S", vc("V") { $0.transitioningDelegate = TransitioningDelegate(name: "Scale", duration: 0.4) }, .fullScreen))
        #expect(r.events.filter { $0.callback == .animationControllerForPresented }.map(\.controller) == ["V"])
        #expect(w["V"].presentation?.presenting == "T" && w["V"].presentation?.source == "S")
        #expect(r.transition?.fromViewController == "T" && r.transition?.toViewController == "V")
    }

    @Test("R26: the presentation controller keeps the style it was made with; it goes with the presentation")
    func presentationControllerKeepsItsStyle() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", vc("V"), .pageSheet))
        var patch = ControllerPatch()
        patch.modalPresentationStyle = .fullScreen
        w.perform(.updateController("V", patch))
        #expect(w["V"].modalPresentationStyle == .fullScreen)
        #expect(w.style("V") == .pageSheet, "a later style change does not rebuild it")
        w.perform(Op.dismiss("V"))
        #expect(w["V"].presentation == nil)
    }
}

/// R74 trait inheritance and overrides; R48's modelled part.
@Suite("traits (R48, R74)")
struct TraitTests {
    @Test("R74: children inherit the window's traits; an override applies to the controller and its descendants")
    func inheritanceAndOverrides() {
        var w = Window(
            root: make("R", .viewController) {
                $0.children = [
                    make("C", .viewController) {
                        $0.children = [vc("A")]
                        $0.traitOverrides = TraitOverrides(horizontalSizeClass: .regular)
                    }, vc("B"),
                ]
            })
        #expect(w.state.traitCollection("R") == iPhonePortrait)
        #expect(w.state.traitCollection("B") == iPhonePortrait)
        let regular = Traits(userInterfaceIdiom: .phone, horizontalSizeClass: .regular, verticalSizeClass: .regular)
        #expect(w.state.traitCollection("C") == regular && w.state.traitCollection("A") == regular)
        // The nearest override wins, field by field.
        var inner = ControllerPatch()
        inner.traitOverrides = .some(TraitOverrides(verticalSizeClass: .compact))
        w.perform(.updateController("A", inner))
        #expect(w.state.traitCollection("A") == Traits(userInterfaceIdiom: .phone, horizontalSizeClass: .regular, verticalSizeClass: .compact))
        // They persist until changed.
        var clear = ControllerPatch()
        clear.traitOverrides = .some(nil)
        w.perform(.updateController("C", clear))
        #expect(w.state.traitCollection("A") == Traits(userInterfaceIdiom: .phone, horizontalSizeClass: .compact, verticalSizeClass: .compact))
        // A presented controller starts from the window's traits.
        w.perform(Op.present("A", vc("V"), .fullScreen))
        #expect(w.state.traitCollection("V") == iPhonePortrait)
    }

    @Test("R74/R19: adaptation reads the presenter's traits, overrides included")
    func adaptationUsesThePresentersTraits() {
        var w = Window(root: make("R", .viewController) { $0.traitOverrides = TraitOverrides(horizontalSizeClass: .regular) })
        #expect(w.refuse(Op.present("R", vc("P"), .popover))?.code == "D10", "a real popover: it needs an anchor (R15)")
        w.perform(Op.present("R", vc("P"), .popover, popover: PopoverAnchor(sourceView: "button")))
        #expect(w.style("P") == .popover)
    }

    @Test("R52/R74: changing a controller's overrides re-adapts what it presents and collapses the splits below it")
    func overridesChangeReadapts() {
        var w = Window(
            root: make("R", .viewController) {
                $0.children = [split("S", primary: nav("N", vc("M")), secondary: vc("D"))]
            }, traits: iPadRegular)
        w.perform(
            Op.present(
                "R", vc("P") { $0.presentationDelegate = PresentationDelegate() }, .popover,
                popover: PopoverAnchor(sourceView: "button")))
        #expect(w.style("P") == .popover && w["S"].split?.isCollapsed == false)
        var patch = ControllerPatch()
        patch.traitOverrides = .some(TraitOverrides(horizontalSizeClass: .compact))
        let r = w.perform(.updateController("R", patch))
        #expect(w.style("P") == .formSheet, "R19 with R's traits")
        #expect(names(r).contains("P.willPresentWithAdaptiveStyle"))
        #expect(w["S"].split?.isCollapsed == true && w.stack("N") == ["M", "D"], "R91 under the override")
        // The same overrides again change nothing.
        #expect(w.perform(.updateController("R", patch)).events.isEmpty)
    }

    @Test("R48: while adapted, presentedViewController stays V (no replacement controller)")
    func adaptedPresentationKeepsV() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", vc("V") { $0.presentationDelegate = PresentationDelegate() }, .popover))
        #expect(w.style("V") == .formSheet, "R19: adapted on iPhone")
        #expect(w.presented("A") == "V" && w.presenting("V") == "A")
    }
}

// MARK: - Exhaustive: delegate answers that change (or keep) the state

extension DelegateAndCoordinatorTests {
    @Test("R87 exhaustive: shouldSelect false keeps the whole state")
    func exhaustiveTapRefusedByDelegate() {
        var w = delegatedTabs(shouldSelect: false)
        w.send(.tapTab(receiver: "T", index: 1, viewController: nil), events: ["C.tabBarControllerShouldSelect"]) { _ in }
    }

    @Test("R87 exhaustive: an allowed tap switches tabs: N's tab leaves, C appears")
    func exhaustiveTapSwitches() {
        var w = delegatedTabs()
        w.send(.tapTab(receiver: "T", index: 1, viewController: nil)) {
            $0.appeared("C")
            $0.disappeared("N", "B")
            $0.setSelected("T", "C")
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R89 exhaustive: tapping the selected tab pops its navigation controller to the root")
    func exhaustiveTapSelectedPops() {
        var w = delegatedTabs()
        w.send(.tapTab(receiver: "T", index: 0, viewController: nil)) {
            $0.modify("B") { $0.parent = nil }
            $0.disappeared("B")
            $0.appeared("A")
            $0.modify("N") { $0.children = ["A"] }
            $0.setStack("N", ["A"])
            $0.nextTransitionNumber += 1
        }
    }
}

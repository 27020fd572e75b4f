import Testing
import NavigationCore

/// Operations that meet a running transition (R81, D21, D22) and the popover-only rules (R17, R39).
@Suite("overlapping transitions and popovers (R17, R39, R81, D21, D22)")
struct OverlapAndPopoverTests {
    let anchor = PopoverAnchor(sourceView: "button")

    func manualNavigation(_ policy: NavigationTransitionPolicy) -> Window {
        Window(root: nav("N", vc("A")), options: Options(iOS: .iOS17, transitions: .manual, navTransitionPolicy: policy))
    }

    @Test("R81 (queue): a push while a push animates changes the stack at once; its transition waits for the first")
    func pushWhilePushingIsQueued() {
        var w = manualNavigation(.queue)
        let first = w.perform(Op.push("N", vc("B")))
        #expect(
            names(first) == [
                "B.willMoveToParent(N)", "B.viewDidLoad", "A.viewWillDisappear",
                "B.viewWillAppear", "B.viewIsAppearing",
            ])
        let second = w.perform(Op.push("N", vc("C")))
        #expect(names(second) == ["C.willMoveToParent(N)"], "nothing starts while B's push runs")
        #expect(second.warnings.isEmpty)
        #expect(w.stack("N") == ["A", "B", "C"], "R77: the stack changes at once")
        #expect(second.transition?.state == .queued)
        #expect(w.running.map(\.state) == [.inProgress, .queued])

        let tick = w.perform(Op.tick)
        #expect(
            names(tick) == [
                "A.viewDidDisappear", "B.viewDidAppear", "B.didMoveToParent(N)",
                "C.viewDidLoad", "B.viewWillDisappear", "C.viewWillAppear", "C.viewIsAppearing",
            ],
            "the first push ends, then the queued one starts")
        #expect(tick.transition?.id == first.transition?.id)
        #expect(w.running.map(\.id) == [second.transition!.id] && w.running.map(\.state) == [.inProgress])

        let last = w.perform(Op.tick)
        #expect(names(last) == ["B.viewDidDisappear", "C.viewDidAppear", "C.didMoveToParent(N)"])
        #expect(w.running.isEmpty && w.isAppeared("C") && w.isDisappeared("B"))
        w.checkInvariants()
    }

    @Test("R81 (queue): a queued transition cannot be completed or cancelled before it starts")
    func queuedTransitionWaits() {
        var w = manualNavigation(.queue)
        w.perform(Op.push("N", vc("B")))
        let queued = w.perform(Op.pop("N")).transition!.id
        let before = w.state
        let (_, complete) = Navigator.apply(.completeTransition(id: queued), to: w.state)
        let (_, cancel) = Navigator.apply(.cancelTransition(id: queued), to: w.state)
        guard case .invalid = complete, case .invalid = cancel else {
            Issue.record("expected both to be invalid, got \(complete) and \(cancel)")
            return
        }
        #expect(w.state == before)
    }

    @Test("R38/R83: an interactive push given up: the stack goes back and the pushed controller leaves (didMove(nil))")
    func cancelledPush() {
        var w = manualNavigation(.queue)
        let t = w.perform(Op.push("N", vc("B"))).transition!.id
        let r = w.perform(.cancelTransition(id: t))
        #expect(
            names(r) == [
                "A.viewWillAppear", "B.viewWillDisappear", "B.viewDidDisappear", "A.viewDidAppear",
                "B.didMoveToParent(nil)",
            ])
        #expect(r.transition?.state == .cancelled)
        #expect(w.stack("N") == ["A"] && w["B"].parent == nil && w["N"].children == ["A"])
        #expect(Set(w.state.settledViewsInWindow) == ["N", "A"] && w.isAppeared("A") && w.isDisappeared("B"))
        w.checkInvariants()
    }

    @Test("R38: a pop given up gives the popped controllers their didMove(nav) back")
    func cancelledPop() {
        var w = manualNavigation(.queue)
        w.perform(Op.push("N", vc("B"), animated: false))
        let t = w.perform(Op.pop("N")).transition!.id
        let r = w.perform(.cancelTransition(id: t))
        #expect(names(r).last == "B.didMoveToParent(N)")
        #expect(w.stack("N") == ["A", "B"] && w.isAppeared("B"))
    }

    @Test("Only interactive transitions can be cancelled, and not while another waits behind them (R81)")
    func cancelRefusals() {
        var n = manualNavigation(.queue)
        let first = n.perform(Op.push("N", vc("B"))).transition!.id
        n.perform(Op.push("N", vc("C")))
        let before = n.state
        let (_, outcome) = Navigator.apply(.cancelTransition(id: first), to: n.state)
        guard case .invalid(let e) = outcome else {
            Issue.record("expected a conflict, got \(outcome)")
            return
        }
        #expect(e.kind == .transitionConflict)
        #expect(n.state == before)
        n.perform(Op.tick)
        n.perform(Op.tick)
        let set = n.perform(Op.setViewControllers("N", [id("A")])).transition!.id
        let (_, notInteractive) = Navigator.apply(.cancelTransition(id: set), to: n.state)
        guard case .invalid(let e2) = notInteractive else {
            Issue.record("expected a conflict, got \(notInteractive)")
            return
        }
        #expect(e2.kind == .transitionConflict && e2.message.contains("setViewControllers"))
        let (_, unknown) = Navigator.apply(.completeTransition(id: "t999"), to: n.state)
        guard case .invalid(let e3) = unknown else { Issue.record("expected unknown, got \(unknown)"); return }
        #expect(e3.kind == .unknownTransition)
    }

    @Test("R81: running transitions are listed before the queued ones")
    func listOrder() {
        var w = manualNavigation(.queue)
        w.perform(Op.push("N", vc("B")))
        w.perform(Op.push("N", vc("C")))
        w.perform(Op.pop("N"))
        w.perform(Op.tick)
        #expect(w.running.map(\.state) == [.inProgress, .queued])
    }

    @Test("R78: pop at the root returns nil, and says so")
    func popAtRootReturnsNil() {
        var w = Window(root: nav("N", vc("A")))
        let r = w.perform(Op.pop("N"))
        #expect(r.returned == nil && r.returnsValue && r.events.isEmpty)
    }

    @Test("R81 (warnAndDrop): push, pop and setViewControllers during a push are dropped with D22")
    func nestedNavigationTransitionIsDropped() {
        var w = manualNavigation(.warnAndDrop)
        w.perform(Op.push("N", vc("B")))
        expectDiagnostic(
            w.refuse(Op.push("N", vc("C"))), code: "D22", slug: "nested-navigation-transition",
            severity: .warning, name: nil, message: "nested push animation can result in corrupted navigation bar")
        expectDiagnostic(
            w.refuse(Op.pop("N")), code: "D22", slug: "nested-navigation-transition",
            severity: .warning, name: nil, message: "nested pop animation can result in corrupted navigation bar")
        expectDiagnostic(
            w.refuse(Op.setViewControllers("N", [id("A")])), code: "D22", slug: "nested-navigation-transition",
            severity: .warning, name: nil,
            message: "Finishing up a navigation transition in an unexpected state. Navigation Bar subview tree might get corrupted.")
        w.perform(Op.tick)
        #expect(names(w.perform(Op.push("N", vc("C")))).first == "C.willMoveToParent(N)", "accepted once the push has ended")
    }

    @Test("R81 (warnAndDrop): two animated pushes in one turn: the second is nested, even in immediate mode")
    func nestedInOneTurn() {
        var w = Window(root: nav("N", vc("A")), options: Options(navTransitionPolicy: .warnAndDrop))
        let outcomes = w.turn([Op.push("N", vc("B")), Op.push("N", vc("C"))])
        #expect(outcomes[0].result != nil)
        #expect(outcomes[1].diagnostic?.code == "D22")
        #expect(w.stack("N") == ["A", "B"] && w.isAppeared("B"))
        // Not animated, nothing overlaps.
        let calm = w.turn([Op.push("N", vc("D"), animated: false), Op.push("N", vc("E"), animated: false)])
        #expect(calm.allSatisfy { $0.result != nil })
    }

    @Test("R81 (queue, immediate mode): two pushes in one turn run one after the other")
    func twoPushesInOneTurnRunInOrder() {
        var w = Window(root: nav("N", vc("A")))
        let outcomes = w.turn([Op.push("N", vc("B")), Op.push("N", vc("C"))])
        #expect(
            names(outcomes[0].result!) == [
                "B.willMoveToParent(N)", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
                "A.viewDidDisappear", "B.viewDidAppear", "B.didMoveToParent(N)",
            ])
        #expect(
            names(outcomes[1].result!) == [
                "C.willMoveToParent(N)", "C.viewDidLoad", "B.viewWillDisappear", "C.viewWillAppear", "C.viewIsAppearing",
                "B.viewDidDisappear", "C.viewDidAppear", "C.didMoveToParent(N)",
            ])
    }

    @Test("R81/R83: the back swipe does not begin while the navigation controller animates")
    func interactivePopWhileAnimating() {
        var w = manualNavigation(.queue)
        w.perform(Op.push("N", vc("B")))
        let r = w.perform(.interactivePop(receiver: "N", completes: true))
        #expect(r.events.isEmpty && r.transition == nil)
        #expect(w.stack("N") == ["A", "B"])
    }

    @Test("D21 (R38): presenting over a push that is still animating logs unbalanced appearance for the pushed one")
    func presentOverRunningPush() {
        var w = manualNavigation(.queue)
        w.perform(Op.push("N", vc("B")))
        let r = w.perform(Op.present("B", vc("X"), .fullScreen))
        expectDiagnostic(
            r.warnings.first, code: "D21", slug: "unbalanced-appearance", severity: .warning, name: nil,
            message: "Unbalanced calls to begin/end appearance transitions for \(desc("B")).")
        #expect(r.warnings.count == 1, "N's own appearance was balanced")
        #expect(
            names(r) == [
                "X.viewDidLoad", "N.viewWillDisappear", "B.viewWillDisappear",
                "X.viewWillAppear", "X.viewIsAppearing",
            ], "UIKit only logs; the callbacks go on")
        #expect(w.presented("N") == "X")
    }

    @Test("D21: a settled window logs nothing")
    func balancedPresentLogsNothing() {
        var w = Window(root: nav("N", vc("A")))
        #expect(w.perform(Op.present("A", vc("X"), .fullScreen)).warnings.isEmpty)
    }

    // MARK: - Popovers

    /// iPad, `R` root, `P` shown in a real popover from it.
    func popoverWindow() -> Window {
        var w = Window(root: vc("R"), traits: iPadRegular)
        w.perform(Op.present("R", vc("P"), .popover, popover: anchor))
        #expect(w.style("P") == .popover)
        return w
    }

    @Test(
        "R17: a context style from inside a popover takes only coverVertical",
        arguments: [
            TransitionStyle.flipHorizontal, .crossDissolve,
        ])
    func contextStyleInPopover(transition: TransitionStyle) {
        var w = popoverWindow()
        for style in [PresentationStyle.currentContext, .overCurrentContext] {
            let d = w.refuse(Op.present("P", vc("X"), style, transition: transition))
            expectDiagnostic(
                d, code: nil, slug: "context-style-in-popover", severity: .exception,
                name: "NSInvalidArgumentException", message: d?.message)
            #expect(d?.message.contains(desc("X")) == true)
        }
        w.perform(Op.present("P", vc("Y"), .overCurrentContext, transition: .coverVertical))
        #expect(w.presented("P") == "Y")
    }

    @Test("R17: outside a popover a context style takes any transition but partial curl")
    func contextStyleOutsidePopover() {
        var w = Window(root: nav("N", vc("A")), traits: iPadRegular)
        w.perform(Op.present("A", vc("X"), .overCurrentContext, transition: .crossDissolve))
        #expect(w.presenting("X") == "N")
    }

    @Test("R39: a presenter inside a popover gets no viewDidAppear when what it presented is dismissed")
    func presenterInPopoverAfterDismissal() {
        var w = popoverWindow()
        w.perform(Op.present("P", vc("X"), .fullScreen))
        #expect(w.presenting("X") == "P")
        let events = names(w.perform(Op.dismiss("X")))
        #expect(
            events == [
                "X.viewWillDisappear", "P.viewWillAppear", "P.viewIsAppearing", "X.viewDidDisappear",
                "X.completion",
            ], "R34 without P.viewDidAppear")
        #expect(w.isAppeared("P"), "its view is back in the window all the same")
    }

    @Test("R93/R76: a split view controller cannot be pushed (UIKit's observed text)")
    func pushSplitViewController() {
        var w = Window(root: nav("N", vc("A")))
        let d = w.refuse(Op.push("N", split("S", primary: vc("M"), secondary: vc("D"))))
        expectDiagnostic(
            d, code: "D12", slug: "push-navigation-controller", severity: .exception,
            name: "NSInvalidArgumentException",
            message: "Split View Controllers cannot be pushed to a Navigation Controller \(desc("N", .navigationController))")
    }
}

/// UIAlertController's action sheet is a popover on iPad (R15, D10) and needs an anchor there.
@Suite("alert controller action sheets (R15, R19, D10)")
struct ActionSheetTests {
    func sheet(_ id: ControllerID) -> ControllerRef {
        make(id, .alertController) { $0.preferredStyle = .actionSheet }
    }

    @Test("R15/D10: an unanchored action sheet on iPad raises UIKit's action-sheet text")
    func actionSheetNeedsAnchorOnPad() {
        var w = Window(root: nav("N", vc("A")), traits: iPadRegular)
        let d = w.refuse(Op.present("A", sheet("S")))
        expectDiagnostic(
            d, code: "D10", slug: "popover-without-anchor", severity: .exception, name: "NSGenericException",
            message:
                "Your application has presented a UIAlertController (<UIAlertController: S>) of style UIAlertControllerStyleActionSheet from UINavigationController (\(desc("N", .navigationController))). The modalPresentationStyle of a UIAlertController with this style is UIModalPresentationPopover. You must provide location information for this popover through the alert controller's popoverPresentationController. You must provide either a sourceView and sourceRect or a barButtonItem.  If this information is not known when you present the alert controller, you may provide it in the UIPopoverPresentationControllerDelegate method -prepareForPopoverPresentation."
        )
        w.perform(Op.present("A", sheet("S2"), popover: PopoverAnchor(barButtonItem: "share")))
        #expect(w.style("S2") == .popover && w.presenting("S2") == "N")
        #expect(w["S2"].modalPresentationStyle == .popover, "UIKit sets it: the D10 text says so")
    }

    @Test("R19: on iPhone, and in a compact iPad window, an action sheet needs no anchor and keeps the presenter on screen")
    func actionSheetOnPhone() {
        for traits in [iPhonePortrait, iPadCompactWidth] {
            var w = Window(root: vc("A"), traits: traits)
            let r = w.perform(Op.present("A", sheet("S")))
            #expect(w.style("S") == .overFullScreen)
            #expect(!names(r).contains("A.viewWillDisappear"), "R33: the presenter stays")
        }
    }

    @Test("iOS 12 wording leaves out the presenter")
    func legacyWording() {
        var w = Window(root: vc("A"), traits: iPadRegular, options: Options(iOS: .iOS12))
        let d = w.refuse(Op.present("A", sheet("S")))
        #expect(
            d?.message.hasPrefix(
                "Your application has presented a UIAlertController (<UIAlertController: S>) of style UIAlertControllerStyleActionSheet. The modalPresentationStyle") == true)
    }
}

/// Transitions that outlive the window they started in: a tab switch or a full-screen
/// presentation hides a navigation controller whose push is still running (R38, R81, D21).
@Suite("interleaved transitions stay consistent (R36, R38, R81)")
struct InterleavedTransitionTests {
    /// With nothing running, the views in the window are exactly the settled ones, all appeared.
    func expectSettled(_ w: Window, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(w.running.isEmpty, sourceLocation: sourceLocation)
        let inWindow = Set(w.state.order.filter(w.state.isViewInWindow))
        #expect(inWindow == Set(w.state.settledViewsInWindow), sourceLocation: sourceLocation)
        for id in w.state.order {
            let appeared = w[id].appearance == .appeared
            #expect(
                appeared == inWindow.contains(id), "\(id): \(w[id].appearance), in window \(inWindow.contains(id))",
                sourceLocation: sourceLocation)
        }
        w.checkInvariants(sourceLocation: sourceLocation)
    }

    /// Per controller, appearance callbacks alternate will → did and appear ↔ disappear, except
    /// where a D21 warning said UIKit would log them unbalanced.
    func expectBalanced(_ events: [String], except: Set<String> = [], sourceLocation: SourceLocation = #_sourceLocation) {
        var last: [String: String] = [:]
        for e in events {
            let parts = e.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, !except.contains(parts[0]) else { continue }
            let cb = parts[1]
            guard ["viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear"].contains(cb) else { continue }
            let previous = last[parts[0]]
            let allowed: [String?: [String]] = [
                nil: ["viewWillAppear", "viewWillDisappear"], "viewWillAppear": ["viewDidAppear", "viewWillDisappear"],
                "viewDidAppear": ["viewWillDisappear"], "viewWillDisappear": ["viewDidDisappear", "viewWillAppear"],
                "viewDidDisappear": ["viewWillAppear"],
            ]
            #expect(
                allowed[previous]?.contains(cb) == true, "\(parts[0]): \(previous ?? "start") then \(cb) in \(events)",
                sourceLocation: sourceLocation)
            last[parts[0]] = cb
        }
    }

    func tabsWithNavigation() -> Window {
        Window(root: tabs("T", [nav("N", vc("H")), vc("O")], selected: 0), options: manual)
    }

    @Test("A tab switch while a push runs: the pushed controller leaves with the tab; the push's end adds no viewDidAppear")
    func tabSwitchOverRunningPush() {
        var w = tabsWithNavigation()
        var events = names(w.perform(Op.push("N", vc("A"))))
        let select = w.perform(.select(receiver: "T", index: 1, viewController: nil))
        events += names(select)
        #expect(select.warnings.map(\.code) == ["D21"], "A's appearance had begun")
        #expect(!w.state.isViewInWindow("H"), "H's view went with N's")
        events += names(w.perform(Op.tick))
        #expect(!events.contains("A.viewDidAppear"))
        #expect(events.last(where: { $0.hasPrefix("H.") }) == "H.viewDidDisappear")
        expectSettled(w)
        expectBalanced(events, except: ["A"])
        #expect(w.stack("N") == ["H", "A"], "the push itself happened")
        events = names(w.perform(.select(receiver: "T", index: 0, viewController: nil)))
        #expect(events.contains("A.viewWillAppear") && events.contains("A.viewDidAppear"))
        expectSettled(w)
    }

    @Test("A full-screen presentation over a running push, finished in either order or with the push cancelled")
    func fullScreenOverRunningPush() {
        for order in ["presentFirst", "pushFirst", "cancelPush", "cancelPushWhilePresenting"] {
            var w = Window(root: nav("N", vc("H")), options: manual)
            let pushResult = w.perform(Op.push("N", vc("A")))
            let presentResult = w.perform(Op.present("A", vc("M"), .fullScreen))
            let push = pushResult.transition!.id, present = presentResult.transition!.id
            var events = names(pushResult) + names(presentResult)
            switch order {
            case "presentFirst":
                events += names(w.perform(.completeTransition(id: present)))
                events += names(w.perform(.completeTransition(id: push)))
            case "pushFirst":
                events += names(w.perform(.completeTransition(id: push)))
                events += names(w.perform(.completeTransition(id: present)))
            case "cancelPush":
                events += names(w.perform(.completeTransition(id: present)))
                events += names(w.perform(.cancelTransition(id: push)))
            default:
                events += names(w.perform(.cancelTransition(id: push)))
                events += names(w.perform(.completeTransition(id: present)))
            }
            expectSettled(w)
            expectBalanced(events, except: ["A"])
            #expect(w.presented("N") == "M" && w.isAppeared("M"), "\(order)")
            #expect(!events.contains("H.viewWillAppear"), "\(order): H stays covered by M")
            events = names(w.perform(Op.dismiss("M")))
            events += names(w.perform(Op.tick))
            expectSettled(w)
            let top = order.hasPrefix("cancel") ? "H" : "A"
            #expect(w.state.topViewController("N") == top && w.isAppeared(top), "\(order)")
        }
    }

    @Test("R81: pushes queued on a navigation controller that a tab switch hides run without showing anything")
    func queuedPushesOffScreen() {
        var w = tabsWithNavigation()
        w.perform(Op.push("N", vc("A")))
        w.perform(Op.push("N", vc("B")))
        w.perform(Op.push("N", vc("C")))
        w.perform(.select(receiver: "T", index: 1, viewController: nil))
        var events: [String] = []
        while !w.running.isEmpty { events += names(w.perform(Op.tick)) }
        #expect(!events.contains { $0.hasSuffix(".viewWillAppear") && !$0.hasPrefix("O.") })
        expectSettled(w)
        #expect(w.stack("N") == ["H", "A", "B", "C"])
        events = names(w.perform(.select(receiver: "T", index: 0, viewController: nil)))
        #expect(events.contains("C.viewDidAppear") && !events.contains("B.viewWillAppear"))
        expectSettled(w)
    }

    @Test("R81: a push and a pop queued behind a running push cancel out on screen")
    func queuedPushThenPop() {
        var w = Window(root: nav("N", vc("H")), options: manual)
        var events = names(w.perform(Op.push("N", vc("A"))))
        events += names(w.perform(Op.push("N", vc("B"))))
        events += names(w.perform(Op.pop("N")))
        while !w.running.isEmpty { events += names(w.perform(Op.tick)) }
        #expect(!events.contains { $0.hasPrefix("B.view") && $0 != "B.viewDidLoad" }, "B never reaches the screen: \(events)")
        expectBalanced(events)
        expectSettled(w)
        #expect(w.stack("N") == ["H", "A"] && w.isAppeared("A"))
    }
}

/// Found by a random walk over HTTP (three reproductions, minimised): changes beneath or around a
/// running transition, then a cancel or a tick.
@Suite("interleaved transitions, found by a random walk (R36, R38, R81)")
struct RandomWalkRegressionTests {
    let helper = InterleavedTransitionTests()

    func tabsWindow() -> Window {
        Window(root: tabs("T", [nav("N", vc("H")), vc("P")], selected: 0), options: manual)
    }

    @Test("A presentation given up after a push beneath it: the new top appears")
    func cancelPresentationAfterPushBeneath() {
        var w = tabsWindow()
        let t = w.perform(Op.present("H", vc("M"), .fullScreen)).transition!.id
        #expect(names(w.perform(Op.push("N", vc("X")))) == ["X.willMoveToParent(N)", "X.didMoveToParent(N)"], "N is being covered")
        let events = names(w.perform(.cancelTransition(id: t)))
        #expect(events.contains("X.viewDidLoad") && events.contains("X.viewDidAppear"), "\(events)")
        #expect(events.contains("H.viewDidDisappear") && !events.contains("H.viewDidAppear"), "\(events)")
        helper.expectSettled(w)
        #expect(w.state.visibleViewController == "X")
    }

    @Test("A presentation given up after a tab switch beneath it: the selected tab appears")
    func cancelPresentationAfterSelectBeneath() {
        var w = tabsWindow()
        let t = w.perform(Op.present("T", vc("M"), .fullScreen)).transition!.id
        w.perform(.select(receiver: "T", index: 1, viewController: nil))
        let events = names(w.perform(.cancelTransition(id: t)))
        #expect(events.contains("P.viewDidLoad") && events.contains("P.viewDidAppear"), "\(events)")
        helper.expectSettled(w)
    }

    @Test("A presentation given up while a push inside it runs: the pushed controller leaves with it")
    func cancelPresentationWithPushInside() {
        var w = tabsWindow()
        let t = w.perform(Op.present("H", nav("M", vc("MR")), .pageSheet)).transition!.id
        w.perform(Op.push("M", vc("Q")))
        var events = names(w.perform(.cancelTransition(id: t)))
        events += names(w.perform(Op.tick))
        #expect(!events.contains("Q.viewDidAppear"), "\(events)")
        helper.expectSettled(w)
        #expect(w.presented("H") == nil)
    }

    @Test("A dismissal given up while a push beneath it runs: the pushed controller is covered again")
    func cancelDismissalWithPushBeneath() {
        var w = tabsWindow()
        w.perform(Op.present("H", vc("M"), .fullScreen))
        w.perform(Op.tick)
        let t = w.perform(Op.dismiss("M")).transition!.id
        w.perform(Op.push("N", vc("X")))
        var events = names(w.perform(.cancelTransition(id: t)))
        events += names(w.perform(Op.tick))
        helper.expectSettled(w)
        #expect(w.presented("N") == "M" && w.isAppeared("M") && !w.isAppeared("X"), "\(events)")
    }

    @Test("R81: a tab switch over a queued push: the controller on screen leaves, not the queued one")
    func selectOverQueuedPush() {
        var w = tabsWindow()
        w.perform(Op.push("N", vc("A")))
        w.perform(Op.push("N", vc("B")))
        let select = w.perform(.select(receiver: "T", index: 1, viewController: nil))
        #expect(of("B", names(select)).isEmpty, "B never reached the screen")
        #expect(names(select).contains("A.viewWillDisappear") && select.warnings.map(\.code) == ["D21"])
        var events: [String] = []
        while !w.running.isEmpty { events += names(w.perform(Op.tick)) }
        #expect(!events.contains("A.viewDidAppear") && !events.contains { $0.hasPrefix("B.view") && $0 != "B.viewDidLoad" }, "\(events)")
        helper.expectSettled(w)
    }

    @Test("R39 stays: the popover-side presenter is appeared without a viewDidAppear")
    func popoverPresenterStaysSilent() {
        var w = Window(root: tabs("T", [vc("H")], selected: 0), traits: iPadRegular)
        w.perform(Op.present("T", vc("M"), .popover, popover: PopoverAnchor(sourceView: "T")))
        w.perform(Op.present("M", vc("X"), .fullScreen))
        let events = names(w.perform(Op.dismiss("X")))
        #expect(events.contains("M.viewWillAppear") && !events.contains("M.viewDidAppear") && w.isAppeared("M"))
    }
}

// MARK: - Exhaustive: overlapping navigation transitions

extension OverlapAndPopoverTests {
    @Test("R81 (queue) exhaustive: a push during a push changes the stack at once and queues its transition")
    func exhaustiveQueuedPush() {
        var w = manualNavigation(.queue)
        w.perform(Op.push("N", vc("B")))
        w.send(Op.push("N", vc("C")), events: ["C.willMoveToParent(N)"]) {
            $0.create("C") {
                $0.parent = "N"; $0.isMovingToParent = true
            }
            $0.modify("N") { $0.children = ["A", "B", "C"] }
            $0.setStack("N", ["A", "B", "C"])
            $0.startRunning(
                TransitionRecord(
                    id: "t3", operation: .push, fromViewController: "B", toViewController: "C",
                    presentationStyle: nil, transitionStyle: nil, animated: true, duration: 0.35,
                    animator: nil, containerView: ["B", "C"], state: .queued))
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R81 (warnAndDrop) exhaustive: push, pop and setViewControllers during a push are refused; nothing moves")
    func exhaustiveDroppedDuringPush() {
        var w = manualNavigation(.warnAndDrop)
        w.perform(Op.push("N", vc("B")))
        w.sendRefused(Op.push("N", vc("C")), code: "D22", slug: "nested-navigation-transition")
        w.sendRefused(Op.pop("N"), code: "D22", slug: "nested-navigation-transition")
        w.sendRefused(Op.setViewControllers("N", [id("A")]), code: "D22", slug: "nested-navigation-transition")
    }
}

extension OverlapAndPopoverTests {
    @Test("R38/R83 exhaustive: a back swipe given up leaves the stack, parents and appearance as they were; A's view is loaded")
    func exhaustiveInteractivePopCancelled() {
        var w = Window(root: nav("N", vc("A"), vc("B")))
        w.send(.interactivePop(receiver: "N", completes: false)) {
            // A came half way on screen, so its view was loaded; it stays loaded.
            $0.modify("A") { $0.isViewLoaded = true }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R83 exhaustive: a finished back swipe is a pop")
    func exhaustiveInteractivePopFinishes() {
        var w = Window(root: nav("N", vc("A"), vc("B")))
        w.send(.interactivePop(receiver: "N", completes: true)) {
            $0.modify("B") { $0.parent = nil }
            $0.disappeared("B")
            $0.appeared("A")
            $0.modify("N") { $0.children = ["A"] }
            $0.setStack("N", ["A"])
            $0.nextTransitionNumber += 1
        }
    }
}

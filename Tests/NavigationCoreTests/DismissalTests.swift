import Testing
@testable import NavigationCore

/// §4–§6: dismissal receivers, chains, callbacks, and the timing rules around running transitions.
@Suite("dismiss (R34–R46) and timing (R27, R30, R43)")
struct DismissalTests {
    /// A⇒B⇒C, all full screen, settled.
    func chain(
        _ options: Options = Options(), bStyle: PresentationStyle = .fullScreen,
        cStyle: PresentationStyle = .fullScreen
    ) -> Window {
        var w = Window(root: vc("A"), options: options)
        w.perform(Op.present("A", vc("B"), bStyle, animated: false))
        w.perform(Op.present("B", vc("C"), cStyle, animated: false))
        return w
    }

    @Test("R34/R40: the top presented controller dismisses itself; its presenter reappears (S31)")
    func dismissTop() {
        var w = chain()
        let r = w.perform(Op.dismiss("C"))
        #expect(
            names(r) == [
                "C.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear",
                "C.viewDidDisappear", "C.completion",
            ])
        #expect(w.presented("A") == "B" && w.presented("B") == nil)
        #expect(w["C"].presentation == nil && w.presenting("C") == nil)
        #expect(r.transition?.fromViewController == "C" && r.transition?.toViewController == "B", "R58")
        #expect(r.transition?.operation == .dismiss)
        w.checkInvariants()
    }

    @Test("R40: a presenting controller dismisses what it presented, not itself (S32)")
    func dismissFromPresenter() {
        var w = chain()
        let r = w.perform(Op.dismiss("B"))
        #expect(
            names(r) == [
                "C.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear",
                "C.viewDidDisappear", "B.completion",
            ])
        #expect(w.presented("A") == "B")
        #expect(w.presented("B") == nil)
    }

    @Test("R41/R42/R36: dismissing low in the chain removes everything above; only the top animates; B gets nothing (S33)")
    func chainDismissal() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", vc("B"), .fullScreen, transition: .flipHorizontal, animated: false))
        w.perform(Op.present("B", vc("C"), .fullScreen, transition: .crossDissolve, animated: false))
        let r = w.perform(Op.dismiss("A"))
        #expect(
            names(r) == [
                "C.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing", "A.viewDidAppear",
                "C.viewDidDisappear", "A.completion",
            ])
        #expect(w.presented("A") == nil)
        #expect(w["B"].presentation == nil && w["C"].presentation == nil)
        #expect(w["B"].presentedID == nil)
        #expect(r.transition?.fromViewController == "C" && r.transition?.toViewController == "A")
        #expect(r.transition?.transitionStyle == .crossDissolve, "R23/R41: the top-most one's own style")
        #expect(w.isAppeared("A") && w.isDisappeared("B") && w.isDisappeared("C"))
        w.checkInvariants()
    }

    @Test("R41: a context presentation inside a dismissed container goes with it")
    func chainIncludesContextPresentation() {
        // A⇒N2[B] full screen; B defines a context and presents C in it: C is above N2 (R41).
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", nav("N2", vc("B") { $0.definesPresentationContext = true }), .fullScreen))
        w.perform(Op.present("B", vc("C"), .currentContext))
        #expect(w.presenting("C") == "B")
        #expect(Set(w.state.settledViewsInWindow) == ["N2", "C"], "R24: only the context controller's view is removed")
        let r = w.perform(Op.dismiss("A"))
        expectGroups(
            names(r),
            [
                ["N2.viewWillDisappear", "C.viewWillDisappear"], ["A.viewWillAppear"], ["A.viewIsAppearing"], ["A.viewDidAppear"],
                ["N2.viewDidDisappear", "C.viewDidDisappear"], ["A.completion"],
            ])
        #expect(w["C"].presentation == nil && w["B"].presentedID == nil)
        #expect(w["N2"].presentation == nil && w.presented("A") == nil)
        #expect(of("B", names(r)).isEmpty, "R42: B was not visible")
        w.checkInvariants()
    }

    @Test("R35/R42: a chain of over-full-screen presentations: both disappear, A gets nothing (S34)")
    func overFullScreenChain() {
        var w = chain(bStyle: .overFullScreen, cStyle: .overFullScreen)
        let r = w.perform(Op.dismiss("A"))
        expectGroups(
            names(r),
            [
                ["C.viewWillDisappear", "B.viewWillDisappear"], ["C.viewDidDisappear", "B.viewDidDisappear"], ["A.completion"],
            ])
        #expect(w.presented("A") == nil)
    }

    @Test("R40/R3: the root child of a presented navigation controller dismisses the whole navigation controller (S35)")
    func childDismissesItsContainer() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", nav("N", vc("R")), .fullScreen))
        let r = w.perform(Op.dismiss("R"))
        expectGroups(
            names(r),
            [
                ["N.viewWillDisappear", "R.viewWillDisappear"], ["A.viewWillAppear"], ["A.viewIsAppearing"], ["A.viewDidAppear"],
                ["N.viewDidDisappear", "R.viewDidDisappear"], ["R.completion"],
            ])
        #expect(w.presented("A") == nil)
        #expect(w["N"].presentation == nil)
        #expect(w.stack("N") == ["R"], "the navigation controller keeps its stack")
    }

    @Test("R40/R4/R35: a child whose container presents X dismisses X, not the container (S36)")
    func childDismissesWhatItsContainerPresents() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", nav("N", vc("R")), .fullScreen))
        w.perform(Op.present("N", vc("X"), .pageSheet))
        let r = w.perform(Op.dismiss("R"))
        #expect(names(r) == ["X.viewWillDisappear", "X.viewDidDisappear", "R.completion"])
        #expect(w.presented("A") == "N")
        #expect(w["N"].presentedID == nil)
        #expect(w["X"].presentation == nil)
    }

    @Test("R35/R51: dismissing a sheet sends nothing to the presenter (S37)")
    func dismissSheet() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", vc("B")))
        let r = w.perform(Op.dismiss("A"))
        #expect(names(r) == ["B.viewWillDisappear", "B.viewDidDisappear", "A.completion"])
        #expect(w.presented("A") == nil)
        #expect(w.isAppeared("A"))
    }

    @Test("R45: dismiss with nothing presented changes nothing and fires no callbacks (S38)")
    func nothingToDismiss() {
        var w = Window(root: nav("N", vc("A")))
        let before = w.state
        let r = w.perform(Op.dismiss("A"))
        // Whether UIKit still runs the completion is [INF]; only the rest is asserted.
        #expect(names(r).filter { !$0.hasSuffix(".completion") }.isEmpty)
        #expect(r.transition == nil)
        #expect(w.state == before)
    }

    @Test("R25/R34: during a running dismissal the links stay and isBeingDismissed is set; both clear at the end (S39)")
    func runningDismissal() {
        var w = Window(root: vc("A"), options: manual)
        w.perform(Op.present("A", vc("B"), .fullScreen, animated: false))
        let start = w.perform(Op.dismiss("A"))
        #expect(names(start) == ["B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing"])
        #expect(start.transition?.state == .inProgress)
        #expect(w["B"].isBeingDismissed)
        #expect(!w["A"].isBeingDismissed && !w["A"].isBeingPresented)
        #expect(w.presenting("B") == "A" && w.presented("A") == "B")
        let end = w.perform(Op.tick)
        #expect(names(end) == ["A.viewDidAppear", "B.viewDidDisappear", "A.completion"])
        #expect(w.presenting("B") == nil && w.presented("A") == nil)
        #expect(!w["B"].isBeingDismissed)
    }

    @Test("R43/R27: dismiss in the same turn as the present logs D9; the completion never runs (S27)")
    func dismissDuringPresentation() {
        var w = Window(root: vc("A"))
        let outcomes = w.turn([Op.present("A", vc("B"), .fullScreen), Op.dismiss("A")])
        expectDiagnostic(
            outcomes[1].diagnostic, code: "D9", slug: "dismiss-in-progress", severity: .warning, name: nil,
            message: "Attempt to dismiss from view controller \(desc("A")) while a presentation or dismiss is in progress!")
        let presented = outcomes[0].result.map(names) ?? []
        #expect(
            presented == [
                "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
                "B.viewDidAppear", "A.viewDidDisappear", "A.completion",
            ])
        #expect(w.presented("A") == "B")
        #expect(w["B"].presentation?.state == .presented)
    }

    @Test("R43: a second dismiss while the first is running logs D9 naming the presenter")
    func dismissDuringDismissal() {
        var w = Window(root: nav("N", vc("A")), options: manual)
        w.perform(Op.present("A", vc("B"), animated: false))
        w.perform(Op.dismiss("B"))
        let d = w.refuse(Op.dismiss("B"))
        expectDiagnostic(
            d, code: "D9", slug: "dismiss-in-progress", severity: .warning, name: nil,
            message: "Attempt to dismiss from view controller \(desc("N", .navigationController)) while a presentation or dismiss is in progress!")
        let end = w.perform(Op.tick)
        #expect(names(end) == ["B.viewDidDisappear", "B.completion"], "only the first dismissal's completion runs (R30)")
    }

    @Test("R43: dismissing low in a chain while the top presentation is still running logs D9")
    func dismissChainWhileTopPresents() {
        var w = Window(root: vc("A"), options: manual)
        w.perform(Op.present("A", vc("B"), .fullScreen, animated: false))
        w.perform(Op.present("B", vc("C"), .fullScreen))
        #expect(w["C"].isBeingPresented)
        let d = w.refuse(Op.dismiss("A"))
        expectDiagnostic(
            d, code: "D9", slug: "dismiss-in-progress", severity: .warning, name: nil,
            message: "Attempt to dismiss from view controller \(desc("A")) while a presentation or dismiss is in progress!")
        w.perform(Op.tick)
        let r = w.perform(Op.dismiss("A", animated: false))
        #expect(
            names(r) == [
                "C.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing", "A.viewDidAppear",
                "C.viewDidDisappear", "A.completion",
            ])
    }

    @Test("R12/R27: a second present in the same turn meets the first one's links (S29)")
    func secondPresentSameTurn() {
        var w = Window(root: vc("A"), options: manual)
        let outcomes = w.turn([Op.present("A", vc("B")), Op.present("A", vc("C"))])
        #expect(outcomes[0].result?.transition?.state == .inProgress)
        expectDiagnostic(
            outcomes[1].diagnostic, code: "D6", slug: "already-presenting", severity: .warning, name: nil,
            message: "Attempt to present \(desc("C")) on \(desc("A")) (from \(desc("A"))) which is already presenting \(desc("B")).")
        #expect(w.state["C"] == nil)
        #expect(w["B"].isBeingPresented)
    }

    @Test("R12/R57: a presentation that never completes keeps blocking the presenter (S14)")
    func neverCompletingPresentation() {
        var w = Window(root: nav("N", vc("A")), options: manual)
        w.perform(Op.present("A", vc("V") { $0.transitioningDelegate = TransitioningDelegate(name: "Slow", duration: 2) }, .custom))
        #expect(w["V"].isBeingPresented)
        #expect(w.refuse(Op.present("A", vc("X")))?.code == "D6")
        #expect(w["V"].isBeingPresented)
        #expect(w.running.count == 1)
    }

    @Test("R30: a refused operation inside a turn fires nothing while the others run")
    func refusedInTurn() {
        var w = Window(root: vc("A"))
        let outcomes = w.turn([Op.present("A", .none), Op.present("A", vc("B"), .fullScreen)])
        #expect(outcomes[0].diagnostic?.code == "D1")
        #expect(outcomes[1].result.map(names)?.last == "A.completion")
        #expect(w.presented("A") == "B")
    }

    @Test("R44: programmatic dismiss ignores isModalInPresentation and never asks the adaptive delegate (S43)")
    func programmaticDismissIgnoresModalInPresentation() {
        var w = Window(root: vc("A"))
        w.perform(
            Op.present(
                "A",
                vc("B") {
                    $0.isModalInPresentation = true
                    $0.presentationDelegate = PresentationDelegate(shouldDismiss: false)
                }, .pageSheet))
        let r = w.perform(Op.dismiss("A"))
        #expect(names(r) == ["B.viewWillDisappear", "B.viewDidDisappear", "A.completion"])
        #expect(w.presented("A") == nil)
    }

    @Test("R46: after dismissal a controller can be presented again and does not reload its view")
    func representable() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", vc("B"), .fullScreen))
        w.perform(Op.dismiss("B"))
        #expect(w["B"].presentation == nil)
        #expect(w["B"].isViewLoaded)
        let again = w.perform(Op.present("A", id("B"), .fullScreen))
        #expect(
            names(again) == [
                "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear",
                "A.viewDidDisappear", "A.completion",
            ])
        #expect(w.presenting("B") == "A")
    }

    /// R2 closes the path that once let a transition name a settled chain member: `showDetail`
    /// of a presented controller into a classic split's column is refused as push is (bad
    /// input in navsim's words; UIKit documents no exception), so the presentation stays
    /// settled and dismissable.
    @Test("R2: showDetail of a presented controller is refused; its dismissal then runs")
    func showDetailOfAPresentedController() {
        var w = Window(
            root: split("S", primary: vc("P"), secondary: vc("D")), traits: iPadRegular,
            options: Options(transitions: .manual))
        w.perform(Op.present("S", vc("X"), .fullScreen, animated: false))
        #expect(w["X"].presentation?.state == .presented)
        let before = w.state
        let (next, outcome) = Navigator.apply(.showDetail(receiver: "P", viewController: .existing("X"), animated: false), to: w.state)
        #expect(
            outcome
                == .invalid(
                    .invalid(
                        "<UIViewController: X> is presented; showDetailViewController cannot also make it a child of <UISplitViewController: S>. Dismiss it first (a controller is never both presented and a child).",
                        field: "viewController")))
        expectSameState(before, next, "a refused call changes nothing", sourceLocation: #_sourceLocation)
        #expect(w.perform(Op.dismiss("S", animated: false)).transition?.operation == .dismiss)
    }
}

// MARK: - Exhaustive: the whole state change of each dismissal, and of each refusal

extension DismissalTests {
    @Test("R34 exhaustive: dismissing a full-screen B restores A and clears both ends of the link")
    func exhaustiveDismiss() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", vc("B"), .fullScreen))
        w.send(
            Op.dismiss("B"),
            events: [
                "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing",
                "A.viewDidAppear", "B.viewDidDisappear", "B.completion",
            ]
        ) {
            $0.modify("B") { $0.presentation = nil }
            $0.disappeared("B")
            $0.appeared("A")
            $0.modify("A") { $0.presentedID = nil }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R35/R42 exhaustive: dismiss sent to the root removes the whole chain at once")
    func exhaustiveDismissChain() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", vc("B"), .fullScreen, animated: false))
        w.perform(Op.present("B", vc("C"), .fullScreen, animated: false))
        w.send(Op.dismiss("A")) {
            $0.modify("B") {
                $0.presentation = nil; $0.presentedID = nil
            }
            $0.modify("C") { $0.presentation = nil }
            $0.disappeared("B", "C")
            $0.appeared("A")
            $0.modify("A") { $0.presentedID = nil }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R36/R43 exhaustive (manual): a running dismissal marks B and keeps the links until the tick")
    func exhaustiveManualDismiss() {
        var w = Window(root: vc("A"), options: manual)
        w.perform(Op.present("A", vc("B"), .fullScreen, animated: false))
        w.send(Op.dismiss("B")) {
            $0.modify("B") {
                $0.isBeingDismissed = true; $0.appearance = .disappearing; $0.presentation?.state = .dismissing
            }
            $0.modify("A") {
                $0.appearance = .appearing; $0.viewInWindow = true
            }
            $0.startRunning(
                TransitionRecord(
                    id: "t3", operation: .dismiss, fromViewController: "B", toViewController: "A",
                    presentationStyle: .fullScreen, transitionStyle: .coverVertical, animated: true,
                    duration: 0.5, animator: nil, containerView: ["A", "B"], state: .inProgress))
            $0.nextTransitionNumber += 1
        }
        // R43: a second dismiss while the first runs is refused and changes nothing.
        w.sendRefused(Op.dismiss("B"), code: "D9", slug: "dismiss-in-progress")
        w.sendRefused(Op.present("A", vc("X")), code: "D8", slug: "presentation-in-progress")
        w.send(Op.tick) {
            $0.finishRunning("t3")
            $0.modify("B") {
                $0.isBeingDismissed = false; $0.presentation = nil
            }
            $0.disappeared("B")
            $0.appeared("A")
            $0.modify("A") { $0.presentedID = nil }
        }
    }

    @Test("R43 exhaustive: dismissing low in a chain while the top one is presented is refused, state untouched")
    func exhaustiveDismissWhileTopPresents() {
        var w = Window(root: vc("A"), options: manual)
        w.perform(Op.present("A", vc("B"), .fullScreen, animated: false))
        w.perform(Op.present("B", vc("C"), .fullScreen))
        w.sendRefused(
            Op.dismiss("A"), code: "D9", slug: "dismiss-in-progress",
            message: "Attempt to dismiss from view controller \(desc("A")) while a presentation or dismiss is in progress!")
    }

    @Test("R30 exhaustive: a refused command in a turn contributes nothing; the turn is the other command's change")
    func exhaustiveRefusedInTurn() {
        var w = Window(root: vc("A"))
        let outcomes = w.sendTurn([Op.present("A", .none), Op.present("A", vc("B"), .overFullScreen)]) {
            $0.create("B") {
                $0.modalPresentationStyle = .overFullScreen
                $0.presentation = presentationRecord("A", requested: .overFullScreen)
            }
            $0.appeared("B")
            $0.modify("A") { $0.presentedID = "B" }
            $0.nextTransitionNumber += 1
        }
        #expect(outcomes[0].diagnostic?.code == "D1")
    }
}

extension DismissalTests {
    @Test("R41/R42 exhaustive (manual): dismissing a chain marks its bottom and its top as being dismissed")
    func exhaustiveManualChainDismiss() {
        var w = Window(root: vc("A"), options: manual)
        w.perform(Op.present("A", vc("B"), .fullScreen, animated: false))
        w.perform(Op.present("B", vc("C"), .fullScreen, animated: false))
        w.send(Op.dismiss("A")) {
            $0.modify("B") {
                $0.isBeingDismissed = true; $0.presentation?.state = .dismissing
            }
            $0.modify("C") {
                $0.isBeingDismissed = true; $0.presentation?.state = .dismissing; $0.appearance = .disappearing
            }
            $0.modify("A") {
                $0.appearance = .appearing; $0.viewInWindow = true
            }
            $0.startRunning(
                TransitionRecord(
                    id: "t4", operation: .dismiss, fromViewController: "C", toViewController: "A",
                    presentationStyle: .fullScreen, transitionStyle: .coverVertical, animated: true,
                    duration: 0.5, animator: nil, containerView: ["A", "C"], state: .inProgress))
            $0.nextTransitionNumber += 1
        }
    }
}

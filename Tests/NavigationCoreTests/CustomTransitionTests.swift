import Testing
import NavigationCore

/// §9: transitioning delegates, custom presentations, from/to, cancellation.
@Suite("custom transitions (R56–R61)")
struct CustomTransitionTests {
    let card = TransitioningDelegate(name: "CardAnimator", duration: 0.8)
    let delegateCallbacks: Set<Event.Callback> = [
        .presentationControllerForPresented, .animationControllerForPresented, .animationControllerForDismissed,
        .interactionControllerForPresentation, .interactionControllerForDismissal,
    ]

    func delegateCalls(_ events: [Event]) -> [String] { names(events.filter { delegateCallbacks.contains($0.callback) }) }

    /// S12's initial state: W.root = N[A].
    func customPresentation(options: Options = manual) -> (Window, ActionResult) {
        var w = Window(root: nav("N", vc("A")), options: options)
        let r = w.perform(Op.present("A", vc("V") { $0.transitioningDelegate = card }, .custom))
        return (w, r)
    }

    @Test("R57/R58/R61: a custom presentation asks the delegate in order; from is N; N and A get nothing (S12)")
    func customPresentationSequence() {
        var (w, start) = customPresentation()
        // Delegate order is [DOC]; its interleaving with appearance callbacks is [INF].
        #expect(
            delegateCalls(start.events) == [
                "V.presentationControllerForPresented", "V.animationControllerForPresented",
                "V.interactionControllerForPresentation",
            ])
        #expect(appearance(start.events) == ["V.viewWillAppear", "V.viewIsAppearing"])
        #expect(names(start).contains("V.viewDidLoad"))
        #expect(start.transition?.state == .inProgress, "not finished until the animator completes")
        #expect(start.transition?.fromViewController == "N" && start.transition?.toViewController == "V")
        #expect(start.transition?.animator == "CardAnimator")
        #expect(start.transition?.duration == 0.8)
        #expect(start.transition?.containerView.contains("V") == true, "the to view is added to the container")
        #expect(w.presenting("V") == "N")
        #expect(w["V"].isBeingPresented)

        let end = w.perform(.completeTransition(id: start.transition?.id))
        #expect(names(end) == ["V.viewDidAppear", "A.completion"])
        #expect(!w["V"].isBeingPresented)
        let all = names(start) + names(end)
        #expect(of("N", all).isEmpty && of("A", all) == ["A.completion"], "R61: the presenter side gets no appearance callbacks")
        #expect(w.isAppeared("N") && w.isAppeared("A"))
    }

    @Test("R56: the delegate is used only when set; for a non-custom style only its animator methods are consulted")
    func animatorOnlyForOtherStyles() {
        var w = Window(root: vc("A"))
        let r = w.perform(Op.present("A", vc("V") { $0.transitioningDelegate = card }, .fullScreen))
        #expect(delegateCalls(r.events) == ["V.animationControllerForPresented", "V.interactionControllerForPresentation"])
        #expect(r.transition?.animator == "CardAnimator")
        #expect(
            appearance(r.events) == [
                "A.viewWillDisappear", "V.viewWillAppear", "V.viewIsAppearing", "V.viewDidAppear",
                "A.viewDidDisappear",
            ])

        // Without a transitioning delegate nothing is asked and the built-in animation runs.
        var plain = Window(root: vc("A"))
        let r2 = plain.perform(Op.present("A", vc("V"), .fullScreen))
        #expect(delegateCalls(r2.events).isEmpty)
        #expect(r2.transition?.animator == nil)
    }

    @Test("R58/R59: a custom dismissal asks for the dismissal animator; from is V, to is N (S13)")
    func customDismissal() {
        var (w, start) = customPresentation()
        w.perform(.completeTransition(id: start.transition?.id))
        let dismiss = w.perform(Op.dismiss("V"))
        #expect(delegateCalls(dismiss.events) == ["V.animationControllerForDismissed", "V.interactionControllerForDismissal"])
        #expect(appearance(dismiss.events) == ["V.viewWillDisappear"])
        #expect(dismiss.transition?.fromViewController == "V" && dismiss.transition?.toViewController == "N")
        #expect(dismiss.transition?.state == .inProgress)
        #expect(w["V"].isBeingDismissed)
        let end = w.perform(.completeTransition(id: dismiss.transition?.id))
        #expect(names(end) == ["V.viewDidDisappear", "V.completion"])
        #expect(w.presented("N") == nil && w.presenting("V") == nil)
        #expect(of("N", names(dismiss) + names(end)).isEmpty && of("A", names(dismiss) + names(end)).isEmpty)
    }

    @Test("R60/R38: a cancelled presentation removes the record and the links; V appears half way then disappears")
    func cancelledPresentation() throws {
        var (w, start) = customPresentation()
        let id = try #require(start.transition?.id)
        let cancel = w.perform(.cancelTransition(id: id))
        #expect(cancel.transition?.state == .cancelled)
        // Whether the completion runs after a cancelled presentation is [INF]: only V's callbacks are asserted.
        let v = of("V", withoutIsAppearing(names(start) + names(cancel)))
            .filter { !$0.contains("ControllerFor") && !$0.hasSuffix("viewDidLoad") }
        #expect(v == ["V.viewWillAppear", "V.viewWillDisappear", "V.viewDidDisappear"])
        #expect(w["V"].presentation == nil)
        #expect(w.presented("N") == nil && w.presenting("V") == nil)
        #expect(!w["V"].isBeingPresented)
        #expect(w.isDisappeared("V"))
        #expect(w.state.transitions.isEmpty)
        // The presenter is free again.
        w.perform(Op.present("A", vc("X"), animated: false))
        #expect(w.presented("N") == "X")
    }

    @Test("R60/R38: a cancelled dismissal leaves V presented; V disappears half way then reappears")
    func cancelledDismissal() {
        var (w, start) = customPresentation()
        w.perform(.completeTransition(id: start.transition?.id))
        let dismiss = w.perform(Op.dismiss("V"))
        let cancel = w.perform(.cancelTransition(id: dismiss.transition!.id))
        #expect(cancel.transition?.state == .cancelled)
        #expect(withoutIsAppearing(names(cancel)) == ["V.viewWillAppear", "V.viewDidAppear"])
        #expect(w.presenting("V") == "N")
        #expect(w["V"].presentation?.state == .presented)
        #expect(!w["V"].isBeingDismissed)
        #expect(w.isAppeared("V"))
        // Settled again: it can be dismissed.
        let again = w.perform(Op.dismiss("V", animated: false))
        #expect(names(again).last == "V.completion")
        #expect(w.presented("N") == nil)
    }

    @Test("§0.3: a tick finishes every running transition")
    func tickFinishesAll() {
        var w = Window(root: tabs("T", [nav("N1", vc("A")), vc("B")]), options: manual)
        let outcomes = w.turn([Op.push("N1", vc("A2")), Op.present("B", vc("C"), .overFullScreen)])
        // B is in an unselected tab: T presents (R20), and T is on screen.
        #expect(outcomes.allSatisfy { $0.result?.transition?.state == .inProgress })
        #expect(w.running.count == 2)
        let tick = w.perform(Op.tick)
        #expect(w.state.transitions.isEmpty)
        #expect(names(tick).contains("A2.didMoveToParent(N1)"))
        #expect(names(tick).last == "B.completion")
    }
}

// MARK: - Exhaustive

extension CustomTransitionTests {
    @Test("R57/R61 exhaustive (manual): a custom presentation: N presents V, the presenter side keeps its views")
    func exhaustiveCustomPresentation() {
        var w = Window(root: nav("N", vc("A")), options: manual)
        w.send(Op.present("A", vc("V") { $0.transitioningDelegate = card }, .custom)) {
            $0.create("V") {
                $0.transitioningDelegate = card
                $0.modalPresentationStyle = .custom
                $0.presentation = presentationRecord("N", source: "A", requested: .custom, state: .presenting)
                $0.isViewLoaded = true
                $0.appearance = .appearing
                $0.viewInWindow = true
                $0.isBeingPresented = true
            }
            $0.modify("N") { $0.presentedID = "V" }
            $0.startRunning(
                TransitionRecord(
                    id: "t2", operation: .present, fromViewController: "N", toViewController: "V",
                    presentationStyle: .custom, transitionStyle: .coverVertical, animated: true,
                    duration: 0.8, animator: "CardAnimator", containerView: ["V"], state: .inProgress))
            $0.nextTransitionNumber += 1
        }
        w.send(.completeTransition(id: "t2"), events: ["V.viewDidAppear", "A.completion"]) {
            $0.finishRunning("t2")
            $0.modify("V") {
                $0.isBeingPresented = false; $0.appearance = .appeared; $0.presentation?.state = .presented
            }
        }
    }
}

import Testing
import NavigationCore

/// §7: the adaptive delegate, user-initiated dismissal of sheets, trait changes.
@Suite("adaptivity and sheets (R47–R52)")
struct AdaptivityTests {
    /// A⇒B as a page sheet with the given delegate answers.
    func sheet(
        delegate: PresentationDelegate? = PresentationDelegate(shouldDismiss: true), modal: Bool = false,
        options: Options = Options()
    ) -> Window {
        var w = Window(root: vc("A"), options: options)
        w.perform(
            Op.present(
                "A",
                vc("B") {
                    $0.presentationDelegate = delegate
                    $0.isModalInPresentation = modal
                }, .pageSheet, animated: false))
        return w
    }

    @Test("R47: the delegate's fullScreen answer adapts a sheet in compact width; the presenter is then removed")
    func delegateFullScreen() {
        var w = Window(root: vc("A"))
        let r = w.perform(
            Op.present(
                "A",
                vc("B") {
                    $0.presentationDelegate = PresentationDelegate(adaptivePresentationStyle: .fullScreen)
                }, .pageSheet))
        #expect(w.style("B") == .fullScreen)
        #expect(w["B"].presentation?.requestedStyle == .pageSheet)
        #expect(
            appearance(r.events) == [
                "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear",
                "A.viewDidDisappear",
            ])
        #expect(w.isDisappeared("A"))
    }

    @Test("R47: the answer none keeps a popover on iPhone (and then it needs its anchor)")
    func delegateNoneKeepsPopover() {
        var w = Window(root: vc("A"))
        let delegate = PresentationDelegate(adaptivePresentationStyle: PresentationStyle.none)
        w.perform(
            Op.present(
                "A", vc("P") { $0.presentationDelegate = delegate }, .popover,
                popover: PopoverAnchor(sourceView: "button")))
        #expect(w.style("P") == .popover)
        let d = w.refuse(Op.present("P", vc("Q") { $0.presentationDelegate = delegate }, .popover))
        #expect(d?.code == "D10", "R15: a popover kept by the delegate is a real popover")
    }

    @Test("R47: an answer outside fullScreen/overFullScreen/formSheet/none falls back to the default; regular traits ignore it")
    func disallowedAnswerIgnored() {
        var w = Window(root: vc("A"))
        w.perform(
            Op.present(
                "A",
                vc("P") {
                    $0.presentationDelegate = PresentationDelegate(adaptivePresentationStyle: .currentContext)
                }, .popover))
        #expect(w.style("P") == .formSheet)

        // Without a compact size class there is nothing to adapt; the answer is not used.
        var pad = Window(root: vc("A"), traits: iPadRegular)
        pad.perform(
            Op.present(
                "A",
                vc("B") {
                    $0.presentationDelegate = PresentationDelegate(adaptivePresentationStyle: .fullScreen)
                }, .formSheet))
        #expect(pad.style("B") == .formSheet)
        #expect(pad.isAppeared("A"))
    }

    @Test("R49: isModalInPresentation blocks a swipe; only didAttemptToDismiss is called (S40)")
    func modalInPresentationBlocksSwipe() {
        var w = sheet(modal: true)
        let before = w.state
        let r = w.perform(.interactiveDismiss(receiver: "B", completes: true))
        #expect(names(r) == ["B.presentationControllerDidAttemptToDismiss"])
        #expect(r.transition == nil)
        #expect(w.state == before)
    }

    @Test("R49: a delegate answering shouldDismiss false blocks the swipe (S44)")
    func delegateBlocksSwipe() {
        var w = sheet(delegate: PresentationDelegate(shouldDismiss: false))
        let r = w.perform(.interactiveDismiss(receiver: "B", completes: true))
        #expect(names(r) == ["B.presentationControllerShouldDismiss", "B.presentationControllerDidAttemptToDismiss"])
        #expect(w.presented("A") == "B")
        #expect(w["B"].presentation?.state == .presented)
    }

    @Test("R50/R35: a finished swipe: should → will → B disappears → didDismiss; A gets nothing (S41)")
    func swipeDismisses() {
        var w = sheet()
        let r = w.perform(.interactiveDismiss(receiver: "B", completes: true))
        #expect(
            names(r) == [
                "B.presentationControllerShouldDismiss", "B.presentationControllerWillDismiss",
                "B.viewWillDisappear", "B.viewDidDisappear", "B.presentationControllerDidDismiss",
            ])
        #expect(w.presented("A") == nil && w.presenting("B") == nil)
        #expect(r.transition?.state == .completed)
        #expect(r.transition?.fromViewController == "B" && r.transition?.toViewController == "A")
        #expect(w.isAppeared("A"))

        // Without a delegate: appearance callbacks only.
        var plain = sheet(delegate: nil)
        let r2 = plain.perform(.interactiveDismiss(receiver: "B", completes: true))
        #expect(names(r2) == ["B.viewWillDisappear", "B.viewDidDisappear"])
        #expect(plain.presented("A") == nil)
    }

    @Test("R50/R38: a cancelled swipe: willDismiss but no didDismiss; B disappears half way and comes back (S42)")
    func swipeCancelled() {
        var w = sheet()
        let r = w.perform(.interactiveDismiss(receiver: "B", completes: false))
        #expect(
            withoutIsAppearing(names(r)) == [
                "B.presentationControllerShouldDismiss", "B.presentationControllerWillDismiss",
                "B.viewWillDisappear", "B.viewWillAppear", "B.viewDidAppear",
            ])
        #expect(r.transition?.state == .cancelled)
        #expect(w.presented("A") == "B")
        #expect(w["B"].presentation?.state == .presented)
        #expect(!w["B"].isBeingDismissed)
        #expect(w.isAppeared("B"))
    }

    @Test("R49/R54: a full-screen presentation cannot be swiped away")
    func fullScreenNotSwipeable() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", vc("B") { $0.presentationDelegate = PresentationDelegate(shouldDismiss: true) }, .fullScreen))
        let before = w.state
        let r = w.perform(.interactiveDismiss(receiver: "B", completes: true))
        #expect(r.events.isEmpty)
        #expect(w.state == before)
    }

    @Test("R54: tapping outside an iPad popover dismisses it as a user dismissal")
    func tapOutsidePopover() {
        var w = Window(root: vc("A"), traits: iPadRegular)
        w.perform(
            Op.present(
                "A", vc("P") { $0.presentationDelegate = PresentationDelegate(shouldDismiss: true) }, .popover,
                popover: PopoverAnchor(sourceView: "button")))
        let r = w.perform(.interactiveDismiss(receiver: "P", completes: true))
        #expect(
            names(r) == [
                "P.presentationControllerShouldDismiss", "P.presentationControllerWillDismiss",
                "P.viewWillDisappear", "P.viewDidDisappear", "P.presentationControllerDidDismiss",
            ])
        #expect(w.presented("A") == nil)
    }

    @Test("R51: iOS 12 has no swipe-to-dismiss")
    func noSwipeOnIOS12() {
        var w = Window(root: vc("A"), traits: iPadRegular, options: Options(iOS: .iOS12))
        w.perform(Op.present("A", vc("B") { $0.presentationDelegate = PresentationDelegate(shouldDismiss: true) }, .formSheet))
        #expect(w.style("B") == .formSheet)
        let before = w.state
        let r = w.perform(.interactiveDismiss(receiver: "B", completes: true))
        #expect(r.events.isEmpty)
        #expect(w.state == before)
    }

    @Test("R52/R19: a trait change adapts an iPad popover to a sheet and back; links and appearance unchanged (S46)")
    func traitChangeAdaptsPopover() {
        var w = Window(root: vc("A"), traits: iPadRegular)
        w.perform(Op.present("A", vc("P"), .popover, popover: PopoverAnchor(sourceView: "button")))
        #expect(w.style("P") == .popover)
        let toCompact = w.perform(.setTraits(iPadCompactWidth))
        #expect(toCompact.events.isEmpty, "no delegate, no appearance change")
        #expect(w.style("P") == .formSheet)
        #expect(w.presented("A") == "P" && w.presenting("P") == "A")
        w.perform(.setTraits(iPadRegular))
        #expect(w.style("P") == .popover)
        #expect(w.isAppeared("A") && w.isAppeared("P"))
    }

    @Test("R47/R52: a delegate answering none keeps the popover through a trait change (S45)")
    func traitChangeWithDelegateNone() {
        var w = Window(root: vc("A"), traits: iPadRegular)
        w.perform(
            Op.present(
                "A",
                vc("P") {
                    $0.presentationDelegate = PresentationDelegate(adaptivePresentationStyle: PresentationStyle.none)
                }, .popover, popover: PopoverAnchor(sourceView: "button")))
        let r = w.perform(.setTraits(iPadCompactWidth))
        #expect(w.style("P") == .popover)
        #expect(w.presented("A") == "P")
        #expect(appearance(r.events).isEmpty)
        #expect(r.events.allSatisfy { $0.callback == .willPresentWithAdaptiveStyle })
    }

    @Test("R52: the delegate is told the adaptive style of a trait change")
    func traitChangeTellsDelegate() {
        var w = Window(root: vc("A"), traits: iPadRegular)
        w.perform(
            Op.present(
                "A",
                vc("P") {
                    $0.presentationDelegate = PresentationDelegate(adaptivePresentationStyle: .fullScreen)
                }, .popover, popover: PopoverAnchor(sourceView: "button")))
        let r = w.perform(.setTraits(iPadCompactWidth))
        #expect(names(r).contains("P.willPresentWithAdaptiveStyle"))
        #expect(r.events.first { $0.callback == .willPresentWithAdaptiveStyle }?.style == .fullScreen)
        #expect(w.style("P") == .fullScreen)
        #expect(w.presented("A") == "P")
    }
}

// MARK: - Exhaustive: the whole state change of user dismissals and adaptation

extension AdaptivityTests {
    @Test("R49 exhaustive: isModalInPresentation blocks a swipe: the state does not change at all")
    func exhaustiveModalInPresentationBlocksSwipe() {
        var w = sheet(modal: true)
        w.send(
            .interactiveDismiss(receiver: "B", completes: true),
            events: ["B.presentationControllerDidAttemptToDismiss"]
        ) { _ in }
    }

    @Test("R49 exhaustive: the flag on the controller a presented navigation controller shows blocks a swipe too")
    func exhaustiveShownChildModalInPresentationBlocksSwipe() {
        var w = Window(root: vc("A"))
        w.perform(
            Op.present(
                "A", nav("N", vc("E") { $0.isModalInPresentation = true }) { $0.presentationDelegate = PresentationDelegate() },
                .pageSheet, animated: false))
        w.send(
            .interactiveDismiss(receiver: "E", completes: true),
            events: ["N.presentationControllerDidAttemptToDismiss"]
        ) { _ in }
    }

    @Test("R49: a controller below the top of the presented stack does not block the swipe")
    func hiddenChildModalInPresentationDoesNotBlock() {
        var w = Window(root: vc("A"))
        w.perform(
            Op.present(
                "A", nav("N", vc("E") { $0.isModalInPresentation = true }, vc("F")),
                .pageSheet, animated: false))
        w.perform(.interactiveDismiss(receiver: "F", completes: true))
        #expect(w["A"].presentedID == nil)
    }

    @Test("R50 exhaustive: a finished swipe removes the record and both links; A was never covered")
    func exhaustiveSwipeDismisses() {
        var w = sheet()
        w.send(.interactiveDismiss(receiver: "B", completes: true)) {
            $0.modify("B") { $0.presentation = nil }
            $0.disappeared("B")
            $0.modify("A") { $0.presentedID = nil }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R50/R38 exhaustive: a cancelled swipe leaves the state as it was, but for the transition counter")
    func exhaustiveSwipeCancelled() {
        var w = sheet()
        w.send(.interactiveDismiss(receiver: "B", completes: false)) { $0.nextTransitionNumber += 1 }
    }

    @Test("R47 exhaustive: the delegate's fullScreen answer in compact width adapts the sheet and removes the presenter")
    func exhaustiveAdaptToFullScreen() {
        var w = Window(root: vc("A"))
        let delegate = PresentationDelegate(adaptivePresentationStyle: .fullScreen)
        w.send(Op.present("A", vc("B") { $0.presentationDelegate = delegate }, .pageSheet)) {
            $0.create("B") {
                $0.presentationDelegate = delegate
                $0.modalPresentationStyle = .pageSheet
                $0.presentation = presentationRecord("A", requested: .pageSheet, style: .fullScreen, removesPresenterView: true)
            }
            $0.appeared("B")
            $0.disappeared("A")
            $0.modify("A") { $0.presentedID = "B" }
            $0.nextTransitionNumber += 1
        }
    }
}

extension AdaptivityTests {
    @Test("R52/R19 exhaustive: a trait change re-adapts a popover: only the record's style and the traits change")
    func exhaustiveTraitChangeAdaptsPopover() {
        var w = Window(root: vc("A"), traits: iPadRegular)
        let anchor = PopoverAnchor(sourceView: "button")
        w.perform(Op.present("A", vc("P"), .popover, popover: anchor))
        w.send(.setTraits(iPadCompactWidth), events: []) {
            $0.traits = iPadCompactWidth
            $0.modify("P") { $0.presentation?.style = .formSheet }
        }
        w.send(.setTraits(iPadRegular), events: []) {
            $0.traits = iPadRegular
            $0.modify("P") { $0.presentation?.style = .popover }
        }
    }
}

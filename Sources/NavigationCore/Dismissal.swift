/// `dismiss(animated:completion:)` (R40–R46) and user-initiated dismissal of sheets and
/// popovers (R49–R54).
extension Engine {
    /// R40: which presentation a `dismiss` sent to `r` ends: (presented controller, presenter), or nil.
    func dismissalTarget(_ r: ControllerID) -> (presented: ControllerID, presenter: ControllerID)? {
        if let v = state.presentedViewController(r), let p = state.c(v).presentation?.presenting {
            return (v, p)
        }
        let top = state.outermost(r)
        if let p = state.c(top).presentation?.presenting { return (top, p) }
        return nil
    }

    /// R41: `v` and every controller presented above it, bottom first.
    func presentationChain(from v: ControllerID) -> [ControllerID] {
        var chain = [v]
        var index = 0
        while index < chain.count {
            let base = chain[index]
            for id in state.order {
                guard let record = state.controllers[id]?.presentation, !chain.contains(id) else { continue }
                if state.outermost(record.presenting) == base { chain.append(id) }
            }
            index += 1
        }
        return chain
    }

    mutating func dismiss(receiver r: ControllerID, animated: Bool, reportsCompletion: Bool) throws(Refusal) {
        guard let (v, p) = dismissalTarget(r) else {
            // R45: nothing to dismiss.
            if reportsCompletion && profile.completionWhenNothingToDismiss { emit(Event(r, .completion)) }
            return
        }
        // R44: a programmatic dismissal ignores a modal-in-presentation flag and asks no delegate.
        // R43: a presentation or dismissal is still running. (A settled chain member cannot be
        // named by another transition: R2 keeps presented controllers out of containers.)
        let chain = presentationChain(from: v)
        if chain.contains(where: { state.c($0).presentation?.state != .presented }) {
            throw .uikit(.dismissInProgress(name(p)))
        }
        try startDismissal(
            chain: chain, presenter: p, animated: animated,
            postFinish: reportsCompletion ? [Event(r, .completion)] : [], operation: .dismiss)
    }

    /// Queues the dismissal of `chain` (bottom first): links stay until it ends (R34); only the
    /// top-most controller animates, with its own style (R41).
    mutating func startDismissal(
        chain: [ControllerID], presenter p: ControllerID, animated: Bool,
        preStart extra: [Event] = [], postFinish: [Event], operation: TransitionOperation
    ) throws(Refusal) {
        // R35, R36: callbacks follow from what the window shows before and after, so a presenter
        // that stayed visible (under a sheet) gets none, and only the dismissed side is called.
        let before = state.settledViewsInWindow
        let top = chain.last!
        let topRecord = state.c(top).presentation!
        for id in chain {
            self[changing: id].presentation?.state = .dismissing
        }
        state.controllers[chain[0]]!.isBeingDismissed = true
        if top != chain[0] { self[changing: top].isBeingDismissed = true }
        var preStart = extra
        // R59: the transitioning delegate is asked for the dismissal's animator and interaction.
        if state.c(top).transitioningDelegate != nil {
            preStart.append(Event(top, .animationControllerForDismissed))
            preStart.append(Event(top, .interactionControllerForDismissal))
        }
        // R39: a presenter inside a popover is not told `viewDidAppear` once what it presented is gone.
        let popoverSide = state.outermost(p)
        let insidePopover = state.c(popoverSide).presentation?.style == .popover
        enqueue(
            TransitionPlan(
                operation: operation, from: top, to: p, style: topRecord.style, transitionStyle: topRecord.transitionStyle,
                animated: animated, animator: state.c(top).transitioningDelegate,
                containerView: topRecord.removesPresenterView ? [p, top] : [top], order: .modal, before: before,
                preStart: preStart, postFinish: postFinish, effects: [.removePresentations(chain)],
                cancellation: Cancellation(effects: chain.map { .restorePresentation($0) }), isAlwaysReported: true,
                silentDidAppearWithin: insidePopover ? popoverSide : nil))
    }

    /// R49–R54: a user swipes a sheet down (or taps outside a popover: on `tappedView` when
    /// given, R152). `completes: false` is a gesture given up half way (R38 cancel pattern, R50).
    mutating func interactiveDismiss(_ r: ControllerID, completes: Bool, tappedView: ControllerID? = nil) throws(Refusal) {
        let v = state.outermost(r)
        if let tappedView { try checkTapOutsidePopover(v, tappedView) }
        guard let record = state.c(v).presentation, record.state == .presented, !isTransitioning(v),
            record.style.isUserDismissible, profile.hasSheetGestures || record.style == .popover
        else { return }
        if let w = state.c(v).presentedID, state.controllers[w] != nil { return }  // the gesture belongs to the top sheet
        guard !state.isCoveredByPresentation(v) else { return }  // R160
        // R150: the delegate and the flag are those of the controller `present` named, also while
        // the adaptive delegate's replacement shows in its place.
        let owner = record.adaptiveOriginal ?? v
        if let tappedView, passesThrough(tappedView, popover: owner) { return }  // R152
        let vc = state.c(owner)
        let delegate = state.presentationControllerDelegate(owner)  // R111: one delegate, however it was set
        // R103: a tap outside an action sheet's popover is its cancel action (Apple's
        // UIAlertController documentation): the handler runs once the alert is gone, as a tap on it would.
        var cancelAction: [Event] = []
        if vc.kind == .alertController, let i = vc.configuration.actions.firstIndex(where: { $0.style == .cancel }) {
            var handler = Event(v, .alertActionHandler)
            handler.action = vc.configuration.actions[i].title
            handler.alertAction = AlertActionTap(index: i, handlerSelf: record.source)
            cancelAction.append(handler)
        }
        // R153: before iOS 13 only the popover delegate's methods exist; isModalInPopover is the
        // flag's name there.
        if profile.popoverDismissalUsesPopoverDelegate {
            if vc.isModalInPresentation { return }
            // R161: asked only when the delegate implements it (gives an answer).
            if let answer = delegate?.shouldDismissPopover {
                emit(Event(owner, .popoverPresentationControllerShouldDismissPopover))
                if answer == false { return }
            }
            try startDismissal(
                chain: presentationChain(from: v), presenter: record.presenting, animated: true,
                postFinish: (delegate != nil ? [Event(owner, .popoverPresentationControllerDidDismissPopover)] : []) + cancelAction,
                operation: .interactiveDismiss)
            runLastNow(completes: completes)
            return
        }
        // R49: blocked when the controller is modal in presentation (the delegate is not asked) or by the delegate.
        // R161: each delegate method is called only when the delegate implements it.
        if isModalInPresentation(owner) {
            if delegate?.implementsDidAttemptToDismiss == true { emit(Event(owner, .presentationControllerDidAttemptToDismiss)) }
            return
        }
        if let delegate {
            // R153: a popover delegate that still implements the deprecated method is asked it instead.
            let legacy = record.style == .popover && delegate.shouldDismissPopover != nil
            // R161: a delegate that gives no answer does not implement the question, and UIKit
            // dismisses as if it had answered true.
            if let answer = legacy ? delegate.shouldDismissPopover : delegate.shouldDismiss {
                emit(Event(owner, legacy ? .popoverPresentationControllerShouldDismissPopover : .presentationControllerShouldDismiss))
                if answer == false {
                    if delegate.implementsDidAttemptToDismiss { emit(Event(owner, .presentationControllerDidAttemptToDismiss)) }
                    return
                }
            }
            if delegate.implementsWillDismiss { emit(Event(owner, .presentationControllerWillDismiss)) }
        }
        try startDismissal(
            chain: presentationChain(from: v), presenter: record.presenting, animated: true,
            postFinish: (delegate?.implementsDidDismiss == true ? [Event(owner, .presentationControllerDidDismiss)] : []) + cancelAction,
            operation: .interactiveDismiss)
        runLastNow(completes: completes)
    }

    /// R49: the presented controller `v`, or a controller shown inside it, is modal in
    /// presentation. Apple's "Disabling the pull-down gesture for a sheet" sets the flag on the
    /// controller a presented navigation controller shows, and the sheet then stays.
    func isModalInPresentation(_ v: ControllerID) -> Bool {
        var shown = [v]
        while let id = shown.popLast() {
            guard let c = state.controllers[id] else { continue }
            if c.isModalInPresentation { return true }
            shown += c.children.filter { state.controllers[$0]?.viewInWindow == true }
        }
        return false
    }

    /// Interactive transitions end within their request: start, then finish or cancel.
    mutating func runLastNow(completes: Bool) {
        guard var item = takeGestureTransition() else { return }
        start(&item.running, in: item.entry)
        if completes { finish(&item.running, in: item.entry) } else { cancel(&item.running, in: item.entry) }
        if item.running.isReported { journal[item.entry].result.transition = item.running.record }
    }
}

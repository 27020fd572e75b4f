/// `present(_:animated:completion:)`: validation (R7–R17), presenter resolution (R20, R21),
/// style (R18, R19, R23, R24), links set at once (R27), callbacks (R32, R33, R57).
extension Engine {
    /// R20/R21: the controller that really presents for `style` when `source` asks. R55: a
    /// popover's presenter is found the same way (it is not a context style), and its view stays.
    func resolvePresenter(source: ControllerID, style: PresentationStyle) -> ControllerID {
        if style.isContextStyle {
            // R21: the first controller up the parent chain that defines a context; never crosses
            // a presentation boundary because the parent chain stops at a presented controller.
            for a in state.ancestors(source) where state.c(a).definesPresentationContext { return a }
        }
        return state.outermost(source)
    }

    mutating func present(
        receiver s: ControllerID, ref: ControllerRef, style: PresentationStyle?,
        transitionStyle: TransitionStyle?, popover: PopoverAnchor?, animated: Bool,
        reportsCompletion: Bool, operation: TransitionOperation
    ) throws(Refusal) {
        let before = state.settledViewsInWindow
        let legacy = profile.usesActiveControllerWording
        // R7
        guard let v = try resolve(ref) else { throw .uikit(.presentNil(source: name(s))) }
        // R8
        if v == s { throw .uikit(.presentSelf(source: name(s))) }
        let vc = state.c(v)
        // R9
        if let parent = vc.parent { throw .uikit(.hasParent(name(v), parent: name(parent), legacy: legacy)) }
        // R10
        if let record = vc.presentation {
            throw .uikit(.alreadyPresented(name(v), by: name(record.presenting), legacy: legacy))
        }
        // R11: the window's root, or an ancestor of the source.
        if state.rootViewController == v || state.isWithin(s, v) { throw .uikit(.activeController(name(v))) }

        // UIAlertController presents itself its own way (an alert over full screen, an action
        // sheet as a popover in regular width): a style set on it, or given to present, is kept on
        // the property and does not change how it is shown.
        let requested = vc.kind == .alertController ? .automatic : style ?? vc.modalPresentationStyle
        // R20/R21 first (adaptation never turns a style into a context style or back), then R19
        // with the presenter's traits (R74).
        let p = resolvePresenter(source: s, style: profile.resolveAutomatic(requested, kind: vc.kind))
        let pc = state.c(p)
        let traits = state.traitCollection(p)
        var effective = profile.adapt(requested, kind: vc.kind, traits: traits, delegate: vc.presentationDelegate)
        // An action sheet is a popover in a regular × regular environment, else shown over full screen.
        let isActionSheet = vc.kind == .alertController && vc.preferredStyle == .actionSheet
        if isActionSheet {
            let regular = traits.horizontalSizeClass == .regular && traits.verticalSizeClass == .regular
            effective = regular ? .popover : .overFullScreen
        }
        // R12: the presenter already presents something that is not being dismissed.
        if let w = pc.presentedID, state.c(w).presentation?.state != .dismissing {
            throw .uikit(
                .alreadyPresenting(
                    name(v), on: name(p), from: name(s), presenting: name(w),
                    legacy: profile.usesLegacyPresentWarning))
        }
        // R13: the presenter's view must be in the window (R6). A presented controller's view
        // attaches when its presentation starts (end of turn, §0.3), not when it is accepted.
        if !state.isViewInWindow(p) {
            throw .uikit(.notInWindow(name(v), on: name(p), from: name(s), legacy: profile.usesLegacyPresentWarning))
        }
        // R14: a presentation or dismissal is running on the presenter.
        if pc.presentedID != nil || pc.isBeingPresented || pc.isBeingDismissed || isTransitioning(p) {
            throw .uikit(.presentationInProgress(name(v), on: name(p), from: name(s), legacy: profile.usesLegacyPresentWarning))
        }
        // R15: a real popover needs an anchor; an adapted one does not.
        if effective == .popover && !(popover?.isAnchored ?? false) {
            if isActionSheet {
                throw .uikit(.actionSheetWithoutAnchor(name(v), presenter: pc.className, name(p), legacy: profile.usesLegacyPresentWarning))
            }
            throw .uikit(.popoverWithoutAnchor("<UIPopoverPresentationController: \(v).popoverPresentationController>"))
        }
        // R16: partial curl only full screen, and a curled controller presents nothing.
        let transition = transitionStyle ?? vc.modalTransitionStyle
        if transition == .partialCurl && effective != .fullScreen { throw .uikit(.partialCurl(name(v))) }
        if let sourceRecord = state.c(state.outermost(s)).presentation, sourceRecord.transitionStyle == .partialCurl {
            throw .uikit(.partialCurl(name(v)))
        }
        // R17: inside a real popover, context styles allow only the coverVertical transition.
        if effective.isContextStyle && transition != .coverVertical,
            state.c(state.outermost(s)).presentation?.style == .popover
        {
            throw .uikit(.contextStyleInPopover(name(v), style: effective, transition: transition))
        }

        // Accepted: the body's overrides are set as code sets them, before presenting.
        if let style { self[changing: v].modalPresentationStyle = style }
        if let transitionStyle { self[changing: v].modalTransitionStyle = transitionStyle }
        // R23: a context presenter may provide the transition style.
        let used = effective.isContextStyle && pc.providesPresentationContextTransitionStyle ? pc.modalTransitionStyle : transition
        let removes = profile.removesPresenterView(effective, traits: traits)
        self[changing: v].presentation = Presentation(
            presenting: p, source: s, requestedStyle: requested, style: effective, transitionStyle: used,
            contextViewController: effective.isContextStyle ? p : nil, removesPresenterView: removes,
            popover: popover, state: .presenting)
        self[changing: p].presentedID = v
        self[changing: v].isBeingPresented = true

        var preStart: [Event] = []
        // R150: adapted, the delegate may show a navigation controller around V instead.
        var shown = v
        if effective != profile.resolveAutomatic(requested, kind: vc.kind), let (w, calls) = replaceAdapted(v, style: effective) {
            shown = w
            preStart += calls
        }
        if let delegate = state.presentationControllerDelegate(v), profile.hasSheetGestures,
            effective != profile.resolveAutomatic(requested, kind: vc.kind)
        {
            var e = Event(v, .willPresentWithAdaptiveStyle)
            e.style = delegate.adaptivePresentationStyle ?? effective
            preStart.append(e)
        }
        // R22, R56, R57: the transitioning delegate is asked about V (the events name V; the
        // presenting and source controllers are the transition's from and the call's receiver).
        if vc.transitioningDelegate != nil {
            if effective == .custom { preStart.append(Event(v, .presentationControllerForPresented)) }
            preStart.append(Event(v, .animationControllerForPresented))
            preStart.append(Event(v, .interactionControllerForPresentation))
        }
        enqueue(
            TransitionPlan(
                operation: operation, from: p, to: shown, style: effective, transitionStyle: used, animated: animated,
                animator: vc.transitioningDelegate, containerView: removes ? [p, shown] : [shown], order: .modal,
                before: before, preStart: preStart,
                // R28: the completion is called last, after every did-callback of the transition.
                postFinish: reportsCompletion ? [Event(s, .completion)] : [],
                effects: [.settlePresentation(shown)], cancellation: Cancellation(effects: [.removePresentations([shown])]),
                isAlwaysReported: true))
    }
}

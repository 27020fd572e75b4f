/// `show(_:sender:)` and `showDetailViewController(_:sender:)` with
/// `targetViewController(forAction:sender:)` (R63–R68).
extension Engine {
    enum Action { case show, showDetail }

    /// R63: the first controller up the parent chain that overrides the action; then, as
    /// `performsActionsWhilePresentingModally` allows, on through the presenter ([INF] switch).
    func targetViewController(for action: Action, from source: ControllerID) -> ControllerID? {
        var current: ControllerID? = source
        var hops = 0
        while let start = current, hops < 1_000 {
            hops += 1
            for a in state.ancestors(start) {
                switch (action, state.c(a).kind) {
                case (.show, .navigationController), (.show, .splitViewController), (.showDetail, .splitViewController):
                    return a
                default: continue
                }
            }
            guard profile.targetLookupCrossesPresentation else { return nil }
            current = state.c(state.outermost(start)).presentation?.presenting
        }
        return nil
    }

    /// R64/R65/R68. `show(_:sender:)` itself always animates (a client's call passes true); a
    /// storyboard segue with `animates="NO"` shows without animation, as Interface Builder's
    /// Animates checkbox asks.
    mutating func show(receiver s: ControllerID, ref: ControllerRef, animated: Bool) throws(Refusal) {
        guard let v = try resolve(ref) else { throw .uikit(.presentNil(source: name(s))) }
        guard let target = targetViewController(for: .show, from: s) else {
            // R64: no target: a modal presentation with the controller's own style.
            try present(
                receiver: s, ref: .existing(v), style: nil, transitionStyle: nil, popover: nil,
                animated: animated, reportsCompletion: false, operation: .present)
            return
        }
        if state.c(target).kind == .splitViewController, let config = state.c(target).split {
            if classicDelegateShows(target, config, detail: false) { return }
            // R68. Column style: the primary column's navigation controller shows it (pushes). Content
            // of a column never gets here: its own column's navigation controller is found first (R63).
            // Classic: collapsed or not, a navigation primary shows it by pushing.
            let primaryNavigation =
                config.style.isColumnStyle
                ? config.primaryNavigation
                : config.primary.flatMap { state.c($0).kind == .navigationController ? $0 : nil }
            if let primaryNavigation {
                try push(onto: primaryNavigation, ref: .existing(v), animated: animated)
                return
            }
            // R68 (classic): any other primary is replaced by the new controller; identical is a no-op.
            if !config.style.isColumnStyle {
                if v == config.primary { return }
                try replaceColumn(target, .primary, with: v, operation: .show)
                return
            }
            try present(
                receiver: s, ref: .existing(v), style: nil, transitionStyle: nil, popover: nil,
                animated: animated, reportsCompletion: false, operation: .present)
            return
        }
        // R65: a navigation controller pushes.
        try push(onto: target, ref: .existing(v), animated: animated)
    }

    /// R66/R67.
    mutating func showDetail(receiver s: ControllerID, ref: ControllerRef, animated: Bool) throws(Refusal) {
        guard let v = try resolve(ref) else { return }  // R67 (1): nil is a no-op.
        guard let split = targetViewController(for: .showDetail, from: s), let config = state.c(split).split else {
            try present(
                receiver: s, ref: .existing(v), style: nil, transitionStyle: nil, popover: nil,
                animated: animated, reportsCompletion: false, operation: .present)
            return
        }
        if config.style.isColumnStyle {
            try showDetailInColumns(split, v, config)
            return
        }
        if classicDelegateShows(split, config, detail: true) { return }
        // R67 (1): the controller it would replace.
        if v == config.secondary && !config.isCollapsed { return }
        if config.isCollapsed {
            // R67 (4) collapsed: `show` on the primary navigation controller pushes the detail as one entry.
            if let primary = config.primary, state.c(primary).kind == .navigationController {
                if state.c(primary).viewControllers.contains(v) {
                    throw .uikit(.pushDuplicate(nav: name(primary), name(v), legacy: profile.usesLegacyDuplicatePushWording))
                }
                // Not `push`: a navigation controller is accepted here as a single entry.
                try validateNewChild(v, of: primary, field: "viewController", operation: .showDetailViewController)
                try checkNoNestedNavigationTransition(primary, popping: false)
                pushValidated(onto: primary, v, animated: animated)
                // R91/R92: the shown detail is what a later expand separates. UIKit's
                // default `separateSecondaryViewController(for:)` pops the top of the primary's
                // stack and makes it the secondary, so the split's secondary is now `v`; the old
                // one (nested below it, or discarded at the collapse) is no longer the detail.
                self[changing: split].splitState?.secondary = v
                return
            }
        }
        // R67 (3): expanded, `vc` becomes the secondary child whatever the old secondary is; a
        // navigation secondary does not push it, it leaves (S49). A column swap, not animated.
        try replaceColumn(split, .secondary, with: v, operation: .showDetail)
    }

    /// R67 on a column-style split (the classic-only delegate is never asked, R90).
    /// Collapsed: pushed onto the primary column's navigation controller, and remembered as the
    /// secondary column's so that expanding moves it there (R92). Expanded: step (3), the VC being
    /// replaced is the secondary column's navigation controller, which handles it by pushing — as
    /// UIKit pushes a non-navigation controller set for a secondary column that already has a
    /// navigation controller. A navigation controller (or a split without a secondary column)
    /// replaces the column instead (step 4).
    mutating func showDetailInColumns(_ split: ControllerID, _ v: ControllerID, _ config: SplitState) throws(Refusal) {
        // R67 (1): the controller it would replace.
        if !config.isCollapsed && (v == config.secondary || v == config.secondaryNavigation) { return }
        if config.isCollapsed, let primary = config.primaryNavigation {
            if state.c(primary).viewControllers.contains(v) {
                throw .uikit(.pushDuplicate(nav: name(primary), name(v), legacy: profile.usesLegacyDuplicatePushWording))
            }
            try validateNewChild(v, of: primary, field: "viewController", operation: .showDetailViewController)
            pushValidated(onto: primary, v, animated: true)
            self[changing: split].splitState?.collapsedSecondary = config.collapsedSecondary + [v]
            return
        }
        if let secondary = config.secondaryNavigation, state.c(v).kind != .navigationController {
            try push(onto: secondary, ref: .existing(v), animated: true)
            return
        }
        try replaceColumn(split, .secondary, with: v, operation: .showDetail)
    }

    /// R122: a classic split asks its delegate's `splitViewController(_:show:sender:)` (or
    /// `(_:showDetail:sender:)`) first, collapsed or not; an answer of true means the delegate
    /// showed the controller itself and the split does nothing more. A column-style split never
    /// asks (R90). True when the delegate took over.
    mutating func classicDelegateShows(_ split: ControllerID, _ config: SplitState, detail: Bool) -> Bool {
        guard !config.style.isColumnStyle, let answer = detail ? config.delegateShowsDetail : config.delegateShows else {
            return false
        }
        emit(Event(split, detail ? .splitViewControllerShowDetail : .splitViewControllerShow))
        return answer
    }
}

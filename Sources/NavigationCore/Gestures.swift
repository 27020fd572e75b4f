/// Where a user's touch lands (R160): a gesture operation acts only when no presentation above
/// the view it starts on covers that view with its own view or with a dimming view. Code calls
/// (`pop`, `select`, `setViewControllers`, `performSegue`) reach their receiver whatever covers it.
extension SessionState {
    /// R160: does a presentation above `id` take the touches meant for its view? A full-screen,
    /// over-full-screen, custom or dimmed sheet presentation covers every view below it (a full
    /// screen one by removing them from the window); a context presentation (R21) the views
    /// inside the controller that defines the context; a real popover every view below it but
    /// its `passthroughViews` (R152); a sheet resting at an undimmed detent none (R112). A
    /// presentation whose transition has not started yet (later in the same run-loop turn, R27)
    /// is not on screen and covers nothing. Views off screen for other reasons (under a pushed
    /// controller, in an unselected tab) are not covered by a presentation: false.
    public func isCoveredByPresentation(_ id: ControllerID) -> Bool {
        guard controllers[id] != nil else { return false }
        // Each presented level with the level it was presented from (R20, R21: the presenter's
        // outermost controller), read once.
        var presentedFrom: [ControllerID: [ControllerID]] = [:]
        for (pid, c) in controllers {
            guard let record = c.presentation, record.state != .presenting || c.viewInWindow else { continue }
            presentedFrom[outermost(record.presenting), default: []].append(pid)
        }
        if presentedFrom.isEmpty { return false }
        return isCovered(id, presentedFrom: presentedFrom, except: nil)
    }

    /// Is `id` covered by a presentation of its own level's, or, for a context presentation's
    /// level (drawn inside the controller that defines the context), by what covers that
    /// controller? `except` is the level the walk came up from, which does not cover itself.
    private func isCovered(_ id: ControllerID, presentedFrom: [ControllerID: [ControllerID]], except: ControllerID?) -> Bool {
        var current = id
        var skipping = except
        var hops = 0
        while hops < 10_000 {
            hops += 1
            let level = outermost(current)
            for above in presentedFrom[level] ?? [] where above != skipping {
                if covers(above, current, presentedFrom: presentedFrom) { return true }
            }
            // A context presentation sits in the view of the controller that defines its
            // context: what covers that controller covers it too. Any other presented level is
            // in the window's own container, above everything presented before it.
            guard let record = controllers[level]?.presentation, record.style.isContextStyle,
                let context = record.contextViewController, controllers[context] != nil
            else { return false }
            current = context
            skipping = level
        }
        return false
    }

    /// Does the presentation of `above` (presented from `target`'s level), or one presented on
    /// top of it, cover `target`?
    private func covers(_ above: ControllerID, _ target: ControllerID, presentedFrom: [ControllerID: [ControllerID]]) -> Bool {
        guard let record = controllers[above]?.presentation else { return false }
        if record.style.isContextStyle {
            // R21: its view fills the context controller's view, and only that.
            if record.contextViewController.map({ isWithin(target, $0) }) ?? true { return true }
        } else if blocks(above, target) {
            return true
        }
        // What is presented on top of it in a style drawn over the whole window covers the
        // target too, unless it lets the touch through as well (a stack of undimmed sheets); a
        // context presentation up there stays inside the views above the target.
        var stack = presentedFrom[above] ?? []
        var hops = 0
        while let next = stack.popLast(), hops < 10_000 {
            hops += 1
            guard let r = controllers[next]?.presentation else { continue }
            if !r.style.isContextStyle, blocks(next, target) { return true }
            stack += presentedFrom[next] ?? []
        }
        return false
    }

    /// Does the presentation of `above`, a style drawn over the whole window, take a touch meant
    /// for `target` below it?
    private func blocks(_ above: ControllerID, _ target: ControllerID) -> Bool {
        guard let record = controllers[above]?.presentation else { return false }
        switch record.style {
        case .popover:
            // R152: the popover's dimming view passes a touch on a passthrough view (or a view
            // inside one) through; the settings are those of the controller `present` named (R150).
            let owner = record.adaptiveOriginal ?? above
            guard let views = controllers[owner]?.popoverPresentationController?.passthroughViews, !views.isEmpty else { return true }
            return !ancestors(target).contains(where: views.contains)
        case .pageSheet, .formSheet:
            // R112: a sheet at an undimmed detent adds no dimming view.
            guard sizesByDetents(above), let sheet = controllers[above]?.sheetPresentationController else { return true }
            return sheet.dimsAtRestingDetent
        default:
            return true
        }
    }
}

/// UISplitViewController: collapse and expand (R91, R92), `showDetailViewController` (R67).
extension Engine {
    /// R91 (classic): by default a navigation primary pushes the secondary; a delegate that
    /// answers `collapseSecondary … onto:` true discards it (it stays the split's child, off screen).
    mutating func collapse(_ split: ControllerID) {
        guard var s = state.c(split).split else { return }
        s.isCollapsed = true
        state.controllers[split]!.split = s
        guard s.collapseSecondaryOntoPrimary != true, let primary = s.primary, let secondary = s.secondary,
              state.c(primary).kind == .navigationController else { return }
        if state.c(secondary).kind == .navigationController {
            // A navigation secondary's stack is merged onto the primary (R67: pushed as entries).
            let entries = state.c(secondary).viewControllers
            for id in entries {
                state.controllers[id]!.parent = primary
                state.controllers[primary]!.children.append(id)
                state.controllers[primary]!.viewControllers.append(id)
            }
            state.controllers[secondary]!.viewControllers = []
            state.controllers[secondary]!.children = []
        } else {
            state.controllers[split]!.children.removeAll { $0 == secondary }
            state.controllers[secondary]!.parent = primary
            state.controllers[primary]!.children.append(secondary)
            state.controllers[primary]!.viewControllers.append(secondary)
        }
    }

    /// R92: the navigation primary pops the collapsed secondary and it becomes a column again.
    mutating func expand(_ split: ControllerID) {
        guard var s = state.c(split).split else { return }
        s.isCollapsed = false
        state.controllers[split]!.split = s
        guard let primary = s.primary, let secondary = s.secondary,
              state.c(primary).kind == .navigationController else { return }
        if state.c(secondary).kind == .navigationController {
            let stack = state.c(primary).viewControllers
            guard stack.count > 1 else { return }
            let moved = Array(stack.dropFirst())
            state.controllers[primary]!.viewControllers = [stack[0]]
            state.controllers[primary]!.children.removeAll { moved.contains($0) }
            for id in moved { state.controllers[id]!.parent = secondary }
            state.controllers[secondary]!.viewControllers = moved
            state.controllers[secondary]!.children = moved
        } else if state.c(secondary).parent == primary {
            state.controllers[primary]!.viewControllers.removeAll { $0 == secondary }
            state.controllers[primary]!.children.removeAll { $0 == secondary }
            state.controllers[secondary]!.parent = split
            if !state.c(split).children.contains(secondary) { state.controllers[split]!.children.append(secondary) }
        }
    }

    /// R67 step (4), expanded: the new controller replaces the secondary column.
    mutating func replaceSecondary(_ split: ControllerID, with v: ControllerID, animated: Bool) {
        let before = state.settledViewsInWindow
        let old = state.c(split).split?.secondary
        var postFinish: [Event] = []
        if let old {
            emit(.move(old, .willMoveToParent, parent: nil))
            state.controllers[old]!.isMovingFromParent = true
        }
        detachFromParent(v)
        emit(.move(v, .willMoveToParent, parent: split))
        state.controllers[v]!.parent = split
        state.controllers[v]!.isMovingToParent = true
        var children = state.c(split).children
        if let old, let i = children.firstIndex(of: old) { children[i] = v } else { children.append(v) }
        state.controllers[split]!.children = children + (old.map { [$0] } ?? [])
        state.controllers[split]!.split!.secondary = v
        // The old secondary's removal completes before the new one is added (S49's order).
        let oldEvents: [Event] = old.map { [.move($0, .didMoveToParent, parent: nil)] } ?? []
        postFinish = [.move(v, .didMoveToParent, parent: split)]
        enqueueReplacement(before: before, old: old, new: v, split: split, oldEvents: oldEvents,
                           postFinish: postFinish, animated: animated)
    }

    /// Runs a column replacement: the old column disappears completely, then the new one appears.
    private mutating func enqueueReplacement(before: [ControllerID], old: ControllerID?, new v: ControllerID,
                                             split: ControllerID, oldEvents: [Event], postFinish: [Event], animated: Bool) {
        let after = state.settledViewsInWindow
        let afterSet = Set(after), beforeSet = Set(before)
        let disappearing = before.filter { !afterSet.contains($0) }
        let appearing = after.filter { !beforeSet.contains($0) }
        let animatedFlag = false
        for id in disappearing {
            state.controllers[id]!.appearance = .disappearing
            emit(Event(id, .viewWillDisappear, animated: animatedFlag))
        }
        for id in disappearing {
            state.controllers[id]!.appearance = .disappeared
            state.controllers[id]!.viewInWindow = false
            emit(Event(id, .viewDidDisappear, animated: animatedFlag))
        }
        if let old { apply(.detach([old])) }
        for e in oldEvents { emit(e) }
        // Move the new column's events to after the old one's removal.
        if let index = results[current].events.firstIndex(where: { $0.controller == v && $0.callback == .willMoveToParent }) {
            let e = results[current].events.remove(at: index)
            emit(e)
        }
        for id in appearing where !state.c(id).isViewLoaded {
            state.controllers[id]!.isViewLoaded = true
            emit(Event(id, .viewDidLoad))
        }
        for id in appearing {
            state.controllers[id]!.appearance = .appearing
            state.controllers[id]!.viewInWindow = true
            emit(Event(id, .viewWillAppear, animated: animatedFlag))
            if profile.emitsViewIsAppearing { emit(Event(id, .viewIsAppearing, animated: animatedFlag)) }
        }
        for id in appearing {
            state.controllers[id]!.appearance = .appeared
            emit(Event(id, .viewDidAppear, animated: animatedFlag))
        }
        state.controllers[v]!.isMovingToParent = false
        for e in postFinish { emit(e) }
        let id = "t\(state.nextTransitionNumber)"
        state.nextTransitionNumber += 1
        results[current].transition = TransitionRecord(
            id: id, operation: "showDetail", fromViewController: old, toViewController: v, presentationStyle: nil,
            transitionStyle: nil, animated: animated && false, duration: 0, animator: nil,
            containerView: [old, v].compactMap { $0 }, state: .completed)
    }
}

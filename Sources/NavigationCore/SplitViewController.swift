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

    /// R67 step (4), expanded: the new controller replaces the secondary column. The old column
    /// leaves completely (willMove, disappears, didMove) before the new one arrives (S49), so this
    /// is two queued transitions, one after the other; the column swap is not animated.
    mutating func replaceSecondary(_ split: ControllerID, with v: ControllerID) {
        let old = state.c(split).split?.secondary
        if let old {
            let before = state.settledViewsInWindow
            state.controllers[old]!.isMovingFromParent = true
            state.controllers[split]!.split!.secondary = nil
            enqueue(operation: "showDetail", from: old, to: v, animated: false, order: .navigation, before: before,
                    preStart: [.move(old, .willMoveToParent, parent: nil)],
                    postFinish: [.move(old, .didMoveToParent, parent: nil)], effects: [.detach([old])])
        }
        let before = state.settledViewsInWindow
        detachFromParent(v)
        state.controllers[v]!.parent = split
        state.controllers[v]!.isMovingToParent = true
        state.controllers[split]!.children.append(v)
        state.controllers[split]!.split!.secondary = v
        enqueue(operation: "showDetail", from: old, to: v, animated: false, order: .navigation, before: before,
                preStart: [.move(v, .willMoveToParent, parent: split)],
                postFinish: [.move(v, .didMoveToParent, parent: split)], effects: [.endMovingToParent([v])],
                forceReport: true)
    }
}

/// Where a user's interactive pop starts (R120): `edge` is `interactivePopGestureRecognizer`,
/// a swipe from the leading edge; `content` is iOS 26's `interactiveContentPopGestureRecognizer`,
/// a horizontal pan anywhere in the navigation controller's content.
public enum PopGesture: String, Sendable, CaseIterable {
    case edge, content
}

/// UINavigationController: push (R76, R77), pop (R78), popTo/popToRoot (R79),
/// setViewControllers (R80), interactive pop (R83), `show` (R65).
extension Engine {
    /// Removes `id` from its parent's children (and stacks), as `removeFromParent` does.
    mutating func detachFromParent(_ id: ControllerID) {
        guard let parent = state.controllers[id]?.parent else { return }
        touched.insert(parent)
        state.controllers[parent]?.children.removeAll { $0 == id }
        state.controllers[parent]?.navigationStack?.viewControllers.removeAll { $0 == id }
        state.controllers[parent]?.pageContainer?.viewControllers.removeAll { $0 == id }
        // R2/R84: a tab that leaves its tab bar (directly or from More) leaves the tab list too, so
        // no list names a controller another container owns (such a list made walks down the
        // hierarchy loop forever).
        let tabBar =
            state.c(parent).kind == .tabBarController
            ? parent
            : state.c(parent).isMoreNavigationController ? state.c(parent).parent : nil
        if let tabBar, state.c(tabBar).viewControllers.contains(id) {
            touched.insert(tabBar)
            state.controllers[tabBar]?.tabState?.viewControllers.removeAll { $0 == id }
            if state.c(tabBar).selectedViewController == id {
                let first = state.c(tabBar).viewControllers.first
                state.controllers[tabBar]?.tabState?.selectedViewController = first
            }
        }
        // R2/R90: a column's controller that leaves its split view controller empties that column
        // (with a column-style split, the wrapper's content goes with it), so no column names a
        // controller another container owns (a stale column made the on-screen walk recurse
        // through a presentation for ever).
        if state.c(parent).kind == .splitViewController, var split = state.c(parent).split {
            if split.primary == id || split.primaryNavigation == id { split.primary = nil; split.primaryNavigation = nil }
            if split.supplementary == id || split.supplementaryNavigation == id { split.supplementary = nil; split.supplementaryNavigation = nil }
            if split.secondary == id || split.secondaryNavigation == id { split.secondary = nil; split.secondaryNavigation = nil }
            if split.compact == id { split.compact = nil }
            if split.inspector == id || split.inspectorNavigation == id { split.inspector = nil; split.inspectorNavigation = nil }
            if split != state.c(parent).split { state.controllers[parent]?.splitState = split }
        }
        self[changing: id].parent = nil
        self[changing: id].isMovingFromParent = false
        self[changing: id].isMovingToParent = false
        self[changing: id].viewAddedToParent = false
    }

    /// R76: what may be pushed.
    func validatePush(_ nav: ControllerID, _ v: ControllerID) throws(Refusal) {
        let vc = state.c(v)
        switch vc.kind {
        case .navigationController: throw .uikit(.pushNavigationController())
        // R76: a tab bar controller is pushed (UIKit does not raise); `push` adds navsim's warning.
        case .splitViewController: throw .uikit(.pushSplitViewController(nav: name(nav)))  // R93
        default: break
        }
        if state.c(nav).viewControllers.contains(v) {
            throw .uikit(.pushDuplicate(nav: name(nav), name(v), legacy: profile.usesLegacyDuplicatePushWording))
        }
        try validateNewChild(v, of: nav, field: "viewController", operation: .pushViewController)
    }

    /// R77: `pushViewController(_:animated:)`.
    mutating func push(onto nav: ControllerID, ref: ControllerRef, animated: Bool) throws(Refusal) {
        guard let v = try resolve(ref) else { throw .input(.invalid("push needs a viewController.", field: "viewController")) }
        try validatePush(nav, v)
        try checkNoNestedNavigationTransition(nav, popping: false)
        // R76: the documentation calls a pushed tab bar controller unsupported; UIKit pushes it.
        if state.c(v).kind == .tabBarController { journal[journal.current].result.warnings.append(.tabBarControllerPushed(name(v), onto: name(nav))) }
        pushValidated(onto: nav, v, animated: animated)
    }

    /// The push itself, once the caller has validated it (R77): `willMove` now, the stack grows at
    /// once, appearance at the end of the turn, `didMove` when the transition ends.
    mutating func pushValidated(onto nav: ControllerID, _ v: ControllerID, animated: Bool) {
        let before = state.settledViewsInWindow
        let stack = state.c(nav).viewControllers
        let old = stack.last
        detachFromParent(v)  // R76 [INF]: a controller with another parent is moved.
        emit(.move(v, .willMoveToParent, parent: nav))
        change(nav) { nav in
            nav.children.append(v)
            nav.container.navigationStack?.viewControllers.append(v)
        }
        change(v) { ($0.parent, $0.isMovingToParent) = (nav, true) }
        enqueue(
            TransitionPlan(
                operation: .push, from: old, to: v, animated: animated, order: .navigation, before: before,
                postFinish: [.move(v, .didMoveToParent, parent: nav)], effects: [.endMovingToParent([v])],
                // An interactive push given up (R38): the stack goes back and `v` leaves, as
                // `removeFromParent` would (didMove(nil), R70) [INF].
                cancellation: Cancellation(
                    effects: [.restoreStack(navigation: nav, stack: stack, attach: []), .detach([v])],
                    events: [.move(v, .didMoveToParent, parent: nil)]),
                navigation: nav))
    }

    /// R78: `popViewController(animated:)`. Returns the popped controller, or nil (a no-op) with
    /// only the root on the stack.
    mutating func pop(_ nav: ControllerID, animated: Bool) throws(Refusal) -> ControllerID? {
        let stack = state.c(nav).viewControllers
        guard stack.count > 1 else { return nil }
        return try popTo(nav, target: stack[stack.count - 2], animated: animated, operation: .pop).last
    }

    /// R79: `popToViewController` / `popToRootViewController`: intermediates get containment
    /// callbacks only.
    /// Returns the popped controllers, bottom first.
    @discardableResult
    mutating func popTo(_ nav: ControllerID, target: ControllerID, animated: Bool, operation: TransitionOperation? = nil) throws(Refusal) -> [ControllerID] {
        let stack = state.c(nav).viewControllers
        guard let index = stack.firstIndex(of: target) else { throw .uikit(.popToUnknown()) }
        let popped = Array(stack[(index + 1)...])
        if !popped.isEmpty { try checkNoNestedNavigationTransition(nav, popping: true) }
        guard !popped.isEmpty else { return [] }
        let before = state.settledViewsInWindow
        // R165: a tab popped off the More navigation controller stays a tab: it goes back to the tab
        // bar when the pop ends (``apply(_:navigation:)``), with no containment calls, and the More
        // list it uncovers is the selection (R86).
        let tabBar = state.c(nav).isMoreNavigationController ? state.c(nav).parent : nil
        let tabs = tabBar.map { tb in popped.filter(state.c(tb).viewControllers.contains) } ?? []
        let leaving = popped.filter { !tabs.contains($0) }
        for id in leaving {
            emit(.move(id, .willMoveToParent, parent: nil))
            self[changing: id].isMovingFromParent = true
        }
        self[changing: nav].navigationStack?.viewControllers = Array(stack[...index])
        if let tabBar, let selected = state.c(tabBar).selectedViewController, tabs.contains(selected) {
            self[changing: tabBar].tabState?.selectedViewController = nav
        }
        let op = operation ?? (index == 0 ? .popToRoot : .popTo)
        enqueue(
            TransitionPlan(
                operation: op, from: popped.last, to: target, animated: animated, order: .navigation, before: before,
                postFinish: leaving.map { .move($0, .didMoveToParent, parent: nil) }, effects: [.detach(popped)],
                cancellation: Cancellation(
                    effects: [.restoreStack(navigation: nav, stack: stack, attach: popped)],
                    events: leaving.map { .move($0, .didMoveToParent, parent: nav) }),
                navigation: nav))
        return popped
    }

    /// R83: the edge-swipe back gesture; cancelled, nothing changes (R38 pattern). The gesture
    /// does not begin while the navigation controller is animating (R81), so that swipe is a no-op.
    /// R120: the content swipe pops the same way on iOS 26; before it, a pan in the content is
    /// no gesture of the navigation controller's, so nothing pops. R142: with the delegate's
    /// animator and interaction controller it is an interactive custom pop (TransitionCoordinator.swift).
    mutating func interactivePop(_ nav: ControllerID, completes: Bool, gesture: PopGesture = .edge) throws(Refusal) {
        if gesture == .content && !profile.hasContentPopGesture { return }
        let stack = state.c(nav).viewControllers
        // R160: the swipe starts on the top controller's view; covered, the touch never reaches it.
        guard stack.count > 1, !isNavigationTransitionRunning(nav), let top = stack.last, !state.isCoveredByPresentation(top) else { return }
        try popTo(nav, target: stack[stack.count - 2], animated: true, operation: .interactivePop)
        runLastNow(completes: completes)
    }

    /// R80: `setViewControllers(_:animated:)` on a navigation controller; the new top decides
    /// between a push-style and a pop-style transition.
    mutating func setNavigationStack(_ nav: ControllerID, _ refs: [ControllerRef], animated: Bool) throws(Refusal) {
        // R165 [INF]: the tab bar controller manages its More navigation controller (Apple's
        // `moreNavigationController` reference); a new stack would drop the More list from the
        // root or take tabs off the tab bar, so navsim refuses it as bad input.
        if state.c(nav).isMoreNavigationController {
            throw .input(
                .invalid(
                    "\(name(nav)) is a tab bar's More navigation controller, which its tab bar controller manages: setViewControllers cannot replace its stack (push, pop, popTo and popToRoot keep the More list at the root).",
                    field: "viewControllers"))
        }
        var ids: [ControllerID] = []
        for ref in refs {
            guard let id = try resolve(ref) else { throw .input(.invalid("viewControllers cannot contain null.", field: "viewControllers")) }
            ids.append(id)
        }
        if Set(ids).count != ids.count { throw .uikit(.duplicateViewControllers(ids.map(name))) }
        for id in ids where state.c(id).kind == .navigationController { throw .uikit(.pushNavigationController()) }
        try checkNoNestedNavigationTransition(nav, popping: false, settingStack: true)
        let before = state.settledViewsInWindow
        let old = state.c(nav).viewControllers
        let removed = old.filter { !ids.contains($0) }
        let added = ids.filter { !old.contains($0) }
        for id in added { try validateNewChild(id, of: nav, field: "viewControllers", operation: .setViewControllers) }
        // R2: children added with addChild that are not stack entries stay children.
        let custom = state.c(nav).children.filter { !old.contains($0) && !ids.contains($0) }
        for id in removed {
            emit(.move(id, .willMoveToParent, parent: nil))
            self[changing: id].isMovingFromParent = true
        }
        for id in added {
            detachFromParent(id)
            emit(.move(id, .willMoveToParent, parent: nav))
            self[changing: id].parent = nav
            self[changing: id].isMovingToParent = true
        }
        self[changing: nav].navigationStack?.viewControllers = ids
        self[changing: nav].children = ids + removed + custom
        enqueue(
            TransitionPlan(
                operation: .setViewControllers, from: old.last, to: ids.last, animated: animated, order: .navigation,
                before: before,
                postFinish: removed.map { .move($0, .didMoveToParent, parent: nil) } + added.map { .move($0, .didMoveToParent, parent: nav) },
                effects: [.detach(removed), .endMovingToParent(added)], navigation: nav))
    }

    /// `setViewControllers` by receiver kind: navigation (R80), tab bar (R84), page (R94).
    mutating func setViewControllers(_ r: ControllerID, _ refs: [ControllerRef], direction: PageDirection?, animated: Bool) throws(Refusal) {
        switch try existing(r).kind {
        case .navigationController: try setNavigationStack(r, refs, animated: animated)
        case .tabBarController: try setTabs(r, refs, animated: animated)
        case .pageViewController: try setPages(r, refs, direction: direction, animated: animated)
        default:
            throw .input(.wrongReceiver("setViewControllers needs a navigation, tab bar or page view controller; \(name(r)) is none."))
        }
    }
}

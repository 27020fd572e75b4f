/// Derived properties, computed from the stored links and never stored twice (R3–R6, R75).
extension SessionState {
    func c(_ id: ControllerID) -> Controller { controllers[id]! }

    /// `outermost(X)`: follow `parent` until a controller without one (§0.2).
    public func outermost(_ id: ControllerID) -> ControllerID {
        var current = id
        while let p = controllers[current]?.parent { current = p }
        return current
    }

    /// The parent chain from `id` (inclusive) upwards.
    public func ancestors(_ id: ControllerID) -> [ControllerID] {
        var out = [id]
        var current = id
        while let p = controllers[current]?.parent { out.append(p); current = p }
        return out
    }

    /// Is `id` equal to `ancestor` or below it in the containment tree?
    public func isWithin(_ id: ControllerID, _ ancestor: ControllerID) -> Bool {
        var current = id
        var hops = 0
        while hops < 10_000 {
            if current == ancestor { return true }
            guard let p = controllers[current]?.parent else { return false }
            current = p
            hops += 1
        }
        return false
    }

    /// R3: the presenter recorded for `self`, else the parent's answer (``Relations``).
    public func presentingViewController(_ id: ControllerID) -> ControllerID? { relations(id).presentingViewController }

    /// R4: the controller presented by `self`, else the parent's answer (``Relations``).
    public func presentedViewController(_ id: ControllerID) -> ControllerID? { relations(id).presentedViewController }

    /// R5: the nearest ancestor of a kind, along the parent chain only (containerGettersCrossModal = false).
    public func nearestAncestor(_ id: ControllerID, kind: ControllerKind) -> ControllerID? {
        var current = controllers[id]?.parent
        var hops = 0
        while let a = current, let c = controllers[a], hops < 10_000 {
            if c.kind == kind { return a }
            current = c.parent
            hops += 1
        }
        return nil
    }

    /// R75: the top of a navigation stack.
    public func topViewController(_ nav: ControllerID) -> ControllerID? { controllers[nav]?.viewControllers.last }

    /// R75: the controller presented on top of a navigation controller, else its top.
    public func navigationVisibleViewController(_ nav: ControllerID) -> ControllerID? {
        if let p = controllers[nav]?.presentedID { return p }
        return topViewController(nav)
    }

    /// docs/api.md `window.visibleViewController`: from the root, follow the showing presentation,
    /// else descend into the container's visible child (a custom container's child that holds a
    /// context presentation counts), until neither applies.
    public var visibleViewController: ControllerID? {
        guard var current = rootViewController else { return nil }
        var guardCount = 0
        while guardCount < 10_000 {
            guardCount += 1
            let vc = c(current)
            if showsPresentation(current), let p = vc.presentedID {
                current = p
                continue
            }
            if let next = visibleChild(of: current) { current = next; continue }
            return current
        }
        return current
    }

    /// The child of a container whose view is on screen (the one a user sees).
    func visibleChild(of id: ControllerID) -> ControllerID? {
        let vc = c(id)
        switch vc.kind {
        case .navigationController: return vc.viewControllers.last
        case .tabBarController:
            guard let s = vc.selectedViewController else { return nil }
            if let more = vc.moreNavigationController, controllers[s]?.parent == more { return more }
            return s
        case .splitViewController:
            guard let split = vc.split else { return nil }
            if split.style.isColumnStyle {
                // R90/R91: the columns' navigation controllers; collapsed, only the primary one shows,
                // or the compact column's controller when there is one (R123).
                if split.isCollapsed { return split.compact ?? split.primaryNavigation }
                return split.secondaryNavigation ?? split.supplementaryNavigation ?? split.primaryNavigation
            }
            return split.isCollapsed ? split.primary : (split.secondary ?? split.primary)
        case .pageViewController: return vc.viewControllers.first
        default:
            // A custom container: its children share the screen, so the one a user sees on top
            // is the last on-screen child whose tree holds a showing presentation, such as a
            // `currentContext` presentation inside it (R21). Without one the container is
            // the answer.
            let shown = vc.children.filter { controllers[$0]?.viewAddedToParent == true }
            return shown.last { child in onScreenTree(child).contains { showsPresentation($0) } }
        }
    }

    /// Does `id` present a controller that is not being dismissed?
    func showsPresentation(_ id: ControllerID) -> Bool {
        guard let p = controllers[id]?.presentedID else { return false }
        return controllers[p]?.presentation?.state != .dismissing
    }

    /// The children of a container whose views are on screen, in view order (parent before child).
    /// R37: containers forward appearance to these children, except a custom container whose
    /// `shouldAutomaticallyForwardAppearanceMethods` is false (AppearanceForwarding.swift).
    func childrenOnScreen(_ id: ControllerID) -> [ControllerID] {
        let vc = c(id)
        switch vc.kind {
        case .navigationController:
            return vc.viewControllers.last.map { [$0] } ?? []
        case .tabBarController:
            // R88: a tab under More shows inside the More navigation controller.
            guard let s = vc.selectedViewController else { return [] }
            if let more = vc.moreNavigationController, s == more || controllers[s]?.parent == more { return [more] }
            return [s]
        case .splitViewController:
            guard let split = vc.split else { return [] }
            if split.style.isColumnStyle {
                // R90/R91: the shown columns' navigation controllers while expanded (R121: the
                // display mode decides which), the primary one collapsed.
                if split.isCollapsed { return (split.compact ?? split.primaryNavigation).map { [$0] } ?? [] }
                return SplitState.Column.allCases.filter { split.isShowing($0) }.compactMap { split.navigation(for: $0) }
            }
            if split.isCollapsed { return split.primary.map { [$0] } ?? [] }
            return [split.primary, split.supplementary, split.secondary].compactMap { $0 }
        case .pageViewController:
            return vc.viewControllers
        default:
            return vc.children.filter { controllers[$0]?.viewAddedToParent == true }
        }
    }

    /// The containment tree on screen below `id`, pre-order (parent before child).
    func onScreenTree(_ id: ControllerID) -> [ControllerID] {
        var out: [ControllerID] = []
        var stack = [id]
        while let next = stack.popLast() {
            out.append(next)
            stack.append(contentsOf: childrenOnScreen(next).reversed())
        }
        return out
    }

    /// The controllers whose views are in the window once every running transition has ended
    /// (R6, R24, R36), parent before child, lower layers first. Appearance callbacks are the
    /// difference of this list before and after a change (§20 note 4).
    public var settledViewsInWindow: [ControllerID] {
        guard let root = rootViewController else { return [] }
        return layer(root)
    }

    private func layer(_ base: ControllerID) -> [ControllerID] {
        let tree = onScreenTree(base)
        var out = tree
        var owner: [ControllerID: ControllerID] = [:]
        func within(_ e: ControllerID, _ n: ControllerID) -> Bool {
            var current: ControllerID? = e
            var hops = 0
            while let x = current, hops < 10_000 {
                hops += 1
                if isWithin(x, n) { return true }
                current = owner[x]
            }
            return false
        }
        for n in tree {
            guard let v = controllers[n]?.presentedID, let record = controllers[v]?.presentation,
                record.state != .dismissing, out.contains(n)
            else { continue }
            let upper = layer(v)
            if record.removesPresenterView {
                let scope = record.contextViewController ?? n
                out.removeAll { within($0, scope) }
            }
            for u in upper { owner[u] = n }
            out += upper
        }
        return out
    }

    /// Controllers in creation order.
    public var orderedControllers: [Controller] { order.compactMap { controllers[$0] } }

    /// The split view controllers in creation order (R91/R92 adapt those in the window): one
    /// pass over the controllers, with no lookup by id per controller, so a session of many
    /// controllers and no split pays little to find none.
    var splitViewControllers: [ControllerID] {
        var found: [ControllerID] = []
        for (id, c) in controllers where c.kind == .splitViewController { found.append(id) }
        switch found.count {
        case 0: return []
        case 1: return order.contains(found[0]) ? found : []
        default:
            let set = Set(found)
            return order.filter { set.contains($0) }
        }
    }
}

extension SessionState {
    /// R6: is the controller's view in the window? Its own view must be attached and, for a child,
    /// its parent's too: a view inside a container that left the window left with it (for example
    /// the old top of a navigation controller mid-push when a tab switch hides it) (``Relations``).
    public func isViewInWindow(_ id: ControllerID) -> Bool { relations(id).isViewInWindow }

    /// R6: the controllers whose views are in the window now, in creation order (a Session's
    /// `window.viewsInWindow`): those for which ``isViewInWindow(_:)`` holds, each read once
    /// and its parent chain only when its own view is attached.
    public var viewsInWindow: [ControllerID] {
        // One pass over the controllers without hashing their ids: a deep stack holds hundreds
        // whose views are detached, and only the few attached ones are then put in order.
        var attached: [ControllerID] = []
        for (id, c) in controllers where c.viewInWindow && (c.parent.map(isViewInWindow) ?? true) {
            attached.append(id)
        }
        return inSessionOrder(attached)
    }

    /// `ids` (distinct controllers of the session) in session order: compared one by one when
    /// they are few, as what is on screen usually is, through a set otherwise.
    public func inSessionOrder(_ ids: [ControllerID]) -> [ControllerID] {
        if ids.count <= 1 { return ids.filter { controllers[$0] != nil } }
        if ids.count <= 16 { return order.filter { id in ids.contains(id) } }
        let set = Set(ids)
        return order.filter { set.contains($0) }
    }

    /// R62: `transitionCoordinator` is non-nil on the controllers a transition involves (its from
    /// and to, the navigation controller it animates, and those whose appearance it changes) only
    /// while it runs. Answers its id, or nil.
    public func transitionCoordinator(_ id: ControllerID) -> String? {
        transitions.first { t in
            t.started
                && (t.record.fromViewController == id || t.record.toViewController == id || t.navigation == id
                    || t.appearing.contains(id) || t.disappearing.contains(id))
        }?.record.id
    }
}

extension SessionState {
    /// R74: a controller's trait collection: the window's, with the overrides of its parent chain
    /// applied from the top down (the nearest one wins) (``Relations``).
    public func traitCollection(_ id: ControllerID) -> Traits { relations(id).traitCollection }

    /// What a controller's parent chain decides about it (R3–R6, R74), from one walk up the chain:
    /// what an encoded controller shows, and each of the single queries above. Pure; a walk of
    /// at most 10,000 links (a cycle, which the core never makes, ends there).
    public struct Relations: Sendable, Equatable {
        /// R3: the presenter recorded for `self`, else the nearest ancestor's (`presentingViewController`).
        public var presentingViewController: ControllerID?
        /// R4: the controller presented by `self`, else by the nearest ancestor that presents one.
        public var presentedViewController: ControllerID?
        /// R5: the nearest ancestors (not `self`) of these kinds, along the parent chain only
        /// (containerGettersCrossModal = false): ``nearestAncestor(_:kind:)``.
        public var navigationController: ControllerID?
        public var tabBarController: ControllerID?
        public var splitViewController: ControllerID?
        /// R74: the window's traits with the chain's overrides, the nearest one winning per size
        /// class. A presented controller starts again from the window's traits, as its
        /// presentation controller sits in the window [INF].
        public var traitCollection: Traits
        /// R6: its own view and every ancestor's are attached (true for an id the session lacks).
        public var isViewInWindow: Bool
    }

    /// ``Relations`` of the controller `id` (an id the session lacks: nothing presents it, no
    /// container holds it, the window's traits, in the window).
    public func relations(_ id: ControllerID) -> Relations {
        guard let c = controllers[id] else {
            return Relations(traitCollection: traits, isViewInWindow: true)
        }
        return relations(of: c)
    }

    /// ``Relations`` of `c`, a controller of this session (its value in hand: one dictionary
    /// lookup per ancestor, none for itself).
    public func relations(of c: Controller) -> Relations {
        var r = Relations(traitCollection: traits, isViewInWindow: true)
        var horizontal: Traits.SizeClass?
        var vertical: Traits.SizeClass?
        // Each link of the chain once, read in place (`c` is not copied).
        func visit(_ x: Controller, isSelf: Bool) {
            if r.presentingViewController == nil { r.presentingViewController = x.presentation?.presenting }  // R3
            if r.presentedViewController == nil { r.presentedViewController = x.presentedID }  // R4
            if !isSelf {  // R5: ancestors only
                switch x.kind {
                case .navigationController: if r.navigationController == nil { r.navigationController = x.id }
                case .tabBarController: if r.tabBarController == nil { r.tabBarController = x.id }
                case .splitViewController: if r.splitViewController == nil { r.splitViewController = x.id }
                default: break
                }
            }
            if let o = x.configuration.traitOverrides {  // R74: the nearest override wins
                if horizontal == nil { horizontal = o.horizontalSizeClass }
                if vertical == nil { vertical = o.verticalSizeClass }
            }
            if !x.viewInWindow { r.isViewInWindow = false }  // R6
        }
        visit(c, isSelf: true)
        var parent = c.parent
        var hops = 1
        while hops < 10_000, let p = parent, let x = controllers[p] {
            visit(x, isSelf: false)
            parent = x.parent
            hops += 1
        }
        if let horizontal { r.traitCollection.horizontalSizeClass = horizontal }
        if let vertical { r.traitCollection.verticalSizeClass = vertical }
        return r
    }
}

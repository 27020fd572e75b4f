/// UITabBarController: selection (R85–R87), `viewControllers` (R84), the More navigation
/// controller (R88).
extension Engine {
    /// Tabs past this index live under "More" (R88).
    func firstMoreIndex(_ tab: ControllerID) -> Int? {
        let tabs = state.c(tab).viewControllers
        let limit = profile.maxVisibleTabs(state.traits)
        return tabs.count > limit ? limit - 1 : nil
    }

    /// Makes `v` (a tab or the More controller) the selected one, moving More tabs into the More
    /// navigation controller. No callbacks: the caller wraps it in a transition.
    mutating func selectTab(_ tab: ControllerID, _ v: ControllerID) {
        let t = state.c(tab)
        if let more = t.moreNavigationController, v != more,
            let index = t.viewControllers.firstIndex(of: v), let first = firstMoreIndex(tab), index >= first
        {
            // R88: a tab under More is pushed onto the More navigation controller. The one it
            // replaces goes back to the tab bar; what was pushed above it leaves (R2: children of
            // More, added with addChild, stay).
            // R165: the More list stays the root; the tab is pushed above it.
            let list = state.moreList(tab)
            let stack = state.c(more).viewControllers
            for old in stack where old != v && old != list {
                if t.viewControllers.contains(old) { self[changing: old].parent = tab } else { detachFromParent(old) }
            }
            if let p = state.c(v).parent, p != tab, p != more { detachFromParent(v) }  // moved elsewhere since
            let custom = state.c(more).children.filter { !stack.contains($0) && $0 != v }
            let root = list.map { [$0] } ?? []
            self[changing: more].navigationStack?.viewControllers = root + [v]
            self[changing: more].children = root + [v] + custom
            self[changing: v].parent = more
            let tabChildren = t.viewControllers.filter { state.c($0).parent == tab }
            self[changing: tab].children = tabChildren + state.c(tab).children.filter { !tabChildren.contains($0) && state.c($0).parent == tab }
        }
        self[changing: tab].tabState?.selectedViewController = v
    }

    /// R86/R87: programmatic selection by index or controller (no delegate calls).
    mutating func select(_ tab: ControllerID, index: Int?, viewController: ControllerID?) throws(Refusal) {
        let t = try existing(tab)
        guard t.kind == .tabBarController else {
            throw .input(.wrongReceiver("select needs a tab bar controller; \(t.descriptionForMessages) is not one."))
        }
        let target: ControllerID
        if let viewController {
            _ = try existing(viewController)
            // R85: only a tab or the More navigation controller.
            guard t.viewControllers.contains(viewController) || viewController == t.moreNavigationController else {
                throw .uikit(.selectNonChild(name(viewController)))
            }
            target = viewController
        } else if let index {
            guard t.viewControllers.indices.contains(index) else {
                throw .input(.invalid("index \(index) is out of range (0..<\(t.viewControllers.count)).", field: "index"))
            }
            target = t.viewControllers[index]
        } else {
            throw .input(.invalid("select needs index or viewController.", field: "index"))
        }
        guard target != t.selectedViewController else { return }
        let before = state.settledViewsInWindow
        let old = t.selectedViewController
        selectTab(tab, target)
        enqueue(TransitionPlan(operation: .select, from: old, to: target, animated: false, order: .tab, before: before))
    }

    /// R84: replacing the tabs keeps the selection by identity, else by index, else index 0.
    mutating func setTabs(_ tab: ControllerID, _ refs: [ControllerRef], animated: Bool) throws(Refusal) {
        var ids: [ControllerID] = []
        for ref in refs {
            guard let id = try resolve(ref) else { throw .input(.invalid("viewControllers cannot contain null.", field: "viewControllers")) }
            ids.append(id)
        }
        if Set(ids).count != ids.count {
            throw .input(.invalid("viewControllers lists a controller twice.", field: "viewControllers"))
        }
        let before = state.settledViewsInWindow
        let t = state.c(tab)
        let old = t.viewControllers
        let oldSelected = t.selectedViewController
        let oldIndex = oldSelected.flatMap { old.firstIndex(of: $0) }
        let removed = old.filter { !ids.contains($0) }
        // R2: a listed tab that has left the tab bar since (removeFromParent, or moved into another
        // container) joins again, as a new tab does.
        let added = ids.filter { !old.contains($0) || (state.c($0).parent != tab && state.c($0).parent != t.moreNavigationController) }
        for id in added { try validateNewChild(id, of: tab, field: "viewControllers", operation: .setViewControllers) }
        for id in removed { emit(.move(id, .willMoveToParent, parent: nil)) }
        for id in added {
            detachFromParent(id)
            emit(.move(id, .willMoveToParent, parent: tab))
        }
        for id in removed {
            // R2: a tab moved into another container since keeps that parent.
            guard state.c(id).parent == tab || state.c(id).parent == t.moreNavigationController else { continue }
            self[changing: id].parent = nil
            if let more = t.moreNavigationController {
                self[changing: more].navigationStack?.viewControllers.removeAll { $0 == id }
                self[changing: more].children.removeAll { $0 == id }
            }
        }
        for id in ids where state.c(id).parent != tab {
            // R2: a tab under More (or a controller added to More with addChild) leaves More's lists.
            if state.c(id).parent == t.moreNavigationController { detachFromParent(id) }
            self[changing: id].parent = tab
        }
        self[changing: tab].tabState?.viewControllers = ids
        // R132: setting the tabs makes every one of them customizable again.
        if t.customizableViewControllers != nil { self[changing: tab].configuration.customizableViewControllers = nil }
        // R2: children added with addChild that are not tabs stay children.
        self[changing: tab].children = ids + t.children.filter { !old.contains($0) && !ids.contains($0) && state.c($0).parent == tab }
        var selected: ControllerID?
        if let oldSelected, ids.contains(oldSelected) {
            selected = oldSelected
        } else if let oldIndex, ids.indices.contains(oldIndex) {
            selected = ids[oldIndex]
        } else {
            selected = ids.first
        }
        self[changing: tab].tabState?.selectedViewController = nil
        if let selected { selectTab(tab, selected) }
        enqueue(
            TransitionPlan(
                operation: .setViewControllers, from: oldSelected, to: selected, animated: false, order: .tab, before: before,
                postFinish: removed.map { .move($0, .didMoveToParent, parent: nil) } + added.map { .move($0, .didMoveToParent, parent: tab) }))
    }
}

extension SessionState {
    /// R165: the More list, root of the More navigation controller's stack (`<tab bar id>.more.list`).
    /// Nil for a tab bar stored before navsim modelled it, whose More stack starts with a tab.
    public func moreList(_ tab: ControllerID) -> ControllerID? {
        guard let t = controllers[tab], let more = t.moreNavigationController,
            let first = controllers[more]?.viewControllers.first, !t.viewControllers.contains(first)
        else { return nil }
        return first
    }

    /// R165: whether `id` is a tab bar's More list (what ``moreList(_:)`` returns for its tab bar).
    public func isMoreList(_ id: ControllerID) -> Bool {
        guard let more = controllers[id]?.parent, controllers[more]?.isMoreNavigationController == true,
            let tab = controllers[more]?.parent
        else { return false }
        return moreList(tab) == id
    }

    /// docs/api.md `selectedIndex`: null (NSNotFound) while the More list itself is selected (R86).
    public func selectedIndex(_ tab: ControllerID) -> Int? {
        guard let t = controllers[tab], let s = t.selectedViewController else { return nil }
        return t.viewControllers.firstIndex(of: s)
    }
}

extension Engine {
    /// A user tapping a tab bar item. R87: unlike programmatic selection, the delegate is asked
    /// `shouldSelect` (when it answers, R161) and told `didSelect` (after the switch's callbacks). R89: tapping the selected
    /// tab pops its navigation controller to the root (`didSelect` is told at once, before the
    /// pop's animation) [order INF]. Only items on the bar can be tapped: a tab under More is
    /// reached through the More item.
    mutating func tapTab(_ tab: ControllerID, index: Int?, viewController: ControllerID?) throws(Refusal) {
        let t = try existing(tab)
        guard t.kind == .tabBarController else {
            throw .input(.wrongReceiver("tapTab needs a tab bar controller; \(t.descriptionForMessages) is not one."))
        }
        let onBar = firstMoreIndex(tab).map { Array(t.viewControllers.prefix($0)) } ?? t.viewControllers
        let items = onBar + (firstMoreIndex(tab) != nil ? t.moreNavigationController.map { [$0] } ?? [] : [])
        let target: ControllerID
        if let viewController {
            guard items.contains(viewController) else {
                throw .input(.invalid("\(viewController) has no item on the tab bar of \(name(tab)).", field: "viewController"))
            }
            target = viewController
        } else if let index {
            guard onBar.indices.contains(index) else {
                throw .input(.invalid("index \(index) is not an item on the tab bar (0..<\(onBar.count)).", field: "index"))
            }
            target = onBar[index]
        } else {
            throw .input(.invalid("tapTab needs index or viewController.", field: "index"))
        }
        // R160: a tab bar covered by a presentation takes no tap; the dimming view does.
        guard !state.isCoveredByPresentation(tab) else { return }
        // R161: UIKit asks `tabBarController(_:shouldSelect:)` only when the delegate implements
        // it (`responds(to:)`); without an answer the tap goes on and nothing is asked.
        if let answer = t.tabBarDelegate?.shouldSelect {
            emit(Event(target, .tabBarControllerShouldSelect))
            if !answer { return }
        }
        let didSelect: [Event] = t.tabBarDelegate != nil ? [Event(target, .tabBarControllerDidSelect)] : []
        let selected = t.selectedViewController
        if let more = t.moreNavigationController, target == more, let list = state.moreList(tab),
            state.c(more).viewControllers.count > 1, selected == more || selected.map({ state.c($0).parent == more }) == true
        {
            // R165 (R89 for More): the More item again while a controller is pushed above the
            // More list pops back to the list, as a re-tapped navigation tab pops to its root.
            try popTo(more, target: list, animated: true, operation: .popToRoot)
            if state.c(tab).selectedViewController != more { self[changing: tab].tabState?.selectedViewController = more }
            for e in didSelect { emit(e) }
            return
        }
        if target == selected {
            // R89: the selected tab again: its navigation controller pops to the root.
            if state.c(target).kind == .navigationController, let root = state.c(target).viewControllers.first,
                state.c(target).viewControllers.count > 1
            {
                try popTo(target, target: root, animated: true, operation: .popToRoot)
            }
            for e in didSelect { emit(e) }
            return
        }
        let before = state.settledViewsInWindow
        selectTab(tab, target)
        enqueue(
            TransitionPlan(
                operation: .select, from: selected, to: target, animated: false, order: .tab, before: before,
                postFinish: didSelect))
    }
}

extension Engine {
    /// R165: a tab under More that leaves the More navigation controller's stack (popped, the
    /// pop finished) goes back to the tab bar as its parent, in tab order, and stays a tab. False
    /// when `id` is not a tab under a More navigation controller.
    mutating func returnToTabBar(_ id: ControllerID) -> Bool {
        guard let more = state.controllers[id]?.parent, state.c(more).isMoreNavigationController, let tab = state.c(more).parent,
            state.c(tab).viewControllers.contains(id)
        else { return false }
        self[changing: more].children.removeAll { $0 == id }
        if state.c(more).viewControllers.contains(id) { self[changing: more].navigationStack?.viewControllers.removeAll { $0 == id } }
        self[changing: id].parent = tab
        let tabChildren = state.c(tab).viewControllers.filter { state.c($0).parent == tab }
        self[changing: tab].children = tabChildren + state.c(tab).children.filter { !tabChildren.contains($0) && state.c($0).parent == tab }
        return true
    }

    /// R132: the tabs the Edit sheet lets a user move: the client's list (those of it that are
    /// tabs), or every tab when it set none.
    func customizableTabs(_ tab: ControllerID) -> [ControllerID] {
        let t = state.c(tab)
        guard let list = t.customizableViewControllers else { return t.viewControllers }
        return t.viewControllers.filter(list.contains)
    }

    /// R133: a user taps Edit on the More list, rearranges the tabs and taps Done. The tab bar
    /// delegate is told `willBeginCustomizing` with the tabs, then `willEndCustomizing` and
    /// `didEndCustomizing` with the tabs in their new order and whether the bar's items changed.
    /// The More list stays on screen throughout (the sheet is a view, not a view controller), so
    /// no appearance callback is made.
    mutating func customizeTabs(_ tab: ControllerID, _ order: [ControllerID]) throws(Refusal) {
        let t = try existing(tab)
        guard t.kind == .tabBarController else {
            throw .input(.wrongReceiver("customizeTabs needs a tab bar controller; \(t.descriptionForMessages) is not one."))
        }
        guard let more = t.moreNavigationController, let firstMore = firstMoreIndex(tab) else {
            throw .input(.invalid("\(name(tab)) shows every tab on its bar: there is no More list, so no Edit button.", field: "viewControllers"))
        }
        // The Edit button is in the More list's navigation bar: the list must be what shows.
        let listShows = state.c(more).viewControllers.isEmpty || state.c(more).viewControllers == state.moreList(tab).map { [$0] }
        guard t.selectedViewController == more, listShows, t.viewInWindow else {
            throw .input(
                .invalid(
                    "The Edit button is on the More list, which is not showing: the tab bar must be on screen with the More item selected (tapTab).",
                    field: "viewControllers"))
        }
        let customizable = customizableTabs(tab)
        guard !customizable.isEmpty else {
            throw .input(.invalid("customizableViewControllers is empty: the More list shows no Edit button.", field: "customizableViewControllers"))
        }
        let old = t.viewControllers
        guard order.count == old.count, Set(order) == Set(old) else {
            throw .input(.invalid("viewControllers must list the tabs of \(name(tab)), each once, in their new order.", field: "viewControllers"))
        }
        for (index, id) in old.enumerated() where !customizable.contains(id) && order[index] != id {
            throw .input(
                .invalid("\(id) is not in customizableViewControllers: the Edit sheet cannot move it from position \(index).", field: "viewControllers"))
        }
        // R160: the Edit button is on the More list; covered, it takes no tap.
        guard !state.isCoveredByPresentation(more) else { return }
        let delegate = t.tabBarDelegate != nil
        let bar = { (tabs: [ControllerID]) in Array(tabs.prefix(firstMore)) }
        let changed = bar(order) != bar(old)
        func told(_ callback: Event.Callback, _ tabs: [ControllerID], changed: Bool?) {
            var e = Event(tab, callback)
            e.viewControllers = tabs
            e.completed = changed
            emit(e)
        }
        if delegate { told(.tabBarControllerWillBeginCustomizing, old, changed: nil) }
        if order != old {
            self[changing: tab].tabState?.viewControllers = order
            let others = t.children.filter { !old.contains($0) }
            self[changing: tab].children = order.filter { state.c($0).parent == tab } + others
        }
        if delegate {
            told(.tabBarControllerWillEndCustomizing, order, changed: changed)
            told(.tabBarControllerDidEndCustomizing, order, changed: changed)
        }
    }
}

/// Controller lifetime: what keeps a controller in a session, and dropping those nothing keeps.
///
/// UIKit keeps a view controller alive for as long as something holds a strong reference to it:
/// the window holds its `rootViewController`, a container holds its children (a navigation
/// stack, the tabs and the More navigation controller, a split's columns, a page view
/// controller's pages, a custom container's `children`), a presenting controller holds its
/// `presentedViewController`, and a running transition holds both of its sides. App code holds
/// the controllers it keeps in variables. navsim models app code's references as the client's:
/// a controller made detached (`createController`, `POST …/controllers`) in a session whose
/// ``ReleasePolicy`` is `automatic` is held by the client until it releases it.
///
/// UIKit has no message for releasing a controller something still holds (ARC simply keeps it):
/// the refusal of an explicit release is navsim's own (`CommandError.Kind.held`).

/// When a session drops controllers nothing holds (docs/api.md `options.release`).
public enum ReleasePolicy: String, Sendable, CaseIterable {
    /// Only an explicit release (``Command/release(_:)``) drops a controller; popped, dismissed
    /// and replaced controllers stay in the session, detached.
    case manual
    /// At the end of every turn, each controller no ``Holder`` holds is dropped with what only
    /// it holds, as ARC deallocates an object whose last strong reference went away.
    case automatic
}

/// One strong reference to a controller (see the top of this file).
public enum Holder: Sendable, Equatable, Hashable {
    /// The window: the controller is its `rootViewController`.
    case window
    /// A controller that holds it as a child, in its container state, or as its
    /// `presentedViewController`.
    case controller(ControllerID)
    /// A running (or queued) transition that animates it or its navigation stack (by transition id).
    case transition(String)
    /// The client: it made the controller detached in an `automatic` session and has not
    /// released it.
    case client
}

extension Controller {
    /// The controllers this one holds strongly, each once: its containment children, its
    /// container's lists (stack, tabs, More navigation controller, the split's column controllers
    /// and their navigation controllers, the controllers a collapsed split keeps for expanding,
    /// pages) and its `presentedViewController`.
    public var heldControllers: [ControllerID] {
        var out = children
        switch container {
        case .plain, .alert: break
        case .navigation(let s): out += s.viewControllers
        case .tabs(let t):
            out += t.viewControllers
            if let more = t.moreNavigationController { out.append(more) }
        case .split(let s):
            out += [
                s.primary, s.supplementary, s.secondary, s.primaryNavigation, s.supplementaryNavigation,
                s.secondaryNavigation, s.compact, s.inspector, s.inspectorNavigation,
            ].compactMap { $0 }
            out += s.collapsedSupplementary + s.collapsedSecondary
        case .pages(let p): out += p.viewControllers
        }
        if let presented = presentedID { out.append(presented) }
        var seen = Set<ControllerID>()
        return out.filter { seen.insert($0).inserted }
    }

    /// Whether ``heldControllers`` contains `id`, without building that list: a navigation
    /// controller deep in pushes holds hundreds, and the release pass asks this of every
    /// controller of the session for each controller it checks.
    /// Lists are searched from the end: what a turn asks about is most often the top of a stack
    /// (the controller just pushed, or the one it covers).
    public func holds(_ id: ControllerID) -> Bool {
        if presentedID == id || children.reversed().contains(id) { return true }
        switch container {
        case .plain, .alert: return false
        case .navigation(let s): return s.viewControllers.reversed().contains(id)
        case .tabs(let t): return t.moreNavigationController == id || t.viewControllers.contains(id)
        case .split(let s):
            return s.primary == id || s.supplementary == id || s.secondary == id || s.primaryNavigation == id
                || s.supplementaryNavigation == id || s.secondaryNavigation == id || s.compact == id
                || s.inspector == id || s.inspectorNavigation == id || s.collapsedSupplementary.contains(id)
                || s.collapsedSecondary.contains(id)
        case .pages(let p): return p.viewControllers.contains(id)
        }
    }

    /// What `self` (a controller before a turn) held and `now` (the same controller after it, nil
    /// when it left the session) no longer holds: the only controllers whose last holder the
    /// turn can have taken away through this one. Each list is compared as a whole first: a push
    /// only appends to a navigation controller's lists and a pop only shortens them, so neither
    /// pays for the hundreds of controllers a deep stack keeps.
    func letGo(becoming now: Controller?) -> [ControllerID] {
        guard let now else { return heldControllers }
        if now == self { return [] }
        var out: [ControllerID] = []
        func lost(_ before: [ControllerID], _ after: [ControllerID]) {
            if after.count >= before.count, after.starts(with: before) { return }
            if before.count > after.count, before.starts(with: after) {
                out += before[after.count...]
                return
            }
            out += before.filter { !after.contains($0) }
        }
        lost(children, now.children)
        switch (container, now.container) {
        case (.navigation(let a), .navigation(let b)): lost(a.viewControllers, b.viewControllers)
        case (.pages(let a), .pages(let b)): lost(a.viewControllers, b.viewControllers)
        case (.plain, .plain), (.alert, .alert): break
        default: out += heldControllers
        }
        if let presented = presentedID { out.append(presented) }
        // What it let go of in one list and still holds in another (a child that stays in the
        // stack) keeps this holder. Each id once: a popped controller leaves two lists.
        var seen = Set<ControllerID>()
        return out.filter { seen.insert($0).inserted && !now.holds($0) }
    }
}

extension SessionState {
    /// What holds `id` (empty for an unknown id or a controller nothing holds): the one
    /// definition of "held" for both the explicit release and the automatic one. Controllers
    /// come in id order after the window and before transitions and the client.
    ///
    /// Cost: one pass over the session's controllers and running transitions, because UIKit's
    /// references point from holder to held (a collapsed split keeps its discarded secondary
    /// without being its parent); it is only asked for a release or for controllers a turn changed.
    public func holders(of id: ControllerID) -> [Holder] {
        guard let target = controllers[id] else { return [] }
        var out: [Holder] = []
        if rootViewController == id { out.append(.window) }
        var holding: [ControllerID] = []
        for (other, c) in controllers where other != id && c.holds(id) {
            holding.append(other)
        }
        out += holding.sorted().map(Holder.controller)
        for t in transitions where t.involves(id) { out.append(.transition(t.record.id)) }
        if target.isHeldByClient { out.append(.client) }
        return out
    }

    /// Whether anything holds `id` (``holders(of:)`` is not empty). Where a holder usually is
    /// (the window, the client, its parent, its presenter, a transition) is asked first, so a
    /// controller still in its container costs no walk over the session.
    func isHeld(_ id: ControllerID) -> Bool {
        guard let c = controllers[id] else { return false }
        if rootViewController == id || c.isHeldByClient { return true }
        if let p = c.parent, p != id, controllers[p]?.holds(id) == true { return true }
        if let p = c.presentation?.presenting, p != id, controllers[p]?.holds(id) == true { return true }
        if transitions.contains(where: { $0.involves(id) }) { return true }
        for (other, o) in controllers where other != id && o.holds(id) { return true }
        return false
    }

    /// `id` and what only it holds, transitively (the controllers a release of `id` drops), in
    /// the session's creation order; `id` first. A controller also held from outside this set
    /// (by another controller, the window, a transition or the client) is kept, and so is what
    /// it holds.
    func releasableTree(_ id: ControllerID) -> [ControllerID] {
        var tree: Set<ControllerID> = [id]
        var grew = true
        while grew {
            grew = false
            for member in tree {
                for held in controllers[member]?.heldControllers ?? [] where !tree.contains(held) {
                    let onlyFromTree = holders(of: held).allSatisfy {
                        if case .controller(let holder) = $0 { tree.contains(holder) } else { false }
                    }
                    if onlyFromTree, controllers[held] != nil {
                        tree.insert(held)
                        grew = true
                    }
                }
            }
        }
        let rest = tree.subtracting([id])
        return [id] + order.filter(rest.contains)
    }

    /// Removes `ids` from the session (their controllers and their places in `order`).
    mutating func drop(_ ids: [ControllerID]) {
        let gone = Set(ids)
        for id in ids { controllers[id] = nil }
        order.removeAll(where: gone.contains)
    }
}

extension RunningTransition {
    /// Whether this transition holds `id`: its from and to (a queued one too, as UIKit's
    /// transition would animate them), the navigation controller whose stack it animates (its
    /// animation blocks keep it, R81) and what it makes appear or disappear. Its `before` and
    /// `after` are navsim's snapshots of the window, not references: they hold nothing (a
    /// controller released since is skipped when the transition starts, ``Engine/aim``).
    func involves(_ id: ControllerID) -> Bool {
        record.fromViewController == id || record.toViewController == id || navigation == id
            || appearing.contains(id) || disappearing.contains(id)
    }
}

extension Engine {
    /// `DELETE …/controllers/{cid}`: drops a controller nothing but the client holds, with what
    /// only it holds. Refused (409 `controller-held`, navsim's text) while the window, a
    /// controller or a transition holds it.
    mutating func release(_ id: ControllerID) throws(Refusal) {
        let c = try existing(id)
        let holders = state.holders(of: id).filter { $0 != .client }
        guard holders.isEmpty else {
            let names = holders.map { holder -> String in
                switch holder {
                case .window: "the window (its rootViewController)"
                case .controller(let h): name(h)
                case .transition(let t): "transition \(t)"
                case .client: "the client"
                }
            }
            throw .input(.held("Cannot release \(c.descriptionForMessages): it is held by \(names.joined(separator: ", "))."))
        }
        dropReleased(state.releasableTree(id))
    }

    /// Drops `tree` from the session. A controller outside it that one of them held (a child the
    /// client also holds, a presented controller) stays, and its links back become nil, as
    /// UIKit's `parent` and `presentingViewController` do when that object is deallocated: a
    /// survivor naming a dropped controller traps the next call that follows the link (R2).
    private mutating func dropReleased(_ tree: [ControllerID]) {
        let gone = Set(tree)
        var survivors: [ControllerID] = []
        for id in tree { survivors += (state.controllers[id]?.heldControllers ?? []).filter { !gone.contains($0) } }
        state.drop(tree)
        released += tree
        for id in survivors {
            guard let c = state.controllers[id] else { continue }
            if let p = c.parent, gone.contains(p) {
                self[changing: id].parent = nil
                self[changing: id].isMovingToParent = false
                self[changing: id].isMovingFromParent = false
            }
            if let presenter = c.presentation?.presenting, gone.contains(presenter) {
                self[changing: id].presentation = nil
                self[changing: id].isBeingPresented = false
                self[changing: id].isBeingDismissed = false
            }
        }
    }

    /// `automatic` sessions, at the end of a turn: every controller that nothing holds any more
    /// is dropped with what only it holds. The candidates are the controllers the turn changed
    /// and those they held when the turn began (`before`) and no longer hold: a controller loses
    /// its last holder only through a change to that holder, to itself, or to the window or a
    /// transition, which change the controllers they hold too. So the pass costs what the turn
    /// changed, not what the session holds (a push on a stack of hundreds lets go of nothing).
    mutating func releaseUnheld(before: SessionState) {
        guard state.options.release == .automatic, !touched.isEmpty else { return }
        var candidates = touched
        for id in touched {
            guard let was = before.controllers[id] else { continue }
            candidates.formUnion(was.letGo(becoming: state.controllers[id]))
        }
        if let root = before.rootViewController { candidates.insert(root) }
        for id in candidates.sorted() where state.controllers[id] != nil && !state.isHeld(id) {
            dropReleased(state.releasableTree(id))
        }
    }
}

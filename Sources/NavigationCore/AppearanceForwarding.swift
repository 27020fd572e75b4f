/// Manual appearance forwarding: a custom container whose `shouldAutomaticallyForwardAppearanceMethods`
/// is false (R37), and `beginAppearanceTransition(_:animated:)` / `endAppearanceTransition()`
/// called on a child (R105). Apple's documentation of the property: "If you override this method
/// and return false, you are responsible for telling the child when its views are going to appear
/// or disappear", by calling those two methods.

extension Controller {
    /// R37: does this controller send its on-screen children their appearance callbacks itself?
    /// Only a custom container's answer counts: UIKit's own containers (navigation, tab bar,
    /// split, page, alert) manage their children's appearance whatever the property says [INF].
    var forwardsAppearance: Bool {
        switch kind {
        case .viewController, .tableViewController, .collectionViewController:
            configuration.shouldAutomaticallyForwardAppearanceMethods
        default: true
        }
    }
}

extension Engine {
    /// R37: of the controllers one side of a transition brings on or off screen (`changing`),
    /// those UIKit sends nothing: each whose appearance would reach it through a custom container
    /// that does not forward. Walking up from a controller: a parent that changes too and
    /// forwards passes the change down, so the walk goes on; a non-forwarding parent that changes
    /// (it is presented, pushed, covered, dismissed) stops it there; a non-forwarding parent that
    /// does not change put the view in or took it out itself (`addSubview`, R71), unless a
    /// presentation covered or uncovered that controller as its presenter (`exempt`: UIKit's
    /// presentation calls the presenter's appearance methods directly, R32, R34).
    func manuallyForwarded(_ changing: [ControllerID], exempt: Set<ControllerID>) -> Set<ControllerID> {
        // Most transitions have no such container above them: a walk up each chain, nothing built.
        guard changing.contains(where: hasManualAncestor) else { return [] }
        var manual = Set<ControllerID>()
        var set: Set<ControllerID>?
        for id in changing {
            var current = id
            var hops = 0
            while hops < 10_000, let p = state.controllers[current]?.parent, let parent = state.controllers[p] {
                hops += 1
                if set == nil { set = Set(changing) }
                let parentChanges = set?.contains(p) ?? false
                if !parent.forwardsAppearance {
                    if parentChanges || !exempt.contains(current) { manual.insert(id) }
                    break
                }
                if !parentChanges { break }
                current = p
            }
        }
        return manual
    }

    /// R37: is `id` below a custom container that does not forward appearance?
    func hasManualAncestor(_ id: ControllerID) -> Bool {
        var current = state.controllers[id]?.parent
        var hops = 0
        while let p = current, let c = state.controllers[p], hops < 10_000 {
            if !c.forwardsAppearance { return true }
            current = c.parent
            hops += 1
        }
        return false
    }

    /// R105: `id` and the controllers it forwards to, parent before child: the children whose
    /// views are in its view, and theirs, not below a container that does not forward. The
    /// header of `beginAppearanceTransition(_:animated:)` says the calls reach "descendent child
    /// controllers" this way.
    func forwardingTree(_ id: ControllerID) -> [ControllerID] {
        var out: [ControllerID] = []
        var stack = [id]
        while let next = stack.popLast(), out.count < 10_000 {
            out.append(next)
            guard let c = state.controllers[next], c.forwardsAppearance else { continue }
            stack.append(contentsOf: state.childrenOnScreen(next).reversed())
        }
        return out
    }

    /// R105: `beginAppearanceTransition(_:animated:)`. The receiver and the controllers it forwards
    /// to get `viewWillAppear` (its view loaded first; `viewIsAppearing` after it on the profiles
    /// that have it) or `viewWillDisappear`, and become appearing or disappearing. A begin while
    /// the receiver's previous one has not ended is D21, logged, and the call goes on (R38).
    mutating func beginAppearanceTransition(_ id: ControllerID, isAppearing: Bool, animated: Bool) throws(Refusal) {
        let c = try existing(id)
        if c.appearance == .appearing || c.appearance == .disappearing {
            journal[journal.current].result.warnings.append(.unbalancedAppearance(name(id)))
        }
        let tree = forwardingTree(id)
        for x in tree { self[changing: x].manualAppearanceAnimated = animated }
        if isAppearing {
            for x in tree where !state.c(x).isViewLoaded { loadView(x, in: journal.current) }
            for x in tree where state.controllers[x] != nil {
                self[changing: x].appearance = .appearing
                emit(Event(x, .viewWillAppear, animated: animated))
                if profile.emitsViewIsAppearing { emit(Event(x, .viewIsAppearing, animated: animated)) }
                updatePropertiesOnAppearance(x, in: journal.current)
            }
        } else {
            for x in tree where state.controllers[x] != nil {
                self[changing: x].appearance = .disappearing
                emit(Event(x, .viewWillDisappear, animated: animated))
            }
        }
    }

    /// R105: `endAppearanceTransition()`. Ends the receiver's begun transition: it and the
    /// controllers it forwards to that are in the same one get `viewDidAppear` or
    /// `viewDidDisappear`, with the begin's `animated`. An end with no begin before it is D21
    /// and changes nothing (public logs of it are in docs/uikit-behaviours.md, R105).
    mutating func endAppearanceTransition(_ id: ControllerID) throws(Refusal) {
        let c = try existing(id)
        let animated = c.manualAppearanceAnimated
        switch c.appearance {
        case .appeared, .disappeared:
            journal[journal.current].result.warnings.append(.unbalancedAppearance(name(id)))
        case .appearing:
            for x in forwardingTree(id) where state.controllers[x]?.appearance == .appearing {
                self[changing: x].appearance = .appeared
                emit(Event(x, .viewDidAppear, animated: animated))
            }
        case .disappearing:
            for x in forwardingTree(id) where state.controllers[x]?.appearance == .disappearing {
                self[changing: x].appearance = .disappeared
                emit(Event(x, .viewDidDisappear, animated: animated))
            }
        }
    }
}

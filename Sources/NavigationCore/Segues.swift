/// Storyboard segues at run time: `shouldPerformSegue` (R96), `performSegue` (R97), the segue
/// kinds (R98), unwind search and execution (R99, R100).
extension Engine {
    mutating func performSegue(
        _ source: ControllerID, identifier: String, destination: ControllerSpec?,
        declared: SegueSpec? = nil, askFirst: Bool
    ) throws(Refusal) {
        let c = state.c(source)
        // R97: only controllers from a storyboard have segues.
        guard c.storyboard != nil, let found = c.segue(named: identifier, acceptingElementID: askFirst) else {
            throw .uikit(.unknownSegue(name(source), identifier))
        }
        // R98 "Custom": what the segue class does is what is declared when it runs.
        let segue = declared.flatMap { $0.id == found.id ? $0 : nil } ?? found
        // R98 "Custom": a declared class's `perform()` replaces the kind's, whatever the kind.
        let performs = segue.kind == .custom ? (segue.customPerforms ?? .present) : segue.customPerforms
        if askFirst {
            // R160: a user's tap on the control reaches it only when no presentation covers it.
            guard !state.isCoveredByPresentation(source) else { return }
            var e = Event(source, .shouldPerformSegue)
            e.segue = .init(identifier: segue.identifier, source: source, destination: nil)
            emit(e)
            // R96: false: the segue silently does nothing.
            if c.shouldPerformSegue[segue.identifier ?? identifier] == false { return }
        }
        if segue.kind == .unwind {
            try unwind(from: source, segue: segue)
            return
        }
        guard let destination else {
            throw .input(.invalid("The segue '\(identifier)' has no destination scene.", field: "identifier"))
        }
        // R96 (1): the destination is instantiated, its view not loaded.
        var spec = destination
        if performs != nil, let delegate = segue.customTransitioningDelegate { spec.transitioningDelegate = delegate }
        // R110: detents a segue class's `perform()` sets: Interface Builder stores none in the XML.
        if performs != nil, let sheet = segue.customSheetPresentationController { spec.sheetPresentationController = sheet }
        let dest = try instantiate(spec)
        // R98 "Push": a legacy push needs a navigation controller; checked before prepare.
        if performs == nil, segue.kind == .push, state.nearestAncestor(source, kind: .navigationController) == nil {
            throw .uikit(.pushSegueWithoutNavigationController())
        }
        var prepare = Event(source, .prepareForSegue)
        prepare.segue = .init(identifier: segue.identifier, source: source, destination: dest)
        emit(prepare)
        let animated = segue.animates
        if let performs {
            try performCustom(performs, segue, source: source, destination: dest)
            return
        }
        switch segue.kind {
        case .show:
            try show(receiver: source, ref: .existing(dest), animated: animated)
        case .push:
            try push(onto: state.nearestAncestor(source, kind: .navigationController)!, ref: .existing(dest), animated: animated)
        case .showDetail:
            try showDetail(receiver: source, ref: .existing(dest), animated: animated)
        case .presentation:
            try present(
                receiver: source, ref: .existing(dest), style: segue.modalPresentationStyle,
                transitionStyle: segue.modalTransitionStyle, popover: nil, animated: animated,
                reportsCompletion: false, operation: .present)
        case .popoverPresentation:
            try present(
                receiver: source, ref: .existing(dest), style: .popover, transitionStyle: segue.modalTransitionStyle,
                popover: segue.popover, animated: animated, reportsCompletion: false, operation: .present)
        case .custom:
            break  // `performs` is never nil for a custom segue.
        case .unwind, .embed, .relationship:
            break
        }
    }

    /// R98 "Custom": the segue class's `perform()`, as declared for it (a custom segue, or a
    /// segue of another kind whose `customClass` is declared); an undeclared custom segue presents.
    private mutating func performCustom(
        _ performs: SegueSpec.CustomPerform, _ segue: SegueSpec,
        source: ControllerID, destination dest: ControllerID
    ) throws(Refusal) {
        let animated = segue.animates
        switch performs {
        case .push:
            if let nav = state.nearestAncestor(source, kind: .navigationController) {
                try push(onto: nav, ref: .existing(dest), animated: animated)
            } else {
                throw .uikit(.pushSegueWithoutNavigationController())
            }
        case .show: try show(receiver: source, ref: .existing(dest), animated: animated)
        case .showDetail: try showDetail(receiver: source, ref: .existing(dest), animated: animated)
        case .none: break
        case .present:
            try present(
                receiver: source, ref: .existing(dest), style: segue.modalPresentationStyle,
                transitionStyle: segue.modalTransitionStyle, popover: segue.popover, animated: animated,
                reportsCompletion: false, operation: .present)
        }
    }

    /// R99: the destination of an unwind: walk "next" controllers (parent, or presenter), searching
    /// each one's other children (a navigation stack top-down) and then the controller itself.
    /// `asked` collects the controllers asked, in order (the source is never asked); `calls` the
    /// overrides the search calls (R146, R147), in order.
    func unwindDestination(
        from source: ControllerID, action: String, asked: inout [ControllerID], calls: inout [Event]
    ) throws(Refusal) -> ControllerID? {
        func implements(_ id: ControllerID) throws(Refusal) -> Bool {
            guard id != source else { return false }
            if !asked.contains(id) { asked.append(id) }
            let c = state.c(id)
            let has = c.unwindActions.contains(action)
            // R147: the class's override answers; without one UIKit asks whether it implements the action.
            guard !c.canPerformUnwindSegueAction.isEmpty else { return has }
            var e = Event(id, .canPerformUnwindSegueAction)
            e.action = action
            calls.append(e)
            let answer = c.canPerformUnwindSegueAction[action] ?? has
            if answer && !has {
                throw .input(
                    .invalid(
                        "\(c.descriptionForMessages) answers canPerformUnwindSegueAction true for '\(action)', which its class does not implement (unwindActions): UIKit would send it the action and raise 'unrecognized selector'.",
                        field: "canPerformUnwindSegueAction"))
            }
            return answer
        }
        func search(_ id: ControllerID) throws(Refusal) -> ControllerID? {
            for child in allowedChildren(id, excluding: nil, calls: &calls) {
                if let hit = try search(child) { return hit }
            }
            return try implements(id) ? id : nil
        }
        var current: ControllerID? = source
        var cameFrom: ControllerID?
        var hops = 0
        while let here = current, hops < 1_000 {
            hops += 1
            for child in allowedChildren(here, excluding: cameFrom, calls: &calls) {
                if let hit = try search(child) { return hit }
            }
            if try implements(here) { return here }
            cameFrom = here
            if let parent = state.c(here).parent { current = parent } else { current = state.c(here).presentation?.presenting }
        }
        return nil
    }

    /// `allowedChildrenForUnwinding(from:)`: children minus the one containing the source; a
    /// navigation controller offers its stack top-down. R146: a class's override returns its
    /// own list, searched in its order as it is (of the controller's children only).
    func allowedChildren(_ id: ControllerID, excluding path: ControllerID?, calls: inout [Event]) -> [ControllerID] {
        let c = state.c(id)
        if let declared = c.allowedChildrenForUnwinding {
            calls.append(Event(id, .allowedChildrenForUnwinding))
            return declared.filter { c.children.contains($0) }
        }
        var list = c.kind == .navigationController ? c.viewControllers.reversed() : c.children
        if let path { list.removeAll { state.isWithin(path, $0) } }
        return list
    }

    /// R100: prepare, the destination's action, containers on the way select or pop, and
    /// presentations above the destination are dismissed (only the top one animates).
    mutating func unwind(from source: ControllerID, segue: SegueSpec) throws(Refusal) {
        guard let action = segue.unwindAction else { return }
        var asked: [ControllerID] = []
        var calls: [Event] = []
        let found = try unwindDestination(from: source, action: action, asked: &asked, calls: &calls)
        for e in calls { emit(e) }
        guard let dest = found else {
            // R99: nobody implements the action: UIKit does nothing and says nothing; navsim says why.
            journal[journal.current].result.warnings.append(.unwindDestinationNotFound(action: action, source: name(source), asked: asked.map(name)))
            return
        }
        var prepare = Event(source, .prepareForSegue)
        prepare.segue = .init(identifier: segue.identifier, source: source, destination: dest)
        emit(prepare)
        var call = Event(dest, .unwindAction)
        call.action = action
        call.segue = prepare.segue
        emit(call)
        // Containers between the destination and its outermost ancestor bring it forward.
        var child = dest
        for a in state.ancestors(dest).dropFirst() {
            let c = state.c(a)
            if c.on.calls[.unwindForTowards] != nil {
                // R148: the class's `unwind(for:towards:)` brings `child` forward as its code does.
                var e = Event(a, .unwindForTowards)
                e.towards = child
                e.segue = prepare.segue
                emit(e)
            } else if c.kind == .navigationController, let index = c.viewControllers.firstIndex(of: child),
                index < c.viewControllers.count - 1
            {
                try popTo(a, target: child, animated: segue.animates, operation: .popTo)
            } else if c.kind == .tabBarController, c.selectedViewController != child, c.viewControllers.contains(child) {
                try select(a, index: nil, viewController: child)
            }
            child = a
        }
        // R100: a current-context presentation is dismissed only if the source is inside it.
        if let (presented, _) = dismissalTarget(dest), state.presentedViewController(dest) != nil,
            state.c(presented).presentation?.contextViewController == nil || state.isInWindowTree(source, root: presented)
        {
            try dismiss(receiver: dest, animated: segue.animates, reportsCompletion: false)
        }
    }
}

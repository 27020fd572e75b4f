/// UISplitViewController: collapse and expand (R91, R92), `show` (R68) and
/// `showDetailViewController` (R67) column swaps, showing and hiding columns (R121). Classic and
/// column-style splits have their own delegate methods and neither applies to the other (R90).
extension Engine {
    /// R91: a split collapses when its width becomes compact, or when it enters a window in compact width.
    /// Its delegate is asked first (classic: `primaryViewController(forCollapsing:)`, then
    /// `collapseSecondary(_:onto:)` when there is a secondary and the delegate answers it; column
    /// style: `topColumnForCollapsingToProposedTopColumn` when it answers, R161), as the split lays its view out: after its
    /// `viewDidLoad` (R170). Column style: each controller that moves to the primary column's
    /// navigation controller gets `willMove(toParent:)` then, and `didMove(toParent:)` once the
    /// change is on screen (R171). Returns the calls made once the change is on screen (those
    /// `didMove`s, then column style's `splitViewControllerDidCollapse`) [order INF].
    mutating func collapse(_ split: ControllerID) -> [Event] {
        guard let s = state.c(split).split else { return [] }
        let delegate = s.hasDelegate
        if s.style.isColumnStyle {
            let moves = collapseColumns(split)
            // R161: a question the delegate gives no answer to is a method it does not implement,
            // which UIKit does not call (`responds(to:)`); the split proposes `.secondary` itself.
            var now = delegate && s.topColumnForCollapsing != nil ? [Event(split, .splitViewControllerTopColumnForCollapsing)] : []
            now += moves.map { .move($0.id, .willMoveToParent, parent: $0.parent) }
            duringLayout(of: split, now)
            return moves.map { .move($0.id, .didMoveToParent, parent: $0.parent) }
                + (delegate ? [Event(split, .splitViewControllerDidCollapse)] : [])
        }
        if delegate {
            var asked = [Event(split, .splitViewControllerPrimaryForCollapsing)]
            // R161: `collapseSecondary(_:onto:)` is asked only when the delegate answers it.
            if s.secondary != nil && s.collapseSecondaryOntoPrimary != nil { asked.append(Event(split, .splitViewControllerCollapseSecondary)) }
            duringLayout(of: split, asked)
        }
        collapseClassic(split)
        return []
    }

    /// R92: a split expands when the width becomes regular; the delegate is asked as for
    /// collapsing (classic: `primaryViewController(forExpanding:)`, `separateSecondary(from:)`;
    /// column style: `displayModeForExpandingToProposedDisplayMode`, then
    /// `splitViewControllerDidExpand` once on screen), and the controllers that go back to their
    /// columns get their containment calls as for collapsing (R170, R171).
    mutating func expand(_ split: ControllerID) -> [Event] {
        guard let s = state.c(split).split else { return [] }
        let delegate = s.hasDelegate
        if s.style.isColumnStyle {
            let moves = expandColumns(split)
            var now = delegate ? [Event(split, .splitViewControllerDisplayModeForExpanding)] : []
            now += moves.map { .move($0.id, .willMoveToParent, parent: $0.parent) }
            duringLayout(of: split, now)
            return moves.map { .move($0.id, .didMoveToParent, parent: $0.parent) }
                + (delegate ? [Event(split, .splitViewControllerDidExpand)] : [])
        }
        if delegate {
            duringLayout(of: split, [Event(split, .splitViewControllerPrimaryForExpanding), Event(split, .splitViewControllerSeparateSecondary)])
        }
        expandClassic(split)
        return []
    }

    /// R170: UIKit collapses and expands a split as it lays out the split's view, so its delegate
    /// is asked (and the controllers it moves told) after the split's `viewDidLoad`: at once when
    /// the view is loaded, else when the transition that brings it on screen loads it.
    mutating func duringLayout(of split: ControllerID, _ events: [Event]) {
        guard !events.isEmpty else { return }
        if state.c(split).isViewLoaded {
            for e in events { emit(e) }
        } else {
            splitCallsAwaitingLoad.append((split: split, entry: journal.current, events: events))
        }
    }

    /// Loads a controller's view: `viewDidLoad`, then what a split held until its view loaded (R170).
    mutating func loadView(_ id: ControllerID, in entry: Journal.Index) {
        self[changing: id].isViewLoaded = true
        emit(Event(id, .viewDidLoad), in: entry)
        guard !splitCallsAwaitingLoad.isEmpty else { return }
        let held = splitCallsAwaitingLoad.filter { $0.split == id }
        splitCallsAwaitingLoad.removeAll { $0.split == id }
        for (_, heldEntry, events) in held { for e in events { emit(e, in: heldEntry) } }
    }

    /// R91 (column style): the columns merge into the primary column's navigation controller, up
    /// to the top column: UIKit proposes `.secondary` and the delegate's
    /// `topColumnForCollapsingToProposedTopColumn` may answer another column. The stacks of the
    /// merged columns are appended in column order (primary, supplementary, secondary); columns
    /// after the top one keep their stacks, off screen. Returns the controllers that changed parent
    /// with their new parent, in stack order (R171); appearance follows from what is on screen.
    @discardableResult
    mutating func collapseColumns(_ split: ControllerID) -> [(id: ControllerID, parent: ControllerID)] {
        guard var s = state.c(split).split else { return [] }
        s.isCollapsed = true
        s.collapsedSupplementary = []
        s.collapsedSecondary = []
        // R123: with a compact column the split shows it instead; the other columns keep their stacks.
        guard s.compact == nil, let primary = s.primaryNavigation else {
            self[changing: split].splitState = s
            return []
        }
        var moves: [(id: ControllerID, parent: ControllerID)] = []
        let top = s.topColumnForCollapsing ?? .secondary
        let merged: [SplitState.Column] =
            switch top {
            case .primary: []
            case .supplementary: [.supplementary]
            case .secondary, .inspector: [.supplementary, .secondary]
            }
        for column in merged {
            guard let nav = s.navigation(for: column) else { continue }
            let entries = state.c(nav).viewControllers
            for id in entries {
                self[changing: nav].children.removeAll { $0 == id }
                self[changing: id].parent = primary
                self[changing: primary].children.append(id)
                self[changing: primary].navigationStack?.viewControllers.append(id)
                moves.append((id, primary))
            }
            self[changing: nav].navigationStack?.viewControllers = []
            if column == .supplementary { s.collapsedSupplementary = entries } else { s.collapsedSecondary = entries }
        }
        self[changing: split].splitState = s
        return moves
    }

    /// R92 (column style): the primary column's stack is separated again: from the first
    /// controller that came from the supplementary column on, entries go back to that column, and
    /// from the first that came from the secondary column on (controllers pushed on top of them
    /// while collapsed included), to the secondary column. Returns the controllers that changed
    /// parent with their new parent, in stack order (R171).
    @discardableResult
    mutating func expandColumns(_ split: ControllerID) -> [(id: ControllerID, parent: ControllerID)] {
        guard var s = state.c(split).split else { return [] }
        s.isCollapsed = false
        let fromSupplementary = Set(s.collapsedSupplementary)
        let fromSecondary = Set(s.collapsedSecondary)
        s.collapsedSupplementary = []
        s.collapsedSecondary = []
        self[changing: split].splitState = s
        guard let primary = s.primaryNavigation else { return [] }
        var moves: [(id: ControllerID, parent: ControllerID)] = []
        let stack = state.c(primary).viewControllers
        let secondaryStart = stack.firstIndex { fromSecondary.contains($0) }
        let supplementaryStart = stack.firstIndex { fromSupplementary.contains($0) }.flatMap { i in
            secondaryStart.map { i < $0 ? i : nil } ?? i
        }
        var parts: [(SplitState.Column, ArraySlice<ControllerID>)] = []
        if let start = supplementaryStart { parts.append((.supplementary, stack[start..<(secondaryStart ?? stack.count)])) }
        if let start = secondaryStart { parts.append((.secondary, stack[start...])) }
        for (column, part) in parts {
            guard let nav = s.navigation(for: column) else { continue }
            for id in part {
                self[changing: primary].children.removeAll { $0 == id }
                self[changing: id].parent = nav
                self[changing: nav].children.append(id)
                self[changing: nav].navigationStack?.viewControllers.append(id)
                moves.append((id, nav))
            }
        }
        let kept = supplementaryStart ?? secondaryStart ?? stack.count
        self[changing: primary].navigationStack?.viewControllers = Array(stack[..<kept])
        return moves
    }

    /// R91 (classic): by default a navigation primary pushes the secondary as one entry
    /// (`collapseSecondaryViewController(_:for:)`): a navigation secondary is nested with its own
    /// stack, so `primary.viewControllers == [master, secondaryNav]` and the detail's
    /// `navigationController` stays `secondaryNav`, as a collapsed `showDetail` nests it (R67 (4)).
    /// A delegate that answers `collapseSecondary … onto:` true, or a primary that is no navigation
    /// controller, discards it. Either way the collapsed split has one child, its primary ("contains
    /// only one view controller"); the secondary is remembered for expanding.
    mutating func collapseClassic(_ split: ControllerID) {
        guard var s = state.c(split).split else { return }
        s.isCollapsed = true
        self[changing: split].splitState = s
        guard let secondary = s.secondary else { return }
        self[changing: split].children.removeAll { $0 == secondary }
        self[changing: secondary].parent = nil
        guard s.collapseSecondaryOntoPrimary != true, let primary = s.primary,
            state.c(primary).kind == .navigationController
        else { return }
        self[changing: secondary].parent = primary
        self[changing: primary].children.append(secondary)
        self[changing: primary].navigationStack?.viewControllers.append(secondary)
    }

    /// R92 (classic): the navigation primary pops what the collapse pushed (`separateSecondary`'s
    /// default) and the secondary is a column again; a discarded one comes back as it was [INF].
    /// A navigation secondary takes along what was pushed onto the primary above it. A session
    /// collapsed by an earlier release, whose navigation secondary's stack was merged onto the
    /// primary, is separated the old way: everything above the primary's root goes back.
    mutating func expandClassic(_ split: ControllerID) {
        guard var s = state.c(split).split else { return }
        s.isCollapsed = false
        self[changing: split].splitState = s
        guard let secondary = s.secondary else { return }
        if let primary = s.primary, state.c(primary).kind == .navigationController {
            let stack = state.c(primary).viewControllers
            let secondaryIsNavigation = state.c(secondary).kind == .navigationController
            if let i = stack.firstIndex(of: secondary), i > 0 {
                let above = secondaryIsNavigation ? Array(stack[(i + 1)...]) : []
                let leaving = [secondary] + above
                self[changing: primary].navigationStack?.viewControllers = stack.filter { !leaving.contains($0) }
                self[changing: primary].children.removeAll { leaving.contains($0) }
                self[changing: secondary].parent = nil
                for id in above {
                    self[changing: id].parent = secondary
                    self[changing: secondary].children.append(id)
                    self[changing: secondary].navigationStack?.viewControllers.append(id)
                }
            } else if secondaryIsNavigation && stack.count > 1 && state.c(secondary).viewControllers.isEmpty
                && state.c(secondary).parent == nil
            {
                let moved = Array(stack.dropFirst())
                self[changing: primary].navigationStack?.viewControllers = [stack[0]]
                self[changing: primary].children.removeAll { moved.contains($0) }
                for id in moved { self[changing: id].parent = secondary }
                self[changing: secondary].navigationStack?.viewControllers = moved
                self[changing: secondary].children = moved
            }
        }
        if state.c(secondary).parent == nil {
            self[changing: secondary].parent = split
            if !state.c(split).children.contains(secondary) { self[changing: split].children.append(secondary) }
        }
    }

    /// R67 step (4), expanded, and R68 (classic, primary not a navigation controller): the new
    /// controller replaces a column. The old column leaves completely (willMove, disappears,
    /// didMove) before the new one arrives (S49), so this is two queued transitions, one after the
    /// other; the column swap is not animated. For a column-style split the column's child is its
    /// navigation controller (R90): a navigation controller takes the old one's place; another
    /// controller gets a new wrapper (`<split id>.<column>`, suffixed if that id is taken).
    mutating func replaceColumn(
        _ split: ControllerID, _ column: SplitState.Column, with v: ControllerID,
        operation: TransitionOperation
    ) throws(Refusal) {
        guard let config = state.c(split).split else { return }
        try validateNewChild(v, of: split, field: "viewController", operation: operation == .show ? .show : .showDetailViewController)
        let columnStyle = config.style.isColumnStyle
        let old: ControllerID? =
            switch column {
            case .primary: columnStyle ? config.primaryNavigation : config.primary
            case .supplementary: columnStyle ? config.supplementaryNavigation : config.supplementary
            case .secondary: columnStyle ? config.secondaryNavigation : config.secondary
            case .inspector: config.inspectorNavigation
            }
        if let old {
            let before = state.settledViewsInWindow
            self[changing: old].isMovingFromParent = true
            setColumn(split, column, content: nil, navigation: nil)
            enqueue(
                TransitionPlan(
                    operation: operation, from: old, to: v, animated: false, order: .navigation, before: before,
                    preStart: [.move(old, .willMoveToParent, parent: nil)],
                    postFinish: [.move(old, .didMoveToParent, parent: nil)], effects: [.detach([old])]))
        }
        let before = state.settledViewsInWindow
        detachFromParent(v)
        var child = v
        if columnStyle && state.c(v).kind != .navigationController {
            child = try newID("\(split).\(column.rawValue)", suffixWhenTaken: true)
            var wrapper = Controller(id: child, kind: .navigationController)
            wrapper.children = [v]
            wrapper.navigationStack?.viewControllers = [v]
            insert(wrapper)
            self[changing: v].parent = child
        }
        self[changing: child].parent = split
        self[changing: child].isMovingToParent = true
        // The new column takes the old one's place among the children (the old one leaves when
        // its transition ends).
        let index = old.flatMap { state.c(split).children.firstIndex(of: $0) } ?? state.c(split).children.count
        self[changing: split].children.insert(child, at: index)
        setColumn(split, column, content: v, navigation: columnStyle ? child : nil)
        enqueue(
            TransitionPlan(
                operation: operation, from: old, to: v, animated: false, order: .navigation, before: before,
                preStart: [.move(child, .willMoveToParent, parent: split)],
                postFinish: [.move(child, .didMoveToParent, parent: split)], effects: [.endMovingToParent([child])],
                isAlwaysReported: true))
    }

    private mutating func setColumn(
        _ split: ControllerID, _ column: SplitState.Column, content: ControllerID?,
        navigation: ControllerID?
    ) {
        switch column {
        case .primary:
            self[changing: split].splitState?.primary = content
            self[changing: split].splitState?.primaryNavigation = navigation
        case .supplementary:
            self[changing: split].splitState?.supplementary = content
            self[changing: split].splitState?.supplementaryNavigation = navigation
        case .secondary:
            self[changing: split].splitState?.secondary = content
            self[changing: split].splitState?.secondaryNavigation = navigation
        case .inspector:
            self[changing: split].splitState?.inspector = content
            self[changing: split].splitState?.inspectorNavigation = navigation
        }
    }

    /// R121: `show(_:)` / `hide(_:)`. The split moves to the nearest display mode in which the
    /// column is shown (hidden); each column whose visibility changes is announced to the
    /// delegate (`splitViewController(_:willShow:)` / `(_:willHide:)`, column order) before the
    /// change, and its views appear or disappear in one animated transition. A collapsed split
    /// keeps its single stack, so nothing changes [INF]. Only the `…BesideSecondary` modes are
    /// produced (the split behavior, tile, is not modelled).
    mutating func showColumn(_ split: ControllerID, _ column: SplitState.Column, hiding: Bool) throws(Refusal) {
        guard let s = state.c(split).split else { return }
        let method = hiding ? "hide(_:)" : "show(_:)"
        try requireColumnSplits(method)
        guard s.style.isColumnStyle else {
            throw .input(
                .invalid(
                    "\(method) applies to column-style split view controllers; \(name(split)) is classic (style unspecified), which does not respond to it (R90, R121).",
                    field: "column"))
        }
        if column == .supplementary && s.style != .tripleColumn {
            throw .input(.invalid("\(name(split)) is doubleColumn: it has no supplementary column (R121).", field: "column"))
        }
        if hiding && column == .secondary {
            throw .input(.invalid("hide(_:) does not support the secondary column (R121).", field: "column"))
        }
        if column == .inspector && !profile.hasInspectorColumn {
            throw .input(
                .invalid(
                    "The inspector column exists from iOS 26 on; this session reproduces iOS \(state.options.iOS.rawValue) (options.iOS, R125).",
                    field: "column"))
        }
        if s.isCollapsed { return }
        if column == .inspector {
            // R125: the inspector shows beside the secondary whatever the display mode; without a
            // controller for it there is nothing to show.
            guard s.inspector != nil, s.isShowingInspector == hiding else { return }
            if s.hasDelegate {
                var e = Event(split, hiding ? .splitViewControllerWillHide : .splitViewControllerWillShow)
                e.column = .inspector
                emit(e)
            }
            let before = state.settledViewsInWindow
            self[changing: split].splitState?.isShowingInspector = !hiding
            enqueue(
                TransitionPlan(
                    operation: hiding ? .hideColumn : .showColumn, from: nil, to: nil, animated: true, order: .navigation,
                    before: before))
            return
        }
        let triple = s.style == .tripleColumn
        let current = s.currentDisplayMode
        let target: SplitState.DisplayMode =
            switch (hiding, column) {
            case (false, .primary): triple ? .twoBesideSecondary : .oneBesideSecondary
            case (false, .supplementary): s.isShowing(.supplementary) ? current : .oneBesideSecondary
            case (false, .secondary), (false, .inspector): current
            case (true, .primary): triple ? (s.isShowing(.supplementary) ? .oneBesideSecondary : current) : .secondaryOnly
            case (true, _): .secondaryOnly
            }
        if target == current { return }
        var next = s
        next.displayMode = target
        let changed = SplitState.Column.allCases.filter { s.isShowing($0) != next.isShowing($0) }
        if s.hasDelegate {
            for c in changed {
                var e = Event(split, hiding ? .splitViewControllerWillHide : .splitViewControllerWillShow)
                e.column = c
                emit(e)
            }
        }
        let before = state.settledViewsInWindow
        self[changing: split].splitState?.displayMode = target
        enqueue(
            TransitionPlan(
                operation: hiding ? .hideColumn : .showColumn, from: nil, to: nil, animated: true, order: .navigation,
                before: before))
    }

    /// R172: the column-style API is iOS 14's. A session reproducing an earlier release refuses it
    /// as the other release-gated APIs are (422 naming options.iOS), nothing changed.
    func requireColumnSplits(_ api: String, field: String? = nil) throws(Refusal) {
        guard !profile.hasColumnSplits else { return }
        throw .input(
            .invalid(
                "\(api) exists from iOS 14 on; this session reproduces iOS \(state.options.iOS.rawValue) (options.iOS, R172).",
                field: field))
    }
}

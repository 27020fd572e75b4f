/// Creating controllers from specs, and the window's root (R1, R31, R102).
extension Engine {
    /// Resolves a controller argument: nil stays nil, an id must exist, a spec is instantiated.
    mutating func resolve(_ ref: ControllerRef) throws(Refusal) -> ControllerID? {
        switch ref {
        case .none: return nil
        case .existing(let id):
            _ = try existing(id)
            return id
        case .new(let spec): return try instantiate(spec)
        }
    }

    mutating func newID(_ wanted: ControllerID?, suffixWhenTaken: Bool = false, separator: String = "~") throws(Refusal) -> ControllerID {
        if let wanted, suffixWhenTaken, state.controllers[wanted] != nil {
            // `~` is unreserved in URLs (RFC 3986 §2.3), so the id is a path segment as it is;
            // specs stored with the former `#` keep it (``ControllerSpec/suffixSeparator``).
            var n = 2
            while state.controllers["\(wanted)\(separator)\(n)"] != nil { n += 1 }
            return "\(wanted)\(separator)\(n)"
        }
        if let wanted {
            guard Names.isControllerID(wanted) else { throw .input(.invalid(Names.controllerIDRefusal(wanted), field: "id")) }
            guard state.controllers[wanted] == nil else {
                throw .input(CommandError(kind: .idTaken, message: "The id '\(wanted)' is already used in this session.", field: "id"))
            }
            return wanted
        }
        while true {
            let id = "vc\(state.nextControllerNumber)"
            state.nextControllerNumber += 1
            if state.controllers[id] == nil { return id }
        }
    }

    mutating func insert(_ c: Controller) {
        state.controllers[c.id] = c
        state.order.append(c.id)
        touched.insert(c.id)
    }

    /// R2: an existing controller used inside a new container must be free: no parent, not
    /// presented, not the root (one parent, one presenter, never both).
    func requireDetached(_ id: ControllerID) throws(Refusal) {
        let c = try existing(id)
        if c.parent != nil || c.presentation != nil || state.rootViewController == id {
            throw .input(.invalid("\(c.descriptionForMessages) is already in a hierarchy; a new container takes free controllers only.", field: "viewControllers"))
        }
    }

    /// Creates the controller a spec describes, with its container children (R102: relationship
    /// and embedded children are instantiated with it). Views are not loaded (R31).
    mutating func instantiate(_ spec: ControllerSpec) throws(Refusal) -> ControllerID {
        let id = try newID(spec.id, suffixWhenTaken: spec.appendsSuffixWhenTaken, separator: spec.suffixSeparator)
        try checkAlertActions(spec.configuration.values.actions, kind: spec.kind)
        var c = Controller(id: id, kind: spec.kind, className: spec.className)
        c.change { c in
            c.configuration = spec.configuration.applied(to: c.configuration)
            c.configuration.splitDelegate = nil  // R174: the split keeps it (below)
            c.storyboard = spec.storyboard
            c.segues = spec.segues ?? []
            c.container.alertState?.preferredStyle = spec.preferredStyle
            // UIKit: "The modalPresentationStyle of a UIAlertController with this style is
            // UIModalPresentationPopover" (the D10 action-sheet text).
            if spec.kind == .alertController && spec.preferredStyle == .actionSheet
                && !spec.configuration.sets("modalPresentationStyle")
            {
                c.configuration.modalPresentationStyle = .popover
            }
        }
        insert(c)

        func attach(_ ref: ControllerRef) throws(Refusal) -> ControllerID? {
            if case .existing(let e) = ref { try requireDetached(e) }
            guard let child = try resolve(ref) else { return nil }
            self[changing: child].parent = id
            self[changing: id].children.append(child)
            return child
        }

        switch spec.kind {
        case .navigationController:
            for ref in spec.viewControllers ?? [] {
                if let child = try attach(ref) {
                    if state.c(child).kind == .navigationController { throw .uikit(.pushNavigationController()) }
                    self[changing: id].navigationStack?.viewControllers.append(child)
                }
            }
        case .tabBarController:
            for ref in spec.viewControllers ?? [] {
                if let child = try attach(ref) { self[changing: id].tabState?.viewControllers.append(child) }
            }
            var more = Controller(id: try newID("\(id).more"), kind: .navigationController)
            more.navigationStack?.isMoreNavigationController = true
            more.parent = id
            // R165: UIKit's moreNavigationController is a navigation controller whose root is the
            // More list (a UIMoreListController, a UIViewController subclass); a tab under More is
            // pushed above it.
            var list = Controller(id: try newID("\(id).more.list"), kind: .viewController, className: "UIMoreListController")
            list.parent = more.id
            more.navigationStack?.viewControllers = [list.id]
            more.children = [list.id]
            insert(more)
            insert(list)
            self[changing: id].tabState?.moreNavigationController = more.id
            let tabs = state.c(id).viewControllers
            if !tabs.isEmpty {
                let index = spec.selectedIndex ?? 0
                guard tabs.indices.contains(index) else {
                    throw .input(.invalid("selectedIndex \(index) is out of range (0..<\(tabs.count)).", field: "selectedIndex"))
                }
                selectTab(id, tabs[index])
            }
        case .splitViewController:
            if let style = spec.splitStyle, style.isColumnStyle {
                try requireColumnSplits("A column-style split view controller (style \(style.rawValue))", field: "style")
            }
            if spec.configuration.values.displayModeButtonVisibility != nil {
                try requireColumnSplits("displayModeButtonVisibility", field: "displayModeButtonVisibility")
            }
            var split = SplitState(
                style: spec.splitStyle ?? .unspecified, primary: nil, supplementary: nil,
                secondary: nil, collapseSecondaryOntoPrimary: spec.collapseSecondaryOntoPrimary,
                isCollapsed: false)
            split.hasDelegate = spec.hasSplitDelegate ?? false
            split.delegateShows = spec.splitDelegateShow
            split.delegateShowsDetail = spec.splitDelegateShowDetail
            if let list = spec.viewControllers {
                // R90: a classic split may be configured through `viewControllers` ([primary,
                // secondary]); a column-style one only column by column.
                guard !split.style.isColumnStyle else {
                    throw .input(
                        .invalid(
                            "A column-style split view controller is configured with primary, supplementary and secondary, not viewControllers (R90).", field: "viewControllers"))
                }
                guard (1...2).contains(list.count), spec.primary == nil, spec.secondary == nil else {
                    throw .input(
                        .invalid(
                            "A classic split view controller's viewControllers is [primary] or [primary, secondary], given instead of primary/secondary.", field: "viewControllers")
                    )
                }
                split.primary = try attach(list[0])
                if list.count == 2 { split.secondary = try attach(list[1]) }
            }
            if split.style.isColumnStyle { split.topColumnForCollapsing = spec.topColumnForCollapsing }
            // R174: the spec's `splitDelegate` property (specs stored before it give the fields above).
            if spec.configuration.sets("splitDelegate") { split.setDelegate(spec.configuration.values.splitDelegate) }
            if split.style.isColumnStyle {
                for (column, ref) in [
                    (SplitState.Column.primary, spec.primary), (.supplementary, spec.supplementary),
                    (.secondary, spec.secondary), (.inspector, spec.inspector),
                ] {
                    guard let ref else { continue }
                    if column == .inspector && !profile.hasInspectorColumn {
                        throw .input(
                            .invalid(
                                "The inspector column exists from iOS 26 on; this session reproduces iOS \(state.options.iOS.rawValue) (options.iOS, R125).",
                                field: "inspector"))
                    }
                    if column == .supplementary && split.style == .doubleColumn {
                        // R90, R173: the supplementary column exists only in tripleColumn style; UIKit
                        // ignores the controller, so it is created but joins no hierarchy, and the
                        // reply says so.
                        if let ignored = try resolve(ref) {
                            journal[journal.current].result.warnings.append(.supplementaryColumnIgnored(split: name(id), name(ignored)))
                        }
                        continue
                    }
                    if case .existing(let e) = ref { try requireDetached(e) }
                    guard let content = try resolve(ref) else { continue }
                    let navigation = try attachColumn(content, split: id, column: column)
                    switch column {
                    case .primary: split.primary = content; split.primaryNavigation = navigation
                    case .supplementary: split.supplementary = content; split.supplementaryNavigation = navigation
                    case .secondary: split.secondary = content; split.secondaryNavigation = navigation
                    case .inspector: split.inspector = content; split.inspectorNavigation = navigation
                    }
                }
                // R123: the compact column's controller is the split's child as it is, shown only
                // while collapsed.
                if let r = spec.compact { split.compact = try attach(r) }
            } else {
                if spec.compact != nil || spec.inspector != nil {
                    let field = spec.compact != nil ? "compact" : "inspector"
                    throw .input(
                        .invalid(
                            "The \(field) column belongs to column-style split view controllers (style doubleColumn or tripleColumn, R123, R125).",
                            field: field))
                }
                if let r = spec.primary { split.primary = try attach(r) }
                if let r = spec.supplementary { split.supplementary = try attach(r) }
                if let r = spec.secondary { split.secondary = try attach(r) }
            }
            // R91: not collapsed yet. A split has no compact environment until it is in a window;
            // it collapses when it enters one (`adaptSplitsInWindow`).
            self[changing: id].splitState = split
        case .pageViewController:
            self[changing: id].pageContainer?.settings = PageState(
                transitionStyle: spec.pageTransitionStyle ?? .scroll,
                spineLocation: spec.spineLocation,
                isDoubleSided: spec.isDoubleSided ?? false)
            for ref in spec.viewControllers ?? [] {
                if let child = try attach(ref) { self[changing: id].pageContainer?.viewControllers.append(child) }
            }
        default:
            break
        }
        // Custom containers and storyboard embeds: children whose views are in the container's view.
        for ref in (spec.children ?? []) + (spec.embedded ?? []) {
            if let child = try attach(ref) { self[changing: child].viewAddedToParent = true }
        }
        return id
    }

    /// R90: a column of a column-style split is a navigation controller. A navigation controller
    /// given for the column is the split's child itself; any other controller is wrapped in one the
    /// split creates, `<split id>.<column>` (as the tab bar's `<id>.more`), whose root it becomes.
    /// Returns the column's navigation controller.
    mutating func attachColumn(_ content: ControllerID, split: ControllerID, column: SplitState.Column) throws(Refusal) -> ControllerID {
        let navigation: ControllerID
        if state.c(content).kind == .navigationController {
            navigation = content
        } else {
            navigation = try newID("\(split).\(column.rawValue)")
            var wrapper = Controller(id: navigation, kind: .navigationController)
            wrapper.children = [content]
            wrapper.navigationStack?.viewControllers = [content]
            insert(wrapper)
            // Listed before its content, as if created first (replies list controllers in creation order).
            state.order.removeLast()
            state.order.insert(navigation, at: state.order.firstIndex(of: content) ?? state.order.count)
            self[changing: content].parent = navigation
        }
        self[changing: navigation].parent = split
        self[changing: split].children.append(navigation)
        return navigation
    }

    /// R1: `window.rootViewController = vc`. The new root loads and appears; the old one (and
    /// anything it presented) leaves the window.
    mutating func setRoot(_ ref: ControllerRef, animated: Bool) throws(Refusal) {
        if case .existing(let e) = ref { try requireDetached(e) }
        let before = state.settledViewsInWindow
        let new = try resolve(ref)
        let old = state.rootViewController
        if new == old { return }
        var removed: [ControllerID] = []
        if let old {
            // [INF] rootReplacePolicy: the old root's presentations are torn down with it.
            var chain: [ControllerID] = []
            for id in state.order where state.controllers[id]?.presentation != nil && state.isInWindowTree(id, root: old) {
                chain.append(id)
            }
            removed = chain
        }
        for id in removed {
            touched.insert(id)
            state.controllers[id]?.presentation?.state = .dismissing
        }
        state.rootViewController = new
        enqueue(
            TransitionPlan(
                operation: .setRoot, from: old, to: new, animated: animated, order: .navigation, before: before,
                effects: removed.isEmpty ? [] : [.removePresentations(removed)]))
    }
}

extension SessionState {
    /// Is `id` shown under `root`, through containment or presentations?
    func isInWindowTree(_ id: ControllerID, root: ControllerID) -> Bool {
        var current: ControllerID? = id
        var hops = 0
        while let x = current, hops < 10_000 {
            hops += 1
            let top = outermost(x)
            if top == root { return true }
            current = controllers[top]?.presentation?.presenting
        }
        return false
    }
}

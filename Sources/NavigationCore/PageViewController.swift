/// UIPageViewController: `setViewControllers(_:direction:animated:completion:)` (R94, R95).
extension Engine {
    /// R94/R95. `direction` only picks the animation's side, which navsim does not draw.
    mutating func setPages(_ page: ControllerID, _ refs: [ControllerRef], direction: PageDirection?, animated: Bool) throws(Refusal) {
        var ids: [ControllerID] = []
        for ref in refs {
            guard let id = try resolve(ref) else { throw .input(.invalid("viewControllers cannot contain null.", field: "viewControllers")) }
            ids.append(id)
        }
        let config = state.c(page).page ?? PageState(transitionStyle: .scroll, spineLocation: nil, isDoubleSided: false)
        // R94
        if ids.count != config.requiredPageCount {
            throw .uikit(.pageCountMismatch(provided: ids.count, required: config.requiredPageCount))
        }
        let before = state.settledViewsInWindow
        let old = state.c(page).viewControllers
        let removed = old.filter { !ids.contains($0) }
        let added = ids.filter { !old.contains($0) }
        for id in added { try validateNewChild(id, of: page, field: "viewControllers", operation: .setViewControllers) }
        // R2: children added with addChild that are not pages stay children.
        let custom = state.c(page).children.filter { !old.contains($0) && !ids.contains($0) }
        for id in added {
            detachFromParent(id)
            emit(.move(id, .willMoveToParent, parent: page))
            self[changing: id].parent = page
        }
        for id in removed { emit(.move(id, .willMoveToParent, parent: nil)) }
        self[changing: page].pageContainer?.viewControllers = ids
        self[changing: page].children = ids + removed + custom
        let order: AppearanceOrder = config.transitionStyle == .scroll ? .pageScroll : .tab
        enqueue(
            TransitionPlan(
                operation: .setViewControllers, from: old.first, to: ids.first, animated: animated, order: order,
                before: before,
                postFinish: removed.map { .move($0, .didMoveToParent, parent: nil) }
                    + added.map { .move($0, .didMoveToParent, parent: page) } + [Event(page, .completion)],
                effects: [.detach(removed)]))
    }
}

/// A `UIPageViewControllerDataSource` as a client declares it (R130): its pages in order, so
/// `pageViewController(_:viewControllerBefore:)` answers the page before a page in `pages` and
/// `(_:viewControllerAfter:)` the one after it, nil at either end or for a page not listed (the
/// usual implementation over an array).
public struct PageDataSource: Sendable, Codable, Equatable {
    public var pages: [ControllerID]
    public init(pages: [ControllerID]) { self.pages = pages }

    func page(before id: ControllerID) -> ControllerID? {
        guard let i = pages.firstIndex(of: id), i > 0 else { return nil }
        return pages[i - 1]
    }
    func page(after id: ControllerID) -> ControllerID? {
        guard let i = pages.firstIndex(of: id), i + 1 < pages.count else { return nil }
        return pages[i + 1]
    }
}

/// A `UIPageViewControllerDelegate` (R130, R131): told `willTransitionTo` and `didFinishAnimating`
/// around each page turn a user makes, never around `setViewControllers`.
public struct PageDelegate: Sendable, Codable, Equatable {
    public init() {}
}

/// A user's page turn: R130 (the data source and the delegate), R131 (the order when given up).
extension Engine {
    mutating func turnPage(_ page: ControllerID, direction: PageDirection, completes: Bool) throws(Refusal) {
        let p = try existing(page)
        guard p.kind == .pageViewController else {
            throw .input(.wrongReceiver("turnPage needs a page view controller; \(p.descriptionForMessages) is not one."))
        }
        let current = p.viewControllers
        // R130: without a data source UIKit disables gesture navigation; nothing can turn either
        // while the pages are off screen or still changing. R160: nor while a presentation covers them.
        guard let source = p.pageDataSource, let first = current.first, let last = current.last,
            p.viewInWindow, !current.contains(where: { isTransitioning(page: $0) }), current.contains(where: { !state.isCoveredByPresentation($0) })
        else { return }
        let settings = p.page ?? PageState(transitionStyle: .scroll, spineLocation: nil, isDoubleSided: false)
        // R130: one page, or two (a mid spine or double-sided pages, R94), each asked of the data
        // source from the page beside it; a nil answer is the end of the book: nothing turns.
        var incoming: [ControllerID] = []
        var anchor = direction == .forward ? last : first
        for _ in 0..<settings.requiredPageCount {
            guard let next = direction == .forward ? source.page(after: anchor) : source.page(before: anchor) else { return }
            incoming.append(next)
            anchor = next
        }
        if direction == .reverse { incoming.reverse() }
        for id in incoming {
            guard state.controllers[id] != nil else {
                throw .input(.invalid("pageDataSource answers \(id), which is not a controller of this session.", field: "pageDataSource"))
            }
            try validateNewChild(id, of: page, field: "pageDataSource", operation: .setViewControllers)
        }
        let delegate = p.pageDelegate != nil
        let before = state.settledViewsInWindow
        let children = p.children
        if delegate {
            var e = Event(page, .pageViewControllerWillTransitionTo)
            e.viewControllers = incoming
            emit(e)
        }
        // The pending pages are the page view controller's children while the turn runs: their
        // views are in its view (R2) [INF: the order of this willMove and the delegate call].
        for id in incoming {
            detachFromParent(id)
            emit(.move(id, .willMoveToParent, parent: page))
            self[changing: id].parent = page
        }
        // R2: a pending page the page view controller held as an ordinary child is listed once.
        let others = children.filter { !incoming.contains($0) }
        self[changing: page].pageContainer?.viewControllers = incoming
        self[changing: page].children = incoming + others
        var finished = Event(page, .pageViewControllerDidFinishAnimating)
        finished.viewControllers = current
        finished.completed = completes
        enqueue(
            TransitionPlan(
                operation: .turnPage, from: first, to: incoming.first, animated: true,
                order: settings.transitionStyle == .scroll ? .pageScroll : .tab, before: before))
        // Interactive: the turn starts and ends within the request (as R83's swipe back does).
        guard var item = takeGestureTransition() else { return }
        start(&item.running, in: item.entry)
        if completes {
            finish(&item.running, in: item.entry)
            for id in current {
                emit(.move(id, .willMoveToParent, parent: nil))
                detachFromParent(id)
                emit(.move(id, .didMoveToParent, parent: nil))
            }
            for id in incoming { emit(.move(id, .didMoveToParent, parent: page)) }
        } else {
            // R131: the pages go back, then the window follows them in the style's order; the
            // pending pages leave the page view controller.
            self[changing: page].pageContainer?.viewControllers = current
            self[changing: page].children = others
            for id in incoming { self[changing: id].parent = nil }
            cancel(&item.running, in: item.entry, order: settings.transitionStyle == .scroll ? .pageScroll : .pageCurl)
            for id in incoming {
                emit(.move(id, .willMoveToParent, parent: nil))
                emit(.move(id, .didMoveToParent, parent: nil))
            }
        }
        if delegate { emit(finished) }
        if item.running.isReported { journal[item.entry].result.transition = item.running.record }
    }

    /// Is a page among the controllers a running or queued transition moves?
    private func isTransitioning(page id: ControllerID) -> Bool {
        state.transitions.contains { $0.appearing.contains(id) || $0.disappearing.contains(id) }
            || pending.contains { $0.running.record.fromViewController == id || $0.running.record.toViewController == id }
    }
}

extension Engine {
    /// R130, R132, R124, R103: a property ``KindProperties/all`` gives to some kinds only, set by
    /// a PATCH on a controller of another kind, is refused (specs are checked by the service
    /// against the same table).
    func checkContainerProperties(_ patch: ControllerPatch, kind: ControllerKind) throws(Refusal) {
        // A patch holds a null as the property's default, so a default value is let through
        // here; the service refuses any value but null before the core sees it.
        let given = patch.fields.lazy.filter { name in
            guard !KindProperties.declares(kind, name), let field = ControllerConfiguration.field(named: name) else { return false }
            var value = ControllerConfiguration()
            field.copy(&value, patch.values)
            return value != ControllerConfiguration()
        }
        if let (name, row) = KindProperties.firstLacked(given, by: kind) {
            throw .input(.invalid(row.refusal(name, on: kind), field: name))
        }
    }
}

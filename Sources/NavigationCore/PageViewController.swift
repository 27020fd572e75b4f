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

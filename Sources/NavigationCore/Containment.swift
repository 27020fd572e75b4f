/// Custom containers: `addChild` (R69), `removeFromParent` (R70), view insertion (R71),
/// `transition(from:to:…)` (R72), `isMovingToParent`/`isMovingFromParent` (R73).
extension Engine {
    /// The UIKit calls that give a controller a new parent, spelled as UIKit's methods are (the
    /// API's `push` is `pushViewController`, `showDetail` is `showDetailViewController`), for the refusals of ``validateNewChild``.
    /// Not ``TransitionOperation``: `addChild` starts no transition.
    enum NewParentCall: String {
        case addChild, pushViewController, setViewControllers, show, showDetailViewController
    }

    /// R2: a controller joins a container only if every relationship stays whole. It cannot be the
    /// container or one of the container's ancestors (a parent cycle), nor a presented controller
    /// or the window's root; each is refused as bad input, field `field`. Every path that gives a
    /// controller a new parent asks this first; `operation` is the UIKit call its refusal names.
    func validateNewChild(_ child: ControllerID, of container: ControllerID, field: String, operation: NewParentCall) throws(Refusal) {
        if child == container || state.isWithin(container, child) {
            throw .input(.invalid("\(name(child)) cannot become a child of itself or of its own descendant.", field: field))
        }
        // Nor may it be above the container through a presentation: the controller that presents
        // the container (or what contains it), or one of that presenter's ancestors. Parent and
        // presentation links together would then loop.
        var hops = 0
        var current: ControllerID? = state.c(state.outermost(container)).presentation?.presenting
        while let above = current, hops <= state.controllers.count {
            hops += 1
            if above == child || state.isWithin(above, child) {
                throw .input(.invalid("\(name(child)) cannot become a child of \(name(container)), which it presents.", field: field))
            }
            current = state.c(state.outermost(above)).presentation?.presenting
        }
        // R2 [INF]: UIKit documents no exception for these (D5's "present modally an active
        // controller" is `present`'s, R11) and leaves the hierarchy inconsistent; navsim refuses
        // them in its own words. Searched: UIViewController.hierarchyInconsistencyException covers
        // a child whose view sits under another controller's view, not a presented one.
        if state.c(child).presentation != nil {
            throw .input(
                .invalid(
                    "\(name(child)) is presented; \(operation.rawValue) cannot also make it a child of \(name(container)). Dismiss it first (a controller is never both presented and a child).",
                    field: field))
        }
        if state.rootViewController == child {
            throw .input(.invalid("\(name(child)) is the window's rootViewController; \(operation.rawValue) cannot also make it a child of \(name(container)).", field: field))
        }
        // R88 [INF]: the More navigation controller belongs to its tab bar, which shows it under
        // the More item; UIKit documents no way to move it, so navsim refuses it as bad input.
        if state.c(child).isMoreNavigationController {
            throw .input(.invalid("\(name(child)) is a tab bar's More navigation controller; it cannot join another container.", field: field))
        }
        // R165 [INF]: nor may its More list, the root the tab bar controller keeps on that stack.
        if state.isMoreList(child) {
            throw .input(.invalid("\(name(child)) is a tab bar's More list, the root of its More navigation controller; it cannot join another container.", field: field))
        }
    }

    /// R69: `willMove(toParent:)` is called for you; `didMove` is not.
    mutating func addChild(_ parent: ControllerID, _ ref: ControllerRef) throws(Refusal) {
        _ = try existing(parent)
        guard let child = try resolve(ref) else { throw .input(.invalid("addChild needs a viewController.", field: "viewController")) }
        try validateNewChild(child, of: parent, field: "viewController", operation: .addChild)
        detachFromParent(child)
        emit(.move(child, .willMoveToParent, parent: parent))
        self[changing: parent].children.append(child)
        self[changing: child].parent = parent
        self[changing: child].isMovingToParent = true
        for e in adaptSplitsInWindow() { emit(e) }  // R91: a split added under the window collapses there
    }

    /// R70: `didMove(toParent: nil)` is called for you; `willMove` is not.
    mutating func removeFromParent(_ child: ControllerID) throws(Refusal) {
        let c = try existing(child)
        guard c.parent != nil else { return }
        // R165 [INF]: the More list stays the root of its More navigation controller, which the
        // tab bar controller manages.
        if state.isMoreList(child) {
            throw .input(
                .wrongReceiver("\(name(child)) is a tab bar's More list, the root of the More navigation controller its tab bar controller manages; it cannot be removed from it."))
        }
        let before = state.settledViewsInWindow
        detachFromParent(child)
        emit(.move(child, .didMoveToParent, parent: nil))
        enqueue(TransitionPlan(operation: .removeFromParent, from: child, to: nil, animated: false, order: .navigation, before: before))
    }

    /// R71: the child's view goes into the parent's view; it appears if the parent is on screen.
    mutating func addSubview(_ parent: ControllerID, _ child: ControllerID, animated: Bool) throws(Refusal) {
        _ = try existing(parent)
        let c = try existing(child)
        guard c.parent == parent else {
            throw .input(.invalid("\(name(child)) is not a child of \(name(parent)); call addChild first.", field: "viewController"))
        }
        guard !c.viewAddedToParent else { return }
        let before = state.settledViewsInWindow
        self[changing: child].viewAddedToParent = true
        if joinStartingTransition(parent: parent, before: before) { return }
        if !state.settledViewsInWindow.contains(child) && !state.c(child).isViewLoaded && state.c(parent).isViewLoaded {
            // Inserting a view needs it loaded even off screen (R31).
            loadView(child, in: journal.current)
        }
        enqueue(TransitionPlan(operation: .addSubview, from: nil, to: child, animated: false, order: .navigation, before: before))
    }

    /// R71 with R31/R37: `addSubview` inside the `viewDidLoad` of a parent that a transition is
    /// bringing on screen (the transition has started and not yet sent its `viewWillAppear`s).
    /// Reading `child.view` loads it at once, and the child then appears with its parent, its
    /// appearance forwarded by the container: the newly settled controllers load here, in window
    /// order, and join that transition's appearing side (``StartingTransition``) instead of
    /// queueing a transition of their own. False when no such transition holds the parent.
    private mutating func joinStartingTransition(parent: ControllerID, before: [ControllerID]) -> Bool {
        guard let f = starting.lastIndex(where: { $0.appearing.contains(parent) }) else { return false }
        let beforeSet = Set(before)
        let joining = state.settledViewsInWindow.filter {
            !beforeSet.contains($0) && !isOnScreen($0) && !starting[f].appearing.contains($0)
        }
        guard !joining.isEmpty else { return false }
        starting[f].appearing.formUnion(joining)
        starting[f].joined += joining
        starting[f].postFinish += adaptSplitsInWindow()  // R91/R92, as enqueue(_:) does
        for id in joining where !state.c(id).isViewLoaded { loadView(id, in: journal.current) }
        return true
    }

    mutating func removeFromSuperview(_ child: ControllerID, animated: Bool) throws(Refusal) {
        let c = try existing(child)
        guard c.viewAddedToParent else { return }
        let before = state.settledViewsInWindow
        self[changing: child].viewAddedToParent = false
        enqueue(TransitionPlan(operation: .removeFromSuperview, from: child, to: nil, animated: false, order: .navigation, before: before))
    }

    /// R72: both controllers must be children of the receiver.
    mutating func transitionChild(_ parent: ControllerID, from: ControllerID, to: ControllerID, animated: Bool) throws(Refusal) {
        _ = try existing(parent)
        let f = try existing(from), t = try existing(to)
        guard f.parent == parent, t.parent == parent else {
            throw .uikit(
                .invalidChildTransition(
                    "Children view controllers \(name(from)) and \(name(to)) must have a common parent view controller \(name(parent)) when calling -[UIViewController transitionFromViewController:toViewController:duration:options:animations:completion:]"
                ))
        }
        // R72, R37: UIViewController.h says the method "will fail with an
        // NSInvalidArgumentException … if the receiver explicitly forwards its appearance" to its
        // children. UIKit's text for that case is unverified, so this one is navsim's.
        if !state.c(parent).forwardsAppearance {
            throw .uikit(
                .invalidChildTransition(
                    "\(name(parent)) returns false from shouldAutomaticallyForwardAppearanceMethods; -[UIViewController transitionFromViewController:toViewController:duration:options:animations:completion:] needs a receiver that forwards appearance to its children automatically. Swap the children's views and call beginAppearanceTransition/endAppearanceTransition instead."
                ))
        }
        let before = state.settledViewsInWindow
        self[changing: from].viewAddedToParent = false
        self[changing: to].viewAddedToParent = true
        enqueue(
            TransitionPlan(
                operation: .transitionChild, from: from, to: to, animated: animated, order: .navigation, before: before,
                postFinish: [Event(parent, .completion)], isAlwaysReported: true))
    }
}

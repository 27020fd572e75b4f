/// The adaptive delegate's replacement controller (R48, R150, R151):
/// `presentationController(_:viewControllerForAdaptivePresentationStyle:)` returns a navigation
/// controller around the presented controller, which UIKit shows while the presentation is
/// adapted, and the presented controller is shown again when the traits no longer adapt it.
extension Engine {
    /// R150: the presentation of `v` has just adapted to `style`; when its delegate returns a
    /// replacement, a new navigation controller takes `v` as its root and the presentation record
    /// (the presenter's `presentedViewController`). Returns the replacement and the calls made, or
    /// nil when the delegate returns nothing (UIKit then shows `v` itself).
    mutating func replaceAdapted(_ v: ControllerID, style: PresentationStyle) -> (ControllerID, [Event])? {
        let c = state.c(v)
        guard c.presentationDelegate?.viewControllerForAdaptivePresentationStyle == .navigationController,
            c.kind != .alertController, var record = c.presentation,
            let w = try? newID("\(v).adaptive", suffixWhenTaken: true)
        else { return nil }
        insert(Controller(id: w, kind: .navigationController))
        self[changing: w].navigationStack?.viewControllers = [v]
        self[changing: w].children = [v]
        self[changing: v].parent = w
        record.adaptiveOriginal = v
        self[changing: w].presentation = record
        self[changing: v].presentation = nil
        self[changing: record.presenting].presentedID = w
        if c.isBeingPresented {
            self[changing: v].isBeingPresented = false
            self[changing: w].isBeingPresented = true
        }
        var ask = Event(v, .viewControllerForAdaptivePresentationStyle)
        ask.style = style
        // `UINavigationController(rootViewController:)` adds its root as a child.
        return (w, [ask, .move(v, .willMoveToParent, parent: w), .move(v, .didMoveToParent, parent: w)])
    }

    /// R151: the traits no longer adapt the presentation `w` shows in place of its original, so
    /// the original is presented again and leaves the navigation controller; `w` leaves the
    /// window. Returns the original and its containment calls, or nil when `w` replaces nothing.
    mutating func restoreOriginal(_ w: ControllerID) -> (ControllerID, [Event])? {
        guard var record = state.c(w).presentation, let v = record.adaptiveOriginal, state.controllers[v] != nil else {
            return nil
        }
        record.adaptiveOriginal = nil
        self[changing: v].presentation = record
        self[changing: w].presentation = nil
        self[changing: record.presenting].presentedID = v
        self[changing: w].children.removeAll { $0 == v }
        self[changing: w].navigationStack?.viewControllers.removeAll { $0 == v }
        self[changing: v].parent = nil
        return (v, [.move(v, .willMoveToParent, parent: nil), .move(v, .didMoveToParent, parent: nil)])
    }
}

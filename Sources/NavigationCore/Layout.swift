/// Layout callbacks: `viewWillLayoutSubviews` and `viewDidLayoutSubviews` (docs/uikit-behaviours.md
/// R114–R117).
///
/// UIKit lays a view out when it has been added to the window: the superview sets its frame, then
/// its own `layoutSubviews` runs between the controller's `viewWillLayoutSubviews` and
/// `viewDidLayoutSubviews` (UIViewController documentation of both). `viewIsAppearing(_:)` is
/// documented as coming once the view is in the hierarchy and laid out by its superview, so the
/// controller's own pass follows it; on the iOS 12 profile, which has no `viewIsAppearing`, the pass
/// follows `viewWillAppear`. Every pass ends before the transition's `viewDidAppear` calls.
///
/// Where the passes are: in ``Engine/start(_:in:)``, after each appearing controller whose view was
/// not in the window (so parents before their children, the order of `appearing`), and in
/// ``Engine/cancel(_:in:)`` for each controller whose view comes back into the window (R114, R115);
/// in ``Engine/changeTraits(ofWindow:_:)`` for every view in the window when its size changes.
/// A view that stays in the window gets none: the presenter beneath a sheet, the top controller of a
/// cancelled interactive pop (R116).
///
/// The session option `layoutCallbacks` (R117) decides whether the passes are recorded: when it is
/// off, ``layoutPass(_:in:)`` records nothing, so replies, history entries and stored bytes are those
/// of sessions without it and the cost of a turn does not change. Options are fixed when a session
/// is created, so every replay of its history agrees with what was answered.
extension Engine {
    /// R114: one layout pass of `id`'s view, recorded in `entry` when the session reports them.
    mutating func layoutPass(_ id: ControllerID, in entry: Journal.Index) {
        guard state.options.layoutCallbacks else { return }
        emit(Event(id, .viewWillLayoutSubviews), in: entry)
        emit(Event(id, .viewDidLayoutSubviews), in: entry)
    }

    /// R114, R37: of `ids`, those in `manual` (whose appearance a non-forwarding container leaves
    /// to its code) whose views are outside the window now. Layout belongs to the view, not to
    /// appearance forwarding: they are laid out as they enter, though nothing tells them they
    /// appear. Empty when the session does not report layout.
    func enteringWindow(_ ids: [ControllerID], _ manual: Set<ControllerID>) -> [ControllerID] {
        guard state.options.layoutCallbacks, !manual.isEmpty else { return [] }
        return ids.filter { manual.contains($0) && state.controllers[$0]?.viewInWindow == false }
    }

    /// R114: a superview lays out before its subviews, so the children of `parent` among `waiting`
    /// get their passes right after its own, and leave `waiting`.
    mutating func layOutChildren(of parent: ControllerID, from waiting: inout [ControllerID], in entry: Journal.Index) {
        guard !waiting.isEmpty else { return }
        for child in waiting where state.isWithin(child, parent) { layoutPass(child, in: entry) }
        waiting.removeAll { state.isWithin($0, parent) }
    }
}

/// A tap outside a popover (R54, R152–R154): where it lands, and whether `passthroughViews` lets it
/// through instead of dismissing the popover.
extension Engine {
    /// R154: `tappedView` names a controller whose view is on screen outside the popover that
    /// `popover` (the receiver's outermost controller) is. Anything else is bad input: nothing
    /// changes.
    func checkTapOutsidePopover(_ popover: ControllerID, _ tapped: ControllerID) throws(Refusal) {
        let t = try existing(tapped)
        guard let record = state.c(popover).presentation, record.style == .popover else {
            let how = state.c(popover).presentation.map { "is presented as \($0.style.rawValue)" } ?? "is not presented"
            throw .input(
                .invalid(
                    "tappedView is a tap outside a popover, and \(state.c(popover).descriptionForMessages) \(how); a swipe down on a sheet names no view.",
                    field: "tappedView"))
        }
        guard state.isViewInWindow(tapped) else {
            throw .input(.invalid("\(t.descriptionForMessages)'s view is not in the window: a tap lands on what is on screen.", field: "tappedView"))
        }
        if state.isWithin(tapped, popover) {
            throw .input(.invalid("\(t.descriptionForMessages) is inside the popover: the tap is not outside it.", field: "tappedView"))
        }
    }

    /// R152: the tap reaches a passthrough view, or a view inside one (a child controller's view
    /// is a subview of its parent's), so the popover stays and no delegate is asked. UIKit's
    /// hit test finds the passthrough view before the popover's dimming view whatever
    /// `isModalInPresentation` says.
    func passesThrough(_ tapped: ControllerID, popover: ControllerID) -> Bool {
        guard let views = state.c(popover).popoverPresentationController?.passthroughViews, !views.isEmpty else {
            return false
        }
        return state.ancestors(tapped).contains(where: views.contains)
    }
}

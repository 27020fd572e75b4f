/// The order of a cancelled interactive transition's appearance callbacks: `standard` is R38's
/// (R60 and R83 follow it); a page turn given up has its own, one per transition style (R131).
enum CancelOrder {
    case standard, pageScroll, pageCurl
}

extension Engine {
    /// The callbacks of a cancelled transition once the structure is back: `returning` appear
    /// again (`viewIsAppearing` and a layout pass only for those that had disappeared), `leaving`
    /// disappear, `stillLeaving` (what it was hiding) finish disappearing, in `order`.
    /// `manualBack`, views a non-forwarding container's children bring back, are laid out after
    /// the returning ones (R114).
    mutating func cancelCallbacks(
        returning: [ControllerID], manualBack: [ControllerID], leaving: [ControllerID], stillLeaving: [ControllerID], animated: Bool,
        in entry: Journal.Index, order: CancelOrder
    ) {
        func returningWills() {
            for id in returning {
                let fresh = state.c(id).appearance == .disappeared
                self[changing: id].appearance = .appearing
                self[changing: id].viewInWindow = true
                emit(Event(id, .viewWillAppear, animated: animated), in: entry)
                if fresh { catchUpTraits(id, in: entry) }  // R166
                if fresh && profile.emitsViewIsAppearing { emit(Event(id, .viewIsAppearing, animated: animated), in: entry) }
                updatePropertiesOnAppearance(id, in: entry)
                if fresh { layoutPass(id, in: entry) }
            }
            for id in manualBack { layoutPass(id, in: entry) }
        }
        func leavingWills() {
            for id in leaving {
                self[changing: id].appearance = .disappearing
                emit(Event(id, .viewWillDisappear, animated: animated), in: entry)
            }
        }
        func leavingDids() {
            for id in leaving + stillLeaving {
                self[changing: id].appearance = .disappeared
                self[changing: id].viewInWindow = false
                emit(Event(id, .viewDidDisappear, animated: animated), in: entry)
            }
        }
        func returningDids() {
            for id in returning {
                self[changing: id].appearance = .appeared
                emit(Event(id, .viewDidAppear, animated: animated), in: entry)
            }
        }
        switch order {
        case .standard: returningWills(); leavingWills(); leavingDids(); returningDids()
        // R131: a given-up scroll ends the page that stays before the one that leaves; a given-up
        // curl interleaves them, the leaving page's "will" first.
        case .pageScroll: returningWills(); returningDids(); leavingWills(); leavingDids()
        case .pageCurl: leavingWills(); returningWills(); leavingDids(); returningDids()
        }
    }
}

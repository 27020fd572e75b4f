/// iOS 26's `updateProperties()` (R118, R119): UIKit calls it on a view controller after its
/// traits are updated and before its layout (`viewWillLayoutSubviews`), for a view that has
/// never had it and again after `setNeedsUpdateProperties()` (UIKit's UIViewController reference;
/// docs/uikit-behaviours.md has the evidence). A view appearing gets its traits by
/// `viewIsAppearing`, so the call comes right after that one.
extension Engine {
    /// R118: the first update of a view appearing (or one invalidated while out of the window),
    /// right after `viewIsAppearing`, in the entry of the command whose transition shows it.
    mutating func updatePropertiesOnAppearance(_ id: ControllerID, in entry: Journal.Index) {
        guard profile.sendsUpdateProperties, state.controllers[id]?.propertiesUpToDate == false else { return }
        updateProperties(id, in: entry)
    }

    /// R119: `setNeedsUpdateProperties()`. Marks the receiver's properties stale; the update runs
    /// at the turn's layout pass (``updatePropertiesAtLayout()``) when its view is in the window,
    /// or when it next appears. Before iOS 26 the method does not exist: 422, nothing changes.
    mutating func setNeedsUpdateProperties(_ id: ControllerID) throws(Refusal) {
        _ = try existing(id)
        guard profile.sendsUpdateProperties else {
            throw .input(
                .invalid(
                    "setNeedsUpdateProperties() exists from iOS 26 on; this session reproduces iOS \(state.options.iOS.rawValue) (options.iOS)."
                ))
        }
        self[changing: id].propertiesUpToDate = false
        if !propertiesInvalidated.contains(where: { $0.id == id }) {
            propertiesInvalidated.append((id: id, entry: journal.current))
        }
    }

    /// R119: the turn's layout pass, after its transitions started: each controller invalidated
    /// this turn whose view is in the window and that has not been updated since (an appearance
    /// this turn already did it) gets one `updateProperties`, however often it was asked for.
    mutating func updatePropertiesAtLayout() {
        guard !propertiesInvalidated.isEmpty else { return }
        let asked = propertiesInvalidated
        propertiesInvalidated = []
        guard callbacks.failure == nil else { return }
        // The pass runs once every operation of the turn has run and its transitions started: its
        // calls belong to the last operation that was applied, after that one's events, whichever
        // operation asked (a refused one reports nothing).
        let ran = journal.entries.indices.last { if case .applied = journal[$0].verdict { true } else { false } }
        for (id, entry) in asked {
            guard let c = state.controllers[id], c.viewInWindow, !c.propertiesUpToDate else { continue }
            updateProperties(id, in: ran ?? entry)
        }
    }

    private mutating func updateProperties(_ id: ControllerID, in entry: Journal.Index) {
        self[changing: id].propertiesUpToDate = true
        emit(Event(id, .updateProperties), in: entry)
    }
}

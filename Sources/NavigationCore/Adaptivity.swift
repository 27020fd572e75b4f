/// Which style a presentation really uses: `automatic` resolution (R18), size-class adaptation
/// (R19) and the adaptive delegate's answer (R47), and re-adaptation on trait changes (R52).
extension Profile {
    /// R18: the style `automatic` stands for, by kind. Alerts use their own presentation (§3 edge).
    func resolveAutomatic(_ style: PresentationStyle, kind: ControllerKind) -> PresentationStyle {
        guard style == .automatic else { return style }
        if kind == .alertController { return .overFullScreen }
        return automaticStyle
    }

    /// R19 and R47: the effective style for `requested` under `traits`, given the delegate's answers.
    func adapt(
        _ requested: PresentationStyle, kind: ControllerKind, traits: Traits,
        delegate: PresentationDelegate?
    ) -> PresentationStyle {
        let style = resolveAutomatic(requested, kind: kind)
        let compactWidth = traits.horizontalSizeClass == .compact
        let compactHeight = traits.verticalSizeClass == .compact
        guard compactWidth || compactHeight else { return style }
        guard style == .popover || style == .pageSheet || style == .formSheet else { return style }
        // R47: the delegate may keep the style (none) or pick fullScreen/overFullScreen/formSheet.
        // Asked on every release: §19 drops only the sheet-dismissal delegate methods before iOS 13.
        if let answer = delegate?.adaptivePresentationStyle {
            switch answer {
            case .none: return style
            case .fullScreen, .overFullScreen, .formSheet: return answer
            default: break
            }
        }
        if style == .popover {
            // §19: iOS ≤ 12 shows a popover full screen in compact width, a form sheet in compact height.
            if release == .iOS12 { return compactWidth ? .fullScreen : .formSheet }
            return .formSheet
        }
        // iOS ≤ 12: sheets on iPhone are full screen.
        if release == .iOS12 && compactWidth { return .fullScreen }
        return style
    }

    /// R24: does the presenter's view leave the window once the presentation completes?
    /// R61: `custom` keeps it (the default presentation controller), so the presenter gets no
    /// appearance callbacks.
    func removesPresenterView(_ style: PresentationStyle, traits: Traits) -> Bool {
        switch style {
        case .fullScreen, .currentContext: return true
        case .pageSheet, .formSheet:
            return traits.verticalSizeClass == .compact && compactHeightSheetRemovesPresenter
        default: return false
        }
    }
}

extension Engine {
    /// R52: a trait change re-runs adaptivity for every presentation and collapses or expands
    /// split view controllers (R91, R92). A change of the window's size or size classes also
    /// sends the size and trait transition callbacks down the hierarchy (R106, R107).
    mutating func setTraits(_ traits: Traits) {
        changeTraits(ofWindow: true) { $0.traits = traits }
    }

    /// R52/R74: applies a change of the window's traits or of a controller's overrides, then
    /// re-adapts the presentations whose presenter's size classes changed and collapses or expands
    /// the splits whose width changed. Runs as one (non-animated) `traitChange` transition.
    /// In a session whose window has a size (R106–R108): `willTransition(to:with:)` where the
    /// size classes change, then `viewWillTransition(to:with:)`, then the trait-change
    /// notifications, each phase walking the hierarchy from the window's root
    /// (``SessionState/traitTransitionOrder``).
    mutating func changeTraits(ofWindow: Bool = false, _ change: (inout SessionState) -> Void) {
        let before = state.settledViewsInWindow
        let old = Dictionary(uniqueKeysWithValues: state.order.map { ($0, state.traitCollection($0)) })
        let oldWindow = state.traits
        let reached = state.traitTransitionOrder
        change(&state)
        // A session that never gave a size describes no window geometry, only size classes: it
        // keeps the replies it always had (R52, R91, R92 alone), which docs/api.md promises.
        var readapted = Set<ControllerID>()
        guard oldWindow.size != nil || state.traits.size != nil else {
            for id in state.order { _ = readapt(id, old: old, done: &readapted) }
            enqueue(TransitionPlan(operation: .traitChange, from: nil, to: nil, animated: false, order: .navigation, before: before))
            return
        }
        let windowClassesChanged = ofWindow && !Self.sameSizeClasses(oldWindow, state.traits)
        // R107: the window's root first, each container forwarding to the children it shows and
        // each presentation controller re-adapting (R52) before it forwards to its presented one.
        var postFinish: [Event] = []
        for id in reached {
            _ = readapt(id, old: old, done: &readapted)
            guard windowClassesChanged, let was = old[id] else { continue }
            let now = state.traitCollection(id)
            guard !Self.sameSizeClasses(was, now) else { continue }
            var e = Event(id, .willTransitionToTraitCollection)
            e.traitCollection = now
            emit(e)
            // R91/R92: a split collapses or expands in its own willTransition(to:with:), before
            // it forwards the change to its children.
            if state.controllers[id]?.kind == .splitViewController { postFinish += adaptSplit(id) }
        }
        for id in state.order { _ = readapt(id, old: old, done: &readapted) }
        // R106: a new size (a rotation swaps width and height) or new size classes, which a
        // window only gets with a new size.
        let resized = ofWindow && (windowClassesChanged || oldWindow.size != state.traits.size)
        if resized {
            for id in reached where state.controllers[id] != nil {
                var e = Event(id, .viewWillTransitionToSize)
                e.size = state.sizeIfKnown(id)
                emit(e)
            }
        }
        // The other splits whose width changed (an override's change) collapse or expand when
        // the transition is queued (`enqueue` runs `adaptSplitsInWindow`).
        var plan = TransitionPlan(operation: .traitChange, from: nil, to: nil, animated: false, order: .navigation, before: before)
        plan.postFinish = postFinish
        enqueue(plan)
        // R108: the notification of the controllers whose trait collection changed, in the same
        // order: `traitCollectionDidChange(_:)`, and from iOS 17 the registered handlers.
        for id in reached {
            // R166: a controller that missed an earlier change off screen compares with what it saw.
            guard let was = state.controllers[id]?.traitsLastSeen ?? old[id] else { continue }
            if state.controllers[id]?.traitsLastSeen != nil { self[changing: id].traitsLastSeen = nil }
            notifyTraitChange(id, from: was, in: journal.current)
        }
        // R166: a loaded view out of the window hears nothing now; it keeps the traits it last saw,
        // and is told when its view is back in the window (``catchUpTraits(_:in:)``).
        let told = Set(reached)
        for id in state.order where !told.contains(id) {
            guard let c = state.controllers[id], c.isViewLoaded, c.traitsLastSeen == nil, let was = old[id],
                !state.traitCollection(id).changedTraits(from: was).isEmpty
            else { continue }
            self[changing: id].traitsLastSeen = was
        }
        // R114: the window's new bounds are laid out down the hierarchy once the traits are
        // updated (UIKit updates traits just before layout), parent before child: each view in the
        // window that the size transition reached, including those whose size navsim does not know.
        if resized && state.options.layoutCallbacks {
            for id in reached where state.controllers[id]?.viewInWindow == true { layoutPass(id, in: journal.current) }
        }
    }

    /// R108: `traitCollectionDidChange(_:)` with the previous collection `was`, then from iOS 17
    /// the handler of the registered traits that changed; nothing when no trait changed.
    mutating func notifyTraitChange(_ id: ControllerID, from was: Traits, in entry: Journal.Index) {
        guard let c = state.controllers[id] else { return }
        let changed = state.traitCollection(id).changedTraits(from: was)
        guard !changed.isEmpty else { return }
        var e = Event(id, .traitCollectionDidChange)
        e.traitCollection = was
        emit(e, in: entry)
        let registered = changed.filter(c.configuration.registersForTraitChanges.contains)
        if profile.hasTraitChangeRegistrations && !registered.isEmpty {
            var h = Event(id, .traitChangeHandler)
            h.traitCollection = was
            h.changedTraits = registered
            emit(h, in: entry)
        }
    }

    /// R166: a view back in the window gets its traits updated as it is added (after
    /// `viewWillAppear`, before `viewIsAppearing`, whose documentation says the traits are
    /// updated by then): a controller that missed a change off screen is told now, against the
    /// collection it last saw, if that differs from its current one.
    mutating func catchUpTraits(_ id: ControllerID, in entry: Journal.Index) {
        guard let was = state.controllers[id]?.traitsLastSeen else { return }
        self[changing: id].traitsLastSeen = nil
        notifyTraitChange(id, from: was, in: entry)
    }

    /// R52: re-adapts the presentation of `id` when its presenter's size classes changed, with
    /// the adaptive delegate's `willPresentWithAdaptiveStyle`. True when `id` is presented.
    /// `done` holds the controllers whose presentation this change already re-adapted, the
    /// replacement and its original both once one took the other's place (R150, R151).
    private mutating func readapt(_ id: ControllerID, old: [ControllerID: Traits], done: inout Set<ControllerID>) -> Bool {
        guard !done.contains(id), let record = state.controllers[id]?.presentation, record.state != .dismissing else { return false }
        done.insert(id)
        // R150: the delegate and the kind are those of the controller `present` named.
        let original = record.adaptiveOriginal ?? id
        let c = state.c(original)
        guard
            record.requestedStyle == .popover || record.requestedStyle == .pageSheet
                || record.requestedStyle == .formSheet || record.requestedStyle == .automatic
        else { return true }
        let presenterTraits = state.traitCollection(record.presenting)  // R74
        guard let was = old[record.presenting], !Self.sameSizeClasses(was, presenterTraits) else { return true }
        let delegate = state.presentationControllerDelegate(original)
        let adapted = profile.adapt(record.requestedStyle, kind: c.kind, traits: presenterTraits, delegate: delegate)
        self[changing: id].presentation?.style = adapted
        // R150/R151: entering an adapted style asks for the replacement; leaving it gives the
        // original back. Not while the presentation still animates (its transition names `id`).
        if record.state == .presented {
            let resolved = profile.resolveAutomatic(record.requestedStyle, kind: c.kind)
            var swap: (ControllerID, [Event])?
            if record.adaptiveOriginal == nil {
                if adapted != resolved { swap = replaceAdapted(id, style: adapted) }
            } else if adapted == resolved {
                swap = restoreOriginal(id)
            }
            if let (now, calls) = swap {
                done.insert(now)
                for call in calls { emit(call) }
            }
        }
        if let delegate, profile.hasSheetGestures {
            var e = Event(original, .willPresentWithAdaptiveStyle)
            let compact = presenterTraits.horizontalSizeClass == .compact || presenterTraits.verticalSizeClass == .compact
            e.style = compact ? (delegate.adaptivePresentationStyle ?? adapted) : PresentationStyle.none
            emit(e)
        }
        return true
    }

    /// R91/R92: every split in the window (through containment or presentations) takes the
    /// width it has there (R74): compact and expanded collapses, regular and collapsed expands.
    /// A detached split has no environment and keeps its state: one created by
    /// `POST …/controllers` on an iPhone keeps `[primary, secondary]` until it enters a window
    /// (set as root, presented, pushed, added as a child). Runs whenever a transition is queued
    /// and after `addChild`, before the views in the window are compared, so the split appears
    /// already collapsed. Returns the calls made once the change is on screen
    /// (`splitViewControllerDidCollapse`/`DidExpand`, column style).
    mutating func adaptSplitsInWindow() -> [Event] {
        guard let root = state.rootViewController else { return [] }
        var postFinish: [Event] = []
        for id in state.splitViewControllers where state.isInWindowTree(id, root: root) {
            postFinish += adaptSplit(id)
        }
        return postFinish
    }

    /// R91/R92 for one split in the window: collapses or expands it to the width it has (R74).
    mutating func adaptSplit(_ id: ControllerID) -> [Event] {
        guard let collapsed = state.c(id).split?.isCollapsed else { return [] }
        let width = state.traitCollection(id).horizontalSizeClass  // R74
        if width == .compact && !collapsed { return collapse(id) }
        if width == .regular && collapsed { return expand(id) }
        return []
    }

    static func sameSizeClasses(_ a: Traits, _ b: Traits) -> Bool {
        a.horizontalSizeClass == b.horizontalSizeClass && a.verticalSizeClass == b.verticalSizeClass
    }
}

/// R19's inputs when a client names only the device: the window's size classes by idiom, as a
/// full-screen window of that device has them (§0 window trait environment; docs/api.md's default
/// is phone/compact/regular). An iPad window is regular in both; an iPhone in portrait is
/// compact wide and regular tall.
extension Traits {
    /// The traits of a full-screen window on `idiom`.
    public static func defaults(for idiom: Idiom) -> Traits {
        switch idiom {
        case .phone: Traits(userInterfaceIdiom: .phone, horizontalSizeClass: .compact, verticalSizeClass: .regular)
        case .pad: Traits(userInterfaceIdiom: .pad, horizontalSizeClass: .regular, verticalSizeClass: .regular)
        }
    }
}

/// `UISheetPresentationController` (iOS 15; custom detents iOS 16): the heights a sheet rests
/// at, which of them the user drags it to, and what stays interactive below it (R110–R113).

/// What client code sets on a controller's `sheetPresentationController` before presenting it
/// (R110). UIKit's defaults: detents `[.large()]`, nothing selected (the smallest detent),
/// every detent dimmed, no grabber, scrolling expands the sheet, no delegate.
public struct SheetSettings: Sendable, Codable, Equatable {
    /// `UISheetPresentationController.Detent`: a system detent (`medium`, `large`) or a custom
    /// one (`custom(identifier:resolver:)`, whose resolver's answer is `height`, in points).
    public struct Detent: Sendable, Codable, Equatable {
        public var identifier: String
        /// Custom detents only; nil for the system ones.
        public var height: Double?
        public init(identifier: String, height: Double? = nil) {
            self.identifier = identifier
            self.height = height
        }
        public static let medium = Detent(identifier: "medium")
        public static let large = Detent(identifier: "large")
        /// The identifiers of UIKit's system detents (`Detent.Identifier.medium`, `.large`).
        public static let systemIdentifiers: Set<String> = ["medium", "large"]
    }

    /// Smallest first: Apple's documentation of `detents` asks for that order, so the first is
    /// the smallest and an index compares heights.
    public var detents: [Detent] = [.large]
    public var selectedDetentIdentifier: String?
    public var largestUndimmedDetentIdentifier: String?
    public var prefersGrabberVisible: Bool = false
    public var prefersScrollingExpandsWhenScrolledToEdge: Bool = true
    /// A `UISheetPresentationControllerDelegate` is set: it is told when the user changes the
    /// selected detent (R111).
    public var hasDelegate: Bool = false

    public init(
        detents: [Detent] = [.large], selectedDetentIdentifier: String? = nil, largestUndimmedDetentIdentifier: String? = nil,
        prefersGrabberVisible: Bool = false, prefersScrollingExpandsWhenScrolledToEdge: Bool = true, hasDelegate: Bool = false
    ) {
        self.detents = detents
        self.selectedDetentIdentifier = selectedDetentIdentifier
        self.largestUndimmedDetentIdentifier = largestUndimmedDetentIdentifier
        self.prefersGrabberVisible = prefersGrabberVisible
        self.prefersScrollingExpandsWhenScrolledToEdge = prefersScrollingExpandsWhenScrolledToEdge
        self.hasDelegate = hasDelegate
    }

    /// R110: the detent the sheet rests at: the selected one, or the smallest when nothing is
    /// selected or the selected identifier names no detent.
    public var restingDetent: String {
        if let s = selectedDetentIdentifier, detents.contains(where: { $0.identifier == s }) { return s }
        return detents.first?.identifier ?? Detent.large.identifier
    }

    /// R112: does the sheet add its dimming view at the detent it rests at? Only detents larger
    /// than `largestUndimmedDetentIdentifier` dim; nil (or an identifier that names no detent)
    /// dims at every detent.
    public var dimsAtRestingDetent: Bool {
        guard let u = largestUndimmedDetentIdentifier, let undimmed = detents.firstIndex(where: { $0.identifier == u }),
            let resting = detents.firstIndex(where: { $0.identifier == restingDetent })
        else { return true }
        return resting > undimmed
    }

    /// R113: why UIKit cannot take these settings, or nil: an empty list, an identifier given
    /// twice, a system detent with a height, a custom one without a positive height.
    public var invalidity: String? {
        if detents.isEmpty { return "detents must contain at least one detent." }
        var seen: Set<String> = []
        for d in detents {
            if !seen.insert(d.identifier).inserted { return "detents lists \(d.identifier) more than once." }
            if Detent.systemIdentifiers.contains(d.identifier) {
                if d.height != nil { return "\(d.identifier) is a system detent: it takes no height." }
            } else if let h = d.height {
                if !(h > 0) || !h.isFinite { return "the height of \(d.identifier) must be a positive number of points." }
            } else {
                return "\(d.identifier) is a custom detent: it needs a height in points."
            }
        }
        // Apple's documentation of `detents`: "specify detents in order from smallest to largest
        // height". Only orders navsim can tell are refused: `large` (full height, which a custom
        // resolver's value cannot exceed) anywhere but last, and custom heights going down; where a
        // custom detent stands beside `medium` depends on the window's height.
        let order = "detents go from smallest to largest height, as Apple's documentation asks"
        func points(_ h: Double) -> String { h == h.rounded() && h < 1e15 ? String(Int(h)) : String(h) }
        var previousHeight: Double?
        for (i, d) in detents.enumerated() {
            if d.identifier == Detent.large.identifier, i != detents.count - 1 {
                return "\(order): large is the largest and comes last, not before \(detents[i + 1].identifier)."
            }
            guard let h = d.height else { continue }
            if let p = previousHeight, h < p {
                return "\(order): \(d.identifier) (\(points(h)) points) comes after a taller detent (\(points(p)) points)."
            }
            previousHeight = h
        }
        return nil
    }
}

extension SessionState {
    /// R111, R49: the delegate of `v`'s presentation controller, or nil. A page or form sheet's
    /// `sheetPresentationController` is its `presentationController`, and
    /// `UISheetPresentationControllerDelegate` inherits `UIAdaptivePresentationControllerDelegate`
    /// (Apple's documentation of both): setting either property sets the one delegate, which then
    /// hears both the dismissal calls and the detent changes. `sheetPresentationController` is nil
    /// for other styles and before iOS 15, so `hasDelegate` then sets nothing.
    public func presentationControllerDelegate(_ v: ControllerID) -> PresentationDelegate? {
        guard let c = controllers[v] else { return nil }
        if let d = c.presentationDelegate { return d }
        guard c.sheetPresentationController?.hasDelegate == true, options.profile.hasSheetPresentationController else { return nil }
        let style = options.profile.resolveAutomatic(c.presentation?.requestedStyle ?? c.modalPresentationStyle, kind: c.kind)
        return style == .pageSheet || style == .formSheet ? PresentationDelegate() : nil
    }

    func hasPresentationControllerDelegate(_ v: ControllerID) -> Bool { presentationControllerDelegate(v) != nil }

    /// R110, R112: is `v` presented as a sheet that UIKit sizes by its detents? A page or form
    /// sheet (its `sheetPresentationController` is nil for every other style) on a release with
    /// `UISheetPresentationController`, edge-attached: the presenter's width compact and height
    /// regular, as on an iPhone in portrait (in regular width the sheet is a centred form, and
    /// `medium` is inactive in compact height).
    func sizesByDetents(_ v: ControllerID) -> Bool {
        guard let record = controllers[v]?.presentation, record.style == .pageSheet || record.style == .formSheet,
            options.profile.hasSheetPresentationController
        else { return false }
        let traits = traitCollection(record.presenting)
        return traits.horizontalSizeClass == .compact && traits.verticalSizeClass == .regular
    }

    /// R112: the controllers whose views are in the window below a presented sheet and take
    /// touches because no dimming view covers them: walking down from the top presentation,
    /// each presented sheet that rests at an undimmed detent leaves the level that presented it
    /// reachable. Empty when no such sheet is up (a Session's `window.undimmedViews`).
    public var undimmedViews: [ControllerID] { undimmedViews(window: viewsInWindow) }

    /// ``undimmedViews`` given ``viewsInWindow`` already computed.
    public func undimmedViews(window: [ControllerID]) -> [ControllerID] {
        // Cheap test first: replies of sessions without such a sheet pay one pass over the window.
        guard window.contains(where: { controllers[$0]?.sheetPresentationController?.largestUndimmedDetentIdentifier != nil })
        else { return [] }
        // Presented levels in the window, each with the level that presented it.
        var presenterLevel: [ControllerID: ControllerID] = [:]
        for id in window {
            guard let record = controllers[id]?.presentation, record.state == .presented else { continue }
            presenterLevel[id] = outermost(record.presenting)
        }
        let presenters = Set(presenterLevel.values)
        // A top level is a presented one that presents nothing in the window (context
        // presentations in two split columns make two), taken in window order.
        var reachable: Set<ControllerID> = []
        for top in window where presenterLevel[top] != nil && !presenters.contains(top) {
            var level = top
            while let below = presenterLevel[level], sizesByDetents(level),
                let sheet = controllers[level]?.sheetPresentationController, !sheet.dimsAtRestingDetent
            {
                reachable.insert(below)
                level = below
            }
        }
        return window.filter { reachable.contains(outermost($0)) }
    }
}

extension Engine {
    /// R111: a user drags the top sheet to the detent `detent`. The selected detent changes and
    /// the sheet's delegate is told; no view appears or disappears (the sheet stays presented).
    ///
    /// A drag is a gesture on a sheet: where there is no sheet sized by detents to drag (another
    /// style, regular width, iOS 12, still animating, covered), UIKit has nothing to move and
    /// nothing happens, whatever `detent` says. Only on a draggable sheet is a detent it does not
    /// have an error: the client asked for a height the sheet cannot rest at.
    mutating func dragSheet(_ r: ControllerID, to detent: String) throws(Refusal) {
        let v = state.outermost(r)
        guard let record = state.c(v).presentation, record.state == .presented, !isTransitioning(v), state.sizesByDetents(v)
        else { return }
        if let w = state.c(v).presentedID, state.controllers[w] != nil { return }
        let sheet = state.c(v).sheetPresentationController ?? SheetSettings()
        guard sheet.detents.contains(where: { $0.identifier == detent }) else {
            let known = sheet.detents.map(\.identifier).joined(separator: ", ")
            throw .input(.invalid("\(detent) is not one of the sheet's detents (\(known)).", field: "detent"))
        }
        guard sheet.restingDetent != detent else { return }
        var changed = sheet
        changed.selectedDetentIdentifier = detent
        self[changing: v].sheetPresentationController = changed
        if state.hasPresentationControllerDelegate(v) { emit(Event(v, .sheetPresentationControllerDidChangeSelectedDetentIdentifier)) }
    }
}

import NavigationCore
import SessionStorage

/// The one place the persistence format meets the domain: for each stored type of
/// `StoredFormat.swift`, `init(_:)` (domain → stored) and `domain()` (stored → domain). A member
/// older rows lack gets its domain default here, so the core needs no storage-only optionals.
/// `domain()` throws ``StoredFormatError/unknownValue(type:value:)`` for a raw value the core
/// has no case for.

/// The case of `T` whose raw value is `raw`.
func storedValue<T: RawRepresentable>(_ raw: String) throws -> T where T.RawValue == String {
    guard let v = T(rawValue: raw) else { throw StoredFormatError.unknownValue(type: "\(T.self)", value: raw) }
    return v
}

func storedValue<T: RawRepresentable>(_ raw: String?) throws -> T? where T.RawValue == String {
    try raw.map { try storedValue($0) }
}

/// For values inside stored commands and specs: releases before the core's enums passed an
/// unknown string through where it meant nothing (a `direction` sent to a navigation controller,
/// a storyboard's `spineLocation`), so replaying such a row reads it as not given.
func lenientValue<T: RawRepresentable>(_ raw: String?) -> T? where T.RawValue == String {
    raw.flatMap(T.init(rawValue:))
}

// MARK: - The session shell

extension StoredSessionState {
    /// `state` as stored; `withControllers: false` for the session row (controllers have rows).
    init(_ s: SessionState, withControllers: Bool) {
        self.init(
            traits: StoredTraits(s.traits), options: StoredOptions(s.options), rootViewController: s.rootViewController,
            controllers: withControllers ? s.controllers.mapValues(StoredController.init) : [:],
            order: s.order, transitions: s.transitions.map(StoredRunningTransition.init),
            nextControllerNumber: s.nextControllerNumber, nextTransitionNumber: s.nextTransitionNumber)
    }

    func domain() throws -> SessionState {
        var s = SessionState(traits: try traits.domain(), options: try options.domain())
        s.rootViewController = rootViewController
        s.controllers = try controllers.mapValues { try $0.domain() }
        s.order = order
        s.transitions = try transitions.map { try $0.domain() }
        s.nextControllerNumber = nextControllerNumber
        s.nextTransitionNumber = nextTransitionNumber
        return s
    }
}

extension StoredTraits {
    init(_ t: Traits) {
        self.init(
            userInterfaceIdiom: t.userInterfaceIdiom.rawValue, horizontalSizeClass: t.horizontalSizeClass.rawValue,
            verticalSizeClass: t.verticalSizeClass.rawValue, size: t.size.map { StoredSize(width: $0.width, height: $0.height) })
    }
    func domain() throws -> Traits {
        Traits(
            userInterfaceIdiom: try storedValue(userInterfaceIdiom), horizontalSizeClass: try storedValue(horizontalSizeClass),
            verticalSizeClass: try storedValue(verticalSizeClass), size: size.map { Traits.Size(width: $0.width, height: $0.height) })
    }
}

extension StoredOptions {
    init(_ o: Options) {
        self.init(
            iOS: o.iOS.rawValue, transitions: o.transitions.rawValue, navTransitionPolicy: o.navTransitionPolicy.rawValue,
            release: o.release == .manual ? nil : o.release.rawValue, layoutCallbacks: o.layoutCallbacks ? true : nil)
    }
    func domain() throws -> Options {
        Options(
            iOS: try storedValue(iOS), transitions: try storedValue(transitions),
            navTransitionPolicy: try storedValue(navTransitionPolicy) ?? .queue, release: try storedValue(release) ?? .manual,
            layoutCallbacks: layoutCallbacks ?? false)
    }
}

// MARK: - Controllers

extension StoredController {
    /// The container's fields under the flat names every row has. One `switch` over the container,
    /// not the read accessors one by one: Swift 6.3.1's optimizer (CopyPropagation) crashes on the
    /// latter in a release build ("Found ownership error").
    init(_ c: Controller) {
        var viewControllers: [ControllerID] = []
        var selected: ControllerID?
        var more: ControllerID?
        var isMore = false
        var split: StoredSplit?
        var page: StoredPage?
        var preferredStyle: String?
        switch c.container {
        case .plain: break
        case .navigation(let stack):
            viewControllers = stack.viewControllers
            isMore = stack.isMoreNavigationController
        case .tabs(let tabs):
            viewControllers = tabs.viewControllers
            selected = tabs.selectedViewController
            more = tabs.moreNavigationController
        case .split(let s): split = StoredSplit(s)
        case .pages(let pages):
            viewControllers = pages.viewControllers
            page = StoredPage(pages.settings)
        case .alert(let alert): preferredStyle = alert.preferredStyle?.rawValue
        }
        self.init(
            properties: Properties(
                id: c.id, kind: c.kind.rawValue, className: c.className, parent: c.parent, children: c.children,
                storyboard: c.storyboard.map(StoredStoryboardOrigin.init), isViewLoaded: c.isViewLoaded,
                appearance: c.appearance.rawValue, viewInWindow: c.viewInWindow, isBeingPresented: c.isBeingPresented,
                isBeingDismissed: c.isBeingDismissed, isMovingToParent: c.isMovingToParent,
                isMovingFromParent: c.isMovingFromParent, presentation: c.presentation.map(StoredPresentation.init),
                presentedID: c.presentedID, viewControllers: viewControllers, selectedViewController: selected,
                moreNavigationController: more, split: split, page: page, preferredStyle: preferredStyle,
                viewAddedToParent: c.viewAddedToParent, isMoreNavigationController: isMore,
                segues: c.segues.map(StoredSegue.init), heldByClient: c.isHeldByClient ? true : nil,
                manualAppearanceAnimated: c.manualAppearanceAnimated ? true : nil,
                propertiesUpToDate: c.propertiesUpToDate ? true : nil, traitsLastSeen: c.traitsLastSeen.map(StoredTraits.init)),
            configuration: StoredConfiguration(values: c.configuration, present: StoredConfiguration.everyField))
    }

    /// A property the row lacks (added after it was written) keeps the kind's default.
    func domain() throws -> Controller {
        let p = properties
        var c = Controller(id: p.id, kind: try storedValue(p.kind), className: p.className)
        c.configuration = ControllerPatch(values: configuration.values, fields: configuration.present).applied(to: c.configuration)
        c.parent = p.parent
        c.children = p.children
        c.storyboard = try p.storyboard?.domain()
        c.isViewLoaded = p.isViewLoaded
        c.appearance = try storedValue(p.appearance)
        c.viewInWindow = p.viewInWindow
        c.isBeingPresented = p.isBeingPresented
        c.isBeingDismissed = p.isBeingDismissed
        c.isMovingToParent = p.isMovingToParent
        c.isMovingFromParent = p.isMovingFromParent
        c.presentation = try p.presentation?.domain()
        c.presentedID = p.presentedID
        // The flat members the row keeps for every kind fill the kind's own container.
        switch c.container {
        case .navigation:
            c.container = .navigation(
                NavigationStack(
                    viewControllers: p.viewControllers,
                    isMoreNavigationController: p.isMoreNavigationController))
        case .tabs:
            c.container = .tabs(
                TabState(
                    viewControllers: p.viewControllers, selectedViewController: p.selectedViewController,
                    moreNavigationController: p.moreNavigationController))
        case .split:
            if let split = try p.split?.domain() { c.container = .split(split) }
        case .pages:
            var pages = PageContainer(viewControllers: p.viewControllers)
            if let page = try p.page?.domain() { pages.settings = page }
            c.container = .pages(pages)
        case .alert:
            c.container = .alert(AlertState(preferredStyle: lenientValue(p.preferredStyle)))
        case .plain:
            break
        }
        c.viewAddedToParent = p.viewAddedToParent
        c.segues = try p.segues.map { try $0.domain() }
        c.isHeldByClient = p.heldByClient ?? false
        c.manualAppearanceAnimated = p.manualAppearanceAnimated ?? false
        c.propertiesUpToDate = p.propertiesUpToDate ?? false
        c.traitsLastSeen = try p.traitsLastSeen?.domain()
        return c
    }
}

extension StoredStoryboardOrigin {
    init(_ o: StoryboardOrigin) { self.init(name: o.name, identifier: o.identifier) }
    func domain() throws -> StoryboardOrigin { StoryboardOrigin(name: name, identifier: identifier) }
}

extension StoredPresentation {
    init(_ p: Presentation) {
        self.init(
            presenting: p.presenting, source: p.source, requestedStyle: p.requestedStyle.rawValue, style: p.style.rawValue,
            transitionStyle: p.transitionStyle.rawValue, contextViewController: p.contextViewController,
            removesPresenterView: p.removesPresenterView, popover: p.popover.map(StoredPopoverAnchor.init),
            state: p.state.rawValue, adaptiveOriginal: p.adaptiveOriginal)
    }
    func domain() throws -> Presentation {
        Presentation(
            presenting: presenting, source: source, requestedStyle: try storedValue(requestedStyle), style: try storedValue(style),
            transitionStyle: try storedValue(transitionStyle), contextViewController: contextViewController,
            removesPresenterView: removesPresenterView, popover: try popover?.domain(), state: try storedValue(state),
            adaptiveOriginal: adaptiveOriginal)
    }
}

extension StoredPopoverAnchor {
    init(_ a: PopoverAnchor) { self.init(sourceView: a.sourceView, barButtonItem: a.barButtonItem, sourceRect: a.sourceRect) }
    func domain() throws -> PopoverAnchor {
        PopoverAnchor(sourceView: sourceView, barButtonItem: barButtonItem, sourceRect: sourceRect)
    }
}

extension StoredSplit {
    init(_ s: SplitState) {
        self.init(
            style: s.style.rawValue, primary: s.primary, supplementary: s.supplementary, secondary: s.secondary,
            collapseSecondaryOntoPrimary: s.collapseSecondaryOntoPrimary, isCollapsed: s.isCollapsed,
            primaryNavigation: s.primaryNavigation, supplementaryNavigation: s.supplementaryNavigation,
            secondaryNavigation: s.secondaryNavigation, topColumnForCollapsing: s.topColumnForCollapsing?.rawValue,
            collapsedSupplementary: s.collapsedSupplementary, collapsedSecondary: s.collapsedSecondary,
            hasDelegate: s.hasDelegate, displayMode: s.displayMode?.rawValue, delegateShows: s.delegateShows,
            delegateShowsDetail: s.delegateShowsDetail, compact: s.compact, inspector: s.inspector,
            inspectorNavigation: s.inspectorNavigation, isShowingInspector: s.isShowingInspector ? true : nil)
    }
    /// Splits written before the column styles have no column members: none, and no delegate.
    func domain() throws -> SplitState {
        var s = SplitState(
            style: try storedValue(style), primary: primary, supplementary: supplementary, secondary: secondary,
            collapseSecondaryOntoPrimary: collapseSecondaryOntoPrimary, isCollapsed: isCollapsed)
        s.primaryNavigation = primaryNavigation
        s.supplementaryNavigation = supplementaryNavigation
        s.secondaryNavigation = secondaryNavigation
        s.topColumnForCollapsing = try storedValue(topColumnForCollapsing)
        s.collapsedSupplementary = collapsedSupplementary ?? []
        s.collapsedSecondary = collapsedSecondary ?? []
        s.hasDelegate = hasDelegate ?? false
        s.displayMode = try storedValue(displayMode)
        s.delegateShows = delegateShows
        s.delegateShowsDetail = delegateShowsDetail
        s.compact = compact
        s.inspector = inspector
        s.inspectorNavigation = inspectorNavigation
        s.isShowingInspector = isShowingInspector ?? false
        return s
    }
}

extension StoredPage {
    init(_ p: PageState) {
        self.init(transitionStyle: p.transitionStyle.rawValue, spineLocation: p.spineLocation?.rawValue, isDoubleSided: p.isDoubleSided)
    }
    func domain() throws -> PageState {
        PageState(transitionStyle: try storedValue(transitionStyle), spineLocation: try storedValue(spineLocation), isDoubleSided: isDoubleSided)
    }
}

extension StoredSegue {
    init(_ s: SegueSpec) {
        self.init(
            id: s.id, identifier: s.identifier, kind: s.kind.rawValue, destinationScene: s.destinationScene,
            destinationStoryboard: s.destinationStoryboard, modalPresentationStyle: s.modalPresentationStyle?.rawValue,
            modalTransitionStyle: s.modalTransitionStyle?.rawValue, animates: s.animates,
            popover: s.popover.map(StoredPopoverAnchor.init), unwindAction: s.unwindAction,
            customPerforms: s.customPerforms?.rawValue, customClass: s.customClass,
            customTransitioningDelegate: s.customTransitioningDelegate.map(StoredAnimator.init),
            customSheetPresentationController: s.customSheetPresentationController)
    }
    func domain() throws -> SegueSpec {
        var spec = SegueSpec(
            id: id, identifier: identifier, kind: try storedValue(kind), destinationScene: destinationScene,
            destinationStoryboard: destinationStoryboard, modalPresentationStyle: try storedValue(modalPresentationStyle),
            modalTransitionStyle: try storedValue(modalTransitionStyle), animates: animates, popover: try popover?.domain(),
            unwindAction: unwindAction, customPerforms: try storedValue(customPerforms), customClass: customClass,
            customTransitioningDelegate: try customTransitioningDelegate?.domain())
        spec.customSheetPresentationController = customSheetPresentationController
        return spec
    }
}

extension StoredAnimator {
    init(_ a: TransitioningDelegate) { self.init(name: a.name, duration: a.duration) }
    func domain() throws -> TransitioningDelegate { TransitioningDelegate(name: name, duration: duration) }
}

// MARK: - Running transitions

extension StoredRunningTransition {
    init(_ t: RunningTransition) {
        self.init(
            record: StoredTransitionRecord(t.record), order: StoredAppearanceOrder(t.order), appearing: t.appearing,
            disappearing: t.disappearing, preStart: t.preStart.map(StoredEvent.init),
            postFinish: t.postFinish.map(StoredEvent.init), effects: t.effects.map(StoredTransitionEffect.init),
            cancelEffects: (t.cancellation?.effects ?? []).map(StoredTransitionEffect.init),
            cancelEvents: (t.cancellation?.events ?? []).map(StoredEvent.init),
            isReported: t.isReported, started: t.started, navigation: t.navigation,
            silentDidAppearWithin: t.silentDidAppearWithin, beforeAppearance: t.beforeAppearance.map(StoredEvent.init),
            before: t.before, after: t.after,
            interactionHandlers: t.interactionHandlers.isEmpty ? nil : t.interactionHandlers.map(StoredEvent.init))
    }
    func domain() throws -> RunningTransition {
        var t = RunningTransition(
            record: try record.domain(), order: try order.domain(), appearing: appearing, disappearing: disappearing,
            preStart: try preStart.map { try $0.domain() }, postFinish: try postFinish.map { try $0.domain() },
            effects: try effects.map { try $0.domain() }, cancellation: try cancellation(), isReported: isReported, started: started,
            navigation: navigation, silentDidAppearWithin: silentDidAppearWithin,
            beforeAppearance: try beforeAppearance.map { try $0.domain() }, before: before, after: after)
        t.interactionHandlers = try (interactionHandlers ?? []).map { try $0.domain() }
        return t
    }
    /// Stored as it always was: a transition that cannot be cancelled has empty `cancelEffects`.
    private func cancellation() throws -> Cancellation? {
        if cancelEffects.isEmpty { return nil }
        return Cancellation(effects: try cancelEffects.map { try $0.domain() }, events: try cancelEvents.map { try $0.domain() })
    }
}

extension StoredTransitionRecord {
    init(_ r: TransitionRecord) {
        self.init(
            id: r.id, operation: r.operation.rawValue, fromViewController: r.fromViewController, toViewController: r.toViewController,
            presentationStyle: r.presentationStyle?.rawValue, transitionStyle: r.transitionStyle?.rawValue,
            animated: r.animated, duration: r.duration, animator: r.animator, containerView: r.containerView,
            state: r.state.rawValue)
    }
    func domain() throws -> TransitionRecord {
        TransitionRecord(
            id: id, operation: try storedValue(operation), fromViewController: fromViewController, toViewController: toViewController,
            presentationStyle: try storedValue(presentationStyle), transitionStyle: try storedValue(transitionStyle),
            animated: animated, duration: duration, animator: animator, containerView: containerView,
            state: try storedValue(state))
    }
}

extension StoredAppearanceOrder {
    init(_ o: AppearanceOrder) { self.init(willsAppearFirst: o.willsAppearFirst, didsAppearFirst: o.didsAppearFirst) }
    func domain() throws -> AppearanceOrder {
        AppearanceOrder(willsAppearFirst: willsAppearFirst, didsAppearFirst: didsAppearFirst)
    }
}

extension StoredEvent {
    init(_ e: Event) {
        self.init(
            controller: e.controller, callback: e.callback.rawValue, animated: e.animated, parent: e.parent,
            hasParentArgument: e.hasParentArgument, segue: e.segue.map(StoredSegueInfo.init), action: e.action,
            style: e.style?.rawValue,
            alertAction: e.alertAction.map { StoredAlertActionTap(index: $0.index, handlerSelf: $0.handlerSelf) },
            operation: e.operation?.rawValue, isCancelled: e.isCancelled, column: e.column?.rawValue)
    }
    func domain() throws -> Event {
        var e = Event(controller, try storedValue(callback), animated: animated)
        e.parent = parent
        e.hasParentArgument = hasParentArgument
        e.segue = try segue?.domain()
        e.action = action
        e.style = try storedValue(style)
        e.alertAction = alertAction.map { AlertActionTap(index: $0.index, handlerSelf: $0.handlerSelf) }
        e.operation = try storedValue(operation)
        e.isCancelled = isCancelled
        e.column = try storedValue(column)
        return e
    }
}

extension StoredSegueInfo {
    init(_ s: Event.SegueInfo) { self.init(identifier: s.identifier, source: s.source, destination: s.destination) }
    func domain() throws -> Event.SegueInfo {
        Event.SegueInfo(identifier: identifier, source: source, destination: destination)
    }
}

extension StoredTransitionEffect {
    init(_ e: TransitionEffect) {
        switch e {
        case .settlePresentation(let v): self = .settlePresentation(v)
        case .removePresentations(let v): self = .removePresentations(v)
        case .restorePresentation(let v): self = .restorePresentation(v)
        case .endMovingToParent(let v): self = .endMovingToParent(v)
        case .detach(let v): self = .detach(v)
        case .restoreStack(let n, let s, let a): self = .restoreStack(navigation: n, stack: s, attach: a)
        }
    }
    func domain() throws -> TransitionEffect {
        switch self {
        case .settlePresentation(let v): .settlePresentation(v)
        case .removePresentations(let v): .removePresentations(v)
        case .restorePresentation(let v): .restorePresentation(v)
        case .endMovingToParent(let v): .endMovingToParent(v)
        case .detach(let v): .detach(v)
        case .restoreStack(let n, let s, let a): .restoreStack(navigation: n, stack: s, attach: a)
        }
    }
}

extension StoredControllerRef {
    init(_ r: ControllerRef) {
        switch r {
        case .none: self = .none
        case .existing(let id): self = .existing(id)
        case .new(let spec): self = .new(StoredControllerSpec(spec))
        }
    }
    func domain() throws -> ControllerRef {
        switch self {
        case .none: .none
        case .existing(let id): .existing(id)
        case .new(let spec): .new(try spec.domain())
        }
    }
}

extension StoredControllerSpec {
    init(_ s: ControllerSpec) {
        let refs = { (list: [ControllerRef]?) in list?.map(StoredControllerRef.init) }
        self.init(
            properties: Properties(
                id: s.id, kind: s.kind.rawValue, className: s.className, viewControllers: refs(s.viewControllers),
                selectedIndex: s.selectedIndex, primary: s.primary.map(StoredControllerRef.init),
                supplementary: s.supplementary.map(StoredControllerRef.init), secondary: s.secondary.map(StoredControllerRef.init),
                splitStyle: s.splitStyle?.rawValue, collapseSecondaryOntoPrimary: s.collapseSecondaryOntoPrimary,
                topColumnForCollapsing: s.topColumnForCollapsing?.rawValue, hasSplitDelegate: s.hasSplitDelegate,
                pageTransitionStyle: s.pageTransitionStyle?.rawValue, spineLocation: s.spineLocation?.rawValue,
                isDoubleSided: s.isDoubleSided, children: refs(s.children), preferredStyle: s.preferredStyle?.rawValue,
                storyboard: s.storyboard.map(StoredStoryboardOrigin.init), segues: s.segues?.map(StoredSegue.init),
                embedded: refs(s.embedded), appendsSuffixWhenTaken: s.appendsSuffixWhenTaken,
                suffixSeparator: s.appendsSuffixWhenTaken ? s.suffixSeparator : nil,
                splitDelegateShow: s.splitDelegateShow, splitDelegateShowDetail: s.splitDelegateShowDetail,
                compact: s.compact.map(StoredControllerRef.init), inspector: s.inspector.map(StoredControllerRef.init)),
            configuration: StoredConfiguration(values: s.configuration.values, present: s.configuration.fields))
    }

    func domain() throws -> ControllerSpec {
        let p = properties
        let refs = { (list: [StoredControllerRef]?) in try list?.map { try $0.domain() } }
        var s = ControllerSpec(id: p.id, kind: try storedValue(p.kind), className: p.className)
        s.configuration = StoredPatch(configuration: configuration).domain()
        s.viewControllers = try refs(p.viewControllers)
        s.selectedIndex = p.selectedIndex
        s.primary = try p.primary?.domain()
        s.supplementary = try p.supplementary?.domain()
        s.secondary = try p.secondary?.domain()
        s.splitStyle = try storedValue(p.splitStyle)
        s.collapseSecondaryOntoPrimary = p.collapseSecondaryOntoPrimary
        s.topColumnForCollapsing = try storedValue(p.topColumnForCollapsing)
        s.hasSplitDelegate = p.hasSplitDelegate
        s.pageTransitionStyle = try storedValue(p.pageTransitionStyle)
        s.spineLocation = lenientValue(p.spineLocation)
        s.isDoubleSided = p.isDoubleSided
        s.children = try refs(p.children)
        s.preferredStyle = lenientValue(p.preferredStyle)
        s.storyboard = try p.storyboard?.domain()
        s.segues = try p.segues?.map { try $0.domain() }
        s.embedded = try refs(p.embedded)
        s.appendsSuffixWhenTaken = p.appendsSuffixWhenTaken
        s.suffixSeparator = p.suffixSeparator ?? "#"
        s.splitDelegateShow = p.splitDelegateShow
        s.splitDelegateShowDetail = p.splitDelegateShowDetail
        s.compact = try p.compact?.domain()
        s.inspector = try p.inspector?.domain()
        return s
    }
}

extension StoredPatch {
    init(_ p: ControllerPatch) { self.init(configuration: StoredConfiguration(values: p.values, present: p.fields)) }
    func domain() -> ControllerPatch { ControllerPatch(values: configuration.values, fields: configuration.present) }
}

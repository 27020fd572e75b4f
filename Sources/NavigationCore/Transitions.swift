/// Transitions: queued when an operation is accepted, started at the end of the turn ("will"
/// callbacks), finished at once or by a tick ("did" callbacks, completion). §0.3, §20 note 3.

/// The order in which appearance callbacks fire for one kind of transition.
public struct AppearanceOrder: Sendable, Equatable {
    /// `viewWillAppear` of the appearing side before `viewWillDisappear` of the other (R87, R95).
    public var willsAppearFirst: Bool
    /// `viewDidAppear` before `viewDidDisappear` (R32/R34 modal, R95 scroll) or after (R77, R87).
    public var didsAppearFirst: Bool
    public init(willsAppearFirst: Bool, didsAppearFirst: Bool) {
        self.willsAppearFirst = willsAppearFirst
        self.didsAppearFirst = didsAppearFirst
    }
    /// Modal presentation and dismissal (R32, R34).
    static let modal = AppearanceOrder(willsAppearFirst: false, didsAppearFirst: true)
    /// Push, pop, setViewControllers, root replacement, child swaps (R77, R78).
    static let navigation = AppearanceOrder(willsAppearFirst: false, didsAppearFirst: false)
    /// Tab switch and page curl (R87, R95).
    static let tab = AppearanceOrder(willsAppearFirst: true, didsAppearFirst: false)
    /// Page scroll (R95).
    static let pageScroll = AppearanceOrder(willsAppearFirst: true, didsAppearFirst: true)
}

/// A structural change that happens when a transition ends (or is cancelled).
public enum TransitionEffect: Sendable, Equatable {
    /// The presentation record of `presented` settles (`isBeingPresented` turns false, R25).
    case settlePresentation(ControllerID)
    /// The records of these presented controllers go, links cleared together (R34, R42).
    case removePresentations([ControllerID])
    /// A dismissal given up: the record stays (R60).
    case restorePresentation(ControllerID)
    /// `isMovingToParent` ends (R73).
    case endMovingToParent([ControllerID])
    /// Children leave their parent (`removeFromParent` at the end of a pop, R78).
    case detach([ControllerID])
    /// A navigation stack is set back (cancelled push or pop).
    case restoreStack(navigation: ControllerID, stack: [ControllerID], attach: [ControllerID])
}

extension TransitionEffect {
    /// The controllers ``Engine/apply(_:)`` writes to directly for this effect (the engine's
    /// change tracking, ``Navigator/TurnResult/changedControllers``).
    var writes: [ControllerID] {
        switch self {
        case .settlePresentation(let v), .restorePresentation(let v): [v]
        case .removePresentations(let list), .endMovingToParent(let list): list
        case .detach: []  // detachFromParent tracks its own writes
        case .restoreStack(let navigation, _, let attach): [navigation] + attach
        }
    }
}

/// A transition that was accepted and has not finished: what remains to be called.
public struct RunningTransition: Sendable, Equatable {
    public var record: TransitionRecord
    public var order: AppearanceOrder
    public var appearing: [ControllerID]
    public var disappearing: [ControllerID]
    /// Callbacks made when the transition starts, before the appearance ones (delegate calls).
    public var preStart: [Event]
    /// Callbacks made when it ends, after the appearance ones (`didMove`, completion, delegates).
    public var postFinish: [Event]
    public var effects: [TransitionEffect]
    /// How it is given up (R38, R60, R83); nil when it cannot be cancelled.
    public var cancellation: Cancellation?
    /// Shown to the client (false for changes with nothing on screen, e.g. a push onto a hidden
    /// navigation controller).
    public var isReported: Bool
    public var started: Bool
    /// The navigation controller whose stack this transition animates (push, pop, setViewControllers):
    /// one runs at a time per navigation controller (R81).
    public var navigation: ControllerID? = nil
    /// R39: controllers within this one (a popover's content) get no `viewDidAppear` when this
    /// transition ends.
    public var silentDidAppearWithin: ControllerID? = nil
    /// Calls made once the views are loaded, before the first appearance callback (R82 `willShow`).
    public var beforeAppearance: [Event] = []
    /// The settled views before and after the change, as computed when it was accepted; the
    /// lists above are recomputed from them against what is on screen when the transition
    /// starts (another transition may still be running). Nil for a transition read back from a row
    /// written before they were recorded: then the lists are used as they are.
    public var before: [ControllerID]? = nil
    public var after: [ControllerID]? = nil
    /// R145: `notifyWhenInteractionChanges(_:)` handlers, run when an interactive transition's interaction ends.
    public var interactionHandlers: [Event] = []

    public init(
        record: TransitionRecord, order: AppearanceOrder, appearing: [ControllerID], disappearing: [ControllerID],
        preStart: [Event], postFinish: [Event], effects: [TransitionEffect], cancellation: Cancellation?,
        isReported: Bool, started: Bool, navigation: ControllerID? = nil,
        silentDidAppearWithin: ControllerID? = nil, beforeAppearance: [Event] = [],
        before: [ControllerID]? = nil, after: [ControllerID]? = nil
    ) {
        self.record = record
        self.order = order
        self.appearing = appearing
        self.disappearing = disappearing
        self.preStart = preStart
        self.postFinish = postFinish
        self.effects = effects
        self.cancellation = cancellation
        self.isReported = isReported
        self.started = started
        self.navigation = navigation
        self.silentDidAppearWithin = silentDidAppearWithin
        self.beforeAppearance = beforeAppearance
        self.before = before
        self.after = after
    }
}

/// How a cancellable transition is given up: the structure goes back (`effects`), then the
/// callbacks a cancelled transition makes after its appearance ones (`events`).
public struct Cancellation: Sendable, Equatable {
    public var effects: [TransitionEffect]
    public var events: [Event] = []
    public init(effects: [TransitionEffect], events: [Event] = []) {
        self.effects = effects
        self.events = events
    }
}

/// A transition as a rule plans it, handed to ``Engine/enqueue(_:)``: who takes part, how it
/// animates, what it calls and what it changes when it ends or is given up. The appearing and
/// disappearing sides are not part of it: they follow from `before` and the window after the
/// change (R35, R36).
struct TransitionPlan {
    var operation: TransitionOperation
    /// The transition context's from and to (R58: the resolved presenter and the presented
    /// controller, reversed on dismissal).
    var from: ControllerID?
    var to: ControllerID?
    var style: PresentationStyle? = nil
    var transitionStyle: TransitionStyle? = nil
    var animated: Bool
    /// A custom animator (R56–R62); its duration replaces the operation's default.
    var animator: TransitioningDelegate? = nil
    /// The container view's controllers, back to front; empty means `[from, to]`.
    var containerView: [ControllerID] = []
    var order: AppearanceOrder
    /// `state.settledViewsInWindow` before the rule changed anything.
    var before: [ControllerID]
    /// Calls made at the start, before the appearance ones (delegate calls, `willMove`).
    var preStart: [Event] = []
    /// Calls made at the end, after the appearance ones (`didMove`, completion, delegates).
    var postFinish: [Event] = []
    var effects: [TransitionEffect] = []
    /// How it is given up; nil when it cannot be (only presentations, dismissals, pushes and
    /// pops are interactive, R38, R60, R83).
    var cancellation: Cancellation? = nil
    /// Reported even when nothing appears or disappears (presentations, column swaps).
    var isAlwaysReported = false
    /// The navigation controller whose stack it animates (R81).
    var navigation: ControllerID? = nil
    /// R39: controllers within this one get no `viewDidAppear` when it ends.
    var silentDidAppearWithin: ControllerID? = nil
}

extension Engine {
    /// Queues the transition `plan` describes for the end of the turn and reports it as the
    /// current command's.
    mutating func enqueue(_ plan: TransitionPlan) {
        var plan = plan
        plan.postFinish += adaptSplitsInWindow()  // R91/R92: a split entering the window, or traits changed
        let (operation, from, to, animated, navigation) = (plan.operation, plan.from, plan.to, plan.animated, plan.navigation)
        let before = plan.before
        let after = state.settledViewsInWindow
        let afterSet = Set(after), beforeSet = Set(before)
        let appearing = after.filter { !beforeSet.contains($0) }
        let disappearing = before.filter { !afterSet.contains($0) }
        let reported = plan.isAlwaysReported || !appearing.isEmpty || !disappearing.isEmpty
        let id = "t\(state.nextTransitionNumber)"
        if reported { state.nextTransitionNumber += 1 }
        var postFinish = plan.postFinish
        var beforeAppearance: [Event] = []
        // R82: the navigation delegate hears of every visible top change, around its transition
        // (its view loaded by then), and of the top shown when the navigation controller first appears.
        if let navigation, reported, let top = to, top != from, state.c(navigation).navigationDelegate != nil {
            beforeAppearance.append(Event(top, .navigationControllerWillShow, animated: animated))
            postFinish.append(Event(top, .navigationControllerDidShow, animated: animated))
        }
        for nav in appearing
        where nav != navigation && state.c(nav).kind == .navigationController
            && state.c(nav).navigationDelegate != nil && !state.c(nav).isViewLoaded
        {
            guard let top = state.c(nav).viewControllers.last else { continue }
            beforeAppearance.append(Event(top, .navigationControllerWillShow, animated: animated))
            postFinish.append(Event(top, .navigationControllerDidShow, animated: animated))
        }
        let (asked, navigationAnimator) = navigationDelegateAnswers(navigation, from: from, to: to, animated: animated, reported: reported)
        plan.animator = plan.animator ?? navigationAnimator  // R140: the delegate's animator runs the push or pop
        let duration: Double = animated ? (plan.animator?.duration ?? operation.defaultDuration) : 0
        // R58: from is the resolved presenter and to the presented controller (reversed on dismissal).
        let record = TransitionRecord(
            id: id, operation: operation, fromViewController: from, toViewController: to,
            presentationStyle: plan.style, transitionStyle: plan.transitionStyle, animated: animated,
            duration: duration, animator: plan.animator?.name,
            containerView: plan.containerView.isEmpty ? [from, to].compactMap { $0 } : plan.containerView,
            state: .inProgress)
        pending.append(
            Pending(
                entry: journal.current, reportsTransition: callbacks.depth == callbacks.reportedDepth,
                running: RunningTransition(
                    record: record, order: plan.order, appearing: appearing, disappearing: disappearing,
                    preStart: plan.preStart + asked, postFinish: postFinish, effects: plan.effects, cancellation: plan.cancellation,
                    isReported: reported, started: false, navigation: navigation,
                    silentDidAppearWithin: plan.silentDidAppearWithin, beforeAppearance: beforeAppearance,
                    before: before, after: after)))
    }

    /// End of the turn: start every queued transition, finish the ones that end now (§0.3). A
    /// navigation transition whose navigation controller is still animating waits its turn (R81).
    mutating func endTurn() {
        startPending()
        orderTransitions()
        // R170: a split whose view did not load this turn (its transition waits, R81) is asked
        // all the same, in the entry that changed it.
        let unasked = splitCallsAwaitingLoad
        splitCallsAwaitingLoad = []
        for (_, entry, events) in unasked { for e in events { emit(e, in: entry) } }
    }

    /// The transition a user's gesture has just queued (R83, R130, R48), taken to run within its
    /// operation; those queued before it this turn start first, in their order, as they would at
    /// the end of the turn before a code call's: otherwise the gesture's transition would act on
    /// a window that still lacks them, and they would then start from the window of before it
    /// (docs/uikit-behaviours.md, R83).
    mutating func takeGestureTransition() -> Pending? {
        guard let item = pending.popLast() else { return nil }
        if !pending.isEmpty {
            startedBeforeGesture += 1
            startPending()
            orderTransitions()
        }
        return item
    }

    /// Starts every queued transition, finishes the ones that end now (§0.3); one whose
    /// navigation controller is still animating waits its turn (R81).
    private mutating func startPending() {
        // Lifecycle code may queue more while these start (``CallbackCode``): those start too.
        while !pending.isEmpty, callbacks.failure == nil {
            let queued = pending
            pending = []
            for item in queued {
                var running = item.running
                if let nav = running.navigation, state.transitions.contains(where: { $0.navigation == nav }) {
                    running.record.state = .queued
                    // R81: a queued transition is listed (GET …/transitions) and reported as queued even
                    // when nothing it changes was on screen when it was accepted (a presentation covers
                    // its navigation controller), so it takes an id no later transition reuses.
                    if !running.isReported {
                        running.record.id = "t\(state.nextTransitionNumber)"
                        state.nextTransitionNumber += 1
                        running.isReported = true
                    }
                    state.transitions.append(running)
                } else {
                    begin(&running, in: item.entry)
                }
                if running.isReported && item.reportsTransition { journal[item.entry].result.transition = running.record }
            }
        }
    }

    /// Running transitions first, then the queued ones in their order (GET …/transitions).
    mutating func orderTransitions() {
        state.transitions = state.transitions.filter(\.started) + state.transitions.filter { !$0.started }
    }

    /// R81: a transition that waited aims at the window as it is now: the stack may have changed
    /// again meanwhile, or the navigation controller left the window.
    private mutating func rebase(_ t: inout RunningTransition) {
        t.after = state.settledViewsInWindow
    }

    /// Controllers on screen or on their way (what a new transition takes over from). A
    /// controller no longer in the session (released) is not on screen.
    func isOnScreen(_ id: ControllerID) -> Bool {
        guard let a = state.controllers[id]?.appearance else { return false }
        return a == .appeared || a == .appearing
    }

    /// At its start a transition makes appear what belongs on screen after it and is not there,
    /// and disappear what is on screen (or appearing) and does not belong: with no other
    /// transition running this is its own before/after difference; with one running it hands
    /// over from what that one left mid-way (R36, R38).
    private func aim(_ t: inout RunningTransition) {
        // `before` and `after` are navsim's snapshots of the window, not references UIKit keeps:
        // a controller released since (a queued transition waits across turns) is skipped.
        guard let after = t.after?.filter({ state.controllers[$0] != nil }) else { return }
        let afterSet = Set(after)
        // R105: a child begun by hand before its view goes in (Apple's order for custom containers)
        // is `appearing` outside the window: it enters here, its callbacks left to its container.
        t.appearing = after.filter { !isOnScreen($0) || (!state.c($0).viewInWindow && hasManualAncestor($0)) }
        // `before` first, then the rest of the session in its order, each id once.
        let before = (t.before ?? []).filter { state.controllers[$0] != nil }
        let seen = Set(before)
        var disappearing: [ControllerID] = []
        var listed = Set<ControllerID>()
        for id in before where listed.insert(id).inserted && isOnScreen(id) && !afterSet.contains(id) {
            disappearing.append(id)
        }
        // The rest of what is on screen, found in one pass over the controllers without hashing
        // each id (a deep stack has hundreds off screen), then put in session order.
        var rest: [ControllerID] = []
        for (id, c) in state.controllers where (c.appearance == .appeared || c.appearance == .appearing) && !afterSet.contains(id) && !seen.contains(id) {
            rest.append(id)
        }
        disappearing.append(contentsOf: state.inSessionOrder(rest))
        t.disappearing = disappearing
    }

    /// Starts a transition and finishes it at once unless it animates in manual mode; its callbacks
    /// go to `entry`.
    private mutating func begin(_ running: inout RunningTransition, in entry: Journal.Index) {
        start(&running, in: entry)
        let finishesNow = state.options.transitions == .immediate || !running.record.animated || !running.isReported
        if finishesNow {
            finish(&running, in: entry)
        } else {
            running.record.state = .inProgress
            state.transitions.append(running)
        }
    }

    /// R81: once a navigation controller's transition has ended, the next one queued for it starts
    /// (its callbacks go to the command that ended the previous one).
    mutating func startQueued(navigation nav: ControllerID?) {
        guard let nav else { return }
        while !state.transitions.contains(where: { $0.navigation == nav && $0.started }),
            let index = state.transitions.firstIndex(where: { $0.navigation == nav && !$0.started })
        {
            var next = state.transitions.remove(at: index)
            rebase(&next)
            begin(&next, in: journal.current)
        }
        orderTransitions()
    }

    /// R81: is an animated transition of `nav` running or about to start this turn?
    func isNavigationTransitionRunning(_ nav: ControllerID) -> Bool {
        state.transitions.contains { $0.navigation == nav }
            || pending.contains { $0.running.navigation == nav && $0.running.record.animated && $0.running.isReported }
    }

    /// R81: a push or pop while `nav` animates. `queue` lets it through (its transition waits);
    /// `warnAndDrop` refuses it with UIKit's log (D22).
    func checkNoNestedNavigationTransition(_ nav: ControllerID, popping: Bool, settingStack: Bool = false) throws(Refusal) {
        guard profile.navTransitionPolicy == .warnAndDrop, isNavigationTransitionRunning(nav) else { return }
        throw .uikit(.nestedNavigationTransition(popping: popping, settingStack: settingStack))
    }

    /// The "will" half: view loading and `viewWill…` callbacks, recorded in `entry`.
    mutating func start(_ t: inout RunningTransition, in entry: Journal.Index) {
        let animated = t.record.animated
        aim(&t)
        coordinators.append(CoordinatorHooks(t))  // R143–R145: the coordinator of its callbacks' code
        for e in t.preStart { emit(e, in: entry) }
        // R37: what a non-forwarding container holds is left to its code; its views leave the
        // window when the transition ends (``finish(_:in:)``).
        let manualDisappearing = manuallyForwarded(t.disappearing, exempt: presentationEnds(t.record))
        if !manualDisappearing.isEmpty { t.disappearing.removeAll { manualDisappearing.contains($0) } }
        // D21 (R38): a begin-appearance call while the previous one has not ended, as when a
        // presentation starts over a push that is still animating.
        let exempt = presentationEnds(t.record)
        let manualAppearing = manuallyForwarded(t.appearing, exempt: exempt)
        for id in t.appearing + t.disappearing where !manualAppearing.contains(id) {
            let a = state.c(id).appearance
            if a == .appearing || a == .disappearing { journal[entry].result.warnings.append(.unbalancedAppearance(name(id))) }
        }
        // R71: a child whose view a loading parent adds joins this transition (Containment.swift).
        starting.append(StartingTransition(appearing: Set(t.appearing)))
        for id in t.appearing where !state.c(id).isViewLoaded { loadView(id, in: entry) }
        if let joined = starting.popLast(), !joined.joined.isEmpty {
            let window = state.settledViewsInWindow
            let rank = Dictionary(window.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            let all = t.appearing + joined.joined
            // Parent before child, as a transition planned with the child already added would list them.
            t.appearing = all.enumerated().sorted { (rank[$0.element] ?? Int.max, $0.offset) < (rank[$1.element] ?? Int.max, $1.offset) }
                .map(\.element)
            if let after = t.after { t.after = after + joined.joined.filter { !after.contains($0) } }
            t.postFinish += joined.postFinish
        }
        // R37: the views of what a non-forwarding container holds enter the window with it (or
        // as it inserts them), their appearance left to its code (R105).
        let manual = manualAppearing.union(manuallyForwarded(t.appearing, exempt: exempt))
        var manualEntering = enteringWindow(t.appearing, manual)  // R114: laid out all the same
        if !manual.isEmpty {
            t.appearing.removeAll { manual.contains($0) }
            for id in manual where state.controllers[id] != nil { self[changing: id].viewInWindow = true }
        }
        for e in t.beforeAppearance { emit(e, in: entry) }
        func wills(_ appearingSide: Bool) {
            if appearingSide {
                for id in t.appearing {
                    // R114: read before the flag is set; only a session that reports layout asks.
                    let entering = state.options.layoutCallbacks && !state.c(id).viewInWindow
                    change(id) { ($0.appearance, $0.viewInWindow) = (.appearing, true) }
                    emit(Event(id, .viewWillAppear, animated: animated), in: entry)
                    catchUpTraits(id, in: entry)  // R166
                    if state.options.profile.emitsViewIsAppearing { emit(Event(id, .viewIsAppearing, animated: animated), in: entry) }
                    updatePropertiesOnAppearance(id, in: entry)
                    if entering { layoutPass(id, in: entry) }
                    layOutChildren(of: id, from: &manualEntering, in: entry)
                }
                for child in manualEntering { layoutPass(child, in: entry) }  // inserted on screen
            } else {
                for id in t.disappearing {
                    self[changing: id].appearance = .disappearing
                    emit(Event(id, .viewWillDisappear, animated: animated), in: entry)
                }
            }
        }
        wills(t.order.willsAppearFirst)
        wills(!t.order.willsAppearFirst)
        if let hooks = coordinators.popLast() { runAlongside(hooks, &t, in: entry) }
        t.started = true
    }

    /// The "did" half: effects, `viewDid…` callbacks and completion, recorded in `entry`.
    mutating func finish(_ t: inout RunningTransition, in entry: Journal.Index) {
        let animated = t.record.animated
        interactionEnded(t, cancelled: false, in: entry)
        for effect in t.effects { apply(effect, navigation: t.navigation) }
        func dids(_ appearingSide: Bool) {
            if appearingSide {
                // A controller another transition has taken over since (R38, D21) is left to it.
                for id in t.appearing where state.controllers[id]?.appearance == .appearing {
                    self[changing: id].appearance = .appeared
                    if t.silentDidAppearWithin.map({ state.isWithin(id, $0) }) != true {
                        emit(Event(id, .viewDidAppear, animated: animated), in: entry)
                    }
                }
            } else {
                for id in t.disappearing where state.controllers[id]?.appearance == .disappearing {
                    change(id) { ($0.appearance, $0.viewInWindow) = (.disappeared, false) }
                    emit(Event(id, .viewDidDisappear, animated: animated), in: entry)
                }
            }
        }
        dids(t.order.didsAppearFirst)
        dids(!t.order.didsAppearFirst)
        // R37: the views of what a non-forwarding container holds leave with it, told nothing.
        if let before = t.before, before.contains(where: hasManualAncestor) {
            let now = Set(state.settledViewsInWindow)
            let gone = before.filter { !now.contains($0) && state.controllers[$0]?.viewInWindow == true }
            for id in manuallyForwarded(gone, exempt: presentationEnds(t.record)) { self[changing: id].viewInWindow = false }
        }
        for e in t.postFinish { emit(e, in: entry) }
        t.record.state = .completed
    }

    /// R38, R60: a cancelled interactive transition; each side gets the opposite callbacks, in
    /// `order`.
    mutating func cancel(_ t: inout RunningTransition, in entry: Journal.Index, order: CancelOrder = .standard) {
        let animated = t.record.animated
        interactionEnded(t, cancelled: true, in: entry)
        // The structure goes back first; then the window is brought to it: what belongs there and
        // is not on screen (the controllers this transition was hiding, or what changed beneath it
        // meanwhile) appears, what is on screen and does not belong leaves, and what this transition
        // was hiding and no longer belongs finishes disappearing.
        for effect in t.cancellation?.effects ?? [] { apply(effect, navigation: t.navigation) }
        let target = state.settledViewsInWindow
        let targetSet = Set(target)
        let returningAll = target.filter { !isOnScreen($0) }
        var seen = Set<ControllerID>()
        let leavingAll = (t.appearing + state.order).filter { seen.insert($0).inserted && isOnScreen($0) && !targetSet.contains($0) }
        let stillLeaving = t.disappearing.filter { state.controllers[$0]?.appearance == .disappearing && !targetSet.contains($0) }
        // R37: a non-forwarding container's children only move their views back (R105).
        let exempt = presentationEnds(t.record)
        let manualReturning = manuallyForwarded(returningAll, exempt: exempt)
        let manualLeaving = manuallyForwarded(leavingAll, exempt: exempt)
        let manualBack = enteringWindow(returningAll, manualReturning)
        for id in manualReturning { self[changing: id].viewInWindow = true }
        for id in manualLeaving { self[changing: id].viewInWindow = false }
        let returning = returningAll.filter { !manualReturning.contains($0) }
        let leaving = leavingAll.filter { !manualLeaving.contains($0) }
        for id in returning where !state.c(id).isViewLoaded { loadView(id, in: entry) }
        cancelCallbacks(
            returning: returning, manualBack: manualBack, leaving: leaving, stillLeaving: stillLeaving, animated: animated,
            in: entry, order: order)
        for e in t.cancellation?.events ?? [] { emit(e, in: entry) }
        t.record.state = .cancelled
    }

    /// R37: the controllers a presentation or dismissal covers or uncovers as its own ends (its
    /// from and to, R58), whose appearance UIKit's presentation sends whatever their parent forwards.
    func presentationEnds(_ record: TransitionRecord) -> Set<ControllerID> {
        switch record.operation {
        case .present, .dismiss, .interactiveDismiss: Set([record.fromViewController, record.toViewController].compactMap { $0 })
        default: []
        }
    }

    /// `navigation`: the navigation controller whose transition this effect ends (R81), if any.
    mutating func apply(_ effect: TransitionEffect, navigation: ControllerID? = nil) {
        touched.formUnion(effect.writes)
        switch effect {
        case .settlePresentation(let v):
            state.controllers[v]?.presentation?.state = .presented
            state.controllers[v]?.isBeingPresented = false
        case .removePresentations(let list):
            for v in list {
                if let p = state.controllers[v]?.presentation?.presenting, state.controllers[p]?.presentedID == v {
                    self[changing: p].presentedID = nil
                }
                state.controllers[v]?.presentation = nil
                state.controllers[v]?.isBeingDismissed = false
                state.controllers[v]?.isBeingPresented = false
            }
        case .restorePresentation(let v):
            state.controllers[v]?.presentation?.state = .presented
            state.controllers[v]?.isBeingDismissed = false
        case .endMovingToParent(let list):
            for id in list { state.controllers[id]?.isMovingToParent = false }
        case .detach(let list):
            // R2: a controller another container took while the transition ran (a push of it onto
            // another stack) stays where it now is; only the navigation controller's own leave it.
            for id in list where navigation == nil || state.controllers[id]?.parent == navigation {
                if !returnToTabBar(id) { detachFromParent(id) }
            }
        case .restoreStack(let nav, let stack, let attach):
            // R2: the stack goes back without the controllers that left it meanwhile (taken by
            // another container, presented, released): a stack lists only its children.
            let kept = stack.filter { state.controllers[$0]?.parent == nav }
            state.controllers[nav]?.navigationStack?.viewControllers = kept
            // R165: a More tab whose pop is given up is the selection again.
            if state.controllers[nav]?.isMoreNavigationController == true, let tabBar = state.controllers[nav]?.parent,
                state.controllers[tabBar]?.selectedViewController == nav, let top = kept.last,
                state.controllers[tabBar]?.viewControllers.contains(top) == true
            {
                self[changing: tabBar].tabState?.selectedViewController = top
            }
            for id in attach {
                state.controllers[id]?.isMovingFromParent = false
                state.controllers[id]?.isMovingToParent = false
            }
        }
    }

    /// Finishes running transitions: one by id, or all (a tick).
    mutating func completeTransitions(id: String?) throws(CommandError) {
        if let id, !state.transitions.contains(where: { $0.record.id == id }) {
            throw CommandError(kind: .unknownTransition, message: "No transition '\(id)' is in progress in this session.", field: nil)
        }
        if let id, let t = state.transitions.first(where: { $0.record.id == id }), !t.started {
            throw CommandError(
                kind: .transitionConflict,
                message: "Transition '\(id)' is queued behind a running navigation transition (R81); complete that one first.", field: nil)
        }
        var last: TransitionRecord?
        var finishedNavigations: [ControllerID?] = []
        // Taken out before their callbacks run: code in `viewDidAppear` sees them ended.
        let ending = state.transitions.filter { $0.started && (id == nil || $0.record.id == id) }
        state.transitions.removeAll { $0.started && (id == nil || $0.record.id == id) }
        for var t in ending {
            finish(&t, in: journal.current)
            last = t.record
            finishedNavigations.append(t.navigation)
        }
        for nav in finishedNavigations { startQueued(navigation: nav) }
        journal[journal.current].result.transition = last
    }

    mutating func cancelTransition(id: String) throws(CommandError) {
        guard let index = state.transitions.firstIndex(where: { $0.record.id == id }) else {
            throw CommandError(kind: .unknownTransition, message: "No transition '\(id)' is in progress in this session.", field: nil)
        }
        let t = state.transitions[index]
        guard t.started else {
            throw CommandError(
                kind: .transitionConflict,
                message: "Transition '\(id)' is queued behind a running navigation transition (R81) and has not started.", field: nil)
        }
        // Only what a user or an interaction controller can give up: presentations, dismissals,
        // pushes and pops (R38, R60, R83). Others have no way back.
        guard t.cancellation != nil else {
            throw CommandError(
                kind: .transitionConflict,
                message: "Transition '\(id)' (\(t.record.operation.rawValue)) cannot be cancelled: only presentations, dismissals, pushes and pops are interactive.", field: nil)
        }
        if let nav = t.navigation, let queued = state.transitions.first(where: { $0.navigation == nav && !$0.started }) {
            throw CommandError(
                kind: .transitionConflict,
                message: "Transition '\(id)' cannot be cancelled while '\(queued.record.id)' is queued behind it (R81).", field: nil)
        }
        var cancelled = state.transitions.remove(at: index)
        cancel(&cancelled, in: journal.current)
        journal[journal.current].result.transition = cancelled.record
    }

    /// Is a presentation or dismissal of `v` still running (R14, R43)?
    func isTransitioning(_ v: ControllerID) -> Bool {
        state.transitions.contains { $0.record.fromViewController == v || $0.record.toViewController == v }
            || pending.contains { $0.running.record.fromViewController == v || $0.running.record.toViewController == v }
    }
}

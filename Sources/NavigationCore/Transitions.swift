/// Transitions: queued when an operation is accepted, started at the end of the turn ("will"
/// callbacks), finished at once or by a tick ("did" callbacks, completion). §0.3, §20 note 3.

/// The order in which appearance callbacks fire for one kind of transition.
public struct AppearanceOrder: Sendable, Codable, Equatable {
    /// `viewWillAppear` of the appearing side before `viewWillDisappear` of the other (R87, R95).
    var willsAppearFirst: Bool
    /// `viewDidAppear` before `viewDidDisappear` (R32/R34 modal, R95 scroll) or after (R77, R87).
    var didsAppearFirst: Bool
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
public enum TransitionEffect: Sendable, Codable, Equatable {
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

/// A transition that was accepted and has not finished: what remains to be called.
public struct RunningTransition: Sendable, Codable, Equatable {
    public var record: TransitionRecord
    var order: AppearanceOrder
    var appearing: [ControllerID]
    var disappearing: [ControllerID]
    /// Callbacks made when the transition starts, before the appearance ones (delegate calls).
    var preStart: [Event]
    /// Callbacks made when it ends, after the appearance ones (`didMove`, completion, delegates).
    var postFinish: [Event]
    var effects: [TransitionEffect]
    var cancelEffects: [TransitionEffect]
    var cancelEvents: [Event]
    /// Shown to the client (false for changes with nothing on screen, e.g. a push onto a hidden
    /// navigation controller).
    var isReported: Bool
    var started: Bool
    /// The navigation controller whose stack this transition animates (push, pop, setViewControllers):
    /// one runs at a time per navigation controller (R81).
    var navigation: ControllerID? = nil
    /// R39: controllers within this one (a popover's content) get no `viewDidAppear` when this
    /// transition ends.
    var silentDidAppearWithin: ControllerID? = nil
    /// Calls made once the views are loaded, before the first appearance callback (R82 `willShow`).
    var beforeAppearance: [Event] = []
    /// The settled views before and after the change, as computed when it was accepted; the
    /// lists above are recomputed from them against what is on screen when the transition
    /// starts (another transition may still be running). Nil in sessions stored before.
    var before: [ControllerID]? = nil
    var after: [ControllerID]? = nil
}

extension Engine {
    /// Queues a transition for the end of the turn and reports it as the current operation's.
    mutating func enqueue(operation: String, from: ControllerID?, to: ControllerID?,
                          style: PresentationStyle? = nil, transitionStyle: TransitionStyle? = nil,
                          animated: Bool, animator: TransitioningDelegate? = nil,
                          containerView: [ControllerID] = [], order: AppearanceOrder,
                          before: [ControllerID], preStart: [Event] = [], postFinish: [Event] = [],
                          effects: [TransitionEffect] = [], cancelEffects: [TransitionEffect] = [],
                          cancelEvents: [Event] = [], forceReport: Bool = false, navigation: ControllerID? = nil) {
        let after = state.settledViewsInWindow
        let afterSet = Set(after), beforeSet = Set(before)
        let appearing = after.filter { !beforeSet.contains($0) }
        let disappearing = before.filter { !afterSet.contains($0) }
        let reported = forceReport || !appearing.isEmpty || !disappearing.isEmpty
        let id = "t\(state.nextTransitionNumber)"
        if reported { state.nextTransitionNumber += 1 }
        var postFinish = postFinish
        var beforeAppearance: [Event] = []
        // R82: the navigation delegate hears of every visible top change, around its transition
        // (its view loaded by then), and of the top shown when the navigation controller first appears.
        if let navigation, reported, let top = to, top != from, state.c(navigation).navigationDelegate != nil {
            beforeAppearance.append(Event(top, .navigationControllerWillShow, animated: animated))
            postFinish.append(Event(top, .navigationControllerDidShow, animated: animated))
        }
        for nav in appearing where nav != navigation && state.c(nav).kind == .navigationController
            && state.c(nav).navigationDelegate != nil && !state.c(nav).isViewLoaded {
            guard let top = state.c(nav).viewControllers.last else { continue }
            beforeAppearance.append(Event(top, .navigationControllerWillShow, animated: animated))
            postFinish.append(Event(top, .navigationControllerDidShow, animated: animated))
        }
        let duration: Double = animated ? (animator?.duration ?? Self.defaultDuration(operation)) : 0
        // R58: from is the resolved presenter and to the presented controller (reversed on dismissal).
        let record = TransitionRecord(id: id, operation: operation, fromViewController: from, toViewController: to,
                                      presentationStyle: style, transitionStyle: transitionStyle, animated: animated,
                                      duration: duration, animator: animator?.name,
                                      containerView: containerView.isEmpty ? [from, to].compactMap { $0 } : containerView,
                                      state: .inProgress)
        pending.append(Pending(owner: current, running: RunningTransition(
            record: record, order: order, appearing: appearing, disappearing: disappearing,
            preStart: preStart, postFinish: postFinish, effects: effects, cancelEffects: cancelEffects,
            cancelEvents: cancelEvents, isReported: reported, started: false, navigation: navigation,
            beforeAppearance: beforeAppearance, before: before, after: after)))
    }

    /// UIKit's default animation lengths (seconds): modal ≈ 0.5, navigation ≈ 0.35.
    static func defaultDuration(_ operation: String) -> Double {
        switch operation {
        case "present", "dismiss", "interactiveDismiss": 0.5
        default: 0.35
        }
    }

    /// End of the turn: start every queued transition, finish the ones that end now (§0.3). A
    /// navigation transition whose navigation controller is still animating waits its turn (R81).
    mutating func endTurn() {
        let queued = pending
        pending = []
        for item in queued {
            let saved = current
            current = item.owner
            var running = item.running
            if let nav = running.navigation, state.transitions.contains(where: { $0.navigation == nav }) {
                running.record.state = .queued
                state.transitions.append(running)
            } else {
                begin(&running)
            }
            if running.isReported { results[item.owner].transition = running.record }
            current = saved
        }
        orderTransitions()
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

    /// Controllers on screen or on their way (what a new transition takes over from).
    func isOnScreen(_ id: ControllerID) -> Bool {
        let a = state.c(id).appearance
        return a == .appeared || a == .appearing
    }

    /// At its start a transition makes appear what belongs on screen after it and is not there,
    /// and disappear what is on screen (or appearing) and does not belong: with no other
    /// transition running this is its own before/after difference; with one running it hands
    /// over from what that one left mid-way (R36, R38).
    private func aim(_ t: inout RunningTransition) {
        guard let after = t.after else { return }
        let afterSet = Set(after)
        t.appearing = after.filter { !isOnScreen($0) }
        var seen = Set<ControllerID>()
        t.disappearing = ((t.before ?? []) + state.order).filter {
            seen.insert($0).inserted && isOnScreen($0) && !afterSet.contains($0)
        }
    }

    /// Starts a transition and finishes it at once unless it animates in manual mode.
    private mutating func begin(_ running: inout RunningTransition) {
        start(&running)
        let finishesNow = state.options.transitions == .immediate || !running.record.animated || !running.isReported
        if finishesNow {
            finish(&running)
        } else {
            running.record.state = .inProgress
            state.transitions.append(running)
        }
    }

    /// R81: once a navigation controller's transition has ended, the next one queued for it starts.
    mutating func startQueued(navigation nav: ControllerID?) {
        guard let nav else { return }
        while !state.transitions.contains(where: { $0.navigation == nav && $0.started }),
              let index = state.transitions.firstIndex(where: { $0.navigation == nav && !$0.started }) {
            var next = state.transitions.remove(at: index)
            rebase(&next)
            begin(&next)
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

    mutating func start(_ t: inout RunningTransition) {
        let animated = t.record.animated
        aim(&t)
        for e in t.preStart { emit(e) }
        // D21 (R38): a begin-appearance call while the previous one has not ended, as when a
        // presentation starts over a push that is still animating.
        for id in t.appearing + t.disappearing {
            let a = state.c(id).appearance
            if a == .appearing || a == .disappearing { results[current].warnings.append(.unbalancedAppearance(name(id))) }
        }
        for id in t.appearing where !state.c(id).isViewLoaded {
            self[changing: id].isViewLoaded = true
            emit(Event(id, .viewDidLoad))
        }
        for e in t.beforeAppearance { emit(e) }
        func wills(_ appearingSide: Bool) {
            if appearingSide {
                for id in t.appearing {
                    self[changing: id].appearance = .appearing
                    self[changing: id].viewInWindow = true
                    emit(Event(id, .viewWillAppear, animated: animated))
                    if state.options.profile.emitsViewIsAppearing { emit(Event(id, .viewIsAppearing, animated: animated)) }
                }
            } else {
                for id in t.disappearing {
                    self[changing: id].appearance = .disappearing
                    emit(Event(id, .viewWillDisappear, animated: animated))
                }
            }
        }
        wills(t.order.willsAppearFirst)
        wills(!t.order.willsAppearFirst)
        t.started = true
    }

    mutating func finish(_ t: inout RunningTransition) {
        let animated = t.record.animated
        for effect in t.effects { apply(effect) }
        func dids(_ appearingSide: Bool) {
            if appearingSide {
                // A controller another transition has taken over since (R38, D21) is left to it.
                for id in t.appearing where state.c(id).appearance == .appearing {
                    self[changing: id].appearance = .appeared
                    if t.silentDidAppearWithin.map({ state.isWithin(id, $0) }) != true {
                        emit(Event(id, .viewDidAppear, animated: animated))
                    }
                }
            } else {
                for id in t.disappearing where state.c(id).appearance == .disappearing {
                    self[changing: id].appearance = .disappeared
                    self[changing: id].viewInWindow = false
                    emit(Event(id, .viewDidDisappear, animated: animated))
                }
            }
        }
        dids(t.order.didsAppearFirst)
        dids(!t.order.didsAppearFirst)
        for e in t.postFinish { emit(e) }
        t.record.state = .completed
    }

    /// R38, R60: a cancelled interactive transition; each side gets the opposite callbacks.
    mutating func cancel(_ t: inout RunningTransition) {
        let animated = t.record.animated
        // The structure goes back first; then the window is brought to it: what belongs there and
        // is not on screen (the controllers this transition was hiding, or what changed beneath it
        // meanwhile) appears, what is on screen and does not belong leaves, and what this transition
        // was hiding and no longer belongs finishes disappearing.
        for effect in t.cancelEffects { apply(effect) }
        let target = state.settledViewsInWindow
        let targetSet = Set(target)
        let returning = target.filter { !isOnScreen($0) }
        var seen = Set<ControllerID>()
        let leaving = (t.appearing + state.order).filter { seen.insert($0).inserted && isOnScreen($0) && !targetSet.contains($0) }
        let stillLeaving = t.disappearing.filter { state.c($0).appearance == .disappearing && !targetSet.contains($0) }
        for id in returning where !state.c(id).isViewLoaded {
            self[changing: id].isViewLoaded = true
            emit(Event(id, .viewDidLoad))
        }
        for id in returning {
            let fresh = state.c(id).appearance == .disappeared
            self[changing: id].appearance = .appearing
            self[changing: id].viewInWindow = true
            emit(Event(id, .viewWillAppear, animated: animated))
            if fresh && profile.emitsViewIsAppearing { emit(Event(id, .viewIsAppearing, animated: animated)) }
        }
        for id in leaving {
            self[changing: id].appearance = .disappearing
            emit(Event(id, .viewWillDisappear, animated: animated))
        }
        for id in leaving + stillLeaving {
            self[changing: id].appearance = .disappeared
            self[changing: id].viewInWindow = false
            emit(Event(id, .viewDidDisappear, animated: animated))
        }
        for id in returning {
            self[changing: id].appearance = .appeared
            emit(Event(id, .viewDidAppear, animated: animated))
        }
        for e in t.cancelEvents { emit(e) }
        t.record.state = .cancelled
    }

    mutating func apply(_ effect: TransitionEffect) {
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
            for id in list { detachFromParent(id) }
        case .restoreStack(let nav, let stack, let attach):
            state.controllers[nav]?.viewControllers = stack
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
            throw CommandError(kind: .transitionConflict,
                               message: "Transition '\(id)' is queued behind a running navigation transition (R81); complete that one first.", field: nil)
        }
        var remaining: [RunningTransition] = []
        var last: TransitionRecord?
        var finishedNavigations: [ControllerID?] = []
        for var t in state.transitions {
            if t.started && (id == nil || t.record.id == id) {
                finish(&t)
                last = t.record
                finishedNavigations.append(t.navigation)
            } else {
                remaining.append(t)
            }
        }
        state.transitions = remaining
        for nav in finishedNavigations { startQueued(navigation: nav) }
        results[current].transition = last
    }

    mutating func cancelTransition(id: String) throws(CommandError) {
        guard let index = state.transitions.firstIndex(where: { $0.record.id == id }) else {
            throw CommandError(kind: .unknownTransition, message: "No transition '\(id)' is in progress in this session.", field: nil)
        }
        let t = state.transitions[index]
        guard t.started else {
            throw CommandError(kind: .transitionConflict,
                               message: "Transition '\(id)' is queued behind a running navigation transition (R81) and has not started.", field: nil)
        }
        // Only what a user or an interaction controller can give up: presentations, dismissals,
        // pushes and pops (R38, R60, R83). Others have no way back.
        guard !t.cancelEffects.isEmpty else {
            throw CommandError(kind: .transitionConflict,
                               message: "Transition '\(id)' (\(t.record.operation)) cannot be cancelled: only presentations, dismissals, pushes and pops are interactive.", field: nil)
        }
        if let nav = t.navigation, let queued = state.transitions.first(where: { $0.navigation == nav && !$0.started }) {
            throw CommandError(kind: .transitionConflict,
                               message: "Transition '\(id)' cannot be cancelled while '\(queued.record.id)' is queued behind it (R81).", field: nil)
        }
        var cancelled = state.transitions.remove(at: index)
        cancel(&cancelled)
        results[current].transition = cancelled.record
    }

    /// Is a presentation or dismissal of `v` still running (R14, R43)?
    func isTransitioning(_ v: ControllerID) -> Bool {
        state.transitions.contains { $0.record.fromViewController == v || $0.record.toViewController == v }
            || pending.contains { $0.running.record.fromViewController == v || $0.running.record.toViewController == v }
    }
}

struct Pending {
    var owner: Int
    var running: RunningTransition
}

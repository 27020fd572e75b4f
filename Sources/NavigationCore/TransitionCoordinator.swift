/// What a transition asks and runs besides the appearance callbacks: the navigation delegate's
/// custom animator and interaction controller (R140–R142), and the blocks code registers on a
/// `transitionCoordinator` (R143–R145). Transitions.swift calls in at the transition's start,
/// at its end and when it is given up.

/// A transition starting now, as lifecycle code in its callbacks sees it through
/// `transitionCoordinator` (R62): who it involves, and what that code registered on it.
struct CoordinatorHooks {
    /// R62: the transition as it starts; its coordinator answers for what it `involves`
    /// (Release.swift): its from and to, its navigation controller, what it makes appear and
    /// disappear. A copy shares the lists, so every transition start pays no allocation for it.
    let transition: RunningTransition
    /// Owners of `animate(alongsideTransition:completion:)` registrations, in order (R143, R144).
    var alongside: [ControllerID] = []
    /// Owners of `notifyWhenInteractionChanges(_:)` registrations, in order (R145).
    var interactionHandlers: [ControllerID] = []

    init(_ t: RunningTransition) { transition = t }
}

extension RunningTransition {
    /// R141, R145: a user or an interaction controller drives it: the swipes, and a push or pop
    /// whose navigation delegate answered an interaction controller.
    var isInteractive: Bool {
        record.operation == .interactivePop || record.operation == .interactiveDismiss
            || preStart.contains { $0.callback == .navigationControllerInteractionControllerFor }
    }
}

extension Engine {
    /// R140: the navigation delegate is asked for an animator, then (given one) for an interaction
    /// controller, as an animated push or pop that changes the visible top starts; nil answers
    /// are methods the delegate does not implement, which are not called.
    func navigationDelegateAnswers(
        _ navigation: ControllerID?, from: ControllerID?, to: ControllerID?, animated: Bool, reported: Bool
    ) -> (events: [Event], animator: TransitioningDelegate?) {
        guard let nav = navigation, reported, animated, let to, to != from,
            let delegate = state.c(nav).navigationDelegate, let animator = delegate.animationController
        else { return ([], nil) }
        var ask = Event(nav, .navigationControllerAnimationControllerFor)
        // A controller joining the stack is pushed (`setViewControllers` with a new top too);
        // one already on it is popped to.
        ask.operation = state.c(to).isMovingToParent ? .push : .pop
        guard delegate.interactionController != nil else { return ([ask], animator) }
        return ([ask, Event(nav, .navigationControllerInteractionControllerFor)], animator)
    }

    /// R143: `transitionCoordinator?.animate(alongsideTransition:completion:)` from `id`'s code.
    /// In a transition's starting callbacks the block runs with its animations, after the "will"
    /// callbacks; on a transition already running it runs at once. The completion runs when the
    /// transition ends or is given up (R144). Without a coordinator nothing runs (the call is
    /// made on nil).
    mutating func animateAlongsideTransition(_ id: ControllerID) throws(Refusal) {
        _ = try existing(id)
        if let i = coordinators.lastIndex(where: { $0.transition.involves(id) }) {
            coordinators[i].alongside.append(id)
        } else if let i = state.transitions.firstIndex(where: { $0.started && $0.involves(id) }) {
            emit(Event(id, .animateAlongsideTransition))
            state.transitions[i].postFinish.append(Self.completion(id, cancelled: false))
            state.transitions[i].cancellation?.events.append(Self.completion(id, cancelled: true))
        }
    }

    /// R145: `transitionCoordinator?.notifyWhenInteractionChanges(_:)` from `id`'s code: the
    /// handler runs when the interaction of an interactive transition ends; a transition no one
    /// drives never calls it.
    mutating func notifyWhenInteractionChanges(_ id: ControllerID) throws(Refusal) {
        _ = try existing(id)
        if let i = coordinators.lastIndex(where: { $0.transition.involves(id) }) {
            coordinators[i].interactionHandlers.append(id)
        } else if let i = state.transitions.firstIndex(where: { $0.started && $0.involves(id) }), state.transitions[i].isInteractive {
            state.transitions[i].interactionHandlers.append(Event(id, .notifyWhenInteractionChanges))
        }
    }

    /// End of a transition's start: the alongside blocks run with its animations (after every
    /// "will" callback, R143); their completions wait for its end or cancellation (R144), the
    /// interaction handlers for the end of its interaction (R145).
    mutating func runAlongside(_ hooks: CoordinatorHooks, _ t: inout RunningTransition, in entry: Journal.Index) {
        for id in hooks.alongside {
            emit(Event(id, .animateAlongsideTransition), in: entry)
            t.postFinish.append(Self.completion(id, cancelled: false))
            t.cancellation?.events.append(Self.completion(id, cancelled: true))
        }
        if !hooks.interactionHandlers.isEmpty, t.isInteractive {
            t.interactionHandlers += hooks.interactionHandlers.map { Event($0, .notifyWhenInteractionChanges) }
        }
    }

    /// R145: the interaction ends as the transition finishes or is given up, before either's
    /// callbacks; each handler sees whether it was cancelled.
    mutating func interactionEnded(_ t: RunningTransition, cancelled: Bool, in entry: Journal.Index) {
        for var e in t.interactionHandlers {
            e.isCancelled = cancelled
            emit(e, in: entry)
        }
    }

    /// R144: an alongside block's completion, with the context's `isCancelled`.
    static func completion(_ id: ControllerID, cancelled: Bool) -> Event {
        var e = Event(id, .animateAlongsideTransitionCompletion)
        e.isCancelled = cancelled
        return e
    }
}

/// A transition between its start and its `viewWillAppear`s, while the views it brings on screen
/// load: the controllers `addSubview` inside one of their `viewDidLoad`s adds to it (R71,
/// Containment.swift). Turn-local, never stored.
struct StartingTransition {
    /// What it makes appear, the joined controllers included.
    var appearing: Set<ControllerID>
    /// Controllers that joined, in the order they did.
    var joined: [ControllerID] = []
    /// Calls to make when it ends (split adaptation of a joined controller, R91).
    var postFinish: [Event] = []
}

/// A transition queued this turn, and the journal entry of the command that queued it.
struct Pending {
    var entry: Journal.Index
    /// False for a transition lifecycle code queued: the command reports its own.
    var reportsTransition = true
    var running: RunningTransition
}

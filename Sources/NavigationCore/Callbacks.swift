/// Code a controller's class runs inside its own view lifecycle methods: the
/// UIKit calls written in `viewDidLoad`, `viewWillAppear(_:)`, `viewIsAppearing(_:)`,
/// `viewDidAppear(_:)`, `viewWillDisappear(_:)` and `viewDidDisappear(_:)`, as nested commands.
/// The calls run synchronously each time the method is called, where UIKit calls it: their
/// callbacks follow the method's event in the same command's result (R32 order), their UIKit
/// warnings join its warnings (a refused call changes nothing, R30), and a UIKit exception or an
/// input error inside one makes the whole turn fail and change nothing.
public struct CallbackCode: Sendable, Equatable {
    /// The lifecycle methods that may hold code: view loading and the appearance callbacks (R32).
    public enum Method: String, Sendable, CaseIterable {
        case viewDidLoad, viewWillAppear, viewIsAppearing, viewDidAppear, viewWillDisappear, viewDidDisappear
        /// R148: a custom container's `unwind(for:towards:)`, which brings the child forward.
        case unwindForTowards

        /// The method whose code runs after `callback`, nil when code cannot be given for it.
        /// A switch rather than `init(rawValue:)`, which would compare names after every event.
        init?(_ callback: Event.Callback) {
            switch callback {
            case .viewDidLoad: self = .viewDidLoad
            case .viewWillAppear: self = .viewWillAppear
            case .viewIsAppearing: self = .viewIsAppearing
            case .viewDidAppear: self = .viewDidAppear
            case .viewWillDisappear: self = .viewWillDisappear
            case .viewDidDisappear: self = .viewDidDisappear
            case .unwindForTowards: self = .unwindForTowards
            default: return nil
            }
        }
    }

    /// One UIKit call in a method's body.
    public struct Call: Sendable, Equatable {
        /// The call; a receiver equal to ``CallbackCode/selfReceiver`` is the controller whose
        /// method runs (`self`).
        public var command: Command
        /// Runs the first time the method is called only (`if !didRun { … }`); the call is then
        /// removed from the controller's code.
        public var once: Bool
        public init(_ command: Command, once: Bool = false) {
            self.command = command
            self.once = once
        }
    }

    /// Each method's calls, in the order the body makes them.
    public var calls: [Method: [Call]] = [:]

    public init(_ calls: [Method: [Call]] = [:]) { self.calls = calls.filter { !$0.value.isEmpty } }

    /// No method holds code.
    public var isEmpty: Bool { calls.values.allSatisfy(\.isEmpty) }

    /// The receiver that stands for `self`: a controller id no spec can take (`~` only appears
    /// in suffixes, never first).
    public static let selfReceiver: ControllerID = "~self"
    /// Nested lifecycle code deeper than this (code whose calls make a method with code run, and
    /// so on) fails the turn: a method that triggers itself would otherwise never end.
    public static let maximumDepth = 8
    /// At most this many nested calls run in one turn.
    public static let maximumCallsPerTurn = 256

    /// The two bounds on lifecycle code; a turn over either fails with a `limitExceeded`
    /// ``CommandError`` whose `limit` is the raw value (docs/limits.md).
    public enum Limit: String, Sendable, CaseIterable {
        /// Lifecycle methods with code nested inside each other: ``CallbackCode/maximumDepth``.
        case callbackDepth
        /// Calls lifecycle code makes in one turn: ``CallbackCode/maximumCallsPerTurn``.
        case callbacksPerRequest

        /// The bound's value.
        public var maximum: Int {
            switch self {
            case .callbackDepth: CallbackCode.maximumDepth
            case .callbacksPerRequest: CallbackCode.maximumCallsPerTurn
            }
        }
    }
}

/// Where a storyboard segue that lifecycle code performs finds its destination:
/// `performSegue(withIdentifier:sender:)` in `viewDidAppear` instantiates the destination scene
/// when the method runs, from the receiver's storyboard (R96 step 1, R97), exactly as a
/// top-level `performSegue` does. The core cannot read storyboards, so the service hands it this
/// value: `resolve` is the catalogue as of the request (pure: same command and state, same
/// answer), `recorded` what an earlier run of the same turn was answered (history replay).
public struct SegueDestinations {
    /// Fills in `destination` (and a custom segue's declaration) of a `.performSegue` or
    /// `.triggerSegue` whose `segue` is nil and whose destination is nil or names only an id,
    /// from `state` as it is when the callback fires. Answers the command unchanged when there is
    /// nothing to instantiate (unwind, unknown identifier, no storyboard: the core then answers
    /// as for a top-level call); a refusal (D19, D20, a limit) fails the turn.
    public var resolve: ((Command, SessionState) -> Result<Command, Refusal>)?
    /// Answers of an earlier run, each used once, matched by receiver, identifier and operation.
    public var recorded: [Command]

    public init(resolve: ((Command, SessionState) -> Result<Command, Refusal>)? = nil, recorded: [Command] = []) {
        self.resolve = resolve
        self.recorded = recorded
    }

    /// No storyboard layer: nested segues keep what they were given.
    public static var none: SegueDestinations { SegueDestinations() }
}

extension Command {
    /// A storyboard segue whose destination scene is still to be instantiated: `performSegue` or
    /// `triggerSegue` without a resolved `segue`, whose destination is nil or names only an id.
    public var needsSegueDestination: Bool {
        switch self {
        case let .performSegue(_, _, d, nil), let .triggerSegue(_, _, d, nil): d?.storyboard == nil
        default: false
        }
    }

    /// What matches a recorded answer to the call it answers.
    var segueKey: String? {
        switch self {
        case let .performSegue(r, i, _, _): "performSegue\u{0}\(r)\u{0}\(i)"
        case let .triggerSegue(r, i, _, _): "triggerSegue\u{0}\(r)\u{0}\(i)"
        default: nil
        }
    }
}

extension Command {
    /// This command with receiver `old` replaced by `new` (a callback's `self`).
    func replacingReceiver(_ old: ControllerID, with new: ControllerID) -> Command {
        func m(_ r: ControllerID) -> ControllerID { r == old ? new : r }
        switch self {
        case .setRoot, .createController, .setTraits, .completeTransition, .cancelTransition: return self
        case .present(let r, let v, let s, let t, let p, let a):
            return .present(receiver: m(r), viewController: v, style: s, transitionStyle: t, popover: p, animated: a)
        case .dismiss(let r, let a): return .dismiss(receiver: m(r), animated: a)
        case .show(let r, let v, let a): return .show(receiver: m(r), viewController: v, animated: a)
        case .showDetail(let r, let v, let a): return .showDetail(receiver: m(r), viewController: v, animated: a)
        case .push(let r, let v, let a): return .push(receiver: m(r), viewController: v, animated: a)
        case .pop(let r, let a): return .pop(receiver: m(r), animated: a)
        case .popToRoot(let r, let a): return .popToRoot(receiver: m(r), animated: a)
        case .popTo(let r, let v, let a): return .popTo(receiver: m(r), viewController: m(v), animated: a)
        case .setViewControllers(let r, let v, let d, let a):
            return .setViewControllers(receiver: m(r), viewControllers: v, direction: d, animated: a)
        case .select(let r, let i, let v): return .select(receiver: m(r), index: i, viewController: v)
        case .tapTab(let r, let i, let v): return .tapTab(receiver: m(r), index: i, viewController: v)
        case .addChild(let r, let v): return .addChild(receiver: m(r), viewController: v)
        case .removeFromParent(let r): return .removeFromParent(receiver: m(r))
        case .release(let r): return .release(m(r))
        case .willMove(let r, let p): return .willMove(receiver: m(r), toParent: p.map(m))
        case .didMove(let r, let p): return .didMove(receiver: m(r), toParent: p.map(m))
        case .addSubview(let r, let v, let a): return .addSubview(receiver: m(r), viewController: m(v), animated: a)
        case .removeFromSuperview(let r, let a): return .removeFromSuperview(receiver: m(r), animated: a)
        case .transitionChild(let r, let f, let t, let a): return .transitionChild(receiver: m(r), from: m(f), to: m(t), animated: a)
        case .interactiveDismiss(let r, let c, let t): return .interactiveDismiss(receiver: m(r), completes: c, tappedView: t.map(m))
        case .interactivePop(let r, let c, let g): return .interactivePop(receiver: m(r), completes: c, gesture: g)
        case .setNeedsUpdateProperties(let r): return .setNeedsUpdateProperties(receiver: m(r))
        case .animateAlongsideTransition(let r): return .animateAlongsideTransition(receiver: m(r))
        case .notifyWhenInteractionChanges(let r): return .notifyWhenInteractionChanges(receiver: m(r))
        case .showColumn(let r, let c): return .showColumn(receiver: m(r), column: c)
        case .hideColumn(let r, let c): return .hideColumn(receiver: m(r), column: c)
        case .performSegue(let r, let i, let d, let s): return .performSegue(receiver: m(r), identifier: i, destination: d, segue: s)
        case .triggerSegue(let r, let i, let d, let s): return .triggerSegue(receiver: m(r), identifier: i, destination: d, segue: s)
        case .updateController(let r, let p): return .updateController(m(r), p)
        case .beginAppearanceTransition(let r, let i, let a): return .beginAppearanceTransition(receiver: m(r), isAppearing: i, animated: a)
        case .endAppearanceTransition(let r): return .endAppearanceTransition(receiver: m(r))
        case .tapAlertAction(let r, let i, let t, let a): return .tapAlertAction(receiver: m(r), index: i, title: t, animated: a)
        case .dragSheet(let r, let d): return .dragSheet(receiver: m(r), detent: d)
        case .turnPage(let r, let d, let c): return .turnPage(receiver: m(r), direction: d, completes: c)
        case .customizeTabs(let r, let v): return .customizeTabs(receiver: m(r), viewControllers: v.map(m))
        }
    }
}

/// What lifecycle code has done so far in a turn.
struct CallbackProgress {
    var depth = 0
    /// The depth whose transitions a reply names: the command's own (0), or an alert action's
    /// handler, which is what the user's tap does (``Engine/runAlertActionHandler(after:in:)``).
    var reportedDepth = 0
    var calls = 0
    /// The exception or input error that fails the turn (nothing it did is kept).
    var failure: Refusal?
    /// Where nested storyboard segues find their destinations, and what they were answered, in
    /// the order asked (``Navigator/TurnResult/resolvedSegues``).
    var segues = SegueDestinations.none
    var resolvedSegues: [Command] = []
}

extension Engine {
    /// The one hook: right after `event` is recorded in `entry`, the code of the method it names
    /// runs, as the method's body would. A refused warning (D7 "whose view is
    /// not in the window hierarchy", D6, D8, D9, …) is logged in the entry's warnings and the call
    /// changes nothing (R30); an exception or input error fails the turn (``CallbackProgress``).
    mutating func runCode(after event: Event, in entry: Journal.Index) {
        guard callbacks.failure == nil else { return }
        if event.callback == .alertActionHandler { return runAlertActionHandler(after: event, in: entry) }
        // Most controllers run no code: that is asked first, before the event's method is named.
        guard let code = state.controllers[event.controller]?.configuration.on.calls, !code.isEmpty,
            let method = CallbackCode.Method(event.callback), let calls = code[method], !calls.isEmpty
        else { return }
        let id = event.controller
        if calls.contains(where: \.once) {
            let rest = calls.filter { !$0.once }
            self[changing: id].configuration.on.calls[method] = rest.isEmpty ? nil : rest
        }
        run(calls, as: id, in: entry, place: "\(name(id)).\(method.rawValue)", field: "on.\(method.rawValue)")
    }

    /// Runs `calls` as the body of one method whose `self` is `id`: `place` names the method in
    /// a limit's message, `field` in its problem.
    /// With `reportsTransitions`, the transitions the calls start are the reply's (not those of
    /// code they trigger in turn).
    mutating func run(
        _ calls: [CallbackCode.Call], as id: ControllerID, in entry: Journal.Index, place: String, field: String,
        reportsTransitions: Bool = false
    ) {
        callbacks.depth += 1
        let reportedDepth = callbacks.reportedDepth
        if reportsTransitions { callbacks.reportedDepth = callbacks.depth }
        defer {
            callbacks.depth -= 1
            callbacks.reportedDepth = reportedDepth
        }
        for call in calls {
            callbacks.calls += 1
            // The error names the bound that was hit.
            let hit: CallbackCode.Limit? =
                callbacks.depth > CallbackCode.maximumDepth
                ? .callbackDepth
                : callbacks.calls > CallbackCode.maximumCallsPerTurn ? .callbacksPerRequest : nil
            if let hit {
                let message =
                    switch hit {
                    case .callbackDepth:
                        "Code in \(place) runs more than \(hit.maximum) lifecycle methods deep; does a method trigger itself?"
                    case .callbacksPerRequest:
                        "Lifecycle code makes more than \(hit.maximum) calls in one request (the last in \(place)); does a method trigger itself?"
                    }
                callbacks.failure = .input(
                    CommandError(
                        kind: .limitExceeded, message: message,
                        field: field, limit: hit.rawValue))
                return
            }
            let saved = journal.focus
            journal.focus = entry
            defer { journal.focus = saved }
            let snapshot = state, pendingCount = pending.count, result = journal[entry].result, startingSnapshot = starting
            let coordinatorsSnapshot = coordinators  // R143: a refused call's registrations go with it
            let startedBeforeGesture = self.startedBeforeGesture
            do throws(Refusal) {
                var command = call.command.replacingReceiver(CallbackCode.selfReceiver, with: id)
                if command.needsSegueDestination { command = try segueDestination(for: command) }
                try execute(command)
                // What the nested call returns or creates is not the outer command's.
                journal[entry].result.returned = result.returned
                journal[entry].result.returnsValue = result.returnsValue
                journal[entry].result.created = result.created
                if !reportsTransitions { journal[entry].result.transition = result.transition }
            } catch {
                // A gesture that started earlier transitions cannot be undone alone (Navigator.run).
                if case .uikit(let d) = error, d.severity == .warning, self.startedBeforeGesture == startedBeforeGesture {
                    state = snapshot
                    pending.removeLast(pending.count - pendingCount)
                    starting = startingSnapshot
                    coordinators = coordinatorsSnapshot
                    journal[entry].result = result
                    journal[entry].result.warnings.append(d)
                } else if callbacks.failure == nil {
                    callbacks.failure = error
                }
            }
            if callbacks.failure != nil { return }
        }
    }
}

extension Engine {
    /// A nested `performSegue`/`triggerSegue` gets its destination scene when the
    /// callback fires: a recorded answer first (replay), else the service's resolver, from the
    /// state as it is now. Every answer is kept, in order, for the history entry.
    mutating func segueDestination(for command: Command) throws(Refusal) -> Command {
        if let key = command.segueKey, let i = callbacks.segues.recorded.firstIndex(where: { $0.segueKey == key }) {
            let answer = callbacks.segues.recorded.remove(at: i)
            callbacks.resolvedSegues.append(answer)
            return answer
        }
        guard let resolve = callbacks.segues.resolve else { return command }
        switch resolve(command, state) {
        case .success(let answer):
            callbacks.resolvedSegues.append(answer)
            return answer
        case .failure(let refusal):
            throw refusal
        }
    }
}

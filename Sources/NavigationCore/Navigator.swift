/// The pure entry point: a turn of commands in, the new state and each command's outcome out.
/// No I/O, no clock, no randomness (docs/architecture.md "Inside the core").
public enum Navigator {
    /// The outcome of one turn.
    public struct TurnResult: Sendable {
        public var state: SessionState
        public var outcomes: [OperationOutcome]
        /// A UIKit exception or input error inside lifecycle code (``CallbackCode``): the whole
        /// turn failed, `state` is the state it started from and every outcome is this refusal.
        public var failure: Refusal?
        /// The controllers whose value in `state` differs from the turn's input state, or that the
        /// turn created, in the session's order (`state.order`). Known from the engine's writes,
        /// not from comparing every controller, so a caller can store and re-encode just these.
        /// Empty when the turn failed or refused everything.
        public var changedControllers: [ControllerID] = []
        /// The storyboard segues lifecycle code performed, with the destinations they were given,
        /// in the order asked (``SegueDestinations``): what a replay of the turn needs.
        public var resolvedSegues: [Command] = []
        /// The controllers the turn dropped from the session (Release.swift): by an explicit
        /// release, and in `automatic` sessions those nothing holds any more at its end.
        public var released: [ControllerID] = []
    }

    /// Runs `commands` as one run-loop turn: each is validated and applied in order (links change
    /// at once, R27), then the transitions they queued start, and those that are not animated (or
    /// every one, in `immediate` mode) finish. A refused command changes nothing and the others still
    /// run, as in UIKit.
    /// `segues` gives storyboard segues performed inside lifecycle code their destinations.
    public static func run(_ commands: [Command], on state: SessionState, segues: SegueDestinations = .none) -> TurnResult {
        var engine = Engine(state: state)
        engine.callbacks.segues = segues
        for command in commands where engine.callbacks.failure == nil {
            let entry = engine.journal.open()
            // R30: a refused call changes nothing and sends nothing, completion included.
            let snapshot = engine.state
            let pendingCount = engine.pending.count
            let releasedCount = engine.released.count
            let invalidatedCount = engine.propertiesInvalidated.count
            let awaitingCount = engine.splitCallsAwaitingLoad.count
            let startedBeforeGesture = engine.startedBeforeGesture
            do throws(Refusal) {
                try engine.execute(command)
                // A write to a controller the session lacks is the engine's bug, not the client's:
                // the command is rolled back like a refusal and reported as an internal error.
                if let missing = engine.journal[entry].invariantFailures.first {
                    throw Refusal.input(.invariantViolation(missing))
                }
            } catch {
                // A gesture that started the transitions queued before it (``Engine/takeGestureTransition()``)
                // cannot be undone alone: those belong to earlier commands, so the turn fails whole.
                if engine.startedBeforeGesture != startedBeforeGesture {
                    engine.callbacks.failure = error
                    continue
                }
                engine.state = snapshot
                engine.pending.removeLast(engine.pending.count - pendingCount)
                engine.released.removeLast(engine.released.count - releasedCount)
                engine.propertiesInvalidated.removeLast(engine.propertiesInvalidated.count - invalidatedCount)
                engine.splitCallsAwaitingLoad.removeLast(engine.splitCallsAwaitingLoad.count - awaitingCount)
                engine.journal.reject(entry, error)
            }
        }
        engine.endTurn()
        engine.updatePropertiesAtLayout()
        engine.releaseUnheld(before: state)
        if let failure = engine.callbacks.failure {
            let outcome: OperationOutcome
            switch failure {
            case .uikit(let d): outcome = .refused(d)
            case .input(let e): outcome = .invalid(e)
            }
            return TurnResult(state: state, outcomes: commands.map { _ in outcome }, failure: failure)
        }
        return TurnResult(
            state: engine.state, outcomes: engine.journal.outcomes,
            changedControllers: engine.changedControllers(since: state),
            resolvedSegues: engine.callbacks.resolvedSegues, released: engine.released)
    }

    /// A single command as its own turn.
    public static func apply(_ command: Command, to state: SessionState) -> (SessionState, OperationOutcome) {
        let r = run([command], on: state)
        return (r.state, r.outcomes[0])
    }

    /// A new window with `root` installed and appeared, as at app launch (R1). Events of the launch
    /// are not reported.
    public static func makeSession(traits: Traits, options: Options, root: ControllerRef?) -> Result<SessionState, Refusal> {
        makeSessionReporting(traits: traits, options: options, root: root).map(\.state)
    }

    /// ``makeSession(traits:options:root:)`` with what it reported: `window.rootViewController =
    /// root; makeKeyAndVisible()` loads the root's view and its shown children's, and they appear
    /// (R1, R32: viewDidLoad, viewWillAppear, viewIsAppearing, viewDidAppear in UIKit's order).
    /// The result is empty without a root.
    /// `segues` as for ``run(_:on:segues:)``: the root's `viewDidAppear` may perform a segue.
    public static func makeSessionReporting(
        traits: Traits, options: Options, root: ControllerRef?,
        segues: SegueDestinations = .none
    )
        -> Result<(state: SessionState, result: ActionResult), Refusal>
    {
        let state = SessionState(traits: traits, options: options)
        guard let root, root != .none else { return .success((state, ActionResult())) }
        let r = run([.setRoot(root, animated: false)], on: state, segues: segues)
        switch r.outcomes[0] {
        case .applied(let result): return .success((r.state, result))
        case .refused(let d): return .failure(.uikit(d))
        case .invalid(let e): return .failure(.input(e))
        }
    }
}

/// Why a command did not apply.
public enum Refusal: Error, Sendable, Equatable {
    case uikit(Diagnostic)
    case input(CommandError)
}

/// The working copy of a turn: state, the journal of what each command did, transitions queued
/// this turn.
struct Engine {
    var state: SessionState
    var journal = Journal()
    var pending: [Pending] = []
    /// Lifecycle code run so far this turn (``CallbackCode``).
    var callbacks = CallbackProgress()
    /// Every controller id written to or inserted this turn, rolled-back writes included: a
    /// superset of what changed, narrowed by ``changedControllers(since:)``, and the candidates
    /// of the automatic release (Release.swift).
    var touched: Set<ControllerID> = []
    /// Controllers dropped this turn, in the order they went (Release.swift).
    var released: [ControllerID] = []
    /// Transitions loading their views right now, innermost last (``StartingTransition``).
    var starting: [StartingTransition] = []
    /// Transitions whose start is calling their callbacks, innermost last: what a
    /// `transitionCoordinator` registration from that code joins (``CoordinatorHooks``).
    var coordinators: [CoordinatorHooks] = []
    /// R119: controllers `setNeedsUpdateProperties()` invalidated this turn, each with the entry
    /// of the first call, whose reply gets the `updateProperties` of the turn's layout pass.
    var propertiesInvalidated: [(id: ControllerID, entry: Journal.Index)] = []
    /// R170: a split's delegate questions and the moves of its collapse or expansion, held until
    /// the split's view has loaded (UIKit asks them as it lays its view out), with their entry.
    var splitCallsAwaitingLoad: [(split: ControllerID, entry: Journal.Index, events: [Event])] = []
    /// How many times a user's gesture started the transitions queued before it this turn
    /// (``takeGestureTransition()``): a command that did cannot be rolled back alone.
    var startedBeforeGesture = 0

    init(state: SessionState) { self.state = state }

    /// The touched controllers that differ from `original` (or are new), in `state.order`:
    /// compares only what the turn wrote to, never every controller.
    func changedControllers(since original: SessionState) -> [ControllerID] {
        // An array, not `Set.filter`: a turn touches a few controllers, and building a new set
        // costs more than the comparisons.
        var changed: [ControllerID] = []
        for id in touched where state.controllers[id] != original.controllers[id] { changed.append(id) }
        guard !changed.isEmpty else { return [] }
        if changed.count == 1, let only = changed.first, state.controllers[only] != nil { return [only] }
        // A turn changes a few controllers of a session that may hold hundreds (a push on a deep
        // stack changes two): comparing ids against a short list costs less than hashing each.
        if changed.count <= 8 {
            return state.order.filter { changed.contains($0) }
        }
        let set = Set(changed)
        return state.order.filter { set.contains($0) }
    }

    /// The one way the engine changes a stored controller: `self[changing: id].appearance = .appeared`.
    /// An id the session does not have is neither inserted nor trapped on: the write is dropped
    /// and recorded in the current journal entry, which turns the command into an internal error.
    /// Written in place (`_modify`): one lookup, and no copy of the controller out of the
    /// dictionary and back in.
    subscript(changing id: ControllerID) -> Controller {
        get { state.controllers[id] ?? Controller(id: id, kind: .viewController) }
        _modify {
            if let index = state.controllers.index(forKey: id) {
                touched.insert(id)
                yield &state.controllers.values[index]
            } else {
                journal[journal.current].invariantFailures.append(id)
                var dropped = Controller(id: id, kind: .viewController)
                yield &dropped
            }
        }
    }

    /// Changes several members of a stored controller at once (``Controller/change(_:)``), as
    /// `self[changing: id]` does one.
    mutating func change(_ id: ControllerID, _ body: (inout Controller.Fields) -> Void) {
        self[changing: id].change(body)
    }

    /// Records a callback in the entry of the command being executed.
    mutating func emit(_ e: Event) { emit(e, in: journal.current) }

    /// Records a callback in `entry` (a transition's callbacks go to the command that queued it).
    /// The method's own code runs right after it (``runCode(after:in:)``).
    mutating func emit(_ e: Event, in entry: Journal.Index) {
        journal[entry].result.events.append(e)
        runCode(after: e, in: entry)
    }

    var profile: Profile { state.options.profile }

    func name(_ id: ControllerID) -> String { state.c(id).descriptionForMessages }

    func existing(_ id: ControllerID) throws(Refusal) -> Controller {
        guard let c = state.controllers[id] else { throw .input(.unknown(id)) }
        return c
    }

    mutating func execute(_ command: Command) throws(Refusal) {
        switch command {
        case .setRoot(let ref, let animated): try setRoot(ref, animated: animated)
        case .createController(let spec):
            let id = try instantiate(spec)
            journal[journal.current].result.created = id
            // Release.swift: app code keeps what it makes in a variable; the client holds it.
            if state.options.release == .automatic { self[changing: id].isHeldByClient = true }
        case .present(let r, let vc, let style, let ts, let popover, let animated):
            _ = try existing(r)
            try present(
                receiver: r, ref: vc, style: style, transitionStyle: ts, popover: popover,
                animated: animated, reportsCompletion: true, operation: .present)
        case .dismiss(let r, let animated):
            _ = try existing(r)
            try dismiss(receiver: r, animated: animated, reportsCompletion: true)
        // `show(_:sender:)` and `showDetailViewController(_:sender:)` take no animated flag: they animate.
        case .show(let r, let vc, _):
            _ = try existing(r)
            try show(receiver: r, ref: vc, animated: true)
        case .showDetail(let r, let vc, _):
            _ = try existing(r)
            try showDetail(receiver: r, ref: vc, animated: true)
        case .push(let r, let vc, let animated):
            try push(onto: try navigationReceiver(r), ref: vc, animated: animated)
        // What UIKit's call returns (docs/api.md `returned`); gestures, taps and segues return nothing.
        case .pop(let r, let animated):
            returns(try pop(try navigationReceiver(r), animated: animated).map { [$0] })
        case .popToRoot(let r, let animated):
            let nav = try navigationReceiver(r)
            returns(try popTo(nav, target: state.c(nav).viewControllers.first ?? nav, animated: animated))
        case .popTo(let r, let target, let animated):
            let nav = try navigationReceiver(r)
            _ = try existing(target)
            returns(try popTo(nav, target: target, animated: animated))
        case .setViewControllers(let r, let list, let direction, let animated):
            try setViewControllers(try listReceiver(r), list, direction: direction, animated: animated)
        case .select(let r, let index, let vc):
            try select(try containerReceiver(r, .tabBarController), index: index, viewController: vc)
        case .tapTab(let r, let index, let vc):
            try tapTab(try containerReceiver(r, .tabBarController), index: index, viewController: vc)
        case .addChild(let r, let vc): try addChild(r, vc)
        case .removeFromParent(let r): try removeFromParent(r)
        case .willMove(let r, let p):
            _ = try existing(r)
            if let p { _ = try existing(p) }
            emit(.move(r, .willMoveToParent, parent: p))
            if p == nil { self[changing: r].isMovingFromParent = true }
        case .didMove(let r, let p):
            _ = try existing(r)
            if let p { _ = try existing(p) }
            emit(.move(r, .didMoveToParent, parent: p))
            self[changing: r].isMovingToParent = false
            self[changing: r].isMovingFromParent = false
        case .addSubview(let r, let vc, let animated): try addSubview(r, vc, animated: animated)
        case .removeFromSuperview(let r, let animated): try removeFromSuperview(r, animated: animated)
        case .transitionChild(let r, let from, let to, let animated):
            try transitionChild(r, from: from, to: to, animated: animated)
        case .interactiveDismiss(let r, let completes, let tapped):
            _ = try existing(r)
            try interactiveDismiss(r, completes: completes, tappedView: tapped)
        case .interactivePop(let r, let completes, let gesture):
            try interactivePop(try navigationReceiver(r), completes: completes, gesture: gesture)
        case .performSegue(let r, let identifier, let destination, let segue):
            _ = try existing(r)
            try performSegue(r, identifier: identifier, destination: destination, declared: segue, askFirst: false)
        case .triggerSegue(let r, let identifier, let destination, let segue):
            _ = try existing(r)
            try performSegue(r, identifier: identifier, destination: destination, declared: segue, askFirst: true)
        case .updateController(let id, let patch):
            let c = try existing(id)
            if patch.sets("actions") { try checkAlertActions(patch.values.actions, kind: c.kind) }
            try checkContainerProperties(patch, kind: c.kind)
            if patch.values.displayModeButtonVisibility != nil && patch.sets("displayModeButtonVisibility") {
                try requireColumnSplits("displayModeButtonVisibility", field: "displayModeButtonVisibility")
            }
            update(id, patch)
        case .setTraits(let traits): setTraits(traits)
        case .completeTransition(let id):
            do { try completeTransitions(id: id) } catch { throw .input(error) }
        case .cancelTransition(let id):
            do { try cancelTransition(id: id) } catch { throw .input(error) }
        case .release(let id): try release(id)
        case .beginAppearanceTransition(let r, let isAppearing, let animated):
            try beginAppearanceTransition(r, isAppearing: isAppearing, animated: animated)
        case .endAppearanceTransition(let r): try endAppearanceTransition(r)
        case .tapAlertAction(let r, let index, let title, let animated):
            try tapAlertAction(r, index: index, title: title, animated: animated)
        case .dragSheet(let r, let detent):
            _ = try existing(r)
            try dragSheet(r, to: detent)
        case .setNeedsUpdateProperties(let r): try setNeedsUpdateProperties(r)
        case .animateAlongsideTransition(let r): try animateAlongsideTransition(r)
        case .notifyWhenInteractionChanges(let r): try notifyWhenInteractionChanges(r)
        case .turnPage(let r, let direction, let completes): try turnPage(r, direction: direction, completes: completes)
        case .customizeTabs(let r, let order): try customizeTabs(r, order)
        case .showColumn(let r, let c): try showColumn(try containerReceiver(r, .splitViewController), c, hiding: false)
        case .hideColumn(let r, let c): try showColumn(try containerReceiver(r, .splitViewController), c, hiding: true)
        }
    }

    mutating func returns(_ value: [ControllerID]?) {
        journal[journal.current].result.returned = value
        journal[journal.current].result.returnsValue = true
    }

    /// One receiver rule for every container operation, as app code writes it:
    /// `navigationController?.pushViewController(…)`, `tabBarController?.selectedIndex = …`.
    /// An operation sent to a controller of the container's kind goes to it; sent to any other
    /// controller it goes to that controller's nearest ancestor of the kind (R5: along the parent
    /// chain only, never across a presentation). None is a 422 naming the missing container.
    func containerReceiver(_ id: ControllerID, _ kind: ControllerKind) throws(Refusal) -> ControllerID {
        let c = try existing(id)
        if c.kind == kind { return id }
        if let found = state.nearestAncestor(id, kind: kind) { return found }
        // Only navigation, tab bar and split column operations look for an ancestor container this way.
        let (article, property) =
            switch kind {
            case .tabBarController: ("a tab bar controller", "tabBarController")
            case .splitViewController: ("a split view controller", "splitViewController")
            default: ("a navigation controller", "navigationController")
            }
        throw .input(.wrongReceiver("\(c.descriptionForMessages) is not \(article) and has no \(property)."))
    }

    /// push, pop, popTo, popToRoot, interactivePop: the receiver or its `navigationController`.
    func navigationReceiver(_ id: ControllerID) throws(Refusal) -> ControllerID {
        try containerReceiver(id, .navigationController)
    }

    /// `setViewControllers`: a navigation, tab bar or page view controller takes it itself (R80,
    /// R84, R94); any other controller passes it to its nearest ancestor of those kinds, the
    /// container whose list holds it (`navigationController?`, `tabBarController?`). None is a 422.
    func listReceiver(_ id: ControllerID) throws(Refusal) -> ControllerID {
        let c = try existing(id)
        let kinds: Set<ControllerKind> = [.navigationController, .tabBarController, .pageViewController]
        if kinds.contains(c.kind) { return id }
        if let found = state.ancestors(id).dropFirst().first(where: { state.controllers[$0].map { kinds.contains($0.kind) } ?? false }) {
            return found
        }
        throw .input(.wrongReceiver("setViewControllers needs a navigation, tab bar or page view controller; \(c.descriptionForMessages) is none and has none above it."))
    }

    /// `PATCH …/controllers/{cid}`: sets the patch's properties as code does at run time.
    mutating func update(_ id: ControllerID, _ p: ControllerPatch) {
        var c = state.c(id)
        let old = c.configuration
        c.configuration = p.applied(to: old)
        // R174: a split's delegate is kept with its columns, where collapsing reads it.
        if p.sets("splitDelegate") {
            let delegate = c.configuration.splitDelegate
            c.splitState?.setDelegate(delegate)
            c.configuration.splitDelegate = nil
        }
        let overrides = c.traitOverrides
        c.traitOverrides = old.traitOverrides
        self[changing: id] = c
        // R52/R74: new overrides re-run adaptivity below this controller.
        if overrides != old.traitOverrides {
            touched.insert(id)
            changeTraits { $0.controllers[id]?.traitOverrides = overrides }
        }
    }
}

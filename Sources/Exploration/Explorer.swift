public import NavigationCore
public import Storyboards

/// `navsim explore` without the command line (docs/explore.md): a breadth-first search over the
/// core's pure `apply` from the entry storyboard's initial scene installed as the window's root.
/// Each state is the session's hierarchy in a canonical form, hashed (``Canonical``): a state
/// reached twice is expanded once, and only the hashes, each state's parent and the action that
/// reached it are kept, so memory grows with the states, not with their sessions. No I/O.
public struct Explorer: Sendable {
    /// The storyboards, with the custom segue and class declarations that apply.
    public var instantiation: SceneInstantiation
    /// The storyboard whose initial scene becomes the window's root.
    public var entry: String
    /// The storyboards whose segues and scenes are counted and reported (the files given).
    public var reported: [String]
    /// The window's traits.
    public var traits: Traits
    /// The session's options; transitions always finish within their call and controllers
    /// nothing holds are dropped, so that a state is its settled hierarchy.
    public var options: Options
    /// At most this many distinct states.
    public var maxStates: Int
    /// At most this many actions from the entry.
    public var maxDepth: Int
    /// Threads that expand states at once (the machine's cores, for the command line).
    public var workers: Int
    /// Also try each pair of actions of a state in one run-loop turn (a double tap): what UIKit
    /// refuses or logs only because the first one's transition is still in progress.
    public var races: Bool

    /// Scenes one instantiation may build (a scene embedding the next twice at every level would
    /// otherwise grow as 2ⁿ).
    static let sceneBudget = 2_000

    public init(
        instantiation: SceneInstantiation, entry: String, reported: [String], traits: Traits = .phonePortrait,
        options: Options = Options(), maxStates: Int = 10_000, maxDepth: Int = 30, workers: Int = 1, races: Bool = false
    ) {
        self.races = races
        self.workers = max(1, workers)
        self.instantiation = instantiation
        self.entry = entry
        self.reported = reported
        self.traits = traits
        var settled = options
        settled.transitions = .immediate
        settled.release = .automatic
        self.options = settled
        self.maxStates = max(1, maxStates)
        self.maxDepth = max(0, maxDepth)
    }

    /// The session options flows must create their session with to replay the same steps.
    public var sessionOptions: Options { options }

    // MARK: - Start

    /// The state the search starts from: the entry's initial scene as the window's root (R1, R102).
    public func initialState() throws(ExploreError) -> SessionState {
        var built = 0
        let spec: ControllerSpec?
        do {
            spec = try instantiation.instantiate(
                storyboard: entry, identifier: nil,
                budget: { (_: Int, _: String) throws(BuildFailure) in
                    built += 1
                    if built > Self.sceneBudget { throw BuildFailure.tooManyScenes }
                }, failure: { BuildFailure.instantiation($0) })
        } catch {
            throw .entryFailed(entry, error.description)
        }
        guard let spec else { throw .noEntryPoint(entry) }
        switch Navigator.makeSession(traits: traits, options: options, root: .new(spec)) {
        case let .success(state): return state
        case let .failure(refusal): throw .entryFailed(entry, Self.describe(refusal))
        }
    }

    static func describe(_ refusal: Refusal) -> String {
        switch refusal {
        case let .uikit(d): "\(d.code.map { "\($0): " } ?? "")\(d.message)"
        case let .input(e): e.message
        }
    }

    // MARK: - Actions

    /// What a user or the storyboard can do in `state`, in a fixed order: for each controller
    /// whose view is on screen and not covered by a presentation (lower layers first, parents
    /// before children), the segues its scene's controls trigger, the back button and swipe of a
    /// navigation controller deeper than its root, each tab of a tab bar controller; then the
    /// swipe down on the top sheet or the tap outside the top popover.
    public func actions(in state: SessionState) -> [ExploreAction] {
        guard let root = state.rootViewController else { return [] }
        var top = root
        var hops = 0
        while let p = state.controllers[top]?.presentedID, state.controllers[p] != nil, hops < 10_000 {
            top = p
            hops += 1
        }
        var out: [ExploreAction] = []
        for id in state.settledViewsInWindow where state.isWithin(id, top) {
            guard let c = state.controllers[id] else { continue }
            if let origin = c.storyboard, let scene = scene(of: c) {
                for segue in scene.segues where Self.isTransition(segue) && !segue.isManual && segue.destination != nil {
                    out.append(.trigger(id, segue: segue.id, storyboard: origin.name, scene: scene.id))
                }
            }
            switch c.kind {
            case .navigationController where c.viewControllers.count > 1:
                out.append(.back(id))
                out.append(.swipeBack(id))
            case .tabBarController:
                // R88: past the bar's visible tabs the rest sit in More; only the visible ones are tapped.
                let count = c.viewControllers.count
                let visible = count > options.profile.maxVisibleTabs(traits) ? options.profile.maxVisibleTabs(traits) - 1 : count
                for index in 0..<visible { out.append(.tapTab(id, index: index)) }
            default:
                break
            }
        }
        if top != root, let record = state.controllers[top]?.presentation, record.style.isUserDismissible {
            out.append(.swipeDown(top))
        }
        return out
    }

    /// Segues that move between scenes: not containment (relationship, embed).
    static func isTransition(_ segue: Segue) -> Bool { segue.kind != .relationship && segue.kind != .embed }

    /// The scene a controller was instantiated from: its Storyboard ID, else its id without the
    /// `~N` suffix the core appends to a repeated instance.
    func scene(of c: Controller) -> Scene? {
        guard let origin = c.storyboard, let storyboard = instantiation.library[origin.name] else { return nil }
        if let identifier = origin.identifier, let scene = storyboard.scene(withStoryboardIdentifier: identifier) { return scene }
        return storyboard.scene(id: String(Canonical.baseID(c.id)))
    }

    // MARK: - Applying

    /// What one action did.
    enum Applied: Sendable {
        case applied(SessionState, ActionResult, destination: ControllerSpec?)
        case refused(Diagnostic)
        case notApplied(String)
    }

    /// Applies `action` to `state` as its own turn; a segue's destination scene is instantiated as
    /// the service does (`SceneInstantiation.resolveSegue`).
    func apply(_ action: ExploreAction, to state: SessionState) -> Applied {
        if case let .race(first, second) = action {
            // Both destinations come from the session as the turn begins, as the turns route finds them.
            let a: Command
            let b: Command
            switch (command(for: first, in: state), command(for: second, in: state)) {
            case let (.success(x), .success(y)): (a, b) = (x.command, y.command)
            case let (.failure(why), _), let (_, .failure(why)): return why.applied
            }
            let turn = Navigator.run([a, b], on: state)
            guard case .applied = turn.outcomes[0] else { return .notApplied("the first action is refused") }
            switch turn.outcomes[1] {
            case let .applied(result): return .applied(turn.state, result, destination: nil)
            case let .refused(d): return .refused(d)
            case let .invalid(e): return .notApplied(e.message)
            }
        }
        let command: Command
        let destination: ControllerSpec?
        switch self.command(for: action, in: state) {
        case let .success(made): (command, destination) = (made.command, made.destination)
        case let .failure(why): return why.applied
        }
        let turn = Navigator.run([command], on: state)
        switch turn.outcomes[0] {
        case let .applied(result): return .applied(turn.state, result, destination: destination)
        case let .refused(d): return .refused(d)
        case let .invalid(e): return .notApplied(e.message)
        }
    }

    /// What wraps a failure to build a command: `Applied` is no `Error`, so it travels in this.
    struct NotBuilt: Error {
        var applied: Applied
    }

    /// The core command for one action on `state`, a segue's destination scene instantiated.
    func command(for action: ExploreAction, in state: SessionState) -> Result<(command: Command, destination: ControllerSpec?), NotBuilt> {
        switch action {
        case let .trigger(receiver, segue, _, _):
            var built = 0
            let command: Command
            do {
                command = try instantiation.resolveSegue(
                    .triggerSegue(receiver: receiver, identifier: segue, destination: nil), in: state,
                    budget: { (_: Int, _: String) throws(BuildFailure) in
                        built += 1
                        if built > Self.sceneBudget { throw BuildFailure.tooManyScenes }
                    }, failure: { BuildFailure.instantiation($0) })
            } catch {
                if case let .instantiation(.uikit(d)) = error { return .failure(NotBuilt(applied: .refused(d))) }
                return .failure(NotBuilt(applied: .notApplied(error.description)))
            }
            if case let .triggerSegue(_, _, d, _) = command { return .success((command, d)) }
            return .success((command, nil))
        case let .back(nav): return .success((.pop(receiver: nav, animated: true), nil))
        case let .swipeBack(nav): return .success((.interactivePop(receiver: nav, completes: true, gesture: .edge), nil))
        case let .tapTab(tabs, index): return .success((.tapTab(receiver: tabs, index: index, viewController: nil), nil))
        case let .swipeDown(v): return .success((.interactiveDismiss(receiver: v, completes: true), nil))
        case .race: return .failure(NotBuilt(applied: .notApplied("a race is a turn of two actions, not one command")))
        }
    }

    /// The state `action` leads to from `state`, nil when it is refused or not applied.
    public func perform(_ action: ExploreAction, on state: SessionState) -> SessionState? {
        if case let .applied(next, _, _) = apply(action, to: state) { return next }
        return nil
    }

    /// The steps of `actions` played from the initial state, each with what its reply shows; the
    /// play stops after a step that is refused or not applied.
    public func steps(_ actions: [ExploreAction]) throws(ExploreError) -> [ExploreStep] {
        try steps(actions, from: initialState())
    }

    func steps(_ actions: [ExploreAction], from initial: SessionState) -> [ExploreStep] {
        var state = initial
        var out: [ExploreStep] = []
        for action in actions {
            var step = ExploreStep(
                action: action, body: action.body, events: [], visibleViewController: nil, rootViewController: nil,
                refusal: nil, warnings: [])
            switch apply(action, to: state) {
            case let .applied(next, result, _):
                state = next
                step.events = result.events.map { "\($0.controller).\($0.callback.rawValue)" }
                step.warnings = result.warnings.map { $0.code ?? $0.slug }
                step.visibleViewController = state.visibleViewController
                step.rootViewController = state.rootViewController
                out.append(step)
            case let .refused(d):
                step.refusal = d
                out.append(step)
                return out
            case .notApplied:
                out.append(step)
                return out
            }
        }
        return out
    }
}

/// Why the search could not start.
public enum ExploreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The entry storyboard has no initial view controller (R102).
    case noEntryPoint(String)
    /// Its initial scene cannot be instantiated or installed.
    case entryFailed(String, String)

    public var description: String {
        switch self {
        case let .noEntryPoint(name): "the storyboard '\(name)' has no initial view controller to start from"
        case let .entryFailed(name, why): "the initial scene of '\(name)' cannot be installed: \(why)"
        }
    }
}

/// A scene that could not be built for a segue or the entry.
enum BuildFailure: Error, CustomStringConvertible {
    case instantiation(InstantiationFailure)
    case tooManyScenes

    var description: String {
        switch self {
        case let .instantiation(.uikit(d)): "\(d.code.map { "\($0): " } ?? "")\(d.message)"
        case let .instantiation(.unresolved(error, address)): "\(address): \(error)"
        case let .instantiation(.relationshipCycle(cycle)): "containment cycle \(cycle.map(\.description).joined(separator: " → "))"
        case let .instantiation(other): "\(other)"
        case .tooManyScenes: "the destination builds more than \(Explorer.sceneBudget) scenes"
        }
    }
}

import Testing
@testable import NavigationCore

// Test vocabulary for the core. Expectations in the suites come from
// ../shared/spec/uikit-semantics.md; these helpers only build controllers, run commands and
// render what the core reports in the spec's notation (`B.viewDidLoad`, `B.willMoveToParent(N)`).

// MARK: - Building controllers

/// A new controller (`MyViewController()`), configured in place.
func make(
    _ id: ControllerID, _ kind: ControllerKind = .viewController,
    _ configure: (inout ControllerSpec) -> Void = { _ in }
) -> ControllerRef {
    var spec = ControllerSpec(id: id, kind: kind)
    configure(&spec)
    return .new(spec)
}

/// A plain view controller.
func vc(_ id: ControllerID, _ configure: (inout ControllerSpec) -> Void = { _ in }) -> ControllerRef {
    make(id, .viewController, configure)
}

/// `N[A,B]`: a navigation controller with a stack, bottom first.
func nav(_ id: ControllerID, _ stack: ControllerRef..., configure: (inout ControllerSpec) -> Void = { _ in }) -> ControllerRef {
    make(id, .navigationController) {
        $0.viewControllers = stack
        configure(&$0)
    }
}

/// `T{A,B,C; sel=i}`.
func tabs(_ id: ControllerID, _ tabs: [ControllerRef], selected: Int? = nil) -> ControllerRef {
    make(id, .tabBarController) {
        $0.viewControllers = tabs
        $0.selectedIndex = selected
    }
}

/// A classic split view controller `S{primary, secondary}`.
func split(
    _ id: ControllerID, primary: ControllerRef, secondary: ControllerRef?,
    collapseSecondaryOntoPrimary: Bool? = nil
) -> ControllerRef {
    make(id, .splitViewController) {
        $0.primary = primary
        $0.secondary = secondary
        $0.splitStyle = .unspecified
        $0.collapseSecondaryOntoPrimary = collapseSecondaryOntoPrimary
    }
}

/// A column-style split view controller (R90): `init(style:)` and `setViewController(_:for:)`
/// for each given column; `top` is the delegate's `topColumnForCollapsingToProposedTopColumn`
/// answer, `collapseSecondaryOntoPrimary` the classic-only delegate answer.
func columnSplit(
    _ id: ControllerID, _ style: SplitState.Style = .doubleColumn, primary: ControllerRef,
    supplementary: ControllerRef? = nil, secondary: ControllerRef?, top: SplitState.Column? = nil,
    collapseSecondaryOntoPrimary: Bool? = nil
) -> ControllerRef {
    make(id, .splitViewController) {
        $0.splitStyle = style
        $0.primary = primary
        $0.supplementary = supplementary
        $0.secondary = secondary
        $0.topColumnForCollapsing = top
        $0.collapseSecondaryOntoPrimary = collapseSecondaryOntoPrimary
    }
}

/// A custom container whose children's views are inserted in its view.
func container(_ id: ControllerID, children: [ControllerRef]) -> ControllerRef {
    make(id, .viewController) { $0.children = children }
}

let iPhonePortrait = Traits(userInterfaceIdiom: .phone, horizontalSizeClass: .compact, verticalSizeClass: .regular)
let iPhoneLandscape = Traits(userInterfaceIdiom: .phone, horizontalSizeClass: .compact, verticalSizeClass: .compact)
let iPadRegular = Traits(userInterfaceIdiom: .pad, horizontalSizeClass: .regular, verticalSizeClass: .regular)
let iPadCompactWidth = Traits(userInterfaceIdiom: .pad, horizontalSizeClass: .compact, verticalSizeClass: .regular)

let manual = Options(iOS: .iOS17, transitions: .manual)

// MARK: - Commands, spelled as the UIKit calls

enum Op {
    static func present(
        _ receiver: ControllerID, _ v: ControllerRef, _ style: PresentationStyle? = nil,
        transition: TransitionStyle? = nil, popover: PopoverAnchor? = nil,
        animated: Bool = true
    ) -> Command {
        .present(
            receiver: receiver, viewController: v, style: style, transitionStyle: transition,
            popover: popover, animated: animated)
    }
    static func dismiss(_ receiver: ControllerID, animated: Bool = true) -> Command {
        .dismiss(receiver: receiver, animated: animated)
    }
    static func push(_ receiver: ControllerID, _ v: ControllerRef, animated: Bool = true) -> Command {
        .push(receiver: receiver, viewController: v, animated: animated)
    }
    static func pop(_ receiver: ControllerID, animated: Bool = true) -> Command {
        .pop(receiver: receiver, animated: animated)
    }
    static func popTo(_ receiver: ControllerID, _ target: ControllerID, animated: Bool = true) -> Command {
        .popTo(receiver: receiver, viewController: target, animated: animated)
    }
    static func popToRoot(_ receiver: ControllerID, animated: Bool = true) -> Command {
        .popToRoot(receiver: receiver, animated: animated)
    }
    static func setViewControllers(
        _ receiver: ControllerID, _ list: [ControllerRef], direction: PageDirection? = nil,
        animated: Bool = true
    ) -> Command {
        .setViewControllers(receiver: receiver, viewControllers: list, direction: direction, animated: animated)
    }
    static func show(_ receiver: ControllerID, _ v: ControllerRef) -> Command {
        .show(receiver: receiver, viewController: v, animated: true)
    }
    static func showDetail(_ receiver: ControllerID, _ v: ControllerRef) -> Command {
        .showDetail(receiver: receiver, viewController: v, animated: true)
    }
    static let tick = Command.completeTransition(id: nil)
}

/// An existing controller argument.
func id(_ id: ControllerID) -> ControllerRef { .existing(id) }

// MARK: - Rendering events

/// `B.viewDidLoad`, `B.willMoveToParent(N)`, `B.didMoveToParent(nil)`, `A.unwindAction(unwindToA:)`.
func render(_ e: Event) -> String {
    switch e.callback {
    case .willMoveToParent, .didMoveToParent:
        return "\(e.controller).\(e.callback.rawValue)(\(e.parent ?? "nil"))"
    case .unwindAction:
        return "\(e.controller).unwindAction(\(e.action ?? "?"))"
    case .navigationControllerAnimationControllerFor:
        return "\(e.controller).navigationControllerAnimationControllerFor(\(e.operation?.rawValue ?? "?"))"
    case .animateAlongsideTransitionCompletion, .notifyWhenInteractionChanges:
        return "\(e.controller).\(e.callback.rawValue)(isCancelled: \(e.isCancelled.map(String.init) ?? "?"))"
    case .canPerformUnwindSegueAction:
        return "\(e.controller).canPerformUnwindSegueAction(\(e.action ?? "?"))"
    case .unwindForTowards:
        return "\(e.controller).unwindForTowards(\(e.towards ?? "?"))"
    case .pageViewControllerWillTransitionTo, .pageViewControllerDidFinishAnimating, .tabBarControllerWillBeginCustomizing,
        .tabBarControllerWillEndCustomizing, .tabBarControllerDidEndCustomizing:
        // The delegate's controllers argument, then `transitionCompleted` or `changed` (R130–R133).
        let list = (e.viewControllers ?? []).joined(separator: ",")
        return "\(e.controller).\(e.callback.rawValue)([\(list)]\(e.completed.map { ", \($0)" } ?? ""))"
    default:
        // R121: the column argument of `splitViewController(_:willShow:)` / `(_:willHide:)`.
        if let c = e.column { return "\(e.controller).\(e.callback.rawValue)(\(c.rawValue))" }
        return "\(e.controller).\(e.callback.rawValue)"
    }
}

func names(_ events: [Event]) -> [String] { events.map(render) }

/// An appearance callback as the core reports it, with its `animated` argument.
func appearanceEvent(_ controller: ControllerID, _ callback: Event.Callback, animated: Bool) -> Event {
    Event(controller, callback, animated: animated)
}

/// `willMove(toParent:)` / `didMove(toParent:)` with its parent argument (nil is UIKit's nil).
func moveEvent(_ controller: ControllerID, _ callback: Event.Callback, parent: ControllerID?) -> Event {
    .move(controller, callback, parent: parent)
}

/// `viewWillAppear` + `viewIsAppearing` (iOS 17 profile, §0.5).
func willAppear(_ controller: ControllerID, animated: Bool) -> [Event] {
    [Event(controller, .viewWillAppear, animated: animated), Event(controller, .viewIsAppearing, animated: animated)]
}
func names(_ result: ActionResult) -> [String] { names(result.events) }

let appearanceCallbacks: Set<Event.Callback> = [
    .viewWillAppear, .viewIsAppearing, .viewDidAppear, .viewWillDisappear, .viewDidDisappear,
]

/// The events about one controller, in order.
func of(_ controller: ControllerID, _ events: [String]) -> [String] {
    events.filter { $0.hasPrefix(controller + ".") }
}

/// Drops `viewIsAppearing`: for the transitions where the spec leaves its place open (tab switch,
/// page scroll, cancelled gestures, §0.5).
func withoutIsAppearing(_ events: [String]) -> [String] {
    events.filter { !$0.hasSuffix(".viewIsAppearing") }
}

/// Only the appearance callbacks (will/is/did appear/disappear).
func appearance(_ events: [Event]) -> [String] {
    names(events.filter { appearanceCallbacks.contains($0.callback) })
}

/// The spec's `{ }` notation: `groups` in order, each group's members in any order.
func expectGroups(_ actual: [String], _ groups: [[String]], sourceLocation: SourceLocation = #_sourceLocation) {
    let total = groups.reduce(0) { $0 + $1.count }
    guard actual.count == total else {
        Issue.record("expected \(total) events \(groups), got \(actual.count): \(actual)", sourceLocation: sourceLocation)
        return
    }
    var index = 0
    for group in groups {
        let chunk = Array(actual[index..<(index + group.count)])
        if chunk.sorted() != group.sorted() {
            Issue.record("expected \(group) (any order) at \(index), got \(chunk) in \(actual)", sourceLocation: sourceLocation)
            return
        }
        index += group.count
    }
}

// MARK: - A window under test

/// One session: applies commands and checks that each is accepted or refused as the test says.
/// Without `options` it reproduces iOS 17, the release these tests were written for, whatever
/// `IOSRelease.default` is.
struct Window {
    var state: SessionState

    init(
        root: ControllerRef?, traits: Traits = .phonePortrait, options: Options = Options(iOS: .iOS17),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        switch Navigator.makeSession(traits: traits, options: options, root: root) {
        case .success(let s): state = s
        case .failure(let refusal):
            Issue.record("makeSession refused: \(refusal)", sourceLocation: sourceLocation)
            state = SessionState(traits: traits, options: options)
        }
    }

    /// Applies an operation that must be accepted; returns its result.
    @discardableResult
    mutating func perform(
        _ command: Command, segues: SegueDestinations = .none,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ActionResult {
        let r = Navigator.run([command], on: state, segues: segues)
        expectChangedControllersExact(state, r, sourceLocation: sourceLocation)
        let (next, outcome) = (r.state, r.outcomes[0])
        guard case .applied(let result) = outcome else {
            Issue.record("expected \(command) to apply, got \(outcome)", sourceLocation: sourceLocation)
            return ActionResult()
        }
        state = next
        return result
    }

    /// Events of an operation plus those of the tick that finishes it (manual mode).
    mutating func performAndTick(_ command: Command, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        let first = perform(command, sourceLocation: sourceLocation)
        let second = perform(Op.tick, sourceLocation: sourceLocation)
        return names(first) + names(second)
    }

    /// Applies an operation UIKit must refuse; checks that nothing changed; returns the diagnostic.
    mutating func refuse(_ command: Command, sourceLocation: SourceLocation = #_sourceLocation) -> Diagnostic? {
        let (next, outcome) = Navigator.apply(command, to: state)
        guard case .refused(let d) = outcome else {
            Issue.record("expected \(command) to be refused, got \(outcome)", sourceLocation: sourceLocation)
            state = next
            return nil
        }
        // Every path that moved is listed (Exhaustive.swift), not just "the states differ".
        expectSameState(state, next, "a refused operation changes nothing (R30, §20.5)", sourceLocation: sourceLocation)
        return d
    }

    /// One run-loop turn.
    mutating func turn(_ commands: [Command], sourceLocation: SourceLocation = #_sourceLocation) -> [OperationOutcome] {
        let r = Navigator.run(commands, on: state)
        expectChangedControllersExact(state, r, sourceLocation: sourceLocation)
        state = r.state
        return r.outcomes
    }

    subscript(_ id: ControllerID) -> Controller {
        guard let c = state[id] else {
            Issue.record("no controller \(id)")
            return Controller(id: id, kind: .viewController)
        }
        return c
    }

    func presenting(_ id: ControllerID) -> ControllerID? { state.presentingViewController(id) }
    func presented(_ id: ControllerID) -> ControllerID? { state.presentedViewController(id) }
    func style(_ id: ControllerID) -> PresentationStyle? { state[id]?.presentation?.style }
    func stack(_ id: ControllerID) -> [ControllerID] { state[id]?.viewControllers ?? [] }
    func isAppeared(_ id: ControllerID) -> Bool { state[id]?.appearance == .appeared }
    func isDisappeared(_ id: ControllerID) -> Bool { state[id]?.appearance == .disappeared }
    var running: [TransitionRecord] { state.transitions.map(\.record) }

    /// R2 invariants (``relationshipProblems(_:)``), each problem an issue.
    func checkInvariants(sourceLocation: SourceLocation = #_sourceLocation) {
        for problem in relationshipProblems(state) { Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation) }
    }
}

/// R2 as checks on a state: the parent chain of every controller ends within the session's
/// size; a parent lists its children and every listed child names that parent, once; every
/// navigation stack entry is a child; a presented controller has no parent, its presenter points
/// back, and a presenter's presented controller has the matching record; the root has no parent
/// and is not presented.
func relationshipProblems(_ state: SessionState) -> [String] {
    var problems: [String] = []
    for c in state.controllers.values.sorted(by: { $0.id < $1.id }) {
        var hops = 0
        var current = c.parent
        while let p = current, hops <= state.controllers.count {
            hops += 1
            current = state.controllers[p]?.parent
        }
        if hops > state.controllers.count { problems.append("a parent cycle through \(c.id)") }
        // R2: the links agree both ways. A tab bar's More navigation controller is the
        // exception: it has the tab bar as parent but is not among its `children` (R88).
        if let p = c.parent, let parent = state.controllers[p], !parent.children.contains(c.id),
            parent.moreNavigationController != c.id
        {
            problems.append("\(c.id)'s parent \(p) does not list it")
        }
        for child in c.children where state.controllers[child]?.parent != c.id {
            problems.append("\(c.id) lists \(child), whose parent is \(state.controllers[child]?.parent ?? "nil")")
        }
        if Set(c.children).count != c.children.count { problems.append("\(c.id) lists a child twice") }
        if c.kind == .navigationController {
            for entry in c.viewControllers where !c.children.contains(entry) {
                problems.append("stack entry \(entry) of \(c.id) is not its child")
            }
        }
        if let record = c.presentation {
            if c.parent != nil { problems.append("presented \(c.id) has a parent") }
            if state.controllers[record.presenting]?.presentedID != c.id { problems.append("\(record.presenting) does not point back to \(c.id)") }
        }
        if let v = c.presentedID, state.controllers[v]?.presentation?.presenting != c.id {
            problems.append("\(c.id).presentedID \(v) has no matching record")
        }
    }
    if let root = state.rootViewController {
        if state.controllers[root]?.presentation != nil { problems.append("the root is presented") }
        if state.controllers[root]?.parent != nil { problems.append("the root has a parent") }
    }
    return problems
}

extension OperationOutcome {
    var diagnostic: Diagnostic? {
        if case .refused(let d) = self { return d }
        return nil
    }
    var result: ActionResult? {
        if case .applied(let r) = self { return r }
        return nil
    }
}

/// `<UIViewController: A>`: how messages name a controller (docs/api.md).
func desc(_ id: ControllerID, _ kind: ControllerKind = .viewController) -> String {
    "<\(kind.uikitClass): \(id)>"
}

/// Asserts every field of a diagnostic the spec fixes (§17 and docs/api.md slugs).
func expectDiagnostic(
    _ d: Diagnostic?, code: String?, slug: String, severity: Diagnostic.Severity,
    name: String?, message: String?, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let d else {
        Issue.record("no diagnostic (expected \(code))", sourceLocation: sourceLocation)
        return
    }
    #expect(d.code == code, sourceLocation: sourceLocation)
    #expect(d.slug == slug, sourceLocation: sourceLocation)
    #expect(d.severity == severity, sourceLocation: sourceLocation)
    #expect(d.name == name, sourceLocation: sourceLocation)
    if let message { #expect(d.message == message, sourceLocation: sourceLocation) }
}

extension Window: CustomTestStringConvertible {
    /// Keeps failure messages short: the whole session is rarely what a reader needs.
    var testDescription: String { "Window(root: \(state.rootViewController ?? "nil"), \(state.controllers.count) controllers)" }
}

import NavigationCore
public import Storyboards

/// How much one request may make the server build or keep: bounds that keep every request's
/// CPU and memory proportional to its size. Exceeding one is a 422 `limit-exceeded` problem
/// naming the limit (``Problem/limitExceeded(_:max:detail:)``) and changes nothing.
///
/// The defaults are far above what real apps reach (figures from the 64-file storyboard corpus
/// and UIKit practice) and low enough that the worst request stays within tens of milliseconds.
/// Every value is configurable by a `navsim serve` flag and its environment variable.
public struct Limits: Sendable, Equatable {
    /// Controllers alive in one session (`controllersPerSession`, default 1,000). A real
    /// window holds tens; the largest corpus storyboard has fewer than 200 scenes. Every reply
    /// carries the whole session, whose encoding costs CPU in proportion to its controllers, so
    /// this bound is what keeps any request on a session short.
    public var controllersPerSession: Int
    /// View controllers on one navigation stack (`navigationStackDepth`, default 64). Apps
    /// rarely go past 10; a drill-down 64 deep is already unusable.
    public var navigationStackDepth: Int
    /// View controllers of one tab bar controller (`tabsPerTabBar`, default 64; UIKit shows 5 and
    /// lists the rest under More, R88).
    public var tabsPerTabBar: Int
    /// Entries in one list of a spec, patch or operation: ControllerSpecs in `viewControllers`
    /// and `children`, strings in `unwindActions`, segues in `shouldPerformSegue`
    /// (`specWidth`, default 256).
    public var specWidth: Int
    /// ControllerSpecs nested inside one another, through JSON or storyboard relationship and
    /// embed segues (`specDepth`, default 64; real storyboards nest 4 deep: split → tab → nav → root).
    public var specDepth: Int
    /// Operations in one `POST …/turns` (`operationsPerTurn`, default 100). Each operation runs
    /// the core on the whole session; a turn scripts a user's
    /// gesture or two, not a batch import.
    public var operationsPerTurn: Int
    /// Arrays and objects in one JSON body (`jsonContainers`, default 100,000). Each is an
    /// allocation, and 1 MiB of `[[[…]]]` holds 500,000; the largest
    /// request within the other limits (a turn of 100 operations, 256 specs per array) needs a
    /// few thousand.
    public var jsonContainers: Int
    /// Arrays and objects nested inside one another in a JSON body (`jsonDepth`, default 64):
    /// the parser recurses once per level, and no request needs more than `specDepth` plus a few.
    public var jsonDepth: Int
    /// What the storyboard parser accepts: document bytes, attributes per element, elements, nesting.
    public var storyboard: StoryboardParser.Limits

    /// - Parameters: see the properties; the defaults are the documented ones.
    public init(
        controllersPerSession: Int = 1_000, navigationStackDepth: Int = 64, tabsPerTabBar: Int = 64,
        specWidth: Int = 256, specDepth: Int = 64, operationsPerTurn: Int = 100, jsonContainers: Int = 100_000, jsonDepth: Int = 64,
        storyboard: StoryboardParser.Limits = StoryboardParser.Limits()
    ) {
        self.controllersPerSession = controllersPerSession
        self.navigationStackDepth = navigationStackDepth
        self.tabsPerTabBar = tabsPerTabBar
        self.specWidth = specWidth
        self.specDepth = specDepth
        self.operationsPerTurn = operationsPerTurn
        self.jsonContainers = jsonContainers
        self.jsonDepth = jsonDepth
        self.storyboard = storyboard
    }

    /// The documented defaults.
    public static let defaults = Limits()

    /// Checks a session after a request ran, before it is committed: the controller count, every
    /// navigation stack and every tab bar. The decoder already bounded how much the request could
    /// create, so this walk is the only work an over-limit request costs.
    /// `changed`, when given, are the only controllers whose stacks or tabs can differ from a
    /// state that passed this check (``Navigator/TurnResult/changedControllers``): only those
    /// are walked, so a push on a deep stack does not read every controller of the session.
    /// - Throws: 422 `limit-exceeded` naming the first limit exceeded.
    func check(_ state: SessionState, changed: [ControllerID]? = nil) throws(Problem) {
        if state.controllers.count > controllersPerSession {
            throw Problem.limitExceeded(
                "controllersPerSession", max: controllersPerSession,
                detail: "The session would hold \(state.controllers.count) controllers; at most \(controllersPerSession) are allowed.")
        }
        for id in changed ?? state.order {
            guard let c = state.controllers[id] else { continue }
            switch c.kind {
            case .navigationController where c.viewControllers.count > navigationStackDepth:
                throw Problem.limitExceeded(
                    "navigationStackDepth", max: navigationStackDepth,
                    detail: "The navigation stack of '\(id)' would hold \(c.viewControllers.count) view controllers; at most \(navigationStackDepth) are allowed.")
            case .tabBarController where c.viewControllers.count > tabsPerTabBar:
                throw Problem.limitExceeded(
                    "tabsPerTabBar", max: tabsPerTabBar,
                    detail: "The tab bar controller '\(id)' would hold \(c.viewControllers.count) view controllers; at most \(tabsPerTabBar) are allowed.")
            default: break
            }
        }
    }
}

/// What one request may still create while it is decoded: every ControllerSpec taken from JSON
/// or instantiated from a storyboard is counted as it is built, so a request over the limit is
/// refused after at most `controllersPerSession` specs of work, never after building them all.
/// One per request; not shared between threads.
final class SpecBudget {
    let limits: Limits
    /// Specs this request may still create.
    private(set) var remaining: Int

    /// - Parameter existing: controllers the session already holds.
    init(_ limits: Limits, existing: Int) {
        self.limits = limits
        self.remaining = max(0, limits.controllersPerSession - existing)
    }

    /// Counts one new spec at nesting `depth` (0 at the top).
    /// - Throws: 422 `limit-exceeded` for `controllersPerSession` or `specDepth`.
    func take(depth: Int, path: String) throws(Problem) {
        guard depth < limits.specDepth else {
            throw Problem.limitExceeded(
                "specDepth", max: limits.specDepth,
                detail: "ControllerSpecs at \(path.isEmpty ? "the body" : path) nest more than \(limits.specDepth) deep.")
        }
        guard remaining > 0 else {
            throw Problem.limitExceeded(
                "controllersPerSession", max: limits.controllersPerSession,
                detail: "The request would bring the session over \(limits.controllersPerSession) controllers (at \(path.isEmpty ? "the body" : path)).")
        }
        remaining -= 1
    }

    /// Checks the entries of one list or map of a spec or patch (`unwindActions`,
    /// `shouldPerformSegue`): each is kept with the controller and encoded in every reply.
    /// - Throws: 422 `limit-exceeded` for `specWidth`.
    func checkEntries(_ count: Int, path: String) throws(Problem) {
        guard count <= limits.specWidth else {
            throw Problem.limitExceeded(
                "specWidth", max: limits.specWidth,
                detail: "\(path) has \(count) entries; at most \(limits.specWidth) are allowed in one list of a controller.")
        }
    }

    /// Checks the length of one array of ControllerSpecs.
    /// - Throws: 422 `limit-exceeded` for `specWidth`.
    func checkWidth(_ count: Int, path: String) throws(Problem) {
        guard count <= limits.specWidth else {
            throw Problem.limitExceeded(
                "specWidth", max: limits.specWidth,
                detail: "\(path) has \(count) ControllerSpecs; at most \(limits.specWidth) are allowed in one array.")
        }
    }
}

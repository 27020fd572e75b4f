/// One thing the search found, with the shortest path of steps that shows it.
public struct ExploreFinding: Sendable, Equatable {
    /// The finding's kind (docs/explore.md "Findings").
    public enum Kind: String, Sendable, CaseIterable {
        /// An action UIKit raises on (its code and text).
        case uikitException = "uikit-exception"
        /// An action UIKit refuses or performs with a log line.
        case uikitWarning = "uikit-warning"
        /// A reachable state from which nothing leads back toward the entry.
        case deadEnd = "dead-end"
        /// A scene no path reaches and no code can instantiate (no Storyboard ID).
        case unreachableScene = "unreachable-scene"
        /// A scene no path reaches that has a Storyboard ID, so code may instantiate it.
        case reachableByCodeOnly = "reachable-by-code-only"
        /// A custom segue class or an unwind whose behaviour needs a declaration.
        case undeclared
    }

    /// The kind.
    public var kind: Kind
    /// True for the kinds that make `navsim explore` exit 1.
    public var isError: Bool { kind == .uikitException }
    /// The storyboard holding ``element``.
    public var storyboard: String
    /// Element id of the scene the finding is about (the source scene of a segue).
    public var scene: String?
    /// Element id of the segue, when one is involved.
    public var segue: String?
    /// UIKit's code (`D12`), or navsim's slug when UIKit has none.
    public var code: String?
    /// A sentence: UIKit's text for UIKit's findings.
    public var message: String
    /// Steps from the entry that reach it, the last one the action at fault (empty for a scene
    /// nothing reaches).
    public var path: [ExploreStep]

    /// The element whose line the finding is reported at: the segue, else the scene.
    public var element: String? { segue ?? scene }
}

/// A segue the search did not perform, and why.
public struct UnperformedSegue: Sendable, Equatable {
    public var storyboard: String
    public var segue: String
    public var scene: String
    public var reason: String
}

/// What one exploration found.
public struct ExploreReport: Sendable {
    /// Distinct canonical states reached.
    public var states: Int
    /// Actions applied that led to a state (new or seen), self-loops excluded.
    public var transitions: Int
    /// True when `maxStates` or `maxDepth` stopped the search before it had seen everything.
    public var truncated: Bool
    /// Transition segues of the storyboards (not relationship or embed).
    public var seguesTotal: Int
    /// Transition segues of the storyboards reported that were performed.
    public var seguesPerformed: Int
    /// Segues performed at least once, by storyboard and element id, in the order first performed
    /// (those of storyboards only referenced included).
    public var performed: [(storyboard: String, segue: String)]
    /// The others, with the reason.
    public var notPerformed: [UnperformedSegue]
    /// Findings, in the order found (then the scene findings, in document order).
    public var findings: [ExploreFinding]
    /// Paths that together perform every performed segue, each from the entry (a greedy cover).
    public var flows: [[ExploreStep]]
    /// Applies made (for the benchmark's states per second).
    public var applies: Int
}

public import NavigationCore

/// What a user (or the storyboard) can do in a settled state, one UIKit call each, with the
/// receiver's id in that state. The search applies them through the core's pure `apply`.
public indirect enum ExploreAction: Sendable, Hashable {
    /// A tap on the control or cell a segue is wired to (`triggerSegue`, R96), an unwind included;
    /// `segue` is the segue's element id in `storyboard`, `scene` the id of the scene it starts in.
    case trigger(ControllerID, segue: String, storyboard: String, scene: String)
    /// The navigation bar's back button: `popViewController(animated:)` (R78).
    case back(ControllerID)
    /// The swipe back from the leading edge (R83).
    case swipeBack(ControllerID)
    /// A tap on a tab bar item (R87, R89).
    case tapTab(ControllerID, index: Int)
    /// The swipe down on a sheet or a tap outside a popover, sent to the presented controller (R49).
    case swipeDown(ControllerID)
    /// A double tap (`--races`): the second action in the same run-loop turn as the first, so the
    /// first one's transition is still in progress when it runs (`POST …/turns`).
    case race(ExploreAction, ExploreAction)

    /// The receiver of the call.
    public var receiver: ControllerID {
        switch self {
        case let .trigger(c, _, _, _), let .back(c), let .swipeBack(c), let .tapTab(c, _), let .swipeDown(c): c
        case let .race(_, second): second.receiver
        }
    }

    /// The operation's name in the HTTP API (docs/api.md "Operations").
    public var operation: String {
        switch self {
        case .trigger: "triggerSegue"
        case .back: "pop"
        case .swipeBack: "interactivePop"
        case .tapTab: "tapTab"
        case .swipeDown: "interactiveDismiss"
        case .race: "turns"
        }
    }

    /// A short human description, used as the flow step's name.
    public var summary: String {
        switch self {
        case let .trigger(c, segue, _, _): "\(c): tap segue \(segue)"
        case let .back(c): "\(c): back button"
        case let .swipeBack(c): "\(c): swipe back"
        case let .tapTab(c, index): "\(c): tap tab \(index)"
        case let .swipeDown(c): "\(c): swipe down"
        case let .race(first, second): "\(first.summary), then at once \(second.summary)"
        }
    }

    /// The segue's storyboard and element id for a trigger; nil otherwise.
    public var segue: (storyboard: String, id: String)? {
        if case let .trigger(_, segue, storyboard, _) = self { return (storyboard, segue) }
        if case let .race(_, second) = self { return second.segue }
        return nil
    }
}

/// One step of a path, as its HTTP request and what the reply showed: enough to write a flow
/// step (docs/flows.md) that performs and checks it.
public struct ExploreStep: Sendable, Equatable {
    /// The action.
    public var action: ExploreAction
    /// The request body's members, strings or integers: `{"segue": "abc"}`, `{"index": 1}`.
    public var body: [(String, BodyValue)]
    /// The reply's events as `controller.callback`, in order (empty for a refusal).
    public var events: [String]
    /// `window.visibleViewController` after the step.
    public var visibleViewController: ControllerID?
    /// `window.rootViewController` after the step.
    public var rootViewController: ControllerID?
    /// UIKit's refusal of the step, when it refused it (the last step of an exception's path).
    public var refusal: Diagnostic?
    /// The reply's warnings (UIKit's logs and navsim's own), codes or slugs.
    public var warnings: [String]

    /// A body member's value.
    public enum BodyValue: Sendable, Equatable {
        case string(String)
        case int(Int)
        case bool(Bool)
    }

    public static func == (a: ExploreStep, b: ExploreStep) -> Bool {
        a.action == b.action && a.body.map(\.0) == b.body.map(\.0) && a.body.map(\.1) == b.body.map(\.1)
            && a.events == b.events && a.visibleViewController == b.visibleViewController
            && a.rootViewController == b.rootViewController && a.refusal == b.refusal && a.warnings == b.warnings
    }
}

extension ExploreAction {
    /// The request body the HTTP API takes for this action.
    var body: [(String, ExploreStep.BodyValue)] {
        switch self {
        case let .trigger(_, segue, _, _): [("segue", .string(segue))]
        case .back: []
        case .swipeBack: [("completes", .bool(true))]
        case let .tapTab(_, index): [("index", .int(index))]
        case .swipeDown: [("completes", .bool(true))]
        case let .race(_, second): second.body
        }
    }
}

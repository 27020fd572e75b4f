/// What the core reports: appearance, containment and delegate callbacks in UIKit's order, the
/// transition an operation ran, and refusals.

/// One callback UIKit makes (docs/api.md Event). `controller` is the receiver of the method, or the
/// controller a delegate method is about.
public struct Event: Sendable, Equatable {
    public enum Callback: String, Sendable, CaseIterable {
        case viewDidLoad, viewWillAppear, viewIsAppearing, viewDidAppear, viewWillDisappear, viewDidDisappear
        case willMoveToParent, didMoveToParent
        case shouldPerformSegue, prepareForSegue, unwindAction
        case presentationControllerShouldDismiss, presentationControllerDidAttemptToDismiss
        case presentationControllerWillDismiss, presentationControllerDidDismiss, willPresentWithAdaptiveStyle
        case presentationControllerForPresented, animationControllerForPresented, animationControllerForDismissed
        case interactionControllerForPresentation, interactionControllerForDismissal
        case navigationControllerWillShow, navigationControllerDidShow
        case tabBarControllerShouldSelect, tabBarControllerDidSelect
        case splitViewControllerPrimaryForCollapsing, splitViewControllerCollapseSecondary
        case splitViewControllerPrimaryForExpanding, splitViewControllerSeparateSecondary
        case splitViewControllerTopColumnForCollapsing, splitViewControllerDidCollapse
        case splitViewControllerDisplayModeForExpanding, splitViewControllerDidExpand
        /// R121: `splitViewController(_:willShow:)` / `(_:willHide:)`, with `column`.
        case splitViewControllerWillShow, splitViewControllerWillHide
        /// R122 (classic): `splitViewController(_:show:sender:)` / `(_:showDetail:sender:)` asked.
        case splitViewControllerShow, splitViewControllerShowDetail
        case sheetPresentationControllerDidChangeSelectedDetentIdentifier
        /// R150, R151: the adaptive delegate asked for the controller to show while adapted.
        case viewControllerForAdaptivePresentationStyle
        /// R153: the popover delegate's own methods, deprecated in iOS 13.
        case popoverPresentationControllerShouldDismissPopover, popoverPresentationControllerDidDismissPopover
        case completion
        /// The handler of the `UIAlertAction` a user tapped, run once the alert is dismissed (R103).
        case alertActionHandler
        // R106–R108: a change of the window's size or traits.
        case willTransitionToTraitCollection, viewWillTransitionToSize, traitCollectionDidChange, traitChangeHandler
        /// A layout pass of the controller's view (R114–R117, Layout.swift); reported only in
        /// sessions with the `layoutCallbacks` option.
        case viewWillLayoutSubviews, viewDidLayoutSubviews
        /// iOS 26: `updateProperties()`, after the controller's traits are updated and before
        /// its layout (R118, R119).
        case updateProperties
        /// R140: the navigation delegate's `navigationController(_:animationControllerFor:from:to:)`
        /// and `navigationController(_:interactionControllerFor:)`, asked as a push or pop starts.
        case navigationControllerAnimationControllerFor, navigationControllerInteractionControllerFor
        /// R143–R145: blocks registered on a `transitionCoordinator`: the alongside animation,
        /// its completion, and the handler of `notifyWhenInteractionChanges(_:)`.
        case animateAlongsideTransition, animateAlongsideTransitionCompletion, notifyWhenInteractionChanges
        /// R146–R148: an unwind segue's search asks overrides, and its path's custom containers
        /// are told `unwind(for:towards:)`.
        case allowedChildrenForUnwinding, canPerformUnwindSegueAction, unwindForTowards
        /// `UIPageViewControllerDelegate` around a user's page turn (R130, R131).
        case pageViewControllerWillTransitionTo, pageViewControllerDidFinishAnimating
        /// `UITabBarControllerDelegate` around the More list's Edit sheet (R133).
        case tabBarControllerWillBeginCustomizing, tabBarControllerWillEndCustomizing, tabBarControllerDidEndCustomizing
    }
    /// A segue's identity as `prepare(for:sender:)` sees it.
    public struct SegueInfo: Sendable, Equatable {
        public var identifier: String?
        public var source: ControllerID
        public var destination: ControllerID?
        public init(identifier: String?, source: ControllerID, destination: ControllerID?) {
            self.identifier = identifier
            self.source = source
            self.destination = destination
        }
    }
    public var controller: ControllerID
    public var callback: Callback
    /// The transition's `animated` flag, for appearance callbacks (R29).
    public var animated: Bool?
    /// For `willMoveToParent`/`didMoveToParent`: the parent argument; nil means UIKit's nil.
    public var parent: ControllerID?
    public var hasParentArgument: Bool = false
    public var segue: SegueInfo?
    public var action: String?
    public var style: PresentationStyle?
    /// For `alertActionHandler`: which action of the alert (`controller`) runs its handler (R103).
    public var alertAction: AlertActionTap?
    /// `viewWillTransitionToSize`: the new size, when the session knows it (R106).
    public var size: Traits.Size?
    /// `willTransitionToTraitCollection`: the new collection; `traitCollectionDidChange` and
    /// `traitChangeHandler`: the previous one (R107, R108).
    public var traitCollection: Traits?
    /// `traitChangeHandler`: the registered traits that changed (R108).
    public var changedTraits: [Traits.Name]?
    /// `navigationControllerAnimationControllerFor`: the operation argument (R140).
    public var operation: NavigationOperation?
    /// The coordinator context's `isCancelled`, for the completion and interaction handlers (R144, R145).
    public var isCancelled: Bool?
    /// `unwindForTowards`: the `subsequentVC` argument (R148); `canPerformUnwindSegueAction`: nil.
    public var towards: ControllerID?
    /// The delegate method's controllers argument: `pendingViewControllers` of
    /// `pageViewControllerWillTransitionTo`, `previousViewControllers` of
    /// `pageViewControllerDidFinishAnimating`, `viewControllers` of the customizing calls (R130–R133).
    public var viewControllers: [ControllerID]?
    /// `transitionCompleted` of `pageViewControllerDidFinishAnimating`, `changed` of the
    /// end-customizing calls.
    public var completed: Bool?
    /// `splitViewControllerWillShow` / `WillHide`: the column argument (R121).
    public var column: SplitState.Column?

    public init(_ controller: ControllerID, _ callback: Callback, animated: Bool? = nil) {
        self.controller = controller
        self.callback = callback
        self.animated = animated
    }
    static func move(_ controller: ControllerID, _ callback: Callback, parent: ControllerID?) -> Event {
        var e = Event(controller, callback)
        e.parent = parent
        e.hasParentArgument = true
        return e
    }
}

/// `UINavigationController.Operation` as the navigation delegate is told it (R140).
public enum NavigationOperation: String, Sendable, CaseIterable {
    case push, pop
}

/// The operation a transition runs for (docs/api.md Transition `operation`): the UIKit call, gesture
/// or change that started it, spelled as the API spells it.
public enum TransitionOperation: String, Sendable, CaseIterable {
    case setRoot, present, dismiss, interactiveDismiss, show, showDetail
    case push, pop, popTo, popToRoot, interactivePop, setViewControllers, select
    case removeFromParent, addSubview, removeFromSuperview, transitionChild, traitChange
    /// A user's page turn on a page view controller (R130, R131).
    case turnPage
    /// A split's `show(_:)` / `hide(_:)` of a column (R121).
    case showColumn, hideColumn

    /// UIKit's default animation length in seconds: modal ≈ 0.5, the others (navigation) ≈ 0.35.
    public var defaultDuration: Double {
        switch self {
        case .present, .dismiss, .interactiveDismiss: 0.5
        default: 0.35
        }
    }
}

/// A transition as `UIViewControllerContextTransitioning` describes it (docs/api.md Transition).
public struct TransitionRecord: Sendable, Equatable {
    /// `queued`: waiting for a running navigation transition of the same controller (R81).
    public enum State: String, Sendable { case completed, inProgress, cancelled, queued }
    public var id: String
    public var operation: TransitionOperation
    public var fromViewController: ControllerID?
    public var toViewController: ControllerID?
    public var presentationStyle: PresentationStyle?
    public var transitionStyle: TransitionStyle?
    public var animated: Bool
    /// Seconds.
    public var duration: Double
    public var animator: String?
    /// Controllers whose views are in the container view, back to front.
    public var containerView: [ControllerID]
    public var state: State

    public init(
        id: String, operation: TransitionOperation, fromViewController: ControllerID?, toViewController: ControllerID?,
        presentationStyle: PresentationStyle?, transitionStyle: TransitionStyle?, animated: Bool, duration: Double,
        animator: String?, containerView: [ControllerID], state: State
    ) {
        self.id = id
        self.operation = operation
        self.fromViewController = fromViewController
        self.toViewController = toViewController
        self.presentationStyle = presentationStyle
        self.transitionStyle = transitionStyle
        self.animated = animated
        self.duration = duration
        self.animator = animator
        self.containerView = containerView
        self.state = state
    }
}

/// A UIKit refusal or warning (§17 D1–D24).
public struct Diagnostic: Sendable, Equatable, Error {
    public enum Severity: String, Sendable { case warning, exception }
    /// `D6`, …; nil for a refusal §17 does not catalogue (R17).
    public var code: String?
    public var slug: String
    public var severity: Severity
    /// `NSInvalidArgumentException`, … for exceptions.
    public var name: String?
    /// The message UIKit logs or throws, controllers named `<Class: id>`.
    public var message: String
}

/// The result of one accepted operation (docs/api.md ActionResult without the session).
public struct ActionResult: Sendable, Equatable {
    public var events: [Event] = []
    /// The transition the operation ran (id; its state is looked up when the turn ends).
    public var transition: TransitionRecord?
    /// What the UIKit call returns (`pop`, `popTo`, `popToRoot`); nil is UIKit's nil.
    public var returned: [ControllerID]?
    /// The call returns a value (`pop`, `popTo`, `popToRoot`), so `returned` is reported even when nil.
    public var returnsValue: Bool = false
    public var warnings: [Diagnostic] = []
    /// The controller a `createController` made.
    public var created: ControllerID?
    public init() {}
}

/// One operation's outcome inside a turn.
public enum OperationOutcome: Sendable, Equatable {
    /// Accepted: its events, transition and return value.
    case applied(ActionResult)
    /// Refused by UIKit (exception or warning, §17): nothing changed.
    case refused(Diagnostic)
    /// Not a valid call at all (unknown controller, wrong receiver): nothing changed.
    case invalid(CommandError)
}

/// An input error that is not UIKit's to refuse (unknown controller, wrong receiver kind, …):
/// the service answers 404 or 422 and nothing changes.
public struct CommandError: Error, Sendable, Equatable {
    /// `unknownTransition`: no such transition (404); `transitionConflict`: the transition is in
    /// no state to do that (409: queued, or not interactive).
    /// `invariantViolation`: the engine wrote to a controller the session does not have (a bug in
    /// navsim, 500); the command changed nothing.
    /// `limitExceeded`: lifecycle code nested too deep or made too many calls (``CallbackCode``, 422).
    /// `held`: a release of a controller something still holds (409, navsim's own text: UIKit has
    /// no such refusal, see Release.swift).
    /// `idTaken`: a new controller's id the session already has (409, as a taken session id is).
    /// `wrongReceiver`: the receiver is not a controller the method exists on (a push on a tab bar
    /// controller with no navigation controller above it): the receiver is at fault, not a field.
    public enum Kind: String, Sendable { case unknownController, invalid, unknownTransition, transitionConflict, invariantViolation, limitExceeded, held, idTaken, wrongReceiver }
    public var kind: Kind
    public var message: String
    public var field: String?
    /// For `limitExceeded`: which bound was hit (``CallbackCode/Limit``'s raw value).
    public var limit: String? = nil
    public init(kind: Kind, message: String, field: String? = nil, limit: String? = nil) {
        self.kind = kind
        self.message = message
        self.field = field
        self.limit = limit
    }
    /// The one wording of an unknown controller id, for the core's refusals and the service's 404s.
    public static func unknown(_ id: ControllerID) -> CommandError {
        CommandError(kind: .unknownController, message: "No controller with id '\(id)' in this session.", field: nil)
    }
    static func invariantViolation(_ id: ControllerID) -> CommandError {
        CommandError(
            kind: .invariantViolation,
            message: "Internal invariant broken: the engine changed controller '\(id)', which this session does not have. Nothing was changed.",
            field: nil)
    }
    static func held(_ message: String) -> CommandError {
        CommandError(kind: .held, message: message, field: nil)
    }
    static func wrongReceiver(_ message: String) -> CommandError {
        CommandError(kind: .wrongReceiver, message: message, field: nil)
    }
    static func invalid(_ message: String, field: String? = nil) -> CommandError {
        CommandError(kind: .invalid, message: message, field: field)
    }
}

/// What clients ask the core to do. Each case is one UIKit call (docs/api.md "Operations"); the
/// service turns HTTP bodies into these, and the history replays them.

/// A new controller to create (docs/api.md ControllerSpec). Storyboard specs are resolved by the
/// storyboard layer into plain specs before they reach the core (R102).
/// The client-settable properties it gives are ``configuration``; read and set them by name
/// (`spec.title`, nil when the spec does not give it).
@dynamicMemberLookup
public struct ControllerSpec: Sendable, Equatable {
    public var id: ControllerID?
    public var kind: ControllerKind = .viewController
    public var className: String?
    /// The properties the spec sets; the others keep UIKit's defaults for the kind.
    public var configuration = ControllerPatch()
    /// Navigation stack, tabs or pages.
    public var viewControllers: [ControllerRef]?
    public var selectedIndex: Int?
    public var primary: ControllerRef?
    public var supplementary: ControllerRef?
    public var secondary: ControllerRef?
    public var splitStyle: SplitState.Style?
    /// Classic split delegate: `collapseSecondary … onto:` answers (R91).
    public var collapseSecondaryOntoPrimary: Bool?
    /// Column-style split delegate: `topColumnForCollapsingToProposedTopColumn` answers (R91).
    public var topColumnForCollapsing: SplitState.Column?
    /// A split view controller delegate is set (its calls are reported, R91, R92).
    public var hasSplitDelegate: Bool?
    /// Classic split delegate: `splitViewController(_:show:sender:)` and
    /// `(_:showDetail:sender:)` answer (R122); nil when not implemented.
    public var splitDelegateShow: Bool?
    public var splitDelegateShowDetail: Bool?
    /// Column-style split: the `.compact` column's controller (R123).
    public var compact: ControllerRef?
    /// Column-style split, iOS 26: the inspector column's controller (R125).
    public var inspector: ControllerRef?
    public var pageTransitionStyle: PageState.Style?
    public var spineLocation: PageState.SpineLocation?
    public var isDoubleSided: Bool?
    /// A custom container's children (their views are inserted, as a container built in code).
    public var children: [ControllerRef]?
    /// Alert controllers only.
    public var preferredStyle: AlertStyle?
    public var storyboard: StoryboardOrigin?
    public var segues: [SegueSpec]?
    /// Embedded children (storyboard embed segues): added when the container loads its view.
    public var embedded: [ControllerRef]?
    /// Storyboard ids are preferred ids: when taken, `~2`, `~3`, … is appended (docs/api.md "Storyboards").
    public var appendsSuffixWhenTaken: Bool = false
    /// What goes before the number: `~`; `#` for a spec stored before ids became URL-safe, so a
    /// replayed history makes the ids it made then.
    public var suffixSeparator: String = "~"

    public init(id: ControllerID? = nil, kind: ControllerKind = .viewController, className: String? = nil) {
        self.id = id
        self.kind = kind
        self.className = className
    }

    /// A configuration property the spec gives, nil when it gives none; setting nil unsets it.
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<ControllerConfiguration, T>) -> T? {
        get { configuration.value(keyPath) }
        set { configuration[dynamicMember: keyPath] = newValue }
    }
}

/// A controller argument: UIKit's nil, an existing controller, or a new one.
public indirect enum ControllerRef: Sendable, Equatable {
    case none
    case existing(ControllerID)
    case new(ControllerSpec)
}

/// A storyboard segue as the core needs it to perform (R96–R100). Built by the storyboard layer.
public struct SegueSpec: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case show, showDetail, presentation, popoverPresentation, push, custom, embed, unwind, relationship
    }
    public var id: String
    public var identifier: String?
    public var kind: Kind
    /// The destination scene's element id and storyboard (nil for unwind); the storyboard layer
    /// instantiates it when the segue runs.
    public var destinationScene: String?
    public var destinationStoryboard: String?
    public var modalPresentationStyle: PresentationStyle?
    public var modalTransitionStyle: TransitionStyle?
    public var animates: Bool
    public var popover: PopoverAnchor?
    public var unwindAction: String?
    /// What a custom segue class's `perform()` does (R98 "Custom"), as a client declares it.
    public enum CustomPerform: String, Sendable, CaseIterable {
        case present, push, show, showDetail, none
    }
    /// For custom segues: what the class's `perform` does (declared by the client), or nil
    /// (undeclared: it presents modally).
    public var customPerforms: CustomPerform?
    public var customClass: String?
    public var customTransitioningDelegate: TransitioningDelegate?
    /// For custom segues: the sheet settings the class's `perform()` sets on the destination's
    /// `sheetPresentationController` before presenting it (R110), as a client declares them.
    public var customSheetPresentationController: SheetSettings?

    public init(
        id: String, identifier: String?, kind: Kind, destinationScene: String?, destinationStoryboard: String? = nil,
        modalPresentationStyle: PresentationStyle? = nil, modalTransitionStyle: TransitionStyle? = nil,
        animates: Bool = true, popover: PopoverAnchor? = nil, unwindAction: String? = nil,
        customPerforms: CustomPerform? = nil, customClass: String? = nil,
        customTransitioningDelegate: TransitioningDelegate? = nil
    ) {
        self.id = id
        self.identifier = identifier
        self.kind = kind
        self.destinationScene = destinationScene
        self.destinationStoryboard = destinationStoryboard
        self.modalPresentationStyle = modalPresentationStyle
        self.modalTransitionStyle = modalTransitionStyle
        self.animates = animates
        self.popover = popover
        self.unwindAction = unwindAction
        self.customPerforms = customPerforms
        self.customClass = customClass
        self.customTransitioningDelegate = customTransitioningDelegate
    }
}

/// One UIKit call (or a tick) on a session. `receiver` is the controller the method is called on.
public enum Command: Sendable, Equatable {
    /// `window.rootViewController = …` (R1).
    case setRoot(ControllerRef, animated: Bool)
    /// A controller that exists in no hierarchy yet (`MyViewController()`).
    case createController(ControllerSpec)
    /// `present(_:animated:completion:)` with the body's overrides (R7–R33).
    case present(
        receiver: ControllerID, viewController: ControllerRef, style: PresentationStyle?,
        transitionStyle: TransitionStyle?, popover: PopoverAnchor?, animated: Bool)
    /// `dismiss(animated:completion:)` (R40–R46).
    case dismiss(receiver: ControllerID, animated: Bool)
    /// `show(_:sender:)` (R63–R65).
    case show(receiver: ControllerID, viewController: ControllerRef, animated: Bool)
    /// `showDetailViewController(_:sender:)` (R66, R67).
    case showDetail(receiver: ControllerID, viewController: ControllerRef, animated: Bool)
    case push(receiver: ControllerID, viewController: ControllerRef, animated: Bool)
    case pop(receiver: ControllerID, animated: Bool)
    case popToRoot(receiver: ControllerID, animated: Bool)
    case popTo(receiver: ControllerID, viewController: ControllerID, animated: Bool)
    /// `direction` is for page view controllers (R94), ignored by the others.
    case setViewControllers(receiver: ControllerID, viewControllers: [ControllerRef], direction: PageDirection?, animated: Bool)
    case select(receiver: ControllerID, index: Int?, viewController: ControllerID?)
    /// A user tapping a tab bar item (R87: the delegate is asked; R89: re-tapping the selected
    /// tab pops its navigation controller to the root).
    case tapTab(receiver: ControllerID, index: Int?, viewController: ControllerID?)
    case addChild(receiver: ControllerID, viewController: ControllerRef)
    case removeFromParent(receiver: ControllerID)
    case willMove(receiver: ControllerID, toParent: ControllerID?)
    case didMove(receiver: ControllerID, toParent: ControllerID?)
    case addSubview(receiver: ControllerID, viewController: ControllerID, animated: Bool)
    case removeFromSuperview(receiver: ControllerID, animated: Bool)
    case transitionChild(receiver: ControllerID, from: ControllerID, to: ControllerID, animated: Bool)
    /// A user's swipe down on a sheet, or tap outside a popover; `tappedView` names the controller
    /// whose view the tap lands on (R152: a passthrough view keeps the popover).
    case interactiveDismiss(receiver: ControllerID, completes: Bool, tappedView: ControllerID? = nil)
    /// A user's swipe back, from the leading edge or (iOS 26) anywhere in the content (R83, R120).
    case interactivePop(receiver: ControllerID, completes: Bool, gesture: PopGesture = .edge)
    /// `performSegue(withIdentifier:sender:)` (R97). `destination` is the instantiated scene, made
    /// by the storyboard layer from the receiver's segue table (nil for unwind or unknown).
    /// `segue`, when given, is that segue as the storyboard declares it now (a custom segue class
    /// declared after the receiver was instantiated, R98); nil uses the receiver's table.
    case performSegue(receiver: ControllerID, identifier: String, destination: ControllerSpec?, segue: SegueSpec? = nil)
    /// A user tapping the control wired to the segue: asks `shouldPerformSegue` first (R96).
    case triggerSegue(receiver: ControllerID, identifier: String, destination: ControllerSpec?, segue: SegueSpec? = nil)
    case updateController(ControllerID, ControllerPatch)
    /// A trait change (rotation, split screen): re-runs adaptivity (R52, R91, R92).
    case setTraits(Traits)
    /// Finish one running transition, or all of them (a tick).
    case completeTransition(id: String?)
    /// Give up an interactive transition (R38, R60).
    case cancelTransition(id: String)
    /// Drop a controller nothing but the client holds, with what only it holds (Release.swift;
    /// `DELETE …/controllers/{cid}`). No callback: UIKit reports no deallocation.
    case release(ControllerID)
    /// `beginAppearanceTransition(_:animated:)` on a child, as a custom container's code calls it (R105).
    case beginAppearanceTransition(receiver: ControllerID, isAppearing: Bool, animated: Bool)
    /// `endAppearanceTransition()` on a child (R105).
    case endAppearanceTransition(receiver: ControllerID)
    /// A user tapping an action of a presented alert or action sheet, by `index` in its
    /// `actions` or by `title` (R103): the alert dismisses itself, then the handler runs.
    case tapAlertAction(receiver: ControllerID, index: Int?, title: String?, animated: Bool)
    /// A user dragging the top sheet to one of its detents (R111).
    case dragSheet(receiver: ControllerID, detent: String)
    /// iOS 26: `setNeedsUpdateProperties()` (R119): `updateProperties()` runs at the next layout
    /// pass, once however often it was asked for in the turn.
    case setNeedsUpdateProperties(receiver: ControllerID)
    /// `transitionCoordinator?.animate(alongsideTransition:completion:)` (R143, R144), as code in
    /// a lifecycle method registers it.
    case animateAlongsideTransition(receiver: ControllerID)
    /// `transitionCoordinator?.notifyWhenInteractionChanges(_:)` (R145).
    case notifyWhenInteractionChanges(receiver: ControllerID)
    /// A user's page turn (swipe, or a drag of the page's corner in page-curl style) on a page
    /// view controller, completed or given up; its data source supplies the pages (R130, R131).
    case turnPage(receiver: ControllerID, direction: PageDirection, completes: Bool)
    /// A user rearranging the tabs through the More list's Edit button, then tapping Done: the
    /// tabs in their new order (R132, R133).
    case customizeTabs(receiver: ControllerID, viewControllers: [ControllerID])
    /// A column-style split's `show(_:)` and `hide(_:)` of a column (R121); the receiver is the
    /// split or a controller inside it (its `splitViewController`).
    case showColumn(receiver: ControllerID, column: SplitState.Column)
    case hideColumn(receiver: ControllerID, column: SplitState.Column)
}

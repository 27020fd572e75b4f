/// The UIKit model navsim simulates: one window, its view controllers, their containment and
/// presentation links. Everything here is a value; the core never performs I/O.
///
/// Source: ../shared/spec/uikit-semantics.md §0 (entities), docs/architecture.md ("Inside the core").

/// A controller's id: unique within a session (docs/api.md: "Ids are strings, unique within a session").
public typealias ControllerID = String

/// The grammar of the names navsim keeps and clients address in paths and replies: controller
/// ids, session ids, storyboard names (openapi.yaml `ControllerId` and `Name`). Free text such as
/// `title` is not a name: UIKit takes any string there.
public enum Names {
    /// True when `name` holds a C0 control character (U+0000–U+001F) or DEL (U+007F): such a name
    /// cannot be typed, is invisible in logs and listings, and a NUL ends it in any C API.
    public static func hasControlCharacter(_ name: String) -> Bool {
        name.utf8.contains { $0 < 0x20 || $0 == 0x7F }  // ASCII bytes never occur inside a multi-byte scalar
    }

    /// A controller id: not empty, no control character.
    public static func isControllerID(_ name: String) -> Bool { !name.isEmpty && !hasControlCharacter(name) }

    /// A session id or storyboard name: 1–200 UTF-8 bytes, no `/`, no control character. Both are
    /// one path segment and a database key.
    public static func isKey(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 200 && !name.utf8.contains(UInt8(ascii: "/")) && !hasControlCharacter(name)
    }

    /// The rule ``isKey(_:)`` checks, for problem details ("A session id is …").
    public static let keyRule = "1–200 bytes without '/' or control characters (U+0000–U+001F, U+007F)"
    /// The problem detail for `id`, which ``isControllerID(_:)`` refuses: the rule, and the id
    /// with its control characters escaped (`"Ho\tme"`), so an id a storyboard scene gave can be
    /// recognised.
    public static func controllerIDRefusal(_ id: String) -> String {
        "A controller id is not empty and holds no control characters (U+0000–U+001F, U+007F); got \(id.debugDescription)."
    }
}

/// The kinds of view controller navsim knows (docs/api.md `kind`).
public enum ControllerKind: String, Sendable, CaseIterable {
    case viewController, tableViewController, collectionViewController, navigationController
    case tabBarController, splitViewController, pageViewController, alertController

    /// The UIKit class used in messages when the spec gives none (`<UINavigationController: N>`).
    public var uikitClass: String {
        switch self {
        case .viewController: "UIViewController"
        case .tableViewController: "UITableViewController"
        case .collectionViewController: "UICollectionViewController"
        case .navigationController: "UINavigationController"
        case .tabBarController: "UITabBarController"
        case .splitViewController: "UISplitViewController"
        case .pageViewController: "UIPageViewController"
        case .alertController: "UIAlertController"
        }
    }
}

/// `UIModalPresentationStyle`, spelled as UIKit spells its cases.
public enum PresentationStyle: String, Sendable, Codable, CaseIterable {
    case automatic, fullScreen, pageSheet, formSheet, currentContext, custom
    case overFullScreen, overCurrentContext, popover, none

    /// Context styles walk to `definesPresentationContext` (R21).
    public var isContextStyle: Bool { self == .currentContext || self == .overCurrentContext }
    /// Styles a user can swipe or tap away (R49–R54): sheets and popovers.
    public var isUserDismissible: Bool { self == .pageSheet || self == .formSheet || self == .popover }
}

/// `UIModalTransitionStyle`.
public enum TransitionStyle: String, Sendable, Codable, CaseIterable {
    case coverVertical, flipHorizontal, crossDissolve, partialCurl
}

/// A controller's appearance state (§0.1): what its last appearance callback said.
public enum Appearance: String, Sendable {
    case disappeared, appearing, appeared, disappearing
}

/// `UIUserInterfaceIdiom` and the two size classes of the window's trait collection.
public struct Traits: Sendable, Equatable {
    public enum Idiom: String, Sendable, CaseIterable { case phone, pad }
    public enum SizeClass: String, Sendable, Codable, CaseIterable { case compact, regular }
    public var userInterfaceIdiom: Idiom
    public var horizontalSizeClass: SizeClass
    public var verticalSizeClass: SizeClass
    /// The window's size in points, when the client gave one (R106): what
    /// `viewWillTransition(to:with:)` reports. Nil: navsim does not know it.
    public var size: Size?

    public init(
        userInterfaceIdiom: Idiom = .phone, horizontalSizeClass: SizeClass = .compact,
        verticalSizeClass: SizeClass = .regular, size: Size? = nil
    ) {
        self.userInterfaceIdiom = userInterfaceIdiom
        self.horizontalSizeClass = horizontalSizeClass
        self.verticalSizeClass = verticalSizeClass
        self.size = size
    }

    /// Default traits: iPhone portrait (§0, docs/api.md); ``defaults(for:)`` of `.phone`.
    public static let phonePortrait = Traits.defaults(for: .phone)
}

/// The iOS release whose behaviour a session reproduces (§19 version matrix).
public enum IOSRelease: String, Sendable, CaseIterable {
    case iOS12 = "12"
    case iOS17 = "17"
    case iOS18 = "18"
    /// iOS 26: the iOS 18 profile plus `updateProperties()` (R118, R119) and the content
    /// swipe back (R120), docs/ios-profiles.md.
    case iOS26 = "26"

    /// The release a session reproduces when its client names none: the newest profile that is
    /// complete for what navsim expresses (docs/ios-profiles.md). Every other default follows from
    /// this one; stored sessions name their release, so changing it changes new sessions only.
    public static let `default`: IOSRelease = .iOS26
}

/// How animated transitions finish (docs/api.md "Transitions").
public enum TransitionMode: String, Sendable, CaseIterable {
    /// Every transition finishes within the request that started it.
    case immediate
    /// Animated transitions stay `inProgress` until a tick (`…/transitions/complete`).
    case manual
}

/// What a navigation controller does with a push or pop while its own animated transition is
/// still running (R81, §19 `navTransitionPolicy`).
public enum NavigationTransitionPolicy: String, Sendable, CaseIterable {
    /// The stack changes at once (R77), its transition waits for the running one to end.
    case queue
    /// UIKit's log (D22) and the operation is dropped: a 409 that changes nothing.
    case warnAndDrop
}

/// Session options (docs/api.md `options`).
public struct Options: Sendable, Equatable {
    public var iOS: IOSRelease
    public var transitions: TransitionMode
    /// R81: overlapping navigation transitions. Default `queue`.
    public var navTransitionPolicy: NavigationTransitionPolicy
    /// When controllers nothing holds are dropped (Release.swift). Default `manual`.
    public var release: ReleasePolicy
    /// R117: whether the turn's results carry `viewWillLayoutSubviews`/`viewDidLayoutSubviews`
    /// (Layout.swift). Default false, so that sessions without it keep their event lists.
    public var layoutCallbacks: Bool
    public init(
        iOS: IOSRelease = .default, transitions: TransitionMode = .immediate,
        navTransitionPolicy: NavigationTransitionPolicy = .queue, release: ReleasePolicy = .manual,
        layoutCallbacks: Bool = false
    ) {
        self.iOS = iOS
        self.transitions = transitions
        self.navTransitionPolicy = navTransitionPolicy
        self.release = release
        self.layoutCallbacks = layoutCallbacks
    }
    /// The release-dependent switches of §19, in one place.
    public var profile: Profile { Profile(release: iOS, navTransitionPolicy: navTransitionPolicy) }
}

/// Behaviour switches that differ by release or are [INF] in the spec (§19). One place, so a
/// profile option can change them.
public struct Profile: Sendable, Equatable {
    public let release: IOSRelease
    /// R81, §19 `navTransitionPolicy`.
    public var navTransitionPolicy: NavigationTransitionPolicy = .queue
    /// R18: what `automatic` resolves to for ordinary controllers.
    public var automaticStyle: PresentationStyle {
        switch release {
        case .iOS12: .fullScreen;
        case .iOS17: .pageSheet;
        case .iOS18, .iOS26: .formSheet
        }
    }
    /// §0.5: `viewIsAppearing` exists from the iOS 17 SDK on (back-deployed to 13).
    public var emitsViewIsAppearing: Bool { release != .iOS12 }
    /// R118: `updateProperties()` exists from iOS 26 on (UIKit's UIViewController reference).
    public var sendsUpdateProperties: Bool { release == .iOS26 }
    /// R120: `interactiveContentPopGestureRecognizer` exists from iOS 26 on.
    public var hasContentPopGesture: Bool { release == .iOS26 }
    /// R125: the split view's inspector column exists from iOS 26 on.
    public var hasInspectorColumn: Bool { release == .iOS26 }
    /// R172: column-style split view controllers (`init(style:)`, `show(_:)`/`hide(_:)`, the
    /// compact column, `displayModeButtonVisibility`) exist from iOS 14 on.
    public var hasColumnSplits: Bool { release != .iOS12 }
    /// R51, §19: sheets can be swiped away and the adaptive delegate is asked from iOS 13 on.
    public var hasSheetGestures: Bool { release != .iOS12 }
    /// R153: before iOS 13 a tap outside a popover asks the popover delegate's own methods
    /// (`popoverPresentationControllerShouldDismissPopover`, `…DidDismissPopover`).
    public var popoverDismissalUsesPopoverDelegate: Bool { release == .iOS12 }
    /// R110: `UISheetPresentationController` (iOS 15): before it a sheet has no detents.
    public var hasSheetPresentationController: Bool { release != .iOS12 }
    /// R9–R11, §19: releases up to 12 used the "active controller" wording for D3/D4.
    public var usesActiveControllerWording: Bool { release == .iOS12 }
    /// §19: "Warning: Attempt to present … which is already presenting …" without "(from …)".
    public var usesLegacyPresentWarning: Bool { release == .iOS12 }
    /// R76, §19: the old duplicate-push wording (switch-over release unverified).
    public var usesLegacyDuplicatePushWording: Bool { release == .iOS12 }
    /// R63 [INF]: target lookup continues through the presenting controller. Spec default: true.
    public var targetLookupCrossesPresentation: Bool { true }
    /// R45 [INF]: completion called when there is nothing to dismiss. Spec default: false.
    public var completionWhenNothingToDismiss: Bool { false }
    /// R19 [INF]: a sheet shown full screen in compact height removes the presenter. Default false.
    public var compactHeightSheetRemovesPresenter: Bool { false }
    /// R88: tabs a tab bar shows before "More" (phone 5; iPad more) [INF for pad].
    public func maxVisibleTabs(_ traits: Traits) -> Int {
        traits.userInterfaceIdiom == .pad && traits.horizontalSizeClass == .regular ? 8 : 5
    }
}

/// A popover anchor (R53): `sourceView` (+ `sourceRect`) or `barButtonItem`.
public struct PopoverAnchor: Sendable, Equatable {
    public var sourceView: String?
    public var barButtonItem: String?
    public var sourceRect: [Double]?
    public init(sourceView: String? = nil, barButtonItem: String? = nil, sourceRect: [Double]? = nil) {
        self.sourceView = sourceView
        self.barButtonItem = barButtonItem
        self.sourceRect = sourceRect
    }
    /// R15/R53: a popover needs a non-empty `sourceView` or `barButtonItem`.
    public var isAnchored: Bool {
        !(sourceView ?? "").isEmpty || !(barButtonItem ?? "").isEmpty
    }
}

/// Where an instantiated controller came from (docs/api.md `storyboard`).
public struct StoryboardOrigin: Sendable, Equatable {
    public var name: String
    public var identifier: String?
    public init(name: String, identifier: String?) { self.name = name; self.identifier = identifier }
}

/// A settled or running presentation, stored on the presented controller (§0.1 "Presentation
/// record"). Links are derived from it (R3, R4).
public struct Presentation: Sendable, Equatable {
    public enum State: String, Sendable { case presenting, presented, dismissing }
    /// The resolved presenter `P` (R20, R21).
    public var presenting: ControllerID
    /// The receiver of `present` (`S`).
    public var source: ControllerID
    public var requestedStyle: PresentationStyle
    /// The effective style after `automatic` resolution and adaptation (R18, R19, R47).
    public var style: PresentationStyle
    public var transitionStyle: TransitionStyle
    /// For context styles, the controller that defines the context (R21).
    public var contextViewController: ControllerID?
    /// R24: the presenter's view leaves the window once the presentation completes.
    public var removesPresenterView: Bool
    public var popover: PopoverAnchor?
    public var state: State
    /// R150: set on the adaptive delegate's replacement while it is presented in place of this
    /// controller, the one `present` named; nil otherwise.
    public var adaptiveOriginal: ControllerID?

    public init(
        presenting: ControllerID, source: ControllerID, requestedStyle: PresentationStyle, style: PresentationStyle,
        transitionStyle: TransitionStyle, contextViewController: ControllerID?, removesPresenterView: Bool,
        popover: PopoverAnchor?, state: State, adaptiveOriginal: ControllerID? = nil
    ) {
        self.adaptiveOriginal = adaptiveOriginal
        self.presenting = presenting
        self.source = source
        self.requestedStyle = requestedStyle
        self.style = style
        self.transitionStyle = transitionStyle
        self.contextViewController = contextViewController
        self.removesPresenterView = removesPresenterView
        self.popover = popover
        self.state = state
    }
}

/// A split view controller's configuration (R90–R93).
///
/// `primary`, `supplementary` and `secondary` are the controllers the client gave for each column,
/// what `viewController(for:)` answers (R90). For a column-style split the split's children are
/// the columns' navigation controllers instead (`primaryNavigation`, …): the client's own
/// navigation controller, or one the split created to wrap a plain controller.
public struct SplitState: Sendable, Equatable {
    public enum Style: String, Sendable, CaseIterable {
        case unspecified, doubleColumn, tripleColumn
        /// R90: `doubleColumn` and `tripleColumn` are the iOS 14 column styles; `unspecified` is classic.
        public var isColumnStyle: Bool { self != .unspecified }
    }
    /// `UISplitViewController.Column`, the columns navsim models with a navigation controller (R90);
    /// `.inspector` exists from iOS 26 on (R125); the `.compact` column is ``compact`` (R123).
    public enum Column: String, Sendable, CaseIterable, Codable {
        case primary, supplementary, secondary, inspector
    }
    /// `UISplitViewController.DisplayMode` as `displayMode` reports it (never `automatic`, R121).
    public enum DisplayMode: String, Sendable, CaseIterable {
        case secondaryOnly, oneBesideSecondary, oneOverSecondary, twoBesideSecondary, twoOverSecondary, twoDisplaceSecondary
    }
    public var style: Style
    public var primary: ControllerID?
    public var supplementary: ControllerID?
    public var secondary: ControllerID?
    /// `splitViewController(_:collapseSecondary:onto:)` answers true: discard the secondary (R91,
    /// classic only).
    public var collapseSecondaryOntoPrimary: Bool?
    public var isCollapsed: Bool
    /// R90 (column style): the navigation controller that is the split's child for each column.
    public var primaryNavigation: ControllerID?
    public var supplementaryNavigation: ControllerID?
    public var secondaryNavigation: ControllerID?
    /// R91 (column style): the answer of `splitViewController(_:topColumnForCollapsingToProposedTopColumn:)`;
    /// nil when not implemented, and the proposed `.secondary` is kept.
    public var topColumnForCollapsing: Column?
    /// R91/R92 (column style): the controllers that left the supplementary and secondary columns'
    /// stacks for the primary column's stack while collapsed (or were shown there as the
    /// secondary's, R67), so expanding can give them back.
    public var collapsedSupplementary: [ControllerID] = []
    public var collapsedSecondary: [ControllerID] = []
    /// A `UISplitViewControllerDelegate` is set (`splitDelegate` in the spec): its calls are events.
    public var hasDelegate: Bool = false
    /// R121 (column style): the display mode the last `show(_:)` or `hide(_:)` left; nil before
    /// either: every column is shown beside the secondary (``currentDisplayMode``).
    public var displayMode: DisplayMode?
    /// R122 (classic): the delegate's answers to `splitViewController(_:show:sender:)` and
    /// `splitViewController(_:showDetail:sender:)`; nil when it does not implement the method,
    /// true when it shows the controller itself.
    public var delegateShows: Bool?
    public var delegateShowsDetail: Bool?
    /// R123 (column style): the `.compact` column's controller, shown as it is (no navigation
    /// controller is made for it) instead of the other columns while collapsed; a child of the
    /// split from the start.
    public var compact: ControllerID?
    /// R125 (iOS 26, column style): the inspector column's controller and its navigation controller,
    /// and whether `show(.inspector)` shows it (hidden by default).
    public var inspector: ControllerID?
    public var inspectorNavigation: ControllerID?
    public var isShowingInspector: Bool = false
    /// `UISplitViewController.DisplayModeButtonVisibility` (iOS 14.5): where the display mode button
    /// shows; recorded, not simulated (navsim draws no bar).
    public enum DisplayModeButtonVisibility: String, Sendable, CaseIterable, Codable {
        case automatic, never, always
    }

    public init(
        style: Style, primary: ControllerID?, supplementary: ControllerID?, secondary: ControllerID?,
        collapseSecondaryOntoPrimary: Bool?, isCollapsed: Bool
    ) {
        self.style = style
        self.primary = primary
        self.supplementary = supplementary
        self.secondary = secondary
        self.collapseSecondaryOntoPrimary = collapseSecondaryOntoPrimary
        self.isCollapsed = isCollapsed
    }

    /// R174: the delegate a spec or a PATCH sets (nil: none): its presence and its answers. A
    /// classic split never asks for the top column (R90), so it keeps no answer for it.
    public mutating func setDelegate(_ d: SplitDelegate?) {
        hasDelegate = d != nil
        collapseSecondaryOntoPrimary = d?.collapseSecondaryOntoPrimary
        topColumnForCollapsing = style.isColumnStyle ? d?.topColumnForCollapsing : nil
        delegateShows = d?.show
        delegateShowsDetail = d?.showDetail
    }

    /// R121: the display mode of an expanded column-style split: what `show(_:)`/`hide(_:)` left,
    /// else every column beside the secondary.
    public var currentDisplayMode: DisplayMode {
        displayMode ?? (style == .tripleColumn ? .twoBesideSecondary : .oneBesideSecondary)
    }

    /// R121: whether an expanded column-style split shows `column` in ``currentDisplayMode``. The
    /// secondary always shows; a triple-column split shows the primary only beside (or over) the
    /// supplementary.
    public func isShowing(_ column: Column) -> Bool {
        if column == .secondary { return true }
        if column == .inspector { return isShowingInspector && inspector != nil }
        if column == .supplementary && style != .tripleColumn { return false }
        switch currentDisplayMode {
        case .secondaryOnly: return false
        case .oneBesideSecondary, .oneOverSecondary: return style == .tripleColumn ? column == .supplementary : column == .primary
        case .twoBesideSecondary, .twoOverSecondary, .twoDisplaceSecondary: return true
        }
    }

    /// R90: the split's child for a column of a column-style split: its navigation controller.
    public func navigation(for column: Column) -> ControllerID? {
        switch column {
        case .primary: primaryNavigation
        case .supplementary: supplementaryNavigation
        case .secondary: secondaryNavigation
        case .inspector: inspectorNavigation
        }
    }
}

/// `UIPageViewController.NavigationDirection`: the side a `setViewControllers` animates from.
public enum PageDirection: String, Sendable, CaseIterable {
    case forward, reverse
}

/// `UIAlertController.Style`.
public enum AlertStyle: String, Sendable, CaseIterable {
    case alert, actionSheet
}

/// A page view controller's configuration (R94, R95).
public struct PageState: Sendable, Equatable {
    public enum Style: String, Sendable, CaseIterable { case scroll, pageCurl }
    /// `UIPageViewController.SpineLocation`.
    public enum SpineLocation: String, Sendable, CaseIterable { case none, min, mid, max }
    public var transitionStyle: Style
    public var spineLocation: SpineLocation?
    public var isDoubleSided: Bool
    public init(transitionStyle: Style, spineLocation: SpineLocation?, isDoubleSided: Bool) {
        self.transitionStyle = transitionStyle
        self.spineLocation = spineLocation
        self.isDoubleSided = isDoubleSided
    }
    /// R94: pages a `setViewControllers` must provide.
    public var requiredPageCount: Int {
        transitionStyle == .pageCurl && (spineLocation == .mid || isDoubleSided) ? 2 : 1
    }
}

/// What a controller holds because of its kind, so that a field exists only on the kind it means
/// something for: a navigation controller's stack (R75–R83), a tab bar's tabs and selection
/// (R84–R89), a split's columns (R90–R93), a page view controller's pages (R94, R95), an alert's
/// style. Plain controllers (view, table, collection) hold only containment children (R69–R73).
public enum Container: Sendable, Equatable {
    case plain
    case navigation(NavigationStack)
    case tabs(TabState)
    case split(SplitState)
    case pages(PageContainer)
    case alert(AlertState)

    /// The empty container of a new controller of `kind`.
    public init(kind: ControllerKind) {
        switch kind {
        case .viewController, .tableViewController, .collectionViewController: self = .plain
        case .navigationController: self = .navigation(NavigationStack())
        case .tabBarController: self = .tabs(TabState())
        case .splitViewController:
            self = .split(
                SplitState(
                    style: .unspecified, primary: nil, supplementary: nil, secondary: nil,
                    collapseSecondaryOntoPrimary: nil, isCollapsed: false))
        case .pageViewController: self = .pages(PageContainer())
        case .alertController: self = .alert(AlertState())
        }
    }
}

/// A navigation controller's stack, bottom first (`viewControllers`, R75).
public struct NavigationStack: Sendable, Equatable {
    public var viewControllers: [ControllerID] = []
    /// Is this a tab bar's More navigation controller (R88)?
    public var isMoreNavigationController = false
    public init(viewControllers: [ControllerID] = [], isMoreNavigationController: Bool = false) {
        self.viewControllers = viewControllers
        self.isMoreNavigationController = isMoreNavigationController
    }
}

/// A tab bar controller's tabs and selection (R84–R89).
public struct TabState: Sendable, Equatable {
    public var viewControllers: [ControllerID] = []
    /// The selected controller: a tab, or the More navigation controller while its list shows.
    public var selectedViewController: ControllerID?
    /// Id of its More navigation controller (R88).
    public var moreNavigationController: ControllerID?
    public init(
        viewControllers: [ControllerID] = [], selectedViewController: ControllerID? = nil,
        moreNavigationController: ControllerID? = nil
    ) {
        self.viewControllers = viewControllers
        self.selectedViewController = selectedViewController
        self.moreNavigationController = moreNavigationController
    }
}

/// A page view controller's settings and current pages (R94, R95).
public struct PageContainer: Sendable, Equatable {
    public var settings = PageState(transitionStyle: .scroll, spineLocation: nil, isDoubleSided: false)
    public var viewControllers: [ControllerID] = []
    public init(
        settings: PageState = PageState(transitionStyle: .scroll, spineLocation: nil, isDoubleSided: false),
        viewControllers: [ControllerID] = []
    ) {
        self.settings = settings
        self.viewControllers = viewControllers
    }
}

/// An alert controller's style (`preferredStyle`; nil: not given, an alert).
public struct AlertState: Sendable, Equatable {
    public var preferredStyle: AlertStyle?
    public init(preferredStyle: AlertStyle? = nil) { self.preferredStyle = preferredStyle }
}

/// The kind-specific state by kind: a view is nil on the other kinds, and setting it there
/// changes nothing (write `c.navigationStack?.viewControllers.append(v)`). Declared once here, on
/// the container, so that code changing a controller's members together
/// (``Controller/change(_:)``) reads and writes them the same way.
extension Container {
    public var navigationStack: NavigationStack? {
        get { if case .navigation(let s) = self { s } else { nil } }
        set { if let newValue, case .navigation = self { self = .navigation(newValue) } }
    }
    public var tabState: TabState? {
        get { if case .tabs(let s) = self { s } else { nil } }
        set { if let newValue, case .tabs = self { self = .tabs(newValue) } }
    }
    public var splitState: SplitState? {
        get { if case .split(let s) = self { s } else { nil } }
        set { if let newValue, case .split = self { self = .split(newValue) } }
    }
    public var pageContainer: PageContainer? {
        get { if case .pages(let s) = self { s } else { nil } }
        set { if let newValue, case .pages = self { self = .pages(newValue) } }
    }
    public var alertState: AlertState? {
        get { if case .alert(let s) = self { s } else { nil } }
        set { if let newValue, case .alert = self { self = .alert(newValue) } }
    }
}

/// The container's views (above) on the controller itself.
extension Controller {
    public var navigationStack: NavigationStack? {
        get { container.navigationStack }
        set { container.navigationStack = newValue }
    }
    public var tabState: TabState? {
        get { container.tabState }
        set { container.tabState = newValue }
    }
    public var splitState: SplitState? {
        get { container.splitState }
        set { container.splitState = newValue }
    }
    public var pageContainer: PageContainer? {
        get { container.pageContainer }
        set { container.pageContainer = newValue }
    }
    public var alertState: AlertState? {
        get { container.alertState }
        set { container.alertState = newValue }
    }

    /// Navigation stack, tab list or current pages (`viewControllers`); empty for other kinds.
    public var viewControllers: [ControllerID] {
        switch container {
        case .navigation(let s): s.viewControllers
        case .tabs(let t): t.viewControllers
        case .pages(let p): p.viewControllers
        case .plain, .split, .alert: []
        }
    }
    /// Tab bar: the selected controller (a tab, or `<id>.more` while the More list shows).
    public var selectedViewController: ControllerID? { tabState?.selectedViewController }
    /// Tab bar: id of its More navigation controller (R88).
    public var moreNavigationController: ControllerID? { tabState?.moreNavigationController }
    /// Is this a tab bar's More navigation controller?
    public var isMoreNavigationController: Bool { navigationStack?.isMoreNavigationController ?? false }
    /// A split view controller's columns and collapse state (R90–R93).
    public var split: SplitState? { splitState }
    /// A page view controller's settings (R94).
    public var page: PageState? { pageContainer?.settings }
    /// An alert controller's `preferredStyle`.
    public var preferredStyle: AlertStyle? { alertState?.preferredStyle }
}

/// One window and everything in it: the value the core transforms (docs/architecture.md "Inside the core").
public struct SessionState: Sendable, Equatable {
    public var traits: Traits
    public var options: Options
    public var rootViewController: ControllerID?
    public var controllers: [ControllerID: Controller] = [:]
    /// Creation order of controllers, so replies list them stably.
    public var order: [ControllerID] = []
    /// Animated transitions still running (manual mode).
    public var transitions: [RunningTransition] = []
    /// Counters that make generated ids deterministic, so a replay reproduces them.
    public var nextControllerNumber: Int = 1
    public var nextTransitionNumber: Int = 1

    public init(traits: Traits = .phonePortrait, options: Options = Options()) {
        self.traits = traits
        self.options = options
    }

    public subscript(id: ControllerID) -> Controller? {
        get { controllers[id] }
    }
}

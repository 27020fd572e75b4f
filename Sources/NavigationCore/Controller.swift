/// One view controller: what UIKit stores on it. Derived properties (`presentingViewController`,
/// `navigationController`, …) are computed by `SessionState`, never stored twice (R3–R5).
/// What client code sets is in ``configuration``, read and written through it by name
/// (`c.modalPresentationStyle` is `c.configuration.modalPresentationStyle`).
@dynamicMemberLookup
public struct Controller: Sendable, Equatable {
    public var id: ControllerID
    public var kind: ControllerKind
    public var className: String
    public var parent: ControllerID?
    /// Containment children in order (`children`).
    public var children: [ControllerID] = []
    /// The client-settable properties (title, styles, delegates, …).
    public var configuration: ControllerConfiguration
    public var storyboard: StoryboardOrigin?
    public var isViewLoaded: Bool = false
    public var appearance: Appearance = .disappeared
    public var viewInWindow: Bool = false
    public var isBeingPresented: Bool = false
    public var isBeingDismissed: Bool = false
    public var isMovingToParent: Bool = false
    public var isMovingFromParent: Bool = false
    /// Set on the presented controller while it is presented.
    public var presentation: Presentation?
    /// The controller this one presents directly (the record lives on that one).
    public var presentedID: ControllerID?
    /// What this controller holds because of its kind (stack, tabs, columns, pages, alert style).
    /// Change it through the kind's view (``navigationStack``, ``tabState``, ``splitState``,
    /// ``pageContainer``, ``alertState``); read it by the names below.
    public var container: Container
    /// A custom container's child whose view was inserted (`addSubview`, R71).
    public var viewAddedToParent: Bool = false
    /// Storyboard segues of this controller's scene, resolved by the storyboard layer.
    public var segues: [SegueSpec] = []
    /// Made detached in an `automatic` session: the client holds it until it releases it
    /// (``Holder/client``; always false in `manual` sessions, where nothing is dropped unasked).
    public var isHeldByClient: Bool = false
    /// R105: the `animated` argument of the last `beginAppearanceTransition(_:animated:)`, which
    /// the `viewDid…` of the matching `endAppearanceTransition()` passes on.
    public var manualAppearanceAnimated: Bool = false
    /// R118, R119: `updateProperties()` has run since the view was made or last invalidated
    /// (`setNeedsUpdateProperties()`); only the iOS 26 profile ever sets it.
    public var propertiesUpToDate: Bool = false

    /// A configuration property by name: `c.title`, `c.definesPresentationContext`, …
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<ControllerConfiguration, T>) -> T {
        get { configuration[keyPath: keyPath] }
        set { configuration[keyPath: keyPath] = newValue }
    }

    public init(id: ControllerID, kind: ControllerKind, className: String? = nil, title: String? = nil) {
        self.id = id
        self.kind = kind
        self.className = className ?? kind.uikitClass
        container = Container(kind: kind)
        configuration = ControllerConfiguration()
        configuration.title = title
        // R21: UINavigationController defines a presentation context by default.
        configuration.definesPresentationContext = kind == .navigationController
    }

    /// The performable storyboard segue a client names (relationship and embed segues are not):
    /// by identifier (R97: `performSegue(withIdentifier:)` knows nothing else, so an unnamed
    /// segue's element id is D18), or by element id too when `acceptingElementID` (a user's tap,
    /// `triggerSegue`, takes "storyboard segue id or identifier", docs/api.md).
    public func segue(named name: String, acceptingElementID: Bool = false) -> SegueSpec? {
        let performable = segues.filter { $0.kind != .relationship && $0.kind != .embed }
        return performable.first { $0.identifier == name }
            ?? (acceptingElementID ? performable.first { $0.id == name } : nil)
    }

    /// `<Class: id>`, how UIKit-style messages name a controller (docs/api.md).
    public var descriptionForMessages: String { "<\(className): \(id)>" }
}

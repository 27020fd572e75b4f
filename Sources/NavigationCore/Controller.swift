/// One view controller: what UIKit stores on it. Derived properties (`presentingViewController`,
/// `navigationController`, …) are computed by `SessionState`, never stored twice (R3–R5).
/// What client code sets is in ``configuration``, read and written through it by name
/// (`c.modalPresentationStyle` is `c.configuration.modalPresentationStyle`).
@dynamicMemberLookup
public struct Controller: Sendable, Equatable, CustomReflectable {
    /// The members, in one immutable box that copies of a controller share: every version of a
    /// session keeps a copy of each controller, and a shared box makes that copy one reference
    /// count instead of one per member. A change builds the next box (copy on write).
    private var box: Box

    /// Every member, as UIKit stores it on a view controller.
    struct Fields: Sendable, Equatable {
        var id: ControllerID
        var kind: ControllerKind
        var className: String
        var parent: ControllerID?
        var children: [ControllerID] = []
        var configuration: ControllerConfiguration
        var storyboard: StoryboardOrigin?
        var isViewLoaded: Bool = false
        var appearance: Appearance = .disappeared
        var viewInWindow: Bool = false
        var isBeingPresented: Bool = false
        var isBeingDismissed: Bool = false
        var isMovingToParent: Bool = false
        var isMovingFromParent: Bool = false
        var presentation: Presentation?
        var presentedID: ControllerID?
        var container: Container
        var viewAddedToParent: Bool = false
        var segues: [SegueSpec] = []
        var isHeldByClient: Bool = false
        var manualAppearanceAnimated: Bool = false
        var propertiesUpToDate: Bool = false
        var traitsLastSeen: Traits? = nil
    }

    final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    public static func == (a: Controller, b: Controller) -> Bool { a.box === b.box || a.box.fields == b.box.fields }

    /// Reflection (debuggers, `dump`, state diffs in tests) sees the members, not the box.
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: box.fields).children, displayStyle: .struct)
    }

    public var id: ControllerID {
        get { box.fields.id }
        _modify {
            var fields = box.fields
            yield &fields.id
            box = Box(fields)
        }
    }
    public var kind: ControllerKind {
        get { box.fields.kind }
        _modify {
            var fields = box.fields
            yield &fields.kind
            box = Box(fields)
        }
    }
    public var className: String {
        get { box.fields.className }
        _modify {
            var fields = box.fields
            yield &fields.className
            box = Box(fields)
        }
    }
    public var parent: ControllerID? {
        get { box.fields.parent }
        _modify {
            var fields = box.fields
            yield &fields.parent
            box = Box(fields)
        }
    }
    /// Containment children in order (`children`).
    public var children: [ControllerID] {
        get { box.fields.children }
        _modify {
            var fields = box.fields
            yield &fields.children
            box = Box(fields)
        }
    }
    /// The client-settable properties (title, styles, delegates, …).
    public var configuration: ControllerConfiguration {
        get { box.fields.configuration }
        _modify {
            var fields = box.fields
            yield &fields.configuration
            box = Box(fields)
        }
    }
    public var storyboard: StoryboardOrigin? {
        get { box.fields.storyboard }
        _modify {
            var fields = box.fields
            yield &fields.storyboard
            box = Box(fields)
        }
    }
    public var isViewLoaded: Bool {
        get { box.fields.isViewLoaded }
        _modify {
            var fields = box.fields
            yield &fields.isViewLoaded
            box = Box(fields)
        }
    }
    public var appearance: Appearance {
        get { box.fields.appearance }
        _modify {
            var fields = box.fields
            yield &fields.appearance
            box = Box(fields)
        }
    }
    public var viewInWindow: Bool {
        get { box.fields.viewInWindow }
        _modify {
            var fields = box.fields
            yield &fields.viewInWindow
            box = Box(fields)
        }
    }
    public var isBeingPresented: Bool {
        get { box.fields.isBeingPresented }
        _modify {
            var fields = box.fields
            yield &fields.isBeingPresented
            box = Box(fields)
        }
    }
    public var isBeingDismissed: Bool {
        get { box.fields.isBeingDismissed }
        _modify {
            var fields = box.fields
            yield &fields.isBeingDismissed
            box = Box(fields)
        }
    }
    public var isMovingToParent: Bool {
        get { box.fields.isMovingToParent }
        _modify {
            var fields = box.fields
            yield &fields.isMovingToParent
            box = Box(fields)
        }
    }
    public var isMovingFromParent: Bool {
        get { box.fields.isMovingFromParent }
        _modify {
            var fields = box.fields
            yield &fields.isMovingFromParent
            box = Box(fields)
        }
    }
    /// Set on the presented controller while it is presented.
    public var presentation: Presentation? {
        get { box.fields.presentation }
        _modify {
            var fields = box.fields
            yield &fields.presentation
            box = Box(fields)
        }
    }
    /// The controller this one presents directly (the record lives on that one).
    public var presentedID: ControllerID? {
        get { box.fields.presentedID }
        _modify {
            var fields = box.fields
            yield &fields.presentedID
            box = Box(fields)
        }
    }
    /// What this controller holds because of its kind (stack, tabs, columns, pages, alert style).
    /// Change it through the kind's view (``navigationStack``, ``tabState``, ``splitState``,
    /// ``pageContainer``, ``alertState``); read it by the names below.
    public var container: Container {
        get { box.fields.container }
        _modify {
            var fields = box.fields
            yield &fields.container
            box = Box(fields)
        }
    }
    /// A custom container's child whose view was inserted (`addSubview`, R71).
    public var viewAddedToParent: Bool {
        get { box.fields.viewAddedToParent }
        _modify {
            var fields = box.fields
            yield &fields.viewAddedToParent
            box = Box(fields)
        }
    }
    /// Storyboard segues of this controller's scene, resolved by the storyboard layer.
    public var segues: [SegueSpec] {
        get { box.fields.segues }
        _modify {
            var fields = box.fields
            yield &fields.segues
            box = Box(fields)
        }
    }
    /// Made detached in an `automatic` session: the client holds it until it releases it
    /// (``Holder/client``; always false in `manual` sessions, where nothing is dropped unasked).
    public var isHeldByClient: Bool {
        get { box.fields.isHeldByClient }
        _modify {
            var fields = box.fields
            yield &fields.isHeldByClient
            box = Box(fields)
        }
    }
    /// R105: the `animated` argument of the last `beginAppearanceTransition(_:animated:)`, which
    /// the `viewDid…` of the matching `endAppearanceTransition()` passes on.
    public var manualAppearanceAnimated: Bool {
        get { box.fields.manualAppearanceAnimated }
        _modify {
            var fields = box.fields
            yield &fields.manualAppearanceAnimated
            box = Box(fields)
        }
    }
    /// R118, R119: `updateProperties()` has run since the view was made or last invalidated
    /// (`setNeedsUpdateProperties()`); only the iOS 26 profile ever sets it.
    public var propertiesUpToDate: Bool {
        get { box.fields.propertiesUpToDate }
        _modify {
            var fields = box.fields
            yield &fields.propertiesUpToDate
            box = Box(fields)
        }
    }
    /// R166: the trait collection the controller last saw, kept while its view is out of the
    /// window and a trait change passed it by; nil otherwise (the controller is up to date).
    public var traitsLastSeen: Traits? {
        get { box.fields.traitsLastSeen }
        _modify {
            var fields = box.fields
            yield &fields.traitsLastSeen
            box = Box(fields)
        }
    }

    /// A configuration property by name: `c.title`, `c.definesPresentationContext`, …
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<ControllerConfiguration, T>) -> T {
        get { configuration[keyPath: keyPath] }
        set { configuration[keyPath: keyPath] = newValue }
    }

    /// Changes several members through one copy of the box: each member's own accessor copies
    /// every member into a new box, so code that sets a few at once sets them here.
    mutating func change(_ body: (inout Fields) -> Void) {
        var fields = box.fields
        body(&fields)
        box = Box(fields)
    }

    public init(id: ControllerID, kind: ControllerKind, className: String? = nil, title: String? = nil) {
        var configuration = ControllerConfiguration()
        configuration.title = title
        // R21: UINavigationController defines a presentation context by default.
        configuration.definesPresentationContext = kind == .navigationController
        box = Box(
            Fields(
                id: id, kind: kind, className: className ?? kind.uikitClass, configuration: configuration,
                container: Container(kind: kind)))
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

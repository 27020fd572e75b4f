public import NavigationCore

/// One scene of a storyboard: the view controller (or storyboard reference) that a
/// `<scene>` holds, with the segues whose source lives in that scene.
///
/// Source: ../shared/spec/storyboard-format.md §2 (one controller per scene, found by
/// `sceneMemberID="viewController"`), §3 (controller attributes), §6 (references).
@dynamicMemberLookup
public struct Scene: Sendable, Equatable {
    /// The controller element's `id`, unique within its file only (§1 "Ids").
    public var id: String
    /// What UIKit builds for this scene (``ControllerElement/kind(of:)``). A storyboard
    /// reference (``placeholder`` set) is ``ControllerKind/viewController`` here: what it
    /// builds is the kind of the scene it resolves to (``StoryboardLibrary/resolve(_:)``).
    public var kind: ControllerKind
    /// The element name as written (`viewController`, `avPlayerViewController`, …).
    public var elementName: String
    /// `customClass`: the subclass Interface Builder names, if any.
    public var customClass: String?
    /// `customModule`: the Swift module of ``customClass`` (absent for Objective-C classes).
    public var customModule: String?
    /// ``customClass`` when set, else the UIKit class the element stands for
    /// (`UINavigationController`, `AVPlayerViewController`, …).
    public var className: String
    /// `storyboardIdentifier`: the Storyboard ID used by `instantiateViewController(withIdentifier:)`
    /// and by other files' `referencedIdentifier` (R101).
    public var storyboardIdentifier: String?
    /// The controller's `title` attribute.
    public var title: String?
    /// `title` of the controller's own `<navigationItem key="navigationItem">`: what a navigation bar shows.
    public var navigationItemTitle: String?
    /// `title` of the controller's own `<tabBarItem key="tabBarItem">`: the tab's label in a tab bar.
    public var tabBarItemTitle: String?
    /// What the controller element's attributes set on its controller (§3), under the core's
    /// names (``ControllerConfiguration/fields``): `modalPresentationStyle` (a segue's own value
    /// wins, §8), `modalTransitionStyle`, `definesPresentationContext`,
    /// `providesPresentationContextTransitionStyle` and the modal-in-presentation flag. A
    /// spelling the core has no case for is left unset, with an `unsupported-value` diagnostic.
    public var configuration: ControllerPatch
    /// Column style, only for split view controllers (§5); nil for every other kind.
    public var splitStyle: SplitState.Style?
    /// Page settings, only for page view controllers (§3); nil for every other kind.
    public var page: PageSettings?
    /// Segues whose source is this controller or an object inside its scene (a cell, a button,
    /// a bar button item, a container view, a gesture recognizer), in document order.
    /// Relationship segues keep their order, which is the tab order (§5).
    public var segues: [Segue]
    /// Ids of the scene's `<exit>` objects: the destinations of its unwind segues (§7).
    public var exitIDs: [String]
    /// The storyboard reference, when the scene is one (`viewControllerPlaceholder`, §6).
    public var placeholder: StoryboardReference?

    /// A property the element's attributes set (``configuration``), read by the core's name
    /// (`scene.definesPresentationContext`); nil when the element does not set it.
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<ControllerConfiguration, T>) -> T? {
        configuration.value(keyPath)
    }

    /// True for a storyboard reference: the controller comes from another (or the same) storyboard.
    public var isReference: Bool { placeholder != nil }

    /// Builds a scene; `className` defaults to `customClass` or the UIKit class of `elementName`.
    public init(
        id: String,
        kind: ControllerKind,
        elementName: String? = nil,
        customClass: String? = nil,
        customModule: String? = nil,
        className: String? = nil,
        storyboardIdentifier: String? = nil,
        title: String? = nil,
        navigationItemTitle: String? = nil,
        tabBarItemTitle: String? = nil,
        configuration: ControllerPatch = ControllerPatch(),
        splitStyle: SplitState.Style? = nil,
        page: PageSettings? = nil,
        segues: [Segue] = [],
        exitIDs: [String] = [],
        placeholder: StoryboardReference? = nil
    ) {
        let element = elementName ?? (placeholder != nil ? ControllerElement.referenceElementName : kind.rawValue)
        self.id = id
        self.kind = kind
        self.elementName = element
        self.customClass = customClass
        self.customModule = customModule
        self.className = className ?? customClass ?? ControllerElement.uikitClass(of: element, kind: kind)
        self.storyboardIdentifier = storyboardIdentifier
        self.title = title
        self.navigationItemTitle = navigationItemTitle
        self.tabBarItemTitle = tabBarItemTitle
        self.configuration = configuration
        self.splitStyle = splitStyle
        self.page = page
        self.segues = segues
        self.exitIDs = exitIDs
        self.placeholder = placeholder
    }

    /// Relationship segues (containment children) in document order: a navigation controller's
    /// root, a tab bar controller's tabs in tab order, a split's columns.
    public var relationships: [Segue] { segues.filter { $0.kind == .relationship } }

    /// Segues with this `identifier`, in document order. Identifiers are not unique even within
    /// one controller (§4.3, EmojiArt), so all matches are returned; UIKit uses the first.
    public func segues(withIdentifier identifier: String) -> [Segue] {
        segues.filter { $0.identifier == identifier }
    }

    /// The destination of the first relationship segue named `relationship`
    /// (`rootViewController`, `masterViewController`, …), if any.
    public func relationshipDestination(_ relationship: String) -> String? {
        segues.first { $0.kind == .relationship && $0.relationship == relationship }?.destination
    }
}

/// A page view controller's settings (../shared/spec/storyboard-format.md §3); the transition style is the
/// core's (an unknown spelling is nil and an `unsupported-value` diagnostic).
public struct PageSettings: Sendable, Equatable {
    /// `transitionStyle`: `scroll` or `pageCurl`.
    public var transitionStyle: PageState.Style?
    /// `navigationOrientation`: `horizontal` or `vertical` (another spelling is nil and an
    /// `unsupported-value` diagnostic).
    public var navigationOrientation: String?
    /// The spellings of `UIPageViewController.NavigationOrientation`'s cases.
    public static let navigationOrientations: Set<String> = ["horizontal", "vertical"]
    /// `spineLocation`: `none`, `min`, `mid` or `max` (an unknown spelling is nil and an
    /// `unsupported-value` diagnostic).
    public var spineLocation: PageState.SpineLocation?
    /// `isDoubleSided` (`doubleSided` in the XML).
    public var isDoubleSided: Bool?

    /// Builds the settings.
    public init(
        transitionStyle: PageState.Style? = nil, navigationOrientation: String? = nil,
        spineLocation: PageState.SpineLocation? = nil, isDoubleSided: Bool? = nil
    ) {
        self.transitionStyle = transitionStyle
        self.navigationOrientation = navigationOrientation
        self.spineLocation = spineLocation
        self.isDoubleSided = isDoubleSided
    }
}

/// A storyboard reference's target (../shared/spec/storyboard-format.md §6).
public struct StoryboardReference: Sendable, Equatable, Hashable {
    /// `storyboardName`; nil means the storyboard that holds the reference.
    public var storyboardName: String?
    /// `referencedIdentifier`; nil (or empty in the XML) means the target storyboard's
    /// initial view controller.
    public var referencedIdentifier: String?

    /// Builds a reference; an empty `referencedIdentifier` counts as absent.
    public init(storyboardName: String? = nil, referencedIdentifier: String? = nil) {
        self.storyboardName = storyboardName.flatMap { $0.isEmpty ? nil : $0 }
        self.referencedIdentifier = referencedIdentifier.flatMap { $0.isEmpty ? nil : $0 }
    }
}

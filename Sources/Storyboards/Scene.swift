/// One scene of a storyboard: the view controller (or storyboard reference) that a
/// `<scene>` holds, with the segues whose source lives in that scene.
///
/// Source: storyboard-format.md §2 (one controller per scene, found by
/// `sceneMemberID="viewController"`), §3 (controller attributes), §6 (references).
public struct Scene: Sendable, Equatable {
    /// The controller element's `id`, unique within its file only (§1 "Ids").
    public var id: String
    /// What UIKit builds for this scene. See ``SceneKind/init(elementName:)``.
    public var kind: SceneKind
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
    /// `modalPresentationStyle` set on the controller itself (§3; a segue's own value wins, §8),
    /// spelled as UIKit's `UIModalPresentationStyle` case (`formSheet`, `overCurrentContext`, …).
    public var modalPresentationStyle: String?
    /// `modalTransitionStyle` on the controller itself, spelled as `UIModalTransitionStyle` (`flipHorizontal`, …).
    public var modalTransitionStyle: String?
    /// `definesPresentationContext` (matters for current-context presentations).
    public var definesPresentationContext: Bool?
    /// `providesPresentationContextTransitionStyle`.
    public var providesPresentationContextTransitionStyle: Bool?
    /// `isModalInPresentation` (`modalInPresentation` in the XML).
    public var isModalInPresentation: Bool?
    /// Column style, only for split view controllers (§5); nil for every other kind.
    public var splitStyle: SplitStyle?
    /// Page settings, only for page view controllers (§3); nil for every other kind.
    public var page: PageSettings?
    /// Segues whose source is this controller or an object inside its scene (a cell, a button,
    /// a bar button item, a container view, a gesture recognizer), in document order.
    /// Relationship segues keep their order, which is the tab order (§5).
    public var segues: [Segue]
    /// Ids of the scene's `<exit>` objects: the destinations of its unwind segues (§7).
    public var exitIDs: [String]
    /// The storyboard reference, when ``kind`` is ``SceneKind/placeholder`` (§6).
    public var placeholder: StoryboardReference?

    /// Builds a scene; `className` defaults to `customClass` or the UIKit class of `elementName`.
    public init(
        id: String,
        kind: SceneKind,
        elementName: String? = nil,
        customClass: String? = nil,
        customModule: String? = nil,
        className: String? = nil,
        storyboardIdentifier: String? = nil,
        title: String? = nil,
        navigationItemTitle: String? = nil,
        tabBarItemTitle: String? = nil,
        modalPresentationStyle: String? = nil,
        modalTransitionStyle: String? = nil,
        definesPresentationContext: Bool? = nil,
        providesPresentationContextTransitionStyle: Bool? = nil,
        isModalInPresentation: Bool? = nil,
        splitStyle: SplitStyle? = nil,
        page: PageSettings? = nil,
        segues: [Segue] = [],
        exitIDs: [String] = [],
        placeholder: StoryboardReference? = nil
    ) {
        let element = elementName ?? kind.defaultElementName
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
        self.modalPresentationStyle = modalPresentationStyle
        self.modalTransitionStyle = modalTransitionStyle
        self.definesPresentationContext = definesPresentationContext
        self.providesPresentationContextTransitionStyle = providesPresentationContextTransitionStyle
        self.isModalInPresentation = isModalInPresentation
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

/// What a scene's controller is, named as the API names controller kinds
/// (API.md "Storyboards": `kind`).
///
/// Every controller element seen in the corpus maps to a case (storyboard-format.md §3);
/// leaf controllers from other frameworks (AVKit, GLKit, SwiftUI) are ``viewController`` with
/// their own ``Scene/className``.
public enum SceneKind: String, Sendable, Equatable, Hashable, CaseIterable {
    case viewController
    case tableViewController
    case collectionViewController
    case navigationController
    case tabBarController
    case splitViewController
    case pageViewController
    /// Listed for parity with the API's kinds. A storyboard cannot design a `UIAlertController`,
    /// so the parser never produces it.
    case alertController
    /// A storyboard reference (`viewControllerPlaceholder`, §6): the controller comes from
    /// another (or the same) storyboard; see ``Scene/placeholder``.
    case placeholder

    /// Maps a controller element name to a kind; unknown names that end in `Controller` are
    /// treated as plain view controllers (Xcode adds leaf controller types now and then), and
    /// anything else is nil.
    public init?(elementName: String) {
        if let known = ControllerElement.table[elementName] {
            self = known.kind
        } else if elementName.hasSuffix("Controller") {
            self = .viewController
        } else {
            return nil
        }
    }

    /// Controller element names with a known mapping: every one seen in the corpus and the
    /// background scan (storyboard-format.md §3, §10).
    public static var knownElementNames: Set<String> { Set(ControllerElement.table.keys) }

    /// The element Interface Builder writes for this kind.
    var defaultElementName: String {
        switch self {
        case .placeholder: "viewControllerPlaceholder"
        default: rawValue
        }
    }
}

/// A split view controller's column style (storyboard-format.md §5).
public enum SplitStyle: String, Sendable, Equatable, Hashable {
    /// Classic master/detail split (no `allowDoubleColumnStyle`).
    case unspecified
    /// `allowDoubleColumnStyle="YES"` without a supplementary column.
    case doubleColumn
    /// Has a `supplementaryViewController` relationship.
    case tripleColumn
}

/// A page view controller's settings, spelled as UIKit's enum cases (storyboard-format.md §3).
public struct PageSettings: Sendable, Equatable {
    /// `transitionStyle`: `scroll` or `pageCurl`.
    public var transitionStyle: String?
    /// `navigationOrientation`: `horizontal` or `vertical`.
    public var navigationOrientation: String?
    /// `spineLocation`: `none`, `min`, `mid` or `max`.
    public var spineLocation: String?
    /// `isDoubleSided` (`doubleSided` in the XML).
    public var isDoubleSided: Bool?

    /// Builds the settings from their UIKit spellings.
    public init(transitionStyle: String? = nil, navigationOrientation: String? = nil,
                spineLocation: String? = nil, isDoubleSided: Bool? = nil) {
        self.transitionStyle = transitionStyle
        self.navigationOrientation = navigationOrientation
        self.spineLocation = spineLocation
        self.isDoubleSided = isDoubleSided
    }
}

/// A storyboard reference's target (storyboard-format.md §6).
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

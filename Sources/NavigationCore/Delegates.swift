// The delegates and presentation settings code sets on a controller, as values: what each
// answers when UIKit asks, nil where the method is not implemented (docs/api.md, ControllerSpec).

/// A custom animator set as `transitioningDelegate` (R56–R62): its name and duration in seconds.
public struct TransitioningDelegate: Sendable, Codable, Equatable {
    public var name: String
    public var duration: Double
    public init(name: String, duration: Double) { self.name = name; self.duration = duration }
}

/// The answers of a `UIAdaptivePresentationControllerDelegate` (R47–R52), which is also the
/// `UIPopoverPresentationControllerDelegate` of a popover. Nil answers mean the method is not
/// implemented.
public struct PresentationDelegate: Sendable, Codable, Equatable {
    public var shouldDismiss: Bool?
    public var adaptivePresentationStyle: PresentationStyle?
    /// R153: `popoverPresentationControllerShouldDismissPopover(_:)`, deprecated in iOS 13.
    public var shouldDismissPopover: Bool?
    /// R150: what `presentationController(_:viewControllerForAdaptivePresentationStyle:)` returns
    /// around the presented controller while the presentation is adapted.
    public var viewControllerForAdaptivePresentationStyle: AdaptiveReplacement?
    /// R161: whether the delegate implements `presentationControllerWillDismiss(_:)`,
    /// `presentationControllerDidDismiss(_:)` and `presentationControllerDidAttemptToDismiss(_:)`.
    /// These return nothing, so there is no answer to give: nil (a set delegate implements every
    /// method, docs/api.md) or true is implemented, false is not, and UIKit does not call it.
    public var willDismiss: Bool?
    public var didDismiss: Bool?
    public var didAttemptToDismiss: Bool?
    public init(
        shouldDismiss: Bool? = nil, adaptivePresentationStyle: PresentationStyle? = nil,
        shouldDismissPopover: Bool? = nil, viewControllerForAdaptivePresentationStyle: AdaptiveReplacement? = nil,
        willDismiss: Bool? = nil, didDismiss: Bool? = nil, didAttemptToDismiss: Bool? = nil
    ) {
        self.shouldDismiss = shouldDismiss
        self.adaptivePresentationStyle = adaptivePresentationStyle
        self.shouldDismissPopover = shouldDismissPopover
        self.viewControllerForAdaptivePresentationStyle = viewControllerForAdaptivePresentationStyle
        self.willDismiss = willDismiss
        self.didDismiss = didDismiss
        self.didAttemptToDismiss = didAttemptToDismiss
    }

    /// R161: UIKit calls an optional delegate method only when the delegate responds to it
    /// (`responds(to:)`): the should-dismiss questions when an answer is given, the void ones
    /// unless the client said the delegate leaves them out.
    public var implementsWillDismiss: Bool { willDismiss != false }
    public var implementsDidDismiss: Bool { didDismiss != false }
    public var implementsDidAttemptToDismiss: Bool { didAttemptToDismiss != false }
}

/// R150: the controller an adaptive delegate builds to show in place of the presented one, as
/// Apple's documentation of `presentationController(_:viewControllerForAdaptivePresentationStyle:)`
/// suggests: a navigation controller whose root is the presented controller.
public enum AdaptiveReplacement: String, Sendable, Codable, CaseIterable {
    case navigationController
}

/// R152: what code sets on a controller's `popoverPresentationController`: the views (named by
/// the controllers whose views they are) a tap outside the popover reaches instead of dismissing it.
public struct PopoverSettings: Sendable, Codable, Equatable {
    public var passthroughViews: [ControllerID]
    public init(passthroughViews: [ControllerID] = []) { self.passthroughViews = passthroughViews }
}

/// Size classes a controller overrides for itself and its descendants (R74: iOS 17
/// `traitOverrides`; `setOverrideTraitCollection(_:forChild:)` before). Nil fields are inherited.
public struct TraitOverrides: Sendable, Codable, Equatable {
    public var horizontalSizeClass: Traits.SizeClass?
    public var verticalSizeClass: Traits.SizeClass?
    public init(horizontalSizeClass: Traits.SizeClass? = nil, verticalSizeClass: Traits.SizeClass? = nil) {
        self.horizontalSizeClass = horizontalSizeClass
        self.verticalSizeClass = verticalSizeClass
    }
}

/// A `UINavigationControllerDelegate` (R82): told `willShow`/`didShow` around each visible top change.
/// R140: nil answers mean the method is not implemented (UIKit's own animation, not interactive).
public struct NavigationDelegate: Sendable, Codable, Equatable {
    /// `navigationController(_:animationControllerFor:from:to:)`'s animator, for every push and pop.
    public var animationController: TransitioningDelegate?
    /// `navigationController(_:interactionControllerFor:)`'s interaction controller, by name.
    public var interactionController: String?
    public init(animationController: TransitioningDelegate? = nil, interactionController: String? = nil) {
        self.animationController = animationController
        self.interactionController = interactionController
    }
}

/// A `UITabBarControllerDelegate` (R87, R89): asked `shouldSelect` and told `didSelect` on user taps
/// only. `shouldSelect` nil means the method is not implemented (selection allowed).
public struct TabBarDelegate: Sendable, Codable, Equatable {
    public var shouldSelect: Bool?
    public init(shouldSelect: Bool? = nil) { self.shouldSelect = shouldSelect }
}

/// A `UISplitViewControllerDelegate` as a spec or a PATCH gives it (R174): each answer is the one
/// the delegate's method returns, nil when it does not implement it (R91, R122). The core keeps
/// it with the split's columns (``SplitState/setDelegate(_:)``), where collapsing reads it.
public struct SplitDelegate: Sendable, Codable, Equatable {
    /// Classic: `splitViewController(_:collapseSecondary:onto:)`.
    public var collapseSecondaryOntoPrimary: Bool?
    /// Column style: `splitViewController(_:topColumnForCollapsingToProposedTopColumn:)`.
    public var topColumnForCollapsing: SplitState.Column?
    /// Classic: `splitViewController(_:show:sender:)` and `(_:showDetail:sender:)`.
    public var show: Bool?
    public var showDetail: Bool?
    public init(
        collapseSecondaryOntoPrimary: Bool? = nil, topColumnForCollapsing: SplitState.Column? = nil, show: Bool? = nil,
        showDetail: Bool? = nil
    ) {
        self.collapseSecondaryOntoPrimary = collapseSecondaryOntoPrimary
        self.topColumnForCollapsing = topColumnForCollapsing
        self.show = show
        self.showDetail = showDetail
    }
}

public import NavigationCore

/// What a custom segue class's `perform` does, as a client declares it with
/// `PUT /v1/storyboards/{name}/customSegues` (docs/storyboards.md "Custom segue declarations";
/// R98 "Custom": subclass `perform()`, app code navsim cannot see). An undeclared class presents
/// modally.
public struct CustomSegueDeclaration: Sendable, Equatable {
    /// What a custom `perform()` may do (the core's own list).
    public typealias Performs = SegueSpec.CustomPerform

    /// What `perform()` calls.
    public var performs: Performs
    /// The presentation style the class sets on the destination; nil: the segue's own.
    public var modalPresentationStyle: PresentationStyle?
    /// The transition style the class sets on the destination; nil: the segue's own.
    public var modalTransitionStyle: TransitionStyle?
    /// The animator the class installs, if any (R56–R62).
    public var transitioningDelegate: TransitioningDelegate?
    /// The `animated:` argument `perform()` passes (`pushViewController(_:animated: false)` after
    /// a layer animation of its own, say); nil: the segue's Animates setting.
    public var animated: Bool?
    /// The sheet settings `perform()` sets on the destination before presenting it (R110); nil: none.
    public var sheetPresentationController: SheetSettings?

    /// A declaration; a style left nil keeps the segue's own.
    public init(
        performs: Performs, modalPresentationStyle: PresentationStyle? = nil, modalTransitionStyle: TransitionStyle? = nil,
        transitioningDelegate: TransitioningDelegate? = nil, animated: Bool? = nil
    ) {
        self.performs = performs
        self.animated = animated
        self.modalPresentationStyle = modalPresentationStyle
        self.modalTransitionStyle = modalTransitionStyle
        self.transitioningDelegate = transitioningDelegate
    }
}

/// The declarations of one storyboard, by segue class name.
public struct CustomSegueDeclarations: Sendable, Equatable {
    /// Each declared class's declaration.
    public var byClass: [String: CustomSegueDeclaration]

    /// Declarations by class name; none by default.
    public init(byClass: [String: CustomSegueDeclaration] = [:]) { self.byClass = byClass }

    /// The declaration of `customClass`; nil when it is not declared.
    public subscript(customClass: String) -> CustomSegueDeclaration? { byClass[customClass] }

    /// The declared class names.
    public var classes: Set<String> { Set(byClass.keys) }

    /// The declarations of `classes` only; nil when none is declared.
    public func only(_ classes: Set<String>) -> CustomSegueDeclarations? {
        let kept = byClass.filter { classes.contains($0.key) }
        return kept.isEmpty ? nil : CustomSegueDeclarations(byClass: kept)
    }
}

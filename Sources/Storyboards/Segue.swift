public import NavigationCore

/// One `<segue>` element that is a real edge (../shared/spec/storyboard-format.md §4): tie-breaker
/// `<segue reference=…>` elements and nested preview/commit segues are not segues (§4.2).
public struct Segue: Sendable, Equatable {
    /// The segue's own `id`.
    public var id: String
    /// `identifier` for `performSegue(withIdentifier:)` / `prepare(for:)`; `identifier=""` is nil (§4.3).
    public var identifier: String?
    /// The kind, with legacy kinds normalised except `push` (R98).
    public var kind: SegueSpec.Kind
    /// `kind` as written in the file (`modal`, `replace`, `popover`, … stay visible here).
    public var spelledKind: String
    /// Element id of the destination in the same file: a controller, a storyboard reference,
    /// or (for unwinds) an `<exit>` (§4.3). Nil only when the file omits it.
    public var destination: String?
    /// For `kind="relationship"`: the name as written (`rootViewController`, `viewControllers`,
    /// `masterViewController`, `detailViewController`, `supplementaryViewController`, §5).
    public var relationship: String?
    /// `customClass`: a `UIStoryboardSegue` subclass. Required for ``SegueKind/custom``, legal on others.
    public var customClass: String?
    /// `customModule` of ``customClass``.
    public var customModule: String?
    /// `modalPresentationStyle` on the segue (§8): the spelling the storyboard reply shows and
    /// the core's style (nil, with an `unsupported-value` diagnostic, when it has none).
    public var modalPresentationStyle: Spelled<PresentationStyle>?
    /// `modalTransitionStyle` on the segue (§8), spelled and as the core's value.
    public var modalTransitionStyle: Spelled<TransitionStyle>?
    /// False for `animates="NO"`.
    public var animates: Bool
    /// Where a popover points (`popoverAnchorView` is the core's `sourceView`,
    /// `popoverAnchorBarButtonItem` its `barButtonItem`, §8).
    public var popoverAnchor: PopoverAnchor?
    /// `unwindAction`: the selector an unwind looks for (`unwindToInbox:`), §7.
    public var unwindAction: String?
    /// True when the source is the controller itself: fired only by `performSegue` (§4.1, R97).
    public var isManual: Bool
    /// The object whose `<connections>` holds the segue.
    public var source: SegueSource
    /// `trigger` (`accessoryAction`: a cell's detail-disclosure button instead of row selection).
    public var trigger: String?
    /// `destinationCreationSelector`: an IBSegueAction that builds the destination.
    public var destinationCreationSelector: String?
    /// `splitViewControllerTargetIndex` of a legacy `replace` segue (1 = detail).
    public var splitViewControllerTargetIndex: Int?

    /// Builds a segue; `spelledKind` defaults to the kind's raw value and `source` to an
    /// anonymous button (tests rarely care where a segue starts).
    public init(
        id: String,
        identifier: String? = nil,
        kind: SegueSpec.Kind,
        spelledKind: String? = nil,
        destination: String?,
        relationship: String? = nil,
        customClass: String? = nil,
        customModule: String? = nil,
        modalPresentationStyle: Spelled<PresentationStyle>? = nil,
        modalTransitionStyle: Spelled<TransitionStyle>? = nil,
        animates: Bool = true,
        popoverAnchor: PopoverAnchor? = nil,
        unwindAction: String? = nil,
        isManual: Bool = false,
        source: SegueSource = SegueSource(element: "button"),
        trigger: String? = nil,
        destinationCreationSelector: String? = nil,
        splitViewControllerTargetIndex: Int? = nil
    ) {
        self.id = id
        self.identifier = identifier.flatMap { $0.isEmpty ? nil : $0 }
        self.kind = kind
        self.spelledKind = spelledKind ?? kind.rawValue
        self.destination = destination
        self.relationship = relationship
        self.customClass = customClass
        self.customModule = customModule
        self.modalPresentationStyle = modalPresentationStyle
        self.modalTransitionStyle = modalTransitionStyle
        self.animates = animates
        self.popoverAnchor = popoverAnchor
        self.unwindAction = unwindAction
        self.isManual = isManual
        self.source = source
        self.trigger = trigger
        self.destinationCreationSelector = destinationCreationSelector
        self.splitViewControllerTargetIndex = splitViewControllerTargetIndex
    }
}

/// Segue kinds as storyboards spell them (../shared/spec/storyboard-format.md §4.4, R98): the core's kinds,
/// plus the legacy spellings.
extension SegueSpec.Kind {
    /// Maps `kind` as written to a kind: `modal`→``presentation``, `replace`→``showDetail``,
    /// `popover`→``popoverPresentation``; `push` stays ``push``. Nil for an unknown spelling.
    public init?(spelled: String) {
        switch spelled {
        case "modal": self = .presentation
        case "replace": self = .showDetail
        case "popover": self = .popoverPresentation
        default: self.init(rawValue: spelled)
        }
    }

    /// True for kinds that only exist in old files: `push`, `modal`, `replace`, `popover`.
    public static func isLegacy(spelled: String) -> Bool {
        ["push", "modal", "replace", "popover"].contains(spelled)
    }
}

/// The object whose `<connections>` contains a segue (../shared/spec/storyboard-format.md §4.1).
public struct SegueSource: Sendable, Equatable, Hashable {
    /// Element name: `tableViewCell`, `button`, `barButtonItem`, `containerView`, the
    /// controller's own element for manual segues, …
    public var element: String
    /// The object's `id`.
    public var id: String?
    /// The object's `key` (`rightBarButtonItem`, `leftBarButtonItem`, …), if it has one.
    public var key: String?

    /// Builds a source description.
    public init(element: String, id: String? = nil, key: String? = nil) {
        self.element = element
        self.id = id
        self.key = key
    }
}

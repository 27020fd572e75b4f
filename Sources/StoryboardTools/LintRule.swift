public import Storyboards

/// One rule of `navsim lint` (docs/lint.md): every upload diagnostic code of
/// ``StoryboardDiagnostic/Code`` plus the rules only the linter has.
public struct LintRule: Sendable, Equatable, Hashable {
    /// Stable id, as `--disable` and `.navsim-lint.json` name it (`duplicate-segue-identifier`).
    public var id: String
    /// Severity unless a configuration file overrides it.
    public var severity: StoryboardDiagnostic.Severity
    /// One sentence: what the rule finds.
    public var summary: String

    /// Builds a rule.
    public init(id: String, severity: StoryboardDiagnostic.Severity, summary: String) {
        self.id = id
        self.severity = severity
        self.summary = summary
    }

    /// A file that does not parse (malformed XML, not an iOS storyboard, over a limit): error.
    public static let invalidStoryboard = LintRule(
        id: "invalid-storyboard", severity: .error,
        summary: "The file is not a well-formed iOS storyboard within navsim's limits.")
    /// Two segues of one scene share an identifier: `performSegue(withIdentifier:)` only ever
    /// fires the first (R97), so the second is dead unless it differs only by trigger: warning.
    public static let duplicateSegueIdentifier = LintRule(
        id: "duplicate-segue-identifier", severity: .warning,
        summary: "Two segues that start in one scene share a segue identifier.")
    /// `show` from a scene no navigation controller (or split view controller) can hold: UIKit
    /// falls back to a modal presentation (R98): warning.
    public static let showOutsideNavigation = LintRule(
        id: "show-outside-navigation", severity: .warning,
        summary: "A show segue starts in a scene that is in no navigation controller, so it presents modally.")
    /// `show` to a navigation (or split view) controller from a scene inside a navigation stack:
    /// the show pushes it, and UIKit raises D12 (R76, R93): error.
    public static let showPushesNavigationController = LintRule(
        id: "show-pushes-navigation-controller", severity: .error,
        summary: "A show segue from a scene in a navigation stack leads to a navigation or split view controller, which UIKit refuses to push.")
    /// A scene with a custom class, no Storyboard ID, not the entry point and the destination of
    /// no segue or reference: the class was meant to be used, yet nothing can create it: warning.
    public static let unreachedCustomClass = LintRule(
        id: "unreached-custom-class", severity: .warning,
        summary: "A scene with a custom class has no Storyboard ID and nothing leads to it.")
    /// An unwind segue whose action no scene of the folder can declare (heuristic, docs/lint.md): warning.
    public static let undeclaredUnwindAction = LintRule(
        id: "undeclared-unwind-action", severity: .warning,
        summary: "An exit (unwind) segue names an action that no scene of the folder declares.")
    /// `push`, `modal`, `replace`, `popover`: kinds Xcode 6 replaced (R98): warning.
    public static let deprecatedSegueKind = LintRule(
        id: "deprecated-segue-kind", severity: .warning,
        summary: "A segue uses a kind deprecated since iOS 8 (push, modal, replace, popover).")

    /// Every rule, upload diagnostics first, in the order docs/lint.md lists them.
    public static let all: [LintRule] =
        StoryboardDiagnostic.Code.allCases.map(LintRule.init(upload:))
        + [
            invalidStoryboard, duplicateSegueIdentifier, showOutsideNavigation, showPushesNavigationController, unreachedCustomClass,
            undeclaredUnwindAction, deprecatedSegueKind,
        ]

    /// The rule with this id.
    public static func named(_ id: String) -> LintRule? { all.first { $0.id == id } }

    /// The rule for an upload diagnostic code, with the severity the upload gives it.
    init(upload code: StoryboardDiagnostic.Code) {
        let (severity, summary): (StoryboardDiagnostic.Severity, String) =
            switch code {
            case .unsupportedDocumentType: (.error, "The document is not an iOS storyboard.")
            case .unknownDestination: (.error, "A segue or the entry point names no scene, reference or exit of its file.")
            case .unresolvedReference: (.warning, "A storyboard reference leads to no storyboard or Storyboard ID of the folder.")
            case .referenceCycle: (.error, "Storyboard references lead back to themselves.")
            case .duplicateStoryboardIdentifier: (.error, "Two scenes of one file share a Storyboard ID.")
            case .navigationWithoutRoot: (.warning, "A navigation controller has no root view controller relationship.")
            case .relationshipCycle: (.error, "Containers contain themselves through relationship or embed segues.")
            case .popoverWithoutAnchor: (.warning, "A popover segue has no anchor view or bar button item.")
            case .unreachableScene: (.warning, "No entry point, Storyboard ID or segue reaches the scene.")
            case .undeclaredCustomSegue: (.warning, "A segue's custom class behaviour is unknown to navsim (a custom segue presents modally, others do what their kind does).")
            case .unsupportedValue: (.warning, "An attribute value navsim's UIKit model has no case for; the element uses UIKit's default.")
            }
        self.init(id: code.rawValue, severity: severity, summary: summary)
    }
}

/// A problem found in an uploaded storyboard, reported with the upload reply
/// (docs/api.md "Storyboards"; the codes are listed in docs/storyboards.md "Upload diagnostics": `{"severity","code","message","element"}`).
public struct StoryboardDiagnostic: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// How bad it is. Errors are configurations Xcode would not build or UIKit could never run;
    /// warnings are legal files that may misbehave at run time.
    public enum Severity: String, Sendable, Equatable, Hashable {
        case error
        case warning
    }

    /// The stable, machine-readable codes of docs/storyboards.md "Upload diagnostics".
    public enum Code: String, Sendable, Equatable, Hashable, CaseIterable {
        /// The document is not an iOS storyboard (the service answers 422).
        case unsupportedDocumentType = "unsupported-document-type"
        /// A segue points at an id that is no controller, reference or exit of its file.
        case unknownDestination = "unknown-destination"
        /// A storyboard reference cannot be followed (yet).
        case unresolvedReference = "unresolved-reference"
        /// Storyboard references lead back to themselves.
        case referenceCycle = "reference-cycle"
        /// Two scenes of one file share a Storyboard ID.
        case duplicateStoryboardIdentifier = "duplicate-storyboard-identifier"
        /// A navigation controller without a `rootViewController` relationship.
        case navigationWithoutRoot = "navigation-without-root"
        /// Containers contain themselves through relationship/embed segues.
        case relationshipCycle = "relationship-cycle"
        /// A popover segue with no anchor.
        case popoverWithoutAnchor = "popover-without-anchor"
        /// A scene nothing can instantiate.
        case unreachableScene = "unreachable-scene"
        /// A custom segue whose class's behaviour was not declared.
        case undeclaredCustomSegue = "undeclared-custom-segue"
        /// An attribute value the core has no case for (`modalPresentationStyle="blurOverFullScreen"`):
        /// the element is built without it.
        case unsupportedValue = "unsupported-value"
    }

    /// `error` or `warning`.
    public var severity: Severity
    /// The diagnostic code.
    public var code: Code
    /// A readable sentence naming the ids involved.
    public var message: String
    /// Id of the element the diagnostic is about (a scene, a segue, a reference); nil for the document.
    public var element: String?

    /// Builds a diagnostic.
    public init(severity: Severity, code: Code, message: String, element: String?) {
        self.severity = severity
        self.code = code
        self.message = message
        self.element = element
    }

    /// `"<severity> <code> [<element>]: <message>"`.
    public var description: String {
        "\(severity.rawValue) \(code.rawValue) [\(element ?? "document")]: \(message)"
    }
}

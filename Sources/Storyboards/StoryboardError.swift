/// Why a document could not be turned into a ``Storyboard``. The service answers 422 for
/// all of them; ``diagnostic`` gives the API's diagnostic shape.
public enum StoryboardError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Larger than ``StoryboardParser/maximumDocumentSize``; refused before parsing.
    case documentTooLarge(byteCount: Int, limit: Int)
    /// Elements nested deeper than ``StoryboardParser/maximumElementDepth`` (real files stay under 20).
    case tooDeeplyNested(limit: Int, line: Int, column: Int)
    /// Not well-formed XML; `line`/`column` are 1-based positions reported by the parser.
    case malformedXML(line: Int, column: Int, message: String)
    /// A `<!DOCTYPE>`: Interface Builder never writes one, and refusing it rules out external
    /// entities and entity-expansion bombs whatever the XML library does.
    case doctypeNotAllowed(line: Int)
    /// Not UTF-8: Interface Builder always writes UTF-8.
    case unsupportedEncoding(String)
    /// One of ``StoryboardParser/Limits`` other than size and nesting is exceeded; `line` and
    /// `byteOffset` (0-based) locate the element that exceeds it.
    case limitExceeded(limit: StoryboardParser.Limit, max: Int, line: Int, byteOffset: Int)
    /// Something other than whitespace, a comment or a processing instruction follows the root
    /// element's end (`what`: "an element <x>", "text", "a NUL byte").
    case contentAfterDocument(what: String, line: Int, byteOffset: Int)
    /// The root element is not `<document>`.
    case notAStoryboard(rootElement: String)
    /// `<document type=…>` is not an iOS storyboard (macOS, tvOS, watchOS, a XIB; ../shared/spec/storyboard-format.md §1).
    /// The payload is the type as written ("" when missing).
    case unsupportedDocumentType(String)

    /// The error as an upload diagnostic (code `unsupported-document-type` for a foreign type;
    /// other cases have no API code and are reported as that same refusal).
    public var diagnostic: StoryboardDiagnostic {
        StoryboardDiagnostic(severity: .error, code: .unsupportedDocumentType, message: description, element: nil)
    }

    /// A readable sentence.
    public var description: String {
        switch self {
        case let .documentTooLarge(byteCount, limit):
            "The document is \(byteCount) bytes; storyboards larger than \(limit) bytes are refused."
        case let .tooDeeplyNested(limit, line, column):
            "Elements are nested more than \(limit) deep at line \(line), column \(column)."
        case let .malformedXML(line, column, message):
            "Malformed XML at line \(line), column \(column): \(message)."
        case let .limitExceeded(limit, max, line, byteOffset):
            switch limit {
            case .attributesPerElement:
                "The element at line \(line) (byte \(byteOffset)) has more than \(max) attributes (limit attributesPerElement)."
            case .elementsPerDocument:
                "The document has more than \(max) elements; the one over the limit is at line \(line) (byte \(byteOffset)) (limit elementsPerDocument)."
            case .elementDepth:
                "Elements are nested more than \(max) deep at line \(line) (byte \(byteOffset)) (limit elementDepth)."
            case .storyboardBytes:
                "The document is larger than \(max) bytes (limit storyboardBytes)."
            }
        case let .contentAfterDocument(what, line, byteOffset):
            "Content after the root element's end: \(what) at line \(line) (byte \(byteOffset)); a storyboard ends with </document>."
        case let .doctypeNotAllowed(line):
            "The document declares a DOCTYPE at line \(line); storyboards never carry one, so it is refused."
        case let .unsupportedEncoding(encoding):
            "The document is encoded as \(encoding); storyboards are UTF-8."
        case let .notAStoryboard(root):
            "The root element is <\(root)>, not <document>: this is not a storyboard."
        case let .unsupportedDocumentType(type):
            type.isEmpty
                ? "The <document> has no type; only iOS storyboards (\(StoryboardParser.iOSDocumentType)) are supported."
                : "Document type \(type) is not an iOS storyboard (\(StoryboardParser.iOSDocumentType))."
        }
    }
}

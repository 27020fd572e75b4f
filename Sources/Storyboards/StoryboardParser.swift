import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import NavigationCore

/// Turns `.storyboard` XML into a ``Storyboard`` in one SAX pass (no DOM, no regular expressions).
///
/// Safety: documents over ``Limits/documentBytes`` bytes, nested deeper than
/// ``Limits/elementDepth``, with more than ``Limits/elements`` elements or an element with more
/// than ``Limits/attributesPerElement`` attributes are refused by a linear pre-scan of the bytes
/// before the XML library sees them (libxml2 checks an element's attributes for duplicates
/// pairwise: 80,000 attributes took 10.9 s). Anything but whitespace, comments and processing
/// instructions after the root element is refused. External entities are never resolved, and a
/// `<!DOCTYPE>` (which Interface Builder never writes) is refused outright, so neither external
/// entities nor entity-expansion bombs get a chance.
///
/// Source: ../shared/spec/storyboard-format.md §1–§8; kinds per R98.
///
/// ```swift
/// let main = try StoryboardParser.parse(name: "Main", data: Array(xml.utf8))
/// main.initialScene?.className   // "UINavigationController"
/// ```
public enum StoryboardParser {
    /// 16 MiB by default. The largest file in the 64-file corpus is 495 KB (IQKeyboardManager's
    /// demo); storyboards of 1.5 and 2.3 MB ship in real apps.
    public static let maximumDocumentSize = 16 * 1024 * 1024
    /// 256 levels by default. Real files nest at most 16 deep.
    public static let maximumElementDepth = 256

    /// The bounds one document must stay within; each is named in the error that reports it.
    public struct Limits: Sendable, Equatable {
        /// Bytes of the whole document (``Limit/storyboardBytes``).
        public var documentBytes: Int
        /// Attributes of one element (``Limit/attributesPerElement``, default 256; Interface
        /// Builder writes at most about 20).
        public var attributesPerElement: Int
        /// Elements in the document (``Limit/elementsPerDocument``, default 1,000,000; the
        /// 495 KB corpus file has about 9,000, so a 16 MiB storyboard stays far below).
        public var elements: Int
        /// Nesting of elements, `<document>` being level 1 (``Limit/elementDepth``).
        public var elementDepth: Int

        /// - Parameters: see the properties; the defaults are the documented ones.
        public init(
            documentBytes: Int = StoryboardParser.maximumDocumentSize, attributesPerElement: Int = 256,
            elements: Int = 1_000_000, elementDepth: Int = StoryboardParser.maximumElementDepth
        ) {
            self.documentBytes = documentBytes
            self.attributesPerElement = attributesPerElement
            self.elements = elements
            self.elementDepth = elementDepth
        }
    }

    /// The names of the limits, as errors and problems report them.
    public enum Limit: String, Sendable, Equatable {
        case storyboardBytes, attributesPerElement, elementsPerDocument, elementDepth
    }
    /// The only accepted `<document type=…>` (../shared/spec/storyboard-format.md §1).
    public static let iOSDocumentType = "com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB"

    /// Parses one storyboard.
    ///
    /// - Parameters:
    ///   - name: the storyboard's name (file name without `.storyboard`), used by references.
    ///   - data: the XML bytes (UTF-8).
    /// - Returns: the storyboard with its single-file diagnostics.
    ///   - limits: the bounds the document must stay within.
    /// - Throws: ``StoryboardError``: `.documentTooLarge`, `.tooDeeplyNested`, `.limitExceeded`
    ///   (attributes, elements), `.contentAfterDocument`, `.malformedXML` (with line and column),
    ///   `.doctypeNotAllowed`, `.unsupportedEncoding`, `.notAStoryboard`,
    ///   `.unsupportedDocumentType` (macOS/tvOS/watchOS storyboards, XIBs).
    public static func parse(name: String, data: [UInt8], limits: Limits = Limits()) throws(StoryboardError) -> Storyboard {
        try parseWithPositions(name: name, data: data, limits: limits).storyboard
    }

    /// ``parse(name:data:limits:)`` plus where each element with an `id` starts (its line and
    /// column as the XML parser reports them at the element's start tag); the document element
    /// is under the key `""`. Same errors as ``parse(name:data:limits:)``.
    public static func parseWithPositions(name: String, data: [UInt8], limits: Limits = Limits())
        throws(StoryboardError) -> (storyboard: Storyboard, positions: [String: SourcePosition])
    {
        guard data.count <= limits.documentBytes else {
            throw .documentTooLarge(byteCount: data.count, limit: limits.documentBytes)
        }
        try checkProlog(data)
        try MarkupScan.check(data, limits: limits)

        // Fed as a stream, in chunks: given the whole document as one chunk, libxml2 refuses
        // anything over its 10 MB look-ahead bound (as "out of memory").
        let parser = XMLParser(stream: InputStream(data: Data(data)))
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        let builder = DocumentBuilder(name: name, depthLimit: limits.elementDepth)
        parser.delegate = builder
        let succeeded = parser.parse()
        parser.delegate = nil

        if let error = builder.error { throw error }
        if !succeeded {
            throw builder.parseError
                ?? .malformedXML(
                    line: parser.lineNumber, column: parser.columnNumber,
                    message: "the XML parser stopped")
        }
        // FoundationXML on Linux reports success for empty or truncated input; check it here.
        guard builder.sawRoot else {
            throw .malformedXML(line: parser.lineNumber, column: parser.columnNumber, message: "the document has no root element")
        }
        guard builder.depth == 0 else {
            let open = builder.openElementName ?? "document"
            throw .malformedXML(
                line: parser.lineNumber, column: parser.columnNumber,
                message: "the document ends before <\(open)> is closed")
        }
        var storyboard = Storyboard(
            name: name, initialViewController: builder.initialViewController,
            scenes: builder.scenes, targetRuntime: builder.targetRuntime,
            unwindActionsByClass: builder.unwindActionsByClass)
        storyboard.isLaunchScreen = builder.isLaunchScreen
        storyboard.diagnostics = LocalDiagnostics.compute(storyboard) + builder.unsupportedValues
        return (storyboard, builder.positions)
    }

    /// Parses a storyboard given as a string.
    public static func parse(name: String, xml: String) throws(StoryboardError) -> Storyboard {
        try parse(name: name, data: Array(xml.utf8))
    }

    /// Parses several storyboards, one result per input in the same order (a failed document
    /// does not stop the others).
    public static func parseAll(_ documents: [(name: String, data: [UInt8])]) -> [Result<Storyboard, StoryboardError>] {
        documents.map { document in
            Result { () throws(StoryboardError) -> Storyboard in try parse(name: document.name, data: document.data) }
        }
    }

    /// Looks at what precedes the root element: refuses UTF-16/32 input and any `<!DOCTYPE`.
    static func checkProlog(_ bytes: [UInt8]) throws(StoryboardError) {
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            throw .unsupportedEncoding("UTF-16")
        }
        if bytes.count >= 4, bytes[0] == 0 || bytes[1] == 0 || bytes[2] == 0 || bytes[3] == 0 {
            throw .unsupportedEncoding("UTF-16 or UTF-32")
        }
        var index = 0
        var line = 1
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        func hasPrefix(_ prefix: StaticString, at position: Int) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard position + count <= bytes.count else { return false }
            return prefix.withUTF8Buffer { buffer in
                for offset in 0..<count where bytes[position + offset] != buffer[offset] { return false }
                return true
            }
        }
        func skip(past terminator: StaticString) {
            while index < bytes.count, !hasPrefix(terminator, at: index) {
                if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                index += 1
            }
            index = min(bytes.count, index + terminator.utf8CodeUnitCount)
        }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\n"):
                line += 1
                index += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "<"):
                if hasPrefix("<?", at: index) {
                    skip(past: "?>")
                } else if hasPrefix("<!--", at: index) {
                    skip(past: "-->")
                } else if hasPrefix("<!DOCTYPE", at: index) || hasPrefix("<!doctype", at: index) {
                    throw .doctypeNotAllowed(line: line)
                } else {
                    return
                }
            default:
                // Markup starts with '<'; anything else here is no XML document at all (libxml2
                // would call it "empty"). Say what it is instead: binary bytes or plain text.
                let lineStart = bytes[..<index].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
                let binary = bytes.contains(0) || String(validating: bytes, as: UTF8.self) == nil
                throw .malformedXML(
                    line: line, column: index - lineStart + 1,
                    message: binary
                        ? "the body is binary data, not XML"
                        : "the document does not start with markup ('<'): it is not XML")
            }
        }
    }
}

/// The SAX delegate: keeps a stack of open elements and builds scenes as they close.
final class DocumentBuilder: NSObject, XMLParserDelegate {
    private struct Frame {
        var name: String
        var id: String?
        var key: String?
        /// Index into `controllers` of the nearest enclosing controller (itself included).
        var controller: Int?
        var isController: Bool
    }

    private let name: String
    private let depthLimit: Int
    private var frames: [Frame] = []
    private var inScene = false
    private var controllers: [Scene] = []
    private var doubleColumnHints: [Bool] = []
    private var sceneExits: [String] = []
    private var orphanSegues: [Segue] = []
    private var currentClass: String?

    private(set) var error: StoryboardError?
    private(set) var parseError: StoryboardError?
    private(set) var sawRoot = false
    private(set) var depth = 0
    private(set) var initialViewController: String?
    private(set) var targetRuntime: String?
    private(set) var isLaunchScreen = false
    private(set) var scenes: [Scene] = []
    private(set) var unwindActionsByClass: [String: [String]] = [:]
    /// `unsupported-value` warnings: attribute values the core has no case for, in document order.
    private(set) var unsupportedValues: [StoryboardDiagnostic] = []
    /// The line of the element being started, for diagnostics.
    private var line = 0
    /// Start of every element with an `id` (the first one wins), and of `<document>` under `""`.
    private(set) var positions: [String: SourcePosition] = [:]

    init(name: String, depthLimit: Int) {
        self.name = name
        self.depthLimit = depthLimit
    }

    var openElementName: String? { frames.last?.name }

    private func fail(_ parser: XMLParser, _ error: StoryboardError) {
        if self.error == nil { self.error = error }
        parser.abortParsing()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        guard error == nil else { return }
        depth += 1
        if depth > depthLimit {
            fail(parser, .tooDeeplyNested(limit: depthLimit, line: parser.lineNumber, column: parser.columnNumber))
            return
        }
        if let id = attributes["id"], positions[id] == nil {
            positions[id] = SourcePosition(line: parser.lineNumber, column: parser.columnNumber)
        }
        if !sawRoot {
            sawRoot = true
            positions[""] = SourcePosition(line: parser.lineNumber, column: parser.columnNumber)
            guard elementName == "document" else { return fail(parser, .notAStoryboard(rootElement: elementName)) }
            let type = attributes["type"] ?? ""
            guard type == StoryboardParser.iOSDocumentType else { return fail(parser, .unsupportedDocumentType(type)) }
            initialViewController = attributes["initialViewController"].flatMap { $0.isEmpty ? nil : $0 }
            targetRuntime = attributes["targetRuntime"]
            isLaunchScreen = parseBool(attributes["launchScreen"]) ?? false
            frames.append(Frame(name: elementName, controller: nil, isController: false))
            return
        }

        line = parser.lineNumber
        let parent = frames.last
        var frame = Frame(
            name: elementName, id: attributes["id"], key: attributes["key"],
            controller: parent?.controller, isController: false)
        switch elementName {
        case "scene":
            startScene()
        case "segue":
            startSegue(attributes, parent: parent)
        case "exit" where inScene:
            if let id = attributes["id"] { sceneExits.append(id) }
        case "class":
            currentClass = attributes["className"]
        case "relationship":
            // Legacy <classes> outline: `<relationship kind="action" name="unwind:" candidateClass="UIStoryboardSegue"/>` (§4.2).
            if let currentClass, attributes["kind"] == "action", attributes["candidateClass"] == "UIStoryboardSegue",
                let action = attributes["name"]
            {
                unwindActionsByClass[currentClass, default: []].append(action)
            }
        case "navigationItem", "tabBarItem":
            if let parent, parent.isController, let index = parent.controller {
                if elementName == "navigationItem", frame.key == "navigationItem" {
                    controllers[index].navigationItemTitle = attributes["title"]
                } else if elementName == "tabBarItem", frame.key == "tabBarItem" {
                    controllers[index].tabBarItemTitle = attributes["title"]
                }
            }
        default:
            if inScene, attributes["sceneMemberID"] == "viewController" {
                frame.controller = startController(elementName, attributes)
                frame.isController = true
            } else if inScene, attributes["sceneMemberID"] == "exit", let id = attributes["id"] {
                sceneExits.append(id)
            }
        }
        frames.append(frame)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard error == nil, !frames.isEmpty else { return }
        let frame = frames.removeLast()
        depth -= 1
        switch frame.name {
        case "scene": endScene()
        case "class": currentClass = nil
        default: break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard self.parseError == nil, error == nil else { return }
        let code = (parseError as NSError).code
        if code == XMLParser.ErrorCode.delegateAbortedParseError.rawValue { return }
        self.parseError = .malformedXML(
            line: parser.lineNumber, column: parser.columnNumber,
            message: XMLErrorText.message(for: code))
    }

    /// An `unsupported-value` warning when `value` is spelled but the core has no case for it:
    /// the element is built without the attribute, and the client is told so at upload.
    private func reportUnsupported<V>(_ what: String, _ id: String, _ attribute: String, _ value: Spelled<V>?) {
        guard let value, value.value == nil else { return }
        unsupportedValues.append(
            StoryboardDiagnostic(
                severity: .warning, code: .unsupportedValue,
                message: "\(what) '\(id)' (line \(line)): \(attribute) '\(value.spelling)' is not a value navsim models; "
                    + "the attribute is ignored.",
                element: id))
    }

    // MARK: Scenes

    private func startScene() {
        inScene = true
        controllers = []
        doubleColumnHints = []
        sceneExits = []
        orphanSegues = []
    }

    private func endScene() {
        inScene = false
        guard !controllers.isEmpty else { return }
        // Segues of top-level objects beside the controller (gesture recognizers, §2) and
        // the scene's exits belong to the scene's controller.
        controllers[0].segues.append(contentsOf: orphanSegues)
        controllers[0].exitIDs = sceneExits
        for (index, var scene) in controllers.enumerated() {
            if scene.kind == .splitViewController {
                if scene.relationshipDestination("supplementaryViewController") != nil {
                    scene.splitStyle = .tripleColumn
                } else if scene.splitStyle == nil || scene.splitStyle == .unspecified {
                    // R123: only a column-style split has a compact column.
                    let columns = doubleColumnHints[index] || scene.relationshipDestination("compactViewController") != nil
                    scene.splitStyle = columns ? .doubleColumn : .unspecified
                }
            }
            scenes.append(scene)
        }
        controllers = []
    }

    private func startController(_ element: String, _ attributes: [String: String]) -> Int {
        let isReference = element == ControllerElement.referenceElementName
        let kind = ControllerElement.kind(of: element) ?? .viewController
        let id = attributes["id"] ?? ""
        let presentation = PresentationSpelling.presentationStyle(attributes["modalPresentationStyle"])
        let transition = PresentationSpelling.transitionStyle(attributes["modalTransitionStyle"])
        reportUnsupported("Scene", id, "modalPresentationStyle", presentation)
        reportUnsupported("Scene", id, "modalTransitionStyle", transition)
        let customClass = attributes["customClass"].flatMap { $0.isEmpty ? nil : $0 }
        var configuration = ControllerPatch()
        configuration.modalPresentationStyle = presentation?.value
        configuration.modalTransitionStyle = transition?.value
        configuration.definesPresentationContext = parseBool(attributes["definesPresentationContext"])
        configuration.providesPresentationContextTransitionStyle = parseBool(attributes["providesPresentationContextTransitionStyle"])
        // `modalInPresentation` as Interface Builder writes it; the property's own name is accepted too.
        configuration.isModalInPresentation = parseBool(attributes["modalInPresentation"] ?? attributes["isModalInPresentation"])
        var scene = Scene(
            id: id,
            kind: kind,
            elementName: element,
            customClass: customClass,
            customModule: attributes["customModule"].flatMap { $0.isEmpty ? nil : $0 },
            storyboardIdentifier: attributes["storyboardIdentifier"].flatMap { $0.isEmpty ? nil : $0 },
            title: attributes["title"],
            configuration: configuration
        )
        var doubleColumn = false
        if isReference {
            scene.placeholder = StoryboardReference(
                storyboardName: attributes["storyboardName"],
                referencedIdentifier: attributes["referencedIdentifier"])
        }
        switch isReference ? nil : kind {
        case .splitViewController:
            // `style=` was never seen (§5) but is accepted should Xcode start writing it; a value
            // that is no `UISplitViewController.Style` is reported and read as classic.
            let style = attributes["style"].flatMap { $0.isEmpty ? nil : $0 }
                .map { Spelled(spelling: $0, value: SplitState.Style(rawValue: $0)) }
            reportUnsupported("Scene", id, "style", style)
            scene.splitStyle = style?.value ?? .unspecified
            doubleColumn = parseBool(attributes["allowDoubleColumnStyle"]) == true
            // R124: the property's own name and values; nil (UIKit's `automatic`) when absent.
            let button = attributes["displayModeButtonVisibility"].flatMap { $0.isEmpty ? nil : $0 }
                .map { Spelled(spelling: $0, value: SplitState.DisplayModeButtonVisibility(rawValue: $0)) }
            reportUnsupported("Scene", id, "displayModeButtonVisibility", button)
            if let v = button?.value { scene.configuration.displayModeButtonVisibility = v }
        case .pageViewController:
            let style = attributes["transitionStyle"].flatMap { $0.isEmpty ? nil : $0 }
                .map { Spelled(spelling: $0, value: PageState.Style(rawValue: $0)) }
            reportUnsupported("Scene", id, "transitionStyle", style)
            let spine = attributes["spineLocation"].flatMap { $0.isEmpty ? nil : $0 }
                .map { Spelled(spelling: $0, value: PageState.SpineLocation(rawValue: $0)) }
            reportUnsupported("Scene", id, "spineLocation", spine)
            // UIPageViewController.NavigationOrientation has two cases; Interface Builder writes their names.
            let orientation = attributes["navigationOrientation"].flatMap { $0.isEmpty ? nil : $0 }
                .map { Spelled(spelling: $0, value: PageSettings.navigationOrientations.contains($0) ? $0 : nil) }
            reportUnsupported("Scene", id, "navigationOrientation", orientation)
            scene.page = PageSettings(
                transitionStyle: style?.value,
                navigationOrientation: orientation?.value,
                spineLocation: spine?.value,
                isDoubleSided: parseBool(attributes["doubleSided"] ?? attributes["isDoubleSided"]))
        default:
            break
        }
        controllers.append(scene)
        doubleColumnHints.append(doubleColumn)
        return controllers.count - 1
    }

    // MARK: Segues

    private func startSegue(_ attributes: [String: String], parent: Frame?) {
        // Real segues sit in a <connections> and have a kind; tie-breaker references and
        // nested preview/commit segues have neither (§4.2).
        guard inScene, let parent, parent.name == "connections", let spelledKind = attributes["kind"] else { return }
        let sourceFrame = frames.count >= 2 ? frames[frames.count - 2] : nil
        let kind = SegueSpec.Kind(spelled: spelledKind) ?? .custom
        let anchor: PopoverAnchor? =
            if let item = attributes["popoverAnchorBarButtonItem"], !item.isEmpty {
                PopoverAnchor(barButtonItem: item)
            } else if let view = attributes["popoverAnchorView"], !view.isEmpty { PopoverAnchor(sourceView: view) } else { nil }
        let id = attributes["id"] ?? ""
        let presentation = PresentationSpelling.presentationStyle(attributes["modalPresentationStyle"])
        let transition = PresentationSpelling.transitionStyle(attributes["modalTransitionStyle"])
        reportUnsupported("Segue", id, "modalPresentationStyle", presentation)
        reportUnsupported("Segue", id, "modalTransitionStyle", transition)
        let segue = Segue(
            id: id,
            identifier: attributes["identifier"],
            kind: kind,
            spelledKind: spelledKind,
            destination: attributes["destination"].flatMap { $0.isEmpty ? nil : $0 },
            relationship: kind == .relationship ? attributes["relationship"] : nil,
            customClass: attributes["customClass"].flatMap { $0.isEmpty ? nil : $0 },
            customModule: attributes["customModule"].flatMap { $0.isEmpty ? nil : $0 },
            modalPresentationStyle: presentation,
            modalTransitionStyle: transition,
            animates: parseBool(attributes["animates"]) ?? true,
            popoverAnchor: anchor,
            unwindAction: attributes["unwindAction"].flatMap { $0.isEmpty ? nil : $0 },
            isManual: sourceFrame?.isController ?? false,
            source: SegueSource(element: sourceFrame?.name ?? "", id: sourceFrame?.id, key: sourceFrame?.key),
            trigger: attributes["trigger"],
            destinationCreationSelector: attributes["destinationCreationSelector"],
            splitViewControllerTargetIndex: attributes["splitViewControllerTargetIndex"].flatMap { Int($0) })
        if let owner = parent.controller {
            controllers[owner].segues.append(segue)
        } else {
            orphanSegues.append(segue)
        }
    }
}

/// Readable text for libxml2's error codes, which FoundationXML passes on without a message.
enum XMLErrorText {
    static func message(for code: Int) -> String {
        let known: [Int: String] = [
            4: "the document is empty",
            5: "the document ends too early",
            9: "invalid character",
            23: "an entity reference is missing its ';'",
            26: "undeclared entity",
            31: "unknown encoding",
            32: "unsupported encoding",
            38: "'<' inside an attribute value",
            39: "attribute value not started (missing quote)",
            40: "attribute value not finished (missing quote)",
            41: "attribute has no value",
            42: "attribute given twice",
            45: "comment not finished",
            57: "XML declaration not finished",
            65: "space required",
            68: "name expected",
            72: "'<' expected",
            73: "'>' expected",
            76: "opening and ending tag mismatch",
            77: "tag not finished",
            81: "invalid UTF-8 bytes",
            85: "document is not well balanced",
            86: "extra content at the end of the document",
        ]
        if let text = known[code] { return "\(text) (XML error \(code))" }
        if let name = XMLParser.ErrorCode(rawValue: code).map({ String(describing: $0) }), !name.contains("(") {
            return "\(name) (XML error \(code))"
        }
        return "XML error \(code)"
    }
}

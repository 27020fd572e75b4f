import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Storyboards

/// Why a refactor was refused; nothing is written (CLI exit 1, HTTP 422 `refactor-refused`).
public enum RefactorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source file does not parse.
    case invalidStoryboard(String)
    /// No scenes were named.
    case noScenes
    /// An id that is no scene of the storyboard.
    case unknownScene(String)
    /// The new storyboard's name is empty, the source's own, or not a file name.
    case invalidName(String)
    /// A scene would move while the container that embeds it (or holds it by a relationship) stays.
    case embeddedInStayingContainer(scene: String, container: String, relationship: String)
    /// A container would move while a relationship or embed child of it stays.
    case childLeftBehind(container: String, child: String, relationship: String)

    /// A readable sentence.
    public var description: String {
        switch self {
        case let .invalidStoryboard(reason): "the storyboard does not parse: \(reason)"
        case .noScenes: "name at least one scene to move"
        case let .unknownScene(id): "'\(id)' is no scene of the storyboard"
        case let .invalidName(name): "'\(name)' cannot name the new storyboard (empty, the source's own name, or not a file name)"
        case let .embeddedInStayingContainer(scene, container, relationship):
            "scene '\(scene)' is the \(relationship) child of container '\(container)', which stays behind; move them together"
        case let .childLeftBehind(container, child, relationship):
            "relationship children would be split from their container: '\(child)' (\(relationship) of '\(container)') stays behind; move them together"
        }
    }
}

/// The two documents a refactor writes.
public struct RefactorResult: Sendable, Equatable {
    /// The source storyboard, with storyboard references where moved scenes were entered.
    public var original: [UInt8]
    /// The new storyboard (`NAME.storyboard`).
    public var extracted: [UInt8]
    /// The moved scenes' ids (unchanged in the new file), in document order.
    public var movedScenes: [String]
    /// Moved scenes now reached through a reference in the source: scene id → reference id.
    public var incomingReferences: [String: String]
    /// Scenes that stayed and are reached from the new file: scene id → reference id in the new file.
    public var outgoingReferences: [String: String]
}

/// Xcode's Editor ▸ Refactor to Storyboard, on the XML (docs/refactor.md).
///
/// Moved scenes go to a new storyboard with their element ids; each moved scene entered from a
/// scene that stays (or that was the entry point) is replaced in the source by a storyboard
/// reference (`viewControllerPlaceholder` with `storyboardName` and `referencedIdentifier`,
/// storyboard-format.md §6), the scene getting its own id as Storyboard ID when it had none, and
/// segues into it retarget to the reference. Segues from moved scenes to scenes that stayed point
/// at references of their own in the new file. The new file's `initialViewController` is the
/// first moved scene entered from outside. Containers and their relationship/embed children
/// move together or not at all (R102: children are instantiated with their container).
public enum StoryboardRefactor {
    /// Moves `scenes` (controller element ids) of storyboard `name` into a new storyboard `into`.
    /// - Throws: ``RefactorError``.
    public static func refactor(xml: [UInt8], name: String, scenes selection: [String],
                                into newName: String) throws(RefactorError) -> RefactorResult {
        let parsed: Storyboard
        do { parsed = try StoryboardParser.parse(name: name, data: xml) } catch {
            throw .invalidStoryboard(error.description)
        }
        guard !newName.isEmpty, newName != name, !newName.contains("/"), !newName.hasPrefix("."),
              newName.unicodeScalars.allSatisfy({ $0.value >= 0x20 }) else { throw .invalidName(newName) }
        guard !selection.isEmpty else { throw .noScenes }
        for id in selection where parsed.scene(id: id) == nil { throw .unknownScene(id) }
        var moved = Set(selection)
        // A storyboard reference that only moved scenes lead to goes with them (left behind, it
        // would be unreachable).
        for scene in parsed.scenes where scene.isReference && !moved.contains(scene.id)
            && scene.storyboardIdentifier == nil && parsed.initialViewController != scene.id {
            let sources = parsed.allSegues.filter { $0.segue.destination == scene.id }.map(\.sceneID)
            if !sources.isEmpty, sources.allSatisfy(moved.contains) { moved.insert(scene.id) }
        }
        for scene in parsed.scenes {
            for segue in scene.segues where segue.kind == .relationship || segue.kind == .embed {
                guard let child = segue.destination, parsed.scene(id: child) != nil else { continue }
                let how = segue.relationship ?? segue.kind.rawValue
                if moved.contains(child), !moved.contains(scene.id) {
                    throw .embeddedInStayingContainer(scene: child, container: scene.id, relationship: how)
                }
                if moved.contains(scene.id), !moved.contains(child) {
                    throw .childLeftBehind(container: scene.id, child: child, relationship: how)
                }
            }
        }
        let document: XMLDocument
        do { document = try XMLDocument(data: Data(xml), options: []) } catch {
            throw .invalidStoryboard("\(error)")
        }
        var rewriter = Rewriter(document: document, storyboard: parsed, name: name, newName: newName, moved: moved)
        return try rewriter.run()
    }
}

/// One refactor's working state over the source's DOM.
private struct Rewriter {
    let document: XMLDocument
    let storyboard: Storyboard
    let name: String
    let newName: String
    let moved: Set<String>
    var usedIDs = Set<String>()
    var usedStoryboardIDs = Set<String>()
    var counter = 0

    init(document: XMLDocument, storyboard: Storyboard, name: String, newName: String, moved: Set<String>) {
        self.document = document
        self.storyboard = storyboard
        self.name = name
        self.newName = newName
        self.moved = moved
        usedStoryboardIDs = Set(storyboard.scenes.compactMap(\.storyboardIdentifier))
    }

    mutating func run() throws(RefactorError) -> RefactorResult {
        guard let root = document.rootElement(), let scenesElement = root.elements(forName: "scenes").first else {
            throw .invalidStoryboard("no <scenes>")
        }
        for element in Self.descendants(root) {
            for key in ["id", "sceneID"] { if let id = element.attribute(forName: key)?.stringValue { usedIDs.insert(id) } }
        }
        // Controller id → its <scene> and controller element.
        var sceneOf: [String: XMLElement] = [:]
        var controllerOf: [String: XMLElement] = [:]
        for scene in scenesElement.elements(forName: "scene") {
            for object in scene.elements(forName: "objects").first?.children?.compactMap({ $0 as? XMLElement }) ?? []
            where object.attribute(forName: "sceneMemberID")?.stringValue == "viewController" {
                guard let id = object.attribute(forName: "id")?.stringValue else { continue }
                sceneOf[id] = scene
                controllerOf[id] = object
            }
        }
        let order = storyboard.scenes.map(\.id)
        let movedInOrder = order.filter { moved.contains($0) }

        // Segues that cross the cut, as DOM elements.
        func segues(of id: String) -> [XMLElement] {
            (sceneOf[id].map(Self.descendants) ?? []).filter { $0.name == "segue" && $0.attribute(forName: "kind") != nil }
        }
        var entered: [String] = []
        var incomingSegues: [(XMLElement, String)] = []
        let initial = storyboard.initialViewController
        if let initial, moved.contains(initial) { entered.append(initial) }
        for id in order where !moved.contains(id) {
            for segue in segues(of: id) where segue.attribute(forName: "kind")?.stringValue != "unwind" {
                guard let destination = segue.attribute(forName: "destination")?.stringValue, moved.contains(destination) else { continue }
                incomingSegues.append((segue, destination))
                if !entered.contains(destination) { entered.append(destination) }
            }
        }
        entered.sort { order.firstIndex(of: $0)! < order.firstIndex(of: $1)! }
        if let initial, moved.contains(initial) {  // the source's entry point stays the first entry
            entered.removeAll { $0 == initial }
            entered.insert(initial, at: 0)
        }

        // Incoming: a reference in the source for each moved scene entered from outside, and for
        // each moved scene with a Storyboard ID of its own (code and other storyboards may
        // instantiate it by that ID: the reference carries it, storyboard-format.md §6).
        var incoming: [String: String] = [:]
        var replacementScenes: [String: XMLElement] = [:]
        let identified = movedInOrder.filter { id in
            storyboard.scene(id: id).map { !$0.isReference && $0.storyboardIdentifier != nil } ?? false
        }
        for id in entered + identified.filter({ !entered.contains($0) }) {
            let own = storyboard.scene(id: id)?.storyboardIdentifier
            let identifier = ensureStoryboardIdentifier(controllerOf[id]!, fallback: id)
            let (scene, referenceID) = referenceScene(storyboardName: newName, identifier: identifier,
                                                      ownIdentifier: own, canvas: sceneOf[id]!)
            incoming[id] = referenceID
            replacementScenes[id] = scene
        }
        for (segue, destination) in incomingSegues { set(segue, "destination", incoming[destination]!) }
        if let initial, let reference = incoming[initial] { set(root, "initialViewController", reference) }

        // Storyboard references into this same file (no `storyboardName`, or the source's own)
        // whose target moves now name the new file; moved ones whose target stays name the source.
        for id in order {
            guard let reference = storyboard.scene(id: id)?.placeholder, let element = controllerOf[id],
                  reference.storyboardName == nil || reference.storyboardName == name else { continue }
            let target = reference.referencedIdentifier.flatMap { storyboard.scene(withStoryboardIdentifier: $0)?.id } ?? initial
            guard let target, let targetElement = controllerOf[target] else { continue }
            if moved.contains(target) {
                set(element, "storyboardName", newName)
                set(element, "referencedIdentifier", ensureStoryboardIdentifier(targetElement, fallback: target))
            } else if moved.contains(id) {
                set(element, "storyboardName", name)
            }
        }

        // Outgoing: a reference in the new file for each scene that stayed and is reached from a moved one.
        var outgoing: [String: String] = [:]
        var outgoingScenes: [XMLElement] = []
        for id in movedInOrder {
            for segue in segues(of: id) where segue.attribute(forName: "kind")?.stringValue != "unwind" {
                guard let destination = segue.attribute(forName: "destination")?.stringValue,
                      sceneOf[destination] != nil, !moved.contains(destination) else { continue }
                if outgoing[destination] == nil {
                    let target = storyboard.scene(id: destination)!
                    let scene: XMLElement
                    let referenceID: String
                    if target.placeholder != nil, let element = controllerOf[destination] {
                        // A reference that stays: copy it as rewritten above, naming its storyboard explicitly.
                        let identifier = element.attribute(forName: "referencedIdentifier")?.stringValue
                        (scene, referenceID) = referenceScene(
                            storyboardName: element.attribute(forName: "storyboardName")?.stringValue ?? name,
                            identifier: identifier?.isEmpty == true ? nil : identifier, canvas: sceneOf[destination]!)
                    } else {
                        let identifier = ensureStoryboardIdentifier(controllerOf[destination]!, fallback: destination)
                        (scene, referenceID) = referenceScene(storyboardName: name, identifier: identifier,
                                                              canvas: sceneOf[destination]!)
                    }
                    outgoing[destination] = referenceID
                    outgoingScenes.append(scene)
                }
                set(segue, "destination", outgoing[destination]!)
            }
        }

        // Build the new document from the source's <document> attributes and shared sections.
        let newRoot = XMLElement(name: "document")
        for attribute in root.attributes ?? [] where attribute.name != "initialViewController" {
            newRoot.addAttribute(attribute.copy() as! XMLNode)
        }
        if let first = entered.first {
            newRoot.addAttribute(XMLNode.attribute(withName: "initialViewController", stringValue: first) as! XMLNode)
        }
        let newScenes = XMLElement(name: "scenes")
        for child in root.children ?? [] {
            guard let element = child as? XMLElement else { continue }
            if element.name == "scenes" { newRoot.addChild(newScenes) } else { newRoot.addChild(element.copy() as! XMLNode) }
        }
        // Move the scenes (detach keeps their ids and contents), leaving references behind.
        for id in movedInOrder {
            let scene = sceneOf[id]!
            if let replacement = replacementScenes[id] {
                scenesElement.insertChild(replacement, at: scene.index)
            }
            scene.detach()
            newScenes.addChild(scene)
        }
        for scene in outgoingScenes { newScenes.addChild(scene) }

        let newDocument = XMLDocument(rootElement: newRoot)
        newDocument.version = "1.0"
        newDocument.characterEncoding = "UTF-8"
        newDocument.isStandalone = false
        return RefactorResult(original: Self.serialize(document), extracted: Self.serialize(newDocument),
                              movedScenes: movedInOrder, incomingReferences: incoming, outgoingReferences: outgoing)
    }

    /// The controller's Storyboard ID, giving it one (its element id, made unique) when it has none.
    mutating func ensureStoryboardIdentifier(_ controller: XMLElement, fallback: String) -> String {
        if let existing = controller.attribute(forName: "storyboardIdentifier")?.stringValue, !existing.isEmpty {
            return existing
        }
        var identifier = fallback
        var suffix = 1
        while usedStoryboardIDs.contains(identifier) {
            suffix += 1
            identifier = "\(fallback)-\(suffix)"
        }
        usedStoryboardIDs.insert(identifier)
        set(controller, "storyboardIdentifier", identifier)
        return identifier
    }

    /// `<scene><objects><viewControllerPlaceholder …/><placeholder IBFirstResponder/></objects>
    /// <point key="canvasLocation"/></scene>` as Interface Builder writes a storyboard reference.
    mutating func referenceScene(storyboardName: String, identifier: String?, ownIdentifier: String? = nil,
                                 canvas: XMLElement) -> (XMLElement, String) {
        let scene = XMLElement(name: "scene")
        set(scene, "sceneID", freshID())
        let objects = XMLElement(name: "objects")
        let reference = XMLElement(name: "viewControllerPlaceholder")
        let referenceID = freshID()
        set(reference, "storyboardName", storyboardName)
        if let identifier { set(reference, "referencedIdentifier", identifier) }
        if let ownIdentifier { set(reference, "storyboardIdentifier", ownIdentifier) }
        set(reference, "id", referenceID)
        set(reference, "sceneMemberID", "viewController")
        let responder = XMLElement(name: "placeholder")
        set(responder, "placeholderIdentifier", "IBFirstResponder")
        set(responder, "id", freshID())
        set(responder, "userLabel", "First Responder")
        set(responder, "customClass", "UIResponder")
        set(responder, "sceneMemberID", "firstResponder")
        objects.addChild(reference)
        objects.addChild(responder)
        scene.addChild(objects)
        if let point = canvas.elements(forName: "point").first(where: { $0.attribute(forName: "key")?.stringValue == "canvasLocation" }) {
            scene.addChild(point.copy() as! XMLNode)
        }
        return (scene, referenceID)
    }

    /// An id in Interface Builder's `abc-de-fgh` shape that neither file uses (deterministic).
    mutating func freshID() -> String {
        let alphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        while true {
            counter += 1
            var state = UInt64(counter) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: newName.utf8.count) &* 0xBF58_476D_1CE4_E5B9
            var characters: [Character] = []
            for _ in 0..<8 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                characters.append(alphabet[Int((state >> 33) % UInt64(alphabet.count))])
            }
            let id = String(characters[0..<3]) + "-" + String(characters[3..<5]) + "-" + String(characters[5..<8])
            if usedIDs.insert(id).inserted { return id }
        }
    }

    func set(_ element: XMLElement, _ name: String, _ value: String) {
        if let attribute = element.attribute(forName: name) {
            attribute.stringValue = value
        } else {
            element.addAttribute(XMLNode.attribute(withName: name, stringValue: value) as! XMLNode)
        }
    }

    static func descendants(_ element: XMLElement) -> [XMLElement] {
        var out: [XMLElement] = []
        var stack = [element]
        while let next = stack.popLast() {
            out.append(next)
            stack += (next.children ?? []).compactMap { $0 as? XMLElement }.reversed()
        }
        return out
    }

    static func serialize(_ document: XMLDocument) -> [UInt8] {
        // Interface Builder's declaration and empty-element style; the body is libxml2's pretty print.
        var text = document.rootElement()!.xmlString(options: [.nodePrettyPrint, .nodeCompactEmptyElement])
        text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + text
        if !text.hasSuffix("\n") { text += "\n" }
        return Array(text.utf8)
    }
}

import NavigationCore
import Storyboards

/// Why a refactor was refused; nothing is written (CLI exit 1, HTTP 409 `refactor-refused`).
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
/// ../shared/spec/storyboard-format.md §6), the scene getting its own id as Storyboard ID when it had none, and
/// segues into it retarget to the reference. Segues from moved scenes to scenes that stayed point
/// at references of their own in the new file. The new file's `initialViewController` is the
/// first moved scene entered from outside. Containers and their relationship/embed children
/// move together or not at all (R102: children are instantiated with their container).
public enum StoryboardRefactor {
    /// Moves `scenes` (controller element ids) of storyboard `name` into a new storyboard `into`.
    /// - Throws: ``RefactorError``.
    public static func refactor(
        xml: [UInt8], name: String, scenes selection: [String],
        into newName: String
    ) throws(RefactorError) -> RefactorResult {
        let parsed: Storyboard
        do { parsed = try StoryboardParser.parse(name: name, data: xml) } catch {
            throw .invalidStoryboard(error.description)
        }
        guard !newName.isEmpty, newName != name, !newName.contains("/"), !newName.hasPrefix("."),
            newName.unicodeScalars.allSatisfy({ $0.value >= 0x20 })
        else { throw .invalidName(newName) }
        guard !selection.isEmpty else { throw .noScenes }
        for id in selection where parsed.scene(id: id) == nil { throw .unknownScene(id) }
        var moved = Set(selection)
        // A storyboard reference that only moved scenes lead to goes with them (left behind, it
        // would be unreachable).
        for scene in parsed.scenes
        where scene.isReference && !moved.contains(scene.id)
            && scene.storyboardIdentifier == nil && parsed.initialViewController != scene.id
        {
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
        guard let outline = MarkupOutline(xml) else { throw .invalidStoryboard("the markup does not balance") }
        var rewriter = Rewriter(bytes: xml, outline: outline, storyboard: parsed, name: name, newName: newName, moved: moved)
        return try rewriter.run()
    }
}

/// A replacement of `range` of the source's bytes (empty range: an insertion).
private struct Splice {
    var range: Range<Int>
    var bytes: [UInt8]
}

/// One refactor's working state over the source's bytes and their ``MarkupOutline``.
///
/// Both files are written as edits of the source's bytes, so that everything the refactor does
/// not change keeps its bytes (docs/refactor.md "What changes"): the moved scenes go to the new
/// file as they were written, attributes change in place, and references are inserted in the
/// source's own indentation.
private struct Rewriter {
    let bytes: [UInt8]
    let outline: MarkupOutline
    let storyboard: Storyboard
    let name: String
    let newName: String
    let moved: Set<String>
    var usedIDs = Set<String>()
    var usedStoryboardIDs = Set<String>()
    var counter = 0
    /// Attributes set (nil: removed) so far, by element index, in the order they were set.
    var changes: [Int: [(name: String, value: String?)]] = [:]

    init(bytes: [UInt8], outline: MarkupOutline, storyboard: Storyboard, name: String, newName: String, moved: Set<String>) {
        self.bytes = bytes
        self.outline = outline
        self.storyboard = storyboard
        self.name = name
        self.newName = newName
        self.moved = moved
        usedStoryboardIDs = Set(storyboard.scenes.compactMap(\.storyboardIdentifier))
    }

    mutating func run() throws(RefactorError) -> RefactorResult {
        let elements = outline.elements
        let root = 0
        guard elements[root].name == "document",
            let scenesElement = elements[root].children.first(where: { elements[$0].name == "scenes" })
        else {
            throw .invalidStoryboard("no <scenes>")
        }
        for element in elements {
            for key in ["id", "sceneID"] { if let id = element.attribute(key) { usedIDs.insert(id) } }
        }
        // Controller id → its <scene> and controller element.
        var sceneOf: [String: Int] = [:]
        var controllerOf: [String: Int] = [:]
        let sceneElements = elements[scenesElement].children.filter { elements[$0].name == "scene" }
        for scene in sceneElements {
            for objects in elements[scene].children where elements[objects].name == "objects" {
                for object in elements[objects].children where elements[object].attribute("sceneMemberID") == "viewController" {
                    guard let id = elements[object].attribute("id") else { continue }
                    sceneOf[id] = scene
                    controllerOf[id] = object
                }
            }
        }
        let order = storyboard.scenes.map(\.id)
        let movedInOrder = order.filter { moved.contains($0) }
        guard movedInOrder.allSatisfy({ sceneOf[$0] != nil }) else { throw .invalidStoryboard("a scene's markup was not found") }
        let movedScenes = Set(movedInOrder.compactMap { sceneOf[$0] })

        // Segues that cross the cut.
        func segues(of id: String) -> [Int] {
            guard let scene = sceneOf[id] else { return [] }
            return outline.subtree(scene).filter { elements[$0].name == "segue" && elements[$0].attribute("kind") != nil }
        }
        var entered: [String] = []
        var incomingSegues: [(Int, String)] = []
        let initial = storyboard.initialViewController
        if let initial, moved.contains(initial) { entered.append(initial) }
        for id in order where !moved.contains(id) {
            for segue in segues(of: id) where elements[segue].attribute("kind") != "unwind" {
                guard let destination = elements[segue].attribute("destination"), moved.contains(destination) else { continue }
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
        // instantiate it by that ID: the reference carries it, ../shared/spec/storyboard-format.md §6).
        var incoming: [String: String] = [:]
        var replacementScenes: [String: [UInt8]] = [:]
        let identified = movedInOrder.filter { id in
            storyboard.scene(id: id).map { !$0.isReference && $0.storyboardIdentifier != nil } ?? false
        }
        for id in entered + identified.filter({ !entered.contains($0) }) {
            let own = storyboard.scene(id: id)?.storyboardIdentifier
            let identifier = ensureStoryboardIdentifier(controllerOf[id]!, fallback: id)
            let (scene, referenceID) = referenceScene(
                storyboardName: newName, identifier: identifier,
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
                reference.storyboardName == nil || reference.storyboardName == name
            else { continue }
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
        var outgoingScenes: [[UInt8]] = []
        for id in movedInOrder {
            for segue in segues(of: id) where elements[segue].attribute("kind") != "unwind" {
                guard let destination = elements[segue].attribute("destination"), sceneOf[destination] != nil,
                    !moved.contains(destination), let target = storyboard.scene(id: destination)
                else { continue }
                if outgoing[destination] == nil {
                    let scene: [UInt8]
                    let referenceID: String
                    if target.placeholder != nil, let element = controllerOf[destination] {
                        // A reference that stays: copy it as rewritten above, naming its storyboard explicitly.
                        let identifier = value(element, "referencedIdentifier")
                        (scene, referenceID) = referenceScene(
                            storyboardName: value(element, "storyboardName") ?? name,
                            identifier: identifier?.isEmpty == true ? nil : identifier, canvas: sceneOf[destination]!)
                    } else {
                        let identifier = ensureStoryboardIdentifier(controllerOf[destination]!, fallback: destination)
                        (scene, referenceID) = referenceScene(
                            storyboardName: name, identifier: identifier,
                            canvas: sceneOf[destination]!)
                    }
                    outgoing[destination] = referenceID
                    outgoingScenes.append(scene)
                }
                set(segue, "destination", outgoing[destination]!)
            }
        }

        // The attribute edits, each in the file its element ends up in (everything outside the
        // moved scenes, the <document> element included, stays in the source).
        var sourceSplices: [Splice] = []
        var newSplices: [Splice] = []
        func isMoved(_ element: Int) -> Bool {
            var parent: Int? = element
            while let p = parent {
                if movedScenes.contains(p) { return true }
                parent = elements[p].parent
            }
            return false
        }
        for (element, _) in changes {
            if isMoved(element) { newSplices += attributeSplices(element) } else { sourceSplices += attributeSplices(element) }
        }
        // The new file's entry point.
        if let first = entered.first {
            newSplices += attributeSplices(root, [("initialViewController", first)])
        } else if elements[root].attribute("initialViewController") != nil {
            newSplices += attributeSplices(root, [("initialViewController", nil)])
        }

        // Interface Builder resolves a `<segue reference=…/>` (inferredMetricsTieBreakers) within
        // its own document: each file keeps only the references to segues it holds.
        let sourceSegues = Set(sceneElements.filter { !movedScenes.contains($0) }.flatMap { segueIDs(in: $0) })
        let newSegues = Set(movedScenes.flatMap { segueIDs(in: $0) })
        var dropped: (source: [Int], new: [Int]) = ([], [])
        for (index, element) in elements.enumerated() where element.name == "segue" {
            guard let target = element.attribute("reference") else { continue }
            let inMoved = isMoved(index)
            let inScene = inMoved || sceneElements.contains { elements[$0].range.contains(element.range.lowerBound) }
            if !inMoved, !sourceSegues.contains(target) { dropped.source.append(index) }
            if inMoved || !inScene, !newSegues.contains(target) { dropped.new.append(index) }
        }
        sourceSplices += removals(dropped.source)
        newSplices += removals(dropped.new)

        // The source: each moved scene (with the comment Interface Builder writes above it) gives
        // way to its reference, or to nothing.
        for id in movedInOrder {
            let chunk = sceneChunk(sceneOf[id]!)
            // The reference text starts with the line's indentation, which a scene sharing its
            // line with other markup keeps in place.
            let replacement = replacementScenes[id].map { chunk.lineBased ? $0 + newline : Array($0.dropFirst(chunk.indent.count)) }
            sourceSplices.append(Splice(range: chunk.range, bytes: replacement ?? []))
        }
        let original = render(0..<bytes.count, sourceSplices)

        // The new file: the source's bytes with only the moved scenes, in their order, and the
        // references out of them inside <scenes>.
        let allChunks = sceneElements.map(sceneChunk)
        let scenesBody = elements[scenesElement].startTag.upperBound..<endTagStart(scenesElement)
        var body: [UInt8] = Array(bytes[scenesBody.lowerBound..<(allChunks.first?.range.lowerBound ?? scenesBody.upperBound)])
        for (scene, chunk) in zip(sceneElements, allChunks) where movedScenes.contains(scene) {
            body += render(chunk.range, newSplices)
        }
        for scene in outgoingScenes { body += scene + (allChunks.last?.lineBased == true ? newline : []) }
        body += Array(bytes[(allChunks.last?.range.upperBound ?? scenesBody.upperBound)..<scenesBody.upperBound])
        let extracted = render(0..<bytes.count, newSplices.filter { !scenesBody.overlaps($0.range) } + [Splice(range: scenesBody, bytes: body)])
        return RefactorResult(
            original: original, extracted: extracted,
            movedScenes: movedInOrder, incomingReferences: incoming, outgoingReferences: outgoing)
    }

    /// The ids of the segues (not `<segue reference=…/>`) inside `scene`.
    func segueIDs(in scene: Int) -> [String] {
        outline.subtree(scene).compactMap { index in
            let element = outline.elements[index]
            guard element.name == "segue", element.attribute("reference") == nil else { return nil }
            return element.attribute("id")
        }
    }

    /// The value of attribute `name` of `element` as the refactor has set it so far.
    func value(_ element: Int, _ name: String) -> String? {
        if let set = changes[element]?.last(where: { $0.name == name }) { return set.value }
        return outline.elements[element].attribute(name)
    }

    /// The controller's Storyboard ID, giving it one (its element id, made unique) when it has none.
    mutating func ensureStoryboardIdentifier(_ controller: Int, fallback: String) -> String {
        if let existing = value(controller, "storyboardIdentifier"), !existing.isEmpty { return existing }
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

    mutating func set(_ element: Int, _ name: String, _ value: String) {
        changes[element, default: []].removeAll { $0.name == name }
        changes[element, default: []].append((name, value))
    }

    /// The edits of `element`'s start tag for `changes` (by default, the ones set on it). A new
    /// attribute goes where Interface Builder writes it: `storyboardIdentifier` and
    /// `storyboardName` first, `referencedIdentifier` after `storyboardName`, others last.
    func attributeSplices(_ index: Int, _ given: [(name: String, value: String?)]? = nil) -> [Splice] {
        let element = outline.elements[index]
        let afterName = element.startTag.lowerBound + 1 + element.name.utf8.count
        var splices: [Splice] = []
        var inserted: [Int: [UInt8]] = [:]
        for (name, value) in given ?? changes[index] ?? [] {
            if let existing = element.attributes.first(where: { $0.name == name }) {
                splices.append(
                    value.map { Splice(range: existing.valueRange, bytes: Self.quoted($0)) }
                        ?? Splice(range: existing.range, bytes: []))
                continue
            }
            guard let value else { continue }
            let position: Int =
                switch name {
                case "storyboardIdentifier", "storyboardName": afterName
                case "referencedIdentifier":
                    element.attributes.first { $0.name == "storyboardName" }?.range.upperBound ?? afterName
                default: element.attributesEnd
                }
            inserted[position, default: []] += Array(" \(name)=".utf8) + Self.quoted(value)
        }
        for (position, text) in inserted { splices.append(Splice(range: position..<position, bytes: text)) }
        return splices
    }

    /// `"value"` with the characters that cannot stand in a double-quoted attribute escaped.
    static func quoted(_ value: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            case UInt8(ascii: "\""): out += Array("&quot;".utf8)
            case 0x09: out += Array("&#9;".utf8)
            case 0x0A: out += Array("&#10;".utf8)
            case 0x0D: out += Array("&#13;".utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }

    /// The source's line end (`\r\n` when its first line ends so, else `\n`).
    var newline: [UInt8] {
        guard let first = bytes.firstIndex(of: 0x0A) else { return [0x0A] }
        return first > 0 && bytes[first - 1] == 0x0D ? [0x0D, 0x0A] : [0x0A]
    }

    /// Where the end tag of `element` starts (its end when it is empty, `<x/>`).
    func endTagStart(_ element: Int) -> Int {
        let range = outline.elements[element].range
        guard range.upperBound > outline.elements[element].startTag.upperBound else { return range.upperBound }
        var i = range.upperBound - 1
        while i > range.lowerBound, bytes[i] != UInt8(ascii: "<") { i -= 1 }
        return i
    }

    /// `range` widened to whole lines when only spaces and tabs stand beside it on its first and
    /// last line; `lineBased` says whether it was.
    func wholeLines(_ range: Range<Int>) -> (range: Range<Int>, lineBased: Bool) {
        var start = range.lowerBound
        while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
        var end = range.upperBound
        while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 || bytes[end] == 0x0D { end += 1 }
        guard start == 0 || bytes[start - 1] == 0x0A, end < bytes.count, bytes[end] == 0x0A else { return (range, false) }
        return (start..<(end + 1), true)
    }

    /// A scene's lines with the comment just above it (`<!--Title-->`, which Interface Builder
    /// writes before each scene), and the indentation of its `<scene>` line.
    func sceneChunk(_ scene: Int) -> (range: Range<Int>, lineBased: Bool, indent: [UInt8]) {
        let element = outline.elements[scene]
        var start = element.range.lowerBound
        var k = start
        while k > 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[k - 1]) { k -= 1 }
        if k >= 3, bytes[(k - 3)..<k].elementsEqual("-->".utf8) {
            var c = k - 3
            while c > 0, !bytes[c..<(c + 4)].elementsEqual("<!--".utf8) { c -= 1 }
            // Only a comment after the previous markup (the start tag of <scenes> or the scene before).
            var previous = 0
            if let parent = element.parent {
                let container = outline.elements[parent]
                previous = container.startTag.upperBound
                for child in container.children where outline.elements[child].range.upperBound <= c {
                    previous = outline.elements[child].range.upperBound
                }
            }
            if c >= previous, bytes[c..<(c + 4)].elementsEqual("<!--".utf8) { start = c }
        }
        let lines = wholeLines(start..<element.range.upperBound)
        var indentStart = element.range.lowerBound
        while indentStart > 0, bytes[indentStart - 1] == 0x20 || bytes[indentStart - 1] == 0x09 { indentStart -= 1 }
        let indent = indentStart == 0 || bytes[indentStart - 1] == 0x0A ? Array(bytes[indentStart..<element.range.lowerBound]) : []
        return (lines.range, lines.lineBased, indent)
    }

    /// Removals of `dropped` elements, whole lines where they stand alone on theirs; an
    /// `inferredMetricsTieBreakers` left with nothing goes too.
    func removals(_ dropped: [Int]) -> [Splice] {
        let elements = outline.elements
        var splices: [Splice] = []
        var emptied = Set<Int>()
        for index in dropped {
            if let parent = elements[index].parent, elements[parent].name == "inferredMetricsTieBreakers",
                elements[parent].children.allSatisfy(dropped.contains)
            {
                if emptied.insert(parent).inserted { splices.append(Splice(range: wholeLines(elements[parent].range).range, bytes: [])) }
                continue
            }
            splices.append(Splice(range: wholeLines(elements[index].range).range, bytes: []))
        }
        return splices
    }

    /// `range` of the source with `splices` applied; a splice inside one applied before it (an
    /// attribute of a scene that is removed) is left out.
    func render(_ range: Range<Int>, _ splices: [Splice]) -> [UInt8] {
        let ordered = splices.enumerated().filter { range.contains($0.element.range.lowerBound) || $0.element.range.lowerBound == range.upperBound && $0.element.range.isEmpty }
            .sorted { a, b in
                if a.element.range.lowerBound != b.element.range.lowerBound { return a.element.range.lowerBound < b.element.range.lowerBound }
                if a.element.range.upperBound != b.element.range.upperBound { return a.element.range.upperBound > b.element.range.upperBound }
                return a.offset < b.offset
            }.map(\.element)
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var cursor = range.lowerBound
        for splice in ordered where splice.range.lowerBound >= cursor && splice.range.upperBound <= range.upperBound {
            out += bytes[cursor..<splice.range.lowerBound]
            out += splice.bytes
            cursor = splice.range.upperBound
        }
        out += bytes[cursor..<range.upperBound]
        return out
    }

    /// A storyboard reference's scene as Interface Builder writes it, in the indentation of the
    /// `canvas` scene (whose canvas location it takes): `<scene><objects><viewControllerPlaceholder
    /// …/><placeholder IBFirstResponder …/></objects><point key="canvasLocation" …/></scene>`.
    mutating func referenceScene(
        storyboardName: String, identifier: String?, ownIdentifier: String? = nil,
        canvas: Int
    ) -> ([UInt8], String) {
        let elements = outline.elements
        let indent = sceneChunk(canvas).indent
        var unit = Array("    ".utf8)
        if let first = elements[canvas].children.first {
            var s = elements[first].range.lowerBound
            while s > 0, bytes[s - 1] == 0x20 || bytes[s - 1] == 0x09 { s -= 1 }
            let childIndent = Array(bytes[s..<elements[first].range.lowerBound])
            if s > 0, bytes[s - 1] == 0x0A, childIndent.count > indent.count, childIndent.starts(with: indent) {
                unit = Array(childIndent[indent.count...])
            }
        }
        let referenceID = freshID()
        var attributes: [(String, String)] = [("storyboardName", storyboardName)]
        if let identifier { attributes.append(("referencedIdentifier", identifier)) }
        if let ownIdentifier { attributes.append(("storyboardIdentifier", ownIdentifier)) }
        attributes += [("id", referenceID), ("sceneMemberID", "viewController")]
        func tag(_ name: String, _ attributes: [(String, String)], empty: Bool) -> [UInt8] {
            Array("<\(name)".utf8) + attributes.flatMap { Array(" \($0.0)=".utf8) + Self.quoted($0.1) } + Array((empty ? "/>" : ">").utf8)
        }
        var lines: [[UInt8]] = [
            indent + tag("scene", [("sceneID", freshID())], empty: false),
            indent + unit + Array("<objects>".utf8),
            indent + unit + unit + tag("viewControllerPlaceholder", attributes, empty: true),
            indent + unit + unit
                + tag(
                    "placeholder",
                    [
                        ("placeholderIdentifier", "IBFirstResponder"), ("id", freshID()), ("userLabel", "First Responder"),
                        ("customClass", "UIResponder"), ("sceneMemberID", "firstResponder"),
                    ], empty: true),
            indent + unit + Array("</objects>".utf8),
        ]
        if let point = elements[canvas].children.first(where: { elements[$0].name == "point" && elements[$0].attribute("key") == "canvasLocation" }) {
            lines.append(indent + unit + Array(bytes[elements[point].range]))
        }
        lines.append(indent + Array("</scene>".utf8))
        let text = lines.enumerated().flatMap { $0.offset == 0 ? $0.element : newline + $0.element }
        return (text, referenceID)
    }

    /// An id in Interface Builder's `abc-de-fgh` shape that neither file uses (deterministic).
    mutating func freshID() -> String {
        let alphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        while true {
            counter += 1
            var state = UInt64(counter) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: newName.utf8.count) &* 0xBF58_476D_1CE4_E5B9
            var characters: [Character] = []
            for _ in 0..<8 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                characters.append(alphabet[Int((state >> 33) % UInt64(alphabet.count))])
            }
            let id = String(characters[0..<3]) + "-" + String(characters[3..<5]) + "-" + String(characters[5..<8])
            if usedIDs.insert(id).inserted { return id }
        }
    }
}

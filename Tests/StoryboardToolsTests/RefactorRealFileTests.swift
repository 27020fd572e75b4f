import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Storyboards
import StoryboardTools
import Testing
import TestSupport

/// Refactors of real storyboards from Tests/Fixtures/Storyboards, checked on the files' text:
/// what a code review of the result shows, and what Interface Builder resolves in each file.
@Suite struct RefactorRealFileTests {
    /// A fixture by the end of its path.
    func fixture(_ suffix: String) throws -> [UInt8] {
        let corpus = try StoryboardCorpus.fixtures.get()
        let entry = try #require(corpus.entries.first { $0.file.hasSuffix(suffix) })
        return try corpus.data(entry)
    }

    /// HomeKitCatalog's Main: the accessory browser (in its navigation controller, presented by
    /// two scenes; its "Add Accessory" segue is an inferred-metrics tie breaker) and the services
    /// list (shown by two scenes) move; both have segues out to scenes that stay.
    static let homeKit = "HomeKitCatalog/HMCatalog/Base.lproj/Main.storyboard"
    static let homeKitMove = ["UyD-ka-V3v", "Evm-50-RyQ", "bRW-7I-BFj"]

    /// The values of `attribute` on `element`s of a document, in document order.
    func values(_ xml: [UInt8], _ element: String, _ attribute: String) throws -> [String] {
        let document = try XMLDocument(data: Data(xml), options: [])
        return try document.nodes(forXPath: "//\(element)[@\(attribute)]").compactMap {
            ($0 as? XMLElement)?.attribute(forName: attribute)?.stringValue
        }
    }

    @Test func tieBreakersNameOnlySeguesOfTheirOwnFile() throws {
        let xml = try fixture(Self.homeKit)
        let result = try StoryboardRefactor.refactor(xml: xml, name: "Main", scenes: Self.homeKitMove, into: "Accessories")
        for file in [result.original, result.extracted] {
            let segues = Set(try values(file, "segue", "id"))
            let references = try values(file, "segue", "reference")
            #expect(references.filter { !segues.contains($0) } == [])
        }
        // The moved "Add Accessory" tie breaker goes with its segue; the others stay in order.
        #expect(
            try values(result.original, "segue", "reference")
                == ["k4j-Bp-n8T", "Vco-xg-mBS", "XMQ-LX-TnC", "GZk-pK-8ga", "UBP-oF-dww", "qzE-YI-WRP"])
        #expect(try values(result.extracted, "segue", "reference") == ["DtW-uU-Okf"])

        // Lister's Main: its one tie breaker stays with the document list; the new file, with no
        // tie breaker of its own, gets no inferredMetricsTieBreakers at all.
        let lister = try fixture("ListerAProductivityAppObj-CandSwift/Swift/Lister/Base.lproj/Main.storyboard")
        let split = try StoryboardRefactor.refactor(xml: lister, name: "Main", scenes: ["VUE-6e-tVo", "ZKr-bB-CnJ"], into: "List")
        #expect(try values(split.original, "segue", "reference") == ["qX3-zy-8XZ"])
        #expect(!String(decoding: split.extracted, as: UTF8.self).contains("inferredMetricsTieBreakers"))
        // And when every tie breaker leaves, the element leaves the source with them.
        let all = try StoryboardRefactor.refactor(
            xml: lister, name: "Main",
            scenes: ["JQK-Og-D31", "fF1-lI-qpl", "6kF-aG-b93", "wHf-UM-pPg", "owA-RA-beC"],
            into: "Split")
        #expect(!String(decoding: all.original, as: UTF8.self).contains("inferredMetricsTieBreakers"))
        #expect(try values(all.extracted, "segue", "reference") == ["qX3-zy-8XZ"])
        for (name, file) in [("Main", all.original), ("Split", all.extracted)] {
            #expect(throws: Never.self) { try StoryboardParser.parse(name: name, data: file) }
        }
    }

    /// The lines of a file, without their line ends.
    func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A longest-common-subsequence line diff: the indices of `a`'s lines that are not in `b`,
    /// and of `b`'s that are not in `a`.
    func diff(_ a: [String], _ b: [String]) -> (deleted: [Int], inserted: [Int]) {
        let n = a.count, m = b.count
        var table = [Int32](repeating: 0, count: (n + 1) * (m + 1))
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i * (m + 1) + j] =
                    a[i] == b[j]
                    ? table[(i + 1) * (m + 1) + j + 1] + 1
                    : max(table[(i + 1) * (m + 1) + j], table[i * (m + 1) + j + 1])
            }
        }
        var deleted: [Int] = [], inserted: [Int] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, a[i] == b[j] {
                i += 1; j += 1
            } else if j < m, i == n || table[i * (m + 1) + j + 1] >= table[(i + 1) * (m + 1) + j] {
                inserted.append(j); j += 1
            } else {
                deleted.append(i); i += 1
            }
        }
        return (deleted, inserted)
    }

    /// The lines of the scene holding controller `id`: from the comment above `<scene>` to `</scene>`.
    func sceneLines(of id: String, in lines: [String]) throws -> ClosedRange<Int> {
        let controller = try #require(lines.firstIndex { $0.contains(" id=\"\(id)\"") && $0.contains("sceneMemberID=\"viewController\"") })
        var start = try #require(lines[...controller].lastIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("<scene ") })
        if lines[start - 1].trimmingCharacters(in: .whitespaces).hasPrefix("<!--") { start -= 1 }
        let end = try #require(lines[controller...].firstIndex { $0.trimmingCharacters(in: .whitespaces) == "</scene>" })
        return start...end
    }

    /// A line with its Storyboard ID and its segue destination taken out: two lines that differ
    /// only there are one element with those attributes edited in place.
    func skeleton(_ line: String) -> String {
        line.replacingOccurrences(of: #" storyboardIdentifier="[^"]*""#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #" destination="[^"]*""#, with: " destination=…", options: .regularExpression)
    }

    @Test func onlyWhatChangesChangesInTheDiff() throws {
        let xml = try fixture(Self.homeKit)
        let result = try StoryboardRefactor.refactor(xml: xml, name: "Main", scenes: Self.homeKitMove, into: "Accessories")
        let source = lines(xml)
        let moved = Set(try Self.homeKitMove.flatMap { try sceneLines(of: $0, in: source) })
        #expect(moved.count == 158)  // the three scenes, as the fixture has them

        // The source: the moved scenes' lines go; two reference scenes (seven lines each) come in
        // their place; a few lines change in place; every other line keeps its bytes.
        let original = lines(result.original)
        var referenceScenes: [ClosedRange<Int>] = []
        for (index, line) in original.enumerated() where line.contains(#"<viewControllerPlaceholder storyboardName="Accessories""#) {
            let start = try #require(original[...index].lastIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("<scene ") })
            let end = try #require(original[index...].firstIndex { $0.trimmingCharacters(in: .whitespaces) == "</scene>" })
            referenceScenes.append(start...end)
        }
        #expect(referenceScenes.map(\.count) == [7, 7])  // the browser's navigation controller and the services list
        // Each stands where its scene stood, in the scene's indentation.
        let sourceScenes = try ["UyD-ka-V3v", "bRW-7I-BFj"].map { try sceneLines(of: $0, in: source) }
        for (reference, scene) in zip(referenceScenes, sourceScenes) {
            #expect(original[reference.lowerBound - 1] == source[scene.lowerBound - 1])
            #expect(original[reference.lowerBound].prefix { $0 == " " } == source[scene.lowerBound].prefix { $0 == " " })
        }
        let referenceLines = Set(referenceScenes.flatMap { $0 })
        let sourceKept = source.indices.filter { !moved.contains($0) }.map { source[$0] }
        let originalKept = original.indices.filter { !referenceLines.contains($0) }.map { original[$0] }
        let (editedOut, editedIn) = diff(sourceKept, originalKept)
        // In place: segues into the moved scenes now name the references, the one tie breaker is
        // gone, and the two scenes the moved ones lead to got a Storyboard ID.
        #expect(
            editedOut.map { skeleton(sourceKept[$0]) } == editedIn.map { skeleton(originalKept[$0]) }
                + [skeleton(#"        <segue reference="DtW-uU-Okf"/>"#)])
        #expect(editedIn.count == 6, "\(editedIn.map { originalKept[$0] })")  // 4 segues, 2 Storyboard IDs
        let references = Set(result.incomingReferences.values)
        for index in editedIn where originalKept[index].contains("<segue ") {
            let destination = originalKept[index].firstMatch(of: /destination="([^"]*)"/).map { String($0.1) }
            #expect(references.contains(destination ?? ""), "\(originalKept[index])")
        }
        #expect(original.count == source.count - moved.count + referenceLines.count - 1)

        // The new file: the moved scenes exactly as they were, in their order, but for the
        // segues out of them (now to references) and the Storyboard IDs the entered scenes got;
        // then the two references out.
        let extracted = lines(result.extracted)
        let movedText = moved.sorted().map { source[$0] }
        let scenesStart = try #require(extracted.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "<scenes>" })
        let movedOut = Array(extracted[(scenesStart + 1)..<(scenesStart + 1 + movedText.count)])
        let changed = zip(movedText, movedOut).filter { $0.0 != $0.1 }
        #expect(changed.allSatisfy { skeleton($0.0) == skeleton($0.1) })
        #expect(changed.count == 4, "\(changed)")  // 2 segues out, 2 Storyboard IDs
        // Above <scenes> and below it, the source's own lines; the entry point is the browser's
        // navigation controller.
        #expect(
            Array(extracted[...scenesStart])
                == source[...scenesStart].map {
                    $0.replacingOccurrences(of: #"initialViewController="h3V-UA-Z11""#, with: #"initialViewController="UyD-ka-V3v""#)
                })
        #expect(extracted[1] != source[1])
        let tail = try #require(source.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "</scenes>" })
        let extractedTail = try #require(extracted.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "</scenes>" })
        #expect(extractedTail == scenesStart + 1 + movedText.count + 2 * 7)
        let kept = source[tail...].filter { !$0.contains("<segue reference=") || $0.contains("DtW-uU-Okf") }
        #expect(Array(extracted[extractedTail...]) == Array(kept))
    }
}

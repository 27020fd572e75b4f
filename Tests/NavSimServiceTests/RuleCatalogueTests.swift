import Foundation
import Testing
import TestSupport

/// Every UIKit rule is findable by grep: each R-id of docs/uikit-behaviours.md appears verbatim
/// (a word, not inside a range) at its implementation site in `Sources/`, or in the catalogue's
/// "Rules navsim does not model" list, never in both. Reads the repository alone; with the
/// project's `shared/` folder present, the catalogue must also list every rule of its spec.
@Suite("every R-id is at its site or in the not-modelled list")
struct RuleCatalogueTests {
    static let catalogue = ServiceFiles.root.appendingPathComponent("docs/uikit-behaviours.md")

    /// R-ids that start a table row (`| R12 | …`), and those of the not-modelled section.
    static func catalogueIDs() throws -> (all: Set<String>, notModelled: Set<String>) {
        let text = try String(contentsOf: catalogue, encoding: .utf8)
        var all = Set<String>(), notModelled = Set<String>()
        var inNotModelled = false
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("## ") { inNotModelled = line.hasPrefix("## Rules navsim does not model") }
            guard let id = rowID(line) else { continue }
            if inNotModelled { notModelled.insert(id) } else { all.insert(id) }
        }
        return (all, notModelled)
    }

    static func rowID(_ line: Substring) -> String? {
        let cells = line.split(separator: "|", omittingEmptySubsequences: false)
        guard line.hasPrefix("|"), cells.count > 2 else { return nil }
        let cell = cells[1].trimmingCharacters(in: .whitespaces)
        guard cell.hasPrefix("R"), cell.count > 1, cell.dropFirst().allSatisfy(\.isNumber) else { return nil }
        return cell
    }

    /// Every R-id written as a word in the Swift files under `Sources/`.
    static func idsInSources() throws -> Set<String> {
        let sources = ServiceFiles.root.appendingPathComponent("Sources")
        var found = Set<String>()
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            found.formUnion(words(in: text))
        }
        return found
    }

    /// `R` followed by digits, with no letter or digit on either side.
    static func words(in text: String) -> Set<String> {
        var found = Set<String>()
        let chars = Array(text.utf8)
        var i = 0
        while i < chars.count {
            defer { i += 1 }
            guard chars[i] == UInt8(ascii: "R"), i + 1 < chars.count, isDigit(chars[i + 1]) else { continue }
            if i > 0, isAlphanumeric(chars[i - 1]) { continue }
            var j = i + 1
            while j < chars.count, isDigit(chars[j]) { j += 1 }
            if j < chars.count, isAlphanumeric(chars[j]) { continue }
            found.insert(String(decoding: chars[i..<j], as: UTF8.self))
            i = j - 1
        }
        return found
    }

    static func isDigit(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) }
    static func isAlphanumeric(_ b: UInt8) -> Bool { isDigit(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x5F }

    @Test func everyRuleIsAtItsSiteOrListedAsNotModelled() throws {
        let (all, notModelled) = try Self.catalogueIDs()
        #expect(all.count >= 100, "the catalogue lists \(all.count) rules")
        let inSources = try Self.idsInSources()
        let missing = all.subtracting(inSources).subtracting(notModelled)
        #expect(missing.isEmpty, "no implementation site and not in the not-modelled list: \(missing.sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count })")
        let both = notModelled.intersection(inSources)
        #expect(both.isEmpty, "listed as not modelled but named in Sources/: \(both.sorted())")
        #expect(notModelled.isSubset(of: all), "not-modelled ids missing from the catalogue: \(notModelled.subtracting(all).sorted())")
    }

    @Test func wordsIgnoreLongerIDsAndIdentifiers() {
        #expect(Self.words(in: "R4 and R40–R46, not VR4 or R4x; (R12)") == ["R4", "R40", "R46", "R12"])
    }

    /// With shared/ present: the catalogue lists every rule of the UIKit semantics spec.
    @Test(.enabled(if: SharedFolder.directory != nil, "needs the project's shared/ folder"))
    func catalogueListsEveryRuleOfTheSpec() throws {
        let spec = try #require(SharedFolder.directory).appendingPathComponent("spec/uikit-semantics.md")
        let text = try String(contentsOf: spec, encoding: .utf8)
        var specIDs = Set<String>()
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("**R") || line.hasPrefix("- **R") || line.hasPrefix("| R") {
            specIDs.formUnion(Self.words(in: String(line.prefix(12))))
        }
        let (all, _) = try Self.catalogueIDs()
        #expect(!specIDs.isEmpty)
        #expect(specIDs.subtracting(all).isEmpty, "rules of the spec missing from docs/: \(specIDs.subtracting(all).sorted())")
    }
}

import Foundation
import NavigationCore
import Storyboards
import Testing
import TestSupport

import StoryboardTools

/// Lint knows a split's column attributes (a value navsim has no case for is `unsupported-value`),
/// and the refactor moves a column-style split with its columns keeping every attribute as written.
@Suite struct SplitLintAndRefactorTests {
    let xml = StoryboardXML.document(
        initial: "home",
        scenes: [
            scene("home", body: connections(#"<segue destination="sp" kind="presentation" identifier="mail" id="p1"/>"#)),
            scene(
                "sp", element: "splitViewController",
                attributes: #"style="tripleColumn" displayModeButtonVisibility="never" preferredDisplayMode="twoBeside" behavior="tile""#,
                body: connections(
                    #"<segue destination="boxes" kind="relationship" relationship="masterViewController" id="r1"/>"#,
                    #"<segue destination="list" kind="relationship" relationship="supplementaryViewController" id="r2"/>"#,
                    #"<segue destination="mail" kind="relationship" relationship="detailViewController" id="r3"/>"#,
                    #"<segue destination="phone" kind="relationship" relationship="compactViewController" id="r4"/>"#)),
            scene("boxes"), scene("list"), scene("mail"), scene("phone"),
        ])

    @Test func lintWarnsAboutValuesWithNoCase() throws {
        #expect(rules(try lint(["Main": xml])).filter { $0 == "unsupported-value" }.isEmpty)
        let odd = xml.replacingOccurrences(of: #"style="tripleColumn" displayModeButtonVisibility="never""#, with: #"style="sideBySide" displayModeButtonVisibility="hidden""#)
        let findings = try lint(["Main": odd]).filter { $0.rule == "unsupported-value" }
        #expect(findings.count == 2, "\(findings)")
        let line = try #require(odd.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("<splitViewController") }) + 1
        #expect(findings.allSatisfy { $0.severity == .warning && $0.line == line }, "\(findings)")
    }

    @Test func refactorKeepsTheColumnsAndTheirAttributes() throws {
        let result = try StoryboardRefactor.refactor(
            xml: Array(xml.utf8), name: "Main", scenes: ["sp", "boxes", "list", "mail", "phone"], into: "Mail")
        let text = String(decoding: result.extracted, as: UTF8.self)
        #expect(text.contains(#"style="tripleColumn" displayModeButtonVisibility="never" preferredDisplayMode="twoBeside" behavior="tile""#), "\(text)")
        #expect(text.contains(#"relationship="compactViewController""#))
        let moved = try StoryboardParser.parse(name: "Mail", data: result.extracted)
        let split = try #require(moved.scene(id: "sp"))
        #expect(split.splitStyle == .tripleColumn)
        #expect(split.configuration.displayModeButtonVisibility == .some(.never))
        #expect(split.relationshipDestination("compactViewController") == "phone")
        #expect(moved.diagnostics.isEmpty, "\(moved.diagnostics)")
        // The split cannot leave its compact column behind.
        #expect(throws: RefactorError.self) {
            try StoryboardRefactor.refactor(xml: Array(xml.utf8), name: "Main", scenes: ["sp", "boxes", "list", "mail"], into: "Mail")
        }
    }
}

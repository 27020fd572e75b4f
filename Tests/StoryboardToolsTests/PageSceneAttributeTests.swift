import Foundation
import NavigationCore
import Storyboards
import Testing
import TestSupport

import StoryboardTools

/// The attributes Interface Builder writes on a `pageViewController` scene (`transitionStyle`,
/// `navigationOrientation`, `spineLocation`, `doubleSided`), spelled as the real files in
/// Tests/Fixtures/Storyboards spell them: the parser reads them, lint knows their values, the
/// refactor carries them into the new file byte for byte.
@Suite struct PageSceneAttributeTests {
    static let curl = #"transitionStyle="pageCurl" navigationOrientation="vertical" spineLocation="mid" doubleSided="YES""#
    static let scroll = #"transitionStyle="scroll" pageSpacing="12" navigationOrientation="horizontal" spineLocation="none""#

    func book(_ attributes: String) -> String {
        StoryboardXML.document(
            initial: "a",
            scenes: [
                scene("a", body: connections(#"<segue destination="pages" kind="presentation" identifier="read" id="s1"/>"#)),
                scene("pages", element: "pageViewController", attributes: attributes),
            ])
    }

    @Test func theParserReadsEachAttribute() throws {
        let parsed = try StoryboardParser.parse(name: "Main", data: Array(book(Self.curl).utf8))
        #expect(
            parsed.scene(id: "pages")?.page
                == PageSettings(transitionStyle: .pageCurl, navigationOrientation: "vertical", spineLocation: .mid, isDoubleSided: true))
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
    }

    @Test func lintKnowsTheValuesAndNamesAnyOther() throws {
        for good in [Self.curl, Self.scroll] {
            let found = try lint(["Main": book(good)]).filter { $0.rule == "unsupported-value" }
            #expect(found.isEmpty, "\(good): \(found)")
        }
        let bad = #"transitionStyle="fold" navigationOrientation="diagonal" spineLocation="middle""#
        let found = try lint(["Main": book(bad)]).filter { $0.rule == "unsupported-value" }
        #expect(found.count == 3, "\(found)")
        for attribute in ["transitionStyle 'fold'", "navigationOrientation 'diagonal'", "spineLocation 'middle'"] {
            #expect(found.contains { $0.message.contains(attribute) && $0.element == "pages" }, "\(attribute): \(found)")
        }
        // Read as not given: the scene instantiates with UIKit's defaults.
        let parsed = try StoryboardParser.parse(name: "Main", data: Array(book(bad).utf8))
        #expect(parsed.scene(id: "pages")?.page == PageSettings(transitionStyle: nil, navigationOrientation: nil, spineLocation: nil, isDoubleSided: nil))
    }

    @Test func theRefactorKeepsThemInTheNewFile() throws {
        for attributes in [Self.curl, Self.scroll] {
            let result = try StoryboardRefactor.refactor(xml: Array(book(attributes).utf8), name: "Main", scenes: ["pages"], into: "Reader")
            let text = String(decoding: result.extracted, as: UTF8.self)
            #expect(text.contains(attributes), "\(text)")
            let moved = try StoryboardParser.parse(name: "Reader", data: result.extracted)
            let original = try StoryboardParser.parse(name: "Main", data: Array(book(attributes).utf8))
            #expect(moved.scene(id: "pages")?.page == original.scene(id: "pages")?.page)
        }
    }
}

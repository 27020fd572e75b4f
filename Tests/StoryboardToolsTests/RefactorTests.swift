import Foundation
import Storyboards
import Testing
import TestSupport

import StoryboardTools

@Suite struct RefactorTests {
    /// a (entry) presents b; b shows c inside nav; c presents a back.
    let xml = StoryboardXML.document(
        initial: "a",
        scenes: [
            scene("a", body: connections(#"<segue destination="nav" kind="presentation" identifier="toNav" id="s1"/>"#)),
            scene(
                "nav", element: "navigationController",
                body: connections(#"<segue destination="b" kind="relationship" relationship="rootViewController" id="r"/>"#)),
            scene("b", body: connections(#"<segue destination="c" kind="show" identifier="toC" id="s2"/>"#)),
            scene(
                "c", attributes: #"storyboardIdentifier="C""#,
                body: connections(#"<segue destination="a" kind="presentation" identifier="toA" id="s3"/>"#)),
        ])

    func refactor(_ scenes: [String]) throws(RefactorError) -> (Storyboard, Storyboard, RefactorResult) {
        let result = try StoryboardRefactor.refactor(xml: Array(xml.utf8), name: "Main", scenes: scenes, into: "Flow")
        let source = try! StoryboardParser.parse(name: "Main", data: result.original)
        let extracted = try! StoryboardParser.parse(name: "Flow", data: result.extracted)
        return (source, extracted, result)
    }

    @Test func movesScenesAndLeavesReferences() throws {
        let (source, extracted, result) = try refactor(["nav", "b", "c"])
        #expect(extracted.scenes.map(\.id).prefix(3) == ["nav", "b", "c"])
        #expect(extracted.initialViewController == "nav")
        // nav was entered from a: a reference in Main, to nav by its new Storyboard ID.
        let referenceID = try #require(result.incomingReferences["nav"])
        let reference = try #require(source.scene(id: referenceID))
        #expect(reference.placeholder == StoryboardReference(storyboardName: "Flow", referencedIdentifier: "nav"))
        #expect(source.scene(id: "a")?.segues.first?.destination == reference.id)
        #expect(extracted.scene(id: "nav")?.storyboardIdentifier == "nav")
        // c keeps its Storyboard ID; Main keeps a reference carrying it.
        #expect(source.scene(withStoryboardIdentifier: "C")?.placeholder?.storyboardName == "Flow")
        // c → a goes out of the new file: a gets a Storyboard ID and a reference in Flow.
        let outID = try #require(result.outgoingReferences["a"])
        let out = try #require(extracted.scene(id: outID))
        #expect(out.placeholder == StoryboardReference(storyboardName: "Main", referencedIdentifier: "a"))
        #expect(extracted.scene(id: "c")?.segues.first?.destination == out.id)
        // Both resolve and carry no diagnostics the source did not have.
        let library = StoryboardLibrary([source, extracted])
        #expect(library.diagnostics(for: "Main").isEmpty)
        #expect(library.diagnostics(for: "Flow").isEmpty)
        #expect(
            try library.resolveDestination(of: source.scene(id: "a")!.segues[0], in: "Main").get().address
                == SceneAddress(storyboard: "Flow", sceneID: "nav"))
        #expect(String(decoding: result.extracted, as: UTF8.self).hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<document"))
    }

    @Test func theEntryPointMovesAsAReference() throws {
        let (source, extracted, result) = try refactor(["a"])
        #expect(extracted.initialViewController == "a")
        #expect(source.initialViewController == result.incomingReferences["a"])
        #expect(source.initialScene?.placeholder?.storyboardName == "Flow")
    }

    @Test func refusals() {
        #expect(throws: RefactorError.unknownScene("zz")) { try refactor(["zz"]) }
        #expect(throws: RefactorError.embeddedInStayingContainer(scene: "b", container: "nav", relationship: "rootViewController")) {
            try refactor(["b"])
        }
        #expect(throws: RefactorError.childLeftBehind(container: "nav", child: "b", relationship: "rootViewController")) {
            try refactor(["nav"])
        }
        #expect(throws: RefactorError.noScenes) { try refactor([]) }
        #expect(throws: RefactorError.invalidName("Main")) {
            try StoryboardRefactor.refactor(xml: Array(xml.utf8), name: "Main", scenes: ["a"], into: "Main")
        }
    }

    /// A file with CRLF line ends keeps them, in the lines it keeps and in the references it gains.
    @Test func lineEndsAreTheSource() throws {
        let crlf = xml.replacingOccurrences(of: "\n", with: "\r\n")
        let result = try StoryboardRefactor.refactor(xml: Array(crlf.utf8), name: "Main", scenes: ["nav", "b", "c"], into: "Flow")
        for file in [result.original, result.extracted] {
            let text = String(decoding: file, as: UTF8.self)
            #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
            #expect(throws: Never.self) { try StoryboardParser.parse(name: "Main", data: file) }
        }
        let before = crlf.components(separatedBy: "\r\n")
        let after = String(decoding: result.original, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(after.prefix(7) == before.prefix(7))  // the prolog, <document>, <scenes> and the first scene's start
    }
}

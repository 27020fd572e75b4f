import Testing
import Storyboards

/// The pre-scan's bounds (attributes, elements) and what may follow the root element.
@Suite struct ParserLimitTests {
    private func error(_ xml: String, limits: StoryboardParser.Limits = .init()) -> StoryboardError? {
        do {
            _ = try StoryboardParser.parse(name: "Main", data: Array(xml.utf8), limits: limits)
            return nil
        } catch {
            return error
        }
    }

    private func withAttributes(_ count: Int) -> String {
        let attributes = (0..<count).map { "a\($0)=\"\($0)\"" }.joined(separator: " ")
        return XML.document(initial: "A", XML.viewController("A", attributes: attributes))
    }

    @Test func attributesPerElement() {
        #expect(error(withAttributes(250)) == nil)
        guard case let .limitExceeded(limit, max, line, byteOffset) = error(withAttributes(80_000)) else {
            Issue.record("80,000 attributes were accepted")
            return
        }
        #expect(limit == .attributesPerElement && max == 256)
        let xml = withAttributes(80_000)
        let lineOfController = xml.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains("<viewController id=\"A\"") }.map { $0 + 1 }
        #expect(line == lineOfController)
        #expect(Array(xml.utf8)[byteOffset] == UInt8(ascii: "<"))
        // `=` and `>` inside quoted values are not attributes or tag ends.
        // <document> has 7 attributes; the controller 4 (id, title, userLabel, sceneMemberID), not 12.
        let quoted = XML.document(initial: "A", XML.viewController("A", attributes: #"title="a=b=c=d=e>f=g=h" userLabel='x=y'"#))
        #expect(error(quoted, limits: .init(attributesPerElement: 7)) == nil)
        #expect(error(quoted, limits: .init(attributesPerElement: 6)) != nil)
    }

    @Test func elementsPerDocument() {
        let xml = XML.document(initial: "A", XML.viewController("A"))
        #expect(error(xml, limits: .init(elements: 100)) == nil)
        guard case let .limitExceeded(limit, max, _, _) = error(xml, limits: .init(elements: 5)) else {
            Issue.record("expected elementsPerDocument")
            return
        }
        #expect(limit == .elementsPerDocument && max == 5)
    }

    @Test(arguments: [
        ("<view/>", "an element <view>"), ("text", "text"), ("\0", "a NUL byte"), ("<document/>", "an element <document>"),
        ("<![CDATA[x]]>", "a CDATA section"),
    ])
    func contentAfterTheRootIsRefused(tail: String, what: String) {
        let xml = XML.document(initial: "A", XML.viewController("A"))
        guard case let .contentAfterDocument(found, line, byteOffset) = error(xml + "\n" + tail) else {
            Issue.record("content after </document> was accepted: \(tail.debugDescription)")
            return
        }
        #expect(found == what)
        #expect(line == xml.split(separator: "\n", omittingEmptySubsequences: false).count + 1)
        #expect(byteOffset == xml.utf8.count + 1)
        #expect(StoryboardError.contentAfterDocument(what: found, line: line, byteOffset: byteOffset).description.contains("line \(line)"))
    }

    @Test func whitespaceCommentsAndInstructionsAfterTheRootAreFine() {
        let xml = XML.document(initial: "A", XML.viewController("A"))
        #expect(error(xml + "\n  <!-- saved by Xcode -->\n<?processed yes?>\n\t\r\n") == nil)
    }
}

import Testing
import Storyboards

/// Refusals: foreign documents, malformed XML, size and depth limits, DTDs and external entities.
@Suite struct SafetyTests {
    @Test(arguments: [
        "com.apple.InterfaceBuilder3.Cocoa.Storyboard.XIB",
        "com.apple.InterfaceBuilder.AppleTV.Storyboard",
        "com.apple.InterfaceBuilder.WatchKit.Storyboard",
        "com.apple.InterfaceBuilder3.CocoaTouch.XIB",
    ])
    func nonIOSDocumentTypesAreRefused(type: String) {
        let error = parseError(XML.document(type: type, XML.viewController("A")))
        #expect(error == .unsupportedDocumentType(type))
        #expect(error?.diagnostic.code == .unsupportedDocumentType)
        #expect(error?.diagnostic.severity == .error)
        #expect(error?.description.contains(type) == true)
    }

    @Test func missingTypeAndForeignRootAreRefused() {
        #expect(parseError(#"<document version="3.0"><scenes/></document>"#) == .unsupportedDocumentType(""))
        #expect(parseError(#"<plist version="1.0"><dict/></plist>"#) == .notAStoryboard(rootElement: "plist"))
    }

    @Test func malformedXMLReportsLineAndColumn() {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="\(XML.iOSType)">
                <scenes>
                    <scene sceneID="1"></objects>
                </scenes>
            </document>
            """
        guard case let .malformedXML(line, column, message) = parseError(xml) else {
            Issue.record("expected malformedXML")
            return
        }
        #expect(line == 4)
        #expect(column > 1)
        #expect(message.contains("mismatch"))
    }

    @Test func truncatedAndEmptyDocumentsAreMalformed() {
        let truncated = String(XML.document(XML.viewController("A")).prefix(300))
        guard case .malformedXML = parseError(truncated) else {
            Issue.record("truncated document accepted")
            return
        }
        guard case .malformedXML = parseError("") else {
            Issue.record("empty document accepted")
            return
        }
        guard case .malformedXML = parseError("<?xml version=\"1.0\"?>\n") else {
            Issue.record("declaration-only document accepted")
            return
        }
    }

    @Test func depthLimit() {
        func nested(_ depth: Int) -> String {
            // <document> is level 1; add depth - 1 levels of <view>.
            let open = String(repeating: "<view>", count: depth - 1)
            let close = String(repeating: "</view>", count: depth - 1)
            return #"<document type="\#(XML.iOSType)">\#(open)\#(close)</document>"#
        }
        #expect(parseError(nested(StoryboardParser.maximumElementDepth)) == nil)
        guard case let .tooDeeplyNested(limit, line, _) = parseError(nested(StoryboardParser.maximumElementDepth + 1)) else {
            Issue.record("expected tooDeeplyNested")
            return
        }
        #expect(limit == 256)
        #expect(line == 1)
        guard case .tooDeeplyNested = parseError(nested(10_000)) else {
            Issue.record("expected tooDeeplyNested for a very deep document")
            return
        }
    }

    @Test func sizeLimit() {
        let limit = StoryboardParser.maximumDocumentSize
        #expect(limit == 16 * 1024 * 1024)
        var bytes = Array(XML.document(XML.viewController("A")).utf8)
        // Padding after the root as comments: libxml2 refuses one text node over 10 MB.
        let comment = Array("<!--\(String(repeating: "x", count: 1000))-->\n".utf8)
        while bytes.count + comment.count <= limit + 1 { bytes += comment }
        bytes += Array(repeating: UInt8(ascii: " "), count: limit + 1 - bytes.count)
        #expect(parseError(bytes) == .documentTooLarge(byteCount: limit + 1, limit: limit))
        bytes.removeLast()
        #expect(parseError(bytes) == nil)
    }

    @Test func externalEntityIsNeverResolved() {
        let xxe = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE document [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
            <document type="\(XML.iOSType)" version="3.0" initialViewController="A">
                <scenes>
                    <scene sceneID="s"><objects>
                        <viewController id="A" title="&xxe;" storyboardIdentifier="&xxe;" sceneMemberID="viewController"/>
                    </objects></scene>
                </scenes>
            </document>
            """
        let error = parseError(xxe)
        #expect(error == .doctypeNotAllowed(line: 2))
        #expect(error?.description.contains("root:") == false)
    }

    @Test func entityReferenceWithoutDTDIsMalformed() {
        let xml = XML.document(XML.viewController("A", attributes: #"title="&xxe;""#))
        guard case let .malformedXML(_, _, message) = parseError(xml) else {
            Issue.record("an undeclared entity was accepted")
            return
        }
        #expect(message.contains("entity"))
        #expect(!message.contains("root:"))
    }

    @Test func entityExpansionBombIsRefused() {
        let bomb = """
            <?xml version="1.0"?>
            <!-- a comment first does not hide it -->
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <document type="\(XML.iOSType)">&lol2;</document>
            """
        #expect(parseError(bomb) == .doctypeNotAllowed(line: 3))
    }

    @Test func nonUTF8IsRefused() {
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("<document/>".utf8).flatMap { [$0, 0] }
        #expect(parseError(utf16) == .unsupportedEncoding("UTF-16"))
        let bomUTF8: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(XML.document(XML.viewController("A")).utf8)
        #expect(parseError(bomUTF8) == nil)
    }

    @Test func errorDescriptionsAreSentences() {
        let errors: [StoryboardError] = [
            .documentTooLarge(byteCount: 9, limit: 8), .tooDeeplyNested(limit: 256, line: 3, column: 4),
            .malformedXML(line: 1, column: 2, message: "tag not finished"), .doctypeNotAllowed(line: 2),
            .unsupportedEncoding("UTF-16"), .notAStoryboard(rootElement: "plist"), .unsupportedDocumentType("x"),
        ]
        for error in errors {
            #expect(error.description.hasSuffix("."))
            #expect(error.diagnostic.message == error.description)
        }
    }
}

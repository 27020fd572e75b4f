import Foundation
import HTTPServer
import JSONValues
import SQLite
import Testing
import TestSupport

@testable import NavSimService
@testable import SessionStorage
@testable import SQLiteStore
import StoreTestSupport
import Synchronization

// Bounded work per byte (docs/limits.md): the JSON parser is linear, what one request may create is
// limited (``Limits``), numbers are finite, storage faults answer without SQL or paths.

/// Expects a 422 `limit-exceeded` naming `limit` with its maximum.
private func expectLimit(_ reply: ServiceReply, _ limit: String, max: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    expectProblem(reply, 422, "limit-exceeded", sourceLocation: sourceLocation)
    #expect(reply["limit"]?.string == limit, "\(reply)", sourceLocation: sourceLocation)
    #expect(reply["max"]?.number == Double(max), "\(reply)", sourceLocation: sourceLocation)
}

/// `{"id": …, "children": [{}, {}, …]}` with `count` children.
private func wideSpec(_ count: Int) -> String {
    #"{"id": "wide", "kind": "viewController", "children": ["# + Array(repeating: "{}", count: count).joined(separator: ",") + "]}"
}

@Suite("JSON: linear parsing")
struct JSONParsingTests {
    @Test func objectWithManyMembersKeepsOrderAndFindsADuplicateAtItsName() throws {
        let count = 96_000
        var text = "{" + (0..<count).map { "\"m\($0)\":\($0)" }.joined(separator: ",") + "}"
        let members = try #require(try JSON.parse(Array(text.utf8)).object)
        #expect(members.count == count)
        #expect(members.first?.0 == "m0" && members.last?.0 == "m\(count - 1)")
        #expect(members[12_345].1 == .number(12_345))

        text.removeLast()
        text += #","m7":"again"}"#
        let offset = text.utf8.count - #""m7":"again"}"#.utf8.count
        #expect(throws: JSONParseError(offset: offset, reason: "duplicate member 'm7'")) {
            try JSON.parse(Array(text.utf8))
        }
    }

    @Test func containersAreCountedAndNamedAsALimit() throws {
        let text = "[" + Array(repeating: "[0]", count: 11).joined(separator: ",") + "]"
        #expect((try? JSON.parse(Array(text.utf8), maxContainers: 12)) != nil)
        do {
            _ = try JSON.parse(Array(text.utf8), maxContainers: 11)
            Issue.record("12 containers parsed with a bound of 11")
        } catch {
            #expect(error.exceeded == .init(name: "jsonContainers", max: 11))
        }
        let h = try ServiceHarness(limits: Limits(jsonContainers: 50))
        h.makeSession("s")
        h.expectUnchanged("s") {
            let body = #"{"operations": ["# + Array(repeating: "[0]", count: 60).joined(separator: ",") + "]}"
            expectLimit(h.send("POST", "/v1/sessions/s/turns", body), "jsonContainers", max: 50)
        }
    }

    /// Nesting past `jsonDepth` is a limit (422 naming it), like every other bound, not a
    /// malformed body; within it the same text is fine.
    @Test func nestingIsALimitNamedJSONDepth() throws {
        func nested(_ n: Int) -> String { #"{"id": "x", "v": "# + String(repeating: "[", count: n) + String(repeating: "]", count: n) + "}" }
        let h = try ServiceHarness(limits: Limits(jsonDepth: 8))
        h.makeSession("s")
        h.expectUnchanged("s") {
            expectLimit(h.send("POST", "/v1/sessions/s/controllers", nested(8)), "jsonDepth", max: 8)
        }
        // Within the depth the body is read: `v` is then refused as an unknown field.
        let within = h.send("POST", "/v1/sessions/s/controllers", nested(6))
        #expect(within.status == 422 && within.slug == "invalid-body" && within.json["field"]?.string == "v", "\(within)")
    }

    @Test func smallAndLargeObjectsAgreeOnDuplicates() throws {
        for count in [2, 7, 8, 9, 100, 5_000] {
            let names = (0..<count).map { "k\($0)" }
            let unique = "{" + names.map { "\"\($0)\":0" }.joined(separator: ",") + "}"
            #expect(try JSON.parse(Array(unique.utf8)).object?.count == count)
            for dup in [0, count / 2, count - 1] {
                let text = "{" + (names + [names[dup]]).map { "\"\($0)\":0" }.joined(separator: ",") + "}"
                #expect(throws: JSONParseError.self, "count \(count), duplicate of \(dup)") { try JSON.parse(Array(text.utf8)) }
            }
            // An escaped spelling of the same name is the same name.
            let escaped = "{" + names.map { "\"\($0)\":0" }.joined(separator: ",") + ",\"\\u006b0\":1}"
            #expect(throws: JSONParseError.self) { try JSON.parse(Array(escaped.utf8)) }
        }
    }

    @Test func numbersAndStringsKeepTheirValues() throws {
        let text = #"[0, -0, 7, -123456789012345, 1234567890123456789, 1.5, -2e3, "a\u00e9\ud83d\ude00b", "plain", true, false, null]"#
        let a = try #require(try JSON.parse(Array(text.utf8)).array)
        #expect(a[0] == .number(0) && a[1].number?.sign == .minus && a[2] == .number(7))
        #expect(a[3] == .number(-123_456_789_012_345) && a[4] == .number(Double("1234567890123456789")!))
        #expect(a[5] == .number(1.5) && a[6] == .number(-2000))
        #expect(a[7] == .string("aé😀b") && a[8] == .string("plain"))
        #expect(a[9] == .bool(true) && a[10] == .bool(false) && a[11] == .null)
        #expect(throws: JSONParseError.self) { try JSON.parse(Array("[tru]".utf8)) }
        #expect(throws: JSONParseError.self) { try JSON.parse(Array("[\"\u{1}\"]".utf8)) }
        #expect(throws: JSONParseError.self) { try JSON.parse([0x22, 0xFF, 0x22]) }
    }

    /// The parser makes strings without `String(validating:)` (``UTF8Text``); it still refuses
    /// every kind of invalid UTF-8, with and without an escape in the string, and keeps valid
    /// multi-byte text byte for byte.
    @Test func stringsAreValidUTF8OrRefused() throws {
        let invalid: [[UInt8]] = [
            [0xFF], [0xC0, 0xAF],  // not a lead byte; an overlong "/"
            [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80],  // overlong; a UTF-16 surrogate
            [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],  // past U+10FFFF; cut short
            [0x61, 0x80],  // a lone continuation byte after ASCII
        ]
        for bytes in invalid {
            #expect(throws: JSONParseError.self, "\(bytes)") { try JSON.parse([0x22] + bytes + [0x22]) }
            #expect(throws: JSONParseError.self, "\(bytes), escaped") { try JSON.parse([0x22, 0x5C, 0x6E] + bytes + [0x22]) }
        }
        let valid = "é€😀 ﬁ \u{10FFFF}"
        #expect(try JSON.parse(Array("\"\(valid)\"".utf8)) == .string(valid))
        #expect(try JSON.parse(Array("\"\\n\(valid)\"".utf8)) == .string("\n" + valid))
        #expect(try JSON.parse(Array(#""plain ascii""#.utf8)) == .string("plain ascii"))
    }

    @Test func depthIsStillLimited() {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParseError.self) { try JSON.parse(Array(deep.utf8)) }
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect((try? JSON.parse(Array(ok.utf8))) != nil)
    }
}

@Suite("Service: numbers are finite")
struct FiniteNumberTests {
    @Test func infinityIs422NamingTheField() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.expectUnchanged("s") {
            var r = h.send("PATCH", "/v1/sessions/s/controllers/home", #"{"preferredContentSize": [1e400, 100]}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "preferredContentSize", "\(r)")

            r = h.send(
                "POST", "/v1/sessions/s/controllers/nav/push",
                #"{"viewController": {"id": "x", "preferredContentSize": [10, -1e999]}}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "viewController.preferredContentSize", "\(r)")

            r = h.send(
                "POST", "/v1/sessions/s/controllers/home/present",
                """
                {"viewController": {"id": "m"}, "modalPresentationStyle": "popover",
                 "popover": {"sourceView": "v", "sourceRect": [0, 0, 1e400, 10]}}
                """)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "popover.sourceRect", "\(r)")

            r = h.send("PATCH", "/v1/sessions/s/controllers/home", #"{"transitioningDelegate": {"name": "T", "duration": 1e400}}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "transitioningDelegate.duration", "\(r)")

            r = h.send(
                "POST", "/v1/sessions/s/turns",
                #"{"operations": [{"controller": "nav", "operation": "select", "index": 1e400}]}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "operations[0].index", "\(r)")
        }
    }
}

@Suite("Service: limits on what one request creates")
struct RequestLimitTests {
    /// Lists kept with a controller (`unwindActions`, `shouldPerformSegue`) are bounded by
    /// `specWidth` too: 200,000 strings fit in 1 MiB and cost every later reply.
    @Test func listsOfAControllerAreBoundedBySpecWidth() throws {
        let h = try ServiceHarness(limits: Limits(specWidth: 4))
        h.makeSession("s")
        func actions(_ n: Int) -> String { "[" + (0..<n).map { "\"a\($0):\"" }.joined(separator: ",") + "]" }
        func segues(_ n: Int) -> String { "{" + (0..<n).map { "\"s\($0)\": true" }.joined(separator: ",") + "}" }
        h.expectUnchanged("s") {
            expectLimit(h.send("POST", "/v1/sessions/s/controllers", #"{"id": "x", "unwindActions": "# + actions(5) + "}"), "specWidth", max: 4)
            expectLimit(h.send("POST", "/v1/sessions/s/controllers", #"{"id": "x", "shouldPerformSegue": "# + segues(5) + "}"), "specWidth", max: 4)
            expectLimit(h.send("PATCH", "/v1/sessions/s/controllers/home", #"{"unwindActions": "# + actions(5) + "}"), "specWidth", max: 4)
        }
        #expect(h.send("POST", "/v1/sessions/s/controllers", #"{"id": "x", "unwindActions": "# + actions(4) + #", "shouldPerformSegue": "# + segues(4) + "}").status == 201)
    }

    /// A list inside such a map (a page data source's pages, a popover's passthrough views, a
    /// method's calls) is one of the controller's lists too.
    @Test func listsInsideAMapAreBoundedBySpecWidth() throws {
        let h = try ServiceHarness(limits: Limits(specWidth: 4))
        h.makeSession("s")
        #expect(h.send("POST", "/v1/sessions/s/controllers", #"{"id": "pages", "kind": "pageViewController"}"#).status == 201)
        func ids(_ n: Int) -> String { "[" + (0..<n).map { "\"p\($0)\"" }.joined(separator: ",") + "]" }
        h.expectUnchanged("s") {
            let pages = h.send("PATCH", "/v1/sessions/s/controllers/pages", #"{"pageDataSource": {"pages": "# + ids(5) + "}}")
            expectLimit(pages, "specWidth", max: 4)
            #expect(pages["detail"]?.string?.hasPrefix("pageDataSource.pages has 5 entries") == true, "\(pages)")
            let views = h.send(
                "PATCH", "/v1/sessions/s/controllers/home", #"{"popoverPresentationController": {"passthroughViews": "# + ids(5) + "}}")
            expectLimit(views, "specWidth", max: 4)
        }
        #expect(h.send("PATCH", "/v1/sessions/s/controllers/pages", #"{"pageDataSource": {"pages": "# + ids(4) + "}}").status == 200)
    }

    @Test func fiftyThousandChildrenAreRefusedBeforeAnyIsBuilt() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.expectUnchanged("s") {
            expectLimit(h.send("POST", "/v1/sessions/s/controllers", wideSpec(50_000)), "specWidth", max: 256)
        }
        // Within the width limit, the controller count still stops it.
        let narrow = try ServiceHarness(limits: Limits(controllersPerSession: 100, specWidth: 100_000))
        narrow.makeSession("s")
        narrow.expectUnchanged("s") {
            let r = narrow.send("POST", "/v1/sessions/s/controllers", wideSpec(50_000))
            expectLimit(r, "controllersPerSession", max: 100)
        }
        // 2 controllers exist (nav, home): 98 more fit, 99 do not.
        narrow.expectUnchanged("s") {
            expectLimit(narrow.send("POST", "/v1/sessions/s/controllers", wideSpec(98)), "controllersPerSession", max: 100)
        }
        #expect(narrow.send("POST", "/v1/sessions/s/controllers", wideSpec(97)).status == 201)
        #expect(narrow.send("GET", "/v1/sessions/s")["controllers"]?.object?.count == 100)
        expectLimit(
            narrow.send("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "one-more"}}"#),
            "controllersPerSession", max: 100)
    }

    @Test func navigationStackDepth() throws {
        let h = try ServiceHarness(limits: Limits(navigationStackDepth: 3))
        h.makeSession("s")
        h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p1"}}"#)
        h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p2"}}"#)
        h.expectUnchanged("s") {
            expectLimit(
                h.send("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p3"}}"#),
                "navigationStackDepth", max: 3)
            expectLimit(
                h.send(
                    "POST", "/v1/sessions/s/controllers/nav/setViewControllers",
                    #"{"viewControllers": ["home", {"id": "a"}, {"id": "b"}, {"id": "c"}]}"#),
                "navigationStackDepth", max: 3)
        }
    }

    @Test func tabsSpecDepthAndTurnLength() throws {
        let h = try ServiceHarness(limits: Limits(tabsPerTabBar: 2, specDepth: 3, operationsPerTurn: 2))
        let tabs = #"{"id": "t", "root": {"id": "tabs", "kind": "tabBarController", "viewControllers": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}}"#
        expectLimit(h.send("POST", "/v1/sessions", tabs), "tabsPerTabBar", max: 2)
        #expect(h.send("GET", "/v1/sessions/t").status == 404)

        h.makeSession("s")
        h.expectUnchanged("s") {
            let nested = #"{"id": "a", "children": [{"id": "b", "children": [{"id": "c", "children": [{"id": "d"}]}]}]}"#
            expectLimit(h.send("POST", "/v1/sessions/s/controllers", nested), "specDepth", max: 3)
            let turn = #"{"operations": [{"controller": "nav", "operation": "pop"}, {"controller": "nav", "operation": "pop"}, {"controller": "nav", "operation": "pop"}]}"#
            expectLimit(h.send("POST", "/v1/sessions/s/turns", turn), "operationsPerTurn", max: 2)
        }
        #expect(h.send("POST", "/v1/sessions/s/controllers", #"{"id": "a", "children": [{"id": "b", "children": [{"id": "c"}]}]}"#).status == 201)
    }
}

// MARK: - Storyboard instantiation: cycles and depth

/// A storyboard whose scene `V0` embeds `V1`, which embeds `V2`, … down to `V<depth-1>`;
/// `back` makes the last one embed `V0` again (a real cycle); `twice` embeds each next scene twice.
private func chainStoryboard(depth: Int, back: Bool = false, twice: Bool = false) -> String {
    let scenes = (0..<depth).map { i -> String in
        let next = i + 1 < depth ? "V\(i + 1)" : (back ? "V0" : nil)
        let embeds =
            next.map { n in
                (twice ? [0, 1] : [0]).map { k in
                    "<containerView id=\"V\(i)-c\(k)\"><connections><segue destination=\"\(n)\" kind=\"embed\" id=\"V\(i)-e\(k)\"/></connections></containerView>"
                }.joined()
            } ?? ""
        return """
            <scene sceneID="S\(i)"><objects>
            <viewController id="V\(i)" sceneMemberID="viewController"><view key="view" id="V\(i)-v"><subviews>\(embeds)</subviews></view></viewController>
            </objects></scene>
            """
    }
    return StoryboardXML.document(initial: "V0", scenes: scenes)
}

@Suite("Service: storyboard instantiation depth is no cycle")
struct StoryboardDepthTests {
    @Test func deepAcyclicChainInstantiatesAndARealCycleIsACycle() throws {
        let h = try ServiceHarness()
        let upload = h.send("PUT", "/v1/storyboards/Chain", chainStoryboard(depth: 40), contentType: "application/xml")
        #expect(upload.status == 201, "\(upload)")
        let codes = (upload["diagnostics"]?.array ?? []).compactMap { $0["code"]?.string }
        #expect(!codes.contains("relationship-cycle"), "\(upload)")
        h.makeSession("s")
        let made = h.send("POST", "/v1/sessions/s/controllers", #"{"storyboard": "Chain"}"#)
        #expect(made.status == 201, "\(made)")
        #expect(h.send("GET", "/v1/sessions/s")["controllers"]?.object?.count == 42)

        #expect(h.send("PUT", "/v1/storyboards/Loop", chainStoryboard(depth: 5, back: true), contentType: "application/xml").status == 201)
        h.expectUnchanged("s") {
            let r = h.send("POST", "/v1/sessions/s/controllers", #"{"storyboard": "Loop"}"#)
            expectProblem(r, 409, "relationship-cycle")
            #expect(r["detail"]?.string?.contains("V4") == true, "\(r)")
        }
    }

    @Test func depthAndSizeOfTheSceneTreeAreLimited() throws {
        let h = try ServiceHarness(limits: Limits(controllersPerSession: 100, specDepth: 10))
        #expect(h.send("PUT", "/v1/storyboards/Chain", chainStoryboard(depth: 12), contentType: "application/xml").status == 201)
        // Each scene embeds the next twice: 511 controllers, refused at the budget of 100.
        #expect(h.send("PUT", "/v1/storyboards/Doubling", chainStoryboard(depth: 9, twice: true), contentType: "application/xml").status == 201)
        h.makeSession("s")
        h.expectUnchanged("s") {
            expectLimit(h.send("POST", "/v1/sessions/s/controllers", #"{"storyboard": "Chain"}"#), "specDepth", max: 10)
            expectLimit(
                h.send("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"storyboard": "Doubling"}}"#),
                "controllersPerSession", max: 100)
        }
    }
}

// MARK: - Storage faults

@Suite("Service: storage faults")
struct StorageFaultTests {
    /// Nothing in a reply may name SQL, SQLite or the database's file.
    private func expectNoLeak(_ reply: ServiceReply, _ h: ServiceHarness, sourceLocation: SourceLocation = #_sourceLocation) {
        for word in ["INSERT", "SQL", "sqlite", "history", h.directory] {
            #expect(!reply.text.contains(word), "\(word) in \(reply)", sourceLocation: sourceLocation)
        }
    }

    @Test func fullDatabaseIs507WithoutSQLAndRecovers() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        // The store reports a full disk for every write (SQLiteStore's `SQLITE_FULL` is such a
        // fault, `StoreFault.isStorageFull`), from outside the store.
        h.service = nil
        let full = FaultyStore(try SessionStore(path: h.databasePath, migrationsDirectory: ServiceFiles.migrations))
        h.service = try NavSimService(store: full, openAPI: [])
        let title = String(repeating: "t", count: 50_000)
        full.fault.withLock { $0 = DiskFull() }
        h.expectUnchanged("s") {
            let r = h.send("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p", "title": "\#(title)"}}"#)
            expectProblem(r, 507, "insufficient-storage")
            expectNoLeak(r, h)
            let created = h.send("POST", "/v1/sessions", #"{"id": "t", "root": {"id": "r", "title": "\#(title)"}}"#)
            expectProblem(created, 507, "insufficient-storage")
            expectNoLeak(created, h)
            let storyboard = StoryboardXML.document(
                initial: "A",
                scenes: [
                    #"<scene sceneID="s"><objects><viewController id="A" title="\#(title)" sceneMemberID="viewController"/></objects></scene>"#
                ])
            let put = h.send("PUT", "/v1/storyboards/Big", storyboard, contentType: "application/xml")
            expectProblem(put, 507, "insufficient-storage")
            expectNoLeak(put, h)
        }
        #expect(h.send("GET", "/v1/sessions/t").status == 404)
        #expect(h.send("GET", "/v1/storyboards/Big").status == 404)
        full.fault.withLock { $0 = nil }
        h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p", "title": "\#(title)"}}"#)
        h.service = nil
        try h.restart()
        #expect(h.version("s") == 1)
    }

    @Test func databaseThatCannotBeWrittenIsRefusedAtStartNamingThePath() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        // SQLite opens a file it may not write read-only without a word; `mode=ro` makes it so
        // even for root, who may write any file.
        let uri = "file:\(h.databasePath)?mode=ro"
        do {
            _ = try ServiceHarness.open(uri)
            Issue.record("a read-only database was opened")
        } catch {
            #expect("\(error)".contains(h.databasePath), "\(error)")
            #expect((error as? SQLiteError)?.primaryCode == 8, "SQLITE_READONLY: \(error)")
        }
    }

    @Test(.enabled(if: getuid() != 0, "root writes read-only files")) func readOnlyFileIsRefused() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        try h.restart()
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: h.databasePath)
        #expect(throws: (any Error).self) { _ = try ServiceHarness.open(h.databasePath) }
    }
}

@Suite("Service: storyboard uploads within the parser's limits")
struct StoryboardUploadLimitTests {
    @Test func attributesAndNestingAre422TrailingContentIs400() throws {
        let h = try ServiceHarness()
        let attributes = (0..<80_000).map { "a\($0)=\"1\"" }.joined(separator: " ")
        let wide = StoryboardXML.document(
            initial: "A",
            scenes: [
                #"<scene sceneID="s"><objects><viewController id="A" \#(attributes) sceneMemberID="viewController"/></objects></scene>"#
            ])
        var r = h.send("PUT", "/v1/storyboards/Wide", wide, contentType: "application/xml")
        expectProblem(r, 422, "limit-exceeded")
        #expect(r["limit"]?.string == "attributesPerElement" && r["max"]?.number == 256, "\(r)")

        let deep = StoryboardXML.document(initial: "A", scenes: [String(repeating: "<view>", count: 300) + String(repeating: "</view>", count: 300)])
        r = h.send("PUT", "/v1/storyboards/Deep", deep, contentType: "application/xml")
        expectProblem(r, 422, "limit-exceeded")
        #expect(r["limit"]?.string == "elementDepth", "\(r)")

        let fine = StoryboardXML.document(
            initial: "A",
            scenes: [
                #"<scene sceneID="s"><objects><viewController id="A" sceneMemberID="viewController"/></objects></scene>"#
            ])
        // XML 1.0 §2.1: only comments, processing instructions and white space follow the
        // document element; anything else is malformed, 400 like any other malformed body.
        for tail in ["<extra/>", "trailing text", "\u{0}"] {
            r = h.send("PUT", "/v1/storyboards/Tail", fine + "\n" + tail, contentType: "application/xml")
            expectProblem(r, 400, "invalid-body")
            #expect(r["title"]?.string == "The body is not a well-formed XML document", "\(r)")
            #expect(r["detail"]?.string?.contains("line") == true, "\(r)")
        }
        #expect(h.send("GET", "/v1/storyboards/Tail").status == 404)
        #expect(h.send("PUT", "/v1/storyboards/Tail", fine + "\n<!-- end -->\n", contentType: "application/xml").status == 201)
    }
}

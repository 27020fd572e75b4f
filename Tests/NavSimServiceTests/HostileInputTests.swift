import Foundation
import HTTPServer
import JSONValues
import Testing
import TestSupport

import NavigationCore
import NavSimService

/// Input a new user's trial found accepted or answered in the wrong words (task hostile12).
@Suite("Service: hostile input a trial found")
struct HostileInputTests {
    /// R2: a presented controller cannot become a child, and the refusal names `addChild`, not
    /// D5's `present` text (UIKit raises that for `present` only).
    @Test func addChildOfAPresentedControllerNamesAddChild() throws {
        let h = try ServiceHarness()
        h.makeSession("s1")
        h.ok("POST", "/v1/sessions/s1/controllers/home/present", #"{"viewController": {"id": "p"}}"#)
        h.expectUnchanged("s1") {
            let r = h.send("POST", "/v1/sessions/s1/controllers/home/addChild", #"{"viewController": "p"}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "viewController")
            #expect(
                r["detail"]?.string
                    == "<UIViewController: p> is presented; addChild cannot also make it a child of <HomeViewController: home>. Dismiss it first (a controller is never both presented and a child).",
                "\(r)")
            #expect(r["uikit"] == nil)
        }
    }

    /// The control characters of `Names` (U+0000–U+001F, U+007F), as JSON escapes.
    static let controlEscapes = [#"\u0000"#, #"\u0001"#, #"\t"#, #"\n"#, #"\u001f"#, #"\u007f"#]

    /// A session id with a control character is refused naming `id`, and nothing is stored.
    @Test(arguments: controlEscapes)
    func aSessionIdWithAControlCharacterIsRefused(escape: String) throws {
        let h = try ServiceHarness()
        let before = h.send("GET", "/v1/sessions?limit=1000").text
        let r = h.send("POST", "/v1/sessions", #"{"id": "a\#(escape)b", "root": {"id": "home"}}"#)
        expectProblem(r, 422, "invalid-body")
        #expect(r["field"]?.string == "id", "\(r)")
        #expect(h.send("GET", "/v1/sessions?limit=1000").text == before, "nothing is stored")
        // The characters beside them are ids as before.
        h.ok("POST", "/v1/sessions", #"{"id": "a b\u0080é", "root": {"id": "home"}}"#, status: 201)
    }

    /// A controller id with a control character is refused wherever a new controller is named,
    /// and the problem names the member by its path.
    @Test(arguments: controlEscapes)
    func aControllerIdWithAControlCharacterIsRefused(escape: String) throws {
        let h = try ServiceHarness()
        let sessions = h.send("GET", "/v1/sessions?limit=1000").text
        let created = h.send("POST", "/v1/sessions", #"{"id": "s", "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"id": "x\#(escape)"}]}}"#)
        expectProblem(created, 422, "invalid-body")
        #expect(created["field"]?.string == "root.viewControllers[0].id", "\(created)")
        #expect(h.send("GET", "/v1/sessions?limit=1000").text == sessions, "nothing is stored")
        h.makeSession("s1")
        h.expectUnchanged("s1") {
            for (target, body, field) in [
                ("/v1/sessions/s1/controllers", #"{"id": "x\#(escape)"}"#, "id"),
                ("/v1/sessions/s1/controllers/home/present", #"{"viewController": {"id": "x\#(escape)"}}"#, "viewController.id"),
                ("/v1/sessions/s1/controllers/home/performSegue", #"{"identifier": "next", "destination": {"id": "x\#(escape)"}}"#, "destination.id"),
            ] {
                let r = h.send("POST", target, body)
                expectProblem(r, 422, "invalid-body")
                #expect(r["field"]?.string == field, "\(target): \(r)")
            }
        }
    }

    /// A title is free text: UIKit takes any string, and JSON carries a NUL both ways.
    @Test func aTitleMayHoldAControlCharacter() throws {
        let h = try ServiceHarness()
        h.makeSession("s1")
        h.ok("PATCH", "/v1/sessions/s1/controllers/home", #"{"title": "a\u0000b\tc"}"#)
        let got = h.send("GET", "/v1/sessions/s1/controllers/home")
        #expect(got["title"]?.string == "a\u{0}b\tc", "\(got)")
        #expect(got.text.contains(#""a\u0000b\tc""#), "escaped in the reply: \(got.text)")
    }

    /// A storyboard name in the path that can name no storyboard is the path's fault: 422
    /// `invalid-path` naming `name`, on every method; as a refactor's `into` it is the body's.
    @Test(arguments: [String(repeating: "n", count: 201), String(repeating: "n", count: 4000), "a%00b", "a%7Fb", "a%2Fb"])
    func anImpossibleStoryboardNameIsAnInvalidPathParameter(name: String) throws {
        let h = try ServiceHarness()
        for (method, suffix, body, type) in [
            ("GET", "", nil, nil), ("DELETE", "", nil, nil),
            ("PUT", "", probeStoryboard, "application/xml"),
            ("PUT", "/customSegues", "{}", "application/json"),
            ("PUT", "/classes", "{}", "application/json"),
            ("POST", "/refactor", #"{"scenes": ["x"], "into": "New"}"#, "application/json"),
        ] {
            let r = h.send(method, "/v1/storyboards/\(name)\(suffix)", body, contentType: type)
            expectProblem(r, 422, "invalid-path")
            #expect(r["field"]?.string == "name", "\(method) \(suffix): \(r)")
        }
        #expect(h.send("GET", "/v1/storyboards")["storyboards"]?.array?.isEmpty == true, "nothing is stored")
    }

    @Test func aRefactorIntoAnImpossibleNameNamesInto() throws {
        let h = try ServiceHarness()
        #expect(h.send("PUT", "/v1/storyboards/Probe", probeStoryboard, contentType: "application/xml").status == 201)
        for into in [#"a\u0000b"#, String(repeating: "n", count: 201), "a/b"] {
            let r = h.send("POST", "/v1/storyboards/Probe/refactor", #"{"scenes": ["x"], "into": "\#(into)"}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "into", "\(r)")
        }
    }

    /// openapi.yaml's `Name` and `ControllerId` patterns accept exactly what the server accepts
    /// (the length bounds aside, which the schema states as minLength and maxLength).
    @Test func theSpecsPatternsAreTheServersRules() throws {
        let spec = try String(contentsOfFile: ServiceFiles.openAPI, encoding: .utf8)
        func pattern(_ schema: String) throws -> NSRegularExpression {
            let lines = spec.split(separator: "\n").map(String.init)
            let start = try #require(lines.firstIndex(of: "    \(schema):"), "components.schemas.\(schema)")
            let line = try #require(lines[(start + 1)...].prefix { $0.hasPrefix("      ") }.first { $0.hasPrefix("      pattern: ") })
            let quoted = line.dropFirst("      pattern: ".count)
            return try NSRegularExpression(pattern: String(quoted.dropFirst().dropLast()))
        }
        // ICU's `$` also matches before a final newline; JSON Schema's (ECMA-262) only at the end.
        func matches(_ regex: NSRegularExpression, _ s: String) -> Bool {
            regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s))?.range.length == s.utf16.count
        }
        let name = try pattern("Name"), controllerID = try pattern("ControllerId")
        let samples = ["home", "a b", "é", "\u{80}", "~2", "a/b", "/", "a\u{0}b", "\u{1}", "\t", "\n", "x\u{1F}", "\u{7F}", "a\u{7F}b"]
        for s in samples {
            #expect(matches(name, s) == Names.isKey(s), "Name and Names.isKey disagree on \(s.debugDescription)")
            #expect(matches(controllerID, s) == Names.isControllerID(s), "ControllerId and Names.isControllerID disagree on \(s.debugDescription)")
        }
    }

    /// RFC 3986 §2.1: a `%` not followed by two hex digits makes the target malformed: 400
    /// `invalid-path`, not a lookup of the literal text; a valid escape is still decoded.
    @Test func aMalformedEscapeInThePathIs400() throws {
        let h = try ServiceHarness()
        h.makeSession("s1")
        h.expectUnchanged("s1") {
            for (method, target, escape) in [
                ("GET", "/v1/sessions/%zz", "%zz"), ("GET", "/v1/sessions/s1%zz", "%zz"),
                ("GET", "/v1/sessions/s1/controllers/home%4", "%4"), ("DELETE", "/v1/sessions/s1%", "%"),
                ("POST", "/v1/sessions/s1/controllers/home/present%2", "%2"),
                ("GET", "/v1/nothing-here/%g0", "%g0"),
            ] {
                let r = h.send(method, target, method == "POST" ? #"{"viewController": {"id": "p"}}"# : nil)
                expectProblem(r, 400, "invalid-path")
                #expect(r["detail"]?.string == "The path has '\(escape)': a '%' must begin an escape of two hex digits (RFC 3986 §2.1).", "\(target): \(r)")
            }
        }
        #expect(h.send("GET", "/v1/sessions/%73%31").status == 200, "s1, escaped")
    }

    /// The same in the query, as the server reports it (``HTTPRequest/malformedQueryEscape``).
    @Test func aMalformedEscapeInTheQueryIs400() throws {
        let h = try ServiceHarness()
        h.makeSession("s1")
        let r = h.service!.handle(
            HTTPRequest(
                method: "GET", path: "/v1/sessions/s1/history", query: ["after": "%zz"],
                malformedQueryEscape: "%zz"))
        let reply = ServiceReply(status: r.status, headers: r.headers, body: r.body)
        expectProblem(reply, 400, "invalid-query")
        #expect(reply["detail"]?.string == "The query has '%zz': a '%' must begin an escape of two hex digits (RFC 3986 §2.1).")
    }

    /// XML carries a tab in an attribute only as `&#9;`; a scene whose Storyboard ID holds one
    /// uploads, but cannot become a controller: the core refuses the id and the detail shows it.
    @Test func aStoryboardIDWithATabCannotBeInstantiated() throws {
        let h = try ServiceHarness()
        let scene = StoryboardXML.homeScene.replacingOccurrences(of: #"storyboardIdentifier="Home""#, with: #"storyboardIdentifier="Ho&#9;me""#)
        #expect(
            h.send(
                "PUT", "/v1/storyboards/Tab", StoryboardXML.document(initial: "vc1", scenes: [scene]),
                contentType: "application/xml"
            ).status == 201)
        let before = h.send("GET", "/v1/sessions?limit=1000").text
        let r = h.send("POST", "/v1/sessions", #"{"id": "t", "root": {"storyboard": "Tab"}}"#)
        expectProblem(r, 422, "invalid-body")
        #expect(r["detail"]?.string == #"A controller id is not empty and holds no control characters (U+0000–U+001F, U+007F); got "Ho\tme"."#, "\(r)")
        #expect(h.send("GET", "/v1/sessions?limit=1000").text == before)
    }
}

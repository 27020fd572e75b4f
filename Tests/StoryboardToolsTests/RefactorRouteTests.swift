import Foundation
import Testing
import TestSupport

@testable import NavSimService

@Suite struct RefactorRouteTests {
    let xml = StoryboardXML.document(initial: "a", scenes: [
        scene("a", body: connections(#"<segue destination="nav" kind="presentation" identifier="toNav" id="s1"/>"#)),
        scene("nav", element: "navigationController",
              body: connections(#"<segue destination="b" kind="relationship" relationship="rootViewController" id="r"/>"#)),
        scene("b"),
    ])

    @Test func storesBothAndAnswersBothWithDiagnostics() throws {
        let h = try ServiceHarness()
        #expect(h.send("PUT", "/v1/storyboards/Main", Array(xml.utf8), type: "application/xml").status == 201)
        let reply = h.json("POST", "/v1/storyboards/Main/refactor",
                           .object([("scenes", .array([.string("nav"), .string("b")])), ("into", .string("Flow"))]))
        #expect(reply.status == 200)
        let boards = try #require(reply.json["storyboards"]?.array)
        #expect(boards.map { $0["name"]?.string } == ["Main", "Flow"])
        #expect(boards.allSatisfy { $0["diagnostics"]?.array?.isEmpty == true })
        #expect(boards[1]["initialViewController"]?.string == "nav")
        // Stored: a session from Main's entry point presents the moved navigation controller.
        #expect(h.send("GET", "/v1/storyboards/Flow").status == 200)
        let session = h.json("POST", "/v1/sessions", .object([("root", .object([("storyboard", .string("Main"))]))]))
        let sid = try #require(session.json["id"]?.string)
        let performed = h.json("POST", "/v1/sessions/\(sid)/controllers/a/performSegue", .object([("identifier", .string("toNav"))]))
        #expect(performed.status == 200)
        #expect(performed.json["transition"]?["toViewController"]?.string == "nav")
    }

    @Test func refusalsChangeNothing() throws {
        let h = try ServiceHarness()
        #expect(h.send("PUT", "/v1/storyboards/Main", Array(xml.utf8), type: "application/xml").status == 201)
        func post(_ scenes: [String], into: String, on name: String = "Main") -> (status: Int, json: JSON) {
            h.json("POST", "/v1/storyboards/\(name)/refactor",
                   .object([("scenes", .array(scenes.map { .string($0) })), ("into", .string(into))]))
        }
        let split = post(["b"], into: "Flow")
        #expect(split.status == 409)
        #expect(split.json["type"]?.string == "/v1/problems/refactor-refused")
        #expect(split.json["detail"]?.string?.contains("stays behind") == true)
        #expect(post(["nav"], into: "Flow").status == 409)
        #expect(post(["zz"], into: "Flow").status == 409)
        // Into the source's own name: refused as the CLI refuses it; into another uploaded one: a clash.
        let own = post(["a"], into: "Main")
        #expect(own.status == 409 && own.json["type"]?.string == "/v1/problems/refactor-refused")
        #expect(h.send("PUT", "/v1/storyboards/Other", Array(xml.utf8), type: "application/xml").status == 201)
        #expect(post(["a"], into: "Other").status == 409)
        #expect(post(["a"], into: "Flow", on: "Nope").status == 404)
        // An unknown storyboard is 404 whatever the body names, its own name included.
        #expect(post(["a"], into: "Nope", on: "Nope").json["type"]?.string == "/v1/problems/unknown-storyboard")
        #expect(h.json("POST", "/v1/storyboards/Main/refactor", .object([("scenes", .array([]))])).status == 422)
        #expect(h.send("POST", "/v1/storyboards/Main/refactor", Array("{}".utf8), type: "text/plain").status == 415)
        #expect(h.send("GET", "/v1/storyboards/Main/refactor").status == 405)
        #expect(h.send("GET", "/v1/storyboards/Flow").status == 404)
        let main = h.send("GET", "/v1/storyboards/Main")
        #expect(main.json["scenes"]?.array?.count == 3)
    }
}

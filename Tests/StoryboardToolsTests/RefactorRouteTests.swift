import Foundation
import Testing
import HTTPServer
import JSONValues
import TestSupport

import NavSimService
import SQLiteStore

@Suite struct RefactorRouteTests {
    let xml = StoryboardXML.document(
        initial: "a",
        scenes: [
            scene("a", body: connections(#"<segue destination="nav" kind="presentation" identifier="toNav" id="s1"/>"#)),
            scene(
                "nav", element: "navigationController",
                body: connections(#"<segue destination="b" kind="relationship" relationship="rootViewController" id="r"/>"#)),
            scene("b"),
        ])

    @Test func storesBothAndAnswersBothWithDiagnostics() throws {
        let h = try ServiceHarness()
        #expect(h.send("PUT", "/v1/storyboards/Main", Array(xml.utf8), type: "application/xml").status == 201)
        let reply = h.json(
            "POST", "/v1/storyboards/Main/refactor",
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
            h.json(
                "POST", "/v1/storyboards/\(name)/refactor",
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

    /// The source's declarations of the classes the moved scenes and segues use go with them:
    /// an unwind to the moved TabBarController finds its declared action, the custom segue its
    /// declared `perform()`. Declarations of classes that stayed do not.
    @Test func declarationsFollowTheScenes() throws {
        let xml = StoryboardXML.document(
            initial: "tabs",
            scenes: [
                scene(
                    "tabs", element: "tabBarController", attributes: #"customClass="TabBarController""#,
                    body: connections(#"<segue destination="first" kind="relationship" relationship="viewControllers" id="r1"/>"#)),
                scene(
                    "first", attributes: #"customClass="FirstViewController""#,
                    body: connections(
                        #"<segue destination="modal" kind="custom" customClass="FadeSegue" identifier="present" id="s1"/>"#,
                        #"<segue destination="home" kind="show" identifier="toHome" id="s2"/>"#)),
                """
                        <scene sceneID="modal-scene">
                            <objects>
                                <viewController id="modal" customClass="ModalViewController" sceneMemberID="viewController">
                                    <connections>
                                        <segue destination="modal-exit" kind="unwind" identifier="back" unwindAction="unwindToTabs:" id="u1"/>
                                    </connections>
                                </viewController>
                                <exit id="modal-exit" userLabel="Exit" sceneMemberID="exit"/>
                            </objects>
                        </scene>
                """,
                scene("home", attributes: #"customClass="HomeViewController""#),
            ])
        let h = try ServiceHarness()
        #expect(h.send("PUT", "/v1/storyboards/Main", Array(xml.utf8), type: "application/xml").status == 201)
        #expect(
            h.json(
                "PUT", "/v1/storyboards/Main/classes",
                .object([
                    ("TabBarController", .object([("unwindActions", .array([.string("unwindToTabs:")]))])),
                    ("HomeViewController", .object([("title", .string("Home"))])),
                ])
            ).status == 200)
        #expect(
            h.json(
                "PUT", "/v1/storyboards/Main/customSegues",
                .object([
                    ("FadeSegue", .object([("performs", .string("present"))])),
                    ("SlideSegue", .object([("performs", .string("push"))])),
                ])
            ).status == 200)

        let reply = h.json(
            "POST", "/v1/storyboards/Main/refactor",
            .object([("scenes", .array(["tabs", "first", "modal"].map { .string($0) })), ("into", .string("Tabs"))]))
        #expect(reply.status == 200)
        let boards = try #require(reply.json["storyboards"]?.array)
        #expect(boards.count == 2)
        #expect(boards.allSatisfy { $0["diagnostics"]?.array?.isEmpty == true })
        #expect(boards.last?["classes"]?.text == #"{"TabBarController":{"unwindActions":["unwindToTabs:"]}}"#)
        #expect(boards.last?["customSegues"]?.text == #"{"FadeSegue":{"performs":"present"}}"#)
        // The source keeps all of its own.
        #expect(boards.first?["classes"]?.object?.count == 2)
        #expect(boards.first?["customSegues"]?.object?.count == 2)

        // From Main's entry point (now a reference to Tabs): present the modal scene, unwind to the tab bar controller.
        let session = h.json("POST", "/v1/sessions", .object([("root", .object([("storyboard", .string("Main"))]))]))
        let sid = try #require(session.json["id"]?.string)
        let presented = h.json("POST", "/v1/sessions/\(sid)/controllers/first/performSegue", .object([("identifier", .string("present"))]))
        #expect(presented.status == 200)
        #expect(presented.json["session"]?["controllers"]?["modal"] != nil)
        let unwound = h.json("POST", "/v1/sessions/\(sid)/controllers/modal/performSegue", .object([("identifier", .string("back"))]))
        #expect(unwound.status == 200)
        let action = unwound.json["events"]?.array?.first { $0["callback"]?.string == "unwindAction" }
        #expect(action?["controller"]?.string == "tabs")
        #expect(action?["action"]?.string == "unwindToTabs:")

        // Stored with the new storyboard: a service reopened on the same database has them.
        let reopened = try NavSimService(
            store: SessionStore(
                path: (h.directory as NSString).appendingPathComponent("navsim.sqlite"),
                migrationsDirectory: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("migrations").path),
            openAPI: [])
        let stored = reopened.handle(HTTPRequest(method: "GET", path: "/v1/storyboards/Tabs", query: [:], headers: HTTPHeaders(), body: []))
        let json = try JSON.parse(stored.body)
        #expect(json["classes"]?.object?.map(\.0) == ["TabBarController"])
        #expect(json["customSegues"]?.object?.map(\.0) == ["FadeSegue"])
    }
}

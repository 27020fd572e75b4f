import Foundation
import HTTPServer
import JSONValues
import Testing
import TestSupport

import NavSimService
import SQLiteStore

// MARK: - Instantiation (R101, R102)

@Suite struct StoryboardInstantiationTests {
    @Test func unknownStoryboardAndIdentifier() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let s = h.session(root: .object([("id", .string("root")), ("class", .string("RootViewController"))]))
        let sid = try #require(s.string("id"))

        let d20 = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Nope"}"#)
        #expect(d20.status == 409)
        #expect(d20.code == "D20")
        #expect(d20.slug == "unknown-storyboard")
        #expect(d20.detail.contains("Could not find a storyboard named 'Nope'"))

        let d19 = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Main", "identifier": "missing"}"#)
        #expect(d19.status == 409)
        #expect(d19.code == "D19")
        #expect(d19.slug == "unknown-storyboard-identifier")
        #expect(d19.detail.contains("doesn't contain a view controller with identifier 'missing'"))

        let empty = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Main", "identifier": ""}"#)
        #expect(empty.status == 409)
        #expect(empty.json["uikit"]?["name"]?.string == "NSInternalInconsistencyException")

        // A root that cannot be instantiated creates no session.
        let noSession = h.send("POST", "/v1/sessions", #"{"id": "never", "root": {"storyboard": "Nope"}}"#)
        #expect(noSession.code == "D20")
        #expect(h.send("GET", "/v1/sessions/never").status == 404)
        // Refusals add no history.
        #expect(h.send("GET", "/v1/sessions/\(sid)").json["version"]?.number == 0)
    }

    @Test func noEntryPointIsNil() throws {
        let h = try Harness()
        #expect(h.upload("Loose", SB.document(SB.controller("x-vc", storyboardID: "X"))).status == 201)
        let s = h.session(root: .object([("id", .string("root")), ("class", .string("RootViewController"))]))
        let sid = try #require(s.string("id"))
        let nilPresent = h.send("POST", "/v1/sessions/\(sid)/controllers/root/present", #"{"viewController": {"storyboard": "Loose"}}"#)
        #expect(nilPresent.code == "D1")
        let x = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Loose", "identifier": "X"}"#)
        #expect(x.status == 201)
        #expect(x.string("id") == "X")
        #expect(x.json["isViewLoaded"]?.bool == false)
        // A session whose root is a storyboard without an entry point has no root.
        let empty = h.session(root: .object([("storyboard", .string("Loose"))]))
        #expect(empty.status == 201)
        #expect(isAbsent(empty["window", "rootViewController"]))
    }

    @Test func idsAreStoryboardIDsThenElementIDsWithSuffixes() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))]))
        #expect(s.status == 201)
        #expect(s.string("window", "rootViewController") == "Nav")
        #expect(s["controllers", "Nav", "viewControllers"]?.strings == ["A"])
        #expect(s.string("controllers", "A", "class") == "AViewController")
        #expect(s.string("controllers", "A", "title") == "A")
        #expect(s.string("controllers", "A", "storyboard", "name") == "Main")
        #expect(s.string("controllers", "A", "storyboard", "identifier") == "A")
        let sid = try #require(s.string("id"))
        let a2 = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Main", "identifier": "A"}"#)
        #expect(a2.string("id") == "A~2")
        // `~` is unreserved in a URL: the Location carries the id as it is.
        #expect(a2.headers["location"] == "/v1/sessions/\(sid)/controllers/A~2")
        let a3 = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Main"}"#)
        #expect(a3.string("id") == "A~3")
        // The spec's own id wins, and is not suffixed.
        let own = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"id": "mine", "storyboard": "Main", "identifier": "B", "title": "Mine"}"#)
        #expect(own.string("id") == "mine")
        #expect(own.string("title") == "Mine")
        #expect(own.string("storyboard", "identifier") == "B")
        #expect(h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"id": "mine", "storyboard": "Main"}"#).status == 409)
        // A scene's kind cannot be changed by the spec.
        #expect(h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Main", "kind": "tabBarController"}"#).status == 422)
        // Segue destinations are fresh instances, suffixed the same way (R102).
        let shown = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toB"}"#)
        #expect(shown.string("events", 0, "segue", "destination") == "B")
        let again = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toB"}"#)
        #expect(again.string("events", 0, "segue", "destination") == "B~2")
        #expect(again["session", "controllers", "Nav", "viewControllers"]?.strings == ["A", "B", "B~2"])
        let b3 = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Main", "identifier": "B"}"#)
        #expect(b3.string("id") == "B~3")
    }

    /// A segue performed inside a turn reaches its storyboard scene as a single operation does
    /// (R96): before, the turn route never looked the destination up and answered 422 in place.
    @Test func segueInsideATurnFindsItsScene() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))]))
        let sid = try #require(s.string("id"))
        let turn = h.send(
            "POST", "/v1/sessions/\(sid)/turns",
            #"{"operations": [{"controller": "A", "operation": "performSegue", "identifier": "toB"}]}"#)
        #expect(turn.status == 200, "\(turn.json)")
        #expect(turn.string("results", 0, "events", 0, "segue", "destination") == "B", "\(turn.json)")
        #expect(turn["session", "controllers", "Nav", "viewControllers"]?.strings == ["A", "B"])
    }

    @Test func containersInstantiateTheirChildren() throws {
        let h = try Harness()
        let xml = SB.document(
            initial: "tab",
            SB.container(
                "tab", element: "tabBarController",
                relationships: [
                    SB.relationship("t1", to: "nav1", "viewControllers"),
                    SB.relationship("t2", to: "split", "viewControllers"),
                    SB.relationship("t3", to: "page", "viewControllers"),
                ]),
            SB.navigation("nav1", root: "home"),
            SB.controller(
                "home", storyboardID: "Home",
                embeds: [
                    SB.segue("e1", to: "child", kind: "embed"), SB.segue("e2", to: "child", kind: "embed"),
                ]),
            SB.controller("child", customClass: "ChildViewController"),
            // Relationships listed out of order: resolved by name (storyboard-format.md §5).
            SB.container(
                "split", element: "splitViewController", attributes: "allowDoubleColumnStyle=\"YES\"",
                relationships: [
                    SB.relationship("sp-d", to: "detail", "detailViewController"),
                    SB.relationship("sp-s", to: "middle", "supplementaryViewController"),
                    SB.relationship("sp-m", to: "master", "masterViewController"),
                ]),
            SB.controller("master"), SB.controller("middle"), SB.controller("detail", element: "tableViewController"),
            SB.scene(
                "page",
                """
                <pageViewController id="page" transitionStyle="pageCurl" navigationOrientation="horizontal" \
                spineLocation="mid" sceneMemberID="viewController"/>
                """))
        let up = h.upload("Main", xml)
        #expect(up.status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main"))]), traits: .object([("userInterfaceIdiom", .string("pad"))]))
        #expect(s.status == 201)
        let controllers = try #require(s["controllers"])
        #expect(controllers["tab"]?["viewControllers"]?.strings == ["nav1", "split", "page"])
        #expect(controllers["tab"]?["kind"]?.string == "tabBarController")
        #expect(controllers["nav1"]?["viewControllers"]?.strings == ["Home"])
        // Two container views embedding the same scene: two instances, views inserted.
        #expect(controllers["Home"]?["children"]?.strings == ["child", "child~2"])
        #expect(controllers["child~2"]?["parent"]?.string == "Home")
        #expect(controllers["child"]?["class"]?.string == "ChildViewController")
        #expect(controllers["split"]?["primary"]?.string == "master")
        #expect(controllers["split"]?["supplementary"]?.string == "middle")
        #expect(controllers["split"]?["secondary"]?.string == "detail")
        #expect(controllers["split"]?["style"]?.string == "tripleColumn")
        #expect(controllers["detail"]?["kind"]?.string == "tableViewController")
        #expect(controllers["page"]?["kind"]?.string == "pageViewController")
    }

    @Test func relationshipCyclesStopAtTheDepthLimit() throws {
        let h = try Harness()
        let xml = SB.document(
            initial: "n1",
            SB.navigation("n1", root: "t1"),
            SB.container("t1", element: "tabBarController", relationships: [SB.relationship("r", to: "n1", "viewControllers")]))
        let up = h.upload("Loop", xml)
        #expect(up.status == 201)
        #expect(up["diagnostics"]?.array?.contains { $0["code"]?.string == "relationship-cycle" } == true)
        let s = h.session(root: .object([("storyboard", .string("Loop"))]))
        #expect(s.status == 409)
        #expect(s.slug == "relationship-cycle")
    }
}

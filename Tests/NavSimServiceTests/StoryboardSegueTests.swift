import Foundation
import HTTPServer
import JSONValues
import Testing
import TestSupport

import NavSimService
import SQLiteStore

// MARK: - Segues (R96–R100, D18, D24)

@Suite struct StoryboardSegueTests {
    /// A session whose root is the navigation controller "Nav" with A at its root.
    private func navSession(_ h: Harness) throws -> String {
        #expect(h.upload("Main", mainXML).status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))]))
        return try #require(s.string("id"))
    }

    @Test func showInsideANavigationControllerPushes() throws {
        let h = try Harness()
        let sid = try navSession(h)
        let r = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toB"}"#)
        #expect(r.status == 200)
        #expect(r.string("events", 0, "controller") == "A")
        #expect(r.string("events", 0, "callback") == "prepareForSegue")
        #expect(r.string("events", 0, "segue", "identifier") == "toB")
        #expect(r.string("events", 0, "segue", "destination") == "B")
        #expect(r["events"]?.array?.contains { $0["callback"]?.string == "shouldPerformSegue" } == false)
        #expect(r["session", "controllers", "Nav", "viewControllers"]?.strings == ["A", "B"])
        #expect(r.string("session", "controllers", "B", "storyboard", "identifier") == "B")
        #expect(r.string("transition", "operation") == "push")
        // The recorded command carries the destination: the history replays without storyboards.
        #expect(h.send("DELETE", "/v1/storyboards/Main").status == 204)
        let replayed = h.send("GET", "/v1/sessions/\(sid)?version=1")
        #expect(replayed["controllers", "Nav", "viewControllers"]?.strings == ["A", "B"])
    }

    @Test func showWithoutANavigationControllerPresents() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let sid = try #require(h.session(root: .object([("storyboard", .string("Main"))])).string("id"))
        let r = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toB"}"#)
        #expect(r.status == 200)
        #expect(r.string("session", "controllers", "B", "presentingViewController") == "A")
        #expect(r.string("transition", "operation") == "present")
    }

    @Test func presentationUsesTheSegueStyles() throws {
        let h = try Harness()
        let sid = try navSession(h)
        let r = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "present"}"#)
        #expect(r.status == 200)
        #expect(r.string("session", "controllers", "Nav", "presentedViewController") == "B")
        #expect(r.string("session", "controllers", "B", "modalPresentationStyle") == "overFullScreen")
        #expect(r.string("session", "controllers", "B", "modalTransitionStyle") == "crossDissolve")
        #expect(r.string("session", "controllers", "B", "presentation", "style") == "overFullScreen")
        #expect(r["events"]?.array?.contains { $0["callback"]?.string == "completion" } == false)
    }

    @Test func legacyPushNeedsANavigationController() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let bare = try #require(h.session(root: .object([("storyboard", .string("Main"))])).string("id"))
        let d24 = h.send("POST", "/v1/sessions/\(bare)/controllers/A/performSegue", #"{"identifier": "legacyB"}"#)
        #expect(d24.status == 409)
        #expect(d24.code == "D24")
        #expect(d24.slug == "push-segue-without-navigation-controller")
        #expect(d24.json["uikit"]?["name"]?.string == "NSGenericException")
        let after = h.send("GET", "/v1/sessions/\(bare)")
        #expect(after["version"]?.number == 0)
        #expect(after["controllers"]?.object?.count == 1)

        let nav = try #require(h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))])).string("id"))
        let pushed = h.send("POST", "/v1/sessions/\(nav)/controllers/A/performSegue", #"{"identifier": "legacyB"}"#)
        #expect(pushed.status == 200)
        #expect(pushed["session", "controllers", "Nav", "viewControllers"]?.strings == ["A", "B"])
    }

    @Test func unknownSegueIsD18() throws {
        let h = try Harness()
        let sid = try navSession(h)
        let r = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "nope"}"#)
        #expect(r.code == "D18")
        #expect(r.detail.contains("Receiver (<AViewController: A>) has no segue with identifier 'nope'"))
        // Relationship segues are not performable.
        let rel = h.send("POST", "/v1/sessions/\(sid)/controllers/Nav/performSegue", #"{"identifier": "n-nav-root"}"#)
        #expect(rel.code == "D18")
    }

    @Test func unwindToAnImplementerAndToNobody() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        // A (from code) implements unwindToA:, B is presented over the navigation controller.
        let s = h.session(
            root: .object([
                ("id", .string("N")), ("kind", .string("navigationController")),
                (
                    "viewControllers",
                    .array([
                        .object([
                            ("id", .string("A")), ("class", .string("AViewController")),
                            ("unwindActions", .array([.string("unwindToA:")])),
                        ])
                    ])
                ),
            ]))
        let sid = try #require(s.string("id"))
        #expect(h.send("POST", "/v1/sessions/\(sid)/controllers/A/present", #"{"viewController": {"storyboard": "Main", "identifier": "B"}}"#).status == 200)
        let r = h.send("POST", "/v1/sessions/\(sid)/controllers/B/performSegue", #"{"identifier": "back"}"#)
        #expect(r.status == 200)
        #expect(r.string("events", 0, "callback") == "prepareForSegue")
        #expect(r.string("events", 0, "segue", "destination") == "A")
        #expect(r.string("events", 1, "controller") == "A")
        #expect(r.string("events", 1, "action") == "unwindToA:")
        #expect(isAbsent(r["session", "controllers", "N", "presentedViewController"]))

        let nobody = try #require(h.session(root: .object([("id", .string("X"))])).string("id"))
        #expect(h.send("POST", "/v1/sessions/\(nobody)/controllers/X/present", #"{"viewController": {"storyboard": "Main", "identifier": "B"}}"#).status == 200)
        let none = h.send("POST", "/v1/sessions/\(nobody)/controllers/B/performSegue", #"{"identifier": "back"}"#)
        #expect(none.status == 200)
        #expect(none["events"]?.array?.isEmpty == true)
        #expect(none.string("session", "controllers", "X", "presentedViewController") == "B")
    }

    @Test func triggerSegueAsksFirstAndAcceptsTheSegueID() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("shouldPerformSegue", .object([("present", .bool(false))]))]))
        let sid = try #require(s.string("id"))
        let vetoed = h.send("POST", "/v1/sessions/\(sid)/controllers/A/triggerSegue", #"{"segue": "present"}"#)
        #expect(vetoed.status == 200)
        #expect(vetoed["events"]?.array?.count == 1)
        #expect(vetoed.string("events", 0, "callback") == "shouldPerformSegue")
        #expect(vetoed["session", "controllers"]?.object?.count == 1)
        // By element id: the segue's identifier is what shouldPerformSegue sees ("toB" is allowed).
        let byID = h.send("POST", "/v1/sessions/\(sid)/controllers/A/triggerSegue", #"{"segue": "s-show"}"#)
        #expect(byID.status == 200)
        #expect(byID.string("events", 0, "callback") == "shouldPerformSegue")
        #expect(byID.string("events", 0, "segue", "identifier") == "toB")
        #expect(byID.string("events", 1, "callback") == "prepareForSegue")
        #expect(byID.string("session", "controllers", "A", "presentedViewController") == "B")
    }

    @Test func aControllerFromCodeHasNoSegues() throws {
        let h = try Harness()
        let sid = try #require(h.session(root: .object([("id", .string("A")), ("class", .string("AViewController"))])).string("id"))
        let r = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toB"}"#)
        #expect(r.code == "D18")
    }
}

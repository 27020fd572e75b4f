import Foundation
import HTTPServer
import JSONValues
import Testing
import TestSupport

import NavSimService
import SQLiteStore

// MARK: - Fidelity, round two

@Suite struct FidelityRoundTwoTests {
    /// A second instance of a scene is `A~2`, then `A~3` (`~` is unreserved in URLs, so a
    /// GET of `…/controllers/A~2` reaches that instance, not `A`).
    @Test func item7_secondInstanceIsTilde2() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))]))
        let sid = try #require(s.string("id"))
        let a2 = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Main", "identifier": "A"}"#)
        #expect(a2.string("id") == "A~2")
        #expect(h.send("GET", "/v1/sessions/\(sid)/controllers/A~2").string("id") == "A~2")
        #expect(h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Main"}"#).string("id") == "A~3")
    }

    /// `performSegue`/`triggerSegue` take `"destination": {"id": …}` for the new instance;
    /// an id in use is 409 `controller-exists` and changes nothing; naming the destination of an unwind is 422.
    @Test func item7_segueDestinationCanBeNamed() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))]))
        let sid = try #require(s.string("id"))
        let named = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toB", "destination": {"id": "first"}}"#)
        #expect(named.status == 200)
        #expect(named.string("events", 0, "segue", "destination") == "first")
        #expect(named["session", "controllers", "Nav", "viewControllers"]?.strings == ["A", "first"])
        #expect(named.string("session", "controllers", "first", "storyboard", "identifier") == "B")
        let clash = h.send("POST", "/v1/sessions/\(sid)/controllers/A/triggerSegue", #"{"segue": "toB", "destination": {"id": "first"}}"#)
        #expect(clash.status == 409 && clash["type"]?.string == "/v1/problems/controller-exists", "\(clash)")
        #expect(clash.detail.contains("first"))
        // The field the client wrote, not the scene's `id`.
        #expect(clash["field"]?.string == "destination.id", "\(clash)")
        #expect(h.send("GET", "/v1/sessions/\(sid)")["version"] == named["version"])
        let other = h.send("POST", "/v1/sessions/\(sid)/controllers/A/triggerSegue", #"{"segue": "toB", "destination": {"id": "second"}}"#)
        #expect(other["session", "controllers", "Nav", "viewControllers"]?.strings == ["A", "first", "second"])
        let unwind = h.send("POST", "/v1/sessions/\(sid)/controllers/second/performSegue", #"{"identifier": "back", "destination": {"id": "x"}}"#)
        #expect(unwind.status == 422)
        #expect(h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toB", "destination": {"name": "x"}}"#).status == 422)
    }

    /// R99: an unwind that finds no destination still answers 200 and changes nothing,
    /// with navsim's warning naming the action and the controllers that were asked.
    @Test func item10_unwindWithoutDestinationWarns() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let sid = try #require(h.session(root: .object([("id", .string("X"))])).string("id"))
        #expect(h.send("POST", "/v1/sessions/\(sid)/controllers/X/present", #"{"viewController": {"storyboard": "Main", "identifier": "B"}}"#).status == 200)
        let none = h.send("POST", "/v1/sessions/\(sid)/controllers/B/performSegue", #"{"identifier": "back"}"#)
        #expect(none.status == 200)
        #expect(none["events"]?.array?.isEmpty == true)
        #expect(none["warnings"]?.array?.count == 1)
        #expect(none.string("warnings", 0, "type") == "/v1/problems/unwind-destination-not-found")
        #expect(isAbsent(none["warnings", 0, "uikit"]))
        let detail = none.string("warnings", 0, "detail") ?? ""
        #expect(detail.contains("unwindToA:"))
        #expect(detail.contains("<UIViewController: X>"))
        #expect(none.string("session", "controllers", "X", "presentedViewController") == "B")
        // History keeps the warning with the entry.
        let history = h.send("GET", "/v1/sessions/\(sid)/history?after=1")
        #expect(history.string("entries", 0, "warnings", 0, "type") == "/v1/problems/unwind-destination-not-found")
    }
}

extension FidelityRoundTwoTests {
    /// A custom segue declaration made after a session exists applies to what that
    /// session performs from then on, like a re-upload; the history replays what was declared.
    @Test func item5_declarationsReachExistingSessions() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))]))
        let sid = try #require(s.string("id"))
        // Undeclared: the custom segue presents modally.
        let before = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "customB"}"#)
        #expect(before.string("session", "controllers", "A", "presentedViewController") == "B")
        #expect(h.send("POST", "/v1/sessions/\(sid)/controllers/B/dismiss", "{}").status == 200)
        // Declared push after the session exists: the same controller A now pushes.
        #expect(h.send("PUT", "/v1/storyboards/Main/customSegues", #"{"FancySegue": {"performs": "push"}}"#).status == 200)
        let after = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "customB"}"#)
        #expect(after.status == 200)
        #expect(after["session", "controllers", "Nav", "viewControllers"]?.strings == ["A", "B~2"])
        #expect(after.string("transition", "operation") == "push")
        let version = try #require(after["version"]?.number)
        // Declarations cleared: the replay still pushes, as the entry recorded.
        #expect(h.send("PUT", "/v1/storyboards/Main/customSegues", "{}").status == 200)
        let replayed = h.send("GET", "/v1/sessions/\(sid)?version=\(Int(version))")
        #expect(replayed["controllers", "Nav", "viewControllers"]?.strings == ["A", "B~2"])
        // ...and the next perform presents again.
        let cleared = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "customB"}"#)
        #expect(cleared.string("transition", "operation") == "present")
    }
}

extension FidelityRoundTwoTests {
    /// `PUT …/classes` declares what a class's code sets; instances of the class made from
    /// then on start with it (an unwind finds its implementer), older instances keep theirs, a
    /// request's own fields win, and the declarations survive a re-upload and a restart.
    @Test func item9_classDeclarationsReachNewInstances() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        #expect(h.send("PUT", "/v1/storyboards/Main/classes", #"{"AViewController": {"unwindAction": ["x:"]}}"#).status == 422)
        #expect(h.send("PUT", "/v1/storyboards/Main/classes", #"{"AViewController": {"modalPresentationStyle": "sideways"}}"#).status == 422)
        #expect(h.send("PUT", "/v1/storyboards/Nope/classes", "{}").status == 404)
        #expect(h.send("PUT", "/v1/storyboards/Main/classes", body: Array("{}".utf8), contentType: "text/plain").status == 415)
        let old = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("A"))]))
        let oldID = try #require(old.string("id"))

        let declared = h.send(
            "PUT", "/v1/storyboards/Main/classes",
            """
            {"AViewController": {"unwindActions": ["unwindToA:"], "title": "Home"},
             "BViewController": {"modalPresentationStyle": "fullScreen"}}
            """)
        #expect(declared.status == 200)
        #expect(declared["classes", "AViewController", "unwindActions"]?.strings == ["unwindToA:"])
        #expect(declared["diagnostics"] != nil)
        #expect(h.send("GET", "/v1/storyboards/Main")["classes", "BViewController", "modalPresentationStyle"]?.string == "fullScreen")

        // A new instance of A implements the unwind, so B's unwind reaches it.
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("A"))]))
        let sid = try #require(s.string("id"))
        #expect(s["controllers", "A", "unwindActions"]?.strings == ["unwindToA:"])
        #expect(s.string("controllers", "A", "title") == "Home")
        let shown = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toB"}"#)
        #expect(shown.string("session", "controllers", "B", "modalPresentationStyle") == "fullScreen")
        let back = h.send("POST", "/v1/sessions/\(sid)/controllers/B/performSegue", #"{"identifier": "back"}"#)
        #expect(back.status == 200)
        #expect(back.string("events", 1, "controller") == "A")
        #expect(back.string("events", 1, "action") == "unwindToA:")
        #expect(isAbsent(back["warnings"]))
        // The session made before keeps what its A had.
        #expect(h.send("GET", "/v1/sessions/\(oldID)/controllers/A")["unwindActions"]?.strings ?? [] == [])
        // A request's own fields win over the class's.
        let own = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Main", "identifier": "A", "title": "Mine"}"#)
        #expect(own.string("title") == "Mine")
        #expect(own["unwindActions"]?.strings == ["unwindToA:"])

        // A re-upload keeps them; a restart reads them back.
        #expect(h.upload("Main", mainXML).status == 200)
        let again = try h.reopened()
        #expect(again.send("GET", "/v1/storyboards/Main")["classes", "AViewController", "title"]?.string == "Home")
        let after = again.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("A"))]))
        #expect(after.string("controllers", "A", "title") == "Home")
        // `{}` clears them.
        let cleared = again.send("PUT", "/v1/storyboards/Main/classes", "{}")
        #expect(isAbsent(cleared["classes"]))
    }
}

extension FidelityRoundTwoTests {
    /// R1, R32: `POST /v1/sessions` with a root answers the callbacks of
    /// `window.rootViewController = root; makeKeyAndVisible()`, history entry 0 keeps them, and a
    /// session without a root has none.
    @Test func item6_sessionCreationReportsTheRootsCallbacks() throws {
        let h = try Harness()
        let s = h.send(
            "POST", "/v1/sessions",
            """
            {"id": "launch", "options": {"iOS": "17"}, "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"id": "home"}]}}
            """)
        #expect(s.status == 201)
        let events = (s["events"]?.array ?? []).map { "\($0["controller"]?.string ?? "").\($0["callback"]?.string ?? "")" }
        #expect(
            events == [
                "nav.viewDidLoad", "home.viewDidLoad", "nav.viewWillAppear", "nav.viewIsAppearing",
                "home.viewWillAppear", "home.viewIsAppearing", "nav.viewDidAppear", "home.viewDidAppear",
            ], "\(events)")
        let entry0 = h.send("GET", "/v1/sessions/launch/history?after=-1&limit=1")
        #expect(entry0["entries", 0, "version"]?.number == 0)
        #expect(entry0["entries", 0, "events"] == s["events"])
        // The default page still starts at version 1; a replay of version 0 still works.
        #expect(h.send("GET", "/v1/sessions/launch/history")["entries"]?.array?.isEmpty == true)
        #expect(h.send("GET", "/v1/sessions/launch?version=0").string("window", "rootViewController") == "nav")
        // No root: nothing is called.
        let empty = h.send("POST", "/v1/sessions", #"{"id": "empty"}"#)
        #expect(empty["events"]?.array?.isEmpty == true)
    }
}

import Foundation
import HTTPServer
import JSONValues
import Testing
import TestSupport

import NavSimService
import SQLiteStore

// `/v1/storyboards/…` and storyboard-backed ControllerSpecs and segues, driven through
// `NavSimService.handle` in-process (docs/api.md "Storyboards"; R96–R102, D18–D20, D24).

// MARK: - Routes

@Suite struct StoryboardRoutesTests {
    @Test func uploadReplaceListGetDelete() throws {
        let h = try Harness()
        let created = h.upload("Main", mainXML)
        #expect(created.status == 201)
        #expect(created.headers["Location"] == "/v1/storyboards/Main")
        #expect(created.string("name") == "Main")
        #expect(created.string("initialViewController") == "a-vc")
        #expect(created["scenes"]?.array?.count == 3)
        #expect(created.string("scenes", 0, "id") == "a-vc")
        #expect(created.string("scenes", 0, "kind") == "viewController")
        #expect(created.string("scenes", 0, "class") == "AViewController")
        #expect(created.string("scenes", 0, "storyboardIdentifier") == "A")
        #expect(created.string("scenes", 0, "title") == "A")
        let segues = created["scenes", 0, "segues"]?.array ?? []
        // Document order: the button in the view comes before the controller's own connections.
        #expect(segues.map { $0["identifier"]?.string } == ["present", "toB", "legacyB", "customB"])
        #expect(segues.map { $0["kind"]?.string } == ["presentation", "show", "push", "custom"])
        #expect(segues.first?["destination"]?.string == "b-vc")
        #expect(segues.first?["modalPresentationStyle"]?.string == "overFullScreen")
        #expect(segues.last?["customClass"]?.string == "FancySegue")
        #expect(created.string("scenes", 2, "kind") == "navigationController")
        #expect(created.string("scenes", 2, "segues", 0, "relationship") == "rootViewController")
        // The undeclared custom segue class is announced.
        let diagnostics = created["diagnostics"]?.array ?? []
        #expect(
            diagnostics.contains {
                $0["code"]?.string == "undeclared-custom-segue" && $0["element"]?.string == "s-custom"
                    && $0["severity"]?.string == "warning"
            })

        let replaced = h.upload("Main", mainXML, contentType: "text/xml; charset=utf-8")
        #expect(replaced.status == 200)
        #expect(replaced.headers["Location"] == nil)

        #expect(h.upload("Other", SB.document(SB.controller("x-vc", storyboardID: "X"))).status == 201)
        let list = h.send("GET", "/v1/storyboards")
        #expect(list.status == 200)
        #expect(list["storyboards"]?.array?.compactMap { $0["name"]?.string } == ["Main", "Other"])
        #expect(list["storyboards", 0, "scenes"]?.number == 3)
        #expect(list["storyboards", 0, "diagnostics"]?.number == Double(diagnostics.count))
        #expect(list["storyboards", 1, "initialViewController"] == .null)

        let got = h.send("GET", "/v1/storyboards/Main")
        #expect(got.status == 200)
        #expect(got.json == replaced.json)

        #expect(h.send("DELETE", "/v1/storyboards/Other").status == 204)
        let gone = h.send("GET", "/v1/storyboards/Other")
        #expect(gone.status == 404)
        #expect(gone.slug == "unknown-storyboard")
        #expect(gone.headers["Content-Type"] == "application/problem+json")
        #expect(h.send("DELETE", "/v1/storyboards/Other").status == 404)
        #expect(h.send("GET", "/v1/storyboards")["storyboards"]?.array?.count == 1)

        // Names are file names: spaces are fine (the request path arrives percent-decoded).
        let spaced = h.upload("Known Types", SB.document(SB.controller("k")))
        #expect(spaced.status == 201)
        #expect(spaced.headers["Location"] == "/v1/storyboards/Known%20Types")
        #expect(h.send("GET", "/v1/storyboards/Known Types").string("name") == "Known Types")
    }

    @Test func refusedUploads() throws {
        let h = try Harness()
        let wrongType = h.upload("Main", mainXML, contentType: "application/json")
        #expect(wrongType.status == 415)
        #expect(wrongType.slug == "unsupported-media-type")
        #expect(h.send("PUT", "/v1/storyboards/Main", body: Array(mainXML.utf8)).status == 415)

        let malformed = h.upload("Main", String(mainXML.dropLast(40)))
        #expect(malformed.status == 400)
        #expect(malformed.slug == "invalid-body")
        #expect(malformed.detail.contains("line"))
        #expect(malformed.detail.contains("column"))
        #expect(h.upload("Main", "").status == 400)

        let mac = h.upload("Main", SB.document(type: "com.apple.InterfaceBuilder3.Cocoa.Storyboard.XIB", SB.controller("a")))
        #expect(mac.status == 422)
        #expect(mac.slug == "unsupported-document-type")
        #expect(h.upload("Main", "<?xml version=\"1.0\"?><plist/>").slug == "unsupported-document-type")

        // Nothing of the refused uploads was kept.
        #expect(h.send("GET", "/v1/storyboards/Main").status == 404)
        #expect(h.send("GET", "/v1/storyboards")["storyboards"]?.array?.isEmpty == true)
    }

    @Test func methodsAndPaths() throws {
        let h = try Harness()
        let post = h.send("POST", "/v1/storyboards", "{}")
        #expect(post.status == 405)
        #expect(post.headers["Allow"] == "GET, HEAD")
        let patch = h.send("PATCH", "/v1/storyboards/Main", "{}")
        #expect(patch.status == 405)
        #expect(patch.headers["Allow"] == "GET, HEAD, PUT, DELETE")
        let getCustom = h.send("GET", "/v1/storyboards/Main/customSegues")
        #expect(getCustom.status == 405)
        #expect(getCustom.headers["Allow"] == "PUT")
        #expect(h.send("GET", "/v1/storyboards/Main/other").status == 404)
        #expect(h.send("PUT", "/v1/storyboards/Main/customSegues", "{}").slug == "unknown-storyboard")
    }

    @Test func customSegueDeclarations() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let unknownField = h.send("PUT", "/v1/storyboards/Main/customSegues", #"{"FancySegue": {"performs": "push", "speed": 2}}"#)
        #expect(unknownField.status == 422)
        #expect(unknownField.json["field"]?.string == "FancySegue.speed")
        #expect(h.send("PUT", "/v1/storyboards/Main/customSegues", #"{"FancySegue": {"performs": "teleport"}}"#).status == 422)
        #expect(h.send("PUT", "/v1/storyboards/Main/customSegues", #"{"FancySegue": {}}"#).status == 422)
        #expect(h.send("PUT", "/v1/storyboards/Main/customSegues", #"{"FancySegue": {"performs": "push"}"#).status == 400)
        #expect(h.send("PUT", "/v1/storyboards/Main/customSegues", body: Array("{}".utf8), contentType: "text/plain").status == 415)

        let declared = h.send(
            "PUT", "/v1/storyboards/Main/customSegues",
            """
            {"FancySegue": {"performs": "present", "modalPresentationStyle": "overFullScreen",
             "transitioningDelegate": {"name": "FadeAnimator", "duration": 0.5}}}
            """)
        #expect(declared.status == 200)
        #expect(declared.string("name") == "Main")
        #expect(declared["diagnostics"]?.array?.contains { $0["code"]?.string == "undeclared-custom-segue" } == false)
        #expect(declared.string("customSegues", "FancySegue", "performs") == "present")

        // The declaration drives the segue: present with the declared style and animator.
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("A"))]))
        let sid = try #require(s.string("id"))
        let r = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "customB"}"#)
        #expect(r.status == 200)
        #expect(r.string("session", "controllers", "A", "presentedViewController") == "B")
        #expect(r.string("session", "controllers", "B", "modalPresentationStyle") == "overFullScreen")
        #expect(r.string("transition", "animator") == "FadeAnimator")

        // Declaring push instead: the same segue pushes inside a navigation controller.
        #expect(h.send("PUT", "/v1/storyboards/Main/customSegues", #"{"FancySegue": {"performs": "push"}}"#).status == 200)
        let n = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))]))
        let nid = try #require(n.string("id"))
        let pushed = h.send("POST", "/v1/sessions/\(nid)/controllers/A/performSegue", #"{"identifier": "customB"}"#)
        #expect(pushed.status == 200)
        #expect(pushed["session", "controllers", "Nav", "viewControllers"]?.strings == ["A", "B"])

        // An empty declaration set brings the warning back.
        let cleared = h.send("PUT", "/v1/storyboards/Main/customSegues", "{}")
        #expect(cleared["diagnostics"]?.array?.contains { $0["code"]?.string == "undeclared-custom-segue" } == true)
    }

    @Test func unresolvedReferenceClearsOnceTheTargetIsUploaded() throws {
        let h = try Harness()
        let main = SB.document(initial: "n-nav", SB.navigation("n-nav", root: "ref"), SB.placeholder("ref", storyboardName: "Second"))
        let first = h.upload("Main", main)
        #expect(first["diagnostics"]?.array?.contains { $0["code"]?.string == "unresolved-reference" && $0["element"]?.string == "ref" } == true)
        // Until Second exists, instantiating Main is D20 (UIKit cannot find the storyboard).
        let early = h.session(root: .object([("storyboard", .string("Main"))]))
        #expect(early.status == 409)
        #expect(early.code == "D20")
        #expect(early.detail.contains("Could not find a storyboard named 'Second'"))

        #expect(h.upload("Second", SB.document(initial: "s-vc", SB.controller("s-vc", customClass: "SecondViewController"))).status == 201)
        let later = h.send("GET", "/v1/storyboards/Main")
        #expect(later["diagnostics"]?.array?.contains { $0["code"]?.string == "unresolved-reference" } == false)
        // The reference scene reports what it resolves to.
        #expect(later.string("scenes", 1, "kind") == "viewController")
        #expect(later.string("scenes", 1, "class") == "SecondViewController")
        #expect(later.string("scenes", 1, "storyboardReference", "storyboardName") == "Second")

        let s = h.session(root: .object([("storyboard", .string("Main"))]))
        #expect(s.status == 201)
        #expect(s["controllers", "n-nav", "viewControllers"]?.strings == ["s-vc"])
        #expect(s.string("controllers", "s-vc", "storyboard", "name") == "Second")
        #expect(s.string("controllers", "s-vc", "class") == "SecondViewController")

        // Deleting the target brings the warning back (computed on read).
        #expect(h.send("DELETE", "/v1/storyboards/Second").status == 204)
        #expect(h.send("GET", "/v1/storyboards")["storyboards", 0, "diagnostics"]?.number == 1)
    }

    @Test func storyboardsSurviveARestart() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        #expect(h.send("PUT", "/v1/storyboards/Main/customSegues", #"{"FancySegue": {"performs": "none"}}"#).status == 200)
        #expect(h.upload("Gone", SB.document(SB.controller("g"))).status == 201)
        #expect(h.send("DELETE", "/v1/storyboards/Gone").status == 204)
        let before = h.send("GET", "/v1/storyboards/Main")

        let restarted = try h.reopened()
        let after = restarted.send("GET", "/v1/storyboards/Main")
        #expect(after.status == 200)
        #expect(after.json == before.json)
        #expect(restarted.send("GET", "/v1/storyboards/Gone").status == 404)
        let s = restarted.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("A"))]))
        let sid = try #require(s.string("id"))
        // The declared "none" survives too: the custom segue prepares and does nothing else.
        let r = restarted.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "customB"}"#)
        #expect(r.status == 200)
        #expect(r.string("events", 0, "callback") == "prepareForSegue")
        #expect(isAbsent(r["session", "controllers", "A", "presentedViewController"]))

        // Replacing the XML keeps the declarations.
        #expect(restarted.upload("Main", mainXML).status == 200)
        #expect(restarted.send("GET", "/v1/storyboards/Main").string("customSegues", "FancySegue", "performs") == "none")
    }
}

// MARK: - Segue classes on every kind; performSegue takes identifiers only

/// A navigation controller "Nav" whose root A has a show segue "toTabs" of class
/// `TabStoryboardSegue` to another navigation controller ("Other", root B), and an unnamed show
/// segue `s-unnamed` to B.
private let classedShowXML = SB.document(
    initial: "n-nav",
    SB.navigation("n-nav", root: "a-vc", storyboardID: "Nav"),
    SB.controller(
        "a-vc", storyboardID: "A", title: "A",
        manual: [
            SB.segue(
                "s-tabs", to: "m-nav", kind: "show", identifier: "toTabs",
                attributes: "customClass=\"TabStoryboardSegue\" customModule=\"App\""),
            SB.segue("s-unnamed", to: "b-vc", kind: "show"),
        ]),
    SB.navigation("m-nav", root: "b-vc", storyboardID: "Other"),
    SB.controller("b-vc", storyboardID: "B", title: "B"))

extension StoryboardRoutesTests {
    @Test func aDeclaredClassWinsOnAShowSegue() throws {
        let h = try Harness()
        let uploaded = h.upload("Main", classedShowXML)
        #expect(uploaded.status == 201)
        // Undeclared, the class is reported and the segue does what a show does: a push of a
        // navigation controller, UIKit's D12.
        let warning = uploaded["diagnostics"]?.array?.first { $0["code"]?.string == "undeclared-custom-segue" }
        #expect(warning?["element"]?.string == "s-tabs")
        #expect(warning?["message"]?.string?.contains("it will do what a 'show' segue does") == true)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))]))
        let sid = try #require(s.string("id"))
        let pushed = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toTabs"}"#)
        #expect(pushed.status == 409)
        #expect(pushed.code == "D12")

        // Declared to present: the class's perform() runs, whatever the segue's kind.
        let declared = h.send(
            "PUT", "/v1/storyboards/Main/customSegues",
            #"{"TabStoryboardSegue": {"performs": "present", "modalPresentationStyle": "fullScreen"}}"#)
        #expect(declared.status == 200)
        #expect(declared["diagnostics"]?.array?.contains { $0["code"]?.string == "undeclared-custom-segue" } == false)
        let presented = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toTabs"}"#)
        #expect(presented.status == 200)
        #expect(presented.string("session", "controllers", "Nav", "presentedViewController") == "Other")
        #expect(presented.string("session", "controllers", "Other", "modalPresentationStyle") == "fullScreen")
        #expect(presented["session", "controllers", "Nav", "viewControllers"]?.strings == ["A"])
    }

    @Test func performSegueTakesIdentifiersOnlyTriggerSegueTakesElementIDs() throws {
        let h = try Harness()
        #expect(h.upload("Main", classedShowXML).status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))]))
        let sid = try #require(s.string("id"))
        let refused = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "s-unnamed"}"#)
        #expect(refused.status == 409)
        #expect(refused.code == "D18")
        #expect(refused.detail.contains("has no segue with identifier 's-unnamed'"))
        #expect(h.send("GET", "/v1/sessions/\(sid)")["version"] == s["version"])
        let tapped = h.send("POST", "/v1/sessions/\(sid)/controllers/A/triggerSegue", #"{"segue": "s-unnamed"}"#)
        #expect(tapped.status == 200)
        #expect(tapped["session", "controllers", "Nav", "viewControllers"]?.strings == ["A", "B"])
    }
}

// MARK: - Errors a new user meets

extension StoryboardRoutesTests {
    @Test func aBinaryUploadSaysItIsNotXML() throws {
        let h = try Harness()
        // A PNG's signature and header: what an app's asset uploaded by mistake starts with.
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52]
        let r = h.upload("Picture", data: png)
        #expect(r.status == 400)
        #expect(r.slug == "invalid-body")
        #expect(r.detail.contains("binary data, not XML"), "\(r.detail)")
        #expect(!r.detail.contains("empty"))
        let text = h.upload("Text", data: Array("just some notes\n".utf8))
        #expect(text.status == 400)
        #expect(text.detail.contains("does not start with markup"), "\(text.detail)")
        #expect(h.send("GET", "/v1/storyboards/Picture").status == 404)
    }

    @Test func conflictsHaveTitlesOfTheirOwnAndAWrongReceiverIsNoBodyField() throws {
        let h = try Harness()
        let xml = SB.document(
            initial: "t-tab",
            SB.container(
                "t-tab", element: "tabBarController", storyboardID: "Tabs",
                relationships: [SB.relationship("t-rel", to: "a-vc", "viewControllers")]),
            SB.controller("a-vc", storyboardID: "A", manual: [SB.segue("s-lost", to: "nowhere", kind: "show", identifier: "lost")]))
        #expect(h.upload("Main", xml).status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Tabs"))]))
        let sid = try #require(s.string("id"))

        let lost = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "lost"}"#)
        #expect(lost.status == 409)
        #expect(lost.slug == "unknown-destination")
        #expect(lost.string("title") == "The destination scene does not exist")
        let taken = h.send("POST", "/v1/sessions", json: .object([("id", .string(sid))]))
        #expect(taken.status == 409)
        #expect(taken.string("title") == "A session with that id exists")

        let push = h.send("POST", "/v1/sessions/\(sid)/controllers/Tabs/push", #"{"viewController": {"id": "X"}}"#)
        #expect(push.status == 422)
        #expect(push.slug == "invalid-receiver")
        #expect(push.string("title") == "The receiver does not take this operation")
        #expect(isAbsent(push["field"]))
        #expect(push.detail.contains("is not a navigation controller and has no navigationController"))
        #expect(h.send("GET", "/v1/sessions/\(sid)")["version"] == s["version"])
    }
}

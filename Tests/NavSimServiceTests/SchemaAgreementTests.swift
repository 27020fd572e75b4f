import Foundation
import JSONValues
import Testing

import NavSimService
import Storyboards
import HTTPServer

/// What openapi.yaml states where schemathesis found it and the server disagreeing (spec drift,
/// ST201/ST202): the server's answers, which the schema now describes.
@Suite struct SchemaAgreementTests {
    /// `"root": null` is UIKit's nil, as leaving `root` out: a window without a root (the schema's
    /// `root` is a ControllerSpec or null).
    @Test func aNullRootMakesAWindowWithoutOne() throws {
        let h = try ServiceHarness()
        let created = h.send("POST", "/v1/sessions", #"{"id": "s", "root": null}"#)
        #expect(created.status == 201, "\(created)")
        #expect(created["window"]?["rootViewController"]?.isNull == true, "\(created)")
        #expect(created["controllers"]?.object?.isEmpty == true, "\(created)")
        // Options left null take their defaults, as left out.
        let defaults = h.send("POST", "/v1/sessions", #"{"id": "u", "options": {"iOS": null, "transitions": null, "navTransitionPolicy": null, "release": null}}"#)
        #expect(defaults.status == 201, "\(defaults)")
        #expect(defaults["options"] == h.send("POST", "/v1/sessions", #"{"id": "v"}"#)["options"], "\(defaults)")
        // So does every other member of the body: a fresh id, the default traits and options.
        let nulls = h.send("POST", "/v1/sessions", #"{"id": null, "traits": null, "options": null, "root": null}"#)
        #expect(nulls.status == 201 && nulls["id"]?.string?.count == 36, "\(nulls)")
        #expect(nulls["traits"] == defaults["traits"] && nulls["options"] == defaults["options"], "\(nulls)")
        // A null size class is left out too: a pad's width is then regular.
        let pad = h.send("POST", "/v1/sessions", #"{"traits": {"userInterfaceIdiom": "pad", "horizontalSizeClass": null, "verticalSizeClass": null}}"#)
        #expect(pad["traits"] == h.send("POST", "/v1/sessions", #"{"traits": {"userInterfaceIdiom": "pad"}}"#)["traits"], "\(pad)")
        #expect(pad["traits"]?["horizontalSizeClass"]?.string == "regular", "\(pad)")
        // A spec's identifier goes with a storyboard (dependentRequired).
        #expect(h.send("POST", "/v1/sessions", #"{"root": {"identifier": "Detail"}}"#).status == 422)
        // Still not an id: the session has no controllers to name.
        #expect(h.send("POST", "/v1/sessions", #"{"id": "t", "root": "nav"}"#).status == 422)
    }

    /// A container's fields on a spec of another kind are refused, naming the field, and create
    /// nothing (ST201: `{"viewControllers": ["", "", ""]}` on a plain root was accepted and ignored).
    @Test func containerFieldsBelongToTheirKinds() throws {
        let h = try ServiceHarness()
        let refused: [(body: String, field: String)] = [
            (#"{"id": "a", "root": {"viewControllers": ["", "", ""], "prefersStatusBarHidden": true}}"#, "root.viewControllers"),
            (#"{"id": "a", "root": {"kind": "tableViewController", "viewControllers": [{"id": "x"}]}}"#, "root.viewControllers"),
            (#"{"id": "a", "root": {"kind": "navigationController", "selectedIndex": 0}}"#, "root.selectedIndex"),
            (#"{"id": "a", "root": {"kind": "tabBarController", "viewControllers": [{"style": "doubleColumn"}]}}"#, "root.viewControllers[0].style"),
            (#"{"id": "a", "root": {"kind": "navigationController", "viewControllers": [{"primary": {"id": "p"}}]}}"#, "root.viewControllers[0].primary"),
            (#"{"id": "a", "root": {"kind": "splitViewController", "spineLocation": "mid"}}"#, "root.spineLocation"),
            (#"{"id": "a", "root": {"preferredStyle": "alert"}}"#, "root.preferredStyle"),
        ]
        for (body, field) in refused {
            let r = h.send("POST", "/v1/sessions", body)
            #expect(r.status == 422 && r.slug == "invalid-body" && r["field"]?.string == field, "\(body): \(r)")
        }
        let message = h.send("POST", "/v1/sessions", refused[0].body)["detail"]?.string
        #expect(
            message
                == "root.viewControllers is a property of UINavigationController, UITabBarController, UIPageViewController and UISplitViewController; a UIViewController has none.")
        #expect(h.send("GET", "/v1/sessions/a").status == 404)
        // Null is left out; the kinds that have the property take it.
        #expect(h.send("POST", "/v1/sessions", #"{"id": "b", "root": {"viewControllers": null, "selectedIndex": null}}"#).status == 201)
        let tabs = h.send(
            "POST", "/v1/sessions", #"{"id": "c", "root": {"kind": "tabBarController", "id": "t", "viewControllers": [{"id": "x"}, {"id": "y"}], "selectedIndex": 1}}"#)
        #expect(tabs.status == 201 && tabs["controllers"]?["t"]?["selectedViewController"]?.string == "y", "\(tabs)")
        // The same check on every operation that takes a spec.
        h.makeSession("s")
        let push = h.send("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p", "isDoubleSided": true}}"#)
        #expect(push.status == 422 && push["field"]?.string == "viewController.isDoubleSided", "\(push)")
        #expect(h.send("GET", "/v1/sessions/s")["version"]?.number == 0)
    }

    /// An id in a new root's spec that names no controller is 404 `unknown-controller`, as an id
    /// in any body (openapi.yaml documents 404 for `createSession`; ST103 found it undocumented),
    /// and no session is made.
    @Test func anUnknownIdInTheRootSpecIs404() throws {
        let h = try ServiceHarness()
        let bodies = [
            #"{"id": "a", "root": {"kind": "navigationController", "viewControllers": ["x"]}}"#,
            #"{"id": "a", "root": {"on": {"viewWillAppear": [{"operation": "present", "receiver": "x", "viewController": {"id": "p"}}]}}}"#,
        ]
        for body in bodies {
            let r = h.send("POST", "/v1/sessions", body)
            #expect(r.status == 404 && r.slug == "unknown-controller" && r["detail"]?.string == "No controller with id 'x' in this session.", "\(body): \(r)")
        }
        #expect(h.send("GET", "/v1/sessions/a").status == 404)
        #expect(h.send("GET", "/v1/sessions")["sessions"]?.array?.isEmpty == true)
    }

    /// `If-Match` and `If-None-Match` as their patterns state them: `*` or entity tags separated
    /// by commas with spaces or tabs; anything else is 400 `invalid-header`, a well-formed tag of
    /// another version 412 (If-Match) or a full reply (If-None-Match).
    @Test func conditionalHeadersAreTheirPatterns() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        let push = #"{"viewController": {"id": "p"}}"#
        for bad in ["0", "P", "\"1", "W/", ""] {
            let r = h.send("POST", "/v1/sessions/s/controllers/nav/push", push, headers: [("If-Match", bad)])
            #expect(r.status == 400 && r.slug == "invalid-header", "If-Match \(bad): \(r)")
            let g = h.send("GET", "/v1/sessions/s", headers: [("If-None-Match", bad)])
            #expect(g.status == 400 && g.slug == "invalid-header", "If-None-Match \(bad): \(g)")
            // A replay's answer has no tag, yet the field is evaluated, and checked, as on any GET (ST201).
            let replay = h.send("GET", "/v1/sessions/s?version=0&replay=true", headers: [("If-None-Match", bad)])
            #expect(replay.status == 400 && replay.slug == "invalid-header", "replay, If-None-Match \(bad): \(replay)")
        }
        // No tag to match: a list gives the replay, `*` (the resource has a representation) 304 without a tag.
        #expect(h.send("GET", "/v1/sessions/s?version=0&replay=true", headers: [("If-None-Match", "\"0\"")]).status == 200)
        let any = h.send("GET", "/v1/sessions/s?version=0&replay=true", headers: [("If-None-Match", "*")])
        #expect(any.status == 304 && any.headers["etag"] == nil && any.body.isEmpty, "\(any)")
        let other = h.send("POST", "/v1/sessions/s/controllers/nav/push", push, headers: [("If-Match", "\"5\"\t, \"823\" ,\t\"7\"")])
        #expect(other.status == 412 && other.slug == "version-mismatch", "\(other)")
        #expect(h.send("GET", "/v1/sessions/s", headers: [("If-None-Match", "W/\"a!b\", \"9\"")]).status == 200)
        #expect(h.send("GET", "/v1/sessions/s", headers: [("If-None-Match", "W/\"0\"")]).status == 304)
        #expect(h.send("POST", "/v1/sessions/s/controllers/nav/push", push, headers: [("If-Match", " \"0\" ")]).status == 200)
    }

    /// Class names in `PUT …/classes` and `PUT …/customSegues` are not empty (`propertyNames:
    /// minLength 1`), and an operation in a class's `on` code is one of the operations.
    @Test func declarationsNameClassesAndOperations() throws {
        let h = try ServiceHarness()
        let xml =
            #"<?xml version="1.0" encoding="UTF-8"?><document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" initialViewController="a"><scenes><scene sceneID="s"><objects><viewController id="a" sceneMemberID="viewController"/></objects></scene></scenes></document>"#
        #expect(h.send("PUT", "/v1/storyboards/Main", xml, contentType: "application/xml").status == 201)
        let segues = h.send("PUT", "/v1/storyboards/Main/customSegues", #"{"": {"performs": "none"}}"#)
        #expect(segues.status == 422 && segues.slug == "invalid-body", "\(segues)")
        let classes = h.send("PUT", "/v1/storyboards/Main/classes", #"{"": {"title": "A"}}"#)
        #expect(classes.status == 422 && classes.slug == "invalid-body", "\(classes)")
        let code = h.send("PUT", "/v1/storyboards/Main/classes", #"{"A": {"on": {"viewDidLoad": [{"operation": ""}]}}}"#)
        #expect(code.status == 422 && code.json["allowed"]?.array?.contains(.string("present")) == true, "\(code)")
        #expect(h.send("PUT", "/v1/storyboards/Main/classes", #"{"A": {"on": {"viewDidLoad": [{"operation": "dismiss"}]}}}"#).status == 200)
        // A refactor's new name has no `/` (its pattern).
        let slash = h.send("POST", "/v1/storyboards/Main/refactor", #"{"scenes": ["a"], "into": "a/b"}"#)
        #expect(slash.status == 422 && slash.slug == "invalid-body", "\(slash)")
    }

    /// What the schema states where schemathesis' valid requests were refused (ST202): the
    /// storyboard root `<document type=iOS>` (any other root 422), sizes not negative, integers
    /// below 1e9, and a call in lifecycle code or a turn takes its operation's fields only.
    @Test func refusalsTheSchemaStates() throws {
        let h = try ServiceHarness()
        let spec = String(decoding: try #require(FileManager.default.contents(atPath: ServiceFiles.openAPI)), as: UTF8.self)
        #expect(spec.contains("const: \(StoryboardParser.iOSDocumentType)"), "the upload schema names the parser's document type")
        let bare = h.send("PUT", "/v1/storyboards/Bare", #"<document type="\#(StoryboardParser.iOSDocumentType)"/>"#, contentType: "application/xml")
        #expect(bare.status == 201, "\(bare)")
        let data = h.send("PUT", "/v1/storyboards/Data", "<data>0</data>", contentType: "application/xml")
        #expect(data.status == 422 && data.slug == "unsupported-document-type", "\(data)")

        h.makeSession("s")
        let negative = h.send("POST", "/v1/sessions/s/controllers", #"{"id": "a", "preferredContentSize": [1, -0.5]}"#)
        #expect(negative.status == 422 && negative.json["field"]?.string == "preferredContentSize", "\(negative)")
        #expect(h.send("POST", "/v1/sessions/s/controllers", #"{"id": "b", "preferredContentSize": [0, 0]}"#).status == 201)
        let big = h.send("POST", "/v1/sessions/s/controllers", #"{"id": "c", "kind": "tabBarController", "selectedIndex": 1000000000}"#)
        #expect(big.status == 422 && big.json["field"]?.string == "selectedIndex", "\(big)")

        // pop takes no viewController, in lifecycle code as in its own route; addSubview needs one in a turn.
        let code = h.send("PATCH", "/v1/sessions/s/controllers/home", #"{"on": {"viewDidAppear": [{"operation": "pop", "viewController": null}]}}"#)
        #expect(code.status == 422 && code.json["field"]?.string == "on.viewDidAppear[0].viewController", "\(code)")
        let turn = h.send("POST", "/v1/sessions/s/turns", #"{"operations": [{"controller": "nav", "operation": "addSubview"}]}"#)
        #expect(turn.status == 422 && turn.json["field"]?.string?.hasSuffix("viewController") == true, "\(turn)")
        // A taken controller id conflicts with the session's state: 409, as a taken session id, and nothing changes.
        let before = h.send("GET", "/v1/sessions/s")["version"]
        let taken = h.send("POST", "/v1/sessions/s/controllers", #"{"id": "home"}"#)
        #expect(taken.status == 409 && taken.slug == "controller-exists" && taken.json["field"]?.string == "id", "\(taken)")
        let nested = h.send("POST", "/v1/sessions/s/controllers", #"{"id": "d", "kind": "navigationController", "viewControllers": [{"id": "nav"}]}"#)
        #expect(nested.status == 409 && nested.slug == "controller-exists", "\(nested)")
        #expect(h.send("GET", "/v1/sessions/s")["version"] == before)
        #expect(h.send("GET", "/v1/sessions/s/controllers/d").status == 404)
        // UIKit's exception ends the whole turn: 409, a status the turn route documents (ST103).
        let missing = h.send("POST", "/v1/sessions/s/turns", #"{"operations": [{"controller": "nav", "operation": "push", "viewController": {"storyboard": "Nope"}}]}"#)
        #expect(missing.status == 409 && missing.slug == "unknown-storyboard", "\(missing)")
    }
}

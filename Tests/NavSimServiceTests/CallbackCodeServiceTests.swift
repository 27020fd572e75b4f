import Foundation
import JSONValues
import Testing
import NavSimService
import NavigationCore

/// Lifecycle code at the HTTP face: `on` is decoded with the one operation table, a bad nested
/// operation is a 422 pointing into it, the code runs, and storage keeps it across a restart.
@Suite("lifecycle code over HTTP")
struct CallbackCodeServiceTests {
    @Test func item8_decodesRunsAndSurvivesARestart() throws {
        let h = try ServiceHarness()
        let created = h.send(
            "POST", "/v1/sessions",
            #"""
            {"id": "s", "root": {"id": "home", "on": {"viewDidAppear": [
              {"operation": "present", "viewController": {"id": "login"}, "modalPresentationStyle": "fullScreen",
               "animated": false, "once": true}]}}}
            """#)
        #expect(created.status == 201, "\(created)")
        #expect(created["controllers"]?["login"]?["presentingViewController"]?.string == "home", "\(created)")
        // once: the call is gone from the controller's code after it ran.
        #expect(created["controllers"]?["home"]?["on"] == nil, "\(created)")
        let patched = h.send(
            "PATCH", "/v1/sessions/s/controllers/login",
            #"{"on": {"viewWillDisappear": [{"operation": "dismiss", "receiver": "home", "animated": false}]}}"#)
        #expect(patched.status == 200, "\(patched)")
        let reply = h.send("GET", "/v1/sessions/s/controllers/login")
        let on = reply["on"]?["viewWillDisappear"]?.array?.first
        #expect(on?["operation"]?.string == "dismiss" && on?["receiver"]?.string == "home", "\(reply)")
        try h.restart()
        let again = h.send("GET", "/v1/sessions/s/controllers/login")
        #expect(again["on"]?["viewWillDisappear"]?.array?.count == 1, "\(again)")
    }

    /// A root whose `viewDidLoad` presents is refused with D7 by UIKit's log,
    /// and the creation says so: the 201 reply and history entry 0 (also after a restart) carry
    /// the warning that the same code gives through `PUT …/rootViewController`.
    @Test func creationRepliesAndRecordsTheRootsWarnings() throws {
        let h = try ServiceHarness()
        let code = #"{"id": "home", "on": {"viewDidLoad": [{"operation": "present", "viewController": {"id": "x"}}]}}"#
        let created = h.send("POST", "/v1/sessions", #"{"id": "s", "root": \#(code)}"#)
        #expect(created.status == 201, "\(created)")
        #expect(created["warnings"]?.array?.map { $0["type"]?.string } == ["/v1/problems/not-in-window-hierarchy"], "\(created)")
        #expect(created["warnings"]?.array?.first?["uikit"]?["code"]?.string == "D7", "\(created)")
        #expect(created["controllers"]?["x"] == nil, "UIKit presents nothing: \(created)")
        let viaPut = h.send("PUT", "/v1/sessions/s/rootViewController", #"{"viewController": \#(code.replacingOccurrences(of: "home", with: "home2"))}"#)
        #expect(viaPut["warnings"]?.array?.first?["type"] == created["warnings"]?.array?.first?["type"], "\(viaPut)")
        for restarted in [false, true] {
            if restarted { try h.restart() }
            let entry0 = h.send("GET", "/v1/sessions/s/history?after=-1&limit=1")["entries"]?.array?.first
            #expect(entry0?["warnings"]?.array?.first?["uikit"]?["code"]?.string == "D7", "restarted \(restarted): \(String(describing: entry0))")
        }
        // A creation whose code warns of nothing has no `warnings` member, as any reply.
        let quiet = h.send("POST", "/v1/sessions", #"{"id": "q", "root": {"id": "a"}}"#)
        #expect(quiet.status == 201 && quiet["warnings"] == nil, "\(quiet)")
    }

    @Test func item8_badNestedOperationPointsAtTheNestedField() throws {
        let h = try ServiceHarness()
        #expect(h.send("POST", "/v1/sessions", #"{"id": "s", "root": {"id": "a"}}"#).status == 201)
        let unknown = h.send("PATCH", "/v1/sessions/s/controllers/a", #"{"on": {"viewDidAppear": [{"operation": "presnt"}]}}"#)
        #expect(unknown.status == 422 && unknown["field"]?.string == "on.viewDidAppear[0].operation", "\(unknown)")
        let field = h.send(
            "PATCH", "/v1/sessions/s/controllers/a",
            #"{"on": {"viewDidAppear": [{"operation": "present", "viewController": {"kind": "nope"}}]}}"#)
        #expect(field.status == 422, "\(field)")
        #expect(field["field"]?.string?.hasPrefix("on.viewDidAppear[0].") == true, "\(field)")
        let method = h.send("PATCH", "/v1/sessions/s/controllers/a", #"{"on": {"loadView": []}}"#)
        #expect(method.status == 422 && method["field"]?.string == "on.loadView", "\(method)")
        #expect(h.send("GET", "/v1/sessions/s/controllers/a")["on"] == nil, "a refused patch changes nothing")
    }

    /// A UIKit exception inside lifecycle code fails the whole request: 409 and no new version.
    @Test func item8_exceptionInsideCodeFailsTheRequest() throws {
        let h = try ServiceHarness()
        #expect(h.send("POST", "/v1/sessions", #"{"id": "s", "root": {"id": "a"}}"#).status == 201)
        let r = h.send(
            "POST", "/v1/sessions/s/controllers/a/present",
            #"""
            {"viewController": {"id": "b", "on": {"viewDidAppear": [{"operation": "present", "viewController": "a"}]}},
             "modalPresentationStyle": "fullScreen", "animated": false}
            """#)
        #expect(r.status == 409, "\(r)")
        #expect(h.send("GET", "/v1/sessions/s")["controllers"]?["b"] == nil)
    }
}

import Foundation
import JSONValues
import Testing
import NavSimService
import TestSupport

/// Alert actions and `tapAlertAction` through the service handler: the field is read and replied
/// through the configuration table, a tap dismisses the alert and runs the handler in the same
/// reply, the refusals are UIKit's (D25, D26) or a 422 naming the field, and storage keeps the
/// actions across a restart (R103, R104).
@Suite("alert actions over HTTP (R103, R104)")
struct AlertActionServiceTests {
    static let alert = #"""
        {"viewController": {"id": "confirm", "kind": "alertController", "preferredStyle": "actionSheet", "actions": [
          {"title": "Keep"},
          {"title": "Delete", "style": "destructive", "handler": [
            {"operation": "present", "viewController": {"id": "undo"}, "modalPresentationStyle": "fullScreen", "animated": false}]},
          {"title": "Cancel", "style": "cancel"}]}, "animated": false}
        """#

    func session() throws -> ServiceHarness {
        let h = try ServiceHarness()
        let created = h.send(
            "POST", "/v1/sessions",
            #"{"id": "s", "options": {"iOS": "17"}, "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"id": "home"}]}}"#)
        #expect(created.status == 201, "\(created)")
        let presented = h.send("POST", "/v1/sessions/s/controllers/home/present", Self.alert)
        #expect(presented.status == 200, "\(presented)")
        return h
    }

    @Test("R103: a tap dismisses the action sheet, then its handler presents from home in the same reply")
    func tapRunsTheHandlerAfterTheDismissal() throws {
        let h = try session()
        let actions = h.send("GET", "/v1/sessions/s/controllers/confirm")["actions"]?.array
        #expect(actions?.map { $0["title"]?.string } == ["Keep", "Delete", "Cancel"])
        #expect(actions?.map { $0["style"]?.string } == ["default", "destructive", "cancel"])
        #expect(actions?[1]["handler"]?.array?.first?["operation"]?.string == "present", "\(String(describing: actions))")

        let tapped = h.send("POST", "/v1/sessions/s/controllers/confirm/tapAlertAction", #"{"title": "Delete"}"#)
        #expect(tapped.status == 200, "\(tapped)")
        let events = tapped["events"]?.array?.map { "\($0["controller"]?.string ?? "?").\($0["callback"]?.string ?? "?")" }
        #expect(
            events == [
                "confirm.viewWillDisappear", "confirm.viewDidDisappear", "confirm.alertActionHandler",
                "undo.viewDidLoad", "nav.viewWillDisappear", "home.viewWillDisappear", "undo.viewWillAppear",
                "undo.viewIsAppearing", "undo.viewDidAppear", "nav.viewDidDisappear", "home.viewDidDisappear", "home.completion",
            ], "\(tapped)")
        #expect(tapped["events"]?.array?[2]["action"]?.string == "Delete", "\(tapped)")
        // The reply's transition is the last one the tap started: the handler's presentation.
        #expect(tapped["transition"]?["operation"]?.string == "present", "\(tapped)")
        #expect(tapped["transition"]?["toViewController"]?.string == "undo", "\(tapped)")
        #expect(tapped["session"]?["controllers"]?["confirm"]?["presentingViewController"]?.isNull == true, "\(tapped)")
        #expect(tapped["session"]?["controllers"]?["undo"]?["presentingViewController"]?.string == "nav", "\(tapped)")
    }

    @Test("R103/D26, R104/D25: UIKit's refusals are 409 with its text; a missing action or a misplaced field is 422; nothing changes")
    func refusals() throws {
        let h = try session()
        let version = h.send("GET", "/v1/sessions/s")["version"]
        let missing = h.send("POST", "/v1/sessions/s/controllers/confirm/tapAlertAction", #"{"index": 3}"#)
        #expect(missing.status == 422 && missing["field"]?.string == "index", "\(missing)")
        let both = h.send("POST", "/v1/sessions/s/controllers/confirm/tapAlertAction", #"{"index": 0, "title": "Keep"}"#)
        #expect(both.status == 422 && both["field"]?.string == "index", "\(both)")
        let notAlert = h.send("POST", "/v1/sessions/s/controllers/home/tapAlertAction", #"{"index": 0}"#)
        #expect(notAlert.status == 422, "\(notAlert)")
        let twoCancels = h.send(
            "PATCH", "/v1/sessions/s/controllers/confirm", #"{"actions": [{"title": "No", "style": "cancel"}, {"title": "Never", "style": "cancel"}]}"#)
        #expect(twoCancels.status == 409, "\(twoCancels)")
        #expect(twoCancels["type"]?.string == "/v1/problems/alert-second-cancel-action", "\(twoCancels)")
        #expect(twoCancels["detail"]?.string == "UIAlertController can only have one action with a style of UIAlertActionStyleCancel", "\(twoCancels)")
        #expect(twoCancels["uikit"]?["code"]?.string == "D25" && twoCancels["uikit"]?["name"]?.string == "NSInternalInconsistencyException", "\(twoCancels)")
        let onPlain = h.send("PATCH", "/v1/sessions/s/controllers/home", #"{"actions": [{"title": "OK"}]}"#)
        #expect(onPlain.status == 422 && onPlain["field"]?.string == "actions", "\(onPlain)")
        let inSpec = h.send("POST", "/v1/sessions/s/controllers", #"{"id": "plain", "actions": [{"title": "OK"}]}"#)
        #expect(inSpec.status == 422 && inSpec["field"]?.string == "actions", "\(inSpec)")
        let badStyle = h.send("PATCH", "/v1/sessions/s/controllers/confirm", #"{"actions": [{"title": "OK", "style": "primary"}]}"#)
        #expect(badStyle.status == 422 && badStyle["field"]?.string == "actions[0].style", "\(badStyle)")
        let once = h.send(
            "PATCH", "/v1/sessions/s/controllers/confirm", #"{"actions": [{"title": "OK", "handler": [{"operation": "dismiss", "once": true}]}]}"#)
        #expect(once.status == 422 && once["field"]?.string == "actions[0].handler[0].once", "\(once)")
        #expect(h.send("GET", "/v1/sessions/s")["version"] == version, "refused requests make no version")

        // Dismissed, the alert is no longer presented: a second tap is UIKit's unknown-presenter text.
        #expect(h.send("POST", "/v1/sessions/s/controllers/confirm/tapAlertAction", #"{"index": 0}"#).status == 200)
        let again = h.send("POST", "/v1/sessions/s/controllers/confirm/tapAlertAction", #"{"index": 0}"#)
        #expect(again.status == 409 && again["type"]?.string == "/v1/problems/alert-not-presented", "\(again)")
        #expect(again["detail"]?.string == "Attempt to dismiss <UIAlertController: confirm> with unknown presenter, action will not be performed.", "\(again)")
        #expect(again["uikit"]?["code"]?.string == "D26", "\(again)")
    }

    @Test("R104: a class declaration cannot give actions: no storyboard scene is an alert controller")
    func classDeclarationsRefuseActions() throws {
        let h = try ServiceHarness()
        #expect(h.send("PUT", "/v1/storyboards/Probe", StoryboardXML.home(), contentType: "application/xml").status == 201)
        let r = h.send("PUT", "/v1/storyboards/Probe/classes", #"{"HomeViewController": {"actions": [{"title": "OK"}]}}"#)
        #expect(r.status == 422 && r["field"]?.string == "HomeViewController.actions", "\(r)")
        #expect(h.send("PUT", "/v1/storyboards/Probe/classes", #"{"HomeViewController": {"actions": null}}"#).status == 200)
    }

    @Test("R104: the actions and their handlers survive a restart, and a history replay taps the same action")
    func storedAcrossARestart() throws {
        let h = try session()
        try h.restart()
        let reply = h.send("GET", "/v1/sessions/s/controllers/confirm")
        #expect(reply["actions"]?.array?.count == 3, "\(reply)")
        #expect(reply["actions"]?.array?[1]["handler"]?.array?.count == 1, "\(reply)")
        let tapped = h.send("POST", "/v1/sessions/s/controllers/confirm/tapAlertAction", #"{"index": 1}"#)
        #expect(tapped.status == 200 && tapped["session"]?["controllers"]?["undo"] != nil, "\(tapped)")
        try h.restart()
        #expect(h.send("GET", "/v1/sessions/s/controllers/undo")["presentingViewController"]?.string == "nav")
        // Replaying the history runs the stored tap, and with it the stored handler, again.
        let version = try #require(tapped["version"]?.number)
        let replayed = h.send("GET", "/v1/sessions/s?version=\(Int(version))&replay=true")
        #expect(replayed.status == 200, "\(replayed)")
        #expect(replayed["controllers"]?["undo"]?["presentingViewController"]?.string == "nav", "\(replayed)")
        #expect(replayed["controllers"]?["confirm"]?["presentingViewController"]?.isNull == true, "\(replayed)")
    }
}

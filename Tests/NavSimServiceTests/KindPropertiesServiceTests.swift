import HTTPServer
import JSONValues
import NavigationCore
import TestSupport
import Testing

/// ``KindProperties/all`` is the one table of properties only some kinds have: both ways a client
/// sets one (a new controller's spec, a run-time PATCH) follow it. The test walks the table, so a
/// new row is covered without touching it.
@Suite("container-kind properties over HTTP")
struct KindPropertiesServiceTests {
    /// A value each property accepts on its own kind (checked below), so a refusal elsewhere is
    /// the kind's, not the value's. The spec path refuses before it reads values: any non-null will do.
    static let samples: [String: String] = [
        "actions": #"[{"title": "OK"}]"#,
        "pageDataSource": #"{"pages": []}"#,
        "pageDelegate": "{}",
        "customizableViewControllers": "[]",
        "displayModeButtonVisibility": #""always""#,
        "splitDelegate": "{}",
        "navigationDelegate": "{}",
        "tabBarDelegate": "{}",
    ]

    @Test func aKindOnlyPropertyIsRefusedOnEveryOtherKindInASpecAndAPatch() throws {
        let h = try ServiceHarness()
        #expect(h.send("POST", "/v1/sessions", #"{"id": "k", "options": {"iOS": "17"}, "root": {"id": "home"}}"#).status == 201)
        // One bare controller of each kind to PATCH.
        for kind in ControllerKind.allCases {
            let made = h.send("POST", "/v1/sessions/k/controllers", #"{"id": "\#(kind.rawValue)", "kind": "\#(kind.rawValue)"}"#)
            #expect(made.status == 201, "\(kind): \(made)")
        }
        let before = h.send("GET", "/v1/sessions/k")
        var refusals = 0
        for row in KindProperties.all {
            for name in row.names {
                let patchable = ControllerConfiguration.field(named: name) != nil
                #expect(!patchable || Self.samples[name] != nil, "\(name): give it a value in `samples`")
                let value = Self.samples[name] ?? "true"
                for kind in ControllerKind.allCases where !row.kinds.contains(kind) {
                    let spec = h.send("POST", "/v1/sessions/k/controllers", #"{"id": "x", "kind": "\#(kind.rawValue)", "\#(name)": \#(value)}"#)
                    #expect(spec.status == 422 && spec["field"]?.string == name, "spec \(name) on \(kind): \(spec)")
                    #expect(spec["detail"]?.string?.contains("\(name) is a property of") == true, "\(spec)")
                    refusals += 1
                    guard patchable else { continue }
                    let patch = h.send("PATCH", "/v1/sessions/k/controllers/\(kind.rawValue)", #"{"\#(name)": \#(value)}"#)
                    #expect(patch.status == 422 && patch["field"]?.string == name, "PATCH \(name) on \(kind): \(patch)")
                    #expect(patch["detail"]?.string?.contains("\(name) is a property of") == true, "\(patch)")
                    refusals += 1
                }
            }
        }
        #expect(refusals > 0)
        let after = h.send("GET", "/v1/sessions/k")
        #expect(after.status == 200 && after.headers["etag"] == before.headers["etag"] && after.text == before.text, "\(after)")

        // The samples are values the owners take, so the refusals above were the kinds'.
        for row in KindProperties.all {
            for name in row.names {
                guard let value = Self.samples[name] else { continue }
                let owner = row.kinds[0].rawValue
                let patch = h.send("PATCH", "/v1/sessions/k/controllers/\(owner)", #"{"\#(name)": \#(value)}"#)
                #expect(patch.status == 200, "PATCH \(name) on \(owner): \(patch)")
            }
        }
    }

    @Test("R103, R124, R130, R132: a PATCH setting two properties its kind lacks names the first in the table's order, whatever the body's order")
    func twoRefusedPropertiesInOnePatch() throws {
        let h = try ServiceHarness()
        #expect(h.send("POST", "/v1/sessions", #"{"id": "k", "options": {"iOS": "17"}, "root": {"id": "home"}}"#).status == 201)
        let bodies = [
            #"{"customizableViewControllers": ["home"], "pageDelegate": {}}"#,
            #"{"pageDelegate": {}, "customizableViewControllers": ["home"]}"#,
        ]
        for body in bodies {
            let patch = h.send("PATCH", "/v1/sessions/k/controllers/home", body)
            #expect(patch.status == 422 && patch["field"]?.string == "pageDelegate", "\(body): \(patch)")
        }
    }

    @Test("R104: an empty list for a property the kind lacks is refused by PATCH as by a spec; null is left out")
    func anEmptyListOfALackedPropertyIsRefused() throws {
        let h = try ServiceHarness()
        #expect(h.send("POST", "/v1/sessions", #"{"id": "k", "options": {"iOS": "17"}, "root": {"id": "home"}}"#).status == 201)
        let before = h.send("GET", "/v1/sessions/k")
        let spec = h.send("POST", "/v1/sessions/k/controllers", #"{"id": "x", "actions": []}"#)
        let patch = h.send("PATCH", "/v1/sessions/k/controllers/home", #"{"actions": []}"#)
        for reply in [spec, patch] {
            #expect(reply.status == 422 && reply["field"]?.string == "actions", "\(reply)")
            #expect(reply["detail"]?.string == "actions is a property of UIAlertController; a UIViewController has none.", "\(reply)")
        }
        let after = h.send("GET", "/v1/sessions/k")
        #expect(after.headers["etag"] == before.headers["etag"] && after.text == before.text)
        #expect(h.send("PATCH", "/v1/sessions/k/controllers/home", #"{"actions": null}"#).status == 200)
    }

    @Test("R82: a class declaration cannot give a property its scenes' kind lacks; one left from an earlier upload is not applied")
    func classDeclarationsFollowTheScenesKind() throws {
        let h = try ServiceHarness()
        #expect(h.send("PUT", "/v1/storyboards/Probe", StoryboardXML.home(), contentType: "application/xml").status == 201)
        let refused = h.send("PUT", "/v1/storyboards/Probe/classes", #"{"HomeViewController": {"navigationDelegate": {}}}"#)
        #expect(refused.status == 422 && refused["field"]?.string == "HomeViewController.navigationDelegate", "\(refused)")
        #expect(
            refused["detail"]?.string
                == "navigationDelegate is a property of UINavigationController; a UIViewController has none. Scene vc1 is of class HomeViewController.",
            "\(refused)")
        #expect(h.send("PUT", "/v1/storyboards/Probe/classes", #"{"HomeViewController": {"navigationDelegate": null}}"#).status == 200)

        // Declared while the class's scene was a navigation controller, then the scene uploaded again as a view controller.
        let navigation = StoryboardXML.document(
            initial: "vc1",
            scenes: [
                """
                <scene sceneID="sc1"><objects>
                <navigationController storyboardIdentifier="Home" id="vc1" customClass="HomeViewController" sceneMemberID="viewController"/>
                </objects></scene>
                """
            ])
        #expect(h.send("PUT", "/v1/storyboards/Probe", navigation, contentType: "application/xml").status == 200)
        let declared = h.send(
            "PUT", "/v1/storyboards/Probe/classes", #"{"HomeViewController": {"navigationDelegate": {}, "title": "Home"}}"#)
        #expect(declared.status == 200, "\(declared)")
        #expect(h.send("PUT", "/v1/storyboards/Probe", StoryboardXML.home(), contentType: "application/xml").status == 200)
        let session = h.send("POST", "/v1/sessions", #"{"id": "s", "root": {"storyboard": "Probe"}}"#)
        #expect(session.status == 201, "\(session)")
        #expect(!session.text.contains("navigationDelegate") && session.text.contains(#""title":"Home""#), "\(session.text)")
    }
}

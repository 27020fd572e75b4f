import Foundation
import JSONValues
import Testing
import TestSupport
@testable import NavSimService
@testable import NavigationCore

/// Fidelity at the HTTP face: storyboard segues performed inside lifecycle code, code declared
/// with `PUT …/classes` and the callback bound named in the problem.
@Suite("fidelity, round three over HTTP")
struct FidelityRoundThreeServiceTests {
    /// `Home` (HomeViewController) with a manual full-screen segue `login` to `Login`
    /// (LoginViewController); `toOther` goes to `Other`.
    static func storyboard(loginDestination: String = "login-vc") -> String {
        func scene(_ id: String, _ storyboardID: String, _ customClass: String, segues: String = "") -> String {
            """
                    <scene sceneID="\(id)-scene">
                        <objects>
                            <viewController storyboardIdentifier="\(storyboardID)" id="\(id)" customClass="\(customClass)" customModule="App" sceneMemberID="viewController">
                                <view key="view" contentMode="scaleToFill" id="\(id)-view"/>
                                \(segues.isEmpty ? "" : "<connections>\(segues)</connections>")
                            </viewController>
                            <placeholder placeholderIdentifier="IBFirstResponder" id="\(id)-fr" sceneMemberID="firstResponder"/>
                        </objects>
                    </scene>
            """
        }
        return StoryboardXML.document(
            initial: "home-vc",
            scenes: [
                scene(
                    "home-vc", "Home", "HomeViewController",
                    segues: """
                        <segue destination="\(loginDestination)" kind="presentation" identifier="login" modalPresentationStyle="fullScreen" id="seg-login"/>
                        """),
                scene("login-vc", "Login", "LoginViewController"),
                scene("other-vc", "Other", "OtherViewController"),
            ])
    }

    func upload(_ h: ServiceHarness, _ xml: String = storyboard()) -> ServiceReply {
        h.send("PUT", "/v1/storyboards/App", xml, contentType: "application/xml")
    }

    static let loginOnAppear = #"""
        {"HomeViewController": {"on": {"viewDidAppear": [{"operation": "performSegue", "identifier": "login", "once": true}]}},
         "LoginViewController": {"title": "Sign in"}}
        """#

    @Test func item1_loginSegueInViewDidAppear() throws {
        let h = try ServiceHarness()
        #expect(upload(h).status == 201)
        #expect(h.send("PUT", "/v1/storyboards/App/classes", Self.loginOnAppear).status == 200)
        let created = h.send(
            "POST", "/v1/sessions",
            #"""
            {"id": "s", "options": {"transitions": "immediate"}, "root": {"storyboard": "App", "identifier": "Home"}}
            """#)
        #expect(created.status == 201, "\(created)")
        #expect(created["window"]?["visibleViewController"]?.string == "Login", "\(created)")
        let login = created["controllers"]?["Login"]
        #expect(login?["presentingViewController"]?.string == "Home", "\(created)")
        #expect(login?["title"]?.string == "Sign in", "the destination's class declaration applies")
        #expect(created["controllers"]?["Home"]?["on"] == nil, "once: gone after it ran")

        // A second Home in the same session performs its own segue: the new Login is Login~2.
        let again = h.send(
            "POST", "/v1/sessions/s/controllers/Login/present",
            #"""
            {"viewController": {"storyboard": "App", "identifier": "Home"}, "modalPresentationStyle": "fullScreen", "animated": false}
            """#)
        #expect(again.status == 200, "\(again)")
        #expect(again["session"]?["controllers"]?["Login~2"]?["presentingViewController"]?.string == "Home~2", "\(again)")
        let events = again["events"]?.array?.compactMap { e in e["controller"]?.string.map { "\($0).\(e["callback"]?.string ?? "")" } } ?? []
        let appeared = events.firstIndex(of: "Home~2.viewDidAppear") ?? -1
        #expect(appeared >= 0 && (events.firstIndex(of: "Home~2.prepareForSegue") ?? -1) > appeared, "\(events)")

        // The storyboard changes: the segue now leads to Other. The stored entry keeps the
        // Login it instantiated, so a replay with today's rules gives the same session.
        #expect(upload(h, Self.storyboard(loginDestination: "other-vc")).status == 200)
        let stored = h.send("GET", "/v1/sessions/s?version=1")
        let replayed = h.send("GET", "/v1/sessions/s?version=1&replay=true")
        #expect(stored.status == 200 && replayed.status == 200)
        #expect(replayed["controllers"] == stored["controllers"], "\(replayed)")
        #expect(replayed["controllers"]?["Login~2"] != nil && replayed["controllers"]?["Other"] == nil)
        // From now on the new storyboard is what a nested segue instantiates.
        let third = h.send(
            "POST", "/v1/sessions/s/controllers/Login~2/present",
            #"""
            {"viewController": {"storyboard": "App", "identifier": "Home"}, "modalPresentationStyle": "fullScreen", "animated": false}
            """#)
        #expect(third["session"]?["controllers"]?["Other"]?["presentingViewController"]?.string == "Home~3", "\(third)")
    }

    @Test func item1_nestedSegueCountsAgainstTheControllerLimit() throws {
        var limits = Limits.defaults
        limits.controllersPerSession = 1
        let h = try ServiceHarness(limits: limits)
        #expect(upload(h).status == 201)
        #expect(h.send("PUT", "/v1/storyboards/App/classes", Self.loginOnAppear).status == 200)
        let r = h.send("POST", "/v1/sessions", #"{"id": "s", "root": {"storyboard": "App", "identifier": "Home"}}"#)
        #expect(r.status == 422 && r["limit"]?.string == "controllersPerSession", "\(r)")
        #expect(h.send("GET", "/v1/sessions/s").status == 404, "nothing was created")
    }

    @Test func item2_codeDeclaredForAClassRunsOncePerInstance() throws {
        let h = try ServiceHarness()
        #expect(upload(h).status == 201)
        let declared = h.send(
            "PUT", "/v1/storyboards/App/classes",
            #"""
            {"HomeViewController": {"on": {
               "viewDidLoad": [{"operation": "present", "viewController": {"id": "early"}}],
               "viewDidAppear": [{"operation": "present", "viewController": {"id": "banner"},
                                  "modalPresentationStyle": "overFullScreen", "animated": false, "once": true}]}}}
            """#)
        #expect(declared.status == 200, "\(declared)")
        let listed = declared["classes"]?["HomeViewController"]?["on"]?["viewDidAppear"]?.array?.first
        #expect(listed?["operation"]?.string == "present" && listed?["once"]?.bool == true, "\(declared)")
        let bad = h.send("PUT", "/v1/storyboards/App/classes", #"{"HomeViewController": {"on": {"viewDidAppear": [{"operation": "presnt"}]}}}"#)
        #expect(bad.status == 422 && bad["field"]?.string == "HomeViewController.on.viewDidAppear[0].operation", "\(bad)")

        let created = h.send(
            "POST", "/v1/sessions",
            #"""
            {"id": "s", "options": {"transitions": "immediate"}, "root": {"storyboard": "App", "identifier": "Home"}}
            """#)
        #expect(created.status == 201, "\(created)")
        #expect(created["controllers"]?["banner"]?["presentingViewController"]?.string == "Home", "\(created)")
        // viewDidLoad's present: the view is not in the window yet, UIKit's D7 warning, nothing presented.
        #expect(created["controllers"]?["early"] == nil)
        let home = created["controllers"]?["Home"]?["on"]
        #expect(home?["viewDidAppear"] == nil && home?["viewDidLoad"]?.array?.count == 1, "once removes only its own call")
        // Home appears again after the banner leaves: once already ran.
        let dismissed = h.send("POST", "/v1/sessions/s/controllers/banner/dismiss", #"{"animated": false}"#)
        #expect(dismissed.status == 200)
        #expect(
            dismissed["session"]?["controllers"]?["banner"]?["presentingViewController"] == nil
                || dismissed["session"]?["controllers"]?["banner"]?["presentingViewController"]?.isNull == true, "\(dismissed)")
        #expect(dismissed["session"]?["window"]?["visibleViewController"]?.string == "Home")
        // Another instance of the class starts with the whole declaration again.
        let second = h.send("POST", "/v1/sessions/s/controllers", #"{"storyboard": "App", "identifier": "Home"}"#)
        #expect(second["on"]?["viewDidAppear"]?.array?.count == 1, "\(second)")
        // Controllers that exist keep what they have when the declaration changes.
        #expect(h.send("PUT", "/v1/storyboards/App/classes", "{}").status == 200)
        #expect(h.send("GET", "/v1/sessions/s/controllers/Home~2")["on"]?["viewDidAppear"]?.array?.count == 1)
    }

    @Test func item6_theProblemNamesTheBoundHit() throws {
        let h = try ServiceHarness()
        #expect(h.send("POST", "/v1/sessions", #"{"id": "s", "options": {"transitions": "immediate"}, "root": {"id": "root"}}"#).status == 201)
        let tabs = h.send(
            "POST", "/v1/sessions/s/controllers/root/present",
            #"""
            {"viewController": {"id": "T", "kind": "tabBarController", "viewControllers": [
               {"id": "A", "on": {"viewDidAppear": [{"operation": "select", "receiver": "T", "index": 1}]}},
               {"id": "B", "on": {"viewDidAppear": [{"operation": "select", "receiver": "T", "index": 0}]}}]},
             "modalPresentationStyle": "fullScreen", "animated": false}
            """#)
        #expect(tabs.status == 422 && tabs["limit"]?.string == "callbacksPerRequest" && tabs["max"]?.number == 256, "\(tabs)")
        #expect(h.send("GET", "/v1/sessions/s")["version"]?.number == 0, "nothing changed")
        // The core's depth bound reaches the problem under its own name and value.
        let depth = Problem.fromCore(CommandError(kind: .limitExceeded, message: "deep", limit: CallbackCode.Limit.callbackDepth.rawValue))
        #expect(depth.status == 422 && depth.limit == "callbackDepth" && depth.max == 8)
        // An error without a name (none is made without one) still reads as the depth bound.
        #expect(Problem.fromCore(CommandError(kind: .limitExceeded, message: "old")).limit == "callbackDepth")
    }
}

@testable import Flows
import Foundation
import FoundationXML
import HTTPServer
import NavSimService
import ProcessSpawning
import Synchronization
import JSONValues
import Testing
import SQLiteStore

@Suite("Record and replay")
struct RecordTests {
    /// Requests as a curl user would send them, against `target`.
    func send(_ target: any FlowTarget, _ method: String, _ path: String, _ body: String? = nil) throws -> HTTPResponse {
        var headers = HTTPHeaders()
        if body != nil { headers["Content-Type"] = "application/json" }
        return try target.send(HTTPRequest(method: method, path: path, headers: headers, body: Array((body ?? "").utf8)))
    }

    func makeSession(on target: any FlowTarget) throws {
        #expect(
            try send(
                target, "POST", "/v1/sessions",
                """
                {"id": "bug", "traits": {"userInterfaceIdiom": "pad"}, "options": {"iOS": "17", "transitions": "manual"},
                 "root": {"id": "T", "kind": "tabBarController", "viewControllers": [
                    {"id": "N", "kind": "navigationController", "viewControllers": [{"id": "A", "class": "AViewController", "title": "Home"}]},
                    {"id": "S", "class": "SettingsViewController", "definesPresentationContext": true}]}}
                """
            ).status == 201)
        #expect(try send(target, "POST", "/v1/sessions/bug/controllers/N/push", #"{"viewController": {"id": "B"}, "animated": false}"#).status == 200)
        #expect(try send(target, "POST", "/v1/sessions/bug/controllers/B/present", #"{"viewController": {"id": "M"}, "modalPresentationStyle": "formSheet"}"#).status == 200)
        #expect(try send(target, "POST", "/v1/sessions/bug/transitions/complete").status == 200)
        #expect(
            try send(
                target, "POST", "/v1/sessions/bug/turns",
                """
                {"operations": [{"controller": "M", "operation": "dismiss", "animated": false},
                                {"controller": "T", "operation": "select", "index": 1}]}
                """
            ).status == 200)
        #expect(try send(target, "POST", "/v1/sessions/bug/controllers", #"{"id": "X"}"#).status == 201)
    }

    /// A sheet's settings and the detent a user dragged it to are in the recorded flow: the
    /// rebuilt session shows the same sheet (R110, R111).
    @Test func aRecordedSheetKeepsItsDetents() throws {
        let original = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        // The root's own settings come from the session's first state, not from a command.
        #expect(
            try send(
                original, "POST", "/v1/sessions",
                #"{"id": "sheets", "root": {"id": "A", "sheetPresentationController": {"detents": [{"identifier": "large"}], "prefersGrabberVisible": true}}}"#
            ).status == 201)
        let made = try send(
            original, "POST", "/v1/sessions/sheets/controllers",
            #"{"id": "B", "sheetPresentationController": {"detents": [{"identifier": "medium"}, {"identifier": "large"}], "largestUndimmedDetentIdentifier": "medium", "hasDelegate": true}}"#
        )
        #expect(made.status == 201)
        #expect(try send(original, "POST", "/v1/sessions/sheets/controllers/A/present", #"{"viewController": "B", "modalPresentationStyle": "pageSheet"}"#).status == 200)
        #expect(try send(original, "POST", "/v1/sessions/sheets/controllers/B/dragSheet", #"{"detent": "large"}"#).status == 200)
        let recorded = try Recorder().record(session: "sheets", on: original)
        let text = PrettyJSON.text(recorded)
        #expect(text.contains("prefersGrabberVisible") && text.contains("dragSheet"), "\(text)")
        let flow = try #require(try flows(text, file: "sheets.json").first)
        let result = FlowRunner().play(flow, on: try InProcessTarget(migrationsDirectory: Checkout.migrations))
        #expect(result.passed, "\(result.line)\n\(text)")
    }

    /// A page view controller's data source and delegate, and a tab bar's customizable tabs, are
    /// in the recorded flow, so the user's page turn and Edit sheet replay with the same events
    /// (R130, R132, R133).
    @Test func aRecordedPageTurnAndEditSheetReplay() throws {
        let original = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        let tabs = (1..<7).map { #"{"id": "v\#($0)"}"# }.joined(separator: ", ")
        #expect(
            try send(
                original, "POST", "/v1/sessions",
                #"""
                {"id": "pages", "root": {"id": "T", "kind": "tabBarController", "tabBarDelegate": {},
                  "customizableViewControllers": ["v1", "v5"], "viewControllers": [
                  {"id": "pv", "kind": "pageViewController", "viewControllers": [{"id": "p1"}],
                   "pageDataSource": {"pages": ["p1", "p2"]}, "pageDelegate": {}}, \#(tabs)]}}
                """#
            ).status == 201)
        #expect(try send(original, "POST", "/v1/sessions/pages/controllers", #"{"id": "p2"}"#).status == 201)
        #expect(try send(original, "POST", "/v1/sessions/pages/controllers/pv/turnPage", #"{"direction": "forward"}"#).status == 200)
        #expect(try send(original, "POST", "/v1/sessions/pages/controllers/T/tapTab", #"{"viewController": "T.more"}"#).status == 200)
        let edited = try send(
            original, "POST", "/v1/sessions/pages/controllers/T/customizeTabs",
            #"{"viewControllers": ["pv", "v5", "v2", "v3", "v4", "v1", "v6"]}"#)
        #expect(edited.status == 200)
        #expect(try send(original, "POST", "/v1/sessions/pages/controllers/T/tapTab", #"{"index": 1}"#).status == 200)
        let recorded = try Recorder().record(session: "pages", on: original)
        let text = PrettyJSON.text(recorded)
        #expect(text.contains("pageDataSource") && text.contains("customizableViewControllers"), "\(text)")
        let flow = try #require(try flows(text, file: "pages.json").first)
        let result = FlowRunner().play(flow, on: try InProcessTarget(migrationsDirectory: Checkout.migrations))
        #expect(result.passed, "\(result.line)\n\(text)")
    }

    @Test func aRecordedSessionReplaysAsAPassingFlow() throws {
        let original = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        try makeSession(on: original)
        let recorded = try Recorder().record(session: "bug", on: original)
        // What record prints must read back as a flow.
        let text = PrettyJSON.text(recorded)
        let flow = try #require(try flows(text, file: "bug.json").first)
        #expect(flow.steps.count >= 5)
        #expect(flow.steps[0].method == "POST" && flow.steps[0].path == "/v1/sessions")
        // On a fresh service, and on the same one (a new id each run, so no conflict).
        for target in [try InProcessTarget(migrationsDirectory: Checkout.migrations), original] {
            let result = FlowRunner().play(flow, on: target)
            #expect(result.passed, "\(result.line)\n\(text)")
        }
    }

    /// A collapsed classic split (iPhone) keeps its secondary inside the
    /// primary's stack; the recording rebuilds the creation from the split's primary and
    /// secondary, so the replay is created (no 409 D12) and has the secondary after expanding,
    /// for a navigation-controller secondary and a plain one.
    @Test(arguments: [
        #"{"id": "dnav", "kind": "navigationController", "viewControllers": [{"id": "detail"}]}"#,
        #"{"id": "detail"}"#,
    ])
    func aRecordedCollapsedSplitReplays(secondary: String) throws {
        let original = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        let created = try send(
            original, "POST", "/v1/sessions",
            """
            {"id": "sp", "options": {"transitions": "immediate"},
             "root": {"id": "split", "kind": "splitViewController", "viewControllers": [
                {"id": "mnav", "kind": "navigationController", "viewControllers": [
                   {"id": "master"}]},
                \(secondary)]}}
            """)
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        for (method, path, body) in [
            ("PATCH", "/v1/sessions/sp", #"{"traits": {"horizontalSizeClass": "regular"}}"#),
            ("POST", "/v1/sessions/sp/controllers/master/showDetail", #"{"viewController": {"id": "d2"}}"#),
            ("PATCH", "/v1/sessions/sp", #"{"traits": {"horizontalSizeClass": "compact"}}"#),
            ("PATCH", "/v1/sessions/sp", #"{"traits": {"horizontalSizeClass": "regular"}}"#),
        ] {
            let r = try send(original, method, path, body)
            #expect(r.status == 200, "\(path): \(String(decoding: r.body, as: UTF8.self))")
        }
        let text = PrettyJSON.text(try Recorder().record(session: "sp", on: original))
        let flow = try #require(try flows(text, file: "split.json").first)
        guard case .json(let body)? = flow.steps.first?.body else { Issue.record("no JSON body: \(text)"); return }
        let children = body["root"]?["viewControllers"]?.array?.compactMap { $0["id"]?.string }
        let secondaryID = secondary.contains("dnav") ? "dnav" : "detail"
        #expect(children == ["mnav", secondaryID], "\(text)")
        let result = FlowRunner().play(flow, on: try InProcessTarget(migrationsDirectory: Checkout.migrations))
        #expect(result.passed, "\(result.line)\n\(text)")
    }

    /// The creation's warnings (D7: the root's `viewDidLoad` presents) are kept
    /// in history entry 0 and step 1 expects them, as later steps expect theirs.
    @Test func aRecordingExpectsTheCreationsWarnings() throws {
        let original = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        #expect(
            try send(
                original, "POST", "/v1/sessions",
                """
                {"id": "w", "root": {"id": "home", "on": {"viewDidLoad": [{"operation": "present", "viewController": {"id": "x"}}]}}}
                """
            ).status == 201)
        let recorded = try Recorder().record(session: "w", on: original)
        let step1 = recorded["steps"]?.array?.first
        let warnings = step1?["expect"]?["json"]?["warnings"]?.array
        #expect(warnings?.map { $0["uikit"]?["code"]?.string } == ["D7"], "\(PrettyJSON.text(recorded))")
    }

    /// A root with `on` code cannot be rebuilt from replies (they list each call as
    /// operation, receiver and `once` only), so history entry 0 keeps the creation body and the
    /// recording sends it again: the root's viewDidLoad adds a child's view, and the replay
    /// creates the same window with the same events. An entry 0 without a body (stored before)
    /// still gets the body rebuilt from the initial state.
    @Test func aRecordedRootWithLifecycleCodeReplaysFromTheKeptBody() throws {
        let original = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        let sent = """
            {"id": "code", "options": {"iOS": "17", "transitions": "immediate"},
             "root": {"id": "P", "on": {"viewDidLoad": [{"operation": "addChild", "viewController": {"id": "C"}},
                                                      {"operation": "addSubview", "viewController": "C"}]}}}
            """
        #expect(try send(original, "POST", "/v1/sessions", sent).status == 201)
        #expect(try send(original, "POST", "/v1/sessions/code/controllers", #"{"id": "X"}"#).status == 201)
        let entry0 = try JSON.parse(try send(original, "GET", "/v1/sessions/code/history?after=-1&limit=1").body)["entries"]?.array?.first
        #expect(entry0?["request"]?["body"] == (try JSON.parse(Array(sent.utf8))), "entry 0 keeps the creation body")
        let recorded = try Recorder().record(session: "code", on: original)
        let text = PrettyJSON.text(recorded)
        let flow = try #require(try flows(text, file: "code.json").first)
        guard case .json(let body)? = flow.steps.first?.body else { Issue.record("no JSON body: \(text)"); return }
        #expect(body["id"]?.string == "code-${run}")
        #expect(body["root"]?["on"]?["viewDidLoad"]?.array?.count == 2, "\(text)")
        let events = recorded["steps"]?.array?.first?["expect"]?["json"]?["events"]?.array?.compactMap { e in
            e["controller"]?.string.flatMap { c in e["callback"]?.string.map { "\(c).\($0)" } }
        }
        #expect(
            events == [
                "P.viewDidLoad", "C.willMoveToParent", "C.viewDidLoad", "P.viewWillAppear", "P.viewIsAppearing",
                "C.viewWillAppear", "C.viewIsAppearing", "P.viewDidAppear", "C.viewDidAppear",
            ], "\(text)")
        let result = FlowRunner().play(flow, on: try InProcessTarget(migrationsDirectory: Checkout.migrations))
        #expect(result.passed, "\(result.line)\n\(text)")
        // Without a kept body (an entry 0 stored before): rebuilt, and the `on` code is lost.
        let initial = try JSON.parse(try send(original, "GET", "/v1/sessions/code?version=0").body)
        let rebuilt = Recorder().creationStep(sid: "code", initial: initial)
        #expect(rebuilt["body"]?["root"]?["id"]?.string == "P" && rebuilt["body"]?["root"]?["on"] == nil)
    }

    /// A creation rebuilt from the initial state keeps every flag the reply shows set, as the
    /// core's field table lists them: `prefersStatusBarHidden` as much as `isModalInPresentation`.
    @Test func aRebuiltCreationKeepsEveryFlagTheRootSets() throws {
        let original = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        let sent = #"{"id": "flags", "root": {"id": "P", "prefersStatusBarHidden": true, "isModalInPresentation": true}}"#
        #expect(try send(original, "POST", "/v1/sessions", sent).status == 201)
        let initial = try JSON.parse(try send(original, "GET", "/v1/sessions/flags?version=0").body)
        let root = Recorder().creationStep(sid: "flags", initial: initial)["body"]?["root"]
        #expect(root?["prefersStatusBarHidden"]?.bool == true, "\(root.map { PrettyJSON.text($0) } ?? "no root")")
        #expect(root?["isModalInPresentation"]?.bool == true)
        #expect(root?["definesPresentationContext"] == nil, "a flag left at its default is not sent")
    }

    @Test func aRecordedFlowCatchesAChangedReply() throws {
        let original = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        try makeSession(on: original)
        let text = PrettyJSON.text(try Recorder().record(session: "bug", on: original))
        // As if the server now answered the push with different events.
        let changed = text.replacingOccurrences(of: #""callback": "viewDidLoad""#, with: #""callback": "loadView""#)
        #expect(changed != text)
        let flow = try #require(try flows(changed).first)
        let result = FlowRunner().play(flow, on: try InProcessTarget(migrationsDirectory: Checkout.migrations))
        #expect(!result.passed)
        #expect(result.failure?.message.contains("expected \"loadView\", got \"viewDidLoad\"") == true, "\(result.line)")
    }

    /// A session made from storyboards replays on a server that has none of them: the recording
    /// uploads each storyboard the session used (the document as the server has it) and its
    /// class and custom segue declarations before creating the session. Without the
    /// declarations the replay would differ: FadeSegue would present instead of push, and the
    /// unwind would find no `unwindToA:` (navsim's `unwind-destination-not-found`).
    @Test func aRecordedStoryboardSessionReplaysOnAnEmptyServer() throws {
        let original = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        for (name, file) in [("Unwind", "unwind-to-a"), ("Fade", "a-custom-segue-b")] {
            let xml = try Data(contentsOf: Checkout.root.appendingPathComponent("Tests/Flows/storyboards/\(file).storyboard"))
            let r = try original.send(
                HTTPRequest(
                    method: "PUT", path: "/v1/storyboards/\(name)",
                    headers: HTTPHeaders([("Content-Type", "application/xml")]), body: Array(xml)))
            #expect(r.status == 201, "\(String(decoding: r.body, as: UTF8.self))")
        }
        #expect(try send(original, "PUT", "/v1/storyboards/Unwind/classes", #"{"AViewController": {"unwindActions": ["unwindToA:"]}}"#).status == 200)
        #expect(try send(original, "PUT", "/v1/storyboards/Fade/customSegues", #"{"FadeSegue": {"performs": "push"}}"#).status == 200)
        #expect(
            try send(
                original, "POST", "/v1/sessions",
                """
                {"id": "app", "options": {"transitions": "immediate"},
                 "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"storyboard": "Fade", "identifier": "A", "id": "FA"}]}}
                """
            ).status == 201)
        for (path, body) in [
            ("FA/performSegue", #"{"identifier": "toB"}"#),
            ("B/present", #"{"viewController": {"storyboard": "Unwind", "identifier": "A", "id": "UA"}, "modalPresentationStyle": "fullScreen"}"#),
            ("UA/present", #"{"viewController": {"storyboard": "Unwind", "identifier": "C"}}"#),
            ("C/performSegue", #"{"identifier": "unwindToA"}"#),
        ] {
            let r = try send(original, "POST", "/v1/sessions/app/controllers/\(path)", body)
            let reply = try JSON.parse(r.body)
            #expect(r.status == 200 && reply["warnings"] == nil, "\(path): \(String(decoding: r.body, as: UTF8.self))")
        }
        let recorded = try Recorder().record(session: "app", on: original)
        let text = PrettyJSON.text(recorded)
        let flow = try #require(try flows(text, file: "app.json").first)
        #expect(
            flow.steps.prefix(4).map { "\($0.method) \($0.path)" } == [
                "PUT /v1/storyboards/Fade", "PUT /v1/storyboards/Fade/customSegues",
                "PUT /v1/storyboards/Unwind", "PUT /v1/storyboards/Unwind/classes",
            ], "\(text)")
        // A second server, empty; then the first, where the uploads replace what is there.
        for target in [try InProcessTarget(migrationsDirectory: Checkout.migrations), original] {
            let result = FlowRunner().play(flow, on: target)
            #expect(result.passed, "\(result.line)\n\(text)")
        }
    }

    @Test func aStoryboardIsReadAsUploadedWhenAcceptPrefersXML() throws {
        let target = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        let xml = try Data(contentsOf: Checkout.root.appendingPathComponent("Tests/Flows/storyboards/a-presents-b.storyboard"))
        _ = try target.send(
            HTTPRequest(
                method: "PUT", path: "/v1/storyboards/Main",
                headers: HTTPHeaders([("Content-Type", "application/xml")]), body: Array(xml)))
        func get(_ accept: String) throws -> HTTPResponse {
            try target.send(HTTPRequest(method: "GET", path: "/v1/storyboards/Main", headers: HTTPHeaders([("Accept", accept)])))
        }
        for accept in ["application/xml", "text/xml", "application/json;q=0.5, application/xml"] {
            let r = try get(accept)
            #expect(r.status == 200 && r.body == Array(xml) && r.headers["Content-Type"] == "application/xml", "\(accept)")
            #expect(r.headers["Vary"] == "Accept")
        }
        for accept in ["*/*", "application/json, application/xml", "application/*"] {
            #expect(try get(accept).headers["Content-Type"]?.hasPrefix("application/json") == true, "\(accept)")
        }
        let missing = try target.send(HTTPRequest(method: "GET", path: "/v1/storyboards/Nope", headers: HTTPHeaders([("Accept", "application/xml")])))
        #expect(missing.status == 404)
    }

    @Test func recordingAnUnknownSessionFails() throws {
        let target = try InProcessTarget(migrationsDirectory: Checkout.migrations)
        #expect(throws: Recorder.Failure.self) { try Recorder().record(session: "nope", on: target) }
    }
}

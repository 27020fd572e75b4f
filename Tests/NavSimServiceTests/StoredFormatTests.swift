import Foundation
import JSONValues
import NavigationCore
import Testing

@testable import NavSimService
@testable import SessionFormat
@testable import SessionStorage
@testable import SQLiteStore

/// The persistence format (`SessionFormat/StoredFormat.swift`): sessions written by this code read
/// back as they were, rows written before members existed get the domain's defaults, and a row
/// this release cannot read is an error rather than a guess.
@Suite("The persistence format")
struct StoredFormatTests {
    /// Requests covering every stored type: navigation, presentations, configuration of every
    /// kind, patches, tabs with More, column and classic splits, storyboard segues, pages, an
    /// action sheet in a popover, containment, and manual transitions left running.
    static let requests: [(String, String, String)] = [
        (
            "POST", "/v1/sessions",
            #"{"id": "nav", "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"id": "home", "class": "HomeViewController", "title": "Home", "shouldPerformSegue": {"x": false}, "unwindActions": ["back:"], "prefersStatusBarHidden": true}]}}"#
        ),
        (
            "POST", "/v1/sessions/nav/controllers/nav/push",
            #"{"viewController": {"id": "detail", "title": "Detail", "transitioningDelegate": {"name": "Fade", "duration": 0.5}, "traitOverrides": {"horizontalSizeClass": "regular"}}}"#
        ),
        (
            "POST", "/v1/sessions/nav/controllers/detail/present",
            #"{"viewController": {"id": "sheet", "modalPresentationStyle": "formSheet", "presentationDelegate": {"shouldDismiss": false}, "preferredContentSize": [320, 480], "isModalInPresentation": true}}"#
        ),
        ("PATCH", "/v1/sessions/nav/controllers/sheet", #"{"title": "Sheet", "isModalInPresentation": false, "tabBarDelegate": null, "preferredContentSize": [100, 200]}"#),
        ("POST", "/v1/sessions/nav/controllers/sheet/interactiveDismiss", #"{"completes": true}"#),
        (
            "POST", "/v1/sessions/nav/controllers/sheet/present",
            #"{"viewController": {"id": "over", "modalPresentationStyle": "overCurrentContext", "modalTransitionStyle": "crossDissolve"}}"#
        ),
        ("POST", "/v1/sessions/nav/controllers/over/dismiss", #"{"animated": false}"#),
        (
            "POST", "/v1/sessions/nav/turns",
            #"{"operations": [{"controller": "nav", "operation": "push", "viewController": {"id": "t1"}}, {"controller": "nav", "operation": "push", "viewController": {"id": "t2"}, "animated": false}, {"controller": "nav", "operation": "popToRoot"}]}"#
        ),
        (
            "POST", "/v1/sessions",
            #"{"id": "tabs", "root": {"id": "tb", "kind": "tabBarController", "tabBarDelegate": {"shouldSelect": true}, "viewControllers": [{"id": "tab0"}, {"id": "tab1"}, {"id": "tab2"}, {"id": "tab3"}, {"id": "tab4"}, {"id": "tab5"}, {"id": "navtab", "kind": "navigationController", "navigationDelegate": {}, "viewControllers": [{"id": "nr"}]}]}}"#
        ),
        ("POST", "/v1/sessions/tabs/controllers/tb/select", #"{"index": 6}"#),
        ("POST", "/v1/sessions/tabs/controllers/tb/tapTab", #"{"index": 1}"#),
        ("POST", "/v1/sessions/tabs/controllers/navtab/push", #"{"viewController": {"id": "deep"}}"#),
        (
            "POST", "/v1/sessions",
            #"{"id": "split", "traits": {"userInterfaceIdiom": "pad"}, "root": {"id": "sp", "kind": "splitViewController", "style": "doubleColumn", "splitDelegate": {"topColumnForCollapsing": "primary"}, "primary": {"id": "list"}, "secondary": {"id": "detail"}}}"#
        ),
        ("POST", "/v1/sessions/split/controllers/list/showDetail", #"{"viewController": {"id": "detail2"}}"#),
        ("PATCH", "/v1/sessions/split", #"{"traits": {"horizontalSizeClass": "compact"}}"#),
        (
            "POST", "/v1/sessions",
            #"{"id": "classic", "root": {"id": "cs", "kind": "splitViewController", "splitDelegate": {"collapseSecondaryOntoPrimary": true}, "viewControllers": [{"id": "p"}, {"id": "s"}]}}"#
        ),
        ("POST", "/v1/sessions", #"{"id": "sb", "root": {"storyboard": "Segues", "identifier": "A"}}"#),
        ("POST", "/v1/sessions/sb/controllers/A/triggerSegue", #"{"segue": "toB"}"#),
        ("POST", "/v1/sessions/sb/controllers/B/dismiss", "{}"),
        ("POST", "/v1/sessions/sb/controllers/A/performSegue", #"{"identifier": "toB"}"#),
        (
            "POST", "/v1/sessions",
            #"{"id": "pages", "options": {"iOS": "12"}, "root": {"id": "pv", "kind": "pageViewController", "transitionStyle": "pageCurl", "spineLocation": "mid", "viewControllers": [{"id": "pg1"}, {"id": "pg2"}]}}"#
        ),
        ("POST", "/v1/sessions/pages/controllers/pv/setViewControllers", #"{"viewControllers": [{"id": "pg3"}, {"id": "pg4"}], "direction": "reverse"}"#),
        (
            "POST", "/v1/sessions/pages/controllers/pv/present",
            #"{"viewController": {"id": "alert", "kind": "alertController", "preferredStyle": "actionSheet"}, "popover": {"sourceView": "button", "sourceRect": [0, 0, 10, 10]}}"#
        ),
        ("POST", "/v1/sessions/pages/controllers/pv/addChild", #"{"viewController": {"id": "kid"}}"#),
        ("POST", "/v1/sessions/pages/controllers/kid/didMove", #"{"toParent": "pv"}"#),
        (
            "POST", "/v1/sessions",
            #"{"id": "manual", "options": {"transitions": "manual", "navTransitionPolicy": "queue"}, "root": {"id": "mnav", "kind": "navigationController", "navigationDelegate": {}, "viewControllers": [{"id": "m0"}]}}"#
        ),
        ("POST", "/v1/sessions/manual/controllers/mnav/push", #"{"viewController": {"id": "m1"}}"#),
        ("POST", "/v1/sessions/manual/controllers/mnav/push", #"{"viewController": {"id": "m2"}}"#),
        ("POST", "/v1/sessions/manual/transitions/complete", "{}"),
        ("POST", "/v1/sessions/manual/controllers/m0/present", #"{"viewController": {"id": "modal", "transitioningDelegate": {"name": "Slide", "duration": 0.25}}}"#),
        ("POST", "/v1/sessions/manual/controllers/mnav/pop", "{}"),
    ]

    static let sessions = ["nav", "tabs", "split", "classic", "sb", "pages", "manual"]

    /// Builds the sessions above on `h`; answers every reply a client can read back.
    static func populate(_ h: ServiceHarness) throws {
        let xml = try String(
            contentsOf: ServiceFiles.root.appendingPathComponent("Tests/Flows/storyboards/segues-1.storyboard"),
            encoding: .utf8)
        let upload = h.send("PUT", "/v1/storyboards/Segues", xml, contentType: "application/xml")
        #expect(upload.status == 201 || upload.status == 200, "\(upload)")
        for (method, path, body) in requests {
            let reply = h.send(method, path, body)
            #expect(reply.status < 300, "\(method) \(path): \(reply)")
        }
    }

    /// Every GET the fixture pins, for these sessions: each version, the history and a page of it.
    static func readBack(_ h: ServiceHarness) throws -> [(String, Int, String)] {
        var paths = ["/v1/sessions"]
        for sid in sessions {
            let now = try JSON.parse(h.send("GET", "/v1/sessions/\(sid)").body)
            let version = Int(try #require(now["version"]?.number))
            paths += (0...version).map { "/v1/sessions/\(sid)?version=\($0)" }
            paths += ["/v1/sessions/\(sid)", "/v1/sessions/\(sid)/history", "/v1/sessions/\(sid)/history?after=1&limit=2"]
        }
        return paths.map { path in
            let r = h.send("GET", path)
            return (path, r.status, String(decoding: r.body, as: UTF8.self))
        }
    }

    static func liveStates(_ h: ServiceHarness) throws -> [String: SessionState] {
        let service = try #require(h.service)
        var states: [String: SessionState] = [:]
        for sid in sessions {
            states[sid] = try #require(try? service.sessions.box(sid)?.withLock { .success($0?.state) }.get())
        }
        return states
    }

    @Test("A session written by this code, reopened, reads back identically (sessions, every version, history pages)")
    func writtenSessionsReadBackIdentically() throws {
        let h = try ServiceHarness()
        try Self.populate(h)
        let manual = try #require(try Self.liveStates(h)["manual"])
        #expect(!manual.transitions.isEmpty, "the manual session keeps running transitions in its row")
        let before = try Self.readBack(h)
        let statesBefore = try Self.liveStates(h)
        #expect(before.count > 40)
        #expect(before.allSatisfy { $0.1 == 200 }, "\(before.filter { $0.1 != 200 }.map(\.0))")

        try h.restart()
        let statesAfter = try Self.liveStates(h)
        for sid in Self.sessions { #expect(statesAfter[sid] == statesBefore[sid], "session \(sid) after reopening") }
        let after = try Self.readBack(h)
        #expect(after.count == before.count)
        for (b, a) in zip(before, after) where b.1 != a.1 || b.2 != a.2 {
            Issue.record("GET \(b.0) differs after reopening: \(a.1) vs \(b.1)")
        }
        // Each replayed version equals itself through a second reopening, and the last equals the live state.
        let service = try #require(h.service)
        for sid in Self.sessions {
            let version = try #require(try? service.sessions.box(sid)?.withLock { .success($0?.version) }.get())
            #expect(try service.replay(sid, to: version) == statesAfter[sid], "replaying \(sid) to its version")
        }
    }

    @Test("Every row this release writes says it is the current format")
    func rowsCarryTheirFormat() throws {
        let h = try ServiceHarness()
        try Self.populate(h)
        let service = try #require(h.service)
        let stored = try service.sqlite.loadSessions()
        #expect(stored.count == Self.sessions.count)
        #expect(stored.allSatisfy { $0.session.format == StoredFormat.current })
        #expect(stored.flatMap(\.controllers).allSatisfy { $0.format == StoredFormat.current })
        let history = try service.sqlite.history(session: "nav", after: -1, limit: 100)
        #expect(history.count == 8 && history.allSatisfy { $0.format == StoredFormat.current })
    }

    @Test("Each stored type maps back to the domain value it was made from")
    func mappingIsFaithful() throws {
        let h = try ServiceHarness()
        try Self.populate(h)
        for (sid, state) in try Self.liveStates(h) {
            let text = try Persistence.text(StoredSessionState(state, withControllers: true))
            let back = try Persistence.decode(StoredSessionState.self, text, format: 1).domain()
            #expect(back == state, "session \(sid)")
        }
        let service = try #require(h.service)
        for sid in Self.sessions {
            for row in try service.sqlite.history(session: sid, after: 0, limit: 100) {
                let turn = try Persistence.decodeTurn(row)
                #expect(try Persistence.commandText(turn.commands, resolvedSegues: turn.segues) == row.command, "\(sid) v\(row.version)")
            }
        }
    }

    @Test("R90: a split written before the column members existed reads with none, and no delegate")
    func splitWrittenBeforeColumnStyles() throws {
        let old = #"{"style": "unspecified", "primary": "N1", "secondary": "D", "isCollapsed": false}"#
        let split = try Persistence.decode(StoredSplit.self, old, format: 1).domain()
        #expect(split.primary == "N1" && split.secondary == "D" && split.style == .unspecified)
        #expect(split.primaryNavigation == nil && split.topColumnForCollapsing == nil)
        #expect(split.collapsedSecondary == [] && split.collapsedSupplementary == [] && !split.hasDelegate)
        let spec = try Persistence.decode(
            StoredControllerSpec.self, #"{"kind": "splitViewController", "appendsSuffixWhenTaken": false}"#,
            format: 1
        ).domain()
        #expect(spec.kind == .splitViewController && spec.topColumnForCollapsing == nil && spec.configuration.isEmpty)
    }

    @Test("A spec stored before `~` ids keeps making `#2`; a new one round-trips `~`")
    func specSuffixSeparatorAcrossFormats() throws {
        let old = try Persistence.decode(
            StoredControllerSpec.self,
            #"{"appendsSuffixWhenTaken":true,"id":"B","kind":"viewController"}"#, format: 1
        ).domain()
        #expect(old.suffixSeparator == "#")
        var spec = ControllerSpec(id: "B")
        spec.appendsSuffixWhenTaken = true
        let text = try Persistence.text(StoredControllerSpec(spec))
        #expect(try Persistence.decode(StoredControllerSpec.self, text, format: 1).domain().suffixSeparator == "~")
    }

    @Test("R81: options written before navTransitionPolicy existed read as queue")
    func optionsWrittenBeforeThePolicy() throws {
        let options = try Persistence.decode(StoredOptions.self, #"{"iOS": "12", "transitions": "manual"}"#, format: 1).domain()
        #expect(options == Options(iOS: .iOS12, transitions: .manual, navTransitionPolicy: .queue))
    }

    @Test("R21: a controller row without configuration members gets the kind's defaults")
    func controllerWrittenBeforeItsProperties() throws {
        var stored = StoredController(Controller(id: "n", kind: .navigationController))
        stored.configuration = StoredConfiguration(values: ControllerConfiguration(), present: ["title"])
        let text = try Persistence.text(stored)
        #expect(!text.contains("definesPresentationContext") && !text.contains("prefersStatusBarHidden"))
        let c = try Persistence.decode(StoredController.self, text, format: 1).domain()
        #expect(c.definesPresentationContext && !c.prefersStatusBarHidden && c.modalPresentationStyle == .automatic)
    }

    @Test("A row of a format this release does not know, or with a value the core has no case for, is an error")
    func unreadableRowsAreErrors() throws {
        let text = try Persistence.text(StoredController(Controller(id: "a", kind: .viewController)))
        #expect(throws: StoredFormatError.unsupportedFormat(2)) { try Persistence.decode(StoredController.self, text, format: 2) }
        let unknown = text.replacingOccurrences(of: #""kind":"viewController""#, with: #""kind":"hostingController""#)
        #expect(unknown != text)
        #expect(throws: StoredFormatError.unknownValue(type: "ControllerKind", value: "hostingController")) {
            try Persistence.decode(StoredController.self, unknown, format: 1).domain()
        }
    }
}

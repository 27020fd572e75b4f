import JSONValues
import Testing

/// Column-style split view controllers at the HTTP face, as a new user's trial found them: the
/// containment calls of a collapse and an expansion (R171), the delegate asked after the split's
/// view loads (R170), the iOS 14 API refused on iOS 12 (R172), a double-column split's ignored
/// supplementary column (R173), a PATCH of the split delegate (R174) and a no-op column call's
/// history entry (R121). Every session names its iOS release.
@Suite("split view follow-ups over HTTP")
struct SplitFollowUpServiceTests {
    func events(_ reply: ServiceReply) -> [String] {
        (reply["events"]?.array ?? []).map { "\($0["controller"]?.string ?? "?").\($0["callback"]?.string ?? "?")" }
    }

    func parent(_ reply: ServiceReply, _ event: String) -> String? {
        let all = reply["events"]?.array ?? []
        return all.first { "\($0["controller"]?.string ?? "?").\($0["callback"]?.string ?? "?")" == event }?["parent"]?.string
    }

    func index(_ list: [String], _ event: String) -> Int { list.firstIndex(of: event) ?? Int.max }

    static let double = #"""
        {"id": "s", "options": {"iOS": "17"}, "traits": {"userInterfaceIdiom": "pad"},
         "root": {"id": "sp", "kind": "splitViewController", "style": "doubleColumn", "splitDelegate": {"topColumnForCollapsing": "secondary"},
                  "primary": {"id": "list"}, "secondary": {"id": "detail"}}}
        """#

    @Test("R171: a column-style collapse and expansion send willMove/didMove to the controllers that change parent")
    func collapseAndExpandSendContainmentCalls() throws {
        let h = try ServiceHarness()
        #expect(h.send("POST", "/v1/sessions", Self.double).status == 201)

        let collapsed = h.send("PATCH", "/v1/sessions/s", #"{"traits": {"horizontalSizeClass": "compact"}}"#)
        #expect(collapsed.status == 200, "\(collapsed)")
        let down = events(collapsed)
        #expect(parent(collapsed, "detail.willMoveToParent") == "sp.primary", "\(down)")
        #expect(parent(collapsed, "detail.didMoveToParent") == "sp.primary", "\(down)")
        #expect(index(down, "sp.splitViewControllerTopColumnForCollapsing") < index(down, "detail.willMoveToParent"), "\(down)")
        #expect(index(down, "detail.willMoveToParent") < index(down, "detail.didMoveToParent"), "\(down)")
        #expect(index(down, "detail.didMoveToParent") < index(down, "sp.splitViewControllerDidCollapse"), "\(down)")
        // The primary column covers the list with the detail, and the secondary column leaves.
        #expect(down.contains("list.viewWillDisappear") && down.contains("list.viewDidDisappear"), "\(down)")
        #expect(down.contains("sp.secondary.viewWillDisappear") && down.contains("sp.secondary.viewDidDisappear"), "\(down)")
        #expect(collapsed["session"]?["controllers"]?["detail"]?["parent"]?.string == "sp.primary", "\(collapsed)")

        let expanded = h.send("PATCH", "/v1/sessions/s", #"{"traits": {"horizontalSizeClass": "regular"}}"#)
        #expect(expanded.status == 200, "\(expanded)")
        let up = events(expanded)
        #expect(parent(expanded, "detail.willMoveToParent") == "sp.secondary", "\(up)")
        #expect(parent(expanded, "detail.didMoveToParent") == "sp.secondary", "\(up)")
        #expect(index(up, "sp.splitViewControllerDisplayModeForExpanding") < index(up, "detail.willMoveToParent"), "\(up)")
        #expect(index(up, "detail.didMoveToParent") < index(up, "sp.splitViewControllerDidExpand"), "\(up)")
        #expect(up.contains("list.viewWillAppear") && up.contains("sp.secondary.viewWillAppear"), "\(up)")
    }

    @Test("R170: a split entering a compact window is asked after its viewDidLoad, column style and classic")
    func delegateAskedAfterTheSplitsViewLoads() throws {
        let h = try ServiceHarness()
        let column = h.send(
            "POST", "/v1/sessions",
            #"""
            {"id": "c", "options": {"iOS": "17"}, "traits": {"userInterfaceIdiom": "phone"},
             "root": {"id": "sp", "kind": "splitViewController", "style": "doubleColumn", "splitDelegate": {"topColumnForCollapsing": "secondary"},
                      "primary": {"id": "list"}, "secondary": {"id": "detail"}}}
            """#)
        #expect(column.status == 201, "\(column)")
        let made = events(column)
        #expect(made.contains("sp.splitViewControllerTopColumnForCollapsing"), "\(made)")
        #expect(index(made, "sp.viewDidLoad") < index(made, "sp.splitViewControllerTopColumnForCollapsing"), "\(made)")
        #expect(index(made, "sp.splitViewControllerTopColumnForCollapsing") < index(made, "sp.viewWillAppear"), "\(made)")
        #expect(index(made, "detail.willMoveToParent") < index(made, "detail.didMoveToParent"), "\(made)")

        let classic = h.send(
            "POST", "/v1/sessions",
            #"""
            {"id": "k", "options": {"iOS": "17"}, "traits": {"userInterfaceIdiom": "phone"},
             "root": {"id": "cs", "kind": "splitViewController", "splitDelegate": {"collapseSecondaryOntoPrimary": false},
                      "primary": {"id": "nav", "kind": "navigationController", "viewControllers": [{"id": "m"}]},
                      "secondary": {"id": "d"}}}
            """#)
        #expect(classic.status == 201, "\(classic)")
        let launched = events(classic)
        #expect(index(launched, "cs.viewDidLoad") < index(launched, "cs.splitViewControllerPrimaryForCollapsing"), "\(launched)")
        #expect(
            index(launched, "cs.splitViewControllerPrimaryForCollapsing") < index(launched, "cs.splitViewControllerCollapseSecondary"),
            "\(launched)")
    }

    @Test("R172: an iOS 12 session refuses the iOS 14 split API in specs and operations, nothing changed")
    func iOS12RefusesColumnSplits() throws {
        let h = try ServiceHarness()
        let spec = h.send(
            "POST", "/v1/sessions",
            #"{"id": "old", "options": {"iOS": "12"}, "root": {"id": "sp", "kind": "splitViewController", "style": "tripleColumn"}}"#)
        #expect(spec.status == 422 && spec["detail"]?.string?.contains("options.iOS") == true, "\(spec)")
        #expect(spec["field"]?.string?.hasSuffix("style") == true, "\(spec)")

        let classic = #"""
            {"id": "old", "options": {"iOS": "12"}, "traits": {"userInterfaceIdiom": "pad"},
             "root": {"id": "sp", "kind": "splitViewController", "primary": {"id": "m"}, "secondary": {"id": "d"}}}
            """#
        #expect(h.send("POST", "/v1/sessions", classic).status == 201)
        let before = h.send("GET", "/v1/sessions/old")["version"]
        for (op, body) in [("showColumn", #"{"column": "primary"}"#), ("hideColumn", #"{"column": "primary"}"#)] {
            let refused = h.send("POST", "/v1/sessions/old/controllers/sp/\(op)", body)
            #expect(refused.status == 422 && refused["detail"]?.string?.contains("iOS 14") == true, "\(op): \(refused)")
            #expect(refused["detail"]?.string?.contains("options.iOS") == true, "\(op): \(refused)")
        }
        let created = h.send(
            "POST", "/v1/sessions/old/controllers",
            #"{"id": "cols", "kind": "splitViewController", "style": "doubleColumn", "primary": {"id": "p"}}"#)
        #expect(created.status == 422 && created["detail"]?.string?.contains("options.iOS") == true, "\(created)")
        let visibility = h.send("PATCH", "/v1/sessions/old/controllers/sp", #"{"displayModeButtonVisibility": "always"}"#)
        #expect(visibility.status == 422 && visibility["field"]?.string == "displayModeButtonVisibility", "\(visibility)")
        let inSpec = h.send(
            "POST", "/v1/sessions/old/controllers", #"{"id": "v", "kind": "splitViewController", "displayModeButtonVisibility": "never"}"#)
        #expect(inSpec.status == 422 && inSpec["detail"]?.string?.contains("options.iOS") == true, "\(inSpec)")
        #expect(h.send("GET", "/v1/sessions/old")["version"] == before)
        #expect(h.send("GET", "/v1/sessions/old/controllers/p").status == 404)
    }

    @Test("R173: a double-column split ignores a supplementary controller, and the reply says so")
    func doubleColumnSupplementaryIsIgnoredWithAWarning() throws {
        let h = try ServiceHarness()
        let made = h.send(
            "POST", "/v1/sessions",
            #"""
            {"id": "w", "options": {"iOS": "17"}, "traits": {"userInterfaceIdiom": "pad"},
             "root": {"id": "sp", "kind": "splitViewController", "style": "doubleColumn",
                      "primary": {"id": "list"}, "supplementary": {"id": "extra"}, "secondary": {"id": "detail"}}}
            """#)
        #expect(made.status == 201, "\(made)")
        let warnings = made["warnings"]?.array ?? []
        #expect(warnings.count == 1, "\(made)")
        #expect(warnings.first?["type"]?.string == "/v1/problems/supplementary-column-ignored", "\(made)")
        #expect(warnings.first?["detail"]?.string?.contains("extra") == true, "\(made)")
        // UIKit ignores it: the controller exists, outside every hierarchy, and the column is empty.
        #expect(made["controllers"]?["extra"]?["parent"] == .null, "\(made)")
        #expect(made["controllers"]?["sp"]?["supplementary"] == .null, "\(made)")
    }

    @Test("R174: splitDelegate is PATCHed like the other delegates: set, removed, kept across a restart and a replay")
    func splitDelegateIsPatchable() throws {
        let h = try ServiceHarness()
        let plain = #"""
            {"id": "p", "options": {"iOS": "17"}, "traits": {"userInterfaceIdiom": "pad"},
             "root": {"id": "sp", "kind": "splitViewController", "style": "doubleColumn",
                      "primary": {"id": "list"}, "secondary": {"id": "detail"}}}
            """#
        #expect(h.send("POST", "/v1/sessions", plain).status == 201)
        let set = h.send("PATCH", "/v1/sessions/p/controllers/sp", #"{"splitDelegate": {"topColumnForCollapsing": "primary"}}"#)
        #expect(set.status == 200, "\(set)")
        try h.restart()
        let collapsed = h.send("PATCH", "/v1/sessions/p", #"{"traits": {"horizontalSizeClass": "compact"}}"#)
        let down = events(collapsed)
        #expect(down.contains("sp.splitViewControllerTopColumnForCollapsing") && down.contains("sp.splitViewControllerDidCollapse"), "\(down)")
        // The delegate answered `primary`: nothing merges, the detail stays in its column.
        #expect(collapsed["session"]?["controllers"]?["detail"]?["parent"]?.string == "sp.secondary", "\(collapsed)")

        let removed = h.send("PATCH", "/v1/sessions/p/controllers/sp", #"{"splitDelegate": null}"#)
        #expect(removed.status == 200, "\(removed)")
        let up = events(h.send("PATCH", "/v1/sessions/p", #"{"traits": {"horizontalSizeClass": "regular"}}"#))
        #expect(!up.isEmpty && !up.contains { $0.hasPrefix("sp.splitViewController") }, "\(up)")

        // Refusals name the field and change nothing.
        let before = h.send("GET", "/v1/sessions/p")["version"]
        let wrongKind = h.send("PATCH", "/v1/sessions/p/controllers/list", #"{"splitDelegate": {}}"#)
        #expect(wrongKind.status == 422 && wrongKind["field"]?.string == "splitDelegate", "\(wrongKind)")
        let wrongColumn = h.send("PATCH", "/v1/sessions/p/controllers/sp", #"{"splitDelegate": {"topColumnForCollapsing": "inspector"}}"#)
        #expect(
            wrongColumn.status == 422 && wrongColumn["field"]?.string == "splitDelegate.topColumnForCollapsing", "\(wrongColumn)")
        #expect(h.send("GET", "/v1/sessions/p")["version"] == before)

        // The history replays the PATCHes: a replay rebuilds the same controllers.
        if let version = before?.number {
            let stored = h.send("GET", "/v1/sessions/p?version=\(Int(version))")
            let replayed = h.send("GET", "/v1/sessions/p?version=\(Int(version))&replay=true")
            #expect(stored.status == 200 && replayed["controllers"] == stored["controllers"], "\(replayed)")
        } else {
            Issue.record("no version")
        }
    }

    @Test("R121: a column call that changes nothing still adds its one history entry, as every 2xx change does")
    func noOpColumnCallIsOneHistoryEntry() throws {
        let h = try ServiceHarness()
        #expect(h.send("POST", "/v1/sessions", Self.double).status == 201)
        let again = h.send("POST", "/v1/sessions/s/controllers/sp/showColumn", #"{"column": "primary"}"#)
        #expect(again.status == 200 && again["version"]?.number == 1, "\(again)")
        #expect(again["events"]?.array == [] && again["transition"] == .null, "\(again)")
        let history = h.send("GET", "/v1/sessions/s/history?after=0")
        #expect(history.status == 200 && history["entries"]?.array?.count == 1, "\(history)")
    }
}

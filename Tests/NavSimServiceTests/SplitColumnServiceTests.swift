import JSONValues
import Testing

/// Split view controllers at the HTTP face: `showColumn`/`hideColumn` with the delegate's
/// `willShow`/`willHide` and the display mode (R121), the classic delegate's `show`/`showDetail`
/// answers (R122), their refusals, and both kept across a restart and a replay.
@Suite("split columns and the classic split delegate over HTTP")
struct SplitColumnServiceTests {
    func events(_ reply: ServiceReply) -> [String] {
        (reply["events"]?.array ?? []).map { "\($0["controller"]?.string ?? "?").\($0["callback"]?.string ?? "?")" }
    }

    let triple = #"""
        {"id": "s", "traits": {"userInterfaceIdiom": "pad"},
         "root": {"id": "sp", "kind": "splitViewController", "style": "tripleColumn", "splitDelegate": {},
                  "primary": {"id": "boxes"}, "supplementary": {"id": "list"}, "secondary": {"id": "mail"}}}
        """#

    @Test func showAndHideColumnsThroughTheRoutes() throws {
        let h = try ServiceHarness()
        let made = h.send("POST", "/v1/sessions", triple)
        #expect(made.status == 201, "\(made)")
        #expect(made["controllers"]?["sp"]?["displayMode"]?.string == "twoBesideSecondary", "\(made)")

        // Sent to the secondary's content: its splitViewController receives it.
        let hidden = h.send("POST", "/v1/sessions/s/controllers/mail/hideColumn", #"{"column": "primary"}"#)
        #expect(hidden.status == 200, "\(hidden)")
        #expect(
            events(hidden) == [
                "sp.splitViewControllerWillHide", "sp.primary.viewWillDisappear", "boxes.viewWillDisappear",
                "sp.primary.viewDidDisappear", "boxes.viewDidDisappear",
            ], "\(hidden)")
        #expect(hidden["events"]?.array?.first?["column"]?.string == "primary", "\(hidden)")
        #expect(hidden["transition"]?["operation"]?.string == "hideColumn", "\(hidden)")
        #expect(hidden["session"]?["controllers"]?["sp"]?["displayMode"]?.string == "oneBesideSecondary", "\(hidden)")
        #expect(hidden["session"]?["controllers"]?["boxes"]?["appearance"]?.string == "disappeared", "\(hidden)")

        // Refusals name the field and change nothing.
        let before = h.send("GET", "/v1/sessions/s")
        for (op, body) in [
            ("hideColumn", #"{"column": "secondary"}"#), ("showColumn", #"{"column": "compact"}"#), ("showColumn", "{}"),
        ] {
            let refused = h.send("POST", "/v1/sessions/s/controllers/sp/\(op)", body)
            #expect(refused.status == 422 && refused["field"]?.string == "column", "\(op) \(body): \(refused)")
        }
        #expect(h.send("GET", "/v1/sessions/s")["version"] == before["version"])

        // The display mode is stored: a restart keeps it, and showing the primary brings it back.
        try h.restart()
        #expect(h.send("GET", "/v1/sessions/s/controllers/sp")["displayMode"]?.string == "oneBesideSecondary")
        let shown = h.send("POST", "/v1/sessions/s/controllers/sp/showColumn", #"{"column": "primary"}"#)
        #expect(shown.status == 200 && events(shown).first == "sp.splitViewControllerWillShow", "\(shown)")
        #expect(shown["session"]?["controllers"]?["boxes"]?["appearance"]?.string == "appeared", "\(shown)")

        // History keeps both operations: a replay rebuilds the same controllers.
        if let version = shown["version"]?.number {
            let stored = h.send("GET", "/v1/sessions/s?version=\(Int(version))")
            let replayed = h.send("GET", "/v1/sessions/s?version=\(Int(version))&replay=true")
            #expect(stored.status == 200 && replayed.status == 200, "\(stored) \(replayed)")
            #expect(replayed["controllers"] == stored["controllers"], "\(replayed)")
        } else {
            Issue.record("no version in \(shown)")
        }
    }

    @Test func columnOperationsNeedAColumnStyleSplit() throws {
        let h = try ServiceHarness()
        #expect(
            h.send(
                "POST", "/v1/sessions",
                #"{"id": "c", "traits": {"userInterfaceIdiom": "pad"}, "root": {"id": "sp", "kind": "splitViewController", "primary": {"id": "m"}, "secondary": {"id": "d"}}}"#
            ).status == 201)
        let classic = h.send("POST", "/v1/sessions/c/controllers/sp/showColumn", #"{"column": "primary"}"#)
        #expect(classic.status == 422 && classic["detail"]?.string?.contains("classic") == true, "\(classic)")
        #expect(h.send("POST", "/v1/sessions", #"{"id": "n", "root": {"id": "nav", "kind": "navigationController"}}"#).status == 201)
        let none = h.send("POST", "/v1/sessions/n/controllers/nav/hideColumn", #"{"column": "primary"}"#)
        #expect(none.status == 422 && none["detail"]?.string?.contains("splitViewController") == true, "\(none)")
    }

    @Test func classicDelegateTakesOverShowDetail() throws {
        let h = try ServiceHarness()
        let made = h.send(
            "POST", "/v1/sessions",
            #"{"id": "c", "traits": {"userInterfaceIdiom": "pad"}, "root": {"id": "sp", "kind": "splitViewController", "splitDelegate": {"showDetail": true, "show": false}, "primary": {"id": "m"}, "secondary": {"id": "d"}}}"#
        )
        #expect(made.status == 201, "\(made)")
        let bad = h.send(
            "POST", "/v1/sessions",
            #"{"id": "x", "root": {"kind": "splitViewController", "splitDelegate": {"showDetail": "yes"}}}"#)
        #expect(bad.status == 422 && bad["field"]?.string == "root.splitDelegate.showDetail", "\(bad)")
        try h.restart()
        let taken = h.send("POST", "/v1/sessions/c/controllers/m/showDetail", #"{"viewController": {"id": "other"}}"#)
        #expect(taken.status == 200 && events(taken) == ["sp.splitViewControllerShowDetail"], "\(taken)")
        #expect(taken["transition"]?.isNull ?? false, "\(taken)")
        #expect(taken["session"]?["controllers"]?["sp"]?["secondary"]?.string == "d", "\(taken)")
        let shown = h.send("POST", "/v1/sessions/c/controllers/m/show", #"{"viewController": {"id": "folders"}}"#)
        #expect(shown.status == 200 && events(shown).first == "sp.splitViewControllerShow", "\(shown)")
        #expect(shown["session"]?["controllers"]?["sp"]?["primary"]?.string == "folders", "\(shown)")
    }

    @Test func compactColumnAndDisplayModeButtonVisibility() throws {
        let h = try ServiceHarness()
        let made = h.send(
            "POST", "/v1/sessions",
            #"{"id": "c", "traits": {"userInterfaceIdiom": "pad"}, "root": {"id": "sp", "kind": "splitViewController", "style": "doubleColumn", "displayModeButtonVisibility": "never", "primary": {"id": "m"}, "secondary": {"id": "d"}, "compact": {"id": "tabs"}}}"#
        )
        #expect(made.status == 201, "\(made)")
        let sp = made["controllers"]?["sp"]
        #expect(sp?["compact"]?.string == "tabs" && sp?["displayModeButtonVisibility"]?.string == "never", "\(made)")
        #expect(made["controllers"]?["tabs"]?["parent"]?.string == "sp", "\(made)")
        // A split without them lists neither.
        let plain = h.send(
            "POST", "/v1/sessions",
            #"{"id": "p", "root": {"id": "sp", "kind": "splitViewController", "style": "doubleColumn", "primary": {"id": "m"}}}"#)
        #expect(plain["controllers"]?["sp"]?["compact"] == nil && plain["controllers"]?["sp"]?["displayModeButtonVisibility"] == nil, "\(plain)")

        // Collapsed, the compact column shows instead of the columns, across a restart.
        try h.restart()
        let collapsed = h.send("PATCH", "/v1/sessions/c", #"{"traits": {"horizontalSizeClass": "compact"}}"#)
        #expect(collapsed.status == 200, "\(collapsed)")
        let session = h.send("GET", "/v1/sessions/c")
        #expect(session["window"]?["visibleViewController"]?.string == "tabs", "\(session)")
        #expect(session["controllers"]?["sp.primary"]?["viewControllers"]?.array?.count == 1, "\(session)")

        // The property is set and cleared at run time; a value with no case is 422.
        let patched = h.send("PATCH", "/v1/sessions/c/controllers/sp", #"{"displayModeButtonVisibility": "always"}"#)
        #expect(patched["session"]?["controllers"]?["sp"]?["displayModeButtonVisibility"]?.string == "always", "\(patched)")
        let cleared = h.send("PATCH", "/v1/sessions/c/controllers/sp", #"{"displayModeButtonVisibility": null}"#)
        #expect(cleared.status == 200, "\(cleared)")
        #expect(h.send("GET", "/v1/sessions/c/controllers/sp")["displayModeButtonVisibility"] == nil)
        let bad = h.send("PATCH", "/v1/sessions/c/controllers/sp", #"{"displayModeButtonVisibility": "sometimes"}"#)
        #expect(bad.status == 422 && bad["field"]?.string == "displayModeButtonVisibility", "\(bad)")
        // It is UISplitViewController's property: on another kind, in a PATCH or a new controller, 422.
        let other = h.send("PATCH", "/v1/sessions/c/controllers/m", #"{"displayModeButtonVisibility": "always"}"#)
        #expect(other.status == 422 && other["field"]?.string == "displayModeButtonVisibility", "\(other)")
        let loose = h.send("POST", "/v1/sessions/c/controllers", #"{"id": "loose", "displayModeButtonVisibility": "always"}"#)
        #expect(loose.status == 422 && loose["field"]?.string?.hasSuffix("displayModeButtonVisibility") == true, "\(loose)")

        // A classic split has no compact column.
        let classic = h.send(
            "POST", "/v1/sessions", #"{"id": "x", "root": {"kind": "splitViewController", "primary": {"id": "m"}, "compact": {"id": "t"}}}"#)
        #expect(classic.status == 422 && classic["field"]?.string?.hasSuffix("compact") == true, "\(classic)")
    }

    @Test func inspectorColumnOnIOS26() throws {
        let h = try ServiceHarness()
        let spec =
            #"{"id": "sp", "kind": "splitViewController", "style": "doubleColumn", "splitDelegate": {}, "#
            + #""primary": {"id": "m"}, "secondary": {"id": "d"}, "inspector": {"id": "info"}}"#
        let old = h.send("POST", "/v1/sessions", #"{"id": "old", "options": {"iOS": "17"}, "traits": {"userInterfaceIdiom": "pad"}, "root": \#(spec)}"#)
        #expect(old.status == 422 && old["field"]?.string?.hasSuffix("inspector") == true, "\(old)")
        let made = h.send("POST", "/v1/sessions", #"{"id": "new", "options": {"iOS": "26"}, "traits": {"userInterfaceIdiom": "pad"}, "root": \#(spec)}"#)
        #expect(made.status == 201, "\(made)")
        #expect(made["controllers"]?["sp"]?["inspector"]?.string == "info" && made["controllers"]?["sp"]?["isShowingInspector"]?.bool == false, "\(made)")
        try h.restart()
        let shown = h.send("POST", "/v1/sessions/new/controllers/sp/showColumn", #"{"column": "inspector"}"#)
        #expect(shown.status == 200 && events(shown).first == "sp.splitViewControllerWillShow", "\(shown)")
        #expect(shown["events"]?.array?.first?["column"]?.string == "inspector", "\(shown)")
        #expect(shown["session"]?["controllers"]?["info"]?["appearance"]?.string == "appeared", "\(shown)")
        #expect(shown["session"]?["controllers"]?["sp"]?["isShowingInspector"]?.bool == true, "\(shown)")
        let top = h.send(
            "POST", "/v1/sessions",
            #"{"id": "t", "root": {"kind": "splitViewController", "style": "doubleColumn", "splitDelegate": {"topColumnForCollapsing": "inspector"}}}"#)
        #expect(top.status == 422 && top["field"]?.string == "root.splitDelegate.topColumnForCollapsing", "\(top)")
    }
}

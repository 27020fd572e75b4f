import JSONValues
import Testing

/// R130–R133 at the HTTP face: `pageDataSource`, `pageDelegate` and `customizableViewControllers`
/// on a spec and a PATCH, the `turnPage` and `customizeTabs` routes and their delegate events with
/// UIKit's argument names, bad bodies, and both kept across a restart and in a replayed history.
@Suite("page turns and tab customizing over HTTP")
struct PageTurnServiceTests {
    func events(_ reply: ServiceReply) -> [String] {
        (reply["events"]?.array ?? []).map { "\($0["controller"]?.string ?? "?").\($0["callback"]?.string ?? "?")" }
    }

    func strings(_ value: JSON?) -> [String]? { value?.array?.compactMap(\.string) }

    func event(_ reply: ServiceReply, _ callback: String) -> JSON? {
        reply["events"]?.array?.first { $0["callback"]?.string == callback }
    }

    @Test func aSwipeCompletedAndOneGivenUp() throws {
        let h = try ServiceHarness()
        let created = h.send(
            "POST", "/v1/sessions",
            #"""
            {"id": "book", "root": {"id": "pv", "kind": "pageViewController", "viewControllers": [{"id": "p1"}],
              "pageDataSource": {"pages": ["p1", "p2", "p3"]}, "pageDelegate": {}}}
            """#)
        #expect(created.status == 201, "\(created)")
        #expect(strings(created["controllers"]?["pv"]?["pageDataSource"]?["pages"]) == ["p1", "p2", "p3"], "\(created)")
        #expect(created["controllers"]?["pv"]?["pageDelegate"]?.object != nil, "\(created)")
        #expect(h.send("POST", "/v1/sessions/book/controllers", #"{"id": "p2"}"#).status == 201)
        #expect(h.send("POST", "/v1/sessions/book/controllers", #"{"id": "p3"}"#).status == 201)

        let turned = h.send("POST", "/v1/sessions/book/controllers/pv/turnPage", #"{"direction": "forward"}"#)
        #expect(turned.status == 200, "\(turned)")
        #expect(events(turned).first == "pv.pageViewControllerWillTransitionTo", "\(turned)")
        #expect(strings(event(turned, "pageViewControllerWillTransitionTo")?["pendingViewControllers"]) == ["p2"], "\(turned)")
        let finished = event(turned, "pageViewControllerDidFinishAnimating")
        #expect(finished?["finished"]?.bool == true && finished?["transitionCompleted"]?.bool == true, "\(turned)")
        #expect(strings(finished?["previousViewControllers"]) == ["p1"], "\(turned)")
        #expect(turned["transition"]?["operation"]?.string == "turnPage", "\(turned)")
        #expect(strings(turned["session"]?["controllers"]?["pv"]?["viewControllers"]) == ["p2"], "\(turned)")

        let givenUp = h.send("POST", "/v1/sessions/book/controllers/pv/turnPage", #"{"direction": "forward", "completes": false}"#)
        #expect(givenUp.status == 200, "\(givenUp)")
        #expect(event(givenUp, "pageViewControllerDidFinishAnimating")?["transitionCompleted"]?.bool == false, "\(givenUp)")
        #expect(strings(givenUp["session"]?["controllers"]?["pv"]?["viewControllers"]) == ["p2"], "\(givenUp)")
        #expect(givenUp["transition"]?["state"]?.string == "cancelled", "\(givenUp)")

        // The pages survive a restart; a replay of the history rebuilds them.
        try h.restart()
        let back = h.send("POST", "/v1/sessions/book/controllers/pv/turnPage", #"{"direction": "reverse"}"#)
        #expect(strings(back["session"]?["controllers"]?["pv"]?["viewControllers"]) == ["p1"], "\(back)")
        guard let version = back["version"]?.number else { Issue.record("no version in \(back)"); return }
        let stored = h.send("GET", "/v1/sessions/book?version=\(Int(version))")
        let replayed = h.send("GET", "/v1/sessions/book?version=\(Int(version))&replay=true")
        #expect(stored.status == 200 && replayed.status == 200, "\(stored) \(replayed)")
        #expect(replayed["controllers"] == stored["controllers"], "\(replayed)")
    }

    @Test func badPageBodies() throws {
        let h = try ServiceHarness()
        #expect(
            h.send("POST", "/v1/sessions", #"{"id": "b", "root": {"id": "pv", "kind": "pageViewController", "viewControllers": [{"id": "p1"}]}}"#)
                .status == 201)
        let before = h.send("GET", "/v1/sessions/b")
        for (path, body, field) in [
            ("/v1/sessions/b/controllers/pv/turnPage", #"{}"#, "direction"),
            ("/v1/sessions/b/controllers/pv/turnPage", #"{"direction": "up"}"#, "direction"),
            ("/v1/sessions/b/controllers/p1/turnPage", #"{"direction": "forward"}"#, nil),
        ] {
            let r = h.send("POST", path, body)
            #expect(r.status == 422, "\(path) \(body): \(r)")
            if let field { #expect(r.text.contains(field), "\(r)") }
        }
        for (body, field) in [
            (#"{"pageDataSource": {"pages": ["a", "a"]}}"#, "pageDataSource.pages"),
            (#"{"pageDataSource": {}}"#, "pageDataSource.pages"),
            (#"{"pageDataSource": {"pages": ["a"], "extra": 1}}"#, "pageDataSource.extra"),
        ] {
            let r = h.send("PATCH", "/v1/sessions/b/controllers/pv", body)
            #expect(r.status == 422 && r.text.contains(field), "\(body): \(r)")
        }
        // A page view controller's properties on another kind.
        let wrongKind = h.send("PATCH", "/v1/sessions/b/controllers/p1", #"{"pageDelegate": {}}"#)
        #expect(wrongKind.status == 422, "\(wrongKind)")
        let wrongSpec = h.send("POST", "/v1/sessions/b/controllers", #"{"id": "x", "customizableViewControllers": []}"#)
        #expect(wrongSpec.status == 422, "\(wrongSpec)")
        #expect(h.send("GET", "/v1/sessions/b")["version"] == before["version"])
    }

    @Test func theMoreListsEditSheet() throws {
        let h = try ServiceHarness()
        let tabs = (0..<7).map { #"{"id": "v\#($0)"}"# }.joined(separator: ", ")
        let created = h.send(
            "POST", "/v1/sessions",
            #"{"id": "t", "root": {"id": "tb", "kind": "tabBarController", "tabBarDelegate": {}, "viewControllers": [\#(tabs)]}}"#)
        #expect(created.status == 201, "\(created)")
        // No customizableViewControllers listed until a client sets one.
        #expect(created["controllers"]?["tb"]?["customizableViewControllers"] == nil, "\(created)")
        // The Edit button is on the More list: not showing yet.
        let early = h.send("POST", "/v1/sessions/t/controllers/tb/customizeTabs", #"{"viewControllers": ["v4", "v1", "v2", "v3", "v0", "v5", "v6"]}"#)
        #expect(early.status == 422, "\(early)")
        #expect(h.send("POST", "/v1/sessions/t/controllers/tb/tapTab", #"{"viewController": "tb.more"}"#).status == 200)
        let locked = h.send("PATCH", "/v1/sessions/t/controllers/tb", #"{"customizableViewControllers": ["v0", "v4"]}"#)
        #expect(strings(locked["session"]?["controllers"]?["tb"]?["customizableViewControllers"]) == ["v0", "v4"], "\(locked)")
        let moved = h.send("POST", "/v1/sessions/t/controllers/tb/customizeTabs", #"{"viewControllers": ["v1", "v0", "v2", "v3", "v4", "v5", "v6"]}"#)
        #expect(moved.status == 422 && moved.text.contains("v1"), "\(moved)")

        let done = h.send("POST", "/v1/sessions/t/controllers/tb/customizeTabs", #"{"viewControllers": ["v4", "v1", "v2", "v3", "v0", "v5", "v6"]}"#)
        #expect(done.status == 200, "\(done)")
        #expect(
            events(done) == ["tb.tabBarControllerWillBeginCustomizing", "tb.tabBarControllerWillEndCustomizing", "tb.tabBarControllerDidEndCustomizing"],
            "\(done)")
        #expect(strings(event(done, "tabBarControllerWillBeginCustomizing")?["viewControllers"]) == ["v0", "v1", "v2", "v3", "v4", "v5", "v6"])
        #expect(event(done, "tabBarControllerWillBeginCustomizing")?["changed"] == nil, "\(done)")
        let ended = event(done, "tabBarControllerDidEndCustomizing")
        #expect(strings(ended?["viewControllers"]) == ["v4", "v1", "v2", "v3", "v0", "v5", "v6"] && ended?["changed"]?.bool == true, "\(done)")
        #expect(strings(done["session"]?["controllers"]?["tb"]?["viewControllers"]) == ["v4", "v1", "v2", "v3", "v0", "v5", "v6"], "\(done)")

        try h.restart()
        let after = h.send("GET", "/v1/sessions/t")
        #expect(strings(after["controllers"]?["tb"]?["viewControllers"]) == ["v4", "v1", "v2", "v3", "v0", "v5", "v6"], "\(after)")
        guard let version = after["version"]?.number else { Issue.record("no version in \(after)"); return }
        let replayed = h.send("GET", "/v1/sessions/t?version=\(Int(version))&replay=true")
        #expect(replayed["controllers"] == after["controllers"], "\(replayed)")
    }
}

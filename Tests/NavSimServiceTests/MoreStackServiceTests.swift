import Testing
import JSONValues

/// R165 over HTTP: the tab bar controller manages its More navigation controller, so code cannot
/// replace that stack, and the pops keep the More list at its root.
@Suite("the More navigation controller's stack over HTTP (R165)")
struct MoreStackServiceTests {
    func sevenTabs(_ h: ServiceHarness) {
        h.ok(
            "POST", "/v1/sessions",
            """
            {"id": "s", "options": {"iOS": "26", "transitions": "immediate"},
             "root": {"id": "tabs", "kind": "tabBarController",
                      "viewControllers": [{"id": "t0"}, {"id": "t1"}, {"id": "t2"}, {"id": "t3"}, {"id": "timers"}, {"id": "t5"}, {"id": "t6"}]}}
            """, status: 201)
    }

    @Test("setViewControllers on tabs.more is a 422 naming viewControllers, and nothing changes: the tabs, the list, a later select")
    func setViewControllersOnMoreIsInvalid() throws {
        let h = try ServiceHarness()
        sevenTabs(h)
        h.ok("POST", "/v1/sessions/s/controllers/tabs/select", #"{"viewController": "timers"}"#)
        let before = h.send("GET", "/v1/sessions/s")
        for body in [#"{"viewControllers": []}"#, #"{"viewControllers": ["timers"]}"#, #"{"viewControllers": ["tabs.more.list", "t6"]}"#] {
            let r = h.send("POST", "/v1/sessions/s/controllers/tabs.more/setViewControllers", body)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "viewControllers", "\(r)")
            #expect(r["detail"]?.string?.contains("More navigation controller") == true, "\(r)")
        }
        let after = h.send("GET", "/v1/sessions/s")
        #expect(after["version"] == before["version"], "a refused request makes no version")
        #expect(after["controllers"] == before["controllers"])
        #expect(strings(after["controllers"]?["tabs"]?["viewControllers"]).count == 7)
        #expect(strings(after["controllers"]?["tabs.more"]?["viewControllers"]) == ["tabs.more.list", "timers"])
        #expect(after["controllers"]?["tabs.more.list"]?["parent"]?.string == "tabs.more")
        // A re-tap of More pops to the list, and timers can be selected again.
        let retap = h.ok("POST", "/v1/sessions/s/controllers/tabs/tapTab", #"{"viewController": "tabs.more"}"#)
        #expect(strings(retap["session"]?["controllers"]?["tabs.more"]?["viewControllers"]) == ["tabs.more.list"], "\(retap)")
        let again = h.ok("POST", "/v1/sessions/s/controllers/tabs/select", #"{"viewController": "timers"}"#)
        #expect(again["session"]?["controllers"]?["tabs"]?["selectedIndex"]?.number == 4, "\(again)")
    }

    @Test("pop, popTo and popToRoot on tabs.more stop at the More list; a pop with only the list pops nothing")
    func popsStopAtTheList() throws {
        let h = try ServiceHarness()
        sevenTabs(h)
        h.ok("POST", "/v1/sessions/s/controllers/tabs/select", #"{"viewController": "timers"}"#)
        h.ok("POST", "/v1/sessions/s/controllers/tabs.more/push", #"{"viewController": {"id": "detail"}, "animated": false}"#)
        var r = h.ok("POST", "/v1/sessions/s/controllers/tabs.more/popToRoot", #"{"animated": false}"#)
        #expect(strings(r["returned"]) == ["timers", "detail"], "\(r)")
        #expect(strings(r["session"]?["controllers"]?["tabs.more"]?["viewControllers"]) == ["tabs.more.list"], "\(r)")
        let tabList = strings(r["session"]?["controllers"]?["tabs"]?["viewControllers"])
        #expect(tabList.contains("timers"), "\(r)")
        r = h.ok("POST", "/v1/sessions/s/controllers/tabs.more/pop", #"{"animated": false}"#)
        #expect(r["transition"] == nil || r["transition"]?.isNull == true, "\(r)")
        #expect(strings(r["session"]?["controllers"]?["tabs.more"]?["viewControllers"]) == ["tabs.more.list"], "\(r)")
        r = h.ok("POST", "/v1/sessions/s/controllers/tabs.more/popTo", #"{"viewController": "tabs.more.list", "animated": false}"#)
        #expect(strings(r["session"]?["controllers"]?["tabs.more"]?["viewControllers"]) == ["tabs.more.list"], "\(r)")
        #expect(r["session"]?["controllers"]?["tabs.more.list"]?["parent"]?.string == "tabs.more", "\(r)")
    }
}

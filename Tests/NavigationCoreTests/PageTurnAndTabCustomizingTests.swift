import Testing
import NavigationCore

/// A user's page turn (R130, R131) and the More list's Edit sheet (R132, R133).
@Suite("page turns (R130, R131) and tab customizing (R132, R133)")
struct PageTurnAndTabCustomizingTests {
    /// `PV` shows `P1`; its data source's pages are P1, P2, P3 (P2 and P3 exist, detached), and
    /// it has a delegate unless `delegate` is false.
    func book(_ style: PageState.Style = .scroll, delegate: Bool = true) -> Window {
        var w = Window(
            root: make("PV", .pageViewController) {
                $0.pageTransitionStyle = style
                $0.spineLocation = style == .pageCurl ? .min : nil
                $0.viewControllers = [vc("P1")]
                $0.pageDataSource = PageDataSource(pages: ["P1", "P2", "P3"])
                if delegate { $0.pageDelegate = PageDelegate() }
            })
        w.perform(.createController(ControllerSpec(id: "P2")))
        w.perform(.createController(ControllerSpec(id: "P3")))
        return w
    }

    @Test("R130 exhaustive: a completed forward swipe: the data source's next page replaces the current one, the delegate told around it")
    func scrollCompleted() {
        var w = book()
        w.send(
            .turnPage(receiver: "PV", direction: .forward, completes: true),
            events: [
                "PV.pageViewControllerWillTransitionTo([P2])", "P2.willMoveToParent(PV)", "P2.viewDidLoad",
                "P2.viewWillAppear", "P2.viewIsAppearing", "P1.viewWillDisappear",
                "P2.viewDidAppear", "P1.viewDidDisappear",
                "P1.willMoveToParent(nil)", "P1.didMoveToParent(nil)", "P2.didMoveToParent(PV)",
                "PV.pageViewControllerDidFinishAnimating([P1], true)",
            ]
        ) {
            $0.pageTurned(from: "P1", to: "P2")
        }
        // And back: the data source's page before P2 is P1 again.
        w.send(.turnPage(receiver: "PV", direction: .reverse, completes: true)) {
            $0.pageTurned(from: "P2", to: "P1")
        }
    }

    @Test("R131 exhaustive: a swipe given up (scroll): the current page gets its will and did appear before the pending page's disappearance")
    func scrollCancelled() {
        var w = book()
        // Only P2's view is loaded; the pages and every link are as before.
        w.sendForwardSwipeGivenUp(reversing: ["P1.viewWillAppear", "P1.viewDidAppear", "P2.viewWillDisappear", "P2.viewDidDisappear"])
    }

    @Test("R131 exhaustive: a page curl given up interleaves the two pages: pending will-disappear, current will-appear, pending did-disappear, current did-appear")
    func curlCancelled() {
        var w = book(.pageCurl)
        w.sendForwardSwipeGivenUp(reversing: ["P2.viewWillDisappear", "P1.viewWillAppear", "P2.viewDidDisappear", "P1.viewDidAppear"])
    }

    @Test("R130/R95: a completed page curl ends the current page before the new one appears")
    func curlCompleted() {
        var w = book(.pageCurl)
        let r = w.perform(.turnPage(receiver: "PV", direction: .forward, completes: true))
        #expect(
            withoutIsAppearing(appearance(r.events)) == [
                "P2.viewWillAppear", "P1.viewWillDisappear", "P1.viewDidDisappear", "P2.viewDidAppear",
            ])
        #expect(w.stack("PV") == ["P2"])
        w.checkInvariants()
    }

    @Test("R130 exhaustive: no page before the first (the data source answers nil): nothing turns, nothing is told")
    func endOfTheBook() {
        var w = book()
        w.send(.turnPage(receiver: "PV", direction: .reverse, completes: true), events: []) { _ in }
    }

    @Test("R130 exhaustive: without a data source a swipe does nothing; without a delegate nothing is told")
    func noDataSourceNoDelegate() {
        var w = Window(root: make("PV", .pageViewController) { $0.viewControllers = [vc("P1")] })
        w.send(.turnPage(receiver: "PV", direction: .forward, completes: true), events: []) { _ in }
        var quiet = book(delegate: false)
        let r = quiet.perform(.turnPage(receiver: "PV", direction: .forward, completes: true))
        #expect(!names(r).contains { $0.contains("pageViewController") })
        #expect(quiet.stack("PV") == ["P2"])
    }

    @Test("R130: two pages at a time (mid spine) are asked one after the other")
    func twoPages() {
        var w = Window(
            root: make("PV", .pageViewController) {
                $0.pageTransitionStyle = .pageCurl
                $0.spineLocation = .mid
                $0.viewControllers = [vc("A"), vc("B")]
                $0.pageDataSource = PageDataSource(pages: ["A", "B", "C", "D"])
                $0.pageDelegate = PageDelegate()
            })
        w.perform(.createController(ControllerSpec(id: "C")))
        w.perform(.createController(ControllerSpec(id: "D")))
        let r = w.perform(.turnPage(receiver: "PV", direction: .forward, completes: true))
        #expect(names(r).first == "PV.pageViewControllerWillTransitionTo([C,D])")
        #expect(names(r).last == "PV.pageViewControllerDidFinishAnimating([A,B], true)")
        #expect(w.stack("PV") == ["C", "D"])
        w.perform(.turnPage(receiver: "PV", direction: .reverse, completes: true))
        #expect(w.stack("PV") == ["A", "B"])
        w.checkInvariants()
    }

    @Test("R130/R2: a page the page view controller held as an ordinary child is listed once while it turns, and leaves when the turn is given up")
    func childAsPage() {
        var w = book()
        w.perform(.addChild(receiver: "PV", viewController: id("P2")))
        let r = w.perform(.turnPage(receiver: "PV", direction: .forward, completes: true))
        #expect(names(r).contains("P2.viewDidAppear"))
        #expect(w["PV"].children == ["P2"] && w.stack("PV") == ["P2"])
        w.checkInvariants()
        var cancelled = book()
        cancelled.perform(.addChild(receiver: "PV", viewController: id("P2")))
        cancelled.perform(.turnPage(receiver: "PV", direction: .forward, completes: false))
        #expect(cancelled["PV"].children == ["P1"] && cancelled["P2"].parent == nil)
        cancelled.checkInvariants()
    }

    @Test("R130: a data source page that is no controller, or a receiver that is no page view controller, is bad input and changes nothing")
    func badTurns() {
        var w = Window(
            root: make("PV", .pageViewController) {
                $0.viewControllers = [vc("P1")]
                $0.pageDataSource = PageDataSource(pages: ["P1", "ghost"])
            })
        #expect(w.sendInvalid(.turnPage(receiver: "PV", direction: .forward, completes: true))?.field == "pageDataSource")
        #expect(w.sendInvalid(.turnPage(receiver: "P1", direction: .forward, completes: true)) != nil)
        var patch = ControllerPatch()
        patch.pageDelegate = PageDelegate()
        #expect(w.sendInvalid(.updateController("P1", patch))?.field == "pageDelegate")
    }
}

// MARK: - The More list's Edit sheet

extension PageTurnAndTabCustomizingTests {
    static let seven = ["A", "B", "C", "D", "E", "F", "G"]

    /// A tab bar of seven tabs with a delegate, the More list showing.
    func moreList(delegate: Bool = true) throws -> (Window, ControllerID) {
        var w = Window(
            root: make("T", .tabBarController) {
                $0.viewControllers = Self.seven.map { vc($0) }
                if delegate { $0.tabBarDelegate = TabBarDelegate() }
            })
        let more = try #require(w["T"].moreNavigationController)
        w.perform(.select(receiver: "T", index: nil, viewController: more))
        return (w, more)
    }

    @Test("R133 exhaustive: Edit, a More tab dragged onto the bar, Done: the tabs' order changes and the delegate is told begin, will end, did end")
    func customize() throws {
        var (w, _) = try moreList()
        w.sendCustomizeTabs(["E", "B", "C", "D", "A", "F", "G"], changed: true)
        // The new order is what a tab tap reads: E is the first item on the bar.
        w.perform(.tapTab(receiver: "T", index: 0, viewController: nil))
        #expect(w["T"].selectedViewController == "E")
    }

    @Test("R133 exhaustive: an order that keeps the bar's items reports changed false; Done without a change changes nothing")
    func unchangedBar() throws {
        var (w, _) = try moreList()
        w.sendCustomizeTabs(["A", "B", "C", "D", "F", "E", "G"], changed: false)
        var (quiet, _) = try moreList(delegate: false)
        quiet.send(.customizeTabs(receiver: "T", viewControllers: Self.seven), events: []) { _ in }
    }

    @Test("R132 exhaustive: customizableViewControllers locks the other tabs in place; setting the tabs makes every tab customizable again")
    func customizable() throws {
        var (w, more) = try moreList()
        var patch = ControllerPatch()
        patch.customizableViewControllers = ["A", "E"]
        w.send(.updateController("T", patch)) {
            $0.modify("T") { $0.configuration.customizableViewControllers = ["A", "E"] }
        }
        // B is locked: the Edit sheet cannot move it.
        #expect(w.sendInvalid(.customizeTabs(receiver: "T", viewControllers: ["B", "A", "C", "D", "E", "F", "G"]))?.field == "viewControllers")
        w.send(.customizeTabs(receiver: "T", viewControllers: ["E", "B", "C", "D", "A", "F", "G"])) {
            $0.tabsReordered(["E", "B", "C", "D", "A", "F", "G"])
        }
        // R84/R132: setting the tabs resets the list to all of them (B selected, so the selection stays).
        w.perform(.select(receiver: "T", index: 1, viewController: nil))
        w.send(Op.setViewControllers("T", Self.seven.map { id($0) })) {
            $0.setTabs("T", Self.seven)
            $0.modify("T") {
                $0.children = Self.seven
                $0.configuration.customizableViewControllers = nil
            }
        }
        // An empty list: no Edit button.
        patch.customizableViewControllers = []
        w.perform(.updateController("T", patch))
        w.perform(.select(receiver: "T", index: nil, viewController: more))
        #expect(w.sendInvalid(.customizeTabs(receiver: "T", viewControllers: Self.seven))?.field == "customizableViewControllers")
    }

    @Test("R133: no More list on screen, no More item, a list that is not the tabs, another kind: bad input, nothing changes")
    func badCustomizing() throws {
        var (w, _) = try moreList()
        #expect(w.sendInvalid(.customizeTabs(receiver: "T", viewControllers: ["A", "B"])) != nil)
        #expect(w.sendInvalid(.customizeTabs(receiver: "T", viewControllers: ["A", "A", "C", "D", "E", "F", "G"])) != nil)
        #expect(w.sendInvalid(.customizeTabs(receiver: "A", viewControllers: [])) != nil)
        w.perform(.select(receiver: "T", index: 1, viewController: nil))
        #expect(w.sendInvalid(.customizeTabs(receiver: "T", viewControllers: Self.seven)) != nil)
        var few = Window(root: tabs("T", [vc("A"), vc("B")]))
        #expect(few.sendInvalid(.customizeTabs(receiver: "T", viewControllers: ["B", "A"])) != nil)
        var patch = ControllerPatch()
        patch.customizableViewControllers = ["A"]
        #expect(few.sendInvalid(.updateController("A", patch))?.field == "customizableViewControllers")
    }
}

import Foundation
import Testing
import NavigationCore

/// §14, §10: column-style split view controllers (iOS 14+): wrapping (R90), collapse (R91),
/// expand (R92), `show` (R68, with R63's lookup) and `showDetailViewController` (R67).
/// Every operation's events are checked in full: controller, callback, `animated`, parent.
@Suite("column-style split view controllers (R90–R92, R67, R68)")
struct ColumnSplitTests {
    /// docs/api.md `window.viewsInWindow`: controllers whose views are in the window, in creation order.
    func viewsInWindow(_ w: Window) -> [ControllerID] { w.state.orderedControllers.filter(\.viewInWindow).map(\.id) }

    /// iPad, regular width: S{P | D}, expanded.
    func expandedDouble(top: SplitState.Column? = nil, collapseSecondaryOntoPrimary: Bool? = nil) -> Window {
        Window(
            root: columnSplit(
                "S", primary: vc("P"), secondary: vc("D"), top: top,
                collapseSecondaryOntoPrimary: collapseSecondaryOntoPrimary), traits: iPadRegular)
    }

    // MARK: R90 — wrapping

    @Test("R90: doubleColumn wraps each column's controller in a navigation controller `<split>.<column>`")
    func doubleColumnWrapsColumns() {
        var w = Window(root: nil, traits: iPadRegular)
        let r = w.perform(.setRoot(columnSplit("S", primary: vc("P"), secondary: vc("D")), animated: false))
        let order = ["S", "S.primary", "P", "S.secondary", "D"]
        #expect(
            r.events == order.map { Event($0, .viewDidLoad) }
                + order.flatMap { willAppear($0, animated: false) }
                + order.map { appearanceEvent($0, .viewDidAppear, animated: false) })
        // The split's children are the wrappers; the columns still answer the client's controllers.
        #expect(w["S"].children == ["S.primary", "S.secondary"])
        #expect(w["S"].split?.primary == "P" && w["S"].split?.secondary == "D" && w["S"].split?.supplementary == nil)
        #expect(w["S"].split?.primaryNavigation == "S.primary" && w["S"].split?.secondaryNavigation == "S.secondary")
        for (wrapper, content) in [("S.primary", "P"), ("S.secondary", "D")] {
            #expect(w[wrapper].kind == .navigationController)
            #expect(w[wrapper].className == "UINavigationController")
            #expect(w[wrapper].parent == "S")
            #expect(w.stack(wrapper) == [content] && w[wrapper].children == [content])
            #expect(w[content].parent == wrapper)
            #expect(w.state.nearestAncestor(content, kind: .navigationController) == wrapper)
            #expect(w.state.nearestAncestor(content, kind: .splitViewController) == "S")
        }
        #expect(w["S"].split?.isCollapsed == false)
        #expect(w.state.visibleViewController == "D")
        #expect(w.state.settledViewsInWindow == order)
        #expect(viewsInWindow(w) == order)
        #expect(order.allSatisfy(w.isAppeared))
        w.checkInvariants()
    }

    @Test("R90: a navigation controller given as a column is not wrapped; tripleColumn wraps the supplementary too")
    func navigationColumnIsNotWrapped() {
        let w = Window(
            root: columnSplit(
                "S", .tripleColumn, primary: nav("NP", vc("P")), supplementary: vc("M"),
                secondary: vc("D")), traits: iPadRegular)
        #expect(w["S"].children == ["NP", "S.supplementary", "S.secondary"])
        #expect(w.state["S.primary"] == nil, "no wrapper for a navigation controller")
        #expect(w["S"].split?.primary == "NP" && w["S"].split?.primaryNavigation == "NP")
        #expect(w["S"].split?.supplementary == "M" && w["S"].split?.supplementaryNavigation == "S.supplementary")
        #expect(w["NP"].parent == "S" && w["P"].parent == "NP")
        #expect(w["M"].parent == "S.supplementary" && w.stack("S.supplementary") == ["M"])
        #expect(w.state.nearestAncestor("M", kind: .navigationController) == "S.supplementary")
        #expect(viewsInWindow(w) == ["S", "NP", "P", "S.supplementary", "M", "S.secondary", "D"])
        #expect(w.state.visibleViewController == "D")
        w.checkInvariants()
    }

    @Test("R90: a supplementary given to a doubleColumn split is ignored (the column exists in tripleColumn only)")
    func doubleColumnIgnoresSupplementary() {
        let w = Window(root: columnSplit("S", primary: vc("P"), supplementary: vc("M"), secondary: vc("D")), traits: iPadRegular)
        #expect(w["S"].children == ["S.primary", "S.secondary"])
        #expect(w["S"].split?.supplementary == nil && w["S"].split?.supplementaryNavigation == nil)
        #expect(w["M"].parent == nil && !w["M"].isViewLoaded && !w["M"].viewInWindow)
        #expect(viewsInWindow(w) == ["S", "S.primary", "P", "S.secondary", "D"])
    }

    // MARK: R91 — collapse

    @Test("R91: collapsing merges the secondary onto the primary column's stack (proposed top column .secondary)")
    func collapseShowsSecondaryOnTop() {
        var w = expandedDouble()
        let r = w.perform(.setTraits(iPadCompactWidth))
        // D moves to the primary column (R171: willMove/didMove) but stays on screen (no appearance
        // callbacks, R36); P is covered; the secondary wrapper leaves.
        #expect(
            r.events == [
                moveEvent("D", .willMoveToParent, parent: "S.primary"),
                appearanceEvent("P", .viewWillDisappear, animated: false),
                appearanceEvent("S.secondary", .viewWillDisappear, animated: false),
                appearanceEvent("P", .viewDidDisappear, animated: false),
                appearanceEvent("S.secondary", .viewDidDisappear, animated: false),
                moveEvent("D", .didMoveToParent, parent: "S.primary"),
            ])
        #expect(w["S"].split?.isCollapsed == true)
        #expect(w.stack("S.primary") == ["P", "D"] && w["S.primary"].children == ["P", "D"])
        #expect(w["D"].parent == "S.primary")
        #expect(w.state.nearestAncestor("D", kind: .navigationController) == "S.primary")
        #expect(w.stack("S.secondary").isEmpty && w["S.secondary"].children.isEmpty)
        #expect(w["S"].children == ["S.primary", "S.secondary"], "the wrappers stay the split's children")
        #expect(w["S"].split?.secondary == "D", "viewController(for: .secondary) still answers D")
        #expect(w.state.visibleViewController == "D")
        #expect(w.state.navigationVisibleViewController("S.primary") == "D")
        #expect(viewsInWindow(w) == ["S", "S.primary", "D"])
        #expect(w.isAppeared("D") && w.isDisappeared("P") && w.isDisappeared("S.secondary"))
        w.checkInvariants()
    }

    @Test("R91: a delegate answering .primary for the top column keeps the list on top; the secondary leaves the window")
    func collapseToPrimary() {
        var w = expandedDouble(top: .primary)
        let r = w.perform(.setTraits(iPadCompactWidth))
        #expect(
            r.events == [
                appearanceEvent("S.secondary", .viewWillDisappear, animated: false),
                appearanceEvent("D", .viewWillDisappear, animated: false),
                appearanceEvent("S.secondary", .viewDidDisappear, animated: false),
                appearanceEvent("D", .viewDidDisappear, animated: false),
            ])
        #expect(w["S"].split?.isCollapsed == true)
        #expect(w.stack("S.primary") == ["P"])
        #expect(w.stack("S.secondary") == ["D"] && w["D"].parent == "S.secondary")
        #expect(w.state.visibleViewController == "P")
        #expect(viewsInWindow(w) == ["S", "S.primary", "P"])
        w.checkInvariants()
    }

    @Test("R91: tripleColumn merges supplementary then secondary; answering .supplementary stops there")
    func collapseTripleColumn() {
        let triple = columnSplit("S", .tripleColumn, primary: vc("P"), supplementary: vc("M"), secondary: vc("D"))
        var w = Window(root: triple, traits: iPadRegular)
        let r = w.perform(.setTraits(iPadCompactWidth))
        #expect(
            r.events == [
                moveEvent("M", .willMoveToParent, parent: "S.primary"),
                moveEvent("D", .willMoveToParent, parent: "S.primary"),
                appearanceEvent("P", .viewWillDisappear, animated: false),
                appearanceEvent("S.supplementary", .viewWillDisappear, animated: false),
                appearanceEvent("M", .viewWillDisappear, animated: false),
                appearanceEvent("S.secondary", .viewWillDisappear, animated: false),
                appearanceEvent("P", .viewDidDisappear, animated: false),
                appearanceEvent("S.supplementary", .viewDidDisappear, animated: false),
                appearanceEvent("M", .viewDidDisappear, animated: false),
                appearanceEvent("S.secondary", .viewDidDisappear, animated: false),
                moveEvent("M", .didMoveToParent, parent: "S.primary"),
                moveEvent("D", .didMoveToParent, parent: "S.primary"),
            ])
        #expect(w.stack("S.primary") == ["P", "M", "D"])
        #expect(w["M"].parent == "S.primary" && w["D"].parent == "S.primary")
        #expect(w.state.visibleViewController == "D")
        #expect(viewsInWindow(w) == ["S", "S.primary", "D"])
        w.checkInvariants()

        var s = Window(
            root: columnSplit(
                "S", .tripleColumn, primary: vc("P"), supplementary: vc("M"), secondary: vc("D"),
                top: .supplementary), traits: iPadRegular)
        let r2 = s.perform(.setTraits(iPadCompactWidth))
        #expect(
            r2.events == [
                moveEvent("M", .willMoveToParent, parent: "S.primary"),
                appearanceEvent("P", .viewWillDisappear, animated: false),
                appearanceEvent("S.supplementary", .viewWillDisappear, animated: false),
                appearanceEvent("S.secondary", .viewWillDisappear, animated: false),
                appearanceEvent("D", .viewWillDisappear, animated: false),
                appearanceEvent("P", .viewDidDisappear, animated: false),
                appearanceEvent("S.supplementary", .viewDidDisappear, animated: false),
                appearanceEvent("S.secondary", .viewDidDisappear, animated: false),
                appearanceEvent("D", .viewDidDisappear, animated: false),
                moveEvent("M", .didMoveToParent, parent: "S.primary"),
            ])
        #expect(s.stack("S.primary") == ["P", "M"] && s.stack("S.secondary") == ["D"])
        #expect(s.state.visibleViewController == "M")
        #expect(viewsInWindow(s) == ["S", "S.primary", "M"])
        s.checkInvariants()
    }

    @Test("R90/R91: created in compact width, a column split starts collapsed showing the secondary")
    func createdCollapsed() {
        var w = Window(root: nil)
        let r = w.perform(.setRoot(columnSplit("S", primary: vc("P"), secondary: vc("D")), animated: false))
        let order = ["S", "S.primary", "D"]
        // R170/R171: D's move onto the primary column is told once the split's view has loaded.
        #expect(
            r.events == [Event("S", .viewDidLoad), moveEvent("D", .willMoveToParent, parent: "S.primary")]
                + order.dropFirst().map { Event($0, .viewDidLoad) }
                + order.flatMap { willAppear($0, animated: false) }
                + order.map { appearanceEvent($0, .viewDidAppear, animated: false) }
                + [moveEvent("D", .didMoveToParent, parent: "S.primary")])
        #expect(w["S"].split?.isCollapsed == true)
        #expect(w.stack("S.primary") == ["P", "D"])
        #expect(!w["P"].isViewLoaded, "P is under D: never loaded")
        #expect(w.state.visibleViewController == "D")
        #expect(viewsInWindow(w) == order)
        w.checkInvariants()
    }

    @Test("R90/R91: the classic-only collapseSecondary…onto: answer does not apply to a column split, nor topColumn… to a classic one")
    func delegatesDoNotCross() {
        var column = expandedDouble(collapseSecondaryOntoPrimary: true)
        column.perform(.setTraits(iPadCompactWidth))
        #expect(column.stack("S.primary") == ["P", "D"], "the secondary is not discarded")
        #expect(column.state.visibleViewController == "D")

        var classic = Window(
            root: make("S", .splitViewController) {
                $0.splitStyle = .unspecified
                $0.primary = nav("N1", vc("M"))
                $0.secondary = vc("D")
                $0.topColumnForCollapsing = .primary
            }, traits: iPadRegular)
        classic.perform(.setTraits(iPadCompactWidth))
        #expect(classic.stack("N1") == ["M", "D"], "classic collapse pushes the secondary whatever topColumn… says")
        #expect(classic["S"].children == ["N1"])
        #expect(classic.state["S.primary"] == nil, "classic columns are never wrapped")
    }

    // MARK: R92 — expand

    @Test("R92: expanding gives each column its controllers back")
    func expandSeparatesColumns() {
        var w = expandedDouble()
        w.perform(.setTraits(iPadCompactWidth))
        let r = w.perform(.setTraits(iPadRegular))
        #expect(
            r.events == [moveEvent("D", .willMoveToParent, parent: "S.secondary")] + willAppear("P", animated: false)
                + willAppear("S.secondary", animated: false) + [
                    appearanceEvent("P", .viewDidAppear, animated: false),
                    appearanceEvent("S.secondary", .viewDidAppear, animated: false),
                    moveEvent("D", .didMoveToParent, parent: "S.secondary"),
                ])
        #expect(w["S"].split?.isCollapsed == false)
        #expect(w.stack("S.primary") == ["P"] && w["S.primary"].children == ["P"])
        #expect(w.stack("S.secondary") == ["D"] && w["D"].parent == "S.secondary")
        #expect(w.state.nearestAncestor("D", kind: .navigationController) == "S.secondary")
        #expect(w.state.visibleViewController == "D")
        #expect(viewsInWindow(w) == ["S", "S.primary", "P", "S.secondary", "D"])
        w.checkInvariants()
    }

    @Test("R92: controllers pushed on the secondary's content while collapsed go to the secondary column")
    func expandKeepsPushesWithTheirColumn() {
        var w = expandedDouble()
        w.perform(.setTraits(iPadCompactWidth))
        w.perform(Op.push("D", vc("X"), animated: false))
        #expect(w.stack("S.primary") == ["P", "D", "X"])
        let r = w.perform(.setTraits(iPadRegular))
        #expect(
            r.events == [
                moveEvent("D", .willMoveToParent, parent: "S.secondary"), moveEvent("X", .willMoveToParent, parent: "S.secondary"),
            ] + willAppear("P", animated: false) + willAppear("S.secondary", animated: false) + [
                appearanceEvent("P", .viewDidAppear, animated: false),
                appearanceEvent("S.secondary", .viewDidAppear, animated: false),
                moveEvent("D", .didMoveToParent, parent: "S.secondary"), moveEvent("X", .didMoveToParent, parent: "S.secondary"),
            ])
        #expect(w.stack("S.primary") == ["P"])
        #expect(w.stack("S.secondary") == ["D", "X"] && w["X"].parent == "S.secondary")
        #expect(w.state.visibleViewController == "X")
        #expect(viewsInWindow(w) == ["S", "S.primary", "P", "S.secondary", "X"])
        w.checkInvariants()
    }

    // MARK: R68 / R63 — show

    @Test("R68/R63: show from a column's content pushes onto that column's navigation controller")
    func showFromColumnPushes() {
        var w = expandedDouble()
        let r = w.perform(Op.show("P", vc("X")))
        #expect(
            r.events == [
                moveEvent("X", .willMoveToParent, parent: "S.primary"), Event("X", .viewDidLoad),
                appearanceEvent("P", .viewWillDisappear, animated: true),
            ]
                + willAppear("X", animated: true)
                + [
                    appearanceEvent("P", .viewDidDisappear, animated: true), appearanceEvent("X", .viewDidAppear, animated: true),
                    moveEvent("X", .didMoveToParent, parent: "S.primary"),
                ])
        #expect(w.stack("S.primary") == ["P", "X"] && w["X"].parent == "S.primary")
        #expect(w.state.nearestAncestor("X", kind: .navigationController) == "S.primary")
        #expect(w.stack("S.secondary") == ["D"])
        #expect(viewsInWindow(w) == ["S", "S.primary", "S.secondary", "D", "X"])
        #expect(w.state.visibleViewController == "D")

        // From the secondary's content, the secondary column's navigation controller pushes.
        let r2 = w.perform(Op.show("D", vc("Y")))
        #expect(
            r2.events == [
                moveEvent("Y", .willMoveToParent, parent: "S.secondary"), Event("Y", .viewDidLoad),
                appearanceEvent("D", .viewWillDisappear, animated: true),
            ]
                + willAppear("Y", animated: true)
                + [
                    appearanceEvent("D", .viewDidDisappear, animated: true), appearanceEvent("Y", .viewDidAppear, animated: true),
                    moveEvent("Y", .didMoveToParent, parent: "S.secondary"),
                ])
        #expect(w.stack("S.secondary") == ["D", "Y"])
        #expect(w.state.visibleViewController == "Y")
        w.checkInvariants()
    }

    @Test("R68: classic split whose primary is not a navigation controller: show replaces the primary")
    func classicShowReplacesPrimary() {
        var w = Window(root: split("S", primary: vc("P1"), secondary: vc("D")), traits: iPadRegular)
        let r = w.perform(Op.show("P1", vc("P2")))
        #expect(
            r.events == [
                moveEvent("P1", .willMoveToParent, parent: nil),
                appearanceEvent("P1", .viewWillDisappear, animated: false),
                appearanceEvent("P1", .viewDidDisappear, animated: false),
                moveEvent("P1", .didMoveToParent, parent: nil),
                moveEvent("P2", .willMoveToParent, parent: "S"),
                Event("P2", .viewDidLoad),
            ] + willAppear("P2", animated: false) + [
                appearanceEvent("P2", .viewDidAppear, animated: false),
                moveEvent("P2", .didMoveToParent, parent: "S"),
            ])
        #expect(w["S"].split?.primary == "P2" && w["S"].split?.secondary == "D")
        #expect(w["S"].children == ["P2", "D"])
        #expect(w["P1"].parent == nil && w.isDisappeared("P1") && !w["P1"].isMovingFromParent)
        #expect(w["P2"].parent == "S" && w.isAppeared("P2") && !w["P2"].isMovingToParent)
        #expect(w.state.nearestAncestor("P2", kind: .splitViewController) == "S")
        #expect(viewsInWindow(w) == ["S", "D", "P2"])
        #expect(w.state.visibleViewController == "D")
        #expect(r.transition?.operation == .show)
        w.checkInvariants()

        // Showing the current primary changes nothing.
        let before = w.state
        let none = w.perform(Op.show("S", id("P2")))
        #expect(none.events.isEmpty && w.state == before)
    }

    // MARK: R67 — showDetail

    @Test("R67: expanded column split: the secondary column's navigation controller pushes the detail")
    func showDetailExpandedPushesOntoSecondaryColumn() {
        var w = expandedDouble()
        let r = w.perform(Op.showDetail("P", vc("D2")))
        #expect(
            r.events == [
                moveEvent("D2", .willMoveToParent, parent: "S.secondary"), Event("D2", .viewDidLoad),
                appearanceEvent("D", .viewWillDisappear, animated: true),
            ]
                + willAppear("D2", animated: true)
                + [
                    appearanceEvent("D", .viewDidDisappear, animated: true), appearanceEvent("D2", .viewDidAppear, animated: true),
                    moveEvent("D2", .didMoveToParent, parent: "S.secondary"),
                ])
        #expect(w.stack("S.secondary") == ["D", "D2"] && w["D2"].parent == "S.secondary")
        #expect(w["S"].children == ["S.primary", "S.secondary"])
        #expect(w.state.visibleViewController == "D2")
        #expect(viewsInWindow(w) == ["S", "S.primary", "P", "S.secondary", "D2"])

        // The column's own controller is what it would replace: a no-op.
        let before = w.state
        let none = w.perform(Op.showDetail("P", id("D")))
        #expect(none.events.isEmpty && none.transition == nil && w.state == before)
        w.checkInvariants()
    }

    @Test("R67: expanded column split: a navigation controller replaces the secondary column's navigation controller")
    func showDetailNavigationReplacesWrapper() {
        var w = expandedDouble()
        let r = w.perform(Op.showDetail("P", nav("N2", vc("E"))))
        #expect(
            r.events == [
                moveEvent("S.secondary", .willMoveToParent, parent: nil),
                appearanceEvent("S.secondary", .viewWillDisappear, animated: false),
                appearanceEvent("D", .viewWillDisappear, animated: false),
                appearanceEvent("S.secondary", .viewDidDisappear, animated: false),
                appearanceEvent("D", .viewDidDisappear, animated: false),
                moveEvent("S.secondary", .didMoveToParent, parent: nil),
                moveEvent("N2", .willMoveToParent, parent: "S"),
                Event("N2", .viewDidLoad), Event("E", .viewDidLoad),
            ] + willAppear("N2", animated: false) + willAppear("E", animated: false) + [
                appearanceEvent("N2", .viewDidAppear, animated: false),
                appearanceEvent("E", .viewDidAppear, animated: false),
                moveEvent("N2", .didMoveToParent, parent: "S"),
            ])
        #expect(w["S"].children == ["S.primary", "N2"])
        #expect(w["S"].split?.secondary == "N2" && w["S"].split?.secondaryNavigation == "N2")
        #expect(w["S.secondary"].parent == nil && w["D"].parent == "S.secondary")
        #expect(w.state.visibleViewController == "E")
        #expect(viewsInWindow(w) == ["S", "S.primary", "P", "N2", "E"])
        w.checkInvariants()
    }

    @Test("R67/R91/R92: collapsed column split: showDetail pushes onto the primary column; expanding moves it to the secondary column")
    func showDetailCollapsedThenExpand() {
        var w = Window(root: columnSplit("S", primary: vc("P"), secondary: vc("D"), top: .primary))
        #expect(w["S"].split?.isCollapsed == true && w.stack("S.primary") == ["P"])
        let r = w.perform(Op.showDetail("P", vc("D2")))
        #expect(
            r.events == [
                moveEvent("D2", .willMoveToParent, parent: "S.primary"), Event("D2", .viewDidLoad),
                appearanceEvent("P", .viewWillDisappear, animated: true),
            ]
                + willAppear("D2", animated: true)
                + [
                    appearanceEvent("P", .viewDidDisappear, animated: true), appearanceEvent("D2", .viewDidAppear, animated: true),
                    moveEvent("D2", .didMoveToParent, parent: "S.primary"),
                ])
        #expect(w.stack("S.primary") == ["P", "D2"])
        #expect(w.state.visibleViewController == "D2")
        #expect(viewsInWindow(w) == ["S", "S.primary", "D2"])

        // A wider window: D2 goes back with the secondary column, on top of the column's D.
        let e = w.perform(.setTraits(iPadRegular))
        #expect(
            e.events == [moveEvent("D2", .willMoveToParent, parent: "S.secondary"), Event("S.secondary", .viewDidLoad)]
                + willAppear("P", animated: false) + willAppear("S.secondary", animated: false) + [
                    appearanceEvent("P", .viewDidAppear, animated: false),
                    appearanceEvent("S.secondary", .viewDidAppear, animated: false),
                    moveEvent("D2", .didMoveToParent, parent: "S.secondary"),
                ])
        #expect(w.stack("S.primary") == ["P"])
        #expect(w.stack("S.secondary") == ["D", "D2"] && w["D2"].parent == "S.secondary")
        #expect(!w["D"].isViewLoaded, "D was never on screen")
        #expect(w.state.visibleViewController == "D2")
        #expect(viewsInWindow(w) == ["S", "S.primary", "P", "S.secondary", "D2"])
        w.checkInvariants()
    }
}

/// R91/R92: the split delegate's calls, classic and column style apart (R90).
@Suite("split view delegate calls (R90, R91, R92)")
struct SplitDelegateTests {
    @Test("R91/R92 (column style): topColumnForCollapsing before the change, didCollapse after it; displayMode… and didExpand on the way back")
    func columnStyleDelegate() {
        var w = Window(
            root: make("S", .splitViewController) {
                $0.splitStyle = .doubleColumn
                $0.primary = vc("P")
                $0.secondary = vc("D")
                $0.hasSplitDelegate = true
                $0.topColumnForCollapsing = .secondary
            }, traits: iPadRegular)
        let collapse = names(w.perform(.setTraits(iPadCompactWidth)))
        #expect(collapse.first == "S.splitViewControllerTopColumnForCollapsing")
        #expect(collapse.last == "S.splitViewControllerDidCollapse")
        #expect(
            !collapse.contains { $0.contains("PrimaryForCollapsing") || $0.contains("CollapseSecondary") },
            "R90: classic-only methods are not called")
        let expand = names(w.perform(.setTraits(iPadRegular)))
        #expect(expand.first == "S.splitViewControllerDisplayModeForExpanding")
        #expect(expand.last == "S.splitViewControllerDidExpand")
    }

    @Test("R161/R91: a split delegate without an answer is not asked collapseSecondary…onto: (classic) or topColumnForCollapsing (column style); the split collapses as proposed")
    func unansweredCollapseQuestionsAreNotAsked() {
        var classic = Window(
            root: make("S", .splitViewController) {
                $0.splitStyle = .unspecified
                $0.primary = nav("N", vc("M"))
                $0.secondary = vc("D")
                $0.hasSplitDelegate = true
            }, traits: iPadRegular, options: Options(iOS: .iOS17))
        let classicCollapse = names(classic.perform(.setTraits(iPadCompactWidth)))
        #expect(
            classicCollapse == ["S.splitViewControllerPrimaryForCollapsing", "M.viewWillDisappear", "M.viewDidDisappear"],
            "D is pushed onto N as when the delegate answers false")
        #expect(classic.stack("N") == ["M", "D"])
        var columns = Window(
            root: make("S", .splitViewController) {
                $0.splitStyle = .doubleColumn
                $0.primary = vc("P")
                $0.secondary = vc("D")
                $0.hasSplitDelegate = true
            }, traits: iPadRegular, options: Options(iOS: .iOS17))
        let columnCollapse = names(columns.perform(.setTraits(iPadCompactWidth)))
        #expect(!columnCollapse.contains("S.splitViewControllerTopColumnForCollapsing"), "\(columnCollapse)")
        #expect(columnCollapse.last == "S.splitViewControllerDidCollapse", "the void method is still told")
        #expect(columns.state.visibleViewController == "D", "the proposed .secondary is the top column")
    }

    @Test("R91/R92 (classic): primaryViewController(forCollapsing:) then collapseSecondary…onto:; forExpanding then separateSecondary")
    func classicDelegate() {
        var w = Window(
            root: make("S", .splitViewController) {
                $0.splitStyle = .unspecified
                $0.primary = nav("N", vc("M"))
                $0.secondary = vc("D")
                $0.hasSplitDelegate = true
                $0.collapseSecondaryOntoPrimary = false
            }, traits: iPadRegular)
        let collapse = names(w.perform(.setTraits(iPadCompactWidth)))
        #expect(
            collapse == [
                "S.splitViewControllerPrimaryForCollapsing", "S.splitViewControllerCollapseSecondary",
                "M.viewWillDisappear", "M.viewDidDisappear",
            ],
            "the delegate first; then D, pushed onto N, covers M")
        let expand = names(w.perform(.setTraits(iPadRegular)))
        #expect(Array(expand.prefix(2)) == ["S.splitViewControllerPrimaryForExpanding", "S.splitViewControllerSeparateSecondary"])
        #expect(!expand.contains("S.splitViewControllerDidExpand"), "R90: column-style methods are not called")
    }

    @Test("R91: without a delegate nothing is reported but the change")
    func noDelegate() {
        var w = Window(root: columnSplit("S", primary: vc("P"), secondary: vc("D")), traits: iPadRegular)
        #expect(!names(w.perform(.setTraits(iPadCompactWidth))).contains { $0.contains("splitViewController") })
    }
}

// MARK: - Exhaustive: column splits

extension ColumnSplitTests {
    @Test("R91 exhaustive: collapsing a double-column split moves D onto the primary column's stack")
    func exhaustiveCollapse() {
        var w = expandedDouble()
        w.send(.setTraits(iPadCompactWidth)) {
            $0.traits = iPadCompactWidth
            $0.modifySplit("S") {
                $0.isCollapsed = true; $0.collapsedSupplementary = []; $0.collapsedSecondary = ["D"]
            }
            $0.modify("D") { $0.parent = "S.primary" }
            $0.modify("S.primary") { $0.children = ["P", "D"] }
            $0.setStack("S.primary", ["P", "D"])
            $0.modify("S.secondary") { $0.children = [] }
            $0.setStack("S.secondary", [])
            $0.disappeared("P", "S.secondary")
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R68 exhaustive: show from the primary column's content pushes onto that column only")
    func exhaustiveShowFromColumn() {
        var w = expandedDouble()
        w.send(Op.show("P", vc("X"))) {
            $0.create("X") { $0.parent = "S.primary" }
            $0.appeared("X")
            $0.disappeared("P")
            $0.modify("S.primary") { $0.children = ["P", "X"] }
            $0.setStack("S.primary", ["P", "X"])
            $0.nextTransitionNumber += 1
        }
    }
}

extension ColumnSplitTests {
    @Test("R67 exhaustive: expanded showDetail pushes onto the secondary column; the primary column is untouched")
    func exhaustiveShowDetailExpanded() {
        var w = expandedDouble()
        w.send(Op.showDetail("P", vc("D2"))) {
            $0.create("D2") { $0.parent = "S.secondary" }
            $0.appeared("D2")
            $0.disappeared("D")
            $0.modify("S.secondary") { $0.children = ["D", "D2"] }
            $0.setStack("S.secondary", ["D", "D2"])
            $0.nextTransitionNumber += 1
        }
        // The column's own controller: nothing to replace, nothing changes.
        w.send(Op.showDetail("P", id("D")), events: []) { _ in }
    }
}

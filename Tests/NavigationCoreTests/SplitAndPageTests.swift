import Testing
import NavigationCore

/// §14, §15: split view collapse/expand on trait changes; page view controllers.
@Suite("split view (R91, R92) and page view (R94, R95) controllers")
struct SplitAndPageTests {
    @Test("R91: collapsing a classic split: by default the navigation primary pushes the secondary")
    func collapsePushesSecondary() {
        var w = Window(root: split("S", primary: nav("N1", vc("M")), secondary: vc("D")), traits: iPadRegular)
        #expect(w["S"].split?.isCollapsed == false)
        #expect(w.isAppeared("M") && w.isAppeared("D"))
        let r = w.perform(.setTraits(iPadCompactWidth))
        #expect(w["S"].split?.isCollapsed == true)
        #expect(w.stack("N1") == ["M", "D"])
        #expect(w["D"].parent == "N1")
        #expect(w.state.nearestAncestor("D", kind: .navigationController) == "N1")
        #expect(w.state.visibleViewController == "D")
        #expect(of("D", names(r)).isEmpty, "R36: D stays on screen, so it gets no callbacks")
        #expect(w.isAppeared("D"))
        w.checkInvariants()
    }

    @Test("R91: a delegate answering collapseSecondary…onto: true discards the secondary")
    func collapseDiscardsSecondary() {
        var w = Window(
            root: split("S", primary: nav("N1", vc("M")), secondary: vc("D"), collapseSecondaryOntoPrimary: true),
            traits: iPadRegular)
        w.perform(.setTraits(iPadCompactWidth))
        #expect(w["S"].split?.isCollapsed == true)
        #expect(w.stack("N1") == ["M"])
        #expect(w["D"].parent != "N1")
        #expect(w.state.visibleViewController == "M")
        #expect(w.isAppeared("M"))
        #expect(!w["D"].viewInWindow)
        #expect(w["S"].children == ["N1"] && w["D"].parent == nil, "collapsed, the split has one child")
        w.checkInvariants()
        // Expanded again, the discarded secondary is a column again [INF].
        let r = w.perform(.setTraits(iPadRegular))
        #expect(w["S"].children == ["N1", "D"] && w["D"].parent == "S")
        #expect(names(r) == ["D.viewWillAppear", "D.viewIsAppearing", "D.viewDidAppear"])
        w.checkInvariants()
    }

    @Test("R90: a classic split is configured through viewControllers too; a column-style one is not")
    func classicSplitThroughViewControllers() {
        let w = Window(
            root: make("S", .splitViewController) { $0.viewControllers = [nav("N1", vc("M")), vc("D")] },
            traits: iPadRegular)
        #expect(w["S"].split?.primary == "N1" && w["S"].split?.secondary == "D" && w["S"].children == ["N1", "D"])
        #expect(w.isAppeared("M") && w.isAppeared("D"))
        for spec in [
            make("S", .splitViewController) {
                $0.splitStyle = .doubleColumn; $0.viewControllers = [vc("A"), vc("B")]
            },
            make("S", .splitViewController) { $0.viewControllers = [vc("A"), vc("B"), vc("C")] },
        ] {
            let (_, outcome) = Navigator.apply(.setRoot(spec, animated: false), to: SessionState(traits: iPadRegular))
            guard case .invalid(let e) = outcome else { Issue.record("expected 422, got \(outcome)"); continue }
            #expect(e.field == "viewControllers")
        }
    }

    @Test("R91: a primary that is no navigation controller cannot take the secondary: it is discarded")
    func collapseWithPlainPrimary() {
        var w = Window(root: split("S", primary: vc("M"), secondary: nav("N2", vc("D"))), traits: iPadRegular)
        let r = w.perform(.setTraits(iPadCompactWidth))
        #expect(w["S"].children == ["M"] && w["N2"].parent == nil)
        #expect(w.state.visibleViewController == "M")
        #expect(names(r) == ["N2.viewWillDisappear", "D.viewWillDisappear", "N2.viewDidDisappear", "D.viewDidDisappear"])
        w.checkInvariants()
    }

    @Test("R92: expanding pops the collapsed secondary off the primary and shows it as a column again")
    func expandSeparatesSecondary() {
        var w = Window(root: split("S", primary: nav("N1", vc("M")), secondary: vc("D")), traits: iPadRegular)
        w.perform(.setTraits(iPadCompactWidth))
        w.perform(.setTraits(iPadRegular))
        #expect(w["S"].split?.isCollapsed == false)
        #expect(w.stack("N1") == ["M"])
        #expect(w["D"].parent == "S" && w["S"].children == ["N1", "D"])
        #expect(w["S"].split?.secondary == "D")
        #expect(w.isAppeared("M") && w.isAppeared("D"))
        w.checkInvariants()

        // A split created in compact width starts collapsed.
        let phone = Window(root: split("S", primary: nav("N1", vc("M")), secondary: vc("D")))
        #expect(phone["S"].split?.isCollapsed == true)
        #expect(phone.stack("N1") == ["M", "D"])
        #expect(phone.isAppeared("D"))
    }

    // MARK: Pages

    func pages(
        _ style: PageState.Style = .scroll, spine: PageState.SpineLocation? = nil, doubleSided: Bool = false,
        _ initial: [ControllerRef] = [vc("P1")]
    ) -> Window {
        Window(
            root: make("PV", .pageViewController) {
                $0.pageTransitionStyle = style
                $0.spineLocation = spine
                $0.isDoubleSided = doubleSided
                $0.viewControllers = initial
            })
    }

    @Test("R94: a scroll page view controller needs exactly one page (S79)")
    func scrollNeedsOnePage() {
        var w = pages()
        let d = w.refuse(Op.setViewControllers("PV", [vc("P2"), vc("P3")], direction: .forward, animated: false))
        expectDiagnostic(
            d, code: "D17", slug: "page-count-mismatch", severity: .exception, name: "NSInvalidArgumentException",
            message: "The number of view controllers provided (2) doesn't match the number required (1) for the requested transition")
    }

    @Test("R94: page curl with a mid spine or double-sided pages needs two pages")
    func midSpineNeedsTwoPages() {
        var w = pages(.pageCurl, spine: .mid, [vc("L"), vc("R")])
        let d = w.refuse(Op.setViewControllers("PV", [vc("P2")], direction: .forward, animated: false))
        expectDiagnostic(
            d, code: "D17", slug: "page-count-mismatch", severity: .exception, name: "NSInvalidArgumentException",
            message: "The number of view controllers provided (1) doesn't match the number required (2) for the requested transition")
        // Double-sided pages too.
        var doubleSided = pages(.pageCurl, spine: .min, doubleSided: true, [vc("L"), vc("R")])
        #expect(doubleSided.refuse(Op.setViewControllers("PV", [vc("P2")], direction: .forward))?.code == "D17")
    }

    @Test("R94/R95: scroll: new will-appear, old will-disappear, new did-appear, old did-disappear (S80)")
    func scrollOrder() {
        var w = pages()
        let r = w.perform(Op.setViewControllers("PV", [vc("P2")], direction: .forward, animated: true))
        let order = withoutIsAppearing(appearance(r.events))
        #expect(order == ["P2.viewWillAppear", "P1.viewWillDisappear", "P2.viewDidAppear", "P1.viewDidDisappear"])
        #expect(w.stack("PV") == ["P2"])
        #expect(w["P2"].parent == "PV")
        #expect(w["P1"].parent == nil)
        #expect(!w["PV"].children.contains("P1"))
        #expect(names(r).last == "PV.completion")
        w.checkInvariants()
    }

    @Test("R95: page curl: new will-appear, old will-disappear, old did-disappear, new did-appear")
    func curlOrder() {
        var w = pages(.pageCurl, spine: .min)
        let r = w.perform(Op.setViewControllers("PV", [vc("P2")], direction: .forward, animated: true))
        #expect(
            withoutIsAppearing(appearance(r.events)) == [
                "P2.viewWillAppear", "P1.viewWillDisappear",
                "P1.viewDidDisappear", "P2.viewDidAppear",
            ])
    }
}

// MARK: - Exhaustive: the whole state change of collapse, expand and page changes

extension SplitAndPageTests {
    @Test("R91 exhaustive: collapsing a classic split pushes the secondary onto the navigation primary")
    func exhaustiveCollapse() {
        var w = Window(root: split("S", primary: nav("N1", vc("M")), secondary: vc("D")), traits: iPadRegular)
        w.send(.setTraits(iPadCompactWidth)) {
            $0.traits = iPadCompactWidth
            $0.nextTransitionNumber += 1
            $0.modifySplit("S") { $0.isCollapsed = true }
            $0.modify("S") { $0.children = ["N1"] }
            $0.modify("D") { $0.parent = "N1" }
            $0.modify("N1") { $0.children = ["M", "D"] }
            $0.setStack("N1", ["M", "D"])
            $0.disappeared("M")
        }
    }

    @Test("R92 exhaustive: expanding gives the secondary back to the split as a column")
    func exhaustiveExpand() {
        var w = Window(root: split("S", primary: nav("N1", vc("M")), secondary: vc("D")), traits: iPadRegular)
        let expanded = w.state
        w.perform(.setTraits(iPadCompactWidth))
        w.send(.setTraits(iPadRegular)) {
            // Back to the expanded state; one more transition was counted.
            let counter = $0.nextTransitionNumber
            $0 = expanded
            $0.nextTransitionNumber = counter + 1
        }
    }

    @Test("R94/R95 exhaustive: a page change swaps the current page; the old page leaves its parent")
    func exhaustivePageChange() {
        var w = pages()
        w.send(Op.setViewControllers("PV", [vc("P2")], direction: .forward, animated: true)) {
            $0.create("P2") { $0.parent = "PV" }
            $0.appeared("P2")
            $0.disappeared("P1")
            $0.modify("P1") { $0.parent = nil }
            $0.modify("PV") { $0.children = ["P2"] }
            $0.setPages("PV", ["P2"])
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R94 exhaustive: a page count mismatch is refused and instantiates nothing")
    func exhaustivePageCountMismatch() {
        var w = pages()
        w.sendRefused(
            Op.setViewControllers("PV", [vc("P2"), vc("P3")], direction: .forward, animated: false),
            code: "D17", slug: "page-count-mismatch")
    }
}

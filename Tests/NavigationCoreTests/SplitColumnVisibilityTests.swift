import Testing
import NavigationCore

/// A column-style split's `show(_:)` / `hide(_:)` with the delegate's `willShow`/`willHide`
/// (R121), and a classic split delegate that takes over `show`/`showDetail` (R122).
@Suite("split view controllers: showing and hiding columns (R121), the classic delegate's show (R122)")
struct SplitColumnVisibilityTests {
    /// iPad, regular width: S{P | D} (or S{P | M | D}) with a delegate, expanded; `configure`
    /// sets what else the test's split has.
    func expanded(
        _ style: SplitState.Style = .doubleColumn, delegate: Bool = true, options: Options = Options(iOS: .iOS17),
        _ configure: (inout ControllerSpec) -> Void = { _ in }
    ) -> Window {
        Window(
            root: make("S", .splitViewController) {
                $0.splitStyle = style
                $0.primary = vc("P")
                if style == .tripleColumn { $0.supplementary = vc("M") }
                $0.secondary = vc("D")
                if delegate { $0.hasSplitDelegate = true }
                configure(&$0)
            }, traits: iPadRegular, options: options)
    }

    @Test("R121 exhaustive: hide(.primary) asks willHide, then the primary column's views disappear in one animated transition")
    func hidePrimaryDoubleColumn() {
        var w = expanded()
        let r = w.sendColumn(.primary, hiding: true, top: "P", mode: .secondaryOnly)
        #expect(r.transition?.operation == .hideColumn && r.transition?.animated == true)
        #expect(r.events.first?.column == .primary)
        #expect(w.state.settledViewsInWindow == ["S", "S.secondary", "D"])
        // Hidden already: nothing to do, nothing reported.
        w.send(.hideColumn(receiver: "S", column: .primary), events: []) { _ in }
    }

    @Test("R121 exhaustive: show(.primary) from content inside the split brings the column back, willShow first")
    func showPrimaryFromContent() {
        var w = expanded()
        w.perform(.hideColumn(receiver: "S", column: .primary))
        // The receiver rule of container operations: D's splitViewController receives it.
        w.sendColumn(.primary, receiver: "D", top: "P", mode: .oneBesideSecondary)
        // The secondary always shows: show(.secondary) changes nothing.
        w.send(.showColumn(receiver: "S", column: .secondary), events: []) { _ in }
    }

    @Test("R121 exhaustive (tripleColumn): hiding the supplementary hides the primary with it; each column is announced in column order")
    func tripleColumnModes() {
        var w = expanded(.tripleColumn)
        w.send(
            .hideColumn(receiver: "S", column: .supplementary),
            events: [
                "S.splitViewControllerWillHide(primary)", "S.splitViewControllerWillHide(supplementary)",
                "S.primary.viewWillDisappear", "P.viewWillDisappear", "S.supplementary.viewWillDisappear", "M.viewWillDisappear",
                "S.primary.viewDidDisappear", "P.viewDidDisappear", "S.supplementary.viewDidDisappear", "M.viewDidDisappear",
            ]
        ) {
            $0.modifySplit("S") { $0.displayMode = .secondaryOnly }
            $0.disappeared("S.primary", "P", "S.supplementary", "M")
            $0.nextTransitionNumber += 1
        }
        w.sendColumn(.supplementary, top: "M", mode: .oneBesideSecondary)
        w.sendColumn(.primary, top: "P", mode: .twoBesideSecondary)
        // Hiding the primary of a triple-column split keeps the supplementary beside the secondary.
        w.sendColumn(.primary, hiding: true, top: "P", mode: .oneBesideSecondary)
    }

    @Test("R121: without a delegate only the appearance callbacks; a push onto a hidden column appears when it is shown")
    func noDelegateAndHiddenPush() {
        var w = expanded(delegate: false)
        #expect(names(w.perform(.hideColumn(receiver: "S", column: .primary)).events).allSatisfy { !$0.contains("splitViewController") })
        let push = w.perform(Op.push("P", vc("X")))
        #expect(names(push.events) == ["X.willMoveToParent(S.primary)", "X.didMoveToParent(S.primary)"], "off screen: no appearance")
        let shown = w.perform(.showColumn(receiver: "S", column: .primary))
        // The transition loads the new top's view before the appearance callbacks, as a push does.
        #expect(
            names(shown.events) == [
                "X.viewDidLoad", "S.primary.viewWillAppear", "S.primary.viewIsAppearing", "X.viewWillAppear", "X.viewIsAppearing",
                "S.primary.viewDidAppear", "X.viewDidAppear",
            ])
        w.checkInvariants()
    }

    @Test("R121: a classic split, a doubleColumn supplementary, hiding the secondary and a receiver with no split are refused; a collapsed split changes nothing")
    func refusalsAndCollapsed() {
        var classic = Window(root: split("S", primary: vc("P"), secondary: vc("D")), traits: iPadRegular)
        #expect(classic.sendInvalid(.showColumn(receiver: "S", column: .primary))?.field == "column")
        var w = expanded()
        #expect(w.sendInvalid(.showColumn(receiver: "S", column: .supplementary))?.message.contains("no supplementary column") == true)
        #expect(w.sendInvalid(.hideColumn(receiver: "S", column: .secondary))?.message.contains("secondary") == true)
        var plain = Window(root: nav("N", vc("A")))
        #expect(plain.sendInvalid(.showColumn(receiver: "A", column: .primary))?.kind == .wrongReceiver)
        var compact = expanded()
        compact.perform(.setTraits(iPadCompactWidth))
        #expect(compact["S"].split?.isCollapsed == true)
        compact.send(.hideColumn(receiver: "S", column: .primary), events: []) { _ in }
    }

    // MARK: R122

    func classicSplit(show: Bool? = nil, showDetail: Bool? = nil) -> Window {
        expanded(.unspecified) {
            $0.splitDelegateShow = show
            $0.splitDelegateShowDetail = showDetail
        }
    }

    @Test("R122 exhaustive: a classic delegate answering true to show(_:sender:) shows it itself: the split does nothing more")
    func delegateTakesOverShow() {
        var w = classicSplit(show: true)
        w.perform(.createController(ControllerSpec(id: "X")))
        w.send(Op.show("P", id("X")), events: ["S.splitViewControllerShow"]) { _ in }
    }

    @Test("R122 exhaustive: a classic delegate answering true to showDetail(_:sender:) keeps the secondary, collapsed or not")
    func delegateTakesOverShowDetail() {
        var w = classicSplit(showDetail: true)
        w.perform(.createController(ControllerSpec(id: "X")))
        w.send(Op.showDetail("P", id("X")), events: ["S.splitViewControllerShowDetail"]) { _ in }
        w.perform(.setTraits(iPadCompactWidth))
        w.send(Op.showDetail("P", id("X")), events: ["S.splitViewControllerShowDetail"]) { _ in }
    }

    @Test("R122: answering false, the delegate is asked and the split shows as it would without it; a column-style split never asks")
    func delegateAnswersFalseAndColumnStyle() {
        var w = classicSplit(show: false, showDetail: false)
        let r = w.perform(Op.showDetail("P", vc("X")))
        #expect(names(r.events).first == "S.splitViewControllerShowDetail")
        #expect(w["S"].split?.secondary == "X")
        let s = w.perform(Op.show("X", vc("Y")))
        #expect(names(s.events).first == "S.splitViewControllerShow")
        #expect(w["S"].split?.primary == "Y")
        var column = expanded {
            $0.splitDelegateShow = true
            $0.splitDelegateShowDetail = true
        }
        let pushed = column.perform(Op.show("P", vc("Z")))
        #expect(!names(pushed.events).contains { $0.contains("splitViewControllerShow") })
        #expect(column.stack("S.primary") == ["P", "Z"])
    }

    // MARK: R123

    /// iPad: S{P | D} with a compact column C.
    func withCompact() -> Window {
        expanded(delegate: false) { $0.compact = vc("C") }
    }

    @Test("R123: the compact column's controller is the split's child as it is, off screen until the split collapses")
    func compactColumnWaitsForTheCollapse() {
        let w = withCompact()
        #expect(w["S"].children == ["S.primary", "S.secondary", "C"])
        #expect(w["S"].split?.compact == "C" && w["C"].parent == "S" && w["C"].kind == .viewController)
        #expect(!w["C"].isViewLoaded && !w["C"].viewInWindow)
        #expect(w.state.holders(of: "C") == [.controller("S")])
        w.checkInvariants()
    }

    @Test("R123 exhaustive: collapsing shows the compact column instead of merging the columns; expanding brings the columns back")
    func compactColumnReplacesTheColumnsWhileCollapsed() {
        var w = withCompact()
        let collapsed = w.perform(.setTraits(iPadCompactWidth))
        let seen = names(collapsed.events)
        #expect(["C.viewDidLoad", "C.viewWillAppear", "C.viewDidAppear", "P.viewDidDisappear", "D.viewDidDisappear"].allSatisfy(seen.contains), "\(seen)")
        #expect(w["S"].split?.isCollapsed == true)
        #expect(w.stack("S.primary") == ["P"] && w.stack("S.secondary") == ["D"], "no stack is merged")
        #expect(w["S"].split?.collapsedSecondary == [])
        #expect(w.state.visibleViewController == "C")
        #expect(w.state.settledViewsInWindow == ["S", "C"])
        let expanded = w.perform(.setTraits(iPadRegular))
        #expect(names(expanded.events).contains("C.viewDidDisappear") && names(expanded.events).contains("D.viewDidAppear"))
        #expect(w.state.settledViewsInWindow == ["S", "S.primary", "P", "S.secondary", "D"])
        #expect(w.stack("S.primary") == ["P"] && w.stack("S.secondary") == ["D"])
        w.checkInvariants()
    }

    @Test("R123: a classic split has no compact column")
    func classicHasNoCompactColumn() {
        let e = splitRootRefusal {
            $0.splitStyle = .unspecified
            $0.primary = vc("P")
            $0.compact = vc("C")
        }
        #expect(e?.field == "compact")
    }

    // MARK: R125

    @Test("R125 exhaustive: iOS 26's inspector column is hidden at first; show(.inspector) brings it beside the secondary, display mode unchanged")
    func inspectorColumn() {
        var w = expanded(options: Options(iOS: .iOS26)) { $0.inspector = vc("I") }
        #expect(w["S"].children == ["S.primary", "S.secondary", "S.inspector"])
        #expect(w["S"].split?.inspector == "I" && w["S"].split?.inspectorNavigation == "S.inspector")
        #expect(!w["I"].isViewLoaded && w.state.settledViewsInWindow == ["S", "S.primary", "P", "S.secondary", "D"])
        w.send(
            .showColumn(receiver: "S", column: .inspector),
            events: [
                "S.splitViewControllerWillShow(inspector)", "S.inspector.viewDidLoad", "I.viewDidLoad", "S.inspector.viewWillAppear",
                "S.inspector.viewIsAppearing", "S.inspector.updateProperties", "I.viewWillAppear", "I.viewIsAppearing", "I.updateProperties",
                "S.inspector.viewDidAppear", "I.viewDidAppear",
            ]
        ) {
            $0.modifySplit("S") { $0.isShowingInspector = true }
            $0.appeared("S.inspector", "I")
            $0.modify("S.inspector") { $0.propertiesUpToDate = true }
            $0.modify("I") { $0.propertiesUpToDate = true }
            $0.nextTransitionNumber += 1
        }
        #expect(w["S"].split?.displayMode == nil)
        w.send(
            .hideColumn(receiver: "D", column: .inspector),
            events: [
                "S.splitViewControllerWillHide(inspector)", "S.inspector.viewWillDisappear", "I.viewWillDisappear",
                "S.inspector.viewDidDisappear", "I.viewDidDisappear",
            ]
        ) {
            $0.modifySplit("S") { $0.isShowingInspector = false }
            $0.disappeared("S.inspector", "I")
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R125: before iOS 26 there is no inspector column, neither in a spec nor for show(_:)")
    func noInspectorBeforeIOS26() {
        let e = splitRootRefusal {
            $0.splitStyle = .doubleColumn
            $0.primary = vc("P")
            $0.inspector = vc("I")
        }
        #expect(e?.field == "inspector")
        var split = expanded()
        #expect(split.sendInvalid(.showColumn(receiver: "S", column: .inspector))?.message.contains("iOS 26") == true)
    }
}

import Testing
import NavigationCore

/// A classic split nests a navigation secondary when it collapses (R91) and
/// gives it back when it expands (R92); an expanded `showDetail` replaces the secondary (R67); a
/// split has no compact environment until it is in a window (R91).
@Suite("split view fidelity (R67, R91, R92)")
struct SplitFidelityTests {
    /// `S{N1[M], N2[D]}` on an iPad in regular width.
    func nestedSplit(discards: Bool? = nil) -> Window {
        Window(
            root: split("S", primary: nav("N1", vc("M")), secondary: nav("N2", vc("D")), collapseSecondaryOntoPrimary: discards),
            traits: iPadRegular)
    }

    /// The spec of a detached classic split `S{N1[M], D}`.
    func detachedSpec() -> ControllerSpec {
        guard case .new(let spec) = split("S", primary: nav("N1", vc("M")), secondary: vc("D")) else {
            preconditionFailure("split(…) makes a spec")
        }
        return spec
    }

    @Test("Item 2 / R91: collapsing pushes the navigation secondary as one entry; it keeps its own stack")
    func collapseNestsNavigationSecondary() {
        var w = nestedSplit()
        w.send(.setTraits(iPadCompactWidth), events: ["M.viewWillDisappear", "M.viewDidDisappear"]) {
            $0.traits = iPadCompactWidth
            $0.nextTransitionNumber += 1
            $0.modifySplit("S") { $0.isCollapsed = true }
            $0.modify("S") { $0.children = ["N1"] }
            $0.modify("N2") { $0.parent = "N1" }
            $0.modify("N1") { $0.children = ["M", "N2"] }
            $0.setStack("N1", ["M", "N2"])
            $0.disappeared("M")
        }
        #expect(w.state.nearestAncestor("D", kind: .navigationController) == "N2", "D.navigationController is N2")
        #expect(w.state.visibleViewController == "D")
        w.checkInvariants()
    }

    @Test("Item 2 / R92: expanding pops the nested navigation secondary and it is the split's secondary again")
    func expandSeparatesNestedSecondary() {
        var w = nestedSplit()
        let expanded = w.state
        w.perform(.setTraits(iPadCompactWidth))
        w.send(.setTraits(iPadRegular), events: ["M.viewWillAppear", "M.viewIsAppearing", "M.viewDidAppear"]) {
            let counter = $0.nextTransitionNumber
            $0 = expanded
            $0.nextTransitionNumber = counter + 1
        }
        #expect(w["S"].split?.secondary == "N2" && w["N2"].parent == "S")
    }

    @Test("Item 2 / R92: what was pushed while collapsed goes back with the nested secondary")
    func expandTakesPushesAlong() {
        var w = nestedSplit()
        w.perform(.setTraits(iPadCompactWidth))
        w.perform(Op.show("D", vc("E")))  // pushes onto N2, D's navigation controller
        #expect(w.stack("N2") == ["D", "E"] && w.stack("N1") == ["M", "N2"])
        w.perform(.setTraits(iPadRegular))
        #expect(w.stack("N1") == ["M"] && w.stack("N2") == ["D", "E"])
        #expect(w["S"].children == ["N1", "N2"] && w["N2"].parent == "S")
        #expect(w.isAppeared("M") && w.isAppeared("E"))
        w.checkInvariants()
    }

    @Test("Item 2 / R91: a delegate answering collapseSecondary…onto: true still discards a navigation secondary")
    func delegateDiscardsNavigationSecondary() {
        var w = nestedSplit(discards: true)
        w.send(.setTraits(iPadCompactWidth)) {
            $0.traits = iPadCompactWidth
            $0.nextTransitionNumber += 1
            $0.modifySplit("S") { $0.isCollapsed = true }
            $0.modify("S") { $0.children = ["N1"] }
            $0.modify("N2") { $0.parent = nil }
            $0.disappeared("N2", "D")
        }
        #expect(w.stack("N2") == ["D"])
        w.checkInvariants()
    }

    @Test("Item 3 / R67: expanded, showDetail of a plain controller replaces a navigation secondary (S49)")
    func showDetailReplacesNavigationSecondary() {
        var w = nestedSplit()
        w.send(Op.showDetail("M", vc("X"))) {
            $0.create("X") { $0.parent = "S" }
            $0.appeared("X")
            $0.modify("S") { $0.children = ["N1", "X"] }
            $0.modifySplit("S") { $0.secondary = "X" }
            $0.modify("N2") { $0.parent = nil }
            $0.disappeared("N2", "D")
            $0.nextTransitionNumber += 2
        }
        #expect(w.stack("N2") == ["D"], "the old secondary keeps its stack")
        w.checkInvariants()
    }

    @Test("Item 4 / R91: a split created detached on an iPhone is not collapsed until it is in a window")
    func detachedSplitIsNotCollapsed() {
        var w = Window(root: vc("A"))
        let spec = detachedSpec()
        w.send(.createController(spec)) {
            $0.create("S", .splitViewController) { $0.children = ["N1", "D"] }
            $0.modifySplit("S") {
                $0.primary = "N1"; $0.secondary = "D"
            }
            $0.create("N1", .navigationController) {
                $0.parent = "S"; $0.children = ["M"]
            }
            $0.setStack("N1", ["M"])
            $0.create("M") { $0.parent = "N1" }
            $0.create("D") { $0.parent = "S" }
        }
        // It collapses when it enters the window in compact width.
        w.send(.setRoot(.existing("S"), animated: false)) {
            $0.rootViewController = "S"
            $0.nextTransitionNumber += 1
            $0.modifySplit("S") { $0.isCollapsed = true }
            $0.modify("S") { $0.children = ["N1"] }
            $0.modify("D") { $0.parent = "N1" }
            $0.modify("N1") { $0.children = ["M", "D"] }
            $0.setStack("N1", ["M", "D"])
            $0.appeared("S", "N1", "D")
            $0.disappeared("A")
        }
        w.checkInvariants()
    }

    @Test("Item 4 / R91: a detached split collapses when it is presented or added as a child in compact width")
    func detachedSplitCollapsesOnEntering() {
        for enter in ["present", "addChild"] {
            var w = Window(root: vc("A"))
            w.perform(.createController(detachedSpec()))
            #expect(w["S"].split?.isCollapsed == false && w["S"].children == ["N1", "D"])
            w.perform(
                enter == "present"
                    ? Op.present("A", .existing("S"), .fullScreen)
                    : .addChild(receiver: "A", viewController: .existing("S")))
            #expect(w["S"].split?.isCollapsed == true, "\(enter)")
            #expect(w["S"].children == ["N1"] && w.stack("N1") == ["M", "D"], "\(enter)")
            w.checkInvariants()
        }
        // Detached in regular width, nothing changes either: it collapses on entering only.
        var pad = Window(root: vc("A"), traits: iPadRegular)
        pad.perform(.createController(detachedSpec()))
        pad.perform(.setTraits(iPadCompactWidth))
        #expect(pad["S"].split?.isCollapsed == false, "a trait change does not reach a detached split")
    }
}

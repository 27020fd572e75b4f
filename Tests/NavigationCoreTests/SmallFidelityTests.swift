import Testing
import NavigationCore

/// The receiver rule of container operations, a custom container's context
/// presentation in `visibleViewController`, the appearance order kept, and D8's wording by release.
@Suite struct SmallFidelityTests {
    // MARK: one receiver rule (`navigationController?` / `tabBarController?`)

    @Test("item11_receiver: push sent to a navigation child goes to its navigationController; nothing else moves")
    func item11_pushToChild() {
        var w = Window(root: nav("N", vc("A")))
        w.send(Op.push("A", vc("B"))) {
            $0.pushedNew("B", onto: "N", over: ["A"])
        }
    }

    @Test("item11_receiver: select sent to a tab goes to its tabBarController, as push does")
    func item11_selectOnTabChild() {
        var w = Window(root: tabs("T", [vc("A"), vc("B"), vc("C")]))
        w.send(.select(receiver: "A", index: 1, viewController: nil)) {
            $0.appeared("B")
            $0.disappeared("A")
            $0.setSelected("T", "B")
            $0.nextTransitionNumber += 1
        }
    }

    @Test("item11_receiver: select inside a navigation controller inside a tab finds the tab bar controller")
    func item11_selectFromNestedChild() {
        var w = Window(root: tabs("T", [nav("N", vc("A")), vc("B")]))
        w.perform(.select(receiver: "A", index: 1, viewController: nil))
        #expect(w["T"].selectedViewController == "B")
        #expect(w.state.visibleViewController == "B")
    }

    @Test("item11_receiver: setViewControllers sent to a navigation child replaces its navigationController's stack")
    func item11_setViewControllersOnChild() {
        var w = Window(root: nav("N", vc("A")))
        w.perform(Op.setViewControllers("A", [id("A"), vc("B")]))
        #expect(w["N"].viewControllers == ["A", "B"])
    }

    @Test("item11_receiver: with no container of the kind above, every container operation is invalid and changes nothing")
    func item11_noContainerIsInvalid() {
        var w = Window(root: vc("A"))
        let select = w.sendInvalid(.select(receiver: "A", index: 0, viewController: nil))
        #expect(select?.message == "\(desc("A")) is not a tab bar controller and has no tabBarController.")
        let tap = w.sendInvalid(.tapTab(receiver: "A", index: 0, viewController: nil))
        #expect(tap?.kind == .wrongReceiver)
        #expect(tap?.field == nil)
        let push = w.sendInvalid(Op.push("A", vc("B")))
        #expect(push?.message == "\(desc("A")) is not a navigation controller and has no navigationController.")
        w.sendInvalid(Op.pop("A"))
        w.sendInvalid(Op.popToRoot("A"))
        w.sendInvalid(Op.setViewControllers("A", [vc("B")]))
    }

    @Test("item11_receiver: a presented controller does not reach the presenter's navigation controller (R5)")
    func item11_noCrossingPresentation() {
        var w = Window(root: nav("N", vc("A")))
        w.perform(Op.present("A", vc("B")))
        w.sendInvalid(Op.push("B", vc("C")))
        w.sendInvalid(.select(receiver: "B", index: 0, viewController: nil))
    }

    // MARK: visibleViewController and a custom container

    @Test("item11_visible: a currentContext presentation inside a custom container is what the window shows")
    func item11_visibleInCustomContainer() {
        var w = Window(root: container("P", children: [vc("A") { $0.definesPresentationContext = true }, vc("B")]))
        #expect(w.state.visibleViewController == "P")
        w.perform(Op.present("A", vc("C"), .currentContext))
        #expect(w["A"].presentedID == "C")
        #expect(w.state.visibleViewController == "C")
        w.perform(Op.dismiss("C"))
        #expect(w.state.visibleViewController == "P")
    }

    @Test("item11_visible: a context presentation inside a navigation controller inside a custom container descends into it")
    func item11_visibleThroughNestedContainers() {
        var w = Window(root: container("P", children: [nav("N", vc("A")), vc("B")]))
        w.perform(Op.present("A", nav("M", vc("X")), .currentContext))
        #expect(w["N"].presentedID == "M")
        #expect(w.state.visibleViewController == "X")
    }

    // MARK: appearance order: kept as it is (docs/uikit-behaviours.md, Appearance callbacks)

    @Test("item11_appearanceOrder: each controller's viewIsAppearing follows its own viewWillAppear, parent first")
    func item11_appearanceOrderKept() {
        var w = Window(root: vc("A"))
        let r = w.perform(Op.present("A", nav("N", vc("S")), .overFullScreen))
        let wills = names(r).filter { $0.hasSuffix(".viewWillAppear") || $0.hasSuffix(".viewIsAppearing") }
        #expect(wills == ["N.viewWillAppear", "N.viewIsAppearing", "S.viewWillAppear", "S.viewIsAppearing"])
    }

    // MARK: D8's wording

    @Test("item11_D8: from iOS 13 D8 names the source and ends with a period")
    func item11_d8Modern() {
        var w = Window(root: vc("A"), options: manual)
        w.perform(Op.present("A", vc("B"), .fullScreen))
        w.sendRefused(
            Op.present("B", vc("C")), code: "D8", slug: "presentation-in-progress",
            message: "Attempt to present \(desc("C")) on \(desc("B")) (from \(desc("B"))) while a presentation is in progress.")
    }

    @Test("item11_D8: iOS 12 keeps the old console text")
    func item11_d8Legacy() {
        var w = Window(root: vc("A"), options: Options(iOS: .iOS12, transitions: .manual))
        w.perform(Op.present("A", vc("B"), .fullScreen))
        w.sendRefused(
            Op.present("B", vc("C")), code: "D8", slug: "presentation-in-progress",
            message: "Warning: Attempt to present \(desc("C")) on \(desc("B")) while a presentation is in progress!")
    }
}

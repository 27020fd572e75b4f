import Testing
@testable import NavigationCore

/// Push and pop on a deep stack in a session that also holds controllers off screen (so
/// that a push deep in a stack costs what one near the root costs). The engine finds what it needs
/// without building lists of the whole session; these tests state the whole state change, so
/// a shortcut that skips a controller it should have looked at fails here.
@Suite("deep stacks (R75–R78, R91)")
struct DeepStackTests {
    /// `N[c0…c(depth-1)]` as the window's root, plus a detached `X[x0, x1]` and a detached `D`.
    func deep(_ depth: Int, options: Options = Options(iOS: .iOS17)) -> Window {
        var spec = ControllerSpec(id: "N", kind: .navigationController)
        spec.viewControllers = (0..<depth).map { vc("c\($0)") }
        var w = Window(root: .new(spec), options: options)
        w.perform(.createController(ControllerSpec(id: "D", kind: .viewController)))
        var other = ControllerSpec(id: "X", kind: .navigationController)
        other.viewControllers = [vc("x0"), vc("x1")]
        w.perform(.createController(other))
        return w
    }

    @Test("R77 exhaustive: a push onto a 40-deep stack changes the navigation controller, the old top and the new one")
    func pushOnDeepStack() {
        var w = deep(40)
        let stack = (0..<40).map { "c\($0)" }
        let r = w.send(
            Op.push("N", vc("top"), animated: false),
            events: [
                "top.willMoveToParent(N)", "top.viewDidLoad", "c39.viewWillDisappear",
                "top.viewWillAppear", "top.viewIsAppearing", "c39.viewDidDisappear",
                "top.viewDidAppear", "top.didMoveToParent(N)",
            ]
        ) {
            $0.pushedNew("top", onto: "N", over: stack)
        }
        #expect(r.transition?.operation == .push)
        #expect(w.state.viewsInWindow == ["N", "top"])
        w.checkInvariants()
    }

    @Test("R78 exhaustive: a pop on a 40-deep stack removes the top; only the new top appears")
    func popOnDeepStack() {
        var w = deep(40)
        w.send(
            Op.pop("N", animated: false),
            events: [
                "c39.willMoveToParent(nil)", "c38.viewDidLoad", "c39.viewWillDisappear",
                "c38.viewWillAppear", "c38.viewIsAppearing", "c39.viewDidDisappear",
                "c38.viewDidAppear", "c39.didMoveToParent(nil)",
            ]
        ) {
            $0.modify("c39") { $0.parent = nil }
            $0.disappeared("c39")
            $0.appeared("c38")
            $0.modify("N") { $0.children = (0..<39).map { "c\($0)" } }
            $0.setStack("N", (0..<39).map { "c\($0)" })
            $0.nextTransitionNumber += 1
        }
        #expect(w.state.viewsInWindow == ["N", "c38"])
    }

    @Test("R36/R38: a presentation over a running push on a deep stack: what is on screen disappears once, in order")
    func presentOverRunningPushOnDeepStack() {
        var w = deep(30, options: manual)
        w.perform(Op.push("N", vc("top")))
        let r = w.perform(Op.present("N", vc("M"), .fullScreen))
        // N is on screen and `top` still appearing; c29 is already disappearing and is not told again.
        #expect(names(r).filter { $0.hasSuffix(".viewWillDisappear") } == ["N.viewWillDisappear", "top.viewWillDisappear"])
        w.checkInvariants()
    }

    @Test("R6: viewsInWindow is every controller whose view and parent chain are in the window, in creation order")
    func viewsInWindowMatchesTheDefinition() {
        var w = deep(12)
        w.perform(Op.present("c11", nav("M", vc("m0")), .fullScreen, animated: false))
        let byDefinition = w.state.order.filter { w.state.controllers[$0] != nil && w.state.isViewInWindow($0) }
        #expect(w.state.viewsInWindow == byDefinition)
        #expect(byDefinition == ["M", "m0"], "R24: a full-screen presentation removes the presenter's views")
    }

    @Test("R91/R92: the split view controllers are listed in creation order, whatever their ids")
    func splitViewControllersInCreationOrder() {
        var w = Window(root: vc("root"))
        for id in ["S9", "S1", "S5"] {
            w.perform(.createController(ControllerSpec(id: id, kind: .splitViewController)))
            w.perform(.createController(ControllerSpec(id: "after-\(id)", kind: .viewController)))
        }
        #expect(w.state.splitViewControllers == ["S9", "S1", "S5"])
        var none = Window(root: nav("N", vc("A")))
        none.perform(.createController(ControllerSpec(id: "B", kind: .viewController)))
        #expect(none.state.splitViewControllers.isEmpty)
    }

    @Test("changedControllers lists a deep push's few changes in creation order")
    func changedControllersOfADeepPush() {
        let w = deep(60)
        let r = Navigator.run([Op.push("N", vc("top"), animated: false)], on: w.state)
        // Exact (the helper compares every controller), in creation order, and only these three.
        expectChangedControllersExact(w.state, r, sourceLocation: #_sourceLocation)
        #expect(Set(r.changedControllers) == ["N", "c59", "top"])
        #expect(r.changedControllers == r.state.order.filter { ["N", "c59", "top"].contains($0) })
        // Many changes at once (more than a short list): still exact and in creation order.
        let all = Navigator.run(
            [.setViewControllers(receiver: "N", viewControllers: [vc("n0"), vc("n1")], direction: nil, animated: false)],
            on: w.state)
        expectChangedControllersExact(w.state, all, sourceLocation: #_sourceLocation)
        #expect(all.changedControllers.count > 8)
    }
}

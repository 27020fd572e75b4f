import Testing
import NavigationCore

/// §12: UINavigationController.
@Suite("navigation controller (R75–R83)")
struct NavigationControllerTests {
    let invalidArgument = "NSInvalidArgumentException"
    let inconsistency = "NSInternalInconsistencyException"

    /// `W.root = N[ids…]`, every controller's view loaded (each was on screen once), as the
    /// spec's tables assume for controllers that were shown.
    func stack(_ ids: String..., options: Options = Options()) -> Window {
        var w = Window(root: nav("N", vc(ids[0])), options: options)
        for id in ids.dropFirst() { w.perform(Op.push("N", vc(id), animated: false)) }
        return w
    }

    @Test("R75: the stack is the children, bottom to top; only the top is on screen")
    func stackModel() {
        let w = Window(root: nav("N", vc("A"), vc("B"), vc("C")))
        #expect(w.stack("N") == ["A", "B", "C"])
        #expect(w["N"].children == ["A", "B", "C"])
        #expect(w.state.topViewController("N") == "C")
        #expect(w.isAppeared("C") && w.isDisappeared("B") && w.isDisappeared("A"))
        #expect(!w["A"].isViewLoaded, "R31: views load only when needed")
        #expect(Set(w.state.settledViewsInWindow) == ["N", "C"])
        w.checkInvariants()
    }

    @Test("R76: pushing a navigation controller raises D12 (S57)")
    func pushNavigationController() {
        var w = Window(root: nav("N", vc("A")))
        w.perform(.createController(ControllerSpec(id: "N2", kind: .navigationController)))
        let d = w.refuse(Op.push("N", id("N2")))
        expectDiagnostic(
            d, code: "D12", slug: "push-navigation-controller", severity: .exception, name: invalidArgument,
            message: "Pushing a navigation controller is not supported")
    }

    @Test("R76: pushing a controller already in the stack raises D13 (S56)")
    func pushDuplicate() {
        var w = Window(root: nav("N", vc("A")))
        let d = w.refuse(Op.push("N", id("A")))
        expectDiagnostic(
            d, code: "D13", slug: "push-duplicate", severity: .exception, name: invalidArgument,
            message:
                "\(desc("N", .navigationController)) is pushing the same view controller instance (\(desc("A"))) more than once which is not supported and is most likely an error in the application"
        )
        #expect(w.stack("N") == ["A"])
    }

    @Test("R76/R93: a split view controller cannot be pushed (exception)")
    func pushSplitViewController() {
        var w = Window(root: nav("N", vc("A")))
        let d = w.refuse(Op.push("N", make("X", .splitViewController)))
        #expect(d?.severity == .exception)
        #expect(d?.name == invalidArgument)
        #expect(w.state["X"] == nil)
    }

    @Test("R76: a tab bar controller is pushed like any other controller, with navsim's own warning")
    func R76_tabBarControllerPushIsPerformedWithAWarning() {
        var w = Window(root: nav("N", vc("A")))
        let r = w.perform(Op.push("N", tabs("T", [vc("X"), vc("Y")]), animated: false))
        #expect(w.stack("N") == ["A", "T"])
        #expect(w["T"].parent == "N")
        #expect(w.isAppeared("X"), "the selected tab appears with its tab bar controller")
        #expect(r.warnings.count == 1)
        #expect(r.warnings.first?.slug == "tab-bar-controller-pushed")
        #expect(r.warnings.first?.code == nil, "UIKit logs nothing: no UIKit code")
        #expect(r.warnings.first?.severity == .warning)
        #expect(r.warnings.first?.message.contains("documentation") == true)
        w.checkInvariants()
    }

    @Test("R77/R73: push: willMove, load, A will-disappear, B will-appear, A did-disappear, B did-appear, didMove")
    func push() {
        var w = Window(root: nav("N", vc("A")), options: manual)
        let start = w.perform(Op.push("N", vc("B")))
        #expect(
            names(start) == [
                "B.willMoveToParent(N)", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear",
                "B.viewIsAppearing",
            ])
        #expect(w.stack("N") == ["A", "B"], "the stack changes at once")
        #expect(w.state.topViewController("N") == "B")
        #expect(w["B"].isMovingToParent, "true in its appear callbacks")
        #expect(w["A"].parent == "N")
        let end = w.perform(Op.tick)
        #expect(names(end) == ["A.viewDidDisappear", "B.viewDidAppear", "B.didMoveToParent(N)"])
        #expect(!w["B"].isMovingToParent)
        #expect(w["A"].parent == "N", "the old top stays a child")
        #expect(w.isAppeared("B") && w.isDisappeared("A"))
        w.checkInvariants()
    }

    @Test("R77/R71: pushing onto a navigation controller that is not on screen fires containment events only (S64)")
    func pushOffScreen() {
        var w = Window(root: tabs("T", [vc("X"), nav("N", vc("A"))]))
        let r = w.perform(Op.push("N", vc("B")))
        #expect(names(r) == ["B.willMoveToParent(N)", "B.didMoveToParent(N)"])
        #expect(w.stack("N") == ["A", "B"])
        #expect(!w["B"].isViewLoaded)
        // When N appears, B (its top) appears with it.
        let select = w.perform(.select(receiver: "T", index: 1, viewController: nil))
        #expect(withoutIsAppearing(of("B", names(select))) == ["B.viewDidLoad", "B.viewWillAppear", "B.viewDidAppear"])
        #expect(of("A", names(select)).isEmpty)
        #expect(w.isAppeared("B"))
    }

    @Test("R78/R73: pop returns the old top; willMove(nil) first, didMove(nil) last (S58)")
    func pop() {
        var w = stack("A", "B", options: manual)
        let start = w.perform(Op.pop("N"))
        #expect(start.returned == ["B"])
        #expect(names(start) == ["B.willMoveToParent(nil)", "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing"])
        #expect(w["B"].isMovingFromParent)
        #expect(w.stack("N") == ["A"])
        let end = w.perform(Op.tick)
        #expect(names(end) == ["B.viewDidDisappear", "A.viewDidAppear", "B.didMoveToParent(nil)"])
        #expect(w["B"].parent == nil)
        #expect(!w["N"].children.contains("B"))
        #expect(!w["B"].isMovingFromParent)
        w.checkInvariants()
    }

    @Test("R78: pop with only the root on the stack returns nil and does nothing (S59)")
    func popAtRoot() {
        var w = Window(root: nav("N", vc("A")))
        let before = w.state
        let r = w.perform(Op.pop("N"))
        #expect(r.returned == nil)
        #expect(r.events.isEmpty)
        #expect(w.state == before)

        // pop sent to a child goes to its navigation controller.
        var two = Window(root: nav("N", vc("A"), vc("B")))
        #expect(two.perform(Op.pop("B", animated: false)).returned == ["B"])
        #expect(two.stack("N") == ["A"])
    }

    @Test("R79: popToRoot returns the popped controllers; intermediates get containment callbacks only (S60)")
    func popToRoot() {
        var w = stack("A", "B", "C")
        let r = w.perform(Op.popToRoot("N"))
        #expect(r.returned == ["B", "C"])
        #expect(w.stack("N") == ["A"])
        expectGroups(
            names(r),
            [
                ["B.willMoveToParent(nil)", "C.willMoveToParent(nil)"],
                ["C.viewWillDisappear"], ["A.viewWillAppear"], ["A.viewIsAppearing"], ["C.viewDidDisappear"],
                ["A.viewDidAppear"],
                ["B.didMoveToParent(nil)", "C.didMoveToParent(nil)"],
            ])
        #expect(w["B"].parent == nil && w["C"].parent == nil)
    }

    @Test("R79: popTo returns everything above the target; popTo the top returns [] and does nothing")
    func popToMiddle() {
        var w = stack("A", "B", "C", "D")
        let r = w.perform(Op.popTo("N", "B"))
        #expect(r.returned == ["C", "D"])
        #expect(w.stack("N") == ["A", "B"])
        #expect(
            appearance(r.events) == [
                "D.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
                "D.viewDidDisappear", "B.viewDidAppear",
            ])
        #expect(of("C", names(r)) == ["C.willMoveToParent(nil)", "C.didMoveToParent(nil)"])

        // popTo the current top is a no-op returning an empty array.
        let before = w.state
        let again = w.perform(Op.popTo("N", "B"))
        #expect(again.returned == [])
        #expect(again.events.isEmpty)
        #expect(w.state == before)
    }

    @Test("R79: popTo a controller that is not in the stack raises D15 (S61)")
    func popToUnknown() {
        var w = Window(root: nav("N", vc("A"), vc("B")))
        w.perform(.createController(ControllerSpec(id: "X")))
        let d = w.refuse(Op.popTo("N", "X"))
        expectDiagnostic(
            d, code: "D15", slug: "pop-to-unknown", severity: .exception, name: inconsistency,
            message: "Tried to pop to a view controller that doesn't exist.")
    }

    @Test("R80: setViewControllers with a new top that is already in the stack: pop-style, one appearance swap (S62)")
    func setViewControllersPopStyle() {
        var w = stack("A", "B", "C")
        w.perform(.createController(ControllerSpec(id: "D")))
        let r = w.perform(Op.setViewControllers("N", [id("D"), id("A"), id("B")]))
        #expect(w.stack("N") == ["D", "A", "B"])
        #expect(
            appearance(r.events) == [
                "C.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
                "C.viewDidDisappear", "B.viewDidAppear",
            ])
        let events = names(r)
        #expect(of("C", events).filter { $0.contains("Move") } == ["C.willMoveToParent(nil)", "C.didMoveToParent(nil)"])
        #expect(of("D", events) == ["D.willMoveToParent(N)", "D.didMoveToParent(N)"])
        #expect(of("A", events).isEmpty)
        #expect(w["C"].parent == nil && w["D"].parent == "N")
        w.checkInvariants()
    }

    @Test("R80: setViewControllers with a new top not in the stack: push-style")
    func setViewControllersPushStyle() {
        var w = Window(root: nav("N", vc("A")))
        let r = w.perform(Op.setViewControllers("N", [id("A"), vc("B")], animated: false))
        #expect(w.stack("N") == ["A", "B"])
        #expect(
            names(r) == [
                "B.willMoveToParent(N)", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear",
                "B.viewIsAppearing", "A.viewDidDisappear", "B.viewDidAppear", "B.didMoveToParent(N)",
            ])
        #expect(r.events.filter { appearanceCallbacks.contains($0.callback) }.allSatisfy { $0.animated == false })
    }

    @Test("R80: when the top stays the same there is no appearance transition")
    func setViewControllersSameTop() {
        var w = Window(root: nav("N", vc("A"), vc("B")))
        let r = w.perform(Op.setViewControllers("N", [vc("C"), id("B")]))
        #expect(w.stack("N") == ["C", "B"])
        #expect(appearance(r.events).isEmpty)
        expectGroups(names(r), [["A.willMoveToParent(nil)", "C.willMoveToParent(N)", "A.didMoveToParent(nil)", "C.didMoveToParent(N)"]])
        #expect(of("A", names(r)) == ["A.willMoveToParent(nil)", "A.didMoveToParent(nil)"])
        #expect(r.transition == nil)
    }

    @Test("R80: duplicates in setViewControllers raise D14 (S63)")
    func setViewControllersDuplicates() {
        var w = Window(root: nav("N", vc("A")))
        w.perform(.createController(ControllerSpec(id: "B")))
        let d = w.refuse(Op.setViewControllers("N", [id("B"), id("B")], animated: false))
        expectDiagnostic(d, code: "D14", slug: "duplicate-view-controllers", severity: .exception, name: inconsistency, message: nil)
        // `<list>` is UIKit's array description; the spec fixes only the sentence around it.
        #expect(d?.message.hasPrefix("All view controllers in a navigation controller must be distinct (") == true)
        #expect(d?.message.contains(desc("B")) == true)
        #expect(w.stack("N") == ["A"])
    }

    @Test("R83: a finished edge-swipe pop is a pop")
    func interactivePopFinishes() {
        var w = stack("A", "B")
        let r = w.perform(.interactivePop(receiver: "N", completes: true))
        #expect(
            names(r) == [
                "B.willMoveToParent(nil)", "B.viewWillDisappear", "A.viewWillAppear",
                "A.viewIsAppearing", "B.viewDidDisappear", "A.viewDidAppear", "B.didMoveToParent(nil)",
            ])
        #expect(w.stack("N") == ["A"])
        #expect(r.transition?.state == .completed)
    }

    @Test("R83/R38: a cancelled edge-swipe pop follows the cancel pattern; the stack is unchanged")
    func interactivePopCancelled() {
        var w = stack("A", "B")
        let r = w.perform(.interactivePop(receiver: "N", completes: false))
        let events = withoutIsAppearing(appearance(r.events))
        // Disappearing side: will-disappear, then will/did-appear; appearing side: will-appear, then will/did-disappear.
        #expect(of("B", events) == ["B.viewWillDisappear", "B.viewWillAppear", "B.viewDidAppear"])
        #expect(of("A", events) == ["A.viewWillAppear", "A.viewWillDisappear", "A.viewDidDisappear"])
        #expect(r.transition?.state == .cancelled)
        #expect(w.stack("N") == ["A", "B"])
        #expect(w["B"].parent == "N" && !w["B"].isMovingFromParent)
        #expect(w.isAppeared("B") && w.isDisappeared("A"))
        #expect(w.state.transitions.isEmpty)
        w.checkInvariants()
    }
}

// MARK: - Exhaustive: the whole state change of push, pop and setViewControllers

extension NavigationControllerTests {
    @Test("R75/R77 exhaustive: push adds B as child and top; A leaves the window")
    func exhaustivePush() {
        var w = Window(root: nav("N", vc("A")))
        w.send(Op.push("N", vc("B"))) {
            $0.pushedNew("B", onto: "N", over: ["A"])
        }
    }

    @Test("R78 exhaustive: pop removes B from the stack and its parent; B stays a controller")
    func exhaustivePop() {
        var w = Window(root: nav("N", vc("A"), vc("B")))
        w.send(Op.pop("N")) {
            $0.modify("B") { $0.parent = nil }
            $0.disappeared("B")
            $0.appeared("A")
            $0.modify("N") { $0.children = ["A"] }
            $0.setStack("N", ["A"])
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R73/R77 exhaustive (manual): during a push B is moving to its parent and both views are in the window")
    func exhaustiveManualPush() {
        var w = Window(root: nav("N", vc("A")), options: manual)
        w.send(Op.push("N", vc("B"))) {
            $0.create("B") {
                $0.parent = "N"
                $0.isViewLoaded = true
                $0.appearance = .appearing
                $0.viewInWindow = true
                $0.isMovingToParent = true
            }
            $0.modify("A") { $0.appearance = .disappearing }
            $0.modify("N") { $0.children = ["A", "B"] }
            $0.setStack("N", ["A", "B"])
            $0.startRunning(
                TransitionRecord(
                    id: "t2", operation: .push, fromViewController: "A", toViewController: "B",
                    presentationStyle: nil, transitionStyle: nil, animated: true, duration: 0.35,
                    animator: nil, containerView: ["A", "B"], state: .inProgress))
            $0.nextTransitionNumber += 1
        }
        w.send(Op.tick) {
            $0.finishRunning("t2")
            $0.modify("B") { $0.isMovingToParent = false }
            $0.appeared("B")
            $0.disappeared("A")
        }
    }

    @Test("R80 exhaustive: setViewControllers replaces the stack; the old top leaves, the new one appears")
    func exhaustiveSetViewControllers() {
        var w = Window(root: nav("N", vc("A"), vc("B")))
        w.send(Op.setViewControllers("N", [id("A"), vc("C")])) {
            $0.create("C") { $0.parent = "N" }
            $0.appeared("C")
            $0.disappeared("B")
            $0.modify("B") { $0.parent = nil }
            $0.modify("N") { $0.children = ["A", "C"] }
            $0.setStack("N", ["A", "C"])
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R76 exhaustive: refused pushes (duplicate, navigation controller) change nothing, not even the counters")
    func exhaustiveRefusedPushes() {
        var w = Window(root: nav("N", vc("A")))
        w.sendRefused(Op.push("N", id("A")), code: "D13", slug: "push-duplicate")
        w.sendRefused(Op.push("N", nav("N2")), code: "D12", slug: "push-navigation-controller")
        w.send(.createController(ControllerSpec(id: "X"))) { $0.create("X") }
        w.sendRefused(Op.popTo("N", "X"), code: "D15", slug: "pop-to-unknown")
        w.sendRefused(Op.setViewControllers("N", [id("A"), id("A")]), code: "D14", slug: "duplicate-view-controllers")
    }
}

extension NavigationControllerTests {
    @Test("R78 exhaustive (manual): during a pop B is moving from its parent and still its child; detached at the end")
    func exhaustiveManualPop() {
        var w = Window(root: nav("N", vc("A"), vc("B")), options: manual)
        w.send(Op.pop("N")) {
            $0.modify("B") {
                $0.isMovingFromParent = true; $0.appearance = .disappearing
            }
            $0.modify("A") {
                $0.isViewLoaded = true; $0.appearance = .appearing; $0.viewInWindow = true
            }
            $0.setStack("N", ["A"])
            // The core lists a navigation transition's container as [from, to] for a pop too (UIKit's
            // own pop animation inserts the to view below the from view; docs/api.md leaves the order open).
            $0.startRunning(
                TransitionRecord(
                    id: "t2", operation: .pop, fromViewController: "B", toViewController: "A",
                    presentationStyle: nil, transitionStyle: nil, animated: true, duration: 0.35,
                    animator: nil, containerView: ["B", "A"], state: .inProgress))
            $0.nextTransitionNumber += 1
        }
        w.send(Op.tick) {
            $0.finishRunning("t2")
            $0.modify("B") {
                $0.isMovingFromParent = false; $0.parent = nil
            }
            $0.modify("N") { $0.children = ["A"] }
            $0.disappeared("B")
            $0.appeared("A")
        }
    }
}

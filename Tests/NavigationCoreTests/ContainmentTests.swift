import Testing
import NavigationCore

/// §11: custom containers: `addChild`, `removeFromParent`, view insertion, child transitions.
@Suite("containment (R69–R73)")
struct ContainmentTests {
    @Test("R69: addChild calls willMove(toParent:) but not didMove, and detaches from the old parent (S52)")
    func addChildMovesFromOldParent() {
        var w = Window(root: vc("P"))
        w.perform(
            .createController(
                {
                    var s = ControllerSpec(id: "Q"); s.children = [vc("C")]; return s
                }()))
        #expect(w["C"].parent == "Q")
        let r = w.perform(.addChild(receiver: "P", viewController: id("C")))
        #expect(names(r) == ["C.willMoveToParent(P)"])
        #expect(w["C"].parent == "P")
        #expect(w["P"].children == ["C"])
        #expect(!w["Q"].children.contains("C"))
        #expect(w["C"].isMovingToParent)
        w.checkInvariants()
    }

    @Test("R70: removeFromParent calls didMove(toParent: nil) only (S53)")
    func removeFromParent() {
        var w = Window(root: vc("P"))
        w.perform(.addChild(receiver: "P", viewController: vc("C")))
        w.perform(.didMove(receiver: "C", toParent: "P"))
        let r = w.perform(.removeFromParent(receiver: "C"))
        #expect(names(r) == ["C.didMoveToParent(nil)"])
        #expect(w["C"].parent == nil)
        #expect(w["P"].children.isEmpty)
    }

    @Test("R69/R71/R73: addChild, view insertion, didMove: the child loads and appears, moving to its parent (S54)")
    func addChildWithView() {
        var w = Window(root: vc("P"))
        let add = w.perform(.addChild(receiver: "P", viewController: vc("C")))
        #expect(w["C"].isMovingToParent)
        let insert = w.perform(.addSubview(receiver: "P", viewController: "C", animated: false))
        #expect(w["C"].isMovingToParent, "R73: still true in the appearance callbacks caused by becoming a child")
        let did = w.perform(.didMove(receiver: "C", toParent: "P"))
        #expect(
            names(add) + names(insert) + names(did) == [
                "C.willMoveToParent(P)", "C.viewDidLoad", "C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear",
                "C.didMoveToParent(P)",
            ])
        #expect(!w["C"].isMovingToParent)
        #expect(w.isAppeared("C") && w["C"].viewInWindow)
    }

    @Test("R71/R73: removing an appeared child: willMove(nil), its view leaves, removeFromParent")
    func removeAppearedChild() {
        var w = Window(root: container("P", children: [vc("C")]))
        #expect(w.isAppeared("C"))
        let will = w.perform(.willMove(receiver: "C", toParent: nil))
        #expect(w["C"].isMovingFromParent)
        let out = w.perform(.removeFromSuperview(receiver: "C", animated: false))
        let remove = w.perform(.removeFromParent(receiver: "C"))
        #expect(
            names(will) + names(out) + names(remove) == [
                "C.willMoveToParent(nil)", "C.viewWillDisappear", "C.viewDidDisappear", "C.didMoveToParent(nil)",
            ])
        #expect(!w["C"].isMovingFromParent)
        #expect(w.isDisappeared("C") && !w["C"].viewInWindow)
        #expect(w["C"].parent == nil)
    }

    @Test("R71: inserting a child into a parent that is not in the window produces no appearance until it appears")
    func insertIntoDetachedParent() {
        var w = Window(root: vc("A"))
        w.perform(.createController(ControllerSpec(id: "P")))
        w.perform(.addChild(receiver: "P", viewController: vc("C")))
        let insert = w.perform(.addSubview(receiver: "P", viewController: "C", animated: false))
        #expect(appearance(insert.events).isEmpty)
        #expect(w.isDisappeared("C"))
        let root = w.perform(.setRoot(id("P"), animated: false))
        let events = names(root)
        #expect(of("C", events) == ["C.viewDidLoad", "C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear"])
        #expect(of("P", events) == ["P.viewDidLoad", "P.viewWillAppear", "P.viewIsAppearing", "P.viewDidAppear"])
        #expect(events.firstIndex(of: "P.viewWillAppear")! < events.firstIndex(of: "C.viewWillAppear")!, "R37: forwarded to the child")
    }

    @Test("R72: transition(from:to:) with a controller that is not a child raises D23 (S55)")
    func transitionWithNonChild() {
        var w = Window(root: container("P", children: [vc("A")]))
        w.perform(.createController(ControllerSpec(id: "X")))
        let d = w.refuse(.transitionChild(receiver: "P", from: "A", to: "X", animated: false))
        // D23's text follows UIKit's header, not fixed by the spec: identity only.
        expectDiagnostic(
            d, code: "D23", slug: "invalid-child-transition", severity: .exception,
            name: "NSInvalidArgumentException", message: nil)
    }

    @Test("R72: transition(from:to:) swaps the children's views and drives their appearance, then the completion")
    func transitionSwapsChildren() {
        var w = Window(root: container("P", children: [vc("A")]))
        w.perform(.addChild(receiver: "P", viewController: vc("X")))
        let r = w.perform(.transitionChild(receiver: "P", from: "A", to: "X", animated: false))
        let events = names(r)
        #expect(of("A", events) == ["A.viewWillDisappear", "A.viewDidDisappear"])
        #expect(of("X", events) == ["X.viewDidLoad", "X.viewWillAppear", "X.viewIsAppearing", "X.viewDidAppear"])
        #expect(events.last == "P.completion")
        #expect(w.isAppeared("X") && w.isDisappeared("A"))
        #expect(w["A"].parent == "P", "the old child stays a child until removed")
    }

    @Test("R73: a presentation does not set isMovingToParent")
    func presentationIsNotMoving() {
        var w = Window(root: vc("A"), options: manual)
        w.perform(Op.present("A", vc("B")))
        #expect(w["B"].isBeingPresented)
        #expect(!w["B"].isMovingToParent)
    }
}

// MARK: - Exhaustive: the whole state change of each containment call

extension ContainmentTests {
    @Test("R69 exhaustive: addChild links both ends and marks the child moving; no view, no appearance")
    func exhaustiveAddChild() {
        var w = Window(root: vc("P"))
        w.send(.addChild(receiver: "P", viewController: vc("C")), events: ["C.willMoveToParent(P)"]) {
            $0.create("C") {
                $0.parent = "P"; $0.isMovingToParent = true
            }
            $0.modify("P") { $0.children = ["C"] }
        }
        w.send(.addSubview(receiver: "P", viewController: "C", animated: false)) {
            $0.appeared("C")
            $0.modify("C") { $0.viewAddedToParent = true }
            $0.nextTransitionNumber += 1
        }
        w.send(.didMove(receiver: "C", toParent: "P"), events: ["C.didMoveToParent(P)"]) {
            $0.modify("C") { $0.isMovingToParent = false }
        }
    }

    @Test("R70/R71 exhaustive: willMove(nil), view out, removeFromParent, each changes only what it names")
    func exhaustiveRemoveChild() {
        var w = Window(root: container("P", children: [vc("C")]))
        w.send(.willMove(receiver: "C", toParent: nil)) { $0.modify("C") { $0.isMovingFromParent = true } }
        w.send(.removeFromSuperview(receiver: "C", animated: false)) {
            $0.disappeared("C")
            $0.modify("C") { $0.viewAddedToParent = false }
            $0.nextTransitionNumber += 1
        }
        w.send(.removeFromParent(receiver: "C")) {
            $0.modify("C") {
                $0.parent = nil; $0.isMovingFromParent = false
            }
            $0.modify("P") { $0.children = [] }
        }
    }

    @Test("R72 exhaustive: transition(from:to:) with a non-child is refused and changes nothing")
    func exhaustiveTransitionWithNonChild() {
        var w = Window(root: container("P", children: [vc("A")]))
        w.send(.createController(ControllerSpec(id: "X"))) { $0.create("X") }
        w.sendRefused(
            .transitionChild(receiver: "P", from: "A", to: "X", animated: false),
            code: "D23", slug: "invalid-child-transition")
    }

    @Test("R72 exhaustive: transition(from:to:) swaps the views; the old child stays a child")
    func exhaustiveTransitionChild() {
        var w = Window(root: container("P", children: [vc("A")]))
        w.perform(.addChild(receiver: "P", viewController: vc("X")))
        w.send(.transitionChild(receiver: "P", from: "A", to: "X", animated: false)) {
            $0.appeared("X")
            $0.disappeared("A")
            $0.modify("A") { $0.viewAddedToParent = false }
            $0.modify("X") { $0.viewAddedToParent = true }
            $0.nextTransitionNumber += 1
        }
    }
}

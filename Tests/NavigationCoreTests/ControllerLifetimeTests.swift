import Testing
import NavigationCore

/// Release.swift: what holds a controller, the explicit release and the `automatic` policy.
@Suite struct ControllerLifetimeTests {
    let automatic = Options(iOS: .iOS17, release: .automatic)
    let automaticManualTransitions = Options(iOS: .iOS17, transitions: .manual, release: .automatic)

    /// What `command` would drop, asked of the pure core before the exhaustive send.
    func releasedBy(_ command: Command, _ w: Window) -> [ControllerID] {
        Navigator.run([command], on: w.state).released
    }

    @Test("automatic: a pop drops the popped controller it created inline")
    func popReleases() {
        var w = Window(root: nav("N", vc("A"), vc("B")), options: automatic)
        #expect(releasedBy(Op.pop("N", animated: false), w) == ["B"])
        w.send(Op.pop("N", animated: false)) {
            $0.setStack("N", ["A"])
            $0.modify("N") { $0.children = ["A"] }
            $0.appeared("A")
            $0.released("B")
            $0.nextTransitionNumber += 1
        }
    }

    @Test("automatic: a dismissal drops the presented controller and what only it holds")
    func dismissReleasesSubtree() {
        var w = Window(root: vc("R"), options: automatic)
        w.perform(Op.present("R", nav("P", vc("X")), .fullScreen, animated: false))
        #expect(releasedBy(Op.dismiss("R", animated: false), w) == ["P", "X"])
        w.send(Op.dismiss("R", animated: false)) {
            $0.modify("R") { $0.presentedID = nil }
            $0.appeared("R")
            $0.released("P", "X")
            $0.nextTransitionNumber += 1
        }
    }

    @Test("automatic: a controller the client made stays after a pop, until it releases it")
    func clientReferenceKeeps() {
        var w = Window(root: nav("N", vc("A")), options: automatic)
        w.send(.createController(ControllerSpec(id: "D"))) {
            $0.create("D") { $0.isHeldByClient = true }
        }
        w.perform(Op.push("N", id("D"), animated: false))
        let before = w.state
        #expect(releasedBy(Op.pop("N", animated: false), w).isEmpty)
        w.perform(Op.pop("N", animated: false))
        #expect(w.state.controllers["D"] != nil)
        #expect(w.state.holders(of: "D") == [.client])
        #expect(before.holders(of: "D") == [.controller("N"), .client])
        w.send(.release("D")) { $0.released("D") }
    }

    @Test("automatic: a popped controller a running transition still animates stays until the tick")
    func transitionHolds() {
        var w = Window(root: nav("N", vc("A"), vc("B")), options: automaticManualTransitions)
        w.perform(Op.pop("N"))
        #expect(w.state.controllers["B"] != nil)
        let id = w.state.transitions.first?.record.id ?? "?"
        // Until the transition ends, B is still N's child (didMove(nil) comes last, R73).
        #expect(w.state.holders(of: "B") == [.controller("N"), .transition(id)])
        #expect(releasedBy(Op.tick, w) == ["B"])
        w.perform(Op.tick)
        #expect(w.state.controllers["B"] == nil)
        #expect(!w.state.order.contains("B"))
    }

    @Test("automatic: setViewControllers drops the controllers the new stack leaves out")
    func replaceReleasesDropped() {
        var w = Window(root: nav("N", vc("A"), vc("B")), options: automatic)
        #expect(releasedBy(Op.setViewControllers("N", [vc("C")], animated: false), w).sorted() == ["A", "B"])
        w.send(Op.setViewControllers("N", [vc("C")], animated: false)) {
            $0.create("C") { $0.parent = "N" }
            $0.setStack("N", ["C"])
            $0.modify("N") { $0.children = ["C"] }
            $0.appeared("C")
            $0.released("A", "B")
            $0.nextTransitionNumber += 1
        }
    }

    @Test("automatic: a controller still held elsewhere is kept (a child of a detached container stays with it)")
    func heldElsewhereKept() {
        var w = Window(root: nav("N", vc("A")), options: automatic)
        w.perform(
            .createController(
                {
                    var s = ControllerSpec(id: "M", kind: .navigationController); s.viewControllers = [vc("X")]; return s
                }()))
        #expect(w.state.holders(of: "X") == [.controller("M")])
        // The turn changes nothing that holds X: neither M (the client's) nor X goes.
        #expect(releasedBy(Op.push("N", vc("B"), animated: false), w).isEmpty)
    }

    @Test("automatic on a deep stack: a push drops nothing, popTo drops exactly what left the stack, a reorder nothing")
    func deepStackReleasesWhatLeft() {
        let options = Options(iOS: .iOS17, release: .automatic)
        let stack = (0..<40).map { "c\($0)" }
        let w = Window(
            root: .new(
                {
                    var s = ControllerSpec(id: "N", kind: .navigationController); s.viewControllers = stack.map { vc($0) }; return s
                }()), options: options)
        // A push lengthens N's lists: nothing N held before is let go.
        #expect(releasedBy(Op.push("N", vc("top"), animated: false), w).isEmpty)
        // popTo shortens them: what it cut off goes, and nothing else (the pass drops in id order).
        #expect(releasedBy(Op.popTo("N", "c9", animated: false), w).sorted() == stack[10...].sorted())
        // The same controllers in another order: lists that are neither longer nor shorter, nothing let go.
        let reordered = Op.setViewControllers("N", stack.reversed().map { .existing($0) }, animated: false)
        #expect(releasedBy(reordered, w).isEmpty)
        // Leaving some out of the new order drops exactly those.
        let fewer = Op.setViewControllers("N", (stack[..<5] + stack[30...]).map { .existing($0) }, animated: false)
        #expect(releasedBy(fewer, w).sorted() == stack[5..<30].sorted())
    }

    @Test("manual (the default): pops and dismissals drop nothing; the controllers stay detached")
    func manualReleasesNothing() {
        var w = Window(root: nav("N", vc("A"), vc("B")))
        #expect(releasedBy(Op.pop("N", animated: false), w).isEmpty)
        w.send(Op.pop("N", animated: false)) {
            $0.setStack("N", ["A"])
            $0.modify("N") { $0.children = ["A"] }
            $0.modify("B") { $0.parent = nil }
            $0.disappeared("B")
            $0.appeared("A")
            $0.nextTransitionNumber += 1
        }
        #expect(w.state.holders(of: "B").isEmpty)
    }

    @Test("release drops a detached controller with what only it holds")
    func explicitReleaseDropsTree() {
        var w = Window(root: nav("N", vc("A")))
        w.perform(
            .createController(
                {
                    var s = ControllerSpec(id: "M", kind: .navigationController); s.viewControllers = [vc("X"), vc("Y")]; return s
                }()))
        #expect(releasedBy(.release("M"), w) == ["M", "X", "Y"])
        w.send(.release("M"), events: []) { $0.released("M", "X", "Y") }
    }

    @Test("release of a held controller is refused with what holds it, and changes nothing")
    func releaseHeldRefused() {
        var w = Window(root: nav("N", vc("A")))
        let inStack = w.sendInvalid(.release("A"))
        #expect(inStack?.kind == .held)
        #expect(inStack?.message == "Cannot release <UIViewController: A>: it is held by <UINavigationController: N>.")
        let root = w.sendInvalid(.release("N"))
        #expect(root?.message == "Cannot release <UINavigationController: N>: it is held by the window (its rootViewController).")
        #expect(w.sendInvalid(.release("nope"))?.kind == .unknownController)
    }

    @Test("a collapsed split still holds the secondary it discarded (held without being its parent)")
    func collapsedSplitHoldsDiscardedSecondary() {
        var s = ControllerSpec(id: "S", kind: .splitViewController)
        s.primary = vc("P")
        s.secondary = vc("D")
        s.collapseSecondaryOntoPrimary = true
        var w = Window(root: .new(s), traits: Traits(userInterfaceIdiom: .pad, horizontalSizeClass: .regular))
        w.perform(.setTraits(Traits(userInterfaceIdiom: .pad, horizontalSizeClass: .compact)))
        #expect(w.state["D"]?.parent == nil)
        #expect(w.state.holders(of: "D") == [.controller("S")])
        #expect(w.sendInvalid(.release("D"))?.kind == .held)
    }
}

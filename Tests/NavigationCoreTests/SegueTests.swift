import Testing
import NavigationCore

/// §16: segues at run time (the storyboard layer hands the core instantiated destinations).
@Suite("segues and unwind (R96–R100)")
struct SegueTests {
    let main = StoryboardOrigin(name: "Main", identifier: nil)

    /// A storyboard controller with a segue table.
    func scene(
        _ id: ControllerID, segues: [SegueSpec] = [], unwindActions: [String] = [],
        shouldPerform: [String: Bool]? = nil
    ) -> ControllerRef {
        vc(id) {
            $0.storyboard = StoryboardOrigin(name: "Main", identifier: id)
            $0.segues = segues
            $0.unwindActions = unwindActions
            $0.shouldPerformSegue = shouldPerform
        }
    }

    func destination(_ id: ControllerID) -> ControllerSpec {
        var s = ControllerSpec(id: id)
        s.storyboard = StoryboardOrigin(name: "Main", identifier: id)
        return s
    }

    let showToB = SegueSpec(id: "seg-1", identifier: "toB", kind: .show, destinationScene: "B")
    func unwind(_ identifier: String, _ action: String) -> SegueSpec {
        SegueSpec(id: "unwind-\(identifier)", identifier: identifier, kind: .unwind, destinationScene: nil, unwindAction: action)
    }

    @Test("R97/R98/R65: performSegue does not ask shouldPerformSegue; prepare comes before the push (S73)")
    func performShowSegue() {
        var w = Window(root: nav("N", scene("A", segues: [showToB], shouldPerform: ["toB": false])))
        let r = w.perform(.performSegue(receiver: "A", identifier: "toB", destination: destination("B")))
        #expect(
            names(r) == [
                "A.prepareForSegue", "B.willMoveToParent(N)", "B.viewDidLoad", "A.viewWillDisappear",
                "B.viewWillAppear", "B.viewIsAppearing", "A.viewDidDisappear", "B.viewDidAppear",
                "B.didMoveToParent(N)",
            ])
        let prepare = r.events.first
        #expect(prepare?.segue?.identifier == "toB")
        #expect(prepare?.segue?.source == "A")
        #expect(prepare?.segue?.destination == "B")
        #expect(w.stack("N") == ["A", "B"])
    }

    @Test("R98: a show segue with animates=\"NO\" pushes, and presents where nothing pushes, without animation; show(_:sender:) itself animates")
    func showSegueWithoutAnimation() {
        let still = SegueSpec(id: "seg-2", identifier: "toB", kind: .show, destinationScene: "B", animates: false)
        var pushed = Window(root: nav("N", scene("A", segues: [still])))
        let r = pushed.perform(.performSegue(receiver: "A", identifier: "toB", destination: destination("B")))
        #expect(r.transition?.operation == .push)
        #expect(r.transition?.animated == false)
        var presented = Window(root: scene("A", segues: [still]))
        let p = presented.perform(.performSegue(receiver: "A", identifier: "toB", destination: destination("B")))
        #expect(p.transition?.operation == .present)
        #expect(p.transition?.animated == false)
        var called = Window(root: nav("N", vc("A")))
        let c = called.perform(.show(receiver: "A", viewController: .new(ControllerSpec(id: "B")), animated: false))
        #expect(c.transition?.animated == true)
    }

    @Test("R96: a user-triggered segue asks shouldPerformSegue; false does nothing and instantiates nothing (S71), true runs it")
    func vetoedSegue() {
        var w = Window(root: nav("N", scene("A", segues: [showToB], shouldPerform: ["toB": false])))
        let before = w.state.order
        let r = w.perform(.triggerSegue(receiver: "A", identifier: "toB", destination: destination("B")))
        // The only callback is the question itself.
        #expect(names(r) == ["A.shouldPerformSegue"])
        #expect(r.events.first?.segue?.destination == nil)
        #expect(w.state.order == before)
        #expect(w.state["B"] == nil)
        #expect(w.stack("N") == ["A"])

        // Allowed: should, then prepare, then perform.
        var ok = Window(root: nav("N", scene("A", segues: [showToB])))
        let r2 = ok.perform(.triggerSegue(receiver: "A", identifier: "toB", destination: destination("B")))
        #expect(Array(names(r2).prefix(3)) == ["A.shouldPerformSegue", "A.prepareForSegue", "B.willMoveToParent(N)"])
        #expect(ok.stack("N") == ["A", "B"])
    }

    @Test("R97: performSegue with an unknown identifier raises D18 (S72)")
    func unknownSegue() {
        var w = Window(root: nav("N", scene("A", segues: [showToB])))
        let d = w.refuse(.performSegue(receiver: "A", identifier: "foo", destination: nil))
        expectDiagnostic(
            d, code: "D18", slug: "unknown-segue", severity: .exception, name: "NSInvalidArgumentException",
            message: "Receiver (\(desc("A"))) has no segue with identifier 'foo'")
    }

    @Test("R97: a controller not loaded from a storyboard has no segues: D18")
    func noStoryboard() {
        var w = Window(root: vc("A") { $0.segues = [SegueSpec(id: "s", identifier: "toB", kind: .show, destinationScene: "B")] })
        let d = w.refuse(.performSegue(receiver: "A", identifier: "toB", destination: destination("B")))
        expectDiagnostic(
            d, code: "D18", slug: "unknown-segue", severity: .exception, name: "NSInvalidArgumentException",
            message: "Receiver (\(desc("A"))) has no segue with identifier 'toB'")
        #expect(w.state["B"] == nil)
    }

    @Test("R98: a Present Modally segue uses its own style and transition attributes")
    func presentSegue() {
        let segue = SegueSpec(
            id: "s", identifier: "modal", kind: .presentation, destinationScene: "B",
            modalPresentationStyle: .fullScreen, modalTransitionStyle: .crossDissolve)
        var w = Window(root: nav("N", scene("A", segues: [segue])))
        let r = w.perform(.performSegue(receiver: "A", identifier: "modal", destination: destination("B")))
        #expect(w.presenting("B") == "N")
        #expect(w.style("B") == .fullScreen)
        #expect(r.transition?.transitionStyle == .crossDissolve)
        #expect(names(r).first == "A.prepareForSegue")
        #expect(!names(r).contains("A.completion"), "a segue's presentation has no completion handler")
    }

    @Test("R98: a legacy push segue without a navigation controller raises D24")
    func pushSegueWithoutNavigation() {
        var w = Window(root: scene("A", segues: [SegueSpec(id: "s", identifier: "p", kind: .push, destinationScene: "B")]))
        let d = w.refuse(.performSegue(receiver: "A", identifier: "p", destination: destination("B")))
        expectDiagnostic(
            d, code: "D24", slug: "push-segue-without-navigation-controller", severity: .exception,
            name: "NSGenericException",
            message: "Push segues can only be used when the source controller is managed by an instance of UINavigationController.")
    }

    /// S74's initial state: W.root = N[A,B]; N⇒C (full screen, presented from B).
    func unwindScenario(aActions: [String]) -> Window {
        var w = Window(root: nav("N", scene("A", unwindActions: aActions)))
        w.perform(Op.push("N", scene("B"), animated: false))
        w.perform(Op.present("B", scene("C", segues: [unwind("back", "unwindToA:")]), .fullScreen, animated: false))
        return w
    }

    @Test("R99/R100: unwinding from a presented controller to A pops B and dismisses C (S74)")
    func unwindToA() {
        var w = unwindScenario(aActions: ["unwindToA:"])
        #expect(w.presenting("C") == "N")
        let r = w.perform(.performSegue(receiver: "C", identifier: "back", destination: nil))
        let events = names(r)
        #expect(Array(events.prefix(2)) == ["C.prepareForSegue", "A.unwindAction(unwindToA:)"])
        #expect(r.events.first?.segue?.destination == "A")
        #expect(r.events.first?.segue?.source == "C")
        #expect(w.stack("N") == ["A"])
        #expect(w["B"].parent == nil)
        #expect(w["C"].presentation == nil && w.presented("N") == nil)
        #expect(of("B", events) == ["B.willMoveToParent(nil)", "B.didMoveToParent(nil)"], "B was hidden: containment only")
        #expect(of("C", events) == ["C.prepareForSegue", "C.viewWillDisappear", "C.viewDidDisappear"])
        #expect(withoutIsAppearing(of("A", events).filter { !$0.contains("unwind") }).suffix(2) == ["A.viewWillAppear", "A.viewDidAppear"])
        #expect(w.isAppeared("A") && w.isDisappeared("C"))
        w.checkInvariants()
    }

    @Test("R99: when nobody implements the action the unwind silently does nothing (S75)")
    func unwindWithoutDestination() {
        var w = unwindScenario(aActions: [])
        let before = w.state
        let r = w.perform(.performSegue(receiver: "C", identifier: "back", destination: nil))
        #expect(r.events.isEmpty)
        #expect(w.state == before)
        #expect(w.presenting("C") == "N")
    }

    @Test("R99: a navigation controller searches its stack from the top down; the source itself never matches")
    func unwindSearchTopDown() {
        var w = Window(root: nav("N", scene("A", unwindActions: ["back:"])))
        w.perform(Op.push("N", scene("B", unwindActions: ["back:"]), animated: false))
        w.perform(Op.push("N", scene("X"), animated: false))
        w.perform(Op.present("X", scene("C", segues: [unwind("u", "back:")], unwindActions: ["back:"]), .fullScreen, animated: false))
        let r = w.perform(.performSegue(receiver: "C", identifier: "u", destination: nil))
        #expect(names(r).contains("B.unwindAction(back:)"))
        #expect(!names(r).contains("A.unwindAction(back:)") && !names(r).contains("C.unwindAction(back:)"))
        #expect(w.stack("N") == ["A", "B"])
        #expect(w.presented("N") == nil)
    }

    @Test("R100: unwinding inside one navigation controller pops to the destination")
    func unwindPops() {
        var w = Window(root: nav("N", scene("A", unwindActions: ["toRoot:"])))
        w.perform(Op.push("N", scene("B"), animated: false))
        w.perform(Op.push("N", scene("C", segues: [unwind("root", "toRoot:")]), animated: false))
        let r = w.perform(.performSegue(receiver: "C", identifier: "root", destination: nil))
        let events = names(r)
        #expect(Array(events.prefix(2)) == ["C.prepareForSegue", "A.unwindAction(toRoot:)"])
        #expect(w.stack("N") == ["A"])
        // R79: only the old and new tops get appearance callbacks.
        #expect(
            appearance(r.events) == [
                "C.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing",
                "C.viewDidDisappear", "A.viewDidAppear",
            ])
        #expect(of("B", events) == ["B.willMoveToParent(nil)", "B.didMoveToParent(nil)"])
        #expect(w.presented("N") == nil)
    }

    /// iPad: S{N1[M, X], D}; D defines a context and presents C in it; D implements `back:`.
    func contextUnwindScenario() -> Window {
        var w = Window(
            root: split("S", primary: nav("N1", vc("M")), secondary: scene("D", unwindActions: ["back:"])),
            traits: iPadRegular)
        w.perform(
            .updateController(
                "D",
                {
                    var p = ControllerPatch(); p.definesPresentationContext = true; return p
                }()))
        w.perform(Op.present("D", scene("C", segues: [unwind("u", "back:")]), .currentContext, animated: false))
        w.perform(Op.push("N1", scene("X", segues: [unwind("u", "back:")]), animated: false))
        return w
    }

    @Test("R100: unwinding to the presenter of a current-context presentation from outside it leaves the presentation")
    func unwindKeepsContextPresentationWhenSourceIsOutside() {
        var w = contextUnwindScenario()
        #expect(w.presenting("C") == "D")
        let r = w.perform(.performSegue(receiver: "X", identifier: "u", destination: nil))
        #expect(names(r) == ["X.prepareForSegue", "D.unwindAction(back:)"])
        #expect(w.presented("D") == "C")
        #expect(w["C"].presentation?.state == .presented)
    }

    @Test("R100: unwinding from inside a current-context presentation dismisses it")
    func unwindDismissesContextPresentationFromInside() {
        var w = contextUnwindScenario()
        let r = w.perform(.performSegue(receiver: "C", identifier: "u", destination: nil))
        #expect(
            names(r) == [
                "C.prepareForSegue", "D.unwindAction(back:)", "C.viewWillDisappear", "D.viewWillAppear",
                "D.viewIsAppearing", "D.viewDidAppear", "C.viewDidDisappear",
            ])
        #expect(w.presented("D") == nil)
        #expect(w.isAppeared("D") && w.isAppeared("X"))
    }

    @Test("R100: unwinding across a tab bar selects the destination's tab")
    func unwindSelectsTab() {
        var w = Window(root: tabs("T", [scene("A", unwindActions: ["home:"]), scene("B")], selected: 1))
        w.perform(Op.present("B", scene("C", segues: [unwind("home", "home:")]), .fullScreen, animated: false))
        #expect(w.presenting("C") == "T")
        let r = w.perform(.performSegue(receiver: "C", identifier: "home", destination: nil))
        #expect(Array(names(r).prefix(2)) == ["C.prepareForSegue", "A.unwindAction(home:)"])
        #expect(w["T"].selectedViewController == "A")
        #expect(w.presented("T") == nil)
        #expect(w.isAppeared("A") && w.isDisappeared("B") && w.isDisappeared("C"))
    }
}

// MARK: - Exhaustive: the whole state change of segues

extension SegueTests {
    @Test("R97/R98 exhaustive: a show segue is a push of the storyboard destination")
    func exhaustivePerformShowSegue() {
        var w = Window(root: nav("N", scene("A", segues: [showToB])))
        w.send(.performSegue(receiver: "A", identifier: "toB", destination: destination("B"))) {
            $0.create("B") {
                $0.parent = "N"; $0.storyboard = StoryboardOrigin(name: "Main", identifier: "B")
            }
            $0.appeared("B")
            $0.disappeared("A")
            $0.modify("N") { $0.children = ["A", "B"] }
            $0.setStack("N", ["A", "B"])
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R96 exhaustive: a vetoed segue changes nothing: no destination, no counter")
    func exhaustiveVetoedSegue() {
        var w = Window(root: nav("N", scene("A", segues: [showToB], shouldPerform: ["toB": false])))
        w.send(
            .triggerSegue(receiver: "A", identifier: "toB", destination: destination("B")),
            events: ["A.shouldPerformSegue"]
        ) { _ in }
    }

    @Test("R97 exhaustive: an unknown identifier is refused and changes nothing")
    func exhaustiveUnknownSegue() {
        var w = Window(root: nav("N", scene("A", segues: [showToB])))
        w.sendRefused(
            .performSegue(receiver: "A", identifier: "nope", destination: destination("B")),
            code: "D18", slug: "unknown-segue")
    }
}

// MARK: - Segue classes on every kind, and identifiers only for performSegue

extension SegueTests {
    @Test("R98 exhaustive: a show segue whose declared class presents is presented, not pushed")
    func exhaustiveDeclaredClassOnShowSegue() {
        let declared = SegueSpec(
            id: "seg-tab", identifier: "toB", kind: .show, destinationScene: "B",
            modalPresentationStyle: .fullScreen, customPerforms: .present,
            customClass: "TabStoryboardSegue")
        var w = Window(root: nav("N", scene("A", segues: [declared])))
        w.send(.performSegue(receiver: "A", identifier: "toB", destination: destination("B"))) {
            $0.create("B") {
                $0.storyboard = StoryboardOrigin(name: "Main", identifier: "B")
                $0.modalPresentationStyle = .fullScreen
                $0.presentation = presentationRecord("N", source: "A", requested: .fullScreen, removesPresenterView: true)
            }
            $0.appeared("B")
            $0.disappeared("N", "A")
            $0.modify("N") { $0.presentedID = "B" }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R98: a popover segue whose declared class pushes is pushed; an undeclared class keeps the kind")
    func declaredClassOnPopoverSegue() {
        let pushes = SegueSpec(
            id: "seg-p", identifier: "pop", kind: .popoverPresentation, destinationScene: "B",
            customPerforms: .push, customClass: "PushSegue")
        var w = Window(root: nav("N", scene("A", segues: [pushes])))
        w.perform(.performSegue(receiver: "A", identifier: "pop", destination: destination("B")))
        #expect(w.stack("N") == ["A", "B"])
        #expect(w.presenting("B") == nil)

        let undeclared = SegueSpec(
            id: "seg-u", identifier: "show", kind: .show, destinationScene: "B",
            customClass: "UndeclaredSegue")
        var u = Window(root: nav("N", scene("A", segues: [undeclared])))
        u.perform(.performSegue(receiver: "A", identifier: "show", destination: destination("B")))
        #expect(u.stack("N") == ["A", "B"])
    }

    @Test("R97 exhaustive: performSegue with an unnamed segue's element id is D18; triggerSegue takes it")
    func elementIDIsNoIdentifier() {
        let unnamed = SegueSpec(id: "seg-9", identifier: nil, kind: .show, destinationScene: "B")
        var w = Window(root: nav("N", scene("A", segues: [unnamed])))
        w.sendRefused(
            .performSegue(receiver: "A", identifier: "seg-9", destination: destination("B")),
            code: "D18", slug: "unknown-segue")
        let d = w.refuse(.performSegue(receiver: "A", identifier: "seg-9", destination: destination("B")))
        expectDiagnostic(
            d, code: "D18", slug: "unknown-segue", severity: .exception, name: "NSInvalidArgumentException",
            message: "Receiver (\(desc("A"))) has no segue with identifier 'seg-9'")
        w.perform(.triggerSegue(receiver: "A", identifier: "seg-9", destination: destination("B")))
        #expect(w.stack("N") == ["A", "B"])
    }
}

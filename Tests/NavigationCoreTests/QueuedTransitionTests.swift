import Testing
import NavigationCore

/// R81 queue with releases and presentations in between: a queued push waits across turns, so
/// what it saw on screen when it was accepted may be gone (released) when it starts.
@Suite("R81: a queued navigation transition after presentations and releases")
struct QueuedTransitionTests {
    /// `nav[home]` in manual-transition mode, through the trial's steps 1–6: p1's push (t2) runs,
    /// m is presented full screen over it (t3) and completed, p2's push waits behind t2, m is
    /// dismissed and that dismissal completed.
    func trial(_ release: ReleasePolicy) -> (Window, dismissal: String) {
        var w = Window(root: nav("nav", vc("home")), options: Options(iOS: .iOS17, transitions: .manual, release: release))
        w.perform(Op.push("nav", vc("p1")))
        w.perform(Op.present("home", vc("m"), .fullScreen))
        let queued = w.perform(Op.push("nav", vc("p2"))).transition
        #expect(queued?.id == "t4" && queued?.state == .queued, "the reply reports the queued push (R81)")
        w.perform(.completeTransition(id: "t3"))
        let dismissal = w.perform(Op.dismiss("home")).transition?.id ?? "?"
        w.perform(.completeTransition(id: dismissal))
        return (w, dismissal)
    }

    @Test("the queued push starts after m, which it saw on screen, was released", arguments: [ReleasePolicy.automatic, .manual])
    func queuedPushAfterRelease(release: ReleasePolicy) {
        var (w, _) = trial(release)
        if release == .manual {
            w.send(.release("m"), events: []) { $0.released("m") }
        }
        #expect(w.state.controllers["m"] == nil, "m is gone before the queued push starts")
        // t2 ends: home finishes disappearing, p1 (hidden by m since) gets no viewDidAppear (R36);
        // then p2's push (t4) starts with nothing left to change on screen, and waits for its tick.
        w.send(.completeTransition(id: "t2"), events: ["home.viewDidDisappear", "p1.didMoveToParent(nav)"]) {
            $0.disappeared("home")
            $0.modify("p1") { $0.isMovingToParent = false }
            $0.finishRunning("t2")
            $0.modifyRunning("t4") { $0.state = .inProgress }
        }
        w.send(.completeTransition(id: "t4"), events: ["p2.didMoveToParent(nav)"]) {
            $0.modify("p2") { $0.isMovingToParent = false }
            $0.finishRunning("t4")
        }
        w.checkInvariants()
    }

    @Test("a push queued while a presentation covers its navigation controller takes an id no later transition reuses")
    func queuedIDIsUnique() {
        let (w, dismissal) = trial(.manual)
        #expect(dismissal == "t5")
        #expect(w.running.map(\.id) == ["t2", "t4"] && w.running.map(\.state) == [.inProgress, .queued])
        #expect(w.state.nextTransitionNumber == 6)
    }

    /// R81 (queue): the stack changes at once, so the settled window after m's dismissal is
    /// nav with its top p2 (R35/R36 appearance from settled views): p2 loads and appears with the
    /// dismissal, balanced (R38). p1 was handed over to m's presentation mid-way (D21) and stays
    /// off screen; t2's end gives it no viewDidAppear; the queued push, started by t2's tick, finds
    /// p2 on screen and p1 off it, so its own tick only ends the containment (R73).
    @Test("a dismissal that uncovers a navigation controller with a push queued shows its new top, balanced")
    func dismissalWithPushQueued() {
        var w = Window(root: nav("nav", vc("home")), options: Options(iOS: .iOS17, transitions: .manual, release: .manual))
        var balance = AppearanceBalance()
        var all: [String] = []
        func step(_ command: Command, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
            let before = w.state
            let r = w.perform(command, sourceLocation: sourceLocation)
            #expect(names(r) == expected, sourceLocation: sourceLocation)
            #expect(balance.feed(r.events, before: before) == [], sourceLocation: sourceLocation)
            all += names(r)
        }
        step(
            Op.push("nav", vc("p1")),
            [
                "p1.willMoveToParent(nav)", "p1.viewDidLoad", "home.viewWillDisappear",
                "p1.viewWillAppear", "p1.viewIsAppearing",
            ])
        step(
            Op.present("home", vc("m"), .fullScreen),
            [
                "m.viewDidLoad", "nav.viewWillDisappear", "p1.viewWillDisappear",
                "m.viewWillAppear", "m.viewIsAppearing",
            ])
        step(Op.push("nav", vc("p2")), ["p2.willMoveToParent(nav)"])
        step(.completeTransition(id: "t3"), ["m.viewDidAppear", "nav.viewDidDisappear", "p1.viewDidDisappear", "home.completion"])
        step(
            Op.dismiss("home"),
            [
                "p2.viewDidLoad", "m.viewWillDisappear", "nav.viewWillAppear", "nav.viewIsAppearing",
                "p2.viewWillAppear", "p2.viewIsAppearing",
            ])
        step(.completeTransition(id: "t5"), ["nav.viewDidAppear", "p2.viewDidAppear", "m.viewDidDisappear", "home.completion"])
        step(.completeTransition(id: "t2"), ["home.viewDidDisappear", "p1.didMoveToParent(nav)"])
        step(.completeTransition(id: "t4"), ["p2.didMoveToParent(nav)"])
        #expect(
            of("p2", all) == [
                "p2.willMoveToParent(nav)", "p2.viewDidLoad", "p2.viewWillAppear", "p2.viewIsAppearing",
                "p2.viewDidAppear", "p2.didMoveToParent(nav)",
            ])
        #expect(w.state.settledViewsInWindow == ["nav", "p2"] && w.isAppeared("p2") && w.isDisappeared("p1") && w.isDisappeared("home"))
        #expect(w.running.isEmpty)
        w.checkInvariants()
    }

    @Test("the R38 state machine refuses a viewDidAppear without viewWillAppear, and one twice")
    func balanceMachineCatches() {
        let state = SessionState(traits: .phonePortrait, options: Options(iOS: .iOS17))
        var fresh = AppearanceBalance()
        #expect(fresh.feed([Event("p2", .viewDidAppear, animated: true)], before: state) == ["p2.viewDidAppear while disappeared"])
        var twice = AppearanceBalance()
        let events = [
            Event("A", .viewWillAppear, animated: true), Event("A", .viewDidAppear, animated: true),
            Event("A", .viewDidAppear, animated: true),
        ]
        #expect(twice.feed(events, before: state) == ["A.viewDidAppear while appeared"])
        var cancelled = AppearanceBalance()
        let given = [
            Event("A", .viewWillAppear, animated: true), Event("A", .viewWillDisappear, animated: true),
            Event("A", .viewDidDisappear, animated: true), Event("A", .viewDidDisappear, animated: true),
        ]
        #expect(cancelled.feed(given, before: state) == ["A.viewDidDisappear while disappeared"], "R38's cancel pattern passes; a second end does not")
    }
}

/// Found by the seeded random calls with manual transitions (TransitionInvariantTests).
@Suite("Links left behind by releases and by controllers taken during a transition")
struct TransitionLeftoverTests {
    @Test("automatic: releasing a container drops what only it holds; a child the client also holds stays, parentless")
    func releasedParentLeavesNoLink() {
        var w = Window(root: nav("N", vc("A")), options: Options(iOS: .iOS17, release: .automatic))
        w.perform(
            .createController(
                {
                    var s = ControllerSpec(id: "navX", kind: .navigationController); s.viewControllers = [vc("R")]; return s
                }()))
        w.perform(.createController(ControllerSpec(id: "Y")))
        w.perform(Op.push("navX", id("Y"), animated: false))
        #expect(w.state.holders(of: "Y") == [.controller("navX"), .client])
        // UIKit's parent is weak: once navX is gone, Y.parent is nil (and the next call on Y
        // no longer follows a link to a controller the session lacks).
        w.send(.release("navX"), events: []) {
            $0.released("navX", "R")
            $0.modify("Y") { $0.parent = nil }
        }
        w.checkInvariants()
        w.perform(Op.push("N", id("Y"), animated: false))
        #expect(w.stack("N") == ["A", "Y"] && w["Y"].parent == "N")
    }

    @Test("R38/R2: a push given up after its old top moved to another stack leaves that controller where it is")
    func cancelledPushAfterOldTopMoved() {
        var w = Window(root: tabs("T", [nav("navA", vc("A")), nav("navB", vc("B"))]), options: manual)
        let push = w.perform(Op.push("navA", vc("v1"))).transition?.id ?? "?"
        w.perform(Op.push("navB", id("A"), animated: false))
        #expect(w.stack("navA") == ["v1"] && w.stack("navB") == ["B", "A"])
        w.send(
            .cancelTransition(id: push),
            events: [
                "v1.viewWillDisappear", "v1.viewDidDisappear", "A.viewDidDisappear",
                "v1.didMoveToParent(nil)",
            ]
        ) {
            $0.setStack("navA", [])
            $0.modify("navA") { $0.children = [] }
            $0.modify("v1") {
                $0.parent = nil; $0.isMovingToParent = false
            }
            $0.disappeared("v1", "A")
            $0.finishRunning(push)
        }
        #expect(w.stack("navB") == ["B", "A"] && w["A"].parent == "navB", "A stays in navB")
        w.checkInvariants()
    }

    @Test("R78/R2: a pop that ends after the popped controller was pushed onto another stack leaves it there")
    func popEndsAfterPoppedMoved() {
        var w = Window(root: tabs("T", [nav("navA", vc("A"), vc("B")), nav("navB", vc("C"))]), options: manual)
        let pop = w.perform(Op.pop("navA")).transition?.id ?? "?"
        w.perform(Op.push("navB", id("B"), animated: false))
        #expect(w.stack("navB") == ["C", "B"] && w["B"].parent == "navB")
        w.perform(.completeTransition(id: pop))
        #expect(w.stack("navB") == ["C", "B"] && w["B"].parent == "navB" && w["navB"].children == ["C", "B"], "the pop's end does not take B out of navB")
        #expect(w.stack("navA") == ["A"])
        w.checkInvariants()
    }
}

extension TransitionLeftoverTests {
    @Test("a navigation transition holds its navigation controller until it ends, queued or running (R81)")
    func transitionHoldsItsNavigationController() {
        var w = Window(root: vc("R"), options: Options(iOS: .iOS17, transitions: .manual, release: .manual))
        w.perform(
            .createController(
                {
                    var s = ControllerSpec(id: "navX", kind: .navigationController); s.viewControllers = [vc("A")]; return s
                }()))
        w.perform(Op.present("R", id("navX"), .fullScreen))
        w.perform(Op.tick)
        let push = w.perform(Op.push("navX", vc("B"))).transition?.id ?? "?"
        let queued = w.perform(Op.push("navX", vc("C"))).transition?.id ?? "?"
        w.perform(Op.dismiss("R"))
        w.perform(Op.tick)
        #expect(w.running.map(\.id) == [queued] && w.running.map(\.state) == [.inProgress], "\(push) ended with the dismissal's tick, \(queued) started")
        #expect(w.state.holders(of: "navX") == [.transition(queued)])
        #expect(w.sendInvalid(.release("navX"))?.message == "Cannot release <UINavigationController: navX>: it is held by transition \(queued).")
        w.perform(Op.tick)
        w.send(.release("navX"), events: []) { $0.released("navX", "A", "B", "C") }
    }
}

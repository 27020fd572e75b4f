import Testing
@testable import NavigationCore

/// R81 queue with releases and presentations in between: a queued push waits across turns, so
/// what it saw on screen when it was accepted may be gone (released) when it starts.
@Suite("R81: a queued navigation transition after presentations and releases")
struct QueuedTransitionTests {
    /// `nav[home]` in manual-transition mode, through the trial's steps 1–6: p1's push (t2) runs,
    /// m is presented full screen over it (t3) and completed, p2's push waits behind t2, m is
    /// dismissed and that dismissal completed.
    func trial(_ release: ReleasePolicy) -> (Window, dismissal: String) {
        var w = Window(root: nav("nav", vc("home")), options: Options(transitions: .manual, release: release))
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
}

import Testing
@testable import NavigationCore

/// The engine's own machinery, below the rules: the one accessor that changes controllers, and
/// the journal a turn records into.
@Suite("engine internals")
struct EngineInternalsTests {
    @Test("a write to a controller the session lacks inserts nothing, traps nothing, and is recorded")
    func writeToMissingController() {
        var engine = Engine(state: SessionState())
        let entry = engine.journal.open()
        engine[changing: "ghost"].isViewLoaded = true
        #expect(engine.state.controllers["ghost"] == nil)
        #expect(engine.state.order.isEmpty)
        #expect(engine.journal[entry].invariantFailures == ["ghost"])
        #expect(engine.journal.outcomes == [.invalid(.invariantViolation("ghost"))])
    }

    @Test("a write to an existing controller changes that controller only")
    func writeToExistingController() {
        let state = Navigator.run([.setRoot(.new(ControllerSpec(id: "A")), animated: false),
                                   .createController(ControllerSpec(id: "B"))], on: SessionState()).state
        var engine = Engine(state: state)
        let entry = engine.journal.open()
        engine[changing: "B"].isViewLoaded = true
        var expected = state
        expected.controllers["B"]?.isViewLoaded = true
        #expect(engine.state == expected)
        #expect(engine.journal[entry].invariantFailures.isEmpty)
    }

    @Test("R30: a refused command's journal entry holds its verdict and no events; the others keep theirs")
    func refusedEntryHoldsNoEvents() {
        let state = Navigator.run([.setRoot(.new(ControllerSpec(id: "A")), animated: false)], on: SessionState()).state
        let turn = Navigator.run([
            .present(receiver: "A", viewController: .new(ControllerSpec(id: "B")), style: .fullScreen,
                     transitionStyle: nil, popover: nil, animated: false),
            .present(receiver: "A", viewController: .new(ControllerSpec(id: "C")), style: .fullScreen,
                     transitionStyle: nil, popover: nil, animated: false),
        ], on: state)
        guard case .applied(let first) = turn.outcomes[0], case .refused = turn.outcomes[1] else {
            Issue.record("expected applied then refused, got \(turn.outcomes)")
            return
        }
        #expect(first.events.contains(Event("B", .viewDidAppear, animated: false)))
        #expect(first.transition?.operation == .present)
        #expect(turn.state.controllers["C"] == nil)
    }
}

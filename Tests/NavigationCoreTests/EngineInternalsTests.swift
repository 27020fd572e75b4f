import Testing
@testable import NavigationCore

/// The engine's own machinery, below the rules: the one accessor that changes controllers.
@Suite("engine internals")
struct EngineInternalsTests {
    @Test("a write to a controller the session lacks inserts nothing, traps nothing, and is recorded")
    func writeToMissingController() {
        var engine = Engine(state: SessionState())
        engine[changing: "ghost"].isViewLoaded = true
        #expect(engine.state.controllers["ghost"] == nil)
        #expect(engine.state.order.isEmpty)
        #expect(engine.invariantFailures == ["ghost"])
    }

    @Test("a write to an existing controller changes that controller only")
    func writeToExistingController() {
        let state = Navigator.run([.setRoot(.new(ControllerSpec(id: "A")), animated: false),
                                   .createController(ControllerSpec(id: "B"))], on: SessionState()).state
        var engine = Engine(state: state)
        engine[changing: "B"].isViewLoaded = true
        var expected = state
        expected.controllers["B"]?.isViewLoaded = true
        #expect(engine.state == expected)
        #expect(engine.invariantFailures.isEmpty)
    }
}

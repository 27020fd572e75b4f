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
        let state = Navigator.run(
            [
                .setRoot(.new(ControllerSpec(id: "A")), animated: false),
                .createController(ControllerSpec(id: "B")),
            ], on: SessionState()
        ).state
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
        let turn = Navigator.run(
            [
                .present(
                    receiver: "A", viewController: .new(ControllerSpec(id: "B")), style: .fullScreen,
                    transitionStyle: nil, popover: nil, animated: false),
                .present(
                    receiver: "A", viewController: .new(ControllerSpec(id: "C")), style: .fullScreen,
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

    @Test("a turn names exactly the controllers it changed or created, in session order, and none when refused")
    func changedControllersAreExact() {
        let start = Navigator.run(
            [
                .setRoot(nav("N", vc("A"), vc("B")), animated: false),
                .createController(ControllerSpec(id: "D")),
            ], on: SessionState()
        ).state
        // A title: the one controller, nothing derived from it is stored elsewhere.
        var values = ControllerConfiguration()
        values.title = "Inbox"
        let patch = ControllerPatch(values: values, fields: ["title"])
        let titled = Navigator.run([.updateController("A", patch)], on: start)
        #expect(titled.changedControllers == ["A"])
        // A new detached controller: only itself.
        let created = Navigator.run([.createController(ControllerSpec(id: "E"))], on: start)
        #expect(created.changedControllers == ["E"])
        // A push: the navigation controller, the pushed one and the one that disappears.
        let pushed = Navigator.run([.push(receiver: "N", viewController: .existing("D"), animated: false)], on: start)
        #expect(pushed.changedControllers == ["N", "B", "D"])
        // R30: a refused command changes nothing, so names nothing.
        let refused = Navigator.run([.push(receiver: "N", viewController: .existing("A"), animated: false)], on: start)
        guard case .refused = refused.outcomes[0] else {
            Issue.record("pushing a controller already in the stack must be refused")
            return
        }
        #expect(refused.changedControllers.isEmpty)
    }
}

import Testing
import TestSupport
import NavigationCore

/// Seeded random calls in `manual`-transition sessions, both release policies: animated pushes,
/// pops, presentations and dismissals that overlap, ticks and cancellations by id and for all,
/// explicit releases. After every call: no trap, a refused call changes nothing, R2
/// (``relationshipProblems(_:)``), transition ids unique (no later transition reuses one), every
/// controller a transition names is in the session, and each controller's appearance callbacks
/// follow R38 (``AppearanceBalance``). A queued push once started after a controller it had seen
/// on screen was released, and trapped (QueuedTransitionTests).
@Suite("R38/R81: manual transitions with releases keep their invariants for every call")
struct TransitionInvariantTests {
    /// Without a transition holding its navigation controller (Release.swift), seeds 24 and 39
    /// (manual release) drop one that queued transitions still name.
    static let seeds = Array(0..<40)

    /// What a transition names that must exist while it is listed: its from and to, its
    /// navigation controller, its container view and, once started, what it animates.
    /// `before`/`after` are snapshots and may name released controllers (Release.swift).
    static func named(_ t: RunningTransition) -> [ControllerID] {
        [t.record.fromViewController, t.record.toViewController, t.navigation].compactMap { $0 } + t.record.containerView
            + (t.started ? t.appearing + t.disappearing : [])
    }

    @Test(
        "seeded random calls with manual transitions", .timeLimit(.minutes(10)),
        arguments: [ReleasePolicy.automatic, .manual], seeds)
    func randomCalls(release: ReleasePolicy, seed: Int) {
        run(root: tabs("T", [nav("navA", vc("A")), nav("navB", vc("B"))]), release: release, seed: seed)
    }

    /// The trial's shape: a navigation controller as the root, presentations from its children.
    @Test(
        "seeded random calls with manual transitions, a navigation controller as the root", .timeLimit(.minutes(10)),
        arguments: [ReleasePolicy.automatic, .manual], seeds)
    func randomCallsNavigationRoot(release: ReleasePolicy, seed: Int) {
        run(root: nav("navA", vc("A")), release: release, seed: seed)
    }

    func run(root: ControllerRef, release: ReleasePolicy, seed: Int) {
        var random = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 23)
        func pick<T>(_ list: [T]) -> T { list[Int(random.next() % UInt64(list.count))] }
        func coin() -> Bool { random.next() % 2 == 0 }
        var w = Window(root: root, options: Options(transitions: .manual, release: release))
        for extra in ["X", "Y"] { w.perform(.createController(ControllerSpec(id: extra, kind: .viewController))) }
        w.perform(.createController(ControllerSpec(id: "navX", kind: .navigationController)))
        var balance = AppearanceBalance()
        // Every transition id seen, with what it was: a later transition may not take one.
        var identities: [String: String] = [:]
        var trail: [String] = []
        var fresh = 0
        for step in 0..<100 {
            let ids = w.state.order
            func any() -> ControllerID { pick(ids) }
            func newOrAny() -> ControllerRef {
                guard coin() else { return id(any()) }
                fresh += 1
                return vc("v\(fresh)")
            }
            let navigations = ids.filter { w.state.controllers[$0]?.kind == .navigationController }
            let tabBars = ids.filter { w.state.controllers[$0]?.kind == .tabBarController }
            let listed = w.state.transitions.map(\.record.id)
            let command: Command
            switch random.next() % 14 {
            case 0, 1, 2: command = Op.push(pick(navigations + [any()]), newOrAny(), animated: random.next() % 4 != 0)
            case 3, 4: command = Op.pop(pick(navigations + [any()]), animated: random.next() % 4 != 0)
            case 5: command = Op.popToRoot(pick(navigations + [any()]), animated: coin())
            case 6, 7:
                command = Op.present(
                    any(), newOrAny(), pick([.fullScreen, .pageSheet, .overFullScreen, .currentContext]),
                    animated: random.next() % 4 != 0)
            case 8: command = Op.dismiss(any(), animated: random.next() % 4 != 0)
            case 9: command = tabBars.isEmpty ? Op.tick : .select(receiver: pick(tabBars), index: Int(random.next() % 2), viewController: nil)
            case 10: command = listed.isEmpty || coin() ? Op.tick : .completeTransition(id: pick(listed))
            case 11: command = .cancelTransition(id: listed.isEmpty ? "t1" : pick(listed))
            case 12: command = .release(any())
            default: command = .completeTransition(id: listed.isEmpty ? nil : pick(listed))
            }
            let before = w.state
            let r = Navigator.run([command], on: before)
            let outcome = r.outcomes[0]
            var problems: [String] = []
            if case .applied(let result) = outcome {
                w.state = r.state
                trail.append("\(command)".prefix(160) + " → \(names(result))")
                problems += balance.feed(result.events, before: before, released: r.released)
                if let t = result.transition { problems += Self.check(t, in: &identities) }
            } else if !stateDifferences(expected: before, actual: r.state).isEmpty {
                problems.append("refused but changed the state")
            }
            problems += relationshipProblems(w.state)
            problems += Self.danglingReferences(w.state)
            let transitionIDs = w.state.transitions.map(\.record.id)
            if Set(transitionIDs).count != transitionIDs.count { problems.append("two listed transitions share an id: \(transitionIDs)") }
            for t in w.state.transitions {
                problems += Self.check(t.record, in: &identities)
                for missing in Self.named(t) where w.state.controllers[missing] == nil {
                    problems.append("\(t.record.id) names \(missing), which is not in the session")
                }
            }
            if !problems.isEmpty {
                let verdict: String = if case .applied = outcome { "applied" } else { "\(outcome)" }
                Issue.record(
                    "seed \(seed) (\(release)) step \(step): \(command) → \(verdict)\n\(problems.joined(separator: "\n"))\napplied before it:\n\(trail.suffix(10).joined(separator: "\n"))"
                )
                return
            }
        }
    }

    /// A transition id names one transition for the session's life (same operation, from, to).
    static func check(_ t: TransitionRecord, in identities: inout [String: String]) -> [String] {
        let identity = "\(t.operation) \(t.fromViewController ?? "-")→\(t.toViewController ?? "-")"
        if let seen = identities[t.id], seen != identity { return ["\(t.id) was \(seen), now \(identity)"] }
        identities[t.id] = identity
        return []
    }

    /// Every controller the session's links name is in it: a parent, children, what a controller
    /// holds (stacks, tabs, columns, pages, its presented controller) and its presenter. A link to
    /// a released controller traps at the next call that follows it.
    static func danglingReferences(_ state: SessionState) -> [String] {
        var problems: [String] = []
        for c in state.controllers.values.sorted(by: { $0.id < $1.id }) {
            let named = [c.parent, c.presentation?.presenting].compactMap { $0 } + c.children + c.heldControllers
            for id in named where state.controllers[id] == nil { problems.append("\(c.id) names \(id), which is not in the session") }
        }
        if let root = state.rootViewController, state.controllers[root] == nil { problems.append("the root \(root) is not in the session") }
        return problems
    }
}

import Testing
import TestSupport
@testable import NavigationCore

/// R2: whatever a client asks, a controller has at most one parent, the parent chain ends (no
/// controller is its own ancestor), a presented controller has no parent, and the window's root
/// has neither. These calls once made a parent cycle, and the next walk up the chain never ended.
@Suite("R2: relationship invariants hold for every call")
struct RelationshipInvariantTests {
    let invalidArgument = "NSInvalidArgumentException"

    /// `T{navA[A], B}` as the window's root.
    func tabRoot() -> Window {
        Window(root: tabs("T", [nav("navA", vc("A")), vc("B")]))
    }

    /// The refusal `outcome` of `command` on `w`, which must change nothing.
    func refusedAsInput(_ command: Command, on w: Window, sourceLocation: SourceLocation = #_sourceLocation) -> OperationOutcome {
        let (next, outcome) = Navigator.apply(command, to: w.state)
        expectSameState(w.state, next, "a refused call changes nothing", sourceLocation: sourceLocation)
        return outcome
    }

    /// R2 [INF]: UIKit documents no exception for making the window's root a child; D5's text is
    /// `present`'s (R11), so navsim refuses it as bad input in its own words.
    @Test("setViewControllers cannot take the window's root into another stack")
    func rootIntoAnotherStack() {
        var w = tabRoot()
        w.perform(.createController(ControllerSpec(id: "D", kind: .navigationController)))
        #expect(
            refusedAsInput(Op.setViewControllers("D", [id("T")], animated: false), on: w)
                == .invalid(
                    .invalid(
                        "\(desc("T", .tabBarController)) is the window's rootViewController; setViewControllers cannot also make it a child of \(desc("D", .navigationController)).",
                        field: "viewControllers")))
        #expect(
            refusedAsInput(.addChild(receiver: "D", viewController: id("T")), on: w)
                == .invalid(
                    .invalid(
                        "\(desc("T", .tabBarController)) is the window's rootViewController; addChild cannot also make it a child of \(desc("D", .navigationController)).",
                        field: "viewController")))
    }

    @Test("setViewControllers cannot make a container a child of its own descendant")
    func ancestorIntoDescendant() {
        // R{T{navA[A], B}}: navA's stack may not hold T, its parent, nor R, the root's container.
        let w = Window(root: container("R", children: [tabs("T", [nav("navA", vc("A")), vc("B")])]))
        // The window's root R is refused as an ancestor first, before D5 (as addChild does).
        for (receiver, list) in [("navA", ["A", "T"]), ("T", ["navA", "R"])] {
            let before = w.state
            let (next, outcome) = Navigator.apply(Op.setViewControllers(receiver, list.map(id), animated: false), to: w.state)
            #expect(
                outcome
                    == .invalid(
                        .invalid(
                            "\(desc(list[1], list[1] == "T" ? .tabBarController : .viewController)) cannot become a child of itself or of its own descendant.",
                            field: "viewControllers")),
                "\(receiver).setViewControllers(\(list))")
            expectSameState(before, next, "a refused call changes nothing", sourceLocation: #_sourceLocation)
        }
    }

    @Test("a page view controller cannot hold itself")
    func pageHoldsItself() {
        let w = Window(root: make("PG", .pageViewController) { $0.viewControllers = [vc("P1")] })
        let before = w.state
        let (next, outcome) = Navigator.apply(Op.setViewControllers("PG", [id("PG")], direction: .forward, animated: false), to: w.state)
        #expect(
            outcome
                == .invalid(
                    .invalid(
                        "\(desc("PG", .pageViewController)) cannot become a child of itself or of its own descendant.",
                        field: "viewControllers")))
        expectSameState(before, next, "a refused call changes nothing", sourceLocation: #_sourceLocation)
        w.checkInvariants()
    }

    /// R2 [INF]: a presented controller cannot also become a child; each operation that gives a
    /// parent names itself, and none answers D5 (UIKit raises that for `present` only).
    @Test("a presented controller cannot become a child: each operation says which it was")
    func presentedIntoStack() {
        var w = Window(root: nav("N", vc("A")))
        w.perform(Op.present("A", vc("M"), .fullScreen, animated: false))
        w.perform(.createController(ControllerSpec(id: "C", kind: .viewController)))
        func refusal(_ operation: String, of parent: String, _ kind: ControllerKind = .navigationController, field: String) -> OperationOutcome {
            .invalid(
                .invalid(
                    "\(desc("M")) is presented; \(operation) cannot also make it a child of \(desc(parent, kind)). Dismiss it first (a controller is never both presented and a child).",
                    field: field))
        }
        #expect(
            refusedAsInput(Op.setViewControllers("N", [id("A"), id("M")], animated: false), on: w)
                == refusal("setViewControllers", of: "N", field: "viewControllers"))
        #expect(
            refusedAsInput(Op.push("N", id("M"), animated: false), on: w)
                == refusal("pushViewController", of: "N", field: "viewController"))
        #expect(
            refusedAsInput(.addChild(receiver: "C", viewController: id("M")), on: w)
                == refusal("addChild", of: "C", .viewController, field: "viewController"))
    }

    /// Seeds 274 and 340 once looped for ever (a stale split column; a tab list naming a moved tab).
    @Test("seeded random calls never break R2", .timeLimit(.minutes(10)), arguments: Array(0..<40) + [274, 340])
    func randomCalls(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 11)
        var w = Window(
            root: container(
                "R",
                children: [
                    tabs("T", [nav("navA", vc("A")), nav("navB", vc("B")), make("PG", .pageViewController) { $0.viewControllers = [vc("P1")] }]),
                    split("S", primary: nav("navS", vc("SP")), secondary: vc("SD")),
                ]))
        for extra in ["X", "Y", "Z"] { w.perform(.createController(ControllerSpec(id: extra, kind: .viewController))) }
        for extra in ["navX", "TX"] {
            w.perform(.createController(ControllerSpec(id: extra, kind: extra == "TX" ? .tabBarController : .navigationController)))
        }
        var trail: [String] = []
        for step in 0..<100 {
            let ids = w.state.controllers.keys.sorted()
            func any() -> ControllerID { ids[Int(random.next() % UInt64(ids.count))] }
            func some(_ n: Int) -> [ControllerRef] { (0..<n).map { _ in id(any()) } }
            let command: Command
            switch random.next() % 10 {
            case 0, 1:
                let receiver = any()
                let direction: PageDirection? = w.state.controllers[receiver]?.kind == .pageViewController ? .forward : nil
                command = Op.setViewControllers(receiver, some(1 + Int(random.next() % 3)), direction: direction, animated: random.next() % 2 == 0)
            case 2: command = Op.push(any(), id(any()), animated: random.next() % 2 == 0)
            case 3: command = .addChild(receiver: any(), viewController: id(any()))
            case 4: command = .removeFromParent(receiver: any())
            case 5: command = Op.present(any(), id(any()), [.fullScreen, .currentContext, .overCurrentContext, .pageSheet][Int(random.next() % 4)])
            case 6: command = Op.dismiss(any())
            case 7: command = Op.show(any(), id(any()))
            case 8: command = Op.showDetail(any(), id(any()))
            default: command = Op.tick
            }
            let before = w.state
            let (next, outcome) = Navigator.apply(command, to: before)
            var problems: [String] = []
            if case .applied = outcome {
                w.state = next
                trail.append("\(command)")
            } else if !stateDifferences(expected: before, actual: next).isEmpty {
                problems.append("refused but changed the state")
            }
            problems += relationshipProblems(w.state)
            if !problems.isEmpty {
                let verdict: String = if case .applied = outcome { "applied" } else { "\(outcome)" }
                Issue.record(
                    "seed \(seed) step \(step): \(command) → \(verdict)\n\(problems.joined(separator: "\n"))\napplied before it:\n\(trail.suffix(8).joined(separator: "\n"))")
                return
            }
        }
    }
}

/// Every new controller id goes through `newID`, whatever made the spec (JSON, a storyboard
/// scene), so no id with a control character enters a session.
@Suite("Names: a controller id holds no control character")
struct ControllerIDGrammarTests {
    @Test(arguments: ["a\u{0}b", "\t", "x\u{1F}", "\u{7F}"])
    func newIDsWithAControlCharacterAreRefused(id: String) {
        let w = Window(root: vc("A"))
        let (next, outcome) = Navigator.apply(.createController(ControllerSpec(id: id, kind: .viewController)), to: w.state)
        #expect(outcome == .invalid(.invalid("A controller id is not empty and holds no control characters (U+0000–U+001F, U+007F); got \(id.debugDescription).", field: "id")))
        expectSameState(w.state, next, "a refused call changes nothing", sourceLocation: #_sourceLocation)
    }
}

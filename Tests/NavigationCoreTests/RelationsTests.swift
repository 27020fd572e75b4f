import Testing
@testable import NavigationCore

/// `SessionState.relations(_:)` (one walk up the parent chain, R3–R6, R74) against the
/// definitions it replaced, which each built the `ancestors` array: over generated hierarchies,
/// every controller (and an id the session lacks) gets the same answers from both.
@Suite("Relations (R3–R6, R74): one walk, the old definitions' answers")
struct RelationsTests {
    /// The parent chain from `id` (inclusive), as `ancestors(_:)` defined it.
    static func chain(_ s: SessionState, _ id: ControllerID) -> [ControllerID] {
        var out = [id]
        var current = id
        while let p = s.controllers[current]?.parent { out.append(p); current = p }
        return out
    }

    /// The definitions before `Relations`, word for word but for the shared chain.
    static func reference(_ s: SessionState, _ id: ControllerID) -> SessionState.Relations {
        let a = chain(s, id)
        func nearest(_ kind: ControllerKind) -> ControllerID? { a.dropFirst().first { s.controllers[$0]?.kind == kind } }
        var t = s.traits
        for x in a.reversed() {
            guard let o = s.controllers[x]?.traitOverrides else { continue }
            if let h = o.horizontalSizeClass { t.horizontalSizeClass = h }
            if let v = o.verticalSizeClass { t.verticalSizeClass = v }
        }
        var inWindow = true
        var current: ControllerID? = id
        while let c = current.flatMap({ s.controllers[$0] }) {
            guard c.viewInWindow else { inWindow = false; break }
            current = c.parent
        }
        return SessionState.Relations(
            presentingViewController: a.lazy.compactMap { s.controllers[$0]?.presentation?.presenting }.first,
            presentedViewController: a.lazy.compactMap { s.controllers[$0]?.presentedID }.first,
            navigationController: nearest(.navigationController), tabBarController: nearest(.tabBarController),
            splitViewController: nearest(.splitViewController), traitCollection: t, isViewInWindow: inWindow)
    }

    /// A deterministic generator (xorshift64*), so every run meets the same hierarchies.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }
    }

    /// A state of `count` controllers of random kinds: each with a parent among the earlier ones
    /// (or a missing id, or none), some presented by a random controller, some presenting one,
    /// random trait overrides and view flags. Not a state the core would reach: the relations
    /// are defined on any links.
    static func generated(_ g: inout Generator, count: Int) -> SessionState {
        var s = SessionState(
            traits: Bool.random(using: &g)
                ? .phonePortrait
                : Traits(userInterfaceIdiom: .pad, horizontalSizeClass: .regular, verticalSizeClass: .regular))
        let kinds = ControllerKind.allCases
        let ids = (0..<count).map { "c\($0)" }
        for (i, id) in ids.enumerated() {
            var c = Controller(id: id, kind: kinds.randomElement(using: &g)!)
            switch Int.random(in: 0..<10, using: &g) {
            case 0: c.parent = nil
            case 1: c.parent = "missing"
            default: c.parent = i == 0 ? nil : ids[Int.random(in: 0..<i, using: &g)]
            }
            if Int.random(in: 0..<4, using: &g) == 0 {
                c.presentation = Presentation(
                    presenting: ids.randomElement(using: &g)!, source: id, requestedStyle: .automatic,
                    style: .pageSheet, transitionStyle: .coverVertical, contextViewController: nil,
                    removesPresenterView: false, popover: nil, state: .presented)
            }
            if Int.random(in: 0..<4, using: &g) == 0 { c.presentedID = ids.randomElement(using: &g)! }
            if Int.random(in: 0..<3, using: &g) == 0 {
                c.traitOverrides = TraitOverrides(
                    horizontalSizeClass: Traits.SizeClass.allCases.randomElement(using: &g).flatMap { Bool.random(using: &g) ? $0 : nil },
                    verticalSizeClass: Traits.SizeClass.allCases.randomElement(using: &g).flatMap { Bool.random(using: &g) ? $0 : nil })
            }
            c.viewInWindow = Int.random(in: 0..<5, using: &g) != 0
            s.controllers[id] = c
            s.order.append(id)
        }
        return s
    }

    @Test(
        "relations(_:), relations(of:) and each single query answer what the old definitions did",
        arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func sameAsOldDefinitions(seed: UInt64) {
        var g = Generator(state: 0x9E37_79B9_7F4A_7C15 &* seed)
        var compared = 0
        var nonTrivial = 0
        for _ in 0..<25 {
            let s = Self.generated(&g, count: Int.random(in: 1...30, using: &g))
            for id in s.order + ["missing", "nowhere"] {
                let expected = Self.reference(s, id)
                let r = s.relations(id)
                #expect(r == expected, "\(id)")
                if let c = s.controllers[id] { #expect(s.relations(of: c) == expected, "\(id)") }
                #expect(s.presentingViewController(id) == expected.presentingViewController)
                #expect(s.presentedViewController(id) == expected.presentedViewController)
                #expect(s.nearestAncestor(id, kind: .navigationController) == expected.navigationController)
                #expect(s.nearestAncestor(id, kind: .tabBarController) == expected.tabBarController)
                #expect(s.nearestAncestor(id, kind: .splitViewController) == expected.splitViewController)
                for kind in ControllerKind.allCases {
                    #expect(s.nearestAncestor(id, kind: kind) == Self.chain(s, id).dropFirst().first { s.controllers[$0]?.kind == kind })
                }
                #expect(s.traitCollection(id) == expected.traitCollection)
                #expect(s.isViewInWindow(id) == expected.isViewInWindow)
                let a = Self.chain(s, id)
                for other in s.order + ["missing"] { #expect(s.isWithin(id, other) == a.contains(other)) }
                compared += 1
                if expected.navigationController != nil || expected.presentingViewController != nil || !expected.isViewInWindow {
                    nonTrivial += 1
                }
            }
        }
        // The generated hierarchies reach the cases that tell the walks apart.
        #expect(compared > 100 && nonTrivial > compared / 4)
    }
}

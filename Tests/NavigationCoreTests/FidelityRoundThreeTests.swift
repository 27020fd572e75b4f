import Testing
@testable import NavigationCore

/// What round two left open: storyboard segues performed inside lifecycle code, the collapsed
/// classic `showDetail` a later expand separates (R91/R92), column-style `showDetail` (R67) and
/// the name of the callback bound hit.
@Suite("fidelity, round three")
struct FidelityRoundThreeTests {
    let me = CallbackCode.selfReceiver
    let main = StoryboardOrigin(name: "Main", identifier: nil)
    /// `Home`'s modal segue to the `Login` scene, full screen, not animated.
    let loginSegue = SegueSpec(
        id: "seg-login", identifier: "login", kind: .presentation, destinationScene: "Login",
        modalPresentationStyle: .fullScreen, animates: false)

    /// `Home` from the storyboard: its class performs `login` in `viewDidAppear`, once.
    func home() -> ControllerRef {
        vc("Home") {
            $0.storyboard = StoryboardOrigin(name: "Main", identifier: "Home")
            $0.segues = [loginSegue]
            $0.modalPresentationStyle = .fullScreen
            $0.on = CallbackCode([.viewDidAppear: [.init(.performSegue(receiver: me, identifier: "login", destination: nil), once: true)]])
        }
    }

    /// The `Login` scene as the storyboard layer instantiates it.
    func loginScene() -> ControllerSpec {
        var s = ControllerSpec(id: "Login")
        s.storyboard = StoryboardOrigin(name: "Main", identifier: "Login")
        s.appendsSuffixWhenTaken = true  // as scenes are: a taken id gets `~2`
        return s
    }

    /// What the service's resolver does, in miniature: the receiver's segue to `Login`
    /// becomes that scene, and each question is counted.
    final class Resolver {
        var asked: [(Command, ControllerID?)] = []
        var scene: ControllerSpec
        init(scene: ControllerSpec) { self.scene = scene }
        var destinations: SegueDestinations {
            SegueDestinations(resolve: { [self] command, state in
                guard case let .performSegue(r, i, d, nil) = command else { return .success(command) }
                asked.append((command, state.controllers[r]?.presentation?.presenting))
                var spec = scene
                if let id = d?.id { spec.id = id; spec.appendsSuffixWhenTaken = false }
                return .success(.performSegue(receiver: r, identifier: i, destination: spec))
            })
        }
    }

    // MARK: Segues inside lifecycle code

    @Test("Item 1 / R96, R97: performSegue in viewDidAppear instantiates the segue's destination scene when the method runs")
    func item1_loginSegueInViewDidAppear() {
        var w = Window(root: vc("A"))
        let resolver = Resolver(scene: loginScene())
        let r = w.send(Op.present("A", home(), .fullScreen, animated: false), segues: resolver.destinations) {
            $0.create("Home") {
                $0.storyboard = StoryboardOrigin(name: "Main", identifier: "Home")
                $0.segues = [loginSegue]
                $0.modalPresentationStyle = .fullScreen
                $0.presentation = presentationRecord("A", requested: .fullScreen, removesPresenterView: true)
                $0.presentedID = "Login"
                $0.isViewLoaded = true
            }
            $0.create("Login") {
                $0.storyboard = StoryboardOrigin(name: "Main", identifier: "Login")
                $0.modalPresentationStyle = .fullScreen  // the segue's style (R98)
                $0.presentation = presentationRecord("Home", requested: .fullScreen, removesPresenterView: true)
            }
            $0.appeared("Login")
            $0.disappeared("A", "Home")
            $0.modify("A") { $0.presentedID = "Home" }
            $0.nextTransitionNumber += 2
        }
        let events = names(r)
        let didAppear = events.firstIndex(of: "Home.viewDidAppear") ?? -1
        #expect(events.firstIndex(of: "Home.prepareForSegue") ?? -1 > didAppear, "\(events)")
        #expect(events.contains("Login.viewDidAppear"), "\(events)")
        // Asked once, when Home was already presented by A: the state as the callback fired.
        #expect(resolver.asked.count == 1 && resolver.asked.first?.1 == "A")
    }

    @Test("Item 1: the destinations are reported in order, and a replay given them instantiates the same scenes without a catalogue")
    func item1_resolvedSeguesReplay() {
        let w = Window(root: vc("A"))
        let command = Op.present("A", home(), .fullScreen, animated: false)
        let first = Navigator.run([command], on: w.state, segues: Resolver(scene: loginScene()).destinations)
        #expect(first.failure == nil)
        guard case let .performSegue("Home", "login", destination?, nil)? = first.resolvedSegues.first else {
            Issue.record("no resolved segue: \(first.resolvedSegues)")
            return
        }
        #expect(first.resolvedSegues.count == 1 && destination.id == "Login")
        let replay = Navigator.run([command], on: w.state, segues: SegueDestinations(recorded: first.resolvedSegues))
        #expect(replay.state == first.state && replay.resolvedSegues == first.resolvedSegues)
        // Without the storyboard layer and without a record, the segue has no destination: the
        // turn fails and nothing changes, as it did before such segues ran.
        let bare = Navigator.run([command], on: w.state)
        #expect(bare.failure != nil && bare.state == w.state)
    }

    @Test("Item 1: a second instance of the destination scene takes a ~2 id; destination.id names it")
    func item1_secondInstanceIsSuffixed() {
        var w = Window(root: vc("A"))
        w.perform(.createController(loginScene()))
        let resolver = Resolver(scene: loginScene())
        w.perform(Op.present("A", home(), .fullScreen, animated: false), segues: resolver.destinations)
        #expect(w["Home"].presentedID == "Login~2")
        var named = Window(root: vc("A"))
        let code = CallbackCode([.viewDidAppear: [.init(.performSegue(receiver: me, identifier: "login", destination: ControllerSpec(id: "SignIn")))]])
        named.perform(
            Op.present(
                "A",
                vc("Home") {
                    $0.storyboard = main
                    $0.segues = [loginSegue]
                    $0.on = code
                }, .fullScreen, animated: false), segues: resolver.destinations)
        #expect(named["Home"].presentedID == "SignIn")
    }

    @Test("Item 1: a refusal from the storyboard layer (D20) fails the whole turn and changes nothing")
    func item1_unknownStoryboardFailsTheTurn() {
        let w = Window(root: vc("A"))
        let failing = SegueDestinations(resolve: { _, _ in .failure(.uikit(.unknownStoryboard("Gone"))) })
        let r = Navigator.run([Op.present("A", home(), .fullScreen, animated: false)], on: w.state, segues: failing)
        #expect(r.failure == .uikit(.unknownStoryboard("Gone")))
        #expect(r.state == w.state)
    }

    // MARK: A collapsed showDetail, expanded

    /// `S{N1[M], N2[D]}` on an iPad, collapsed by a compact width: `N1 == [M, N2]`.
    func collapsedNested() -> Window {
        var w = Window(root: split("S", primary: nav("N1", vc("M")), secondary: nav("N2", vc("D"))), traits: iPadRegular)
        w.perform(.setTraits(iPadCompactWidth))
        return w
    }

    @Test("Item 3 / R67, R91: collapsed, showDetail pushes the detail as one entry and it becomes the split's secondary")
    func item3_collapsedShowDetailIsTheSecondary() {
        var w = collapsedNested()
        w.perform(Op.pop("N1", animated: false))  // back to the master, as the user does
        w.send(Op.showDetail("M", nav("N3", vc("D3")))) {
            $0.create("N3", .navigationController) {
                $0.parent = "N1"; $0.children = ["D3"]
            }
            $0.setStack("N3", ["D3"])
            $0.create("D3") { $0.parent = "N3" }
            $0.appeared("N3", "D3")
            $0.disappeared("M")
            $0.modify("N1") { $0.children = ["M", "N3"] }
            $0.setStack("N1", ["M", "N3"])
            $0.modifySplit("S") { $0.secondary = "N3" }
            $0.nextTransitionNumber += 1
        }
        #expect(w.state.nearestAncestor("D3", kind: .navigationController) == "N3")
        w.checkInvariants()
    }

    @Test("Item 3 / R92: expanding separates the detail shown while collapsed, as separateSecondary's default pops it")
    func item3_expandSeparatesTheShownDetail() {
        var w = collapsedNested()
        w.perform(Op.pop("N1", animated: false))
        w.perform(Op.showDetail("M", nav("N3", vc("D3"))))
        w.perform(.setTraits(iPadRegular))
        #expect(w.stack("N1") == ["M"] && w.stack("N3") == ["D3"])
        #expect(w["S"].children == ["N1", "N3"] && w["N3"].parent == "S" && w["S"].split?.secondary == "N3")
        #expect(w.isAppeared("M") && w.isAppeared("D3") && !w.isAppeared("D"))
        #expect(w["N2"].parent == nil, "the detail popped before showDetail stays out")
        w.checkInvariants()
    }

    @Test("Item 3 / R67, R92 (S51): a plain detail shown while collapsed is the secondary after expanding")
    func item3_plainDetailAfterDiscard() {
        var w = Window(
            root: split("S", primary: nav("N1", vc("M")), secondary: vc("D1"), collapseSecondaryOntoPrimary: true),
            traits: iPadRegular)
        w.perform(.setTraits(iPadCompactWidth))
        w.perform(Op.showDetail("M", vc("D2")))
        #expect(w.stack("N1") == ["M", "D2"] && w["S"].split?.secondary == "D2")
        w.perform(.setTraits(iPadRegular))
        #expect(w.stack("N1") == ["M"] && w["S"].children == ["N1", "D2"] && w["D2"].parent == "S")
        #expect(w["D1"].parent == nil && w.isAppeared("D2"))
        w.checkInvariants()
    }

    // R67 (an expanded column split pushes showDetail onto the secondary column) is
    // `ColumnSplitTests.exhaustiveShowDetailExpanded`.

    // MARK: The callback bound's name

    @Test("Item 6: code running more than 8 lifecycle methods deep names callbackDepth")
    func item6_depthLimitIsNamed() throws {
        let w = Window(root: vc("A") { $0.on = CallbackCode([.viewDidAppear: [.init(.dismiss(receiver: me, animated: false))]]) })
        // Already 8 methods deep (code whose calls ran methods with code, 8 times over): A's
        // viewDidAppear would be the 9th.
        var engine = Engine(state: w.state)
        let entry = engine.journal.open()
        engine.callbacks.depth = CallbackCode.maximumDepth
        engine.emit(Event("A", .viewDidAppear, animated: false), in: entry)
        guard case .input(let e)? = engine.callbacks.failure else {
            Issue.record("no failure: \(String(describing: engine.callbacks.failure))")
            return
        }
        #expect(e.kind == .limitExceeded && e.limit == "callbackDepth" && e.field == "on.viewDidAppear")
        #expect(e.message.contains("more than 8 lifecycle methods deep"), "\(e.message)")
        // One level less runs the code.
        var shallower = Engine(state: w.state)
        let first = shallower.journal.open()
        shallower.callbacks.depth = CallbackCode.maximumDepth - 1
        shallower.emit(Event("A", .viewDidAppear, animated: false), in: first)
        #expect(shallower.callbacks.failure == nil && shallower.callbacks.calls == 1)
    }

    /// docs/limits.md "When code nests": the one path on which code nests. A
    /// child's `viewDidLoad` runs inside `addSubview` when the parent's view is loaded but off
    /// screen (R31); a chain whose every `viewDidLoad` adds the next child's view nests one level
    /// per child: 8 levels run, the 9th is `callbackDepth` and the turn changes nothing.
    @Test func nestingThroughAddSubviewReachesCallbackDepth() throws {
        func chain(_ i: Int, last: Int) -> ControllerRef {
            vc("C\(i)") {
                guard i < last else { return }
                $0.on = CallbackCode([
                    .viewDidLoad: [
                        .init(.addChild(receiver: CallbackCode.selfReceiver, viewController: chain(i + 1, last: last))),
                        .init(.addSubview(receiver: CallbackCode.selfReceiver, viewController: "C\(i + 1)", animated: false)),
                    ]
                ])
            }
        }
        for (last, fails) in [(9, false), (10, true)] {
            var w = Window(root: tabs("T", [vc("A"), vc("B")]))
            _ = w.perform(.select(receiver: "T", index: 1, viewController: nil))
            // A's view is loaded and off screen now.
            _ = w.perform(.addChild(receiver: "A", viewController: chain(1, last: last)))
            let add = Command.addSubview(receiver: "A", viewController: "C1", animated: false)
            if fails {
                let e = w.sendInvalid(add)
                #expect(e?.kind == .limitExceeded && e?.limit == "callbackDepth", "\(String(describing: e))")
            } else {
                let r = w.perform(add)
                let loads = r.events.filter { $0.callback == .viewDidLoad }.map(\.controller)
                #expect(loads == (1...9).map { "C\($0)" }, "\(loads)")
            }
        }
    }

    @Test("Item 6: two tabs selecting each other in viewDidAppear reach 256 calls: callbacksPerRequest")
    func item6_selfTriggeringTabsNameTheCallBound() throws {
        var w = Window(root: vc("Root"))
        var tabs = ControllerSpec(id: "T", kind: .tabBarController)
        tabs.viewControllers = [
            vc("A") { $0.on = CallbackCode([.viewDidAppear: [.init(.select(receiver: "T", index: 1, viewController: nil))]]) },
            vc("B") { $0.on = CallbackCode([.viewDidAppear: [.init(.select(receiver: "T", index: 0, viewController: nil))]]) },
        ]
        let invalid = w.sendInvalid(Op.present("Root", .new(tabs), .fullScreen, animated: false))
        let e = try #require(invalid)
        #expect(e.kind == .limitExceeded && e.limit == "callbacksPerRequest")
    }

    @Test("Item 6: more than 256 calls at one level names callbacksPerRequest")
    func item6_callCountLimitIsNamed() throws {
        var w = Window(root: vc("Root"))
        let many = CallbackCode([.viewDidLoad: Array(repeating: .init(.dismiss(receiver: me, animated: false)), count: 257)])
        let invalid = w.sendInvalid(Op.present("Root", vc("X") { $0.on = many }, .fullScreen, animated: false))
        let e = try #require(invalid)
        #expect(e.kind == .limitExceeded && e.limit == "callbacksPerRequest")
        #expect(e.message.contains("256 calls"), "\(e.message)")
        #expect(CallbackCode.Limit.callbacksPerRequest.maximum == 256 && CallbackCode.Limit.callbackDepth.maximum == 8)
    }
}

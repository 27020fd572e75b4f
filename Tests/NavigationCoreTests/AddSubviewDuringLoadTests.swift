import Testing
import NavigationCore

/// R71 with R31/R37: `addChild` + `addSubview` inside the `viewDidLoad` of a parent that a
/// transition is bringing on screen. Reading `child.view` loads it at once, inside the parent's
/// `viewDidLoad`, and the child appears with its parent (one transition, each controller's
/// `viewWillAppear`/`viewIsAppearing` parent first, then the `viewDidAppear`s parent first).
@Suite("addSubview while the parent loads (R71)")
struct AddSubviewDuringLoadTests {
    /// A `viewDidLoad` that calls `addChild(C)`, then `view.addSubview(C.view)`.
    func addsChild(_ child: ControllerID = "C") -> CallbackCode {
        CallbackCode([
            .viewDidLoad: [
                .init(.addChild(receiver: CallbackCode.selfReceiver, viewController: vc(child))),
                .init(.addSubview(receiver: CallbackCode.selfReceiver, viewController: child, animated: false)),
            ]
        ])
    }

    func parent(_ id: ControllerID = "P") -> ControllerRef { vc(id) { $0.on = addsChild() } }

    @Test("R71 exhaustive: a root whose viewDidLoad adds a child's view: the child loads there and appears with the root, one transition")
    func exhaustiveRootAddsChildInViewDidLoad() {
        var w = Window(root: nil)
        w.send(
            .setRoot(parent(), animated: false),
            events: [
                "P.viewDidLoad", "C.willMoveToParent(P)", "C.viewDidLoad",
                "P.viewWillAppear", "P.viewIsAppearing", "C.viewWillAppear", "C.viewIsAppearing",
                "P.viewDidAppear", "C.viewDidAppear",
            ]
        ) {
            $0.create("P") { $0.configuration.on = addsChild() }
            $0.create("C") {
                $0.parent = "P"; $0.isMovingToParent = true; $0.viewAddedToParent = true
            }
            $0.modify("P") { $0.children = ["C"] }
            $0.appeared("P", "C")
            $0.rootViewController = "P"
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R71: the same at session creation (makeSessionReporting), as a new session reports it")
    func sessionCreation() throws {
        let made = try Navigator.makeSessionReporting(traits: .phonePortrait, options: Options(iOS: .iOS17), root: parent()).get()
        #expect(
            names(made.result) == [
                "P.viewDidLoad", "C.willMoveToParent(P)", "C.viewDidLoad",
                "P.viewWillAppear", "P.viewIsAppearing", "C.viewWillAppear", "C.viewIsAppearing",
                "P.viewDidAppear", "C.viewDidAppear",
            ])
        #expect(made.state.transitions.isEmpty && made.state.nextTransitionNumber == 2)
    }

    @Test("R71, manual mode: an animated presentation carries the joined child until it ends; the tick makes both appear")
    func animatedPresentationCarriesTheChild() {
        var w = Window(root: vc("A"), options: manual)
        let started = w.perform(Op.present("A", parent(), .fullScreen))
        #expect(
            names(started) == [
                "P.viewDidLoad", "C.willMoveToParent(P)", "C.viewDidLoad",
                "A.viewWillDisappear", "P.viewWillAppear", "P.viewIsAppearing", "C.viewWillAppear", "C.viewIsAppearing",
            ])
        #expect(w.state.transitions.map(\.record.id) == [started.transition?.id], "no transition of its own for the child")
        #expect(w.state.transitions.first?.appearing == ["P", "C"])
        #expect(w["C"].appearance == .appearing && w["C"].viewInWindow)
        let tick = w.perform(Op.tick)
        #expect(names(tick) == ["P.viewDidAppear", "C.viewDidAppear", "A.viewDidDisappear", "A.completion"])
        #expect(w.isAppeared("P") && w.isAppeared("C") && w.isDisappeared("A"))
    }

    @Test("R71/R87: a tab whose viewDidLoad adds a child, selected: the child appears within the tab switch")
    func tabSwitchCarriesTheChild() {
        var w = Window(root: tabs("T", [vc("A"), parent()]))
        #expect(!w["P"].isViewLoaded)
        let r = w.perform(.select(receiver: "T", index: 1, viewController: nil))
        let events = names(r).filter { !$0.hasPrefix("T.") }
        #expect(
            events == [
                "P.viewDidLoad", "C.willMoveToParent(P)", "C.viewDidLoad",
                "P.viewWillAppear", "P.viewIsAppearing", "C.viewWillAppear", "C.viewIsAppearing", "A.viewWillDisappear",
                "A.viewDidDisappear", "P.viewDidAppear", "C.viewDidAppear",
            ], "\(events)")
        #expect(w.isAppeared("C") && w.isDisappeared("A"))
    }

    @Test("R71: addSubview in viewDidAppear (parent on screen) still runs its own transition after the parent's")
    func parentOnScreenKeepsItsOwnTransition() throws {
        let p = vc("P") {
            $0.on = CallbackCode([
                .viewDidAppear: [
                    .init(.addChild(receiver: CallbackCode.selfReceiver, viewController: vc("C"))),
                    .init(.addSubview(receiver: CallbackCode.selfReceiver, viewController: "C", animated: false)),
                ]
            ])
        }
        let made = try Navigator.makeSessionReporting(traits: .phonePortrait, options: Options(iOS: .iOS17), root: p).get()
        #expect(
            names(made.result) == [
                "P.viewDidLoad", "P.viewWillAppear", "P.viewIsAppearing", "P.viewDidAppear",
                "C.willMoveToParent(P)", "C.viewDidLoad", "C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear",
            ])
        #expect(made.state.nextTransitionNumber == 3)
    }

    @Test("R71: a parent whose view is loaded and off screen: addSubview loads the child inside itself, no appearance (limits.md)")
    func parentOffScreenStillLoadsOnly() {
        var w = Window(root: tabs("T", [vc("A"), vc("B")]))
        w.perform(.select(receiver: "T", index: 1, viewController: nil))
        w.perform(.addChild(receiver: "A", viewController: vc("C") { $0.on = addsChild("D") }))
        let r = w.perform(.addSubview(receiver: "A", viewController: "C", animated: false))
        #expect(names(r) == ["C.viewDidLoad", "D.willMoveToParent(C)", "D.viewDidLoad"])
        #expect(r.transition == nil && w.state.transitions.isEmpty)
        #expect(w.isDisappeared("C") && w.isDisappeared("D") && w["D"].isViewLoaded)
    }

    @Test("R71: a root container whose viewDidLoad adds a navigation controller's view: the controller and its top join")
    func joinedContainerBringsItsTop() throws {
        let p = vc("P") {
            $0.on = CallbackCode([
                .viewDidLoad: [
                    .init(.addChild(receiver: CallbackCode.selfReceiver, viewController: nav("N", vc("T")))),
                    .init(.addSubview(receiver: CallbackCode.selfReceiver, viewController: "N", animated: false)),
                ]
            ])
        }
        let made = try Navigator.makeSessionReporting(traits: .phonePortrait, options: Options(iOS: .iOS17), root: p).get()
        #expect(
            names(made.result) == [
                "P.viewDidLoad", "N.willMoveToParent(P)", "N.viewDidLoad", "T.viewDidLoad",
                "P.viewWillAppear", "P.viewIsAppearing", "N.viewWillAppear", "N.viewIsAppearing", "T.viewWillAppear", "T.viewIsAppearing",
                "P.viewDidAppear", "N.viewDidAppear", "T.viewDidAppear",
            ])
        #expect(made.state.transitions.isEmpty && made.state.nextTransitionNumber == 2)
    }
}

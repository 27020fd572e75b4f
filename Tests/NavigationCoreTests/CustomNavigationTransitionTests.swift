import Testing
import NavigationCore

/// The navigation delegate's custom animator and interaction controller (R140–R142) and the
/// blocks lifecycle code registers on a `transitionCoordinator` (R143–R145).
@Suite("custom navigation transitions and the transition coordinator's blocks (R140–R145)")
struct CustomNavigationTransitionTests {
    let me = CallbackCode.selfReceiver
    let fade = TransitioningDelegate(name: "Fade", duration: 0.25)

    /// `N[ids…]` whose delegate answers `fade`, and `interaction` when given; `code` per controller.
    func delegated(
        _ ids: [ControllerID], interaction: String? = nil, options: Options? = nil,
        code: [ControllerID: CallbackCode] = [:]
    ) -> Window {
        let delegate = NavigationDelegate(animationController: fade, interactionController: interaction)
        let stack = ids.map { id in vc(id) { if let c = code[id] { $0.on = c } } }
        let root = make("N", .navigationController) {
            $0.viewControllers = stack
            $0.navigationDelegate = delegate
        }
        return options.map { Window(root: root, options: $0) } ?? Window(root: root)
    }

    func code(_ method: CallbackCode.Method, _ commands: Command...) -> CallbackCode {
        CallbackCode([method: commands.map { CallbackCode.Call($0) }])
    }

    @Test("R140 exhaustive: an animated push asks the delegate for an animator before willShow; the animator runs it")
    func pushAsksForAnimator() {
        var w = delegated(["A"])
        let r = w.send(
            Op.push("N", vc("B")),
            events: [
                "B.willMoveToParent(N)", "N.navigationControllerAnimationControllerFor(push)", "B.viewDidLoad",
                "B.navigationControllerWillShow", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
                "A.viewDidDisappear", "B.viewDidAppear", "B.didMoveToParent(N)", "B.navigationControllerDidShow",
            ]
        ) { $0.pushedNew("B", onto: "N", over: ["A"]) }
        #expect(r.transition?.animator == "Fade")
        #expect(r.transition?.duration == 0.25)
    }

    @Test("R140 exhaustive: a pop asks for the animator, then the interaction controller; a non-animated one asks nothing")
    func popAsksForInteractionController() {
        var w = delegated(["A", "B", "C"], interaction: "Pan")
        let r = w.send(
            Op.pop("N"),
            events: [
                "C.willMoveToParent(nil)", "N.navigationControllerAnimationControllerFor(pop)",
                "N.navigationControllerInteractionControllerFor", "B.viewDidLoad", "B.navigationControllerWillShow",
                "C.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing", "C.viewDidDisappear", "B.viewDidAppear",
                "C.didMoveToParent(nil)", "B.navigationControllerDidShow",
            ]
        ) {
            $0.modify("C") { $0.parent = nil }
            $0.disappeared("C")
            $0.appeared("B")
            $0.modify("N") { $0.children = ["A", "B"] }
            $0.setStack("N", ["A", "B"])
            $0.nextTransitionNumber += 1
        }
        #expect(r.transition?.animator == "Fade")
        let plain = w.send(
            Op.pop("N", animated: false),
            events: [
                "B.willMoveToParent(nil)", "A.viewDidLoad", "A.navigationControllerWillShow", "B.viewWillDisappear",
                "A.viewWillAppear", "A.viewIsAppearing", "B.viewDidDisappear", "A.viewDidAppear",
                "B.didMoveToParent(nil)", "A.navigationControllerDidShow",
            ]
        ) {
            $0.modify("B") { $0.parent = nil }
            $0.disappeared("B")
            $0.appeared("A")
            $0.modify("N") { $0.children = ["A"] }
            $0.setStack("N", ["A"])
            $0.nextTransitionNumber += 1
        }
        #expect(plain.transition?.animator == nil)
    }

    @Test("R140: setViewControllers with a new top is a push to the delegate, back to one on the stack a pop")
    func setViewControllersOperation() {
        var w = delegated(["A"])
        let pushed = w.perform(Op.setViewControllers("N", [id("A"), vc("B")]))
        #expect(names(pushed).contains("N.navigationControllerAnimationControllerFor(push)"))
        let popped = w.perform(Op.setViewControllers("N", [id("A")]))
        #expect(names(popped).contains("N.navigationControllerAnimationControllerFor(pop)"))
    }

    @Test("R141/R142 exhaustive: an interactive custom pop given up: the delegate's answers, then R83's cancel pattern; nothing changes")
    func interactiveCustomPopCancelled() {
        var w = delegated(["A", "B"], interaction: "Pan")
        let r = w.send(
            .interactivePop(receiver: "N", completes: false),
            events: [
                "B.willMoveToParent(nil)", "N.navigationControllerAnimationControllerFor(pop)",
                "N.navigationControllerInteractionControllerFor", "A.viewDidLoad", "A.navigationControllerWillShow",
                "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing", "B.viewWillAppear", "A.viewWillDisappear",
                "A.viewDidDisappear", "B.viewDidAppear", "B.didMoveToParent(N)",
            ]
        ) {
            $0.modify("A") { $0.isViewLoaded = true }
            $0.nextTransitionNumber += 1
        }
        #expect(r.transition?.animator == "Fade")
        #expect(r.transition?.state == .cancelled)
    }

    @Test("R143–R145 exhaustive: blocks registered in the starting callbacks of a custom pop given up run with it, each told it was cancelled")
    func coordinatorBlocksOnCancelledPop() {
        var w = delegated(
            ["A", "B"], interaction: "Pan",
            code: [
                "B": code(.viewWillDisappear, .animateAlongsideTransition(receiver: me), .notifyWhenInteractionChanges(receiver: me)),
                "A": code(.viewWillAppear, .animateAlongsideTransition(receiver: me)),
            ])
        w.send(
            .interactivePop(receiver: "N", completes: false),
            events: [
                "B.willMoveToParent(nil)", "N.navigationControllerAnimationControllerFor(pop)",
                "N.navigationControllerInteractionControllerFor", "A.viewDidLoad", "A.navigationControllerWillShow",
                "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing",
                "B.animateAlongsideTransition", "A.animateAlongsideTransition",
                "B.notifyWhenInteractionChanges(isCancelled: true)",
                "B.viewWillAppear", "A.viewWillDisappear", "A.viewDidDisappear", "B.viewDidAppear", "B.didMoveToParent(N)",
                "B.animateAlongsideTransitionCompletion(isCancelled: true)",
                "A.animateAlongsideTransitionCompletion(isCancelled: true)",
            ]
        ) {
            $0.modify("A") { $0.isViewLoaded = true }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R143–R145 exhaustive: finished, the interaction handler runs before the did callbacks, the completions after them")
    func coordinatorBlocksOnFinishedSwipe() {
        var w = delegated(
            ["A", "B"],
            code: ["B": code(.viewWillDisappear, .notifyWhenInteractionChanges(receiver: me), .animateAlongsideTransition(receiver: me))])
        w.send(
            .interactivePop(receiver: "N", completes: true),
            events: [
                "B.willMoveToParent(nil)", "N.navigationControllerAnimationControllerFor(pop)", "A.viewDidLoad",
                "A.navigationControllerWillShow", "B.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing",
                "B.animateAlongsideTransition", "B.notifyWhenInteractionChanges(isCancelled: false)",
                "B.viewDidDisappear", "A.viewDidAppear", "B.didMoveToParent(nil)", "A.navigationControllerDidShow",
                "B.animateAlongsideTransitionCompletion(isCancelled: false)",
            ]
        ) {
            $0.modify("B") { $0.parent = nil }
            $0.disappeared("B")
            $0.appeared("A")
            $0.modify("N") { $0.children = ["A"] }
            $0.setStack("N", ["A"])
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R145 exhaustive: a push no one drives never calls the interaction handler; the alongside block and completion run")
    func nonInteractivePushSkipsInteractionHandler() {
        var w = Window(root: nav("N", vc("A")))
        let pushed = vc("B") { $0.on = code(.viewWillAppear, .notifyWhenInteractionChanges(receiver: me), .animateAlongsideTransition(receiver: me)) }
        w.send(
            Op.push("N", pushed),
            events: [
                "B.willMoveToParent(N)", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
                "B.animateAlongsideTransition", "A.viewDidDisappear", "B.viewDidAppear", "B.didMoveToParent(N)",
                "B.animateAlongsideTransitionCompletion(isCancelled: false)",
            ]
        ) {
            $0.pushedNew("B", onto: "N", over: ["A"])
            $0.modify("B") { $0.configuration.on = code(.viewWillAppear, .notifyWhenInteractionChanges(receiver: me), .animateAlongsideTransition(receiver: me)) }
        }
    }

    @Test("R143 exhaustive: with no transition the coordinator is nil: the calls do nothing; an unknown receiver is invalid")
    func noCoordinator() {
        var w = Window(root: nav("N", vc("A")))
        w.send(.animateAlongsideTransition(receiver: "A"), events: []) { _ in }
        w.send(.notifyWhenInteractionChanges(receiver: "A"), events: []) { _ in }
        #expect(w.sendInvalid(.animateAlongsideTransition(receiver: "ghost"))?.kind == .unknownController)
    }

    @Test("R143/R144: on a push already running (manual) the block runs at once; its completion, and the handler of an interactive one, when it ends")
    func registeredWhileRunning() {
        var w = delegated(["A"], interaction: "Pan", options: manual)
        let push = w.perform(Op.push("N", vc("B")))
        guard let tid = push.transition?.id else {
            Issue.record("the push runs")
            return
        }
        #expect(names(w.perform(.animateAlongsideTransition(receiver: "B"))) == ["B.animateAlongsideTransition"])
        #expect(names(w.perform(.notifyWhenInteractionChanges(receiver: "B"))).isEmpty)
        let cancelled = names(w.perform(.cancelTransition(id: tid)))
        #expect(cancelled.first == "B.notifyWhenInteractionChanges(isCancelled: true)")
        #expect(cancelled.last == "B.animateAlongsideTransitionCompletion(isCancelled: true)")
        #expect(w.stack("N") == ["A"])
    }
}

import Testing
import NavigationCore

/// A user's interactive transition (R83 swipe back, R130 page turn) in the same turn as a
/// presentation accepted before it (R27: its transition has not started). The swipe starts (the
/// queued presentation covers nothing yet, R160); the presentation's transition starts first, as
/// it would before a code `pop` at the end of the turn, and each callback is reported in the
/// result of the operation that caused it.
@Suite("gesture after a present in the same turn (R27, R83, R130)")
struct GestureAfterPresentInTurnTests {
    let iOS17 = Options(iOS: .iOS17)

    /// The events of each operation of a turn, in ``render(_:)`` notation; nil for one that did not apply.
    func eventsOf(_ outcomes: [OperationOutcome]) -> [[String]?] {
        outcomes.map {
            guard case .applied(let r) = $0 else { return nil }
            return names(r)
        }
    }

    /// nav(list, d1) on an iPhone, d1 on screen.
    func stack() -> Window {
        Window(root: nav("nav", vc("list"), vc("d1")), options: iOS17)
    }

    /// The swipe's events with no presentation in the turn: the same swipe, the same callbacks.
    func swipeAlone(completes: Bool) -> [String] {
        var w = stack()
        return names(w.perform(.interactivePop(receiver: "nav", completes: completes)))
    }

    let presentSheet = Op.present("d1", vc("sh"), .pageSheet)
    /// What the presentation of the page sheet `sh` from `source` (by `presenter`, the context
    /// that presents it, R20) does, whatever the gesture does.
    func sheetPresented(_ s: inout SessionState, by presenter: ControllerID = "nav", from source: ControllerID = "d1") {
        s.create("sh") {
            $0.modalPresentationStyle = .pageSheet
            $0.presentation = presentationRecord(presenter, source: source, requested: .pageSheet)
        }
        s.appeared("sh")
        s.modify(presenter) { $0.presentedID = "sh" }
        s.nextTransitionNumber += 1
    }
    /// What the completed swipe back from d1 to list does, whatever the presentation does.
    func swipedBack(_ s: inout SessionState) {
        s.setStack("nav", ["list"])
        s.modify("nav") { $0.children = ["list"] }
        s.modify("d1") { $0.parent = nil }
        s.disappeared("d1")
        s.appeared("list")
    }
    /// The presentation's callbacks, ending with the completion of `present` called on `source`.
    func presentEvents(from source: String = "d1") -> [String] {
        ["sh.viewDidLoad", "sh.viewWillAppear", "sh.viewIsAppearing", "sh.viewDidAppear", "\(source).completion"]
    }

    @Test("R83/R27 exhaustive: present, then a completed swipe back in the same turn: both happen, as with a code pop")
    func presentThenSwipeBack() {
        var w = stack()
        let outcomes = w.sendTurn([presentSheet, .interactivePop(receiver: "nav", completes: true)]) {
            sheetPresented(&$0)
            swipedBack(&$0)
            $0.nextTransitionNumber += 1
        }
        let events = eventsOf(outcomes)
        #expect(events[0] == presentEvents())
        #expect(
            events[1] == [
                "d1.willMoveToParent(nil)", "list.viewDidLoad", "d1.viewWillDisappear", "list.viewWillAppear",
                "list.viewIsAppearing", "d1.viewDidDisappear", "list.viewDidAppear", "d1.didMoveToParent(nil)",
            ])
        #expect(events[1] == swipeAlone(completes: true))
        #expect(w.state.viewsInWindow == ["nav", "list", "sh"])
        w.checkInvariants()
        // The sheet went from nav: dismissing it tells d1 nothing, and list can present.
        let dismissed = w.perform(Op.dismiss("nav"))
        #expect(of("d1", names(dismissed)).isEmpty)
        #expect(w.perform(Op.present("list", vc("next"))).warnings.isEmpty)
    }

    @Test("R83/R38 exhaustive: present, then a swipe back given up in the same turn: the sheet finishes presenting, the stack stays")
    func presentThenCancelledSwipeBack() {
        var w = stack()
        let outcomes = w.sendTurn([presentSheet, .interactivePop(receiver: "nav", completes: false)]) {
            sheetPresented(&$0)
            // list's view loaded for the swipe and left the window again.
            $0.modify("list") { $0.isViewLoaded = true }
            $0.nextTransitionNumber += 1
        }
        let events = eventsOf(outcomes)
        #expect(events[0] == presentEvents())
        #expect(
            events[1] == [
                "d1.willMoveToParent(nil)", "list.viewDidLoad", "d1.viewWillDisappear", "list.viewWillAppear",
                "list.viewIsAppearing", "d1.viewWillAppear", "list.viewWillDisappear", "list.viewDidDisappear",
                "d1.viewDidAppear", "d1.didMoveToParent(nav)",
            ])
        #expect(events[1] == swipeAlone(completes: false))
        // The sheet is settled: its dismissal is balanced (no D21).
        let dismissed = w.perform(Op.dismiss("nav"))
        #expect(dismissed.warnings.isEmpty)
        w.checkInvariants()
    }

    @Test("R83/R27 exhaustive (manual): the sheet's presentation runs on while the swipe pops under it; the tick finishes it")
    func presentThenSwipeBackManual() {
        var w = Window(root: nav("nav", vc("list"), vc("d1")), options: manual)
        let outcomes = w.sendTurn([presentSheet, .interactivePop(receiver: "nav", completes: true)]) {
            $0.create("sh") {
                $0.modalPresentationStyle = .pageSheet
                $0.presentation = presentationRecord("nav", source: "d1", requested: .pageSheet, state: .presenting)
                $0.isBeingPresented = true
                $0.isViewLoaded = true
                $0.appearance = .appearing
                $0.viewInWindow = true
            }
            $0.modify("nav") { $0.presentedID = "sh" }
            $0.startRunning(
                TransitionRecord(
                    id: "t2", operation: .present, fromViewController: "nav", toViewController: "sh",
                    presentationStyle: .pageSheet, transitionStyle: .coverVertical, animated: true,
                    duration: 0.5, animator: nil, containerView: ["sh"], state: .inProgress))
            swipedBack(&$0)
            $0.nextTransitionNumber += 2
        }
        let events = eventsOf(outcomes)
        #expect(events[0] == ["sh.viewDidLoad", "sh.viewWillAppear", "sh.viewIsAppearing"])
        #expect(events[1] == swipeAlone(completes: true))
        #expect(outcomes[1].result?.warnings.isEmpty == true)
        w.send(Op.tick, events: ["sh.viewDidAppear", "d1.completion"]) {
            $0.finishRunning("t2")
            $0.modify("sh") {
                $0.presentation?.state = .presented
                $0.isBeingPresented = false
                $0.appearance = .appeared
            }
        }
    }

    @Test("R48/R77 exhaustive: a push under a sheet, then the sheet swiped down in the same turn: the push's callbacks in its result, the sheet's in the swipe's")
    func pushThenSwipeDown() {
        var w = Window(root: nav("nav", vc("A")), options: iOS17)
        w.perform(Op.present("A", vc("S"), .pageSheet, animated: false))
        let outcomes = w.sendTurn([Op.push("nav", vc("B")), .interactiveDismiss(receiver: "S", completes: true)]) {
            $0.create("B") { $0.parent = "nav" }
            $0.appeared("B")
            $0.disappeared("A", "S")
            $0.modify("nav") {
                $0.children = ["A", "B"]
                $0.presentedID = nil
            }
            $0.setStack("nav", ["A", "B"])
            $0.modify("S") { $0.presentation = nil }
            $0.nextTransitionNumber += 2
        }
        let events = eventsOf(outcomes)
        #expect(
            events[0] == [
                "B.willMoveToParent(nav)", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
                "A.viewDidDisappear", "B.viewDidAppear", "B.didMoveToParent(nav)",
            ])
        #expect(events[1] == ["S.viewWillDisappear", "S.viewDidDisappear"])
        w.checkInvariants()
    }

    /// PV showing p1 (data source p1, p2), p2 created.
    func book() -> Window {
        var w = Window(
            root: make("PV", .pageViewController) {
                $0.viewControllers = [vc("p1")]
                $0.pageDataSource = PageDataSource(pages: ["p1", "p2"])
            }, options: iOS17)
        w.perform(.createController(ControllerSpec(id: "p2")))
        return w
    }

    func turnAlone(completes: Bool) -> [String] {
        var w = book()
        return names(w.perform(.turnPage(receiver: "PV", direction: .forward, completes: completes)))
    }

    @Test("R130/R27 exhaustive: present, then a completed page turn in the same turn: p2 shows under the sheet")
    func presentThenTurnPage() {
        var w = book()
        let outcomes = w.sendTurn([Op.present("p1", vc("sh"), .pageSheet), .turnPage(receiver: "PV", direction: .forward, completes: true)]) {
            sheetPresented(&$0, by: "PV", from: "p1")
            $0.modify("PV") { $0.children = ["p2"] }
            $0.setPages("PV", ["p2"])
            $0.modify("p1") { $0.parent = nil }
            $0.modify("p2") { $0.parent = "PV" }
            $0.disappeared("p1")
            $0.appeared("p2")
            $0.nextTransitionNumber += 1
        }
        let events = eventsOf(outcomes)
        #expect(events[0] == presentEvents(from: "p1"))
        #expect(
            events[1] == [
                "p2.willMoveToParent(PV)", "p2.viewDidLoad", "p2.viewWillAppear", "p2.viewIsAppearing", "p1.viewWillDisappear",
                "p2.viewDidAppear", "p1.viewDidDisappear", "p1.willMoveToParent(nil)", "p1.didMoveToParent(nil)",
                "p2.didMoveToParent(PV)",
            ])
        #expect(events[1] == turnAlone(completes: true))
        #expect(w.state.viewsInWindow == ["PV", "p2", "sh"])
        w.checkInvariants()
    }

    @Test("R131/R27 exhaustive: present, then a page turn given up in the same turn: the sheet finishes presenting, p1 stays")
    func presentThenCancelledTurnPage() {
        var w = book()
        let outcomes = w.sendTurn([Op.present("p1", vc("sh"), .pageSheet), .turnPage(receiver: "PV", direction: .forward, completes: false)]) {
            sheetPresented(&$0, by: "PV", from: "p1")
            $0.modify("p2") { $0.isViewLoaded = true }
            $0.nextTransitionNumber += 1
        }
        let events = eventsOf(outcomes)
        #expect(events[0] == presentEvents(from: "p1"))
        #expect(
            events[1] == [
                "p2.willMoveToParent(PV)", "p2.viewDidLoad", "p2.viewWillAppear", "p2.viewIsAppearing", "p1.viewWillDisappear",
                "p1.viewWillAppear", "p1.viewDidAppear", "p2.viewWillDisappear", "p2.viewDidDisappear",
                "p2.willMoveToParent(nil)", "p2.didMoveToParent(nil)",
            ])
        #expect(events[1] == turnAlone(completes: false))
        let dismissed = w.perform(Op.dismiss("PV"))
        #expect(dismissed.warnings.isEmpty)
        w.checkInvariants()
    }

    @Test("R160/R27: a second tap in the same turn still lands before the presentation starts")
    func tapsStillRace() {
        // explore's double-tap race: the queued presentation covers nothing, so the tab tap acts.
        var w = Window(root: tabs("T", [vc("A"), vc("B")]), options: iOS17)
        let outcomes = w.turn([Op.present("A", vc("S"), .pageSheet), .tapTab(receiver: "T", index: 1, viewController: nil)])
        #expect(eventsOf(outcomes).allSatisfy { $0 != nil })
        #expect(w.state["T"]?.selectedViewController == "B")
    }
}

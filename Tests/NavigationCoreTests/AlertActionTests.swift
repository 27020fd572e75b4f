import Testing
import NavigationCore

/// An alert's actions (R104, D25) and a user tapping one (R103, D26): the alert dismisses
/// itself through its presenter, and the action's handler runs in that dismissal's completion.
@Suite("alert actions and tapAlertAction (R103, R104)")
struct AlertActionTests {
    let me = CallbackCode.selfReceiver

    /// `UIAlertController` "Al" with OK (default), Delete (destructive, `handler`) and Cancel.
    func alert(_ id: ControllerID = "Al", style: AlertStyle? = nil, handler: [Command] = []) -> ControllerRef {
        make(id, .alertController) {
            $0.preferredStyle = style
            $0.actions = actions(handler: handler)
        }
    }

    func actions(handler: [Command] = []) -> [AlertAction] {
        [
            AlertAction(title: "OK"),
            AlertAction(title: "Delete", style: .destructive, handler: handler.map { CallbackCode.Call($0) }),
            AlertAction(title: "Cancel", style: .cancel),
        ]
    }

    func tap(_ alert: ControllerID = "Al", index: Int? = nil, title: String? = nil, animated: Bool = true) -> Command {
        .tapAlertAction(receiver: alert, index: index, title: title, animated: animated)
    }

    /// A presents the alert (settled, over full screen: A stays on screen).
    func presented(_ options: Options = Options(iOS: .iOS17), handler: [Command] = []) -> Window {
        var w = Window(root: vc("A"), options: options)
        w.perform(Op.present("A", alert(handler: handler), animated: false))
        return w
    }

    /// iPad: A presents the action sheet `sheet` in a popover from its own view (settled).
    func sheetInPopover(_ sheet: ControllerRef) -> Window {
        var w = Window(root: vc("A"), traits: iPadRegular)
        w.perform(Op.present("A", sheet, popover: PopoverAnchor(sourceView: "A"), animated: false))
        return w
    }

    @Test("R103: a tap dismisses the alert, then the handler runs as A's code: it presents, A being free again")
    func tapDismissesThenRunsHandler() {
        let next = Op.present(me, vc("Next"), .fullScreen, animated: false)
        var w = presented(handler: [next])
        #expect(w.style("Al") == .overFullScreen, "alerts are presented over full screen (Adaptivity.swift)")
        let r = w.send(
            tap(index: 1),
            events: alertGoneThenNextPresentedEvents
        ) {
            $0.alertGoneThenNextPresented()
        }
        let handler = r.events.first { $0.callback == .alertActionHandler }
        #expect(handler?.action == "Delete")
        #expect(handler?.alertAction == AlertActionTap(index: 1, handlerSelf: "A"))
        // The reply names the last transition the tap started: the handler's presentation.
        #expect(r.transition?.operation == .present && r.transition?.toViewController == "Next", "\(String(describing: r.transition))")
        #expect(r.warnings.isEmpty)
    }

    @Test("R103: a handler that pops: the reply's transition is the pop, what the tap did to the app")
    func handlerThatPopsIsTheReplysTransition() {
        var w = Window(root: nav("N", vc("A"), vc("B")))
        w.perform(Op.present("B", alert(handler: [Op.pop("N")]), animated: false))
        let r = w.perform(tap(index: 1))
        #expect(r.transition?.operation == .pop && r.transition?.fromViewController == "B", "\(String(describing: r.transition))")
        #expect(w.stack("N") == ["A"])
        // A handler that starts nothing leaves the dismissal as the reply's transition.
        var plain = presented()
        let cancelled = plain.perform(tap(title: "Cancel"))
        #expect(cancelled.transition?.operation == .dismiss && cancelled.transition?.fromViewController == "Al")
    }

    @Test("R103 exhaustive: a tap outside an action sheet's popover is its cancel action: the alert goes, then the cancel handler runs")
    func tapOutsidePopoverRunsCancelHandler() {
        let sheet = make("Al", .alertController) {
            $0.preferredStyle = .actionSheet
            $0.actions = [
                AlertAction(title: "Delete", style: .destructive),
                AlertAction(title: "Cancel", style: .cancel, handler: [CallbackCode.Call(Op.present(me, vc("Next"), .fullScreen, animated: false))]),
            ]
        }
        var w = sheetInPopover(sheet)
        #expect(w.style("Al") == .popover)
        let r = w.send(
            .interactiveDismiss(receiver: "Al", completes: true),
            events: alertGoneThenNextPresentedEvents
        ) {
            $0.alertGoneThenNextPresented()
        }
        let handler = r.events.first { $0.callback == .alertActionHandler }
        #expect(handler?.action == "Cancel" && handler?.alertAction == AlertActionTap(index: 1, handlerSelf: "A"))
        // Given up half way, nothing is cancelled: no handler.
        var back = sheetInPopover(sheet)
        let kept = back.perform(.interactiveDismiss(receiver: "Al", completes: false))
        #expect(!names(kept).contains("Al.alertActionHandler"))
    }

    @Test("R18: a style set on an alert controller does not change how it is shown: an alert over full screen, an action sheet as its own")
    func alertIgnoresAStyle() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", alert(), .pageSheet, animated: false))
        #expect(w.style("Al") == .overFullScreen)
        // Not a sheet: no swipe down dismisses it, no detent drags it.
        w.send(.interactiveDismiss(receiver: "Al", completes: true), events: []) { _ in }
        #expect(w.presented("A") == "Al")
        // An action sheet asked for full screen on an iPad is still a popover (and needs its anchor).
        var pad = Window(root: vc("A"), traits: iPadRegular)
        pad.perform(Op.present("A", alert(style: .actionSheet), .fullScreen, popover: PopoverAnchor(sourceView: "A"), animated: false))
        #expect(pad.style("Al") == .popover)
    }

    @Test("R103: tapping by title finds the action; one without handler code still dismisses, A reports no callbacks (R33)")
    func tapByTitle() {
        var w = presented()
        w.send(tap(title: "Cancel"), events: ["Al.viewWillDisappear", "Al.viewDidDisappear", "Al.alertActionHandler"]) {
            $0.modify("Al") {
                $0.presentation = nil
                $0.appearance = .disappeared
                $0.viewInWindow = false
            }
            $0.modify("A") { $0.presentedID = nil }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R103: a handler's UIKit warning is logged and its call does nothing; the dismissal stands (R30)")
    func handlerWarningIsLogged() {
        // Presenting on the alert itself: its view has just left the window (D7).
        var w = presented(handler: [Op.present("Al", vc("X"), animated: false)])
        let r = w.send(tap(index: 1), events: ["Al.viewWillDisappear", "Al.viewDidDisappear", "Al.alertActionHandler"]) {
            $0.modify("Al") {
                $0.presentation = nil
                $0.appearance = .disappeared
                $0.viewInWindow = false
            }
            $0.modify("A") { $0.presentedID = nil }
            $0.nextTransitionNumber += 1
        }
        #expect(r.warnings.map(\.code) == ["D7"])
    }

    @Test("R103: a UIKit exception in the handler fails the whole tap: the alert stays presented")
    func handlerExceptionFailsTheTap() {
        var w = presented(handler: [Op.present(me, .none, animated: false)])
        w.sendRefused(tap(index: 1), code: "D1", slug: "nil-view-controller")
        #expect(w.presented("A") == "Al")
    }

    @Test("R103: with manual transitions the handler waits for the dismissal to finish: it runs in the tick")
    func handlerRunsWhenTheDismissalEnds() {
        let next = Op.present(me, vc("Next"), .fullScreen, animated: false)
        var w = presented(manual, handler: [next])
        let tapped = w.perform(tap(index: 1))
        #expect(names(tapped) == ["Al.viewWillDisappear"])
        #expect(w["Al"].isBeingDismissed && w.presented("A") == "Al", "R34: the links stay while it runs")
        let ticked = w.perform(Op.tick)
        #expect(
            names(ticked) == [
                "Al.viewDidDisappear", "Al.alertActionHandler", "Next.viewDidLoad", "A.viewWillDisappear",
                "Next.viewWillAppear", "Next.viewIsAppearing", "Next.viewDidAppear", "A.viewDidDisappear", "A.completion",
            ])
        #expect(w.presented("A") == "Next")
        w.checkInvariants()
    }

    @Test("R103/R43: a tap while the alert is still being presented is D9, and changes nothing")
    func tapDuringPresentation() {
        var w = Window(root: vc("A"), options: manual)
        w.perform(Op.present("A", alert()))
        w.sendRefused(
            tap(index: 0), code: "D9", slug: "dismiss-in-progress",
            message: "Attempt to dismiss from view controller <UIViewController: A> while a presentation or dismiss is in progress!")
    }

    @Test("R103/D26: a tap on an alert nobody presents is UIKit's unknown-presenter text, and changes nothing")
    func tapOnAlertNotPresented() {
        var w = Window(root: vc("A"))
        w.perform(.createController(ControllerSpec(id: "Al", kind: .alertController)))
        w.perform(.updateController("Al", patch(actions())))
        let d = w.sendRefused(
            tap(index: 0), code: "D26", slug: "alert-not-presented",
            message: "Attempt to dismiss <UIAlertController: Al> with unknown presenter, action will not be performed.")
        #expect(d?.severity == .warning)
    }

    @Test("R103: an action that does not exist, or a receiver that is not an alert, is bad input and changes nothing")
    func tapOnMissingAction() {
        var w = presented()
        #expect(w.sendInvalid(tap(index: 3))?.field == "index")
        #expect(w.sendInvalid(tap(index: -1))?.field == "index")
        let e = w.sendInvalid(tap(title: "Archive"))
        #expect(e?.field == "title")
        #expect(e?.message == "<UIAlertController: Al> has no action titled 'Archive'; its actions: 'OK', 'Delete', 'Cancel'.")
        #expect(w.sendInvalid(tap("A", index: 0))?.kind == .wrongReceiver)
    }

    func patch(_ actions: [AlertAction]) -> ControllerPatch {
        var p = ControllerPatch()
        p.set(\.actions, actions)
        return p
    }

    @Test("R104/D25: a second cancel action raises UIKit's assertion, in a spec and in a PATCH, and changes nothing")
    func oneCancelAction() {
        var w = presented()
        let twoCancels = actions() + [AlertAction(title: "Never mind", style: .cancel)]
        let message = "UIAlertController can only have one action with a style of UIAlertActionStyleCancel"
        let d = w.sendRefused(.updateController("Al", patch(twoCancels)), code: "D25", slug: "alert-second-cancel-action", message: message)
        #expect(d?.severity == .exception && d?.name == "NSInternalInconsistencyException")
        w.sendRefused(
            .createController(ControllerSpec(id: "B", kind: .alertController).with(\.actions, twoCancels)), code: "D25",
            slug: "alert-second-cancel-action", message: message)
        // One cancel action and any number of the others is fine.
        let fine = [AlertAction(title: "A"), AlertAction(title: "B", style: .destructive), AlertAction(title: "C", style: .destructive)]
        w.send(.updateController("Al", patch(fine))) { $0.modify("Al") { $0.configuration.actions = fine } }
    }

    @Test("R104: only an alert controller has actions")
    func actionsOnlyOnAlerts() {
        var w = presented()
        #expect(w.sendInvalid(.updateController("A", patch(actions())))?.field == "actions")
        #expect(w.sendInvalid(.createController(ControllerSpec(id: "B").with(\.actions, actions())))?.field == "actions")
    }
}

extension ControllerSpec {
    /// This spec with one configuration property set.
    func with<T>(_ keyPath: WritableKeyPath<ControllerConfiguration, T>, _ value: T) -> ControllerSpec {
        var s = self
        s.configuration.set(keyPath, value)
        return s
    }
}

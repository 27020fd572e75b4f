import Testing
import NavigationCore

/// R152–R154: a tap outside a popover, `passthroughViews`, and which delegate method answers by
/// release.
@Suite("popover taps (R152–R154)")
struct PopoverTapTests {
    let anchor = PopoverAnchor(sourceView: "button")

    /// N(A) on an iPad, with P presented from A as a real popover.
    func popover(
        delegate: PresentationDelegate? = nil, passthrough: [ControllerID]? = nil, modal: Bool = false,
        iOS: IOSRelease = .iOS17
    ) -> Window {
        var w = Window(root: nav("N", vc("A")), traits: iPadRegular, options: Options(iOS: iOS))
        w.perform(
            Op.present(
                "A",
                vc("P") {
                    $0.presentationDelegate = delegate
                    $0.isModalInPresentation = modal
                    if let passthrough { $0.popoverPresentationController = PopoverSettings(passthroughViews: passthrough) }
                }, .popover, popover: anchor, animated: false))
        return w
    }

    func tap(on view: ControllerID, completes: Bool = true) -> Command {
        .interactiveDismiss(receiver: "P", completes: completes, tappedView: view)
    }

    @Test("R152 exhaustive: a tap on a passthrough view, or on a view inside one, keeps the popover and asks no delegate")
    func passthroughKeepsThePopover() {
        var w = popover(delegate: PresentationDelegate(shouldDismiss: true), passthrough: ["N"])
        w.send(tap(on: "N"), events: []) { _ in }
        w.send(tap(on: "A"), events: []) { _ in }
    }

    @Test("R152: passthrough views take the tap even when the popover is modal in presentation")
    func passthroughBeatsModal() {
        var w = popover(delegate: PresentationDelegate(shouldDismiss: true), passthrough: ["A"], modal: true)
        w.send(tap(on: "A"), events: []) { _ in }
        // N is not inside A: the tap reaches the dimming view, and the flag blocks it (R49).
        w.send(tap(on: "N"), events: ["P.presentationControllerDidAttemptToDismiss"]) { _ in }
    }

    @Test("R152/R50 exhaustive: a tap on a view that is not a passthrough view dismisses as a user dismissal")
    func tapElsewhereDismisses() {
        var w = popover(delegate: PresentationDelegate(shouldDismiss: true), passthrough: ["A"])
        w.send(
            tap(on: "N"),
            events: [
                "P.presentationControllerShouldDismiss", "P.presentationControllerWillDismiss",
                "P.viewWillDisappear", "P.viewDidDisappear", "P.presentationControllerDidDismiss",
            ]
        ) {
            $0.modify("P") { $0.presentation = nil }
            $0.disappeared("P")
            $0.modify("N") { $0.presentedID = nil }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R154: a tap inside the popover, on a view not on screen, on an unknown controller, or outside a sheet is invalid")
    func invalidTaps() {
        var w = popover(passthrough: ["A"])
        #expect(w.sendInvalid(tap(on: "P"))?.field == "tappedView")
        #expect(w.sendInvalid(tap(on: "nobody")) != nil)
        if case .new(let z) = make("Z") { w.perform(.createController(z)) }
        #expect(w.sendInvalid(tap(on: "Z"))?.message == "<UIViewController: Z>'s view is not in the window: a tap lands on what is on screen.")

        var sheet = Window(root: vc("A"))
        sheet.perform(Op.present("A", vc("B"), .pageSheet, animated: false))
        let e = sheet.sendInvalid(.interactiveDismiss(receiver: "B", completes: true, tappedView: "A"))
        #expect(e?.field == "tappedView")
        #expect(e?.message == "tappedView is a tap outside a popover, and <UIViewController: B> is presented as pageSheet; a swipe down on a sheet names no view.")
    }

    @Test("R153 exhaustive: iOS 12 asks popoverPresentationControllerShouldDismissPopover and tells …DidDismissPopover")
    func iOS12PopoverDelegate() {
        var w = popover(delegate: PresentationDelegate(shouldDismiss: false, shouldDismissPopover: true), iOS: .iOS12)
        w.send(
            tap(on: "A"),
            events: [
                "P.popoverPresentationControllerShouldDismissPopover", "P.viewWillDisappear", "P.viewDidDisappear",
                "P.popoverPresentationControllerDidDismissPopover",
            ]
        ) {
            $0.modify("P") { $0.presentation = nil }
            $0.disappeared("P")
            $0.modify("N") { $0.presentedID = nil }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R153 exhaustive: on iOS 12 a false answer keeps the popover with no other call; isModalInPopover asks nothing")
    func iOS12Refusals() {
        var w = popover(delegate: PresentationDelegate(shouldDismissPopover: false), iOS: .iOS12)
        w.send(tap(on: "A"), events: ["P.popoverPresentationControllerShouldDismissPopover"]) { _ in }
        var modal = popover(delegate: PresentationDelegate(), modal: true, iOS: .iOS12)
        modal.send(tap(on: "A"), events: []) { _ in }
        // A sheet still has no swipe on iOS 12 (R51).
        var sheet = Window(root: vc("A"), traits: iPadRegular, options: Options(iOS: .iOS12))
        sheet.perform(Op.present("A", vc("B") { $0.presentationDelegate = PresentationDelegate() }, .formSheet, animated: false))
        sheet.send(.interactiveDismiss(receiver: "B", completes: true), events: []) { _ in }
    }

    @Test("R153: from iOS 13 a delegate that implements the deprecated popover method is asked it in place of presentationControllerShouldDismiss")
    func deprecatedMethodStillAnswers() {
        var w = popover(delegate: PresentationDelegate(shouldDismiss: true, shouldDismissPopover: false))
        w.send(
            tap(on: "A"),
            events: ["P.popoverPresentationControllerShouldDismissPopover", "P.presentationControllerDidAttemptToDismiss"]
        ) { _ in }
        var yes = popover(delegate: PresentationDelegate(shouldDismiss: false, shouldDismissPopover: true), iOS: .iOS18)
        let r = yes.perform(tap(on: "A"))
        #expect(
            names(r) == [
                "P.popoverPresentationControllerShouldDismissPopover", "P.presentationControllerWillDismiss",
                "P.viewWillDisappear", "P.viewDidDisappear", "P.presentationControllerDidDismiss",
            ])
        // A swipe on a sheet never asks the popover method.
        var sheet = Window(root: vc("A"))
        sheet.perform(
            Op.present(
                "A", vc("B") { $0.presentationDelegate = PresentationDelegate(shouldDismiss: true, shouldDismissPopover: false) },
                .pageSheet))
        #expect(names(sheet.perform(.interactiveDismiss(receiver: "B", completes: true))).first == "B.presentationControllerShouldDismiss")
    }
}

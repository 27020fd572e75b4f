import Testing
import NavigationCore

/// R161: UIKit calls an optional `UIAdaptivePresentationControllerDelegate` method only when the
/// delegate implements it.
@Suite("presentation delegate methods a delegate does not implement (R161)")
struct UnimplementedDelegateMethodTests {
    func sheet(_ delegate: PresentationDelegate, modal: Bool = false) -> Window {
        var w = Window(root: vc("A"), options: Options(iOS: .iOS17))
        w.perform(
            Op.present(
                "A",
                vc("S") {
                    $0.presentationDelegate = delegate
                    $0.isModalInPresentation = modal
                }, .pageSheet, animated: false))
        return w
    }

    @Test("R161 exhaustive: a delegate with no shouldDismiss answer is not asked it, and the swipe dismisses")
    func noShouldDismissAnswer() {
        var w = sheet(PresentationDelegate())
        w.send(
            .interactiveDismiss(receiver: "S", completes: true),
            events: ["S.presentationControllerWillDismiss", "S.viewWillDisappear", "S.viewDidDisappear", "S.presentationControllerDidDismiss"]
        ) {
            $0.modify("S") { $0.presentation = nil }
            $0.disappeared("S")
            $0.modify("A") { $0.presentedID = nil }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R161: the will, did and did-attempt methods are called only when the delegate implements them")
    func voidMethodsLeftOut() {
        var none = sheet(PresentationDelegate(shouldDismiss: true, willDismiss: false, didDismiss: false))
        #expect(
            names(none.perform(.interactiveDismiss(receiver: "S", completes: true)))
                == ["S.presentationControllerShouldDismiss", "S.viewWillDisappear", "S.viewDidDisappear"])
        var refused = sheet(PresentationDelegate(shouldDismiss: false, didAttemptToDismiss: false))
        refused.send(.interactiveDismiss(receiver: "S", completes: true), events: ["S.presentationControllerShouldDismiss"]) { _ in }
        var modal = sheet(PresentationDelegate(didAttemptToDismiss: false), modal: true)
        modal.send(.interactiveDismiss(receiver: "S", completes: true), events: []) { _ in }
        var told = sheet(PresentationDelegate(), modal: true)
        told.send(.interactiveDismiss(receiver: "S", completes: true), events: ["S.presentationControllerDidAttemptToDismiss"]) { _ in }
    }

    @Test("R161/R153: on iOS 12 a popover delegate with no shouldDismissPopover answer is not asked it")
    func iOS12PopoverWithoutAnswer() {
        var w = Window(root: nav("N", vc("A")), traits: iPadRegular, options: Options(iOS: .iOS12))
        w.perform(
            Op.present(
                "A", vc("P") { $0.presentationDelegate = PresentationDelegate() }, .popover,
                popover: PopoverAnchor(sourceView: "button"), animated: false))
        let r = w.perform(.interactiveDismiss(receiver: "P", completes: true, tappedView: "A"))
        #expect(names(r) == ["P.viewWillDisappear", "P.viewDidDisappear", "P.popoverPresentationControllerDidDismissPopover"])
    }
}

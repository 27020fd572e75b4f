import Testing
import NavigationCore

/// R150, R151: the adaptive delegate's `presentationController(_:viewControllerForAdaptivePresentationStyle:)`
/// shows a navigation controller around the presented controller while the presentation is adapted.
@Suite("adaptive replacement (R150, R151)")
struct AdaptiveReplacementTests {
    let wraps = PresentationDelegate(viewControllerForAdaptivePresentationStyle: .navigationController)
    let anchor = PopoverAnchor(sourceView: "button")

    func adaptedRecord(style: PresentationStyle, original: ControllerID, removes: Bool = false) -> Presentation {
        var record = presentationRecord("A", requested: .popover, style: style, removesPresenterView: removes, popover: anchor)
        record.adaptiveOriginal = original
        return record
    }

    @Test("R150 exhaustive: a popover adapted on iPhone shows the delegate's navigation controller with P as its root")
    func presentAdaptedShowsReplacement() {
        var w = Window(root: vc("A"))
        w.send(
            Op.present("A", vc("P") { $0.presentationDelegate = wraps }, .popover, popover: anchor),
            events: [
                "P.viewControllerForAdaptivePresentationStyle", "P.willMoveToParent(P.adaptive)",
                "P.didMoveToParent(P.adaptive)", "P.willPresentWithAdaptiveStyle",
                "P.adaptive.viewDidLoad", "P.viewDidLoad", "P.adaptive.viewWillAppear", "P.adaptive.viewIsAppearing",
                "P.viewWillAppear", "P.viewIsAppearing", "P.adaptive.viewDidAppear", "P.viewDidAppear", "A.completion",
            ]
        ) {
            $0.create("P") {
                $0.presentationDelegate = wraps
                $0.modalPresentationStyle = .popover
                $0.parent = "P.adaptive"
            }
            $0.create("P.adaptive", .navigationController) {
                $0.children = ["P"]
                $0.presentation = adaptedRecord(style: .formSheet, original: "P")
            }
            $0.setStack("P.adaptive", ["P"])
            $0.appeared("P.adaptive", "P")
            $0.modify("A") { $0.presentedID = "P.adaptive" }
            $0.nextTransitionNumber += 1
        }
        #expect(w.presented("A") == "P.adaptive")
        #expect(w.presenting("P") == "A", "R3: P's presenter comes through its parent")
    }

    @Test("R150/R151 exhaustive: a trait change into compact width swaps the replacement in; back to regular gives P back, the replacement left empty")
    func traitsSwapReplacementInAndOut() {
        var w = Window(root: vc("A"), traits: iPadRegular)
        w.perform(Op.present("A", vc("P") { $0.presentationDelegate = wraps }, .popover, popover: anchor))
        #expect(w.style("P") == .popover, "a real popover: nothing to replace")
        w.send(
            .setTraits(iPadCompactWidth),
            events: [
                "P.viewControllerForAdaptivePresentationStyle", "P.willMoveToParent(P.adaptive)",
                "P.didMoveToParent(P.adaptive)", "P.willPresentWithAdaptiveStyle",
                "P.adaptive.viewDidLoad", "P.adaptive.viewWillAppear", "P.adaptive.viewIsAppearing",
                "P.adaptive.viewDidAppear",
            ]
        ) {
            $0.traits = iPadCompactWidth
            $0.modify("P") {
                $0.presentation = nil
                $0.parent = "P.adaptive"
            }
            $0.create("P.adaptive", .navigationController) {
                $0.children = ["P"]
                $0.presentation = adaptedRecord(style: .formSheet, original: "P")
            }
            $0.setStack("P.adaptive", ["P"])
            $0.appeared("P.adaptive")
            $0.modify("A") { $0.presentedID = "P.adaptive" }
            $0.nextTransitionNumber += 1
        }
        w.send(
            .setTraits(iPadRegular),
            events: [
                "P.willMoveToParent(nil)", "P.didMoveToParent(nil)", "P.willPresentWithAdaptiveStyle",
                "P.adaptive.viewWillDisappear", "P.adaptive.viewDidDisappear",
            ]
        ) {
            $0.traits = iPadRegular
            $0.modify("P") {
                $0.presentation = presentationRecord("A", requested: .popover, popover: anchor)
                $0.parent = nil
            }
            // The session releases only what the client releases: the replacement stays, empty.
            $0.modify("P.adaptive") {
                $0.presentation = nil
                $0.children = []
            }
            $0.setStack("P.adaptive", [])
            $0.disappeared("P.adaptive")
            $0.modify("A") { $0.presentedID = "P" }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R150: dismissing while adapted dismisses the replacement; P stays its root, as a navigation controller keeps it")
    func dismissWhileReplaced() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", vc("P") { $0.presentationDelegate = wraps }, .popover, popover: anchor))
        let r = w.perform(Op.dismiss("P"))
        #expect(
            names(r) == [
                "P.adaptive.viewWillDisappear", "P.viewWillDisappear", "P.adaptive.viewDidDisappear", "P.viewDidDisappear",
                "P.completion",
            ])
        #expect(w.presented("A") == nil)
        #expect(w["P"].parent == "P.adaptive")
    }

    @Test("R150/R49: a swipe on the replacement asks P's delegate, and the events name P")
    func swipeOnReplacementAsksTheOriginalsDelegate() {
        var w = Window(root: vc("A"))
        var delegate = wraps
        delegate.shouldDismiss = false
        w.perform(Op.present("A", vc("P") { $0.presentationDelegate = delegate }, .popover, popover: anchor))
        w.send(
            .interactiveDismiss(receiver: "P", completes: true),
            events: ["P.presentationControllerShouldDismiss", "P.presentationControllerDidAttemptToDismiss"]
        ) { _ in }
    }

    @Test("R150: the delegate answering none keeps the popover, so nothing is replaced; no answer shows P itself")
    func noAdaptationNoReplacement() {
        var w = Window(root: vc("A"))
        var keeps = wraps
        keeps.adaptivePresentationStyle = PresentationStyle.none
        let r = w.perform(Op.present("A", vc("P") { $0.presentationDelegate = keeps }, .popover, popover: anchor))
        #expect(!names(r).contains("P.viewControllerForAdaptivePresentationStyle"))
        #expect(w.presented("A") == "P" && w["P"].parent == nil)

        var plain = Window(root: vc("A"))
        plain.perform(
            Op.present("A", vc("P") { $0.presentationDelegate = PresentationDelegate(shouldDismiss: true) }, .popover, popover: anchor))
        #expect(plain.presented("A") == "P")
    }

    @Test("R150: iOS 12 asks too (the adaptive delegate is iOS 8 API): the popover goes full screen inside the replacement")
    func iOS12AsksForTheReplacement() {
        var w = Window(root: vc("A"), options: Options(iOS: .iOS12))
        let r = w.perform(Op.present("A", vc("P") { $0.presentationDelegate = wraps }, .popover, popover: anchor))
        #expect(
            Array(names(r).prefix(3)) == [
                "P.viewControllerForAdaptivePresentationStyle", "P.willMoveToParent(P.adaptive)",
                "P.didMoveToParent(P.adaptive)",
            ])
        #expect(r.events.first?.style == .fullScreen)
        #expect(w.presented("A") == "P.adaptive")
        #expect(w["P.adaptive"].presentation?.style == .fullScreen)
    }
}

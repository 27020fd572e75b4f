import Testing
import NavigationCore

/// R37 and R105: a custom container that does not forward appearance to its children, and
/// `beginAppearanceTransition(_:animated:)` / `endAppearanceTransition()` called on a child.
@Suite("manual appearance forwarding")
struct AppearanceForwardingTests {
    let me = CallbackCode.selfReceiver

    /// `C`, a custom container that returns false from `shouldAutomaticallyForwardAppearanceMethods`,
    /// holding the children `children` with their views inserted.
    func manualContainer(_ id: ControllerID, children: [ControllerRef], on code: CallbackCode = CallbackCode()) -> ControllerRef {
        make(id, .viewController) {
            $0.children = children
            $0.shouldAutomaticallyForwardAppearanceMethods = false
            $0.on = code
        }
    }

    /// A window showing `A` and the manual container `C[K]` created beside it, not yet on screen.
    func windowWithManualContainer(code: CallbackCode = CallbackCode(), options: Options = Options(iOS: .iOS17)) -> Window {
        var w = Window(root: vc("A"), options: options)
        let spec: ControllerSpec
        if case .new(let s) = manualContainer("C", children: [vc("K")], on: code) { spec = s } else { fatalError() }
        w.perform(.createController(spec))
        return w
    }

    @Test("R37 exhaustive: a non-forwarding container presented full screen appears; its child's view enters the window with no callback")
    func presentedContainerForwardsNothing() {
        var w = windowWithManualContainer()
        w.send(
            Op.present("A", .existing("C"), .fullScreen, animated: true),
            events: [
                "C.viewDidLoad", "K.viewDidLoad", "A.viewWillDisappear", "C.viewWillAppear", "C.viewIsAppearing",
                "C.viewDidAppear", "A.viewDidDisappear", "A.completion",
            ]
        ) {
            $0.modify("C") {
                $0.modalPresentationStyle = .fullScreen
                $0.presentation = presentationRecord("A", requested: .fullScreen, removesPresenterView: true)
            }
            $0.appeared("C")
            $0.disappeared("A")
            $0.modify("A") { $0.presentedID = "C" }
            // Its view is in C's view, so in the window; nothing told it it appears.
            $0.modify("K") {
                $0.isViewLoaded = true
                $0.viewInWindow = true
            }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R105 exhaustive: begin then end on the child send its callbacks and move its state; the did carries the begin's animated")
    func beginAndEndOnTheChild() {
        var w = windowWithManualContainer()
        w.perform(Op.present("A", .existing("C"), .fullScreen, animated: false))
        let begin = w.send(
            .beginAppearanceTransition(receiver: "K", isAppearing: true, animated: true),
            events: ["K.viewWillAppear", "K.viewIsAppearing"]
        ) {
            $0.modify("K") {
                $0.appearance = .appearing
                $0.manualAppearanceAnimated = true
            }
        }
        #expect(begin.events == willAppear("K", animated: true))
        #expect(begin.warnings.isEmpty && begin.transition == nil)
        let end = w.send(.endAppearanceTransition(receiver: "K"), events: ["K.viewDidAppear"]) {
            $0.modify("K") { $0.appearance = .appeared }
        }
        #expect(end.events == [appearanceEvent("K", .viewDidAppear, animated: true)])
        #expect(end.warnings.isEmpty)
        w.send(
            .beginAppearanceTransition(receiver: "K", isAppearing: false, animated: false), events: ["K.viewWillDisappear"]
        ) {
            $0.modify("K") {
                $0.appearance = .disappearing
                $0.manualAppearanceAnimated = false
            }
        }
        let did = w.send(.endAppearanceTransition(receiver: "K"), events: ["K.viewDidDisappear"]) {
            $0.modify("K") { $0.appearance = .disappeared }
        }
        #expect(did.events == [appearanceEvent("K", .viewDidDisappear, animated: false)])
    }

    @Test("R105/R38 exhaustive: a begin over a begin logs D21 and goes on; an end with no begin logs D21 and changes nothing")
    func unbalancedCalls() {
        var w = windowWithManualContainer()
        w.perform(Op.present("A", .existing("C"), .fullScreen, animated: false))
        w.perform(.beginAppearanceTransition(receiver: "K", isAppearing: true, animated: false))
        let again = w.send(
            .beginAppearanceTransition(receiver: "K", isAppearing: false, animated: false), events: ["K.viewWillDisappear"]
        ) {
            $0.modify("K") { $0.appearance = .disappearing }
        }
        #expect(again.warnings.map(\.code) == ["D21"])
        #expect(again.warnings.first?.message == "Unbalanced calls to begin/end appearance transitions for <UIViewController: K>.")
        #expect(again.warnings.first?.severity == .warning)
        w.perform(.endAppearanceTransition(receiver: "K"))
        let extra = w.send(.endAppearanceTransition(receiver: "K"), events: []) { _ in }
        #expect(extra.warnings.map(\.code) == ["D21"])
        #expect(extra.warnings.first?.slug == "unbalanced-appearance")
    }

    @Test("R37/R105: the container's own code forwards, in its appearance methods, exactly where UIKit calls them")
    func containerCodeForwards() {
        let code = CallbackCode([
            .viewWillAppear: [CallbackCode.Call(.beginAppearanceTransition(receiver: "K", isAppearing: true, animated: true))],
            .viewDidAppear: [CallbackCode.Call(.endAppearanceTransition(receiver: "K"))],
            .viewWillDisappear: [CallbackCode.Call(.beginAppearanceTransition(receiver: "K", isAppearing: false, animated: true))],
            .viewDidDisappear: [CallbackCode.Call(.endAppearanceTransition(receiver: "K"))],
        ])
        var w = windowWithManualContainer(code: code)
        let shown = w.perform(Op.present("A", .existing("C"), .fullScreen, animated: true))
        #expect(
            names(shown) == [
                "C.viewDidLoad", "K.viewDidLoad", "A.viewWillDisappear", "C.viewWillAppear", "K.viewWillAppear",
                "K.viewIsAppearing", "C.viewIsAppearing", "C.viewDidAppear", "K.viewDidAppear", "A.viewDidDisappear",
                "A.completion",
            ])
        #expect(w.isAppeared("K") && w.isAppeared("C"))
        let gone = w.perform(.dismiss(receiver: "C", animated: true))
        #expect(
            names(gone) == [
                "C.viewWillDisappear", "K.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing", "A.viewDidAppear",
                "C.viewDidDisappear", "K.viewDidDisappear", "C.completion",
            ])
        #expect(w.isDisappeared("K") && w.isDisappeared("C"))
    }

    @Test("R37 exhaustive: dismissing a non-forwarding container takes its child's view out and tells it nothing")
    func dismissedContainerForwardsNothing() {
        var w = windowWithManualContainer()
        w.perform(Op.present("A", .existing("C"), .fullScreen, animated: false))
        w.perform(.beginAppearanceTransition(receiver: "K", isAppearing: true, animated: false))
        w.perform(.endAppearanceTransition(receiver: "K"))
        w.send(
            .dismiss(receiver: "C", animated: false),
            events: ["C.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing", "A.viewDidAppear", "C.viewDidDisappear", "C.completion"]
        ) {
            $0.modify("C") { $0.presentation = nil }
            $0.disappeared("C")
            $0.appeared("A")
            $0.modify("A") { $0.presentedID = nil }
            // Still `appeared`: only the container's code could have told it otherwise.
            $0.modify("K") { $0.viewInWindow = false }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R71/R37 exhaustive: a child view added to a non-forwarding container on screen goes in with no callback")
    func addSubviewForwardsNothing() {
        var w = Window(root: manualContainer("C", children: []))
        w.perform(.addChild(receiver: "C", viewController: vc("K")))
        w.send(.addSubview(receiver: "C", viewController: "K", animated: false), events: ["K.viewDidLoad"]) {
            $0.modify("K") {
                $0.isViewLoaded = true
                $0.viewInWindow = true
                $0.viewAddedToParent = true
            }
            $0.nextTransitionNumber += 1
        }
        w.send(.beginAppearanceTransition(receiver: "K", isAppearing: true, animated: false), events: ["K.viewWillAppear", "K.viewIsAppearing"]) {
            $0.modify("K") { $0.appearance = .appearing }
        }
        w.send(.endAppearanceTransition(receiver: "K"), events: ["K.viewDidAppear"]) {
            $0.modify("K") { $0.appearance = .appeared }
        }
        // Out of the view with no callback; the container tells it first in UIKit's order.
        w.send(.removeFromSuperview(receiver: "K", animated: false), events: []) {
            $0.modify("K") {
                $0.viewInWindow = false
                $0.viewAddedToParent = false
            }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R72/R37 exhaustive: transition(from:to:) on a container that does not forward is D23 and changes nothing")
    func transitionChildNeedsForwarding() {
        var w = Window(root: manualContainer("C", children: [vc("K")]))
        w.perform(.addChild(receiver: "C", viewController: vc("X")))
        w.sendRefused(.transitionChild(receiver: "C", from: "K", to: "X", animated: false), code: "D23", slug: "invalid-child-transition")
    }

    @Test("R105 exhaustive: begin and end reach the descendants the child forwards to: a navigation controller's top")
    func beginReachesDescendants() {
        var w = Window(root: manualContainer("C", children: [nav("N", vc("T"))]))
        w.send(
            .beginAppearanceTransition(receiver: "N", isAppearing: true, animated: true),
            events: ["N.viewWillAppear", "N.viewIsAppearing", "T.viewWillAppear", "T.viewIsAppearing"]
        ) {
            for id in ["N", "T"] {
                $0.modify(id) {
                    $0.appearance = .appearing
                    $0.manualAppearanceAnimated = true
                }
            }
        }
        w.send(.endAppearanceTransition(receiver: "N"), events: ["N.viewDidAppear", "T.viewDidAppear"]) {
            $0.modify("N") { $0.appearance = .appeared }
            $0.modify("T") { $0.appearance = .appeared }
        }
        // Inside the manually told child, its navigation controller forwards as ever.
        w.send(Op.push("N", vc("U"), animated: false)) {
            $0.pushedNew("U", onto: "N", over: ["T"])
        }
    }

    @Test("R37: the launch of a non-forwarding root loads its child's view and sends it nothing")
    func launchForwardsNothing() {
        let w = Window(root: manualContainer("C", children: [vc("K")]))
        #expect(w.isAppeared("C"))
        #expect(w["K"].isViewLoaded && w["K"].viewInWindow && w["K"].appearance == .disappeared)
    }

    @Test("R37: UIKit's own containers forward whatever the property says")
    func builtInContainersForward() {
        let w = Window(root: nav("N", vc("T"), configure: { $0.shouldAutomaticallyForwardAppearanceMethods = false }))
        #expect(w.isAppeared("N") && w.isAppeared("T"))
    }

    @Test("R105, §0.5: on the iOS 12 profile a begin sends no viewIsAppearing")
    func iOS12HasNoViewIsAppearing() {
        var w = Window(root: manualContainer("C", children: [vc("K")]), options: Options(iOS: .iOS12))
        let r = w.perform(.beginAppearanceTransition(receiver: "K", isAppearing: true, animated: false))
        #expect(names(r) == ["K.viewWillAppear"])
    }

    @Test("R105: a begin on an unknown controller is invalid and changes nothing")
    func unknownReceiver() {
        var w = Window(root: vc("A"))
        #expect(w.sendInvalid(.beginAppearanceTransition(receiver: "nope", isAppearing: true, animated: false))?.kind == .unknownController)
        #expect(w.sendInvalid(.endAppearanceTransition(receiver: "nope"))?.kind == .unknownController)
    }

    @Test("R37/R38 (manual): a cancelled dismissal of a non-forwarding container sends its child nothing either way")
    func cancelledDismissalForwardsNothing() {
        var w = windowWithManualContainer(options: manual)
        w.perform(Op.present("A", .existing("C"), .fullScreen, animated: false))
        w.perform(.beginAppearanceTransition(receiver: "K", isAppearing: true, animated: false))
        w.perform(.endAppearanceTransition(receiver: "K"))
        let dismiss = w.perform(.dismiss(receiver: "C", animated: true))
        #expect(of("K", names(dismiss)).isEmpty)
        #expect(w["K"].viewInWindow, "its view leaves with C's when the dismissal ends")
        let cancel = w.perform(.cancelTransition(id: dismiss.transition!.id))
        #expect(cancel.transition?.state == .cancelled)
        #expect(of("K", names(cancel)).isEmpty)
        #expect(of("C", names(cancel)) == ["C.viewWillAppear", "C.viewDidAppear"])
        #expect(w["K"].viewInWindow && w.isAppeared("K"))
        let gone = w.perform(.dismiss(receiver: "C", animated: false))
        #expect(of("K", names(gone)).isEmpty)
        #expect(!w["K"].viewInWindow && w.isAppeared("K"))
    }

    @Test("R37/R21 exhaustive: a context presentation covering a child of a non-forwarding container still tells that child, its presenter")
    func contextPresentationTellsThePresenterChild() {
        var w = Window(root: manualContainer("C", children: [vc("X") { $0.definesPresentationContext = true }]))
        w.perform(.beginAppearanceTransition(receiver: "X", isAppearing: true, animated: false))
        w.perform(.endAppearanceTransition(receiver: "X"))
        w.send(
            Op.present("X", vc("B"), .currentContext, animated: false),
            events: ["B.viewDidLoad", "X.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear", "X.viewDidDisappear", "X.completion"]
        ) {
            $0.create("B") {
                $0.modalPresentationStyle = .currentContext
                $0.presentation = presentationRecord("X", requested: .currentContext, context: "X", removesPresenterView: true)
            }
            $0.appeared("B")
            $0.disappeared("X")
            $0.modify("X") { $0.presentedID = "B" }
            $0.nextTransitionNumber += 1
        }
    }
}

import NavigationCore
import Testing

// Set-ups and expected changes that more than one core test states, written once here so that
// each test keeps only what it checks; the vocabulary they use is Support.swift's and
// ExpectedChanges.swift's.

/// `id`, a custom container that does not forward appearance (R37) and runs `code`, holding `children`.
func manualContainer(_ id: ControllerID, children: [ControllerRef], on code: CallbackCode = CallbackCode()) -> ControllerRef {
    make(id, .viewController) {
        $0.children = children
        $0.shouldAutomaticallyForwardAppearanceMethods = false
        $0.on = code
    }
}

/// A window showing `A` and the manual container `C[K]` (``manualContainer(_:children:on:)``)
/// created beside it, not yet on screen.
func windowWithManualContainer(code: CallbackCode = CallbackCode(), options: Options = Options(iOS: .iOS17)) -> Window {
    var w = Window(root: vc("A"), options: options)
    guard case .new(let spec) = manualContainer("C", children: [vc("K")], on: code) else { fatalError("make returns a new spec") }
    w.perform(.createController(spec))
    return w
}

extension SessionState {
    /// A presents `C[K]` of ``windowWithManualContainer(code:options:)`` full screen: C appears,
    /// A disappears, and K's view is in the window though nothing told K it appears (R37).
    mutating func presentedManualContainer(sourceLocation: SourceLocation = #_sourceLocation) {
        modify("C", sourceLocation: sourceLocation) {
            $0.modalPresentationStyle = .fullScreen
            $0.presentation = presentationRecord("A", requested: .fullScreen, removesPresenterView: true)
        }
        appeared("C", sourceLocation: sourceLocation)
        disappeared("A", sourceLocation: sourceLocation)
        modify("A", sourceLocation: sourceLocation) { $0.presentedID = "C" }
        modify("K", sourceLocation: sourceLocation) {
            $0.isViewLoaded = true
            $0.viewInWindow = true
        }
        nextTransitionNumber += 1
    }

    /// An alert `Al` presented by `A` is gone, then its action's handler, run as A's code, presented
    /// `Next` full screen (R103).
    mutating func alertGoneThenNextPresented(sourceLocation: SourceLocation = #_sourceLocation) {
        modify("Al", sourceLocation: sourceLocation) {
            $0.presentation = nil
            $0.appearance = .disappeared
            $0.viewInWindow = false
        }
        disappeared("A", sourceLocation: sourceLocation)
        modify("A", sourceLocation: sourceLocation) { $0.presentedID = "Next" }
        create("Next") {
            $0.modalPresentationStyle = .fullScreen
            $0.presentation = presentationRecord("A", requested: .fullScreen, removesPresenterView: true)
        }
        appeared("Next", sourceLocation: sourceLocation)
        nextTransitionNumber += 2
    }

    /// Page view controller `PV`'s page `from` was turned to `to` (R130): `to` is its child and page,
    /// on screen; `from` is detached and off screen.
    mutating func pageTurned(from: ControllerID, to: ControllerID, sourceLocation: SourceLocation = #_sourceLocation) {
        modify(to, sourceLocation: sourceLocation) { $0.parent = "PV" }
        appeared(to, sourceLocation: sourceLocation)
        modify(from, sourceLocation: sourceLocation) { $0.parent = nil }
        disappeared(from, sourceLocation: sourceLocation)
        modify("PV", sourceLocation: sourceLocation) { $0.children = [to] }
        setPages("PV", [to], sourceLocation: sourceLocation)
        nextTransitionNumber += 1
    }

    /// Tab bar controller `T`'s tabs are `order` (R133).
    mutating func tabsReordered(_ order: [ControllerID], sourceLocation: SourceLocation = #_sourceLocation) {
        setTabs("T", order, sourceLocation: sourceLocation)
        modify("T", sourceLocation: sourceLocation) { $0.children = order }
    }
}

/// The alert `Al`'s dismissal as its presenter `A` sees it, then what its handler's
/// `present(Next, fullScreen)` sends (``SessionState/alertGoneThenNextPresented(sourceLocation:)``).
let alertGoneThenNextPresentedEvents = [
    "Al.viewWillDisappear", "Al.viewDidDisappear", "Al.alertActionHandler",
    "Next.viewDidLoad", "A.viewWillDisappear", "Next.viewWillAppear", "Next.viewIsAppearing",
    "Next.viewDidAppear", "A.viewDidDisappear", "A.completion",
]

extension Window {
    /// R121: `show(_:)` (or `hide(_:)`) of `column` of the split `S`, sent to `receiver`: the
    /// delegate's `willShow` (`willHide`) first, then the column's navigation controller `S.<column>`
    /// and its `top` appear (disappear) in one animated transition; the display mode becomes `mode`.
    @discardableResult
    mutating func sendColumn(
        _ column: SplitState.Column, hiding: Bool = false, receiver: ControllerID = "S", top: ControllerID,
        mode: SplitState.DisplayMode, sourceLocation: SourceLocation = #_sourceLocation
    ) -> ActionResult {
        let nav = "S.\(column.rawValue)"
        let events =
            hiding
            ? [
                "S.splitViewControllerWillHide(\(column.rawValue))", "\(nav).viewWillDisappear", "\(top).viewWillDisappear",
                "\(nav).viewDidDisappear", "\(top).viewDidDisappear",
            ]
            : [
                "S.splitViewControllerWillShow(\(column.rawValue))", "\(nav).viewWillAppear", "\(nav).viewIsAppearing",
                "\(top).viewWillAppear", "\(top).viewIsAppearing", "\(nav).viewDidAppear", "\(top).viewDidAppear",
            ]
        let command: Command = hiding ? .hideColumn(receiver: receiver, column: column) : .showColumn(receiver: receiver, column: column)
        return send(command, events: events, sourceLocation: sourceLocation) {
            $0.modifySplit("S", sourceLocation: sourceLocation) { $0.displayMode = mode }
            if hiding { $0.disappeared(nav, top, sourceLocation: sourceLocation) } else { $0.appeared(nav, top, sourceLocation: sourceLocation) }
            $0.nextTransitionNumber += 1
        }
    }

    /// R133: the More list's Edit sheet on the seven tabs A–G of `T`, Done with the tabs in `order`:
    /// the delegate is told begin (the tabs before), will end and did end (the new order, and
    /// whether the bar's items `changed`); the tabs are `order`.
    mutating func sendCustomizeTabs(_ order: [ControllerID], changed: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        let after = "[\(order.joined(separator: ","))], \(changed)"
        send(
            .customizeTabs(receiver: "T", viewControllers: order),
            events: [
                "T.tabBarControllerWillBeginCustomizing([A,B,C,D,E,F,G])",
                "T.tabBarControllerWillEndCustomizing(\(after))",
                "T.tabBarControllerDidEndCustomizing(\(after))",
            ], sourceLocation: sourceLocation
        ) {
            $0.tabsReordered(order, sourceLocation: sourceLocation)
        }
    }

    /// R131: a forward swipe from P1 to P2 given up: the delegate is told, P2 joins PV and starts
    /// to appear as P1 starts to disappear, then `reversing` (the callbacks that undo that, in the
    /// style's order), P2 leaves PV and the delegate is told the turn did not complete. Only P2's
    /// view was loaded: the pages and every link are as before.
    mutating func sendForwardSwipeGivenUp(reversing: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let events =
            [
                "PV.pageViewControllerWillTransitionTo([P2])", "P2.willMoveToParent(PV)", "P2.viewDidLoad",
                "P2.viewWillAppear", "P2.viewIsAppearing", "P1.viewWillDisappear",
            ] + reversing + [
                "P2.willMoveToParent(nil)", "P2.didMoveToParent(nil)",
                "PV.pageViewControllerDidFinishAnimating([P1], false)",
            ]
        send(.turnPage(receiver: "PV", direction: .forward, completes: false), events: events, sourceLocation: sourceLocation) {
            $0.modify("P2", sourceLocation: sourceLocation) { $0.isViewLoaded = true }
            $0.nextTransitionNumber += 1
        }
    }
}

extension Window {
    /// R106/R107: the trait change to `traits` of a window showing `N[A, B]`: the trait and size
    /// transitions reach N and its top B, root first, phase by phase (A's view is not in the
    /// window), then `then`; nothing but the traits changes.
    @discardableResult
    mutating func sendStackTraitChange(
        to traits: Traits, then more: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) -> ActionResult {
        send(
            .setTraits(traits),
            events: [
                "N.willTransitionToTraitCollection", "B.willTransitionToTraitCollection",
                "N.viewWillTransitionToSize", "B.viewWillTransitionToSize",
                "N.traitCollectionDidChange", "B.traitCollectionDidChange",
            ] + more, sourceLocation: sourceLocation
        ) {
            $0.traits = traits
        }
    }
}

/// An empty iPad window (regular width) given the split view controller `S` that `configure`
/// sets up as its root: the refusal, the window unchanged (R123, R125).
func splitRootRefusal(
    sourceLocation: SourceLocation = #_sourceLocation, _ configure: (inout ControllerSpec) -> Void
) -> CommandError? {
    var w = Window(root: nil, traits: iPadRegular)
    return w.sendInvalid(.setRoot(make("S", .splitViewController, configure), animated: false), sourceLocation: sourceLocation)
}

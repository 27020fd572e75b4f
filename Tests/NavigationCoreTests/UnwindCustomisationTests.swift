import Testing
import NavigationCore

/// How a class changes an unwind segue: which children its search visits
/// (`allowedChildrenForUnwinding(from:)`, R146), whether a controller takes the action
/// (`canPerformUnwindSegueAction(_:from:sender:)`, R147), and how a custom container brings the
/// destination forward (`unwind(for:towards:)`, R148).
@Suite("unwind customised by classes and custom containers (R146–R148)")
struct UnwindCustomisationTests {
    let me = CallbackCode.selfReceiver
    let back = SegueSpec(id: "unwind-back", identifier: "back", kind: .unwind, destinationScene: nil, unwindAction: "done:")

    /// A custom container C showing S, whose unwind segue `back` sends `done:`; D is C's child
    /// without its view in C's (a page C would bring forward). C and D both implement `done:`.
    func window(configureC: (inout ControllerSpec) -> Void = { _ in }, configureD: (inout ControllerSpec) -> Void = { _ in }) -> Window {
        let source = vc("S") {
            $0.storyboard = StoryboardOrigin(name: "Main", identifier: "S")
            $0.segues = [back]
        }
        var w = Window(
            root: make("C", .viewController) {
                $0.children = [source]
                $0.unwindActions = ["done:"]
                configureC(&$0)
            })
        w.perform(
            .addChild(
                receiver: "C",
                viewController: vc("D") {
                    $0.unwindActions = ["done:"]; configureD(&$0)
                }))
        w.perform(.didMove(receiver: "D", toParent: "C"))
        return w
    }

    let unwindBack = Command.performSegue(receiver: "S", identifier: "back", destination: nil)

    @Test("R99 baseline: without overrides the search reaches C's other child D first")
    func defaultReachesChild() {
        var w = window()
        w.send(unwindBack, events: ["S.prepareForSegue", "D.unwindAction(done:)"]) { _ in }
    }

    @Test("R146 exhaustive: C's override offers no child, so the search asks C itself")
    func allowedChildrenOverride() {
        var w = window(configureC: { $0.allowedChildrenForUnwinding = [] })
        w.send(unwindBack, events: ["C.allowedChildrenForUnwinding", "S.prepareForSegue", "C.unwindAction(done:)"]) { _ in }
    }

    @Test("R146: an override's list is searched in its order, of the controller's children only")
    func allowedChildrenOrder() {
        var w = window(configureC: { $0.allowedChildrenForUnwinding = ["ghost", "D"] })
        let r = w.perform(unwindBack)
        #expect(names(r) == ["C.allowedChildrenForUnwinding", "S.prepareForSegue", "D.unwindAction(done:)"])
    }

    @Test("R147 exhaustive: D implements the action but its override answers false; the search goes on to C")
    func canPerformOverride() {
        var w = window(configureD: { $0.canPerformUnwindSegueAction = ["done:": false] })
        w.send(unwindBack, events: ["D.canPerformUnwindSegueAction(done:)", "S.prepareForSegue", "C.unwindAction(done:)"]) { _ in }
    }

    @Test("R147: an override answering true for an action the class lacks is refused: nothing changes")
    func canPerformWithoutImplementation() {
        var w = window(configureD: {
            $0.unwindActions = []
            $0.canPerformUnwindSegueAction = ["done:": true]
        })
        let e = w.sendInvalid(unwindBack)
        #expect(e?.kind == .invalid && e?.field == "canPerformUnwindSegueAction")
    }

    @Test("R148 exhaustive: C's unwind(for:towards:) runs its code after the action: it swaps S for D")
    func unwindForTowards() {
        let swap = CallbackCode([.unwindForTowards: [CallbackCode.Call(.transitionChild(receiver: me, from: "S", to: "D", animated: false))]])
        var w = window(configureC: { $0.on = swap })
        w.send(
            unwindBack,
            events: [
                "S.prepareForSegue", "D.unwindAction(done:)", "C.unwindForTowards(D)", "D.viewDidLoad",
                "S.viewWillDisappear", "D.viewWillAppear", "D.viewIsAppearing", "S.viewDidDisappear", "D.viewDidAppear",
                "C.completion",
            ]
        ) {
            $0.modify("S") { $0.viewAddedToParent = false }
            $0.disappeared("S")
            $0.modify("D") { $0.viewAddedToParent = true }
            $0.appeared("D")
            $0.nextTransitionNumber += 1
        }
    }
}

import Testing
import NavigationCore

/// §2: `present` validation, with UIKit's diagnostics (§17 D1–D11, docs/api.md slugs). Every refusal
/// must leave the session exactly as it was (checked by `Window.refuse`).
@Suite("present validation (R7–R16)")
struct PresentValidationTests {
    let invalidArgument = "NSInvalidArgumentException"

    @Test("R7: presenting nil raises D1 (S16)")
    func presentNil() {
        var w = Window(root: vc("A"))
        let d = w.refuse(Op.present("A", .none))
        expectDiagnostic(
            d, code: "D1", slug: "nil-view-controller", severity: .exception, name: invalidArgument,
            message: "Application tried to present a nil modal view controller on target \(desc("A")).")
    }

    @Test("R8: presenting a controller on itself raises D2 (S15)")
    func presentSelf() {
        var w = Window(root: vc("A"))
        let d = w.refuse(Op.present("A", id("A")))
        expectDiagnostic(
            d, code: "D2", slug: "present-self", severity: .exception, name: invalidArgument,
            message: "Application tried to present modal view controller on itself. Presenting controller is \(desc("A")).")
    }

    @Test("R9: presenting a controller that has a parent raises D3 (S17)")
    func presentChild() {
        var w = Window(root: nav("N", vc("A"), vc("B")))
        let d = w.refuse(Op.present("B", id("A")))
        expectDiagnostic(
            d, code: "D3", slug: "has-parent", severity: .exception, name: invalidArgument,
            message: "Application tried to present modally a view controller \(desc("A")) that has a parent view controller \(desc("N", .navigationController)).")
    }

    @Test("R10: presenting a controller that is already presented raises D4 naming its presenter (S18)")
    func presentAlreadyPresented() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", vc("B"), .fullScreen))
        w.perform(Op.present("B", vc("C"), .fullScreen))
        let d = w.refuse(Op.present("C", id("B")))
        expectDiagnostic(
            d, code: "D4", slug: "already-presented", severity: .exception, name: invalidArgument,
            message: "Application tried to present modally a view controller \(desc("B")) that is already being presented by \(desc("A")).")
    }

    @Test("R11: presenting the window's root raises D5 (S19)")
    func presentRoot() {
        var w = Window(root: tabs("T", [vc("A")]))
        let d = w.refuse(Op.present("A", id("T")))
        expectDiagnostic(
            d, code: "D5", slug: "active-controller", severity: .exception, name: invalidArgument,
            message: "Application tried to present modally an active controller \(desc("T", .tabBarController)).")
    }

    @Test("R11: presenting an ancestor of the source raises D5")
    func presentAncestorOfSource() {
        var w = Window(root: vc("A"))
        w.perform(.createController(ControllerSpec(id: "Q")))
        w.perform(.addChild(receiver: "Q", viewController: vc("E")))
        let d = w.refuse(Op.present("E", id("Q")))
        expectDiagnostic(
            d, code: "D5", slug: "active-controller", severity: .exception, name: invalidArgument,
            message: "Application tried to present modally an active controller \(desc("Q")).")
    }

    @Test("R12: a presenter that already presents logs D6; no events, no completion (S20, R30)")
    func presenterBusy() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", vc("B"), .fullScreen))
        let d = w.refuse(Op.present("A", vc("C")))
        expectDiagnostic(
            d, code: "D6", slug: "already-presenting", severity: .warning, name: nil,
            message: "Attempt to present \(desc("C")) on \(desc("A")) (from \(desc("A"))) which is already presenting \(desc("B")).")
        #expect(w.state["C"] == nil)
    }

    @Test("R12/R20: the D6 message names the resolved presenter and the source separately (S21)")
    func presenterBusyNamesPresenterAndSource() {
        var w = Window(root: nav("N", vc("A")))
        w.perform(Op.present("N", vc("B")))
        let d = w.refuse(Op.present("A", vc("C")))
        expectDiagnostic(
            d, code: "D6", slug: "already-presenting", severity: .warning, name: nil,
            message: "Attempt to present \(desc("C")) on \(desc("N", .navigationController)) (from \(desc("A"))) which is already presenting \(desc("B")).")
    }

    @Test("R14: presenting while the presenter's presented controller is being dismissed logs D8 (S28)")
    func presentDuringDismissal() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", vc("B")))
        let outcomes = w.turn([Op.dismiss("A"), Op.present("A", vc("C"))])
        #expect(outcomes[0].result != nil)
        expectDiagnostic(
            outcomes[1].diagnostic, code: "D8", slug: "presentation-in-progress", severity: .warning, name: nil,
            message: "Attempt to present \(desc("C")) on \(desc("A")) (from \(desc("A"))) while a presentation is in progress.")
        // After the turn the dismissal has finished and C was never shown.
        #expect(w.presented("A") == nil)
        #expect(w.state["C"] == nil)
        #expect(w.isAppeared("A"))
    }

    @Test("R13 before R14: under a full-screen cover the presenter is out of the window until the dismissal starts")
    func presentDuringDismissalOfFullScreen() {
        // R24: the full-screen presentation removed A's view; R6/§0.3: the dismissal that restores
        // it starts at the end of the turn; §2: R13 is checked before R14.
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", vc("B"), .fullScreen))
        let outcomes = w.turn([Op.dismiss("A"), Op.present("A", vc("C"))])
        #expect(outcomes[0].result != nil)
        expectDiagnostic(
            outcomes[1].diagnostic, code: "D7", slug: "not-in-window-hierarchy", severity: .warning, name: nil,
            message: "Attempt to present \(desc("C")) on \(desc("A")) (from \(desc("A"))) whose view is not in the window hierarchy.")
        #expect(w.presented("A") == nil)
    }

    @Test("R14: in manual mode a running dismissal blocks a present in a later turn")
    func presentDuringRunningDismissal() {
        var w = Window(root: vc("A"), options: manual)
        w.perform(Op.present("A", vc("B"), .fullScreen, animated: false))
        w.perform(Op.dismiss("A"))
        #expect(w["B"].isBeingDismissed)
        let d = w.refuse(Op.present("A", vc("C")))
        expectDiagnostic(
            d, code: "D8", slug: "presentation-in-progress", severity: .warning, name: nil,
            message: "Attempt to present \(desc("C")) on \(desc("A")) (from \(desc("A"))) while a presentation is in progress.")
    }

    @Test("R15: a real popover without an anchor raises D10 (S24)")
    func popoverWithoutAnchor() {
        var w = Window(root: vc("A"), traits: iPadRegular)
        let d = w.refuse(Op.present("A", vc("P"), .popover))
        expectDiagnostic(
            d, code: "D10", slug: "popover-without-anchor", severity: .exception,
            name: "NSGenericException", message: nil)
        // `<pc>` names the popover presentation controller; the spec leaves its description open.
        let message = d?.message ?? ""
        #expect(message.hasPrefix("UIPopoverPresentationController ("))
        #expect(message.hasSuffix(") should have a non-nil sourceView or barButtonItem set before the presentation occurs."))
        #expect(message.contains("P"))
    }

    @Test("R15/R53: an anchored popover on iPad is presented as a popover")
    func anchoredPopover() {
        var w = Window(root: vc("A"), traits: iPadRegular)
        let r = w.perform(Op.present("A", vc("P"), .popover, popover: PopoverAnchor(barButtonItem: "share")))
        #expect(w.style("P") == .popover)
        #expect(names(r) == ["P.viewDidLoad", "P.viewWillAppear", "P.viewIsAppearing", "P.viewDidAppear", "A.completion"])
        #expect(w.isAppeared("A"), "R55: the presenter of a popover is never removed")
    }

    @Test("R15/R19: an unanchored popover that adapts to a sheet on iPhone is no error (S25)")
    func adaptedPopoverNeedsNoAnchor() {
        var w = Window(root: vc("A"))
        let r = w.perform(Op.present("A", vc("P"), .popover))
        #expect(w.presented("A") == "P")
        #expect(w.style("P") == .formSheet, "iOS 13+: a popover in compact width behaves like formSheet")
        #expect(names(r) == ["P.viewDidLoad", "P.viewWillAppear", "P.viewIsAppearing", "P.viewDidAppear", "A.completion"])
    }

    @Test("R16: partialCurl with a non-full-screen style raises D11 (S26)")
    func partialCurlOnSheet() {
        var w = Window(root: vc("A"))
        let d = w.refuse(Op.present("A", vc("B") { $0.modalTransitionStyle = .partialCurl }, .pageSheet))
        // D11's text is unverified (§17): only its identity is asserted.
        expectDiagnostic(d, code: "D11", slug: "partial-curl", severity: .exception, name: invalidArgument, message: nil)
    }

    @Test("R16: a controller presented with partialCurl may not present anything")
    func partialCurlPresentsNothing() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", vc("B"), .fullScreen, transition: .partialCurl))
        #expect(w["B"].presentation?.transitionStyle == .partialCurl)
        let d = w.refuse(Op.present("B", vc("C"), .fullScreen))
        expectDiagnostic(d, code: "D11", slug: "partial-curl", severity: .exception, name: invalidArgument, message: nil)
    }

    // R8 before R9, R10 before R12, R12 before R13: "the first failing check decides" (§2).
    @Test("R8–R13: validation order")
    func validationOrder() {
        var n = Window(root: nav("N", vc("A")))
        #expect(n.refuse(Op.present("A", id("A")))?.code == "D2", "self is checked before parent")

        var w = Window(root: vc("A"))
        w.perform(Op.present("A", vc("B"), .fullScreen))
        #expect(w.refuse(Op.present("A", id("B")))?.code == "D4", "already presented before busy presenter")
        #expect(!w["A"].viewInWindow)
        #expect(w.refuse(Op.present("A", vc("C")))?.code == "D6", "busy presenter before not in window")
    }

    @Test("R15/R30: a refused present with a new controller spec creates nothing")
    func refusedPresentCreatesNothing() {
        var w = Window(root: vc("A"), traits: iPadRegular)
        let before = w.state.order
        _ = w.refuse(Op.present("A", nav("N", vc("X")), .popover))
        #expect(w.state.order == before)
        #expect(w.state["N"] == nil && w.state["X"] == nil)
    }
}

// MARK: - Exhaustive: each validation rule's refusal leaves the state exactly as it was

extension PresentValidationTests {
    @Test(
        "R7–R12 exhaustive: nil, self, a parented controller, the root, a busy presenter: refused, nothing changes",
        arguments: [
            ("nil", "D1", "nil-view-controller"), ("self", "D2", "present-self"), ("parented", "D3", "has-parent"),
            ("root", "D5", "active-controller"), ("busy", "D6", "already-presenting"),
        ])
    func exhaustivePresentRefusals(what: String, code: String, slug: String) {
        var w = Window(root: nav("N", vc("A"), vc("B")))
        w.perform(Op.present("B", vc("P"), .overFullScreen))
        let command: Command =
            switch what {
            case "nil": Op.present("B", .none)
            case "self": Op.present("P", id("P"))
            case "parented": Op.present("P", id("A"))
            case "root": Op.present("P", id("N"))
            default: Op.present("B", vc("Q"))
            }
        w.sendRefused(command, code: code, slug: slug)
    }

    @Test("R15 exhaustive: an unanchored popover on iPad is refused and its new spec is not instantiated")
    func exhaustiveUnanchoredPopover() {
        var w = Window(root: vc("A"), traits: iPadRegular)
        w.sendRefused(Op.present("A", nav("NP", vc("X")), .popover), code: "D10", slug: "popover-without-anchor")
    }

    @Test("R15/R53 exhaustive: an anchored popover on iPad keeps its anchor in the record and the presenter on screen")
    func exhaustiveAnchoredPopover() {
        var w = Window(root: vc("A"), traits: iPadRegular)
        let anchor = PopoverAnchor(sourceView: "button")
        w.send(Op.present("A", vc("P"), .popover, popover: anchor)) {
            $0.create("P") {
                $0.modalPresentationStyle = .popover
                $0.presentation = presentationRecord("A", requested: .popover, popover: anchor)
            }
            $0.appeared("P")
            $0.modify("A") { $0.presentedID = "P" }
            $0.nextTransitionNumber += 1
        }
    }
}

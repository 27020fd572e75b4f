import Testing
import NavigationCore

/// R110–R113: `sheetPresentationController` settings, a user dragging a sheet between its
/// detents, and what stays interactive below a sheet at an undimmed detent.
@Suite("sheets with detents")
struct SheetDetentTests {
    /// `A` presenting `B` as a page sheet with the detents medium and large.
    func sheet(
        root: ControllerRef = vc("A"), presenter: ControllerID = "A", traits: Traits = .phonePortrait, options: Options = Options(),
        _ configure: (inout SheetSettings) -> Void = { _ in }
    ) -> Window {
        var settings = SheetSettings(detents: [.medium, .large])
        configure(&settings)
        var w = Window(root: root, traits: traits, options: options)
        w.perform(Op.present(presenter, vc("B") { $0.sheetPresentationController = settings }, .pageSheet))
        return w
    }

    @Test("R111: a drag to another detent selects it and tells the delegate; nothing appears or disappears")
    func dragSelectsDetentAndTellsDelegate() {
        var w = sheet { $0.hasDelegate = true }
        w.send(.dragSheet(receiver: "B", detent: "large"), events: ["B.sheetPresentationControllerDidChangeSelectedDetentIdentifier"]) {
            $0.modify("B") { $0.sheetPresentationController?.selectedDetentIdentifier = "large" }
        }
        // And back down: the delegate is told again.
        w.send(.dragSheet(receiver: "B", detent: "medium"), events: ["B.sheetPresentationControllerDidChangeSelectedDetentIdentifier"]) {
            $0.modify("B") { $0.sheetPresentationController?.selectedDetentIdentifier = "medium" }
        }
    }

    @Test("R111: without a delegate the detent changes with no event")
    func dragWithoutDelegate() {
        var w = sheet()
        w.send(.dragSheet(receiver: "B", detent: "large"), events: []) {
            $0.modify("B") { $0.sheetPresentationController?.selectedDetentIdentifier = "large" }
        }
    }

    @Test("R110/R111: the sheet rests at the smallest detent when nothing is selected, so a drag there changes nothing")
    func dragToRestingDetentIsNothing() {
        var w = sheet { $0.hasDelegate = true }
        w.send(.dragSheet(receiver: "B", detent: "medium"), events: []) { _ in }
        // A selected identifier that names no detent rests at the smallest too (R110).
        var odd = sheet {
            $0.hasDelegate = true
            $0.selectedDetentIdentifier = "tall"
        }
        odd.send(.dragSheet(receiver: "B", detent: "medium"), events: []) { _ in }
    }

    @Test("R111: a controller with no settings has UIKit's one detent, large: a drag to it is nothing, to medium is invalid")
    func defaultDetents() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", vc("B"), .pageSheet))
        w.send(.dragSheet(receiver: "B", detent: "large"), events: []) { _ in }
        let e = w.sendInvalid(.dragSheet(receiver: "B", detent: "medium"))
        #expect(e?.field == "detent")
        #expect(e?.message == "medium is not one of the sheet's detents (large).")
    }

    @Test("R111: a detent the sheet does not have is invalid and changes nothing")
    func unknownDetentIsInvalid() {
        var w = sheet()
        let e = w.sendInvalid(.dragSheet(receiver: "B", detent: "small"))
        #expect(e?.kind == .invalid)
        #expect(e?.message == "small is not one of the sheet's detents (medium, large).")
    }

    @Test("R111: the drag goes to the sheet that holds the receiver (a child of the presented navigation controller)")
    func dragFromInsideTheSheet() {
        var w = Window(root: vc("A"))
        w.perform(
            Op.present(
                "A", nav("N", vc("B")) { $0.sheetPresentationController = SheetSettings(detents: [.medium, .large], hasDelegate: true) },
                .pageSheet))
        w.send(.dragSheet(receiver: "B", detent: "large"), events: ["N.sheetPresentationControllerDidChangeSelectedDetentIdentifier"]) {
            $0.modify("N") { $0.sheetPresentationController?.selectedDetentIdentifier = "large" }
        }
    }

    @Test("R111: custom detents (iOS 16) are dragged to like system ones")
    func customDetent() {
        var w = sheet {
            $0.detents = [SheetSettings.Detent(identifier: "peek", height: 120), .medium, .large]
            $0.hasDelegate = true
        }
        w.send(.dragSheet(receiver: "B", detent: "medium"), events: ["B.sheetPresentationControllerDidChangeSelectedDetentIdentifier"]) {
            $0.modify("B") { $0.sheetPresentationController?.selectedDetentIdentifier = "medium" }
        }
    }

    @Test("R111: isModalInPresentation blocks dismissal, not resizing")
    func modalInPresentationStillResizes() {
        var w = Window(root: vc("A"))
        w.perform(
            Op.present(
                "A",
                vc("B") {
                    $0.isModalInPresentation = true
                    $0.sheetPresentationController = SheetSettings(detents: [.medium, .large], hasDelegate: true)
                }, .pageSheet))
        w.send(.dragSheet(receiver: "B", detent: "large"), events: ["B.sheetPresentationControllerDidChangeSelectedDetentIdentifier"]) {
            $0.modify("B") { $0.sheetPresentationController?.selectedDetentIdentifier = "large" }
        }
    }

    @Test("R111: nothing to drag: a full-screen presentation, a sheet in regular width, the iOS 12 profile, a covered sheet")
    func nothingToDrag() {
        let settings = SheetSettings(detents: [.medium, .large], hasDelegate: true)
        var full = Window(root: vc("A"))
        full.perform(Op.present("A", vc("B") { $0.sheetPresentationController = settings }, .fullScreen))
        full.send(.dragSheet(receiver: "B", detent: "large"), events: []) { _ in }

        var pad = sheet(traits: iPadRegular) { $0.hasDelegate = true }
        pad.send(.dragSheet(receiver: "B", detent: "large"), events: []) { _ in }

        var old = sheet(options: Options(iOS: .iOS12)) { $0.hasDelegate = true }
        old.send(.dragSheet(receiver: "B", detent: "large"), events: []) { _ in }

        var covered = sheet { $0.hasDelegate = true }
        covered.perform(Op.present("B", vc("C"), .pageSheet))
        covered.send(.dragSheet(receiver: "B", detent: "large"), events: []) { _ in }
    }

    @Test("R111: a drag where there is no sheet to drag changes nothing, whatever detent it names")
    func dragOnNoSheetIsNothing() {
        // The window's root is presented by nobody: no sheet, so no 422 about its detents.
        var root = Window(root: nav("N", vc("A")))
        root.send(.dragSheet(receiver: "A", detent: "medium"), events: []) { _ in }
        root.send(.dragSheet(receiver: "N", detent: "tall"), events: []) { _ in }
        // A full-screen presentation with settings that list no such detent: still no sheet.
        var full = Window(root: vc("A"))
        full.perform(Op.present("A", vc("B") { $0.sheetPresentationController = SheetSettings(detents: [.large], hasDelegate: true) }, .fullScreen))
        full.send(.dragSheet(receiver: "B", detent: "medium"), events: []) { _ in }
        // A sheet in regular width (a centred form) is not sized by detents either.
        var pad = sheet(traits: iPadRegular) { $0.hasDelegate = true }
        pad.send(.dragSheet(receiver: "B", detent: "small"), events: []) { _ in }
    }

    @Test("R111/R49/R161: the sheet's delegate is the presentation controller's one delegate: hasDelegate alone hears a swipe down, unasked")
    func sheetDelegateHearsDismissal() {
        var w = sheet { $0.hasDelegate = true }
        let r = w.perform(.interactiveDismiss(receiver: "B", completes: true))
        #expect(
            names(r) == [
                "B.presentationControllerWillDismiss", "B.viewWillDisappear",
                "B.viewDidDisappear", "B.presentationControllerDidDismiss",
            ])
        #expect(w.presented("A") == nil)
        // Modal in presentation: the same delegate is told of the attempt.
        var modal = Window(root: vc("A"))
        modal.perform(
            Op.present(
                "A",
                vc("B") {
                    $0.isModalInPresentation = true
                    $0.sheetPresentationController = SheetSettings(detents: [.medium, .large], hasDelegate: true)
                }, .pageSheet))
        modal.send(.interactiveDismiss(receiver: "B", completes: true), events: ["B.presentationControllerDidAttemptToDismiss"]) { _ in }
    }

    @Test("R111/R49: a delegate set as presentationController.delegate hears detent changes too")
    func presentationDelegateHearsDrag() {
        var w = Window(root: vc("A"))
        w.perform(
            Op.present(
                "A",
                vc("B") {
                    $0.presentationDelegate = PresentationDelegate()
                    $0.sheetPresentationController = SheetSettings(detents: [.medium, .large])
                }, .pageSheet))
        w.send(.dragSheet(receiver: "B", detent: "large"), events: ["B.sheetPresentationControllerDidChangeSelectedDetentIdentifier"]) {
            $0.modify("B") { $0.sheetPresentationController?.selectedDetentIdentifier = "large" }
        }
    }

    @Test("R111: hasDelegate on a style with no sheetPresentationController sets no delegate")
    func sheetDelegateOnlyForSheets() {
        // A popover's presentation controller is a UIPopoverPresentationController: a tap outside
        // dismisses it and tells no delegate the sheet settings name.
        var w = Window(root: vc("A"), traits: iPadRegular)
        w.perform(
            Op.present(
                "A", vc("B") { $0.sheetPresentationController = SheetSettings(hasDelegate: true) }, .popover,
                popover: PopoverAnchor(sourceView: "A")))
        let r = w.perform(.interactiveDismiss(receiver: "B", completes: true))
        #expect(names(r) == ["B.viewWillDisappear", "B.viewDidDisappear"], "\(names(r))")
    }

    @Test("R111: setting selectedDetentIdentifier in code tells the delegate nothing")
    func programmaticSelectionIsSilent() {
        var w = sheet { $0.hasDelegate = true }
        var changed = w["B"].sheetPresentationController!
        changed.selectedDetentIdentifier = "large"
        var patch = ControllerPatch()
        patch.sheetPresentationController = changed
        w.send(.updateController("B", patch), events: []) {
            $0.modify("B") { $0.sheetPresentationController = changed }
        }
    }

    @Test("R111/R50: a swipe down dismisses from any detent and changes no selection")
    func swipeDownFromLargeDismisses() {
        var w = sheet {
            $0.hasDelegate = true
            $0.selectedDetentIdentifier = "large"
        }
        let r = w.perform(.interactiveDismiss(receiver: "B", completes: true))
        // The sheet's delegate is the presentation controller's (R49): it is told (R161: it
        // gives no should-dismiss answer, so it is not asked).
        #expect(
            names(r) == [
                "B.presentationControllerWillDismiss", "B.viewWillDisappear",
                "B.viewDidDisappear", "B.presentationControllerDidDismiss",
            ])
        #expect(w.presented("A") == nil)
        #expect(w["B"].sheetPresentationController?.selectedDetentIdentifier == "large")
    }

    @Test("R112: below a sheet at an undimmed detent the presenter's views take touches; at a dimmed one they do not")
    func undimmedViews() {
        var w = sheet(root: nav("N", vc("A")), presenter: "N") { $0.largestUndimmedDetentIdentifier = "medium" }
        #expect(w.state.viewsInWindow == ["N", "A", "B"])
        #expect(w.state.undimmedViews == ["N", "A"])
        w.perform(.dragSheet(receiver: "B", detent: "large"))
        #expect(w.state.undimmedViews == [])
        w.perform(.dragSheet(receiver: "B", detent: "medium"))
        #expect(w.state.undimmedViews == ["N", "A"])

        // UIKit's default dims at every detent.
        let dimmed = sheet()
        #expect(dimmed.state.undimmedViews == [])
        // Undimmed up to large: every detent leaves the presenter reachable.
        let open = sheet { $0.largestUndimmedDetentIdentifier = "large" }
        #expect(open.state.undimmedViews == ["A"])
        // Regular width (a centred form sheet) and iOS 12 have no undimmed detent.
        #expect(sheet(traits: iPadRegular) { $0.largestUndimmedDetentIdentifier = "large" }.state.undimmedViews == [])
        #expect(sheet(options: Options(iOS: .iOS12)) { $0.largestUndimmedDetentIdentifier = "large" }.state.undimmedViews == [])
    }

    @Test("R112: a dimmed sheet presented over an undimmed one leaves nothing below reachable; an undimmed one the level below only")
    func stackedSheets() {
        var w = sheet { $0.largestUndimmedDetentIdentifier = "medium" }
        w.perform(Op.present("B", vc("C"), .pageSheet))
        #expect(w.state.undimmedViews == [])
        var u = sheet { $0.largestUndimmedDetentIdentifier = "medium" }
        u.perform(
            Op.present(
                "B", vc("C") { $0.sheetPresentationController = SheetSettings(detents: [.medium], largestUndimmedDetentIdentifier: "medium") },
                .pageSheet))
        #expect(u.state.undimmedViews == ["A", "B"])
    }

    @Test("R113: settings UIKit cannot take")
    func invalidSettings() {
        #expect(SheetSettings(detents: []).invalidity == "detents must contain at least one detent.")
        #expect(SheetSettings(detents: [.medium, .medium]).invalidity == "detents lists medium more than once.")
        #expect(SheetSettings(detents: [.init(identifier: "large", height: 300)]).invalidity == "large is a system detent: it takes no height.")
        #expect(SheetSettings(detents: [.init(identifier: "peek")]).invalidity == "peek is a custom detent: it needs a height in points.")
        #expect(
            SheetSettings(detents: [.init(identifier: "peek", height: 0)]).invalidity == "the height of peek must be a positive number of points.")
        #expect(SheetSettings(detents: [.init(identifier: "peek", height: 80), .large]).invalidity == nil)
        // Apple's documentation of detents: smallest to largest. large is the largest; custom heights go up.
        #expect(
            SheetSettings(detents: [.large, .medium]).invalidity
                == "detents go from smallest to largest height, as Apple's documentation asks: large is the largest and comes last, not before medium.")
        #expect(
            SheetSettings(detents: [.init(identifier: "tall", height: 500), .init(identifier: "peek", height: 120)]).invalidity
                == "detents go from smallest to largest height, as Apple's documentation asks: peek (120 points) comes after a taller detent (500 points).")
        #expect(SheetSettings(detents: [.init(identifier: "peek", height: 120), .medium, .init(identifier: "tall", height: 500), .large]).invalidity == nil)
        // Identifiers that name no detent are not invalid: UIKit rests at the smallest and dims everywhere.
        #expect(SheetSettings(selectedDetentIdentifier: "x", largestUndimmedDetentIdentifier: "y").invalidity == nil)
    }
}

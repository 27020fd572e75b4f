import Testing
import NavigationCore

/// §19: the iOS 12 / 17 / 18 profiles (`Options.iOS`).
@Suite("release profiles (§19)")
struct ReleaseProfileTests {
    let iOS12 = Options(iOS: .iOS12)
    let iOS18 = Options(iOS: .iOS18)

    @Test("R18/R51: on iOS 12 an unconfigured present is full screen, with S1's events and no viewIsAppearing (S3)")
    func iOS12DefaultPresent() {
        var w = Window(root: vc("A"), options: iOS12)
        let r = w.perform(Op.present("A", vc("B")))
        #expect(w.style("B") == .fullScreen)
        #expect(
            names(r) == [
                "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewDidAppear",
                "A.viewDidDisappear", "A.completion",
            ])
        #expect(w.isDisappeared("A"))
    }

    @Test("§0.5: iOS 12 has no viewIsAppearing anywhere, iOS 17 and 18 emit it after viewWillAppear", arguments: IOSRelease.allCases)
    func viewIsAppearingByRelease(release: IOSRelease) {
        var w = Window(root: nav("N", vc("A")), options: Options(iOS: release))
        let r = w.perform(Op.push("N", vc("B")))
        let events = names(r)
        if release == .iOS12 {
            #expect(!events.contains { $0.hasSuffix("viewIsAppearing") })
        } else {
            let willAppear = events.firstIndex(of: "B.viewWillAppear")
            #expect(willAppear.map { events[$0 + 1] } == "B.viewIsAppearing")
            #expect(events.filter { $0.hasSuffix("viewIsAppearing") } == ["B.viewIsAppearing"])
        }
    }

    @Test("R18: on iOS 18 automatic is formSheet; the presenter keeps its view")
    func iOS18DefaultPresent() {
        var w = Window(root: vc("A"), options: iOS18)
        let r = w.perform(Op.present("A", vc("B")))
        #expect(w.style("B") == .formSheet)
        #expect(names(r) == ["B.viewDidLoad", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear", "A.completion"])
    }

    @Test("R12/§19: iOS 12 uses the legacy D6 wording, without \"(from …)\"")
    func legacyAlreadyPresentingWording() {
        var w = Window(root: nav("N", vc("A")), options: iOS12)
        w.perform(Op.present("A", vc("B")))
        let d = w.refuse(Op.present("A", vc("C")))
        expectDiagnostic(
            d, code: "D6", slug: "already-presenting", severity: .warning, name: nil,
            message: "Warning: Attempt to present \(desc("C")) on \(desc("N", .navigationController)) which is already presenting \(desc("B"))")
    }

    @Test("R9/R10/R11/§19: iOS 12 reports parented and presented controllers with the \"active controller\" wording")
    func legacyHasParentWording() {
        var n = Window(root: nav("N", vc("A"), vc("B")), options: iOS12)
        let d = n.refuse(Op.present("B", id("A")))
        #expect(d?.code == "D3")
        #expect(d?.severity == .exception)
        #expect(d?.name == "NSInvalidArgumentException")
        #expect(d?.message == "Application tried to present modally an active controller \(desc("A")).")

        // R10: an already presented controller too.
        var w = Window(root: vc("A"), options: iOS12)
        w.perform(Op.present("A", vc("B")))
        w.perform(Op.present("B", vc("C")))
        let d4 = w.refuse(Op.present("C", id("B")))
        #expect(d4?.code == "D4")
        #expect(d4?.message == "Application tried to present modally an active controller \(desc("B")).")
    }

    @Test("R47/§19: iOS 12 still asks adaptivePresentationStyle: none keeps a popover on iPhone")
    func iOS12AdaptiveDelegate() {
        // §19 removes only the sheet-dismissal delegate methods (should/will/did/attempt) before
        // iOS 13; adaptivePresentationStyle(for:) is the iOS 8 way to keep a popover on iPhone.
        var w = Window(root: vc("A"), options: iOS12)
        w.perform(
            Op.present(
                "A",
                vc("P") {
                    $0.presentationDelegate = PresentationDelegate(adaptivePresentationStyle: PresentationStyle.none)
                }, .popover, popover: PopoverAnchor(barButtonItem: "share")))
        #expect(w.style("P") == .popover)
        #expect(w.isAppeared("A"), "R55: a popover never removes its presenter")

        var full = Window(root: vc("A"), traits: iPhoneLandscape, options: iOS12)
        full.perform(
            Op.present(
                "A",
                vc("B") {
                    $0.presentationDelegate = PresentationDelegate(adaptivePresentationStyle: .overFullScreen)
                }, .popover, popover: PopoverAnchor(barButtonItem: "share")))
        #expect(full.style("B") == .overFullScreen)
    }

    @Test("R51: on iOS 12 the presenter disappears under the default presentation and reappears on dismiss")
    func iOS12DismissRestoresPresenter() {
        var w = Window(root: vc("A"), options: iOS12)
        w.perform(Op.present("A", vc("B")))
        let r = w.perform(Op.dismiss("B"))
        #expect(names(r) == ["B.viewWillDisappear", "A.viewWillAppear", "A.viewDidAppear", "B.viewDidDisappear", "B.completion"])
    }
}

// MARK: - Exhaustive: what a release changes in the state

extension ReleaseProfileTests {
    @Test("R18 exhaustive: on iOS 12 automatic is full screen and the presenter leaves the window")
    func exhaustiveIOS12Automatic() {
        var w = Window(root: vc("A"), options: Options(iOS: .iOS12))
        w.send(
            Op.present("A", vc("B")),
            events: [
                "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear",
                "B.viewDidAppear", "A.viewDidDisappear", "A.completion",
            ]
        ) {
            $0.create("B") { $0.presentation = presentationRecord("A", requested: .automatic, style: .fullScreen, removesPresenterView: true) }
            $0.appeared("B")
            $0.disappeared("A")
            $0.modify("A") { $0.presentedID = "B" }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R18 exhaustive: on iOS 18 automatic is a form sheet and the presenter stays")
    func exhaustiveIOS18Automatic() {
        var w = Window(root: vc("A"), options: Options(iOS: .iOS18))
        w.send(Op.present("A", vc("B"))) {
            $0.create("B") { $0.presentation = presentationRecord("A", requested: .automatic, style: .formSheet) }
            $0.appeared("B")
            $0.modify("A") { $0.presentedID = "B" }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R12/§19 exhaustive: the iOS 12 D6 refusal changes nothing")
    func exhaustiveIOS12AlreadyPresenting() {
        var w = Window(root: vc("A"), options: Options(iOS: .iOS12))
        w.perform(Op.present("A", vc("B")))
        w.sendRefused(
            Op.present("A", vc("C")), code: "D6", slug: "already-presenting",
            message: "Warning: Attempt to present \(desc("C")) on \(desc("A")) which is already presenting \(desc("B"))")
    }
}

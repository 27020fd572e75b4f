import Testing
import NavigationCore

/// §3–§5: presenter resolution, styles, view removal and the appearance callbacks of `present`.
@Suite("present (R18–R33)")
struct PresentationTests {
    // MARK: R18 automatic

    @Test("R18: automatic resolves to pageSheet on iOS 17; the presenter keeps its view (S2)")
    func automaticIsPageSheetOn17() {
        var w = Window(root: vc("A"))
        let r = w.perform(Op.present("A", vc("B")))
        #expect(w["B"].presentation?.requestedStyle == .automatic)
        #expect(w.style("B") == .pageSheet)
        #expect(names(r) == ["B.viewDidLoad", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear", "A.completion"])
        #expect(w.isAppeared("A") && w["A"].viewInWindow)

        // The controller's own modalPresentationStyle is used when the call gives none.
        var own = Window(root: vc("A"))
        own.perform(Op.present("A", vc("B") { $0.modalPresentationStyle = .overFullScreen }))
        #expect(own.style("B") == .overFullScreen)
    }

    @Test(
        "R18/R19: on an iPad in regular width automatic is pageSheet on 17, formSheet on 18, presenter kept (S4)",
        arguments: [
            (IOSRelease.iOS17, PresentationStyle.pageSheet),
            (IOSRelease.iOS18, PresentationStyle.formSheet),
        ])
    func automaticOnIPad(release: IOSRelease, expected: PresentationStyle) {
        var w = Window(root: vc("A"), traits: iPadRegular, options: Options(iOS: release))
        let r = w.perform(Op.present("A", vc("B")))
        #expect(w.style("B") == expected)
        #expect(names(r) == ["B.viewDidLoad", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear", "A.completion"])
        #expect(w.isAppeared("A"))
    }

    // MARK: R19 adaptation

    @Test("R19: a popover in compact width/height: iOS 12 full screen or form sheet, iOS 13+ form sheet")
    func iOS12PopoverAdaptation() {
        var phone = Window(root: vc("A"), options: Options(iOS: .iOS12))
        phone.perform(Op.present("A", vc("P"), .popover))
        #expect(phone.style("P") == .fullScreen)
        #expect(phone.isDisappeared("A"))

        let regularWidthCompactHeight = Traits(userInterfaceIdiom: .phone, horizontalSizeClass: .regular, verticalSizeClass: .compact)
        var plus = Window(root: vc("A"), traits: regularWidthCompactHeight, options: Options(iOS: .iOS12))
        plus.perform(Op.present("A", vc("P"), .popover))
        #expect(plus.style("P") == .formSheet)

        // iOS 13+: like formSheet in compact height too.
        var landscape = Window(root: vc("A"), traits: iPhoneLandscape)
        landscape.perform(Op.present("A", vc("P"), .popover))
        #expect(landscape.style("P") == .formSheet)
    }

    @Test("R19: fullScreen and overFullScreen are not adapted", arguments: [PresentationStyle.fullScreen, .overFullScreen])
    func fullScreenStylesNotAdapted(style: PresentationStyle) {
        for traits in [iPhonePortrait, iPhoneLandscape, iPadRegular] {
            var w = Window(root: vc("A"), traits: traits)
            w.perform(Op.present("A", vc("B"), style))
            #expect(w.style("B") == style)
        }
    }

    // MARK: R20 presenter for non-context styles

    @Test("R20: fullScreen from a navigation child is presented by the navigation controller (S5)")
    func fullScreenFromNavigationChild() {
        var w = Window(root: nav("N", vc("A"), vc("B")))
        let r = w.perform(Op.present("B", vc("C"), .fullScreen))
        #expect(w["C"].presentation?.presenting == "N")
        #expect(w["C"].presentation?.source == "B")
        #expect(w["N"].presentedID == "C")
        // R32/R36: N and its appeared child B disappear (order within N* is [INF]); A gets nothing.
        expectGroups(
            names(r),
            [
                ["C.viewDidLoad"], ["N.viewWillDisappear", "B.viewWillDisappear"],
                ["C.viewWillAppear"], ["C.viewIsAppearing"], ["C.viewDidAppear"],
                ["N.viewDidDisappear", "B.viewDidDisappear"], ["B.completion"],
            ])
        #expect(of("A", names(r)).isEmpty)
        #expect(r.transition?.fromViewController == "N")
        #expect(r.transition?.toViewController == "C")
        w.checkInvariants()
    }

    @Test("R20: a sheet from a tab's navigation child is presented by the tab bar controller (S6)")
    func sheetFromTabChild() {
        var w = Window(root: tabs("T", [nav("N1", vc("A")), nav("N2", vc("B"))]))
        let r = w.perform(Op.present("A", vc("C"), .pageSheet))
        #expect(w.presenting("C") == "T")
        #expect(w["T"].presentedID == "C")
        #expect(names(r) == ["C.viewDidLoad", "C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear", "A.completion"])
        #expect(r.transition?.fromViewController == "T", "R58: from is the resolved presenter")
    }

    @Test("R20: a child inside a presented container presents through that container")
    func presentFromInsidePresentedContainer() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", nav("N2", vc("R")), .fullScreen))
        w.perform(Op.present("R", vc("X"), .pageSheet))
        #expect(w.presenting("X") == "N2")
        #expect(w.presented("R") == "X")
        #expect(w.presenting("R") == "A")
        w.checkInvariants()
    }

    // MARK: R21 context styles

    @Test("R21/R24: currentContext from the split's secondary is presented by it; only its view is removed (S7)")
    func currentContextInSplit() {
        var w = Window(
            root: split("S", primary: nav("N1", vc("M")), secondary: vc("D") { $0.definesPresentationContext = true }),
            traits: iPadRegular)
        let r = w.perform(Op.present("D", vc("C"), .currentContext))
        #expect(w.presenting("C") == "D")
        #expect(w["C"].presentation?.contextViewController == "D")
        #expect(
            names(r) == [
                "C.viewDidLoad", "D.viewWillDisappear", "C.viewWillAppear", "C.viewIsAppearing",
                "C.viewDidAppear", "D.viewDidDisappear", "D.completion",
            ])
        #expect(w.isAppeared("M") && w["M"].viewInWindow)
        #expect(w.isDisappeared("D") && !w["D"].viewInWindow)
    }

    @Test("R21/R33: overCurrentContext keeps the context controller's view (S8)")
    func overCurrentContextInSplit() {
        var w = Window(
            root: split("S", primary: nav("N1", vc("M")), secondary: vc("D") { $0.definesPresentationContext = true }),
            traits: iPadRegular)
        let r = w.perform(Op.present("D", vc("C"), .overCurrentContext))
        #expect(w.presenting("C") == "D")
        #expect(names(r) == ["C.viewDidLoad", "C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear", "D.completion"])
        #expect(w.isAppeared("D"))
    }

    @Test("R21: a navigation controller defines a presentation context by default and captures it (S9)")
    func navigationCapturesContext() {
        var w = Window(root: nav("N", vc("A")))
        #expect(w["N"].definesPresentationContext)
        #expect(!w["A"].definesPresentationContext)
        let r = w.perform(Op.present("A", vc("C"), .currentContext))
        #expect(w.presenting("C") == "N")
        expectGroups(
            names(r),
            [
                ["C.viewDidLoad"], ["N.viewWillDisappear", "A.viewWillDisappear"], ["C.viewWillAppear"], ["C.viewIsAppearing"],
                ["C.viewDidAppear"], ["N.viewDidDisappear", "A.viewDidDisappear"], ["A.completion"],
            ])

        // R20: a non-context style ignores definesPresentationContext.
        var w2 = Window(root: nav("N", vc("A") { $0.definesPresentationContext = true }))
        w2.perform(Op.present("A", vc("C"), .overFullScreen))
        #expect(w2.presenting("C") == "N")
    }

    @Test("R21: with no context-defining ancestor the outermost ancestor presents (S10)")
    func contextFallsBackToOutermost() {
        var w = Window(root: nav("N", vc("A"), configure: { $0.definesPresentationContext = false }))
        let r = w.perform(Op.present("A", vc("C"), .overCurrentContext))
        #expect(w.presenting("C") == "N")
        #expect(names(r) == ["C.viewDidLoad", "C.viewWillAppear", "C.viewIsAppearing", "C.viewDidAppear", "A.completion"])
    }

    @Test("R21: the context walk never crosses a presentation boundary")
    func contextWalkStopsAtPresentation() {
        var w = Window(root: vc("A") { $0.definesPresentationContext = true })
        w.perform(Op.present("A", nav("N2", vc("B"), configure: { $0.definesPresentationContext = false }), .fullScreen))
        w.perform(Op.present("B", vc("C"), .currentContext))
        #expect(w.presenting("C") == "N2")
        #expect(w["A"].presentedID == "N2")
    }

    // MARK: R23 transition style

    @Test("R23: a context presenter that provides the transition style overrides the presented controller's own")
    func contextProvidesTransitionStyle() {
        var w = Window(
            root: nav(
                "N", vc("A"),
                configure: {
                    $0.providesPresentationContextTransitionStyle = true
                    $0.modalTransitionStyle = .crossDissolve
                }))
        let r = w.perform(Op.present("A", vc("C") { $0.modalTransitionStyle = .flipHorizontal }, .currentContext))
        #expect(w["C"].presentation?.transitionStyle == .crossDissolve)
        #expect(r.transition?.transitionStyle == .crossDissolve)

        // Otherwise the presented controller's own transition style is used.
        var w1 = Window(root: nav("N", vc("A")))
        let r1 = w1.perform(Op.present("A", vc("C") { $0.modalTransitionStyle = .flipHorizontal }, .currentContext))
        #expect(r1.transition?.transitionStyle == .flipHorizontal)
        var plain = Window(root: vc("A"))
        let r2 = plain.perform(Op.present("A", vc("C"), .fullScreen, transition: .crossDissolve))
        #expect(r2.transition?.transitionStyle == .crossDissolve)
        #expect(plain["C"].modalTransitionStyle == .crossDissolve)
    }

    // MARK: R24 presenter view removal

    @Test(
        "R24: which styles remove the presenter's view",
        arguments: [
            (PresentationStyle.fullScreen, true), (.overFullScreen, false), (.pageSheet, false), (.formSheet, false),
            (.overCurrentContext, false), (.currentContext, true), (.custom, false), (.popover, false),
        ])
    func presenterViewRemoval(style: PresentationStyle, removes: Bool) {
        var w = Window(root: vc("A"), traits: iPadRegular)
        // R56: a custom style gets its presentation controller from a transitioning delegate.
        let b = vc("B") { if style == .custom { $0.transitioningDelegate = TransitioningDelegate(name: "Card", duration: 0.3) } }
        let r = w.perform(Op.present("A", b, style, popover: PopoverAnchor(sourceView: "button")))
        #expect(w.style("B") == style)
        #expect(w["B"].presentation?.removesPresenterView == removes)
        #expect(w["A"].viewInWindow == !removes)
        #expect(w.isAppeared("A") == !removes)
        #expect(of("A", names(r)) == (removes ? ["A.viewWillDisappear", "A.viewDidDisappear", "A.completion"] : ["A.completion"]))
    }

    // MARK: R25, R28, R29, R31, R32

    @Test("R32/R28: a full-screen present: B loads, A will-disappear, B appears, A did-disappear, then the completion (S1)")
    func fullScreenPresentOrder() {
        var w = Window(root: vc("A"))
        let r = w.perform(Op.present("A", vc("B"), .fullScreen))
        #expect(
            names(r) == [
                "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
                "B.viewDidAppear", "A.viewDidDisappear", "A.completion",
            ])
        #expect(w.presenting("B") == "A")
        #expect(!w["B"].isBeingPresented)
        #expect(w["B"].presentation?.state == .presented)
        #expect(r.transition?.state == .completed)
        #expect(r.transition?.operation == .present)
        #expect(r.transition?.presentationStyle == .fullScreen)
        #expect(w.isDisappeared("A") && w.isAppeared("B"))
    }

    @Test("R32/R36: presenting over a full-screen presentation only affects the visible controller (S11)")
    func chainedFullScreen() {
        var w = Window(root: vc("A"))
        w.perform(Op.present("A", vc("B"), .fullScreen))
        let r = w.perform(Op.present("B", vc("C"), .fullScreen))
        #expect(
            names(r) == [
                "C.viewDidLoad", "B.viewWillDisappear", "C.viewWillAppear", "C.viewIsAppearing",
                "C.viewDidAppear", "B.viewDidDisappear", "B.completion",
            ])
        #expect(w.presenting("C") == "B" && w.presenting("B") == "A")
        w.checkInvariants()
    }

    @Test(
        "R33: over-full-screen styles send nothing to the presenter",
        arguments: [
            PresentationStyle.overFullScreen, .pageSheet, .formSheet,
        ])
    func keepingPresenterSendsItNothing(style: PresentationStyle) {
        var w = Window(root: nav("N", vc("A")))
        let r = w.perform(Op.present("A", vc("B"), style))
        #expect(names(r) == ["B.viewDidLoad", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear", "A.completion"])
        #expect(w.isAppeared("N") && w.isAppeared("A"))
    }

    @Test("R29: animated:false skips the animation but not the callbacks, each carrying the flag")
    func nonAnimatedCallbacks() {
        for animated in [false, true] {
            var w = Window(root: vc("A"))
            let r = w.perform(Op.present("A", vc("B"), .fullScreen, animated: animated))
            #expect(
                names(r) == [
                    "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing",
                    "B.viewDidAppear", "A.viewDidDisappear", "A.completion",
                ])
            let flags = r.events.filter { appearanceCallbacks.contains($0.callback) }.map(\.animated)
            #expect(flags.allSatisfy { $0 == animated })
            #expect(r.transition?.animated == animated)
            #expect(animated || r.transition?.duration == 0)
        }

        // §0.3: in manual mode a non-animated transition still finishes within its turn.
        var w = Window(root: vc("A"), options: manual)
        let r = w.perform(Op.present("A", vc("B"), .fullScreen, animated: false))
        #expect(r.transition?.state == .completed)
        #expect(w.state.transitions.isEmpty)
        #expect(names(r).last == "A.completion")
    }

    @Test("R25/R27/R32: a running presentation splits its callbacks between the start and the tick (S30)")
    func runningPresentation() {
        var w = Window(root: vc("A"), options: manual)
        let start = w.perform(Op.present("A", vc("B"), .fullScreen))
        #expect(names(start) == ["B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewIsAppearing"])
        #expect(start.transition?.state == .inProgress)
        // R27: links exist at once; R25: B is being presented until the transition ends.
        #expect(w.presented("A") == "B" && w.presenting("B") == "A")
        #expect(w["B"].isBeingPresented)
        #expect(!w["A"].isBeingPresented && !w["A"].isBeingDismissed, "presenter-side flags stay false")
        #expect(w["B"].appearance == .appearing)
        #expect(w["A"].appearance == .disappearing)
        #expect(w.running.map(\.id) == [start.transition?.id])

        let end = w.perform(.completeTransition(id: start.transition?.id))
        #expect(names(end) == ["B.viewDidAppear", "A.viewDidDisappear", "A.completion"])
        #expect(end.transition?.state == .completed)
        #expect(!w["B"].isBeingPresented)
        #expect(w.isAppeared("B") && w.isDisappeared("A"))
        #expect(w.state.transitions.isEmpty)
    }

    @Test("R25: children of a presented container report isBeingPresented false")
    func childrenAreNotBeingPresented() {
        var w = Window(root: vc("A"), options: manual)
        w.perform(Op.present("A", nav("N", vc("R")), .fullScreen))
        #expect(w["N"].isBeingPresented)
        #expect(!w["R"].isBeingPresented)
        let events = names(w.perform(Op.tick))
        #expect(!w["N"].isBeingPresented)
        expectGroups(events, [["N.viewDidAppear", "R.viewDidAppear"], ["A.viewDidDisappear"], ["A.completion"]])
    }

    @Test("R31: a presented container loads and appears with its visible child, parent first")
    func presentedContainerLoadsItsChild() {
        var w = Window(root: vc("A"))
        let r = w.perform(Op.present("A", nav("N", vc("R"), vc("S")), .overFullScreen))
        #expect(of("N", names(r)) == ["N.viewDidLoad", "N.viewWillAppear", "N.viewIsAppearing", "N.viewDidAppear"])
        #expect(of("S", names(r)) == ["S.viewDidLoad", "S.viewWillAppear", "S.viewIsAppearing", "S.viewDidAppear"])
        #expect(of("R", names(r)).isEmpty, "R36: a non-top stack entry is not on screen")
        #expect(!w["R"].isViewLoaded)
    }
}

// MARK: - Exhaustive: the whole state change of each presentation

extension PresentationTests {
    @Test("R18/R24 exhaustive: automatic is a page sheet on iOS 17; only B and A's link change")
    func exhaustivePageSheet() {
        var w = Window(root: vc("A"))
        w.send(
            Op.present("A", vc("B")),
            events: ["B.viewDidLoad", "B.viewWillAppear", "B.viewIsAppearing", "B.viewDidAppear", "A.completion"]
        ) {
            $0.create("B") { $0.presentation = presentationRecord("A", requested: .automatic, style: .pageSheet) }
            $0.appeared("B")
            $0.modify("A") { $0.presentedID = "B" }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R24/R32 exhaustive: full screen removes the presenter's view once presented")
    func exhaustiveFullScreen() {
        var w = Window(root: vc("A"))
        w.send(Op.present("A", vc("B"), .fullScreen)) {
            $0.create("B") {
                $0.modalPresentationStyle = .fullScreen
                $0.presentation = presentationRecord("A", requested: .fullScreen, removesPresenterView: true)
            }
            $0.appeared("B")
            $0.disappeared("A")
            $0.modify("A") { $0.presentedID = "B" }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R21 exhaustive: currentContext from a navigation child is presented by the navigation controller")
    func exhaustiveCurrentContext() {
        var w = Window(root: nav("N", vc("A")))
        w.send(Op.present("A", vc("B"), .currentContext)) {
            $0.create("B") {
                $0.modalPresentationStyle = .currentContext
                $0.presentation = presentationRecord(
                    "N", source: "A", requested: .currentContext, context: "N",
                    removesPresenterView: true)
            }
            $0.appeared("B")
            $0.disappeared("N", "A")
            $0.modify("N") { $0.presentedID = "B" }
            $0.nextTransitionNumber += 1
        }
    }

    @Test("R25/R27 exhaustive (manual): links change at once, B is being presented until the tick")
    func exhaustiveManualPresent() {
        var w = Window(root: vc("A"), options: manual)
        w.send(Op.present("A", vc("B"), .fullScreen)) {
            $0.create("B") {
                $0.modalPresentationStyle = .fullScreen
                $0.presentation = presentationRecord("A", requested: .fullScreen, removesPresenterView: true, state: .presenting)
                $0.isViewLoaded = true
                $0.appearance = .appearing
                $0.viewInWindow = true
                $0.isBeingPresented = true
            }
            $0.modify("A") {
                $0.presentedID = "B"; $0.appearance = .disappearing
            }
            $0.startRunning(
                TransitionRecord(
                    id: "t2", operation: .present, fromViewController: "A", toViewController: "B",
                    presentationStyle: .fullScreen, transitionStyle: .coverVertical, animated: true,
                    duration: 0.5, animator: nil, containerView: ["A", "B"], state: .inProgress))
            $0.nextTransitionNumber += 1
        }
        w.send(Op.tick, events: ["B.viewDidAppear", "A.viewDidDisappear", "A.completion"]) {
            $0.finishRunning("t2")
            $0.modify("B") {
                $0.isBeingPresented = false; $0.appearance = .appeared; $0.presentation?.state = .presented
            }
            $0.disappeared("A")
        }
    }
}

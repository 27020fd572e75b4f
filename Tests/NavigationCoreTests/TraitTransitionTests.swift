import Testing
import NavigationCore

/// A change of the window's size or traits (rotation, Split View, Slide Over): the size and
/// trait transition callbacks down the hierarchy in UIKit's order, then the trait-change
/// notification of the profile, with the presentations that adapt and the splits that collapse.
@Suite("trait and size changes (R106–R108)")
struct TraitTransitionTests {
    static let portrait = Traits.Size(width: 393, height: 852)
    static let landscape = Traits.Size(width: 852, height: 393)
    /// An iPhone 15 Pro held upright, then turned: compact width either way, compact height once turned.
    let phoneUpright = Traits(userInterfaceIdiom: .phone, horizontalSizeClass: .compact, verticalSizeClass: .regular, size: portrait)
    let phoneTurned = Traits(userInterfaceIdiom: .phone, horizontalSizeClass: .compact, verticalSizeClass: .compact, size: landscape)
    /// An 11-inch iPad turned sideways, full screen and then in Slide Over.
    let padFull = Traits(userInterfaceIdiom: .pad, horizontalSizeClass: .regular, verticalSizeClass: .regular, size: .init(width: 1180, height: 820))
    let padSlideOver = Traits(userInterfaceIdiom: .pad, horizontalSizeClass: .compact, verticalSizeClass: .regular, size: .init(width: 320, height: 820))

    /// `N[A, B]` on an upright iPhone.
    func stack(options: Options = Options(), registers: [Traits.Name] = []) -> Window {
        Window(root: nav("N", vc("A"), vc("B") { $0.registersForTraitChanges = registers }), traits: phoneUpright, options: options)
    }

    @Test("R106/R107: a rotation reaches the views in the window, root first, phase by phase; nothing else changes")
    func rotationOfAStack() {
        var w = stack()
        let r = w.sendStackTraitChange(to: phoneTurned)
        // A is below the top: its view is not in the window, so nothing forwards to it.
        let willTransition = r.events.first { $0.callback == .willTransitionToTraitCollection }
        #expect(willTransition?.traitCollection?.verticalSizeClass == .compact, "the new collection")
        #expect(r.events.filter { $0.callback == .viewWillTransitionToSize }.map(\.size) == [Self.landscape, Self.landscape])
        let didChange = r.events.first { $0.callback == .traitCollectionDidChange }
        #expect(didChange?.traitCollection == phoneUpright, "the previous collection")
        #expect(r.transition == nil, "nothing appears or disappears")
    }

    @Test("R106: an iPad turned keeps its size classes: only viewWillTransition(to:with:), with the new size")
    func padRotationKeepsSizeClasses() {
        let upright = Traits(userInterfaceIdiom: .pad, horizontalSizeClass: .regular, verticalSizeClass: .regular, size: .init(width: 820, height: 1180))
        var turned = upright
        turned.size = .init(width: 1180, height: 820)
        var w = Window(root: nav("N", vc("A")), traits: upright)
        let r = w.send(.setTraits(turned), events: ["N.viewWillTransitionToSize", "A.viewWillTransitionToSize"]) {
            $0.traits = turned
        }
        #expect(r.events.allSatisfy { $0.size == turned.size })
    }

    @Test("R108: from iOS 17 a registered handler runs after traitCollectionDidChange, only for the traits it registered")
    func registrationsRunForTheirTraits() {
        var w = stack(registers: [.horizontalSizeClass])
        // Turning changes only the vertical size class: B registered for the horizontal one.
        w.sendStackTraitChange(to: phoneTurned)
        // A Plus-sized phone turned is regular wide: now the width changes too.
        let wide = Traits(userInterfaceIdiom: .phone, horizontalSizeClass: .regular, verticalSizeClass: .compact, size: .init(width: 932, height: 430))
        let r = w.sendStackTraitChange(to: wide, then: ["B.traitChangeHandler"])
        let handler = r.events.last
        #expect(handler?.changedTraits == [.horizontalSizeClass])
        #expect(handler?.traitCollection == phoneTurned, "the handler gets the previous collection")
    }

    @Test("R108: the iOS 12 profile has no registrations: traitCollectionDidChange alone")
    func iOS12HasNoRegistrations() {
        var w = stack(options: Options(iOS: .iOS12), registers: [.verticalSizeClass])
        w.sendStackTraitChange(to: phoneTurned)
    }

    @Test("R107/R74: a child whose override fixes the changed size class gets the size change only")
    func overrideShieldsTheTraitChange() {
        var w = Window(
            root: nav("N", vc("A") { $0.traitOverrides = TraitOverrides(verticalSizeClass: .regular) }), traits: phoneUpright)
        w.send(
            .setTraits(phoneTurned),
            events: [
                "N.willTransitionToTraitCollection",
                "N.viewWillTransitionToSize", "A.viewWillTransitionToSize",
                "N.traitCollectionDidChange",
            ]
        ) {
            $0.traits = phoneTurned
        }
    }

    @Test("R107/R52: a popover's presentation controller adapts before it forwards; the presenter first, then the presented")
    func presentationAdaptsInOrder() {
        var w = Window(root: vc("A"), traits: padFull)
        w.perform(
            Op.present(
                "A", vc("P") { $0.presentationDelegate = PresentationDelegate(adaptivePresentationStyle: .fullScreen) }, .popover,
                popover: PopoverAnchor(sourceView: "button")))
        let r = w.send(
            .setTraits(padSlideOver),
            events: [
                "A.willTransitionToTraitCollection", "P.willPresentWithAdaptiveStyle", "P.willTransitionToTraitCollection",
                "A.viewWillTransitionToSize", "P.viewWillTransitionToSize",
                "A.traitCollectionDidChange", "P.traitCollectionDidChange",
            ]
        ) {
            $0.traits = padSlideOver
            $0.modify("P") { $0.presentation?.style = .fullScreen }
        }
        let sizes = r.events.filter { $0.callback == .viewWillTransitionToSize }.map(\.size)
        #expect(sizes == [padSlideOver.size, padSlideOver.size], "P is full screen by the time its size changes")
    }

    @Test("R106–R108: a session that never gave a size keeps the replies it had: R52's call alone")
    func noSizeNoTransitionCallbacks() {
        var w = Window(root: vc("A"), traits: iPadRegular)
        w.perform(
            Op.present(
                "A", vc("P") { $0.presentationDelegate = PresentationDelegate(adaptivePresentationStyle: .fullScreen) }, .popover,
                popover: PopoverAnchor(sourceView: "button")))
        w.send(.setTraits(iPadCompactWidth), events: ["P.willPresentWithAdaptiveStyle"]) {
            $0.traits = iPadCompactWidth
            $0.modify("P") { $0.presentation?.style = .fullScreen }
        }
        // Giving a size now is a size change: from here on the session reports them.
        var sized = iPadCompactWidth
        sized.size = .init(width: 320, height: 1180)
        w.send(.setTraits(sized), events: ["A.viewWillTransitionToSize", "P.viewWillTransitionToSize"]) { $0.traits = sized }
    }

    @Test("R106: a size in the traits reaches a full-screen presentation and a tab's child; a sheet's size is not known")
    func sizesNavsimKnows() {
        let upright = Traits(userInterfaceIdiom: .pad, horizontalSizeClass: .regular, verticalSizeClass: .regular, size: .init(width: 820, height: 1180))
        var turned = upright
        turned.size = .init(width: 1180, height: 820)
        var w = Window(root: tabs("T", [vc("A"), vc("B")]), traits: upright)
        w.perform(Op.present("A", vc("F"), .fullScreen, animated: false))
        w.perform(Op.present("F", vc("S"), .formSheet, animated: false))
        let r = w.send(
            .setTraits(turned),
            events: ["T.viewWillTransitionToSize", "A.viewWillTransitionToSize", "F.viewWillTransitionToSize", "S.viewWillTransitionToSize"]
        ) {
            $0.traits = turned
        }
        #expect(r.events.map(\.size) == [turned.size, turned.size, turned.size, nil])
    }

    @Test("R107/R91: a split collapsing: the transition callbacks, the delegate's collapse, the notifications, then what disappears")
    func splitCollapses() {
        var w = Window(root: split("S", primary: nav("N1", vc("M")), secondary: nav("N2", vc("D"))), traits: padFull)
        w.send(
            .setTraits(padSlideOver),
            events: [
                "S.willTransitionToTraitCollection", "N1.willTransitionToTraitCollection", "M.willTransitionToTraitCollection",
                "N2.willTransitionToTraitCollection", "D.willTransitionToTraitCollection",
                "S.viewWillTransitionToSize", "N1.viewWillTransitionToSize", "M.viewWillTransitionToSize",
                "N2.viewWillTransitionToSize", "D.viewWillTransitionToSize",
                "S.traitCollectionDidChange", "N1.traitCollectionDidChange", "M.traitCollectionDidChange",
                "N2.traitCollectionDidChange", "D.traitCollectionDidChange",
                "M.viewWillDisappear", "M.viewDidDisappear",
            ]
        ) {
            $0.traits = padSlideOver
            $0.nextTransitionNumber += 1
            $0.modifySplit("S") { $0.isCollapsed = true }
            $0.modify("S") { $0.children = ["N1"] }
            $0.modify("N2") { $0.parent = "N1" }
            $0.modify("N1") { $0.children = ["M", "N2"] }
            $0.setStack("N1", ["M", "N2"])
            $0.disappeared("M")
        }
    }

    @Test("R107/R91/R92: the split delegate's calls come within the split's own willTransition(to:with:), before its children's")
    func splitDelegateWithinItsWillTransition() {
        var w = Window(
            root: make("S", .splitViewController) {
                $0.splitStyle = .unspecified
                $0.primary = nav("N", vc("M"))
                $0.secondary = vc("D")
                $0.hasSplitDelegate = true
                $0.collapseSecondaryOntoPrimary = false
            }, traits: padFull)
        let collapse = w.perform(.setTraits(padSlideOver))
        #expect(
            names(collapse) == [
                "S.willTransitionToTraitCollection", "S.splitViewControllerPrimaryForCollapsing", "S.splitViewControllerCollapseSecondary",
                "N.willTransitionToTraitCollection", "M.willTransitionToTraitCollection", "D.willTransitionToTraitCollection",
                "S.viewWillTransitionToSize", "N.viewWillTransitionToSize", "M.viewWillTransitionToSize", "D.viewWillTransitionToSize",
                "S.traitCollectionDidChange", "N.traitCollectionDidChange", "M.traitCollectionDidChange", "D.traitCollectionDidChange",
                "M.viewWillDisappear", "M.viewDidDisappear",
            ])
        let expand = w.perform(.setTraits(padFull))
        #expect(
            Array(names(expand).prefix(3)) == [
                "S.willTransitionToTraitCollection", "S.splitViewControllerPrimaryForExpanding", "S.splitViewControllerSeparateSecondary",
            ])
        #expect(w["S"].split?.isCollapsed == false)
    }

    @Test("R108/R74: new trait overrides notify the controllers whose traits change, with no transition callbacks")
    func overrideChangeNotifiesOnly() {
        var w = stack(registers: [.verticalSizeClass])
        var patch = ControllerPatch()
        patch.traitOverrides = TraitOverrides(verticalSizeClass: .compact)
        let r = w.send(.updateController("N", patch), events: ["N.traitCollectionDidChange", "B.traitCollectionDidChange", "B.traitChangeHandler"]) {
            $0.modify("N") { $0.configuration.traitOverrides = TraitOverrides(verticalSizeClass: .compact) }
        }
        #expect(r.events.last?.changedTraits == [.verticalSizeClass])
    }

    @Test("R107: UIKit's size-class table: iPhone by orientation and width, iPad by window width")
    func sizeClassTable() {
        typealias S = Traits.Size
        func classes(_ idiom: Traits.Idiom, _ w: Double, _ h: Double) -> String {
            let c = Traits.sizeClasses(idiom: idiom, size: S(width: w, height: h))
            return "\(c.horizontal.rawValue)/\(c.vertical.rawValue)"
        }
        #expect(classes(.phone, 393, 852) == "compact/regular", "iPhone 15 Pro upright")
        #expect(classes(.phone, 852, 393) == "compact/compact", "iPhone 15 Pro turned")
        #expect(classes(.phone, 932, 430) == "regular/compact", "iPhone 15 Pro Max turned")
        #expect(classes(.phone, 896, 414) == "regular/compact", "iPhone 11 turned")
        #expect(classes(.phone, 667, 375) == "compact/compact", "iPhone SE turned")
        #expect(classes(.pad, 1024, 1366) == "regular/regular", "iPad Pro 12.9-inch upright")
        #expect(classes(.pad, 1366, 1024) == "regular/regular", "iPad Pro 12.9-inch turned")
        #expect(classes(.pad, 678, 1024) == "regular/regular", "half of a turned 12.9-inch iPad Pro")
        #expect(classes(.pad, 592, 834) == "compact/regular", "half of a turned 11-inch iPad Pro")
        #expect(classes(.pad, 320, 1024) == "compact/regular", "Slide Over")
    }
}

import Foundation
import NavigationCore
import Testing
import TestSupport

@testable import NavSimService
@testable import SessionFormat
@testable import SessionStorage
@testable import SQLiteStore

/// The write path's direct row writer (`SessionFormat/StoredRowWriter.swift`) against the reference
/// path, the stored types' `Encodable` conformances through ``StoredCodec/encode(_:)``: the same
/// bytes for every value, so rows written by either read back alike and rows of earlier
/// releases are untouched. Checked on the rich sessions of ``StoredFormatTests`` (every state,
/// shell, controller, command, change-set and checkpoint they store) and on thousands of
/// generated values of every stored type, with every optional member both present and absent.
@Suite("The direct row writer")
struct StoredRowWriterTests {
    /// `value` written both ways gives the same bytes, and those bytes read back as a value
    /// that writes them again (a configuration reads back only the fields it wrote).
    static func same<T: StoredBytesWritable & Decodable>(
        _ value: T, _ what: @autoclosure () -> String = "\(T.self)",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let direct = try StoredCodec.row(value)
        let reference = try StoredCodec.encode(value)
        #expect(
            direct == reference, "\(what()):\n direct    \(String(decoding: direct, as: UTF8.self))\n reference \(String(decoding: reference, as: UTF8.self))",
            sourceLocation: sourceLocation)
        #expect(try StoredCodec.row(StoredCodec.decode(T.self, from: direct)) == direct, "\(what()) reads back", sourceLocation: sourceLocation)
    }

    @Test("Every row of the rich sessions: the same bytes as the reference path (states, shells, controllers, commands, turns, change-sets)")
    func richSessions() throws {
        let h = try ServiceHarness()
        try StoredFormatTests.populate(h)
        let service = try #require(h.service)
        var checked = 0
        for (sid, state) in try StoredFormatTests.liveStates(h) {
            try Self.same(StoredSessionState(state, withControllers: true), "session \(sid)")
            try Self.same(StoredSessionState(state, withControllers: false), "shell \(sid)")
            for c in state.orderedControllers {
                try Self.same(StoredController(c), "\(sid)/\(c.id)")
                checked += 1
            }
            for row in try service.store.history(session: sid, after: -1, limit: 1000) where row.version > 0 {
                let turn = try Persistence.decodeTurn(row)
                let commands = turn.commands.map(StoredCommand.init)
                try Self.same(commands, "\(sid) v\(row.version) commands")
                // What the store holds is what the direct writer writes.
                #expect(try Persistence.commandText(turn.commands, resolvedSegues: turn.segues) == row.command, "\(sid) v\(row.version) command column")
                if !turn.segues.isEmpty {
                    try Self.same(StoredTurn(commands: commands, segueDestinations: turn.segues.map(StoredCommand.init)))
                }
                if let text = row.changes {
                    try Self.same(try StoredCodec.decode(StoredChange.self, from: text), "\(sid) v\(row.version) change")
                }
                if let text = row.checkpoint {
                    #expect(try StoredCodec.rowText(StoredCodec.decode(StoredSessionState.self, from: text)) == text)
                }
                checked += 1
            }
        }
        #expect(checked > 60)
    }

    @Test("Thousands of generated values of every stored type, every optional member present and absent: the same bytes, read back equal")
    func generatedValues() throws {
        var g = Generator(seed: 11)
        for i in 0..<1500 {
            try Self.same(g.controller(), "controller \(i)")
            try Self.same(g.command(depth: 0), "command \(i)")
            try Self.same(g.spec(depth: 0), "spec \(i)")
            try Self.same(g.patch(), "patch \(i)")
            try Self.same(g.segue(), "segue \(i)")
            try Self.same(g.anchor(), "anchor \(i)")
            try Self.same(g.split(), "split \(i)")
            try Self.same(g.shell(controllers: i % 10 == 0 ? 4 : 0), "state \(i)")
            try Self.same(
                StoredTurn(
                    commands: (0..<g.int(0...3)).map { _ in g.command(depth: 1) },
                    segueDestinations: (0..<g.int(0...2)).map { _ in g.command(depth: 1) }), "turn \(i)")
            try Self.same(
                StoredChange(
                    shell: g.bool() ? g.shell(controllers: 0) : nil,
                    controllers: (0..<g.int(0...3)).map { _ in g.controller() },
                    removed: (0..<g.int(0...3)).map { _ in g.string() }), "change \(i)")
        }
    }

    @Test("The write path stores the direct writer's bytes: a committed row equals the reference path's text")
    func commitUsesTheDirectWriter() throws {
        let h = try ServiceHarness()
        try StoredFormatTests.populate(h)
        let service = try #require(h.service)
        let stored = try service.sqlite.loadSessions()
        #expect(!stored.isEmpty)
        for session in stored {
            let shell = try StoredCodec.decode(StoredSessionState.self, from: session.session.state)
            #expect(session.session.state == (try StoredCodec.text(shell)), "session row \(session.session.id)")
            for row in session.controllers {
                let c = try StoredController(StoredCodec.decode(StoredController.self, from: row.body).domain())
                #expect(row.body == (try StoredCodec.text(c)), "controller row \(session.session.id)/\(row.id)")
            }
        }
    }

    @Test("A value the writer cannot write (a non-finite number) throws as the reference path does, naming the member")
    func nonFiniteThrowsLikeTheReference() throws {
        let anchor = StoredPopoverAnchor(sourceView: "v", barButtonItem: nil, sourceRect: [0, .nan])
        #expect(throws: EncodingError.self) { try StoredCodec.row(anchor) }
        do {
            _ = try StoredCodec.row(StoredAnimator(name: "a", duration: .infinity))
            Issue.record("an infinite duration was written")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["duration"])
        }
    }
}

/// Deterministic values of the stored types (SplitMix64), with nasty strings and numbers among
/// ordinary ones and each optional member left out about half the time.
struct Generator {
    var random: SplitMix64
    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { random.next() }
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    mutating func bool() -> Bool { next() & 1 == 0 }
    mutating func maybe<T>(_ make: (inout Generator) -> T) -> T? { bool() ? make(&self) : nil }
    mutating func pick<T>(_ options: [T]) -> T { options[int(0...(options.count - 1))] }

    static let strings = ["a", "c0", "navigation", "", "q\"b\\s", "tab\t\n\r\u{1}\u{1f}", "é∆🧭👩‍👩‍👧", "\u{2028}", "x/y", "0", "null"]
    mutating func string() -> String { bool() ? pick(Self.strings) : "id\(int(0...9999))" }
    mutating func strings() -> [String] { (0..<int(0...4)).map { _ in string() } }
    mutating func double() -> Double {
        pick([0, -0.0, 1, 0.35, 320, 1e-7, 123_456_789.5, 1e15, 1e20, -3, 1e300, Double(int(0...100_000)) / 7])
    }

    mutating func configuration(every: Bool) -> StoredConfiguration {
        var c = ControllerConfiguration()
        c.title = maybe { $0.string() }
        c.modalPresentationStyle = pick(PresentationStyle.allCases)
        c.modalTransitionStyle = pick(TransitionStyle.allCases)
        c.definesPresentationContext = bool()
        c.providesPresentationContextTransitionStyle = bool()
        c.isModalInPresentation = bool()
        c.transitioningDelegate = maybe { TransitioningDelegate(name: $0.string(), duration: $0.double()) }
        c.presentationDelegate = maybe { g in
            PresentationDelegate(shouldDismiss: g.maybe { $0.bool() }, adaptivePresentationStyle: g.maybe { $0.pick(PresentationStyle.allCases) })
        }
        c.navigationDelegate = maybe { _ in NavigationDelegate() }
        c.tabBarDelegate = maybe { g in TabBarDelegate(shouldSelect: g.maybe { $0.bool() }) }
        c.traitOverrides = maybe { g in
            TraitOverrides(
                horizontalSizeClass: g.maybe { $0.pick(Traits.SizeClass.allCases) },
                verticalSizeClass: g.maybe { $0.pick(Traits.SizeClass.allCases) })
        }
        c.preferredContentSize = maybe { [$0.double(), $0.double()] }
        c.shouldPerformSegue = Dictionary((0..<int(0...3)).map { _ in (string(), bool()) }, uniquingKeysWith: { a, _ in a })
        c.unwindActions = strings()
        c.prefersStatusBarHidden = bool()
        if int(0...3) == 0 {
            let calls = (0..<int(1...2)).map { _ in
                CallbackCode.Call(
                    pick([
                        Command.dismiss(receiver: string(), animated: bool()),
                        .push(receiver: string(), viewController: .existing(string()), animated: bool()),
                        .release(string()),
                    ]), once: bool())
            }
            c.on = CallbackCode([pick(CallbackCode.Method.allCases): calls])
        }
        if int(0...3) == 0 {
            c.actions = (0..<int(1...3)).map { _ in
                AlertAction(
                    title: maybe { $0.string() }, style: pick(AlertAction.Style.allCases),
                    handler: int(0...1) == 0 ? [] : [CallbackCode.Call(.dismiss(receiver: string(), animated: bool()))])
            }
        }
        let present =
            every
            ? StoredConfiguration.everyField
            : Set(ControllerConfiguration.fields.map(\.name).filter { _ in int(0...2) == 0 })
        return StoredConfiguration(values: c, present: present)
    }

    mutating func anchor() -> StoredPopoverAnchor {
        StoredPopoverAnchor(
            sourceView: maybe { $0.string() }, barButtonItem: maybe { $0.string() },
            sourceRect: maybe { g in (0..<g.int(0...4)).map { _ in g.double() } })
    }

    mutating func segue() -> StoredSegue {
        StoredSegue(
            id: string(), identifier: maybe { $0.string() }, kind: string(), destinationScene: maybe { $0.string() },
            destinationStoryboard: maybe { $0.string() }, modalPresentationStyle: maybe { $0.string() },
            modalTransitionStyle: maybe { $0.string() }, animates: bool(), popover: maybe { $0.anchor() },
            unwindAction: maybe { $0.string() }, customPerforms: maybe { $0.string() }, customClass: maybe { $0.string() },
            customTransitioningDelegate: maybe { StoredAnimator(name: $0.string(), duration: $0.double()) })
    }

    mutating func split() -> StoredSplit {
        StoredSplit(
            style: string(), primary: maybe { $0.string() }, supplementary: maybe { $0.string() },
            secondary: maybe { $0.string() }, collapseSecondaryOntoPrimary: maybe { $0.bool() }, isCollapsed: bool(),
            primaryNavigation: maybe { $0.string() }, supplementaryNavigation: maybe { $0.string() },
            secondaryNavigation: maybe { $0.string() }, topColumnForCollapsing: maybe { $0.string() },
            collapsedSupplementary: maybe { $0.strings() }, collapsedSecondary: maybe { $0.strings() },
            hasDelegate: maybe { $0.bool() })
    }

    mutating func controller() -> StoredController {
        StoredController(
            properties: .init(
                id: string(), kind: string(), className: string(), parent: maybe { $0.string() }, children: strings(),
                storyboard: maybe { StoredStoryboardOrigin(name: $0.string(), identifier: $0.maybe { $0.string() }) },
                isViewLoaded: bool(), appearance: string(), viewInWindow: bool(), isBeingPresented: bool(),
                isBeingDismissed: bool(), isMovingToParent: bool(), isMovingFromParent: bool(),
                presentation: maybe { g in
                    StoredPresentation(
                        presenting: g.string(), source: g.string(), requestedStyle: g.string(), style: g.string(),
                        transitionStyle: g.string(), contextViewController: g.maybe { $0.string() },
                        removesPresenterView: g.bool(), popover: g.maybe { $0.anchor() }, state: g.string())
                },
                presentedID: maybe { $0.string() }, viewControllers: strings(), selectedViewController: maybe { $0.string() },
                moreNavigationController: maybe { $0.string() }, split: maybe { $0.split() },
                page: maybe { StoredPage(transitionStyle: $0.string(), spineLocation: $0.maybe { $0.string() }, isDoubleSided: $0.bool()) },
                preferredStyle: maybe { $0.string() }, viewAddedToParent: bool(), isMoreNavigationController: bool(),
                segues: (0..<int(0...2)).map { _ in segue() }, heldByClient: maybe { _ in true }),
            configuration: configuration(every: true))
    }

    mutating func ref(depth: Int) -> StoredControllerRef {
        switch int(0...(depth > 2 ? 1 : 2)) {
        case 0: .none
        case 1: .existing(string())
        default: .new(spec(depth: depth + 1))
        }
    }
    mutating func refs(depth: Int) -> [StoredControllerRef]? { maybe { g in (0..<g.int(0...2)).map { _ in g.ref(depth: depth) } } }

    mutating func spec(depth: Int) -> StoredControllerSpec {
        StoredControllerSpec(
            properties: .init(
                id: maybe { $0.string() }, kind: string(), className: maybe { $0.string() }, viewControllers: refs(depth: depth),
                selectedIndex: maybe { $0.int(-1...20) }, primary: maybe { $0.ref(depth: depth) }, supplementary: maybe { $0.ref(depth: depth) },
                secondary: maybe { $0.ref(depth: depth) }, splitStyle: maybe { $0.string() }, collapseSecondaryOntoPrimary: maybe { $0.bool() },
                topColumnForCollapsing: maybe { $0.string() }, hasSplitDelegate: maybe { $0.bool() }, pageTransitionStyle: maybe { $0.string() },
                spineLocation: maybe { $0.string() }, isDoubleSided: maybe { $0.bool() }, children: refs(depth: depth),
                preferredStyle: maybe { $0.string() },
                storyboard: maybe { StoredStoryboardOrigin(name: $0.string(), identifier: $0.maybe { $0.string() }) },
                segues: maybe { g in (0..<g.int(0...2)).map { _ in g.segue() } }, embedded: refs(depth: depth),
                appendsSuffixWhenTaken: bool(), suffixSeparator: maybe { $0.string() }),
            configuration: configuration(every: false))
    }

    mutating func patch() -> StoredPatch { StoredPatch(configuration: configuration(every: false)) }

    mutating func command(depth: Int) -> StoredCommand {
        let r = string()
        switch int(0...30) {
        case 0: return .setRoot(ref(depth: depth), animated: bool())
        case 1: return .createController(spec(depth: depth))
        case 2:
            return .present(
                receiver: r, viewController: ref(depth: depth), style: maybe { $0.string() },
                transitionStyle: maybe { $0.string() }, popover: maybe { $0.anchor() }, animated: bool())
        case 3: return .dismiss(receiver: r, animated: bool())
        case 4: return .show(receiver: r, viewController: ref(depth: depth), animated: bool())
        case 5: return .showDetail(receiver: r, viewController: ref(depth: depth), animated: bool())
        case 6: return .push(receiver: r, viewController: ref(depth: depth), animated: bool())
        case 7: return .pop(receiver: r, animated: bool())
        case 8: return .popToRoot(receiver: r, animated: bool())
        case 9: return .popTo(receiver: r, viewController: string(), animated: bool())
        case 10: return .setViewControllers(receiver: r, viewControllers: refs(depth: depth) ?? [], direction: maybe { $0.string() }, animated: bool())
        case 11: return .select(receiver: r, index: maybe { $0.int(0...9) }, viewController: maybe { $0.string() })
        case 12: return .tapTab(receiver: r, index: maybe { $0.int(0...9) }, viewController: maybe { $0.string() })
        case 13: return .addChild(receiver: r, viewController: ref(depth: depth))
        case 14: return .removeFromParent(receiver: r)
        case 15: return .willMove(receiver: r, toParent: maybe { $0.string() })
        case 16: return .didMove(receiver: r, toParent: maybe { $0.string() })
        case 17: return .addSubview(receiver: r, viewController: string(), animated: bool())
        case 18: return .removeFromSuperview(receiver: r, animated: bool())
        case 19: return .transitionChild(receiver: r, from: string(), to: string(), animated: bool())
        case 20: return .interactiveDismiss(receiver: r, completes: bool())
        case 21: return .interactivePop(receiver: r, completes: bool())
        case 22: return .performSegue(receiver: r, identifier: string(), destination: maybe { $0.spec(depth: depth + 1) }, segue: maybe { $0.segue() })
        case 23: return .triggerSegue(receiver: r, identifier: string(), destination: maybe { $0.spec(depth: depth + 1) }, segue: maybe { $0.segue() })
        case 24: return .updateController(r, patch())
        case 25: return .setTraits(StoredTraits(userInterfaceIdiom: string(), horizontalSizeClass: string(), verticalSizeClass: string()))
        case 26: return .completeTransition(id: maybe { $0.string() })
        case 27: return .cancelTransition(id: r)
        case 28: return .tapAlertAction(receiver: r, index: maybe { $0.int(0...9) }, title: maybe { $0.string() }, animated: bool())
        default: return .release(id: r)
        }
    }

    mutating func shell(controllers: Int) -> StoredSessionState {
        var all: [String: StoredController] = [:]
        for _ in 0..<controllers {
            let c = controller()
            all[c.properties.id] = c
        }
        return StoredSessionState(
            traits: StoredTraits(userInterfaceIdiom: string(), horizontalSizeClass: string(), verticalSizeClass: string()),
            options: StoredOptions(iOS: string(), transitions: string(), navTransitionPolicy: maybe { $0.string() }, release: maybe { $0.string() }),
            rootViewController: maybe { $0.string() }, controllers: all, order: strings(), transitions: [],
            nextControllerNumber: int(0...100_000), nextTransitionNumber: int(0...100))
    }
}

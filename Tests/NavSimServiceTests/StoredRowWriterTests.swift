import Foundation
import NavigationCore
import Testing
import TestSupport

@testable import NavSimService
@testable import SessionFormat
@testable import SessionStorage
@testable import SQLiteStore

/// The stored row writer (`SessionFormat/StoredRowWriter.swift`), the only way rows are written,
/// against the stored types' `Decodable` declarations, which are how rows are read: what it
/// writes reads back (with this format's decoder and with Foundation's) as the value it was
/// written from, and writes the same bytes again. A member written under the wrong name, or not
/// at all, reads back different. Checked on the rich sessions of ``StoredFormatTests`` (every
/// state, shell, controller, command, change-set and checkpoint they store) and on thousands of
/// generated values of every stored type, with every optional member both present and absent.
@Suite("The row writer")
struct StoredRowWriterTests {
    /// `value` written reads back equal, through both decoders, and writes the same bytes again.
    static func same<T: StoredBytesWritable & Decodable & Equatable>(
        _ value: T, _ what: @autoclosure () -> String = "\(T.self)",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let bytes = try StoredCodec.row(value)
        let ours = try StoredCodec.decode(T.self, from: bytes)
        #expect(ours == value, "\(what()) reads back:\n \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
        #expect(try JSONDecoder().decode(T.self, from: Data(bytes)) == ours, "\(what()) Foundation reads it alike", sourceLocation: sourceLocation)
        #expect(try StoredCodec.row(ours) == bytes, "\(what()) writes the same bytes again", sourceLocation: sourceLocation)
    }

    @Test("Every row of the rich sessions reads back as written (states, shells, controllers, commands, change-sets)")
    func richSessions() throws {
        let h = try ServiceHarness()
        try StoredFormatTests.populate(h)
        let service = try #require(h.service)
        var checked = 0
        for (sid, state) in try StoredFormatTests.liveStates(h) {
            try Self.same(Generator.canonical(StoredSessionState(state, withControllers: true)), "session \(sid)")
            try Self.same(StoredSessionState(state, withControllers: false), "shell \(sid)")
            for c in state.orderedControllers {
                try Self.same(Generator.canonical(StoredController(c)), "\(sid)/\(c.id)")
                checked += 1
            }
            for row in try service.store.history(session: sid, after: -1, limit: 1000) where row.version > 0 {
                let turn = try Persistence.decodeTurn(row)
                // What the store holds is what the writer writes.
                #expect(try Persistence.commandText(turn.commands, resolvedSegues: turn.segues) == row.command, "\(sid) v\(row.version) command column")
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

    @Test("Thousands of generated values of every stored type, every optional member present and absent: read back equal")
    func generatedValues() throws {
        var g = Generator(seed: 11)
        for i in 0..<1500 {
            try Self.same(g.controller(), "controller \(i)")
            try Self.same(g.spec(depth: 0), "spec \(i)")
            try Self.same(g.patch(), "patch \(i)")
            try Self.same(g.segue(), "segue \(i)")
            try Self.same(g.anchor(), "anchor \(i)")
            try Self.same(g.split(), "split \(i)")
            try Self.same(g.shell(controllers: i % 10 == 0 ? 4 : 0), "state \(i)")
            try Self.same(g.transition(), "transition \(i)")
            try Self.same(
                StoredChange(
                    shell: g.bool() ? g.shell(controllers: 0) : nil,
                    controllers: (0..<g.int(0...3)).map { _ in g.controller() },
                    removed: (0..<g.int(0...3)).map { _ in g.string() }), "change \(i)")
        }
    }

    @Test("A value the writer cannot write (a non-finite number) is an EncodingError")
    func nonFiniteThrows() throws {
        #expect(throws: EncodingError.self) { try StoredCodec.row(StoredPopoverAnchor(sourceView: "v", barButtonItem: nil, sourceRect: [0, .nan])) }
        #expect(throws: EncodingError.self) { try StoredCodec.row(StoredAnimator(name: "a", duration: .infinity)) }
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

    mutating func sheetSettings() -> SheetSettings {
        SheetSettings(
            detents: (0..<int(1...3)).map { _ in SheetSettings.Detent(identifier: string(), height: maybe { $0.double() }) },
            selectedDetentIdentifier: maybe { $0.string() }, largestUndimmedDetentIdentifier: maybe { $0.string() },
            prefersGrabberVisible: bool(), prefersScrollingExpandsWhenScrolledToEdge: bool(), hasDelegate: bool())
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
            PresentationDelegate(
                shouldDismiss: g.maybe { $0.bool() }, adaptivePresentationStyle: g.maybe { $0.pick(PresentationStyle.allCases) },
                shouldDismissPopover: g.maybe { $0.bool() },
                viewControllerForAdaptivePresentationStyle: g.maybe { $0.pick(AdaptiveReplacement.allCases) })
        }
        c.navigationDelegate = maybe { g in
            NavigationDelegate(
                animationController: g.maybe { TransitioningDelegate(name: $0.string(), duration: $0.double()) },
                interactionController: g.maybe { $0.string() })
        }
        c.tabBarDelegate = maybe { g in TabBarDelegate(shouldSelect: g.maybe { $0.bool() }) }
        c.customizableViewControllers = maybe { $0.strings() }
        c.pageDataSource = maybe { PageDataSource(pages: $0.strings()) }
        c.pageDelegate = maybe { _ in PageDelegate() }
        c.traitOverrides = maybe { g in
            TraitOverrides(
                horizontalSizeClass: g.maybe { $0.pick(Traits.SizeClass.allCases) },
                verticalSizeClass: g.maybe { $0.pick(Traits.SizeClass.allCases) })
        }
        c.preferredContentSize = maybe { [$0.double(), $0.double()] }
        c.shouldPerformSegue = Dictionary((0..<int(0...3)).map { _ in (string(), bool()) }, uniquingKeysWith: { a, _ in a })
        c.unwindActions = strings()
        c.canPerformUnwindSegueAction = Dictionary((0..<int(0...3)).map { _ in (string(), bool()) }, uniquingKeysWith: { a, _ in a })
        c.allowedChildrenForUnwinding = maybe { $0.strings() }
        c.prefersStatusBarHidden = bool()
        c.sheetPresentationController = maybe { $0.sheetSettings() }
        c.popoverPresentationController = maybe { PopoverSettings(passthroughViews: $0.strings()) }
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
        return Self.canonical(StoredConfiguration(values: c, present: present), nilAsNull: false)
    }

    /// `c` as it reads back: the fields it writes present (a nil is left out unless `nilAsNull`,
    /// empty lifecycle code too), the others at their defaults.
    static func canonical(_ c: StoredConfiguration, nilAsNull: Bool) -> StoredConfiguration {
        let written = ControllerConfiguration.fields.filter { f in
            guard c.present.contains(f.name) else { return false }
            if f.name == "on" { return nilAsNull || !c.values.on.isEmpty }
            if f.name == "actions" { return nilAsNull || !c.values.actions.isEmpty }
            switch f.storedValue(c.values) {
            case .absent: return nilAsNull
            case .unencoded: return false
            default: return true
            }
        }
        let names = Set(written.map(\.name))
        return StoredConfiguration(values: ControllerPatch(values: c.values, fields: names).applied(to: ControllerConfiguration()), present: names)
    }

    static func canonical(_ c: StoredController) -> StoredController {
        StoredController(properties: c.properties, configuration: canonical(c.configuration, nilAsNull: false))
    }

    static func canonical(_ s: StoredSessionState) -> StoredSessionState {
        var s = s
        s.controllers = s.controllers.mapValues(canonical)
        return s
    }

    mutating func event() -> StoredEvent {
        StoredEvent(
            controller: string(), callback: string(), animated: maybe { $0.bool() }, parent: maybe { $0.string() },
            hasParentArgument: bool(),
            segue: maybe { StoredSegueInfo(identifier: $0.maybe { $0.string() }, source: $0.string(), destination: $0.maybe { $0.string() }) },
            action: maybe { $0.string() }, style: maybe { $0.string() },
            alertAction: maybe { StoredAlertActionTap(index: $0.int(0...3), handlerSelf: $0.string()) },
            operation: maybe { $0.string() }, isCancelled: maybe { $0.bool() }, column: maybe { $0.string() })
    }
    mutating func events() -> [StoredEvent] { (0..<int(0...3)).map { _ in event() } }

    mutating func effect() -> StoredTransitionEffect {
        switch int(0...5) {
        case 0: .settlePresentation(string())
        case 1: .removePresentations(strings())
        case 2: .restorePresentation(string())
        case 3: .endMovingToParent(strings())
        case 4: .detach(strings())
        default: .restoreStack(navigation: string(), stack: strings(), attach: strings())
        }
    }

    mutating func transition() -> StoredRunningTransition {
        StoredRunningTransition(
            record: StoredTransitionRecord(
                id: string(), operation: string(), fromViewController: maybe { $0.string() }, toViewController: maybe { $0.string() },
                presentationStyle: maybe { $0.string() }, transitionStyle: maybe { $0.string() }, animated: bool(), duration: double(),
                animator: maybe { $0.string() }, containerView: strings(), state: string()),
            order: StoredAppearanceOrder(willsAppearFirst: bool(), didsAppearFirst: bool()), appearing: strings(),
            disappearing: strings(), preStart: events(), postFinish: events(), effects: (0..<int(0...3)).map { _ in effect() },
            cancelEffects: (0..<int(0...2)).map { _ in effect() }, cancelEvents: events(), isReported: bool(), started: bool(),
            navigation: maybe { $0.string() }, silentDidAppearWithin: maybe { $0.string() }, beforeAppearance: events(),
            before: maybe { $0.strings() }, after: maybe { $0.strings() }, interactionHandlers: maybe { $0.events() })
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
            hasDelegate: maybe { $0.bool() }, displayMode: maybe { $0.string() }, delegateShows: maybe { $0.bool() },
            delegateShowsDetail: maybe { $0.bool() }, compact: maybe { $0.string() }, inspector: maybe { $0.string() },
            inspectorNavigation: maybe { $0.string() }, isShowingInspector: maybe { $0.bool() })
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
                        removesPresenterView: g.bool(), popover: g.maybe { $0.anchor() }, state: g.string(),
                        adaptiveOriginal: g.maybe { $0.string() })
                },
                presentedID: maybe { $0.string() }, viewControllers: strings(), selectedViewController: maybe { $0.string() },
                moreNavigationController: maybe { $0.string() }, split: maybe { $0.split() },
                page: maybe { StoredPage(transitionStyle: $0.string(), spineLocation: $0.maybe { $0.string() }, isDoubleSided: $0.bool()) },
                preferredStyle: maybe { $0.string() }, viewAddedToParent: bool(), isMoreNavigationController: bool(),
                segues: (0..<int(0...2)).map { _ in segue() }, heldByClient: maybe { _ in true },
                manualAppearanceAnimated: maybe { _ in true }, propertiesUpToDate: maybe { _ in true },
                traitsLastSeen: maybe { g in
                    StoredTraits(
                        userInterfaceIdiom: g.string(), horizontalSizeClass: g.string(), verticalSizeClass: g.string(),
                        size: g.maybe { StoredSize(width: $0.double(), height: $0.double()) })
                }),
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
                appendsSuffixWhenTaken: bool(), suffixSeparator: maybe { $0.string() },
                splitDelegateShow: maybe { $0.bool() }, splitDelegateShowDetail: maybe { $0.bool() },
                compact: maybe { $0.ref(depth: depth) }, inspector: maybe { $0.ref(depth: depth) }),
            configuration: configuration(every: false))
    }

    mutating func patch() -> StoredPatch {
        var c = configuration(every: false)
        // A patch names fields whose nil it clears: those are written as null.
        c.present.formUnion(ControllerConfiguration.fields.map(\.name).filter { _ in int(0...4) == 0 })
        return StoredPatch(configuration: Self.canonical(c, nilAsNull: true))
    }

    mutating func shell(controllers: Int) -> StoredSessionState {
        var all: [String: StoredController] = [:]
        for _ in 0..<controllers {
            let c = controller()
            all[c.properties.id] = c
        }
        return StoredSessionState(
            traits: StoredTraits(userInterfaceIdiom: string(), horizontalSizeClass: string(), verticalSizeClass: string()),
            options: StoredOptions(
                iOS: string(), transitions: string(), navTransitionPolicy: maybe { $0.string() }, release: maybe { $0.string() },
                layoutCallbacks: maybe { $0.bool() }),
            rootViewController: maybe { $0.string() }, controllers: all, order: strings(),
            transitions: (0..<int(0...1)).map { _ in transition() },
            nextControllerNumber: int(0...100_000), nextTransitionNumber: int(0...100))
    }
}

/// The stored commands (`SessionFormat/StoredCommands.swift`): every operation the service
/// takes, committed through ``Persistence/commit(_:)`` and read back by
/// ``Persistence/decodeTurn(_:)``, is the command it was, with every argument present and
/// absent; rows written before that file existed (the `Codable` synthesis) still read.
@Suite("Stored commands")
struct StoredCommandsTests {
    /// `commands` (and `segues`, lifecycle code's resolved segues) committed as one turn and read back.
    static func roundTrip(_ commands: [Command], segues: [Command] = []) throws -> (commands: [Command], segues: [Command], text: String) {
        let state = SessionState()
        let (commit, _) = try Persistence.commit(
            TurnRecord(
                session: "s", createdAt: "2026-01-01T00:00:00.000Z", version: 1, old: state, shell: nil, new: state,
                changed: [], at: "2026-01-01T00:00:01.000Z", method: "POST", path: "/v1/sessions/s/turns", body: nil,
                commands: commands, resolvedSegues: segues, result: Array("{}".utf8)))
        let entry = try #require(commit.history)
        let back = try Persistence.decodeTurn(entry)
        return (back.commands, back.segues, entry.command)
    }

    @Test("Thousands of generated commands of every operation, every argument present and absent, read back equal")
    func everyOperationRoundTrips() throws {
        var g = Generator(seed: 29)
        for i in 0..<3000 {
            let commands = (0..<g.int(1...3)).map { _ in g.domainCommand(depth: 0) }
            let segues = g.bool() ? [] : (0..<g.int(1...2)).map { _ in g.domainCommand(depth: 1) }
            let back = try Self.roundTrip(commands, segues: segues)
            #expect(back.commands == commands, "turn \(i): \(back.text)")
            #expect(back.segues == segues, "turn \(i): \(back.text)")
        }
    }

    @Test("Every operation of the HTTP API is stored under its own name")
    func everyHTTPOperationIsStored() throws {
        // The compiler makes every core command writable and readable; this holds the names
        // to the API's, so a history row says the operation a client sent.
        let names = Set(StoredOperation.allCases.map(\.rawValue))
        for entry in Operations.all {
            #expect(names.contains(entry.name), "\(entry.name) has no stored form of its own name")
        }
    }

    @Test("Rows written by the Codable synthesis before this format's writer (`_0`, `_1`, `{}` payloads) read as the same commands")
    func synthesizedRowsStillRead() throws {
        let row = HistoryRow(
            version: 3, at: "t", method: "POST", path: "/", body: nil,
            command: #"""
                [{"updateController":{"_0":"c0","_1":{"title":null,"isModalInPresentation":true}}},
                 {"setRoot":{"_0":{"new":{"_0":{"kind":"navigationController","appendsSuffixWhenTaken":false,
                   "viewControllers":[{"existing":{"_0":"a"}},{"none":{}}]}}},"animated":false}},
                 {"setTraits":{"_0":{"userInterfaceIdiom":"pad","horizontalSizeClass":"regular","verticalSizeClass":"regular"}}},
                 {"release":{"id":"gone"}}, {"completeTransition":{}}]
                """#, result: "{}", rulesVersion: 1)
        var spec = ControllerSpec(kind: .navigationController)
        spec.viewControllers = [.existing("a"), .none]
        spec.suffixSeparator = "#"
        var patch = ControllerPatch()
        patch.set(\.title, nil)
        patch.set(\.isModalInPresentation, true)
        #expect(
            try Persistence.decodeCommands(row) == [
                .updateController("c0", patch), .setRoot(.new(spec), animated: false),
                .setTraits(Traits(userInterfaceIdiom: .pad, horizontalSizeClass: .regular, verticalSizeClass: .regular)),
                .release("gone"), .completeTransition(id: nil),
            ])
    }

    @Test("A stored command that is not one (no operation, two, an unknown one, a wrong argument) is an error")
    func malformedCommandsThrow() throws {
        for text in [
            #"[{}]"#, #"[{"pop":{"receiver":"a","animated":true},"push":{}}]"#, #"[{"noSuchOperation":{}}]"#,
            #"[{"pop":{"receiver":1,"animated":true}}]"#, #"[{"pop":{"animated":true}}]"#, #"["pop"]"#,
            #"[{"present":{"receiver":"a","viewController":{"none":{}},"style":"sideways","animated":true}}]"#,
        ] {
            let row = HistoryRow(version: 1, at: "t", method: "POST", path: "/", body: nil, command: text, result: "{}", rulesVersion: 1)
            #expect(throws: (any Error).self, "\(text)") { try Persistence.decodeCommands(row) }
        }
    }
}

extension Generator {
    /// A valid core value of each enumeration.
    mutating func pick<T: CaseIterable>(_: T.Type) -> T { pick(Array(T.allCases)) }

    /// A patch (or a spec's configuration) that names a few fields; a spec gives no nil
    /// (it clears nothing), a patch may clear.
    mutating func domainPatch(clears: Bool) -> ControllerPatch {
        var p = ControllerPatch()
        if bool() { p.set(\.title, clears && bool() ? nil : string()) }
        if bool() { p.set(\.modalPresentationStyle, pick(PresentationStyle.self)) }
        if bool() { p.set(\.isModalInPresentation, bool()) }
        if bool() { p.set(\.transitioningDelegate, clears && bool() ? nil : TransitioningDelegate(name: string(), duration: double())) }
        if bool() { p.set(\.preferredContentSize, [double(), double()]) }
        if bool() { p.set(\.shouldPerformSegue, [string(): bool()]) }
        if int(0...4) == 0 {
            p.set(\.on, CallbackCode([pick(CallbackCode.Method.self): [CallbackCode.Call(.pop(receiver: string(), animated: bool()), once: bool())]]))
        }
        return p
    }

    mutating func domainRef(depth: Int) -> ControllerRef {
        switch int(0...(depth > 2 ? 1 : 2)) {
        case 0: .none
        case 1: .existing(string())
        default: .new(domainSpec(depth: depth + 1))
        }
    }
    mutating func domainRefs(depth: Int) -> [ControllerRef] { (0..<int(0...2)).map { _ in domainRef(depth: depth) } }

    mutating func domainSpec(depth: Int) -> ControllerSpec {
        var s = ControllerSpec(id: maybe { $0.string() }, kind: pick(ControllerKind.self), className: maybe { $0.string() })
        s.configuration = domainPatch(clears: false)
        s.viewControllers = maybe { $0.domainRefs(depth: depth) }
        s.selectedIndex = maybe { $0.int(-1...20) }
        s.primary = maybe { $0.domainRef(depth: depth) }
        s.supplementary = maybe { $0.domainRef(depth: depth) }
        s.secondary = maybe { $0.domainRef(depth: depth) }
        s.splitStyle = maybe { $0.pick(SplitState.Style.self) }
        s.collapseSecondaryOntoPrimary = maybe { $0.bool() }
        s.topColumnForCollapsing = maybe { $0.pick(SplitState.Column.self) }
        s.hasSplitDelegate = maybe { $0.bool() }
        s.splitDelegateShow = maybe { $0.bool() }
        s.splitDelegateShowDetail = maybe { $0.bool() }
        s.compact = maybe { $0.domainRef(depth: depth) }
        s.inspector = maybe { $0.domainRef(depth: depth) }
        s.pageTransitionStyle = maybe { $0.pick(PageState.Style.self) }
        s.spineLocation = maybe { $0.pick(PageState.SpineLocation.self) }
        s.isDoubleSided = maybe { $0.bool() }
        s.children = maybe { $0.domainRefs(depth: depth) }
        s.preferredStyle = maybe { $0.pick(AlertStyle.self) }
        s.storyboard = maybe { StoryboardOrigin(name: $0.string(), identifier: $0.maybe { $0.string() }) }
        s.segues = maybe { g in (0..<g.int(0...2)).map { _ in g.domainSegue() } }
        s.embedded = maybe { $0.domainRefs(depth: depth) }
        s.appendsSuffixWhenTaken = bool()
        // A spec that appends no suffix stores no separator, and reads back with the one rows
        // from before `~` ids meant.
        s.suffixSeparator = s.appendsSuffixWhenTaken ? "~" : "#"
        return s
    }

    mutating func domainAnchor() -> PopoverAnchor {
        PopoverAnchor(sourceView: maybe { $0.string() }, barButtonItem: maybe { $0.string() }, sourceRect: maybe { [$0.double(), $0.double()] })
    }

    mutating func domainSegue() -> SegueSpec {
        var spec = SegueSpec(
            id: string(), identifier: maybe { $0.string() }, kind: pick(SegueSpec.Kind.self), destinationScene: maybe { $0.string() },
            destinationStoryboard: maybe { $0.string() }, modalPresentationStyle: maybe { $0.pick(PresentationStyle.self) },
            modalTransitionStyle: maybe { $0.pick(TransitionStyle.self) }, animates: bool(), popover: maybe { $0.domainAnchor() },
            unwindAction: maybe { $0.string() }, customPerforms: maybe { $0.pick(SegueSpec.CustomPerform.self) },
            customClass: maybe { $0.string() },
            customTransitioningDelegate: maybe { TransitioningDelegate(name: $0.string(), duration: $0.double()) })
        spec.customSheetPresentationController = maybe { $0.sheetSettings() }
        return spec
    }

    /// One command of each operation, about equally often (the switch is over every stored
    /// operation, so a new one needs its case here too).
    mutating func domainCommand(depth: Int) -> Command {
        let r = string()
        switch pick(StoredOperation.self) {
        case .setRoot: return .setRoot(domainRef(depth: depth), animated: bool())
        case .createController: return .createController(domainSpec(depth: depth))
        case .present:
            return .present(
                receiver: r, viewController: domainRef(depth: depth), style: maybe { $0.pick(PresentationStyle.self) },
                transitionStyle: maybe { $0.pick(TransitionStyle.self) }, popover: maybe { $0.domainAnchor() }, animated: bool())
        case .dismiss: return .dismiss(receiver: r, animated: bool())
        case .show: return .show(receiver: r, viewController: domainRef(depth: depth), animated: bool())
        case .showDetail: return .showDetail(receiver: r, viewController: domainRef(depth: depth), animated: bool())
        case .push: return .push(receiver: r, viewController: domainRef(depth: depth), animated: bool())
        case .pop: return .pop(receiver: r, animated: bool())
        case .popToRoot: return .popToRoot(receiver: r, animated: bool())
        case .popTo: return .popTo(receiver: r, viewController: string(), animated: bool())
        case .setViewControllers:
            return .setViewControllers(
                receiver: r, viewControllers: domainRefs(depth: depth), direction: maybe { $0.pick(PageDirection.self) }, animated: bool())
        case .select: return .select(receiver: r, index: maybe { $0.int(0...9) }, viewController: maybe { $0.string() })
        case .tapTab: return .tapTab(receiver: r, index: maybe { $0.int(0...9) }, viewController: maybe { $0.string() })
        case .addChild: return .addChild(receiver: r, viewController: domainRef(depth: depth))
        case .removeFromParent: return .removeFromParent(receiver: r)
        case .willMove: return .willMove(receiver: r, toParent: maybe { $0.string() })
        case .didMove: return .didMove(receiver: r, toParent: maybe { $0.string() })
        case .addSubview: return .addSubview(receiver: r, viewController: string(), animated: bool())
        case .removeFromSuperview: return .removeFromSuperview(receiver: r, animated: bool())
        case .transitionChild: return .transitionChild(receiver: r, from: string(), to: string(), animated: bool())
        case .interactiveDismiss: return .interactiveDismiss(receiver: r, completes: bool(), tappedView: maybe { $0.string() })
        case .interactivePop: return .interactivePop(receiver: r, completes: bool(), gesture: pick(PopGesture.self))
        case .performSegue:
            return .performSegue(
                receiver: r, identifier: string(), destination: maybe { $0.domainSpec(depth: depth + 1) }, segue: maybe { $0.domainSegue() })
        case .triggerSegue:
            return .triggerSegue(
                receiver: r, identifier: string(), destination: maybe { $0.domainSpec(depth: depth + 1) }, segue: maybe { $0.domainSegue() })
        case .updateController: return .updateController(r, domainPatch(clears: true))
        case .setTraits:
            return .setTraits(
                Traits(userInterfaceIdiom: pick(Traits.Idiom.self), horizontalSizeClass: pick(Traits.SizeClass.self), verticalSizeClass: pick(Traits.SizeClass.self)))
        case .completeTransition: return .completeTransition(id: maybe { $0.string() })
        case .cancelTransition: return .cancelTransition(id: r)
        case .release: return .release(r)
        case .beginAppearanceTransition: return .beginAppearanceTransition(receiver: r, isAppearing: bool(), animated: bool())
        case .endAppearanceTransition: return .endAppearanceTransition(receiver: r)
        case .tapAlertAction:
            return .tapAlertAction(receiver: r, index: maybe { $0.int(0...9) }, title: maybe { $0.string() }, animated: bool())
        case .dragSheet: return .dragSheet(receiver: r, detent: string())
        case .setNeedsUpdateProperties: return .setNeedsUpdateProperties(receiver: r)
        case .animateAlongsideTransition: return .animateAlongsideTransition(receiver: r)
        case .notifyWhenInteractionChanges: return .notifyWhenInteractionChanges(receiver: r)
        case .turnPage: return .turnPage(receiver: r, direction: pick(PageDirection.self), completes: bool())
        case .customizeTabs: return .customizeTabs(receiver: r, viewControllers: strings())
        case .showColumn: return .showColumn(receiver: r, column: pick(SplitState.Column.self))
        case .hideColumn: return .hideColumn(receiver: r, column: pick(SplitState.Column.self))
        }
    }
}

import JSONValues
@testable import NavigationCore
import Testing
import TestSupport

@testable import NavSimService

/// The replies written straight to bytes (JSONWriter) are byte for byte what the JSON-tree
/// encoders of f76b527 sent (LegacyReplyEncoding.swift): whole sessions, each controller piece,
/// the incremental encoding of a new version, `Prefer: return=minimal` sessions, the result of
/// an operation or a turn, the full mutation reply around them and the creation reply, over
/// sessions and results generated from a fixed seed, with text that needs escaping and text
/// that is not ASCII in every string the core lets a client choose.
@Suite struct ReplyBytesTests {
    /// The same cases on every run.
    typealias Seeded = SplitMix64

    /// Strings with every kind of byte JSON treats apart: quotes, backslashes, each control
    /// character, DEL, two- to four-byte UTF-8, a ZWJ sequence, the line separators JavaScript
    /// minds (JSON does not escape them).
    static let awkward: [String] = [
        "", "plain", "Screen 3", "quote\"d", "back\\slash", "tab\there", "new\nline", "cr\rlf\n",
        String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self), "\u{7f}", "é", "Ünïcödé",
        "日本語のタイトル", "👩‍💻 emoji", "\u{2028}\u{2029}", "/slash/", "mixed \"é\\\n\u{8}\u{c}\u{1b}",
    ]

    static func text(_ g: inout Seeded) -> String {
        let a = awkward.randomElement(using: &g)!
        return Bool.random(using: &g) ? a : a + awkward.randomElement(using: &g)!
    }

    static func pick<T: CaseIterable>(_ type: T.Type, _ g: inout Seeded) -> T { T.allCases.randomElement(using: &g)! }

    static func number(_ g: inout Seeded) -> Double {
        [0, 0.3, 0.35, 1, 2.5, 1e-7, 123_456.789, 1e15, 1e20, 999_999_999_999_999, 0.1 + 0.2, 3600]
            .randomElement(using: &g)!
    }

    /// A configuration with each property set or left at its default, at random.
    static func configuration(_ g: inout Seeded, ids: [String]) -> ControllerConfiguration {
        var c = ControllerConfiguration()
        func maybe(_ g: inout Seeded) -> Bool { Bool.random(using: &g) }
        if maybe(&g) { c.title = text(&g) }
        if maybe(&g) { c.modalPresentationStyle = pick(PresentationStyle.self, &g) }
        if maybe(&g) { c.modalTransitionStyle = pick(TransitionStyle.self, &g) }
        c.definesPresentationContext = maybe(&g)
        c.providesPresentationContextTransitionStyle = maybe(&g)
        c.isModalInPresentation = maybe(&g)
        c.prefersStatusBarHidden = maybe(&g)
        if maybe(&g) { c.transitioningDelegate = TransitioningDelegate(name: text(&g), duration: number(&g)) }
        if maybe(&g) {
            c.presentationDelegate = PresentationDelegate(
                shouldDismiss: maybe(&g) ? maybe(&g) : nil,
                adaptivePresentationStyle: maybe(&g) ? pick(PresentationStyle.self, &g) : nil)
        }
        if maybe(&g) { c.navigationDelegate = NavigationDelegate() }
        if maybe(&g) { c.tabBarDelegate = TabBarDelegate(shouldSelect: maybe(&g) ? maybe(&g) : nil) }
        if maybe(&g) {
            c.traitOverrides = TraitOverrides(
                horizontalSizeClass: maybe(&g) ? pick(Traits.SizeClass.self, &g) : nil,
                verticalSizeClass: maybe(&g) ? pick(Traits.SizeClass.self, &g) : nil)
        }
        if maybe(&g) { c.preferredContentSize = [number(&g), number(&g)] }
        if maybe(&g) { c.shouldPerformSegue = Dictionary((0..<Int.random(in: 1...4, using: &g)).map { _ in (text(&g), maybe(&g)) }) { a, _ in a } }
        if maybe(&g) { c.unwindActions = (0..<Int.random(in: 1...3, using: &g)).map { _ in text(&g) } }
        if maybe(&g) {
            var calls: [CallbackCode.Method: [CallbackCode.Call]] = [:]
            for m in CallbackCode.Method.allCases where maybe(&g) {
                let target = ids.randomElement(using: &g) ?? "x"
                let receiver = maybe(&g) ? CallbackCode.selfReceiver : target
                let command: Command = [
                    .push(receiver: receiver, viewController: .existing(target), animated: maybe(&g)),
                    .dismiss(receiver: receiver, animated: maybe(&g)),
                    .setTraits(Traits()),
                    .completeTransition(id: nil),
                ].randomElement(using: &g)!
                calls[m] = [CallbackCode.Call(command, once: maybe(&g))]
            }
            c.on = CallbackCode(calls)
        }
        return c
    }

    /// A new controller of any kind, with children where its kind has them.
    static func spec(_ g: inout Seeded, next: inout Int, depth: Int = 0) -> ControllerSpec {
        next += 1
        let kinds: [ControllerKind] =
            depth > 1
            ? [.viewController, .tableViewController]
            : [
                .viewController, .navigationController, .tabBarController, .splitViewController, .pageViewController,
                .alertController, .collectionViewController,
            ]
        let kind = kinds.randomElement(using: &g)!
        // Some ids need escaping too; each ends in a number, so ids stay distinct.
        let id = (Bool.random(using: &g) ? "c" : text(&g)) + "\(next)"
        var s = ControllerSpec(id: id, kind: kind, className: Bool.random(using: &g) ? text(&g) : nil)
        if Bool.random(using: &g) { s.title = text(&g) }
        func child(_ g: inout Seeded) -> ControllerRef { .new(spec(&g, next: &next, depth: depth + 1)) }
        switch kind {
        case .navigationController, .tabBarController:
            s.viewControllers = (0..<Int.random(in: 1...3, using: &g)).map { _ in child(&g) }
        case .splitViewController:
            s.splitStyle = pick(SplitState.Style.self, &g)
            s.primary = child(&g)
            s.secondary = child(&g)
            if s.splitStyle == .tripleColumn { s.supplementary = child(&g) }
        case .pageViewController:
            s.pageTransitionStyle = pick(PageState.Style.self, &g)
            s.viewControllers = [child(&g)]
        case .alertController:
            s.preferredStyle = pick(AlertStyle.self, &g)
        default: break
        }
        if Bool.random(using: &g) { s.storyboard = StoryboardOrigin(name: text(&g), identifier: Bool.random(using: &g) ? text(&g) : nil) }
        return s
    }

    /// A command on some controller of `state`; many are refused, which is part of what is encoded.
    static func command(_ g: inout Seeded, on state: SessionState, next: inout Int) -> Command {
        let ids = state.order
        let any = ids.randomElement(using: &g) ?? "none"
        let animated = Bool.random(using: &g)
        switch Int.random(in: 0..<12, using: &g) {
        case 0, 1: return .push(receiver: any, viewController: .new(spec(&g, next: &next, depth: 2)), animated: animated)
        case 2, 3:
            return .present(
                receiver: any, viewController: .new(spec(&g, next: &next, depth: 1)),
                style: Bool.random(using: &g) ? pick(PresentationStyle.self, &g) : nil,
                transitionStyle: nil, popover: nil, animated: animated)
        case 4: return .dismiss(receiver: any, animated: animated)
        case 5: return .pop(receiver: any, animated: animated)
        case 6: return .select(receiver: any, index: Int.random(in: 0..<3, using: &g), viewController: nil)
        case 7:
            return .setTraits(
                Traits(
                    userInterfaceIdiom: pick(Traits.Idiom.self, &g),
                    horizontalSizeClass: pick(Traits.SizeClass.self, &g),
                    verticalSizeClass: pick(Traits.SizeClass.self, &g)))
        case 8: return .completeTransition(id: nil)
        case 9: return .createController(spec(&g, next: &next, depth: 1))
        case 10: return .release(any)
        default:
            var patch = ControllerPatch()
            patch.set(\.title, text(&g))
            return .updateController(any, patch)
        }
    }

    /// `actual == expected`, byte for byte; a failure names the first differing byte and shows the
    /// text around it rather than both arrays.
    static func expectSameBytes(
        _ actual: [UInt8], _ expected: [UInt8], _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard actual != expected else { return }
        let common = min(actual.count, expected.count)
        let at = (0..<common).first { actual[$0] != expected[$0] } ?? common
        func around(_ b: [UInt8]) -> String { String(decoding: b[max(0, at - 60)..<min(b.count, at + 60)], as: UTF8.self) }
        Issue.record(
            "\(what): differs at byte \(at) of \(actual.count) (expected \(expected.count)):\n  new: …\(around(actual))…\n  old: …\(around(expected))…",
            sourceLocation: sourceLocation)
    }

    /// The old per-controller bytes of `state`, by id.
    static func legacyPieces(_ state: SessionState) -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        for (id, c) in state.controllers { out[id] = LegacyJSON.bytes(LegacyEncode.controller(c, in: state)) }
        return out
    }

    /// Everything a state's encoding gives, compared with the old encoders'.
    static func expectSameEncoding(
        _ id: String, _ version: Int, _ createdAt: String, _ state: SessionState,
        _ encoded: EncodedSession, _ what: String
    ) {
        let legacy = LegacyJSON.bytes(LegacyEncode.session(id: id, version: version, createdAt: createdAt, state: state))
        expectSameBytes(Encode.session(id: id, version: version, createdAt: createdAt, state: state), legacy, "\(what): session")
        expectSameBytes(encoded.body, legacy, "\(what): incremental encoding")
        for (cid, piece) in legacyPieces(state) {
            expectSameBytes(encoded.piece(cid).map(Array.init) ?? [], piece, "\(what): piece \(cid)")
        }
    }

    @Test("Sessions, pieces, new versions, minimal and full replies: the bytes of the tree encoders")
    func sameBytesAsTheTreeEncoders() throws {
        var g = Seeded(seed: 11)
        var compared = 0
        for session in 0..<120 {
            var next = 0
            let options = Options(
                iOS: Self.pick(IOSRelease.self, &g), transitions: Self.pick(TransitionMode.self, &g),
                navTransitionPolicy: Self.pick(NavigationTransitionPolicy.self, &g),
                release: Self.pick(ReleasePolicy.self, &g))
            let traits = Traits(userInterfaceIdiom: Self.pick(Traits.Idiom.self, &g))
            guard
                case .success(let made) = Navigator.makeSessionReporting(
                    traits: traits, options: options, root: .new(Self.spec(&g, next: &next)))
            else { continue }
            let sid = Self.text(&g) + "s\(session)"
            let createdAt = "2026-12-02T00:00:00.\(session)Z"
            Self.expectSameBytes(
                Encode.created(
                    id: sid, createdAt: createdAt, state: made.state, events: made.result.events,
                    warnings: made.result.warnings),
                LegacyEncode.created(
                    id: sid, createdAt: createdAt, state: made.state, events: made.result.events,
                    warnings: made.result.warnings), "creation reply \(session)")
            var state = made.state
            var version = 0
            var encoded = EncodedSession.make(id: sid, version: 0, createdAt: createdAt, state: state, previous: nil).0
            Self.expectSameEncoding(sid, 0, createdAt, state, encoded, "session \(session) v0")
            for step in 0..<12 {
                let turn = Bool.random(using: &g)
                let commands = (0..<(turn ? Int.random(in: 1...3, using: &g) : 1)).map { _ in Self.command(&g, on: state, next: &next) }
                var outcome = Navigator.run(commands, on: state)
                guard outcome.failure == nil else { continue }
                // Configurations and storyboard origins the operations above seldom reach, set directly.
                var changed = outcome.changedControllers
                if Bool.random(using: &g), let cid = outcome.state.order.randomElement(using: &g) {
                    outcome.state.controllers[cid]?.configuration = Self.configuration(&g, ids: outcome.state.order)
                    if Bool.random(using: &g) {
                        outcome.state.controllers[cid]?.storyboard = StoryboardOrigin(name: Self.text(&g), identifier: Self.text(&g))
                    }
                    if !changed.contains(cid) { changed.append(cid) }
                }
                version += 1
                let what = "session \(session) step \(step)"
                let (next, changedPieces) = EncodedSession.make(
                    id: sid, version: version, createdAt: createdAt, state: outcome.state,
                    previous: encoded, previousState: state, changedControllers: changed)
                Self.expectSameEncoding(sid, version, createdAt, outcome.state, next, what)
                // The result as the history keeps it, and the replies around it.
                let results = Encode.results(outcome.outcomes, turn: turn)
                Self.expectSameBytes(results, LegacyJSON.bytes(LegacyEncode.resultJSON(outcome.outcomes, turn: turn)), "\(what): results")
                let removed = state.order.filter { outcome.state.controllers[$0] == nil }
                let minimal = next.minimal(id: sid, state: outcome.state, changed: changedPieces, removed: removed)
                let legacyMinimal = LegacyEncode.minimal(
                    id: sid, version: version,
                    window: LegacyEncode.window(outcome.state),
                    pieces: Self.legacyPieces(outcome.state), changed: changedPieces, removed: removed)
                Self.expectSameBytes(minimal, legacyMinimal, "\(what): minimal session")
                if turn || outcome.outcomes.first.map({ if case .applied = $0 { true } else { false } }) == true {
                    for session in [next.body, minimal] {
                        Self.expectSameBytes(
                            Encode.mutationReply(
                                version: version, turn: turn, results: results,
                                released: outcome.released, session: session),
                            LegacyEncode.mutationReply(
                                version: version, turn: turn, outcomes: outcome.outcomes,
                                released: outcome.released, session: session),
                            "\(what): mutation reply")
                    }
                }
                state = outcome.state
                encoded = next
                compared += 1
            }
        }
        // Enough generated steps went through for the comparison to mean something.
        #expect(compared > 600, "\(compared)")
    }

    @Test("Results of every shape: events with and without their optional members, transitions, warnings, returned ids")
    func resultsOfEveryShape() {
        var g = Seeded(seed: 7)
        for _ in 0..<500 {
            var r = ActionResult()
            for _ in 0..<Int.random(in: 0...4, using: &g) {
                var e = Event(Self.text(&g), Self.pick(Event.Callback.self, &g), animated: Bool.random(using: &g) ? Bool.random(using: &g) : nil)
                if Bool.random(using: &g) {
                    e.hasParentArgument = true
                    e.parent = Bool.random(using: &g) ? Self.text(&g) : nil
                }
                if Bool.random(using: &g) {
                    e.segue = .init(
                        identifier: Bool.random(using: &g) ? Self.text(&g) : nil, source: Self.text(&g),
                        destination: Bool.random(using: &g) ? Self.text(&g) : nil)
                }
                if Bool.random(using: &g) { e.action = Self.text(&g) }
                if Bool.random(using: &g) { e.style = Self.pick(PresentationStyle.self, &g) }
                r.events.append(e)
            }
            if Bool.random(using: &g) {
                r.transition = TransitionRecord(
                    id: Self.text(&g), operation: Self.pick(TransitionOperation.self, &g),
                    fromViewController: Bool.random(using: &g) ? Self.text(&g) : nil, toViewController: Bool.random(using: &g) ? Self.text(&g) : nil,
                    presentationStyle: Bool.random(using: &g) ? Self.pick(PresentationStyle.self, &g) : nil,
                    transitionStyle: Bool.random(using: &g) ? Self.pick(TransitionStyle.self, &g) : nil,
                    animated: Bool.random(using: &g), duration: Self.number(&g), animator: Bool.random(using: &g) ? Self.text(&g) : nil,
                    containerView: (0..<Int.random(in: 0...2, using: &g)).map { _ in Self.text(&g) },
                    state: [.completed, .inProgress, .cancelled, .queued].randomElement(using: &g)!)
            }
            r.returnsValue = Bool.random(using: &g)
            if Bool.random(using: &g) { r.returned = (0..<Int.random(in: 0...2, using: &g)).map { _ in Self.text(&g) } }
            for _ in 0..<Int.random(in: 0...2, using: &g) {
                r.warnings.append(
                    Diagnostic(
                        code: Bool.random(using: &g) ? "D\(Int.random(in: 1...30, using: &g))" : nil,
                        slug: "warning-slug", severity: .warning,
                        name: Bool.random(using: &g) ? Self.text(&g) : nil, message: Self.text(&g)))
            }
            let refused = OperationOutcome.refused(
                Diagnostic(
                    code: "R7", slug: "refused", severity: .exception,
                    name: "NSInvalidArgumentException", message: Self.text(&g)))
            let invalid = OperationOutcome.invalid(CommandError(kind: .unknownController, message: Self.text(&g), field: nil))
            for outcomes in [[.applied(r)], [.applied(r), refused, invalid]] {
                for turn in [false, true] where turn || outcomes.count == 1 {
                    let results = Encode.results(outcomes, turn: turn)
                    Self.expectSameBytes(results, LegacyJSON.bytes(LegacyEncode.resultJSON(outcomes, turn: turn)), "results")
                    let released = Bool.random(using: &g) ? [Self.text(&g)] : []
                    Self.expectSameBytes(
                        Encode.mutationReply(
                            version: 3, turn: turn, results: results, released: released,
                            session: Array("{}".utf8)),
                        LegacyEncode.mutationReply(
                            version: 3, turn: turn, outcomes: outcomes, released: released,
                            session: Array("{}".utf8)), "mutation reply")
                }
            }
        }
    }

    @Test("Numbers and strings: the writer spells them as the tree serialiser did")
    func numbersAndStrings() {
        var values: [Double] = [
            0, -0.0, 1, -1, 0.5, 0.3, 0.1 + 0.2, 1e-300, .leastNonzeroMagnitude, 1e15 - 1, 1e15, -1e15, 1e15 + 1, 1e16, 1e21,
            123_456_789.125, .infinity, -.infinity, .nan, .greatestFiniteMagnitude, Double(Int64.max),
        ]
        var g = Seeded(seed: 3)
        for _ in 0..<2_000 {
            values.append(Double(bitPattern: g.next()))
            values.append(Double(Int64.random(in: -2_000_000_000_000_000...2_000_000_000_000_000, using: &g)))
            values.append(Double(Int.random(in: -1_000_000...1_000_000, using: &g)) / 8)
        }
        for n in values {
            var w = JSONWriter()
            w.number(n)
            #expect(w.bytes == LegacyJSON.bytes(.number(n)), "\(n)")
        }
        for i in [0, 1, -1, 9, 10, 99, 100, Int.max, Int.min, 999_999_999_999_999] {
            var w = JSONWriter()
            w.int(i)
            #expect(String(decoding: w.bytes, as: UTF8.self) == String(i))
        }
        var strings = Self.awkward
        for _ in 0..<500 { strings.append(Self.text(&g) + Self.text(&g)) }
        for s in strings {
            let tree = JSON.array([.string(s), .object([(s, .string(s))])])
            #expect(tree.bytes == LegacyJSON.bytes(tree), "\(s.debugDescription)")
            // And the text reads back as the same strings (RFC 8259 §7).
            #expect((try? JSON.parse(tree.bytes)) == tree)
        }
    }

    @Test("A writer that outgrows its room many times over writes what the tree serialiser writes, and finish() hands over exactly that text")
    func writerGrowth() {
        var g = Seeded(seed: 5)
        var members: [(String, JSON)] = []
        for i in 0..<2_000 {
            let value: JSON = i % 3 == 0 ? .string(Self.text(&g)) : i % 3 == 1 ? .number(Double(i) - 1000) : .array([.bool(i % 2 == 0), .null])
            members.append((Self.text(&g), value))
        }
        let tree = JSON.object(members)
        var w = JSONWriter(capacity: 1)
        w.value(tree)
        let start = w.count
        w.splice(#","tail":1"#.utf8, endsWithValue: true)
        #expect(Array(w.written(from: start)) == Array(#","tail":1"#.utf8))
        // The comparison a cached piece is checked with: equal, one byte off anywhere, or a length off.
        let whole = w.bytes
        #expect(w.written(from: 0, equal: whole[...]))
        #expect(w.written(from: 5, equal: whole[5...]))
        for at in [0, 7, 8, 9, whole.count / 2, whole.count - 9, whole.count - 1] {
            var off = whole
            off[at] ^= 1
            #expect(!w.written(from: 0, equal: off[...]), "\(at)")
        }
        #expect(!w.written(from: 0, equal: whole.dropLast()))
        #expect(!w.written(from: 1, equal: whole[...]))
        var expected = LegacyJSON.bytes(tree)
        expected.append(contentsOf: #","tail":1"#.utf8)
        #expect(w.bytes == expected)
        #expect(w.finish() == expected)
    }
}

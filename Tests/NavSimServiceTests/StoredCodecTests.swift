import Foundation
import JSONValues
import NavigationCore
import Testing

@testable import NavSimService
@testable import SessionFormat
import SessionStorage

/// The stored format's own decoder (`SessionFormat/StoredCodec.swift`) against Foundation's: what
/// the row writer writes, both read to the same value, for every stored type on the rich sessions
/// of ``StoredFormatTests``; rows Foundation's encoder wrote (every release before the codec)
/// still read; and text that is not a stored row is an error. The codec's encoder, which writes
/// the core's `Codable` configuration values, is checked against Foundation's the same way.
@Suite("The stored codec")
struct StoredCodecTests {
    /// `value` as the row writer writes it reads back as `value` with both decoders, compared as
    /// `view` sees it (a stored controller's `present` names only the fields it wrote, so
    /// controllers and states compare as the domain values they stand for).
    static func crossCheck<T: StoredBytesWritable & Decodable, V: Equatable>(
        _ value: T, _ what: String = "\(T.self)", as view: (T) throws -> V,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let ours = try StoredCodec.row(value)
        let expected = try view(value)
        #expect(try view(JSONDecoder().decode(T.self, from: Data(ours))) == expected, "Foundation reads ours: \(what)", sourceLocation: sourceLocation)
        #expect(try view(StoredCodec.decode(T.self, from: ours)) == expected, "we read ours: \(what)", sourceLocation: sourceLocation)
    }

    static func crossCheck<T: StoredBytesWritable & Decodable & Equatable>(
        _ value: T, _ what: String = "\(T.self)",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try crossCheck(value, what, as: { $0 }, sourceLocation: sourceLocation)
    }

    /// A value of the core's (`Codable` in NavigationCore) written by our encoder and by
    /// Foundation's, read back by each decoder as itself.
    static func crossCheckCodable<T: Codable & Equatable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        let ours = try StoredCodec.encode(value), theirs = try e.encode(value)
        #expect(try JSONDecoder().decode(T.self, from: Data(ours)) == value, sourceLocation: sourceLocation)
        #expect(try StoredCodec.decode(T.self, from: Array(theirs)) == value, sourceLocation: sourceLocation)
        #expect(try StoredCodec.decode(T.self, from: ours) == value, sourceLocation: sourceLocation)
    }

    @Test("Every stored type of the rich sessions round-trips across both codecs (states, rows, commands, change-sets, checkpoints)")
    func richSessionsCrossBothCodecs() throws {
        let h = try ServiceHarness()
        try StoredFormatTests.populate(h)
        let service = try #require(h.service)
        var controllers = 0, changes = 0, commands = 0
        for (sid, state) in try StoredFormatTests.liveStates(h) {
            try Self.crossCheck(StoredSessionState(state, withControllers: true), "session \(sid)", as: { try $0.domain() })
            try Self.crossCheck(StoredSessionState(state, withControllers: false), "shell \(sid)", as: { try $0.domain() })
            for c in state.controllers.values {
                try Self.crossCheck(StoredController(c), "\(sid)/\(c.id)", as: { try $0.domain() })
                controllers += 1
            }
            for t in state.transitions { try Self.crossCheck(StoredRunningTransition(t), "\(sid) transition") }
            for row in try service.store.history(session: sid, after: -1, limit: 1000) {
                // What is stored reads the same with both decoders.
                if row.version > 0 {
                    let ours = try Persistence.decodeTurn(row)
                    let theirs = try JSONDecoder().decode([StoredCommandReading].self, from: Data(row.command.first == "[" ? row.command.utf8 : "[]".utf8))
                    if row.command.first == "[" { #expect(theirs.map(\.command) == ours.commands, "\(sid) v\(row.version) commands") }
                    commands += ours.commands.count
                }
                if let text = row.changes {
                    let change = try StoredCodec.decode(StoredChange.self, from: text)
                    #expect(try JSONDecoder().decode(StoredChange.self, from: Data(text.utf8)) == change, "\(sid) v\(row.version) change")
                    try Self.crossCheck(change, "\(sid) v\(row.version) change", as: { try StoredCodec.row($0) })
                    changes += 1
                }
                if let text = row.checkpoint {
                    #expect(
                        try JSONDecoder().decode(StoredSessionState.self, from: Data(text.utf8))
                            == StoredCodec.decode(StoredSessionState.self, from: text))
                }
            }
        }
        #expect(controllers > 30 && changes > 20 && commands > 20)
    }

    @Test("Strings with quotes, backslashes, control characters, non-BMP and separator characters survive both ways")
    func stringEscaping() throws {
        let nasty = "q\"b\\s/\u{0}\u{1}\u{8}\u{c}\n\r\t\u{1f}\u{7f} é ∆ \u{2028}\u{2029} 🧭👩‍👩‍👧 \u{10FFFF}"
        try Self.crossCheck(StoredStoryboardOrigin(name: nasty, identifier: nil))
        try Self.crossCheck(StoredStoryboardOrigin(name: "", identifier: nasty))
        try Self.crossCheckCodable([nasty, "", "plain"])
        try Self.crossCheckCodable(["k\"ey\u{1}": nasty, "🧭": ""])
        var c = Controller(id: nasty, kind: .navigationController)
        c.configuration.title = nasty
        try Self.crossCheck(StoredController(c), as: { try $0.domain() })
        // Escapes Foundation may write (\/ and \u sequences, surrogate pairs) read back too.
        let escaped = #"{"name":"a\/b\u00e9\ud83e\udded\u0000","identifier":null}"#
        let origin = try StoredCodec.decode(StoredStoryboardOrigin.self, from: escaped)
        #expect(origin == StoredStoryboardOrigin(name: "a/bé🧭\u{0}", identifier: nil))
    }

    @Test("Numbers, optionals, nested and associated-value enumerations, empty containers")
    func shapes() throws {
        try Self.crossCheck(StoredPopoverAnchor(sourceView: nil, barButtonItem: "b", sourceRect: [0, -0.0, 0.1, 1e-7, 123456789.5, -3, 1e300]))
        try Self.crossCheck(StoredPopoverAnchor(sourceView: nil, barButtonItem: nil, sourceRect: []))
        try Self.crossCheck(StoredAnimator(name: "Fade", duration: 0.35))
        let effects: [StoredTransitionEffect] = [
            .settlePresentation("a"), .removePresentations([]), .restorePresentation("b"), .endMovingToParent(["c", "d"]),
            .detach(["e"]), .restoreStack(navigation: "n", stack: ["x", "y"], attach: []),
        ]
        try Self.crossCheck(effects)
        try Self.crossCheckCodable(TransitioningDelegate(name: "Zoom", duration: 1e-7))
        try Self.crossCheckCodable(PresentationDelegate(shouldDismiss: nil, adaptivePresentationStyle: .fullScreen))
        try Self.crossCheckCodable([String: [String]]())
        try Self.crossCheckCodable([Int.max >> 12, Int.min >> 12, 0, -1])
    }

    @Test("Dictionaries are written with sorted keys, so equal values give equal bytes")
    func dictionariesAreDeterministic() throws {
        var a: [String: Int] = [:], b: [String: Int] = [:]
        for i in 0..<200 { a["k\(i)"] = i }
        for i in (0..<200).reversed() { b["k\(i)"] = i }
        b.reserveCapacity(4096)
        #expect(try StoredCodec.encode(a) == StoredCodec.encode(b))
        #expect(try String(decoding: StoredCodec.encode(["b": 1, "a": 2]), as: UTF8.self) == #"{"a":2,"b":1}"#)
    }

    @Test("Text that is not a stored row is a thrown error, never a crash")
    func malformedTextThrows() throws {
        let good = try StoredCodec.rowText(StoredController(Controller(id: "a", kind: .viewController)))
        let bad: [String] = [
            "", "{", "[", "nul", "{\"id\":", String(good.dropLast()), good + "x", "\u{0}", "\"\\ud800\"",
            #"{"id": 1}"#, "[]", "null", "42",
            good.replacingOccurrences(of: #""isViewLoaded":false"#, with: #""isViewLoaded":"no""#),
            good.replacingOccurrences(of: #""isViewLoaded":false,"#, with: ""),
            good.replacingOccurrences(of: #""children":[]"#, with: #""children":[1]"#),
            good.replacingOccurrences(of: #""children":[]"#, with: #""children":null"#),
            String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000),
        ]
        for text in bad {
            #expect(throws: (any Error).self, "\(text.prefix(60))") { try StoredCodec.decode(StoredController.self, from: text) }
        }
        #expect(throws: (any Error).self) { try StoredCodec.decode(StoredSessionState.self, from: #"{"nextControllerNumber": 1.5}"#) }
        #expect(throws: (any Error).self) { try StoredCodec.decode(Int.self, from: "1.5") }
        #expect(throws: (any Error).self) { try StoredCodec.decode(StoredCommandReading.self, from: #"{"noSuchCase": {}}"#) }
        #expect(throws: (any Error).self) { try StoredCodec.encode([Double.nan]) }
        #expect(throws: (any Error).self) { try StoredCodec.row(StoredAnimator(name: "x", duration: .infinity)) }
    }

    @Test("A controller and its configuration share one object, as Foundation writes it")
    func flatConfiguration() throws {
        var c = Controller(id: "a", kind: .viewController)
        c.configuration.title = "T"
        let text = try StoredCodec.rowText(StoredController(c))
        let object = try #require(try JSON.parse(Array(text.utf8)).object)
        #expect(object.contains { $0.0 == "id" } && object.contains { $0.0 == "title" })
        #expect(Set(object.map(\.0)).count == object.count, "no member twice")
    }

    @Test("Row times are ISO 8601 in UTC with milliseconds, as Foundation's format style wrote them")
    func timestamps() {
        let style = Date.ISO8601FormatStyle().year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted)
        // Instants whose milliseconds are exact in binary, so both round the same way.
        for t in [0.0, 0.5, 951_782_400.25, 1_764_584_262.125, 4_102_444_799.5, 1_709_164_800.0, -86_400.75, 253_402_300_799.0] {
            let date = Date(timeIntervalSince1970: t)
            #expect(Persistence.timestamp(date) == date.formatted(style), "\(t)")
        }
        #expect(Persistence.timestamp(Date(timeIntervalSince1970: 1_764_584_262.5)) == "2025-12-01T10:17:42.500Z")
    }
}

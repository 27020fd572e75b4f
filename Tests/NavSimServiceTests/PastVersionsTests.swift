import Foundation
import JSONValues
import Testing

@testable import NavSimService
@testable import SessionFormat
@testable import SessionStorage
@testable import SQLiteStore

/// `?version=N` served from a kept checkpoint and spliced pieces (Storage/PastVersions.swift)
/// answers the very bytes a full encoding of the rebuilt state gives, cold and warm.
@Suite("History: past versions from kept checkpoints")
struct PastVersionsTests {
    /// A session whose entries touch what a controller's representation derives from its
    /// ancestors and the window: trait overrides on a container, presentations, running
    /// transitions (manual mode), window traits, pops that leave detached controllers.
    static func drive(_ h: ServiceHarness, count: Int) {
        h.makeSession("p", options: #"{"transitions": "manual"}"#)
        var depth = 0
        for i in 1...count {
            switch i % 7 {
            case 1:
                h.ok("POST", "/v1/sessions/p/controllers/nav/push", #"{"viewController": {"id": "v\#(i)"}}"#)
                depth += 1
            case 2: h.ok("POST", "/v1/sessions/p/transitions/complete", "{}")
            case 3:
                let size = i % 2 == 0 ? "regular" : "compact"
                h.ok("PATCH", "/v1/sessions/p/controllers/nav", #"{"traitOverrides": {"verticalSizeClass": "\#(size)"}}"#)
            case 4:
                h.ok(
                    "POST", "/v1/sessions/p/controllers/home/present",
                    #"{"viewController": {"id": "m\#(i)"}, "modalPresentationStyle": "fullScreen", "animated": false}"#)
            case 5: h.ok("POST", "/v1/sessions/p/controllers/home/dismiss", #"{"animated": false}"#)
            case 6 where depth > 0:
                h.ok("POST", "/v1/sessions/p/controllers/nav/pop", #"{"animated": false}"#)
                depth -= 1
            default:
                let size = i % 2 == 0 ? "regular" : "compact"
                h.ok("PATCH", "/v1/sessions/p", #"{"traits": {"horizontalSizeClass": "\#(size)"}}"#)
            }
        }
    }

    @Test func everyVersionIsTheFullEncodingColdAndWarm() throws {
        let h = try ServiceHarness()
        Self.drive(h, count: 150)
        let service = try #require(h.service)
        let createdAt = try #require(h.send("GET", "/v1/sessions/p")["createdAt"]?.string)
        let current = try #require(h.version("p"))
        // Cold reads of a block, then warm ones, in an order that visits blocks back and forth.
        let versions = Array(0..<current) + Array((0..<current).reversed())
        for version in versions {
            let read = h.send("GET", "/v1/sessions/p?version=\(version)")
            #expect(read.status == 200)
            let rows = try service.sqlite.history(session: "p", after: SessionHistory.firstRow(for: version) - 1, limit: 64)
            let state = try #require(try SessionHistory.rebuild(rows, to: version))
            let expected = Encode.session(id: "p", version: version, createdAt: createdAt, state: state)
            #expect(read.body == expected, "version \(version): the spliced bytes differ from a full encoding")
        }
        #expect(service.pastVersions.bytes > 0)
    }

    /// A late checkpoint's version is kept as its block's base once durable, from the encoding
    /// its reply already made, so the block's first read decodes no checkpoint; what it answers
    /// is still the full encoding of the stored state.
    @Test func aLateCheckpointIsKeptAsItsBlocksBaseOnceDurable() throws {
        let h = try ServiceHarness()
        Self.drive(h, count: 70)
        let service = try #require(h.service)
        let createdAt = try #require(h.send("GET", "/v1/sessions/p")["createdAt"]?.string)
        let base = try #require(
            service.pastVersions.base(PastVersions.Key(session: "p", createdAt: createdAt, checkpoint: 64)),
            "kept before any read")
        #expect(base.version == 64)
        #expect(service.waitForCheckpoints())
        let rows = try service.sqlite.history(session: "p", after: -1, limit: 65)
        let state = try #require(try SessionHistory.rebuild(rows, to: 64))
        #expect(base.encoded.body == Encode.session(id: "p", version: 64, createdAt: createdAt, state: state))
        for version in 64...70 {
            let stored = try service.sqlite.history(session: "p", after: 63, limit: version - 63)
            let expected = Encode.session(
                id: "p", version: version, createdAt: createdAt,
                state: try #require(try SessionHistory.rebuild(stored, to: version)))
            #expect(h.send("GET", "/v1/sessions/p?version=\(version)").body == expected, "version \(version)")
        }
    }

    @Test func historyPagesDoNotReadCheckpoints() throws {
        let h = try ServiceHarness()
        Self.drive(h, count: 70)
        let service = try #require(h.service)
        let rows = try service.sqlite.history(session: "p", after: 60, limit: 10, checkpoints: false)
        #expect(rows.contains { $0.version == 64 })
        #expect(rows.allSatisfy { $0.checkpoint == nil })
        #expect(service.waitForCheckpoints())
        #expect(try service.sqlite.history(session: "p", after: 63, limit: 1).first?.checkpoint != nil)
        // Each entry names the rules that produced it.
        let page = h.send("GET", "/v1/sessions/p/history?after=60&limit=5")["entries"]?.array ?? []
        #expect(page.count == 5)
        #expect(page.allSatisfy { $0["rulesVersion"]?.number == Double(RulesVersion.current) })
    }
}

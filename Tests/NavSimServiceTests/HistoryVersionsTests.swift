import Foundation
import JSONValues
import SQLite
import Testing

@testable import NavSimService
@testable import SessionFormat
import HTTPServer

/// `?version=N` answers what was true at N from stored changes and checkpoints, not by running
/// the commands again; `replay=true` runs them with the current rules (docs/history.md).
@Suite("History: past versions are rebuilt from stored changes")
struct HistoryVersionsTests {
    /// Drives `count` accepted requests on session `s` (pushes, pops, trait changes, a modal) and
    /// returns the `session` of every reply, by version (0: the creation's).
    static func drive(_ h: ServiceHarness, count: Int) -> [JSON] {
        h.makeSession("s")
        var seen = [h.send("GET", "/v1/sessions/s").json]
        var depth = 0
        for i in 1...count {
            let reply: ServiceReply
            // A third are pushes, so 200 requests stay under the session's controller limit.
            switch i % 3 {
            case 2 where depth > 0:
                reply = h.ok("POST", "/v1/sessions/s/controllers/nav/pop", "{}")
                depth -= 1
            case 0:
                let size = i % 2 == 0 ? "regular" : "compact"
                reply = h.ok("PATCH", "/v1/sessions/s", #"{"traits": {"horizontalSizeClass": "\#(size)"}}"#)
            default:
                reply = h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "v\#(i)"}}"#)
                depth += 1
            }
            #expect(reply["version"]?.number == Double(i))
            seen.append(reply["session"] ?? .null)
        }
        return seen
    }

    static func database(_ h: ServiceHarness) throws -> Connection {
        try Connection(path: h.databasePath)
    }

    @Test func everyVersionAcrossCheckpointsIsWhatTheReplySaid() throws {
        let h = try ServiceHarness()
        let seen = Self.drive(h, count: 200)
        for (version, session) in seen.enumerated() {
            let read = h.send("GET", "/v1/sessions/s?version=\(version)")
            #expect(read.status == 200)
            #expect(read.headers["etag"] == "\"\(version)\"")
            #expect(read.json == session, "version \(version) differs from its reply")
        }
        // Checkpoints are encoded and stored after their entries are durable.
        #expect(try #require(h.service).waitForCheckpoints())
        let db = try Self.database(h)
        let checkpoints = try db.query("SELECT version FROM history WHERE session_id = 's' AND checkpoint IS NOT NULL ORDER BY version")
        #expect(checkpoints.compactMap { $0.int("version") } == [64, 128, 192])
        let rules = try db.query("SELECT DISTINCT rules_version FROM history WHERE session_id = 's'")
        #expect(rules.map { $0.int("rules_version") } == [Int64(RulesVersion.current)])
        let missing = try db.query("SELECT count(*) AS n FROM history WHERE session_id = 's' AND version > 0 AND changes IS NULL")
        #expect(missing.first?.int("n") == 0)
        // After a restart the stored changes still answer the same.
        try h.restart()
        for version in [0, 63, 64, 65, 127, 128, 199, 200] {
            #expect(h.send("GET", "/v1/sessions/s?version=\(version)").json == seen[version], "version \(version) after restart")
        }
    }

    /// A rule change, simulated by rewriting what replay runs: entry 1's push becomes a no-op.
    /// The version still answers what was reported then; only `replay=true` shows the difference.
    @Test func aVersionReadAfterARuleChangeAnswersWhatWasReportedThen() throws {
        let h = try ServiceHarness()
        let seen = Self.drive(h, count: 70)
        let before = (0...70).map { h.send("GET", "/v1/sessions/s?version=\($0)").text }
        let db = try Self.database(h)
        try db.run("UPDATE history SET command = '[]' WHERE session_id = 's' AND version = 1")
        for version in 0...70 {
            #expect(h.send("GET", "/v1/sessions/s?version=\(version)").text == before[version], "version \(version) moved")
        }
        #expect(h.send("GET", "/v1/sessions/s?version=1").json == seen[1])
        let replayed = h.send("GET", "/v1/sessions/s?version=1&replay=true")
        #expect(replayed.status == 200)
        #expect(replayed.headers["etag"] == nil)
        #expect(replayed.json != seen[1])
        #expect(replayed.json == seen[0].replacingVersion(1), "the no-op replay is version 0's state")
        // Before the tampered entry, then and now agree.
        #expect(h.send("GET", "/v1/sessions/s?version=0&replay=true").json == seen[0])
        // replay=true without a version: the current version under the current rules.
        #expect(h.send("GET", "/v1/sessions/s?replay=true").status == 200)
    }

    /// Rows written before migration 0004 hold no change-set or checkpoint: they answer by replay.
    @Test func oldRowsStillAnswerByReplay() throws {
        let h = try ServiceHarness()
        let seen = Self.drive(h, count: 80)
        #expect(try #require(h.service).waitForCheckpoints())
        let db = try Self.database(h)
        try db.run("UPDATE history SET changes = NULL, checkpoint = NULL, rules_version = NULL WHERE session_id = 's'")
        for version in [0, 1, 5, 63, 64, 65, 79, 80] {
            #expect(h.send("GET", "/v1/sessions/s?version=\(version)").json == seen[version], "version \(version)")
        }
        // Without change-sets the commands are all there is: tampering them now shows.
        try db.run("UPDATE history SET command = '[]' WHERE session_id = 's' AND version = 4")
        #expect(h.send("GET", "/v1/sessions/s?version=70").json != seen[70])
    }

    /// A checkpoint is stored after its entry (encoded off the handler threads once the entry is
    /// durable), or never when the process dies first: until then a version of its block is
    /// rebuilt from the checkpoint before it, and answers the same, in every representation.
    @Test func aVersionWhoseCheckpointIsNotStoredYetIsRebuiltFromTheOneBefore() throws {
        let h = try ServiceHarness()
        let seen = Self.drive(h, count: 200)
        #expect(try #require(h.service).waitForCheckpoints())
        let versions = [199, 130, 128, 127, 70, 64, 63, 0, 192, 200]
        // Text pictures read the state through the other path (`stateAt`).
        func picture(_ version: Int) -> String {
            h.send("GET", "/v1/sessions/s?version=\(version)", headers: [("Accept", "text/plain")]).text
        }
        let pictures = versions.map(picture)
        let db = try Self.database(h)
        // Two blocks in a row without their checkpoint: 128's block starts from entry 0's state.
        try db.run("UPDATE history SET checkpoint = NULL WHERE session_id = 's' AND version IN (64, 128)")
        try h.restart()  // nothing kept from earlier reads
        for (version, text) in zip(versions, pictures) {
            #expect(h.send("GET", "/v1/sessions/s?version=\(version)").json == seen[version], "version \(version)")
            #expect(picture(version) == text, "version \(version) as text")
        }
        let service = try #require(h.service)
        #expect(
            try JSON.parse(
                Encode.session(
                    id: "s", version: 150, createdAt: try #require(seen[150]["createdAt"]?.string),
                    state: try service.stateAt("s", version: 150))) == seen[150])
        // Nothing was replayed: tampering a command changes no answer.
        try db.run("UPDATE history SET command = '[]' WHERE session_id = 's' AND version = 4")
        try h.restart()
        #expect(h.send("GET", "/v1/sessions/s?version=150").json == seen[150])
    }

    /// A late checkpoint whose commit was lost (here: removed from the store) is stored again by
    /// the first read of its block after the restart, with the very text it had, and answers
    /// stay what the replies said; later reads start from it again.
    @Test func aLostLateCheckpointIsStoredAgainByTheFirstReadOfItsBlock() throws {
        let h = try ServiceHarness()
        let seen = Self.drive(h, count: 200)
        #expect(try #require(h.service).waitForCheckpoints())
        let db = try Self.database(h)
        func checkpoints() throws -> [Int64: String] {
            var texts: [Int64: String] = [:]
            for row in try db.query("SELECT version, checkpoint FROM history WHERE session_id = 's' AND checkpoint IS NOT NULL") {
                if let v = row.int("version"), let t = row.text("checkpoint") ?? row.blob("checkpoint").map({ String(decoding: $0, as: UTF8.self) }) { texts[v] = t }
            }
            return texts
        }
        let stored = try checkpoints()
        #expect(stored.keys.sorted() == [64, 128, 192])
        try db.run("UPDATE history SET checkpoint = NULL WHERE session_id = 's' AND version IN (64, 128)")
        try h.restart()
        #expect(try checkpoints().keys.sorted() == [192], "removed")
        // 150 is in 128's block, which starts from 64's, which starts from entry 0.
        #expect(h.send("GET", "/v1/sessions/s?version=150").json == seen[150])
        #expect(try #require(h.service).waitForCheckpoints())
        #expect(try checkpoints() == stored, "both lost checkpoints are back, byte for byte")
        try h.restart()
        for version in [63, 64, 100, 127, 128, 150, 191, 200] {
            #expect(h.send("GET", "/v1/sessions/s?version=\(version)").json == seen[version], "version \(version)")
        }
        #expect(try #require(h.service).waitForCheckpoints())
        #expect(try checkpoints() == stored, "nothing else was written")
    }

    @Test func replayIsTrueOrFalse() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        expectProblem(h.send("GET", "/v1/sessions/s?version=0&replay=yes"), 422, "invalid-query")
        #expect(h.send("GET", "/v1/sessions/s?version=0&replay=false").status == 200)
    }

    @Test func storedChangeAppliesShellRemovalsAndControllers() throws {
        let h = try ServiceHarness()
        _ = Self.drive(h, count: 6)
        let db = try Self.database(h)
        let rows = try db.query("SELECT changes FROM history WHERE session_id = 's' AND version = 4")
        let text = try #require(rows.first?.text("changes"))
        let change = try Persistence.decode(StoredChange.self, text, format: 1)
        // Entry 4 pushes v4: the new controller and its navigation controller changed, and the
        // shell's order grew by v4.
        #expect(Set(change.controllers.map(\.properties.id)).isSuperset(of: ["nav", "v4"]))
        #expect(change.removed.isEmpty)
        #expect(change.shell?.order.contains("v4") == true)
        // Entry 6 changes the traits to regular.
        let traits = try #require(try db.query("SELECT changes FROM history WHERE session_id = 's' AND version = 6").first?.text("changes"))
        #expect(try Persistence.decode(StoredChange.self, traits, format: 1).shell != nil)
    }
}

extension JSON {
    /// This session object with its `version` member set to `version`.
    fileprivate func replacingVersion(_ version: Int) -> JSON {
        guard case .object(let members) = self else { return self }
        return .object(members.map { $0.0 == "version" ? ($0.0, .number(Double(version))) : $0 })
    }
}

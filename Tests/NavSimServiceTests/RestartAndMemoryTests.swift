import Foundation
import HTTPServer
import JSONValues
import NavigationCore
import SQLite
import Testing

@testable import NavSimService
@testable import SessionStorage
@testable import SQLiteStore
@testable import PostgresStore
@testable import SessionFormat
import Synchronization

/// Restart and memory: sessions load from the store on first use, idle ones
/// leave memory past the budget and come back identical, listing pages on the store's key,
/// a deletion removes the row first and the rest in chunks, and reads run on a pool.
@Suite struct RestartAndMemoryTests {
    /// Everything a client can read of a session: its JSON and tag, its history, a page of it,
    /// and every version.
    static func readable(_ h: ServiceHarness, _ sid: String) -> [String] {
        let now = h.send("GET", "/v1/sessions/\(sid)")
        let version = Int(now.headers["etag"]?.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) ?? "") ?? -1
        var out = ["\(now.status) \(now.headers["etag"] ?? "-") \(now.text)"]
        for path in ["/history?after=-1&limit=1000", "/history?after=1&limit=2"] + (0...max(version, 0)).map({ "?version=\($0)" }) {
            let r = h.send("GET", "/v1/sessions/\(sid)\(path)")
            out.append("\(path) \(r.status) \(r.headers["etag"] ?? "-") \(r.text)")
        }
        return out
    }

    func state(_ h: ServiceHarness, _ sid: String) -> SessionState? {
        try? h.service?.sessions.box(sid)?.withLock { .success($0?.state) }.get()
    }

    @Test("A session loaded on first use after a restart equals the one start-up used to decode, for every kind of session")
    func lazyLoadEqualsEagerLoad() throws {
        let h = try ServiceHarness()
        try StoredFormatTests.populate(h)
        let before = StoredFormatTests.sessions.map { Self.readable(h, $0) }
        try h.restart()
        let service = try #require(h.service)
        #expect(service.sessions.resident.load(ordering: .relaxed) == 0, "start-up decodes no session")
        #expect(service.sessions.count == StoredFormatTests.sessions.count)
        // What the eager start-up decoded: every stored session at once.
        let eager = try Dictionary(
            uniqueKeysWithValues: service.sqlite.loadSessions().map {
                ($0.session.id, try Persistence.decodeState($0))
            })
        for (sid, readBefore) in zip(StoredFormatTests.sessions, before) {
            #expect(try #require(service.sessions.box(sid)).isResident == false)
            #expect(Self.readable(h, sid) == readBefore, "session \(sid) read lazily after the restart")
            #expect(state(h, sid) == eager[sid], "session \(sid): lazy and eager decoding agree")
        }
        #expect(service.sessions.resident.load(ordering: .relaxed) == StoredFormatTests.sessions.count)
    }

    @Test("Past the budget an idle session leaves memory and comes back with the same bytes, tag and history")
    func evictionIsInvisible() throws {
        let h = try ServiceHarness(loadedSessions: 2)
        try StoredFormatTests.populate(h)
        let service = try #require(h.service)
        #expect(service.sessions.resident.load(ordering: .relaxed) <= 2 + 1)
        for sid in StoredFormatTests.sessions {
            let first = Self.readable(h, sid)
            let live = state(h, sid)
            // Using every other session pushes this one out.
            for other in StoredFormatTests.sessions where other != sid { _ = h.send("GET", "/v1/sessions/\(other)") }
            #expect(try #require(service.sessions.box(sid)).isResident == false, "\(sid) was evicted")
            #expect(Self.readable(h, sid) == first, "session \(sid) after its eviction")
            #expect(state(h, sid) == live)
        }
        #expect(service.sessions.resident.load(ordering: .relaxed) <= 2)
        #expect(service.sessions.cachedBytes.load(ordering: .relaxed) >= 0)
        // A write to an evicted session continues from its stored version.
        for other in ["tabs", "split", "classic"] { _ = h.send("GET", "/v1/sessions/\(other)") }
        #expect(try #require(service.sessions.box("nav")).isResident == false)
        let version = try #require(h.version("nav"))
        h.ok("PATCH", "/v1/sessions/nav/controllers/nav", #"{"title": "After eviction"}"#)
        #expect(h.version("nav") == version + 1)
    }

    @Test("An evicted session gives back its cached bytes")
    func evictionFreesTheCache() throws {
        let h = try ServiceHarness(loadedSessions: 1)
        h.makeSession("a")
        h.ok("GET", "/v1/sessions/a")
        let one = h.service?.sessions.cachedBytes.load(ordering: .relaxed) ?? 0
        #expect(one > 0)
        h.makeSession("b")
        h.ok("GET", "/v1/sessions/b")
        h.ok("GET", "/v1/sessions/b")
        #expect(try #require(h.service?.sessions.box("a")).isResident == false)
        #expect(h.service?.sessions.cachedBytes.load(ordering: .relaxed) == one, "only b's bytes are cached")
    }

    @Test("Listing pages are the same before and after a restart, and page on past a deleted id")
    func listingSurvivesRestart() throws {
        let h = try ServiceHarness()
        for sid in ["k3", "a1", "z9", "b2", "m5", "é7", "B0"] { h.makeSession(sid) }
        h.ok("PATCH", "/v1/sessions/m5/controllers/nav", #"{"title": "x"}"#)
        func pages() -> [String] {
            var out: [String] = []
            var after: String?
            repeat {
                let r = h.send("GET", "/v1/sessions?limit=2" + (after.map { "&after=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" } ?? ""))
                out.append(r.text)
                after = r.json["next"]?.string
            } while after != nil && out.count < 10
            return out
        }
        let before = pages()
        #expect(before.count == 4)
        #expect(before.joined().contains(#""id":"m5","version":1"#))
        let ids = before.compactMap { try? JSON.parse(Array($0.utf8))["sessions"]?.array }.flatMap { $0 }.compactMap { $0["id"]?.string }
        #expect(ids == ["B0", "a1", "b2", "k3", "m5", "z9", "é7"])
        try h.restart()
        #expect(pages() == before)
        h.ok("DELETE", "/v1/sessions/b2", status: 204)
        let after = h.send("GET", "/v1/sessions?limit=2&after=b2")
        #expect(after.json["sessions"]?.array?.compactMap { $0["id"]?.string } == ["k3", "m5"])
    }

    @Test("DELETE: the row goes first (404 at once), the rest in chunks; creating the id again starts afresh")
    func deleteIsChunked() throws {
        let h = try ServiceHarness()
        h.makeSession("long")
        h.makeSession("other")
        for i in 0..<30 { h.ok("PATCH", "/v1/sessions/long/controllers/nav", #"{"title": "t\#(i)"}"#) }
        let store = try #require(h.service?.sqlite)
        let otherBefore = Self.readable(h, "other")
        #expect(try store.childRowCount(session: "long") == 31 + 2)
        h.ok("DELETE", "/v1/sessions/long", status: 204)
        expectProblem(h.send("GET", "/v1/sessions/long"), 404, "unknown-session")
        expectProblem(h.send("GET", "/v1/sessions/long/history"), 404, "unknown-session")
        store.waitForDeletions()
        #expect(try store.childRowCount(session: "long") == 0)
        #expect(store.pendingDeletionIDs.isEmpty)
        h.makeSession("long")
        #expect(h.send("GET", "/v1/sessions/long/history?after=-1").json["entries"]?.array?.count == 1)
        #expect(Self.readable(h, "other") == otherBefore)
    }

    @Test("A crash between chunks leaves nothing visible, and start-up finishes the removal")
    func crashBetweenChunks() throws {
        let h = try ServiceHarness()
        h.makeSession("long")
        h.makeSession("kept")
        for i in 0..<30 { h.ok("PATCH", "/v1/sessions/long/controllers/nav", #"{"title": "t\#(i)"}"#) }
        let kept = Self.readable(h, "kept")
        let store = try #require(h.service?.sqlite)
        // What DELETE does, stopped after two chunks of five rows: then the process dies.
        try store.deleteSession("long", sweep: false)
        #expect(try store.sweepDeletion("long", chunkRows: 5, maxChunks: 2) == false)
        #expect(try store.childRowCount(session: "long") == 33 - 10)
        #expect(try store.loadSession("long") == nil)
        #expect(store.pendingDeletionIDs == ["long"])
        try h.restart()
        expectProblem(h.send("GET", "/v1/sessions/long"), 404, "unknown-session")
        expectProblem(h.send("GET", "/v1/sessions/long/history"), 404, "unknown-session")
        #expect(!h.send("GET", "/v1/sessions").text.contains("long"))
        let reopened = try #require(h.service?.sqlite)
        reopened.waitForDeletions()
        #expect(try reopened.childRowCount(session: "long") == 0)
        #expect(reopened.pendingDeletionIDs.isEmpty)
        #expect(Self.readable(h, "kept") == kept)
    }

    @Test("A sweep stops at a session created again under the deleted id")
    func sweepSparesARecreatedSession() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        for i in 0..<5 { h.ok("PATCH", "/v1/sessions/s/controllers/nav", #"{"title": "t\#(i)"}"#) }
        let store = try #require(h.service?.sqlite)
        try store.deleteSession("s", sweep: false)
        try store.finishDeletion("s")
        #expect(try store.childRowCount(session: "s") == 0)
        // A new session under the id (as POST /v1/sessions writes it), then a late chunk of the old sweep.
        let fresh = LiveSession(
            id: "s", createdAt: "2026-01-01T00:00:00.000Z", version: 0,
            state: try #require(state(h, "s")))
        try store.commit(try Persistence.creation(fresh))
        let rows = try store.childRowCount(session: "s")
        #expect(rows > 0)
        #expect(try store.sweepDeletion("s", chunkRows: 1) == true)
        #expect(try store.childRowCount(session: "s") == rows)
    }

    @Test("The reader pool serves a second read while one is in flight; a pool of one cannot", arguments: [4, 1])
    func readerPool(readers: Int) throws {
        let directory = NSTemporaryDirectory() + "ReaderPool-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SessionStore(
            path: directory + "/navsim.sqlite", migrationsDirectory: ServiceFiles.migrations,
            readers: readers)
        try store.commit(SessionCommit(session: SessionRow(id: "s", version: 0, createdAt: "t", state: "{}")))
        let inner = try store.read { _ in
            try store.readIfAvailable { db in try db.query("SELECT count(*) FROM sessions").first?.int(0) }
        }
        if readers > 1 {
            #expect(inner?.value == 1, "a second reader answered while the first was held")
        } else {
            #expect(inner == nil, "the only reader was busy")
        }
        #expect(try store.sessionPage(after: nil, limit: 10).map(\.id) == ["s"])
    }
}

import Foundation
import HTTPServer
import NavigationCore
import SQLite
import JSONValues
import Testing

@testable import NavSimService
@testable import SessionFormat
@testable import SessionStorage
@testable import SQLiteStore

/// The store's write path: a later version updates its session row in
/// place, a controller whose links stay has only its body rewritten, and neither ever loses a
/// row the upsert would have written.
@Suite("Store write path")
struct StoreWritePathTests {
    static func withStore<T>(_ body: (SessionStore, String) throws -> T) throws -> T {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("StoreWritePathTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = (directory as NSString).appendingPathComponent("navsim.sqlite")
        return try body(try SessionStore(path: path, migrationsDirectory: ServiceFiles.migrations), path)
    }

    static func session(_ id: String, version: Int, state: String = "{}") -> SessionRow {
        SessionRow(id: id, version: version, createdAt: "2026-01-01T00:00:00Z", state: state)
    }

    static func entry(_ version: Int) -> HistoryRow {
        HistoryRow(
            version: version, at: "2026-01-01T00:00:01Z", method: "PATCH", path: "/v1/sessions/s/controllers/top",
            body: #"{"title":"t"}"#, command: "[]", result: "{}")
    }

    @Test("A body-only update keeps the row's links; an id named unchanged that has no row is inserted whole")
    func bodyOnlyUpdates() throws {
        try Self.withStore { store, path in
            let nav = ControllerRow(id: "nav", body: "{}")
            let top = ControllerRow(id: "top", parent: "nav", presented: "modal", body: #"{"title":"a"}"#)
            let modal = ControllerRow(id: "modal", presenting: "top", body: "{}")
            try store.commit(SessionCommit(session: Self.session("s", version: 0), upsertedControllers: [nav, top, modal]))

            var retitled = top
            retitled.body = #"{"title":"b"}"#
            let ghost = ControllerRow(id: "ghost", parent: "nav", presenting: "top", body: #"{"ghost":true}"#)
            try store.commit(
                SessionCommit(
                    session: Self.session("s", version: 1, state: #"{"v":1}"#),
                    upsertedControllers: [retitled, ghost], history: Self.entry(1),
                    linksUnchanged: ["top", "ghost"]))
            let loaded = try #require(try store.loadSession("s"))
            #expect(loaded.session == Self.session("s", version: 1, state: #"{"v":1}"#))
            #expect(loaded.controllers == [ghost, modal, nav, retitled])
            // The link indexes agree with the rows (the body-only update left them as they were).
            let db = try Connection(path: path, readOnly: true)
            let byParent = try db.query("SELECT id FROM controllers INDEXED BY controllers_by_parent WHERE session_id = 's' AND parent = 'nav' ORDER BY id")
            #expect(byParent.compactMap { $0.text(0) } == ["ghost", "top"])
            let byPresenting = try db.query("SELECT id FROM controllers INDEXED BY controllers_by_presenting WHERE session_id = 's' AND presenting = 'top' ORDER BY id")
            #expect(byPresenting.compactMap { $0.text(0) } == ["ghost", "modal"])
            #expect(try db.query("PRAGMA integrity_check").first?.text(0) == "ok")
        }
    }

    @Test("A later version of a session with no row yet is still written (the update falls back to the upsert)")
    func laterVersionWithoutRow() throws {
        try Self.withStore { store, _ in
            try store.commit(SessionCommit(session: Self.session("late", version: 3, state: #"{"v":3}"#)))
            #expect(try store.loadSession("late")?.session == Self.session("late", version: 3, state: #"{"v":3}"#))
            try store.commit(SessionCommit(session: Self.session("late", version: 4, state: #"{"v":4}"#), history: Self.entry(4)))
            #expect(try store.loadSession("late")?.session == Self.session("late", version: 4, state: #"{"v":4}"#))
        }
    }

    @Test("A commit names as unchanged exactly the changed controllers whose parent and presentation links stay")
    func persistenceNamesUnchangedLinks() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        let live = try #require(try? h.service?.sessions.box("s")?.withLock { .success($0) }.get())
        let old = live.state
        func commit(_ change: (inout SessionState) -> Void, changed: [ControllerID]) throws -> SessionCommit {
            var new = old
            change(&new)
            return try Persistence.commit(
                TurnRecord(
                    session: "s", createdAt: live.createdAt, version: live.version + 1, old: old, shell: nil, new: new,
                    changed: changed, at: "now", request: HTTPRequest(method: "PATCH", path: "/"), body: .object([]),
                    commands: [], result: Array("null".utf8))
            ).0
        }
        #expect(try commit({ $0.controllers["home"]?.configuration.title = "x" }, changed: ["home"]).linksUnchanged == ["home"])
        #expect(try commit({ $0.controllers["home"]?.presentedID = "other" }, changed: ["home"]).linksUnchanged == [])
        #expect(try commit({ $0.controllers["home"]?.parent = nil }, changed: ["home", "nav"]).linksUnchanged == ["nav"])
        var created = Controller(id: "new", kind: .viewController)
        created.parent = "nav"
        #expect(try commit({ $0.controllers["new"] = created }, changed: ["new"]).linksUnchanged == [])
    }

    @Test("PATCHes that only retitle write the same rows a restart reads back")
    func retitlesSurviveARestart() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        for i in 0..<5 {
            #expect(h.send("PATCH", "/v1/sessions/s/controllers/home", #"{"title":"t\#(i)"}"#).status == 200)
        }
        let before = h.send("GET", "/v1/sessions/s")
        try h.restart()
        let after = h.send("GET", "/v1/sessions/s")
        #expect(after.status == 200)
        #expect(after.body == before.body)
        #expect(after["controllers"]?["home"]?["title"]?.string == "t4")
    }
}

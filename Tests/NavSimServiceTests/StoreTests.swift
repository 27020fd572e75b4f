import Foundation
import SQLite
import Synchronization
import Testing

@testable import NavSimService
@testable import SessionStorage
@testable import SQLiteStore

/// The repository's `migrations` folder: the schema under test is the one the service ships.
private let migrationsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // NavSimServiceTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // repository root
    .appendingPathComponent("migrations").path

/// Runs `body` with the path of a database file in a fresh directory that is removed afterwards.
private func withDatabasePath<T>(_ body: (String) throws -> T) throws -> T {
    let directory = (NSTemporaryDirectory() as NSString)
        .appendingPathComponent("StoreTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    return try body((directory as NSString).appendingPathComponent("navsim.sqlite"))
}

private func withStore<T>(_ body: (SessionStore) throws -> T) throws -> T {
    try withDatabasePath { path in
        try body(try SessionStore(path: path, migrationsDirectory: migrationsDirectory))
    }
}

private func session(_ id: String, version: Int = 0, state: String = #"{"traits":{}}"#) -> SessionRow {
    SessionRow(id: id, version: version, createdAt: "2026-01-01T00:00:00Z", state: state)
}

private func entry(_ version: Int, path: String = "/sessions/s/present") -> HistoryRow {
    HistoryRow(
        version: version, at: "2026-01-01T00:00:0\(version % 10)Z", method: "POST", path: path,
        body: #"{"v":\#(version)}"#, command: #"[{"present":\#(version)}]"#, result: #"{"events":[]}"#)
}

/// A session creation followed by `count` operations, each adding one controller.
private func commits(for id: String, operations count: Int) -> [SessionCommit] {
    let root = ControllerRow(id: "root", body: #"{"class":"UINavigationController"}"#)
    var commits = [SessionCommit(session: session(id), upsertedControllers: [root])]
    for version in stride(from: 1, through: count, by: 1) {
        let child = ControllerRow(id: "c\(version)", parent: "root", body: #"{"n":\#(version)}"#)
        commits.append(
            SessionCommit(session: session(id, version: version), upsertedControllers: [child], history: entry(version)))
    }
    return commits
}

/// Runs `body(0..<count)` on `count` threads of its own and waits for all of them.
///
/// Real threads rather than `DispatchQueue.concurrentPerform`, which runs no more workers than
/// there are cores: on a 2-core machine at most two commits would ever be in flight.
private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread {
            body(index)
            done.leave()
        }.start()
    }
    done.wait()
}

private func stored(_ store: SessionStore, _ id: String) throws -> StoredSession? {
    try store.loadSessions().first { $0.session.id == id }
}

@Suite("SessionStore")
struct StoreTests {
    @Test("a new database gets the schema from migrations/")
    func schema() throws {
        try withDatabasePath { path in
            _ = try SessionStore(path: path, migrationsDirectory: migrationsDirectory)
            let db = try Connection(path: path, readOnly: true)
            let tables = try db.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
                .compactMap { $0.text(0) }
            #expect(tables == ["controllers", "history", "pending_deletions", "sessions", "storyboard_revision", "storyboards"])
            let indexes = try db.query(
                "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
            ).compactMap { $0.text(0) }
            #expect(indexes == ["controllers_by_parent", "controllers_by_presenting"])
            #expect(try db.userVersion == 7)
            #expect(try db.query("PRAGMA journal_mode").first?.text(0) == "wal")
        }
    }

    @Test("what was committed comes back identical from a new store on the same file")
    func reopen() throws {
        try withDatabasePath { path in
            let nav = ControllerRow(id: "nav", body: #"{"class":"UINavigationController"}"#)
            let top = ControllerRow(id: "top", parent: "nav", presented: "modal", body: #"{"title":"Ünïcödé"}"#)
            let modal = ControllerRow(id: "modal", presenting: "top", body: "{}")
            let withoutBody = HistoryRow(
                version: 2, at: "2026-01-01T00:00:02Z", method: "DELETE", path: "/sessions/a/presented",
                body: nil, command: "[]", result: "{}")
            do {
                let store = try SessionStore(path: path, migrationsDirectory: migrationsDirectory)
                try store.commit(SessionCommit(session: session("a"), upsertedControllers: [nav]))
                try store.commit(
                    SessionCommit(session: session("a", version: 1), upsertedControllers: [top, modal], history: entry(1)))
                try store.commit(SessionCommit(session: session("a", version: 2, state: "{}"), history: withoutBody))
                try store.commit(SessionCommit(session: session("b")))
            }
            let store = try SessionStore(path: path, migrationsDirectory: migrationsDirectory)
            #expect(
                try store.loadSessions() == [
                    StoredSession(session: session("a", version: 2, state: "{}"), controllers: [modal, nav, top]),
                    StoredSession(session: session("b"), controllers: []),
                ])
            #expect(try store.history(session: "a", after: 0, limit: 10) == [entry(1), withoutBody])
            #expect(try store.history(session: "b", after: 0, limit: 10) == [])
        }
    }

    @Test("an upserted controller replaces its row; deleted controllers are gone")
    func controllers() throws {
        try withStore { store in
            let a = ControllerRow(id: "a", body: "{}")
            let b = ControllerRow(id: "b", parent: "a", body: "{}")
            try store.commit(SessionCommit(session: session("s"), upsertedControllers: [a, b]))

            let movedB = ControllerRow(id: "b", presenting: "a", body: #"{"moved":true}"#)
            let c = ControllerRow(id: "c", body: "{}")
            try store.commit(
                SessionCommit(
                    session: session("s", version: 1), upsertedControllers: [movedB, c], deletedControllers: ["a"],
                    history: entry(1)))
            #expect(try stored(store, "s")?.controllers == [movedB, c])

            // An id in both lists ends up present: deletions are applied first.
            let newC = ControllerRow(id: "c", body: #"{"new":true}"#)
            try store.commit(
                SessionCommit(
                    session: session("s", version: 2), upsertedControllers: [newC], deletedControllers: ["c", "unknown"],
                    history: entry(2)))
            #expect(try stored(store, "s")?.controllers == [movedB, newC])
        }
    }

    @Test("upserting the session row keeps its controllers and history")
    func sessionUpsertDoesNotCascade() throws {
        try withStore { store in
            for commit in commits(for: "s", operations: 3) { try store.commit(commit) }
            try store.commit(SessionCommit(session: session("s", version: 3, state: #"{"changed":1}"#)))
            let loaded = try #require(try stored(store, "s"))
            #expect(loaded.session == session("s", version: 3, state: #"{"changed":1}"#))
            #expect(loaded.controllers.count == 4)
            #expect(try store.historyCount(session: "s") == 3)
        }
    }

    @Test("deleteSession removes the row, then the controllers and history, and leaves other sessions alone")
    func deleteSession() throws {
        try withDatabasePath { path in
            let store = try SessionStore(path: path, migrationsDirectory: migrationsDirectory)
            for commit in commits(for: "gone", operations: 3) + commits(for: "kept", operations: 2) {
                try store.commit(commit)
            }
            try store.deleteSession("gone")
            try store.deleteSession("never-existed")
            #expect(try store.loadSessions().map(\.session.id) == ["kept"])
            store.waitForDeletions()  // the chunks run after the reply
            #expect(store.pendingDeletionIDs.isEmpty)

            #expect(try store.historyCount(session: "gone") == 0)
            #expect(try store.historyCount(session: "kept") == 2)
            // The rows themselves are gone, not merely unreachable through `sessions`.
            let db = try Connection(path: path, readOnly: true)
            let orphans = try db.query(
                "SELECT (SELECT count(*) FROM controllers WHERE session_id = 'gone') + (SELECT count(*) FROM history WHERE session_id = 'gone')")
            #expect(orphans.first?.int(0) == 0)
        }
    }

    @Test("history pages by version: after is exclusive, limit caps, order ascends")
    func historyPaging() throws {
        try withStore { store in
            for commit in commits(for: "s", operations: 7) + commits(for: "other", operations: 2) {
                try store.commit(commit)
            }
            #expect(try store.historyCount(session: "s") == 7)
            #expect(try store.historyCount(session: "unknown") == 0)
            #expect(try store.history(session: "s", after: 0, limit: 3).map(\.version) == [1, 2, 3])
            #expect(try store.history(session: "s", after: 3, limit: 3).map(\.version) == [4, 5, 6])
            #expect(try store.history(session: "s", after: 6, limit: 3).map(\.version) == [7])
            #expect(try store.history(session: "s", after: 7, limit: 3) == [])
            #expect(try store.history(session: "s", after: 2, limit: 0) == [])
            #expect(try store.history(session: "s", after: 6, limit: 100) == [entry(7)])
            #expect(try store.history(session: "unknown", after: 0, limit: 10) == [])
        }
    }

    @Test("16 threads × 50 commits to distinct sessions all succeed and are readable")
    func groupCommit() throws {
        try withStore { store in
            let threads = 16
            let perThread = 50
            let failures = Mutex<[String]>([])
            onThreads(threads) { thread in
                // One session per thread, so each thread's versions arrive in order as the
                // service's per-session lock would guarantee.
                for commit in commits(for: "t\(thread)", operations: perThread - 1) {
                    do { try store.commit(commit) } catch { failures.withLock { $0.append("\(error)") } }
                }
            }
            #expect(failures.withLock { $0 } == [])

            let sessions = try store.loadSessions()
            #expect(sessions.count == threads)
            for stored in sessions {
                #expect(stored.session.version == perThread - 1)
                #expect(stored.controllers.count == perThread)
                #expect(try store.historyCount(session: stored.session.id) == perThread - 1)
            }
            let statistics = store.statistics
            #expect(statistics.commits == threads * perThread)
            // How many commits share a transaction depends on timing; only the bounds are fixed.
            #expect((1...threads * perThread).contains(statistics.batches))
            #expect((1...threads).contains(statistics.largestBatch))
        }
    }

    @Test("a failing commit throws for its caller only; the rest of its batch is durable")
    func failureIsolatedInBatch() throws {
        try withDatabasePath { path in
            do {
                let store = try SessionStore(path: path, migrationsDirectory: migrationsDirectory)
                try store.commit(SessionCommit(session: session("s")))
                try store.commit(SessionCommit(session: session("s", version: 1), history: entry(1)))

                let duplicate = SessionCommit(
                    session: session("s", version: 1, state: #"{"must":"not stick"}"#),
                    upsertedControllers: [ControllerRow(id: "must-not-stick", body: "{}")], history: entry(1))
                let results = store.commitBatch([
                    SessionCommit(session: session("before"), upsertedControllers: [ControllerRow(id: "x", body: "{}")]),
                    duplicate,
                    SessionCommit(session: session("s", version: 2), history: entry(2)),
                ])
                #expect(results.count == 3)
                #expect(throws: Never.self) { try results[0].get() }
                #expect(throws: Never.self) { try results[2].get() }
                let error = try #require(throws: SQLiteError.self) { try results[1].get() }
                #expect(error.code == 1555)  // SQLITE_CONSTRAINT_PRIMARYKEY
                let statistics = store.statistics
                #expect(statistics.commits == 5)
                #expect(statistics.batches == 3)
                #expect(statistics.largestBatch == 3)

                // Through commit(), the caller gets the error too.
                #expect(throws: SQLiteError.self) { try store.commit(duplicate) }
            }
            let store = try SessionStore(path: path, migrationsDirectory: migrationsDirectory)
            #expect(
                try store.loadSessions() == [
                    StoredSession(session: session("before"), controllers: [ControllerRow(id: "x", body: "{}")]),
                    StoredSession(session: session("s", version: 2), controllers: []),
                ])
            #expect(try store.history(session: "s", after: 0, limit: 10) == [entry(1), entry(2)])
        }
    }

    @Test("a batch whose commits all succeed takes no savepoint; one that fails is written again with them")
    func batchWithoutSavepoints() throws {
        try withStore { store in
            for id in ["a", "b", "c"] { try store.commit(SessionCommit(session: session(id))) }
            // BEGIN, then per commit its session row and its entry, then COMMIT: with a savepoint
            // per commit it would be 3 × 4 + 2.
            var before = store.writerStatements
            let clean = store.commitBatch(["a", "b", "c"].map { SessionCommit(session: session($0, version: 1), history: entry(1)) })
            #expect(clean.allSatisfy { (try? $0.get()) != nil })
            #expect(store.writerStatements - before == 3 * 2 + 2)

            // b's entry 1 exists: the attempt without savepoints stops there and rolls back
            // (BEGIN, a's 2, b's 2, ROLLBACK), then the batch is written with a savepoint each:
            // BEGIN, SAVEPOINT + 2 + RELEASE for a and c, b's SAVEPOINT + 2 + ROLLBACK TO +
            // RELEASE, COMMIT.
            before = store.writerStatements
            let mixed = store.commitBatch([
                SessionCommit(session: session("a", version: 2), history: entry(2)),
                SessionCommit(session: session("b", version: 1, state: #"{"must":"not stick"}"#), history: entry(1)),
                SessionCommit(session: session("c", version: 2), history: entry(2)),
            ])
            #expect((try? mixed[0].get()) != nil)
            #expect(throws: SQLiteError.self) { try mixed[1].get() }
            #expect((try? mixed[2].get()) != nil)
            #expect(store.writerStatements - before == 6 + (1 + 4 + 5 + 4 + 1))
            #expect(try store.loadSession("b")?.session == session("b", version: 1))
            #expect(try store.history(session: "a", after: 0, limit: 10) == [entry(1), entry(2)])
            #expect(try store.history(session: "c", after: 0, limit: 10) == [entry(1), entry(2)])
        }
    }

    @Test("commit returns only after COMMIT: a second connection sees the data at once")
    func committedOnReturn() throws {
        try withDatabasePath { path in
            let store = try SessionStore(path: path, migrationsDirectory: migrationsDirectory)
            try store.commit(SessionCommit(session: session("s", version: 1), history: entry(1)))
            // A separate connection only ever sees committed transactions; the writer holds no
            // transaction open once commit() has returned.
            let other = try Connection(path: path, readOnly: true)
            #expect(try other.query("SELECT version FROM sessions WHERE id = 's'").first?.int(0) == 1)
            #expect(try other.query("SELECT count(*) FROM history").first?.int(0) == 1)
            // Pragmas the durability claim rests on.
            let writer = try Connection(path: path)
            #expect(try writer.query("PRAGMA journal_mode").first?.text(0) == "wal")
        }
    }

    @Test("storyboards: put, replace, delete, load")
    func storyboards() throws {
        try withStore { store in
            let xml = Array(#"<?xml version="1.0" encoding="UTF-8"?><document/>"#.utf8) + [0x00, 0xFF]
            let main = StoredStoryboard(name: "Main", xml: xml, customSegues: #"["FadeSegue"]"#, updatedAt: "t1")
            let empty = StoredStoryboard(name: "Empty", xml: [], updatedAt: "t1")
            try store.putStoryboard(main)
            try store.putStoryboard(empty)
            #expect(try store.loadStoryboards() == [empty, main])

            let replaced = StoredStoryboard(name: "Main", xml: Array("<document/>".utf8), updatedAt: "t2")
            try store.putStoryboard(replaced)
            #expect(try store.loadStoryboards() == [empty, replaced])

            #expect(try store.deleteStoryboard("Main"))
            #expect(try !store.deleteStoryboard("Main"))
            #expect(try store.loadStoryboards() == [empty])
        }
    }
}

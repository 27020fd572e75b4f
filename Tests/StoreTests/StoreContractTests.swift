import Dispatch
import Foundation
import NavSimService
import PostgreSQL
import SQLite
import Synchronization
import StoreTestSupport
import Testing
import SessionStorage
import SQLiteStore
import PostgresStore

private let noPostgres = "NAVSIM_TEST_POSTGRES is not set (scripts/pg-cluster.sh start prints a URL): store cases ran on SQLite only"

/// What every `SessionStoring` must do (the protocol's doc comment), run on each store.
@Suite("Store contract")
struct StoreContractTests {
    @Test(
        "commits, storyboards and history come back identical from a new store on the same database",
        arguments: stores)
    func roundTrip(_ kind: StoreKind) throws {
        try kind.with { db in
            let xml: [UInt8] = Array("<?xml version=\"1.0\"?><document/>".utf8) + [0, 0xFF, 0x5C, 0x78]
            let storyboards = [
                StoredStoryboard(
                    name: "Main", xml: xml, customSegues: #"{"Fade":{}}"#, classes: #"{"A":{}}"#,
                    updatedAt: "2026-01-01T00:00:00Z"),
                StoredStoryboard(name: "Other", xml: [], updatedAt: "2026-01-02T00:00:00Z"),
            ]
            do {
                let store = try db.open()
                for commit in commits(for: "a", operations: 3) + commits(for: "b", operations: 1) {
                    try store.commit(commit)
                }
                // An operation that replaces one controller and removes another.
                try store.commit(
                    SessionCommit(
                        session: session("a", version: 4, state: #"{"after":4}"#),
                        upsertedControllers: [ControllerRow(id: "c1", parent: "root", presented: "c3", body: #"{"n":"new"}"#)],
                        deletedControllers: ["c2", "never-existed"],
                        history: entry(4, checkpoint: #"{"whole":true}"#)))
                try store.putStoryboards(storyboards)
            }
            let store = try db.open()
            let loaded = try store.allSessions()
            #expect(loaded.map(\.session) == [session("a", version: 4, state: #"{"after":4}"#), session("b", version: 1)])
            #expect(
                loaded.first?.controllers == [
                    ControllerRow(id: "c1", parent: "root", presented: "c3", body: #"{"n":"new"}"#),
                    ControllerRow(id: "c3", parent: "root", body: #"{"n":3}"#),
                    ControllerRow(id: "root", body: #"{"class":"UINavigationController"}"#),
                ])
            let expectedHistory = commits(for: "a", operations: 3).compactMap(\.history) + [entry(4, checkpoint: #"{"whole":true}"#)]
            #expect(try store.history(session: "a", after: -1, limit: 100, checkpoints: true) == expectedHistory)
            #expect(try store.historyCount(session: "a") == 5)
            #expect(try store.historyCount(session: "nobody") == 0)
            #expect(try store.loadStoryboards() == storyboards)
            #expect(try store.deleteStoryboard("Other"))
            #expect(try !store.deleteStoryboard("Other"))
            #expect(try store.loadStoryboards().map(\.name) == ["Main"])
        }
    }

    @Test(
        "a checkpoint stored after its entry fills that entry only, never over one, never another incarnation's, and fails no other commit",
        arguments: stores)
    func laterCheckpoints(_ kind: StoreKind) throws {
        try kind.with { db in
            let store = try db.open()
            for commit in commits(for: "s", operations: 3) { try store.commit(commit) }
            let createdAt = session("s").createdAt
            try store.commit(.checkpoint(session: "s", createdAt: createdAt, version: 2, text: #"{"whole":2}"#))
            // Never over a stored one; not for an entry that does not exist; not for a session created at another time.
            try store.commit(.checkpoint(session: "s", createdAt: createdAt, version: 2, text: #"{"whole":"again"}"#))
            try store.commit(.checkpoint(session: "s", createdAt: createdAt, version: 9, text: #"{"whole":9}"#))
            try store.commit(.checkpoint(session: "s", createdAt: "2027-01-01T00:00:00Z", version: 3, text: #"{"other":3}"#))
            let rows = try store.history(session: "s", after: -1, limit: 10, checkpoints: true)
            #expect(rows.map(\.checkpoint) == [nil, nil, #"{"whole":2}"#, nil])
            // The session row and its version are untouched.
            #expect(try store.loadSession("s")?.session.version == 3)
            // Between a session's pipelined commits, a checkpoint neither breaks nor ends the chain.
            let next = SessionCommit(session: session("s", version: 4), history: entry(4), followsPending: true)
            let done = Mutex<[Bool]>([])
            let finished = DispatchSemaphore(value: 0)
            for commit in [
                next, .checkpoint(session: "s", createdAt: createdAt, version: 3, text: #"{"whole":3}"#),
                SessionCommit(session: session("s", version: 5), history: entry(5), followsPending: true),
            ] {
                store.enqueue(commit) { result in
                    done.withLock { $0.append((try? result.get()) != nil) }
                    finished.signal()
                }
            }
            for _ in 0..<3 { finished.wait() }
            #expect(done.withLock { $0 } == [true, true, true])
            #expect(
                try store.history(session: "s", after: 2, limit: 10, checkpoints: true).map(\.checkpoint)
                    == [#"{"whole":3}"#, nil, nil])
        }
    }

    @Test("history pages: after is exclusive, limit caps, ascending", arguments: stores)
    func historyPages(_ kind: StoreKind) throws {
        try kind.with { db in
            let store = try db.open()
            for commit in commits(for: "s", operations: 7) { try store.commit(commit) }
            #expect(try store.history(session: "s", after: 2, limit: 3, checkpoints: true).map(\.version) == [3, 4, 5])
            #expect(try store.history(session: "s", after: 6, limit: 10, checkpoints: true).map(\.version) == [7])
            #expect(try store.history(session: "s", after: 0, limit: 0, checkpoints: true) == [])
            #expect(try store.history(session: "other", after: -1, limit: 10, checkpoints: true) == [])
        }
    }

    @Test(
        "a refused commit writes nothing: its session row, controllers and entry stay as before",
        arguments: stores)
    func refusedCommitWritesNothing(_ kind: StoreKind) throws {
        try kind.with { db in
            let store = try db.open()
            for commit in commits(for: "s", operations: 1) { try store.commit(commit) }
            let before = try store.allSessions()
            // Version 2 on stored version 1, but carrying entry 1 again: the history insert fails
            // after the session row and a controller were already written in its transaction.
            let refused = SessionCommit(
                session: session("s", version: 2, state: #"{"must":"not stick"}"#),
                upsertedControllers: [ControllerRow(id: "must-not-stick", body: "{}")],
                deletedControllers: ["root"], history: entry(1))
            #expect(throws: (any Error).self) { try store.commit(refused) }
            #expect(try store.allSessions() == before)
            #expect(try store.historyCount(session: "s") == 2)
            // The store goes on working after the refusal.
            try store.commit(SessionCommit(session: session("s", version: 2), history: entry(2)))
            #expect(try store.allSessions().first?.session.version == 2)
        }
    }

    @Test(
        "a commit computed from a version another instance already advanced is refused, nothing written",
        arguments: stores)
    func staleCommitRefused(_ kind: StoreKind) throws {
        try kind.with { db in
            let first = try db.open()
            let second = try db.open()
            for commit in commits(for: "s", operations: 1) { try first.commit(commit) }
            // Both instances applied on version 1; the first writes version 2 ...
            try first.commit(
                SessionCommit(
                    session: session("s", version: 2, state: #"{"by":"first"}"#),
                    upsertedControllers: [ControllerRow(id: "first", body: "{}")],
                    history: entry(2)))
            // ... and the second, still on version 1, is refused.
            let error = #expect(throws: (any Error).self) {
                try second.commit(
                    SessionCommit(
                        session: session("s", version: 2, state: #"{"by":"second"}"#),
                        upsertedControllers: [ControllerRow(id: "second", body: "{}")],
                        history: entry(2)))
            }
            if db.checksBaseVersion {
                #expect(error as? PostgresStoreError == .staleVersion(session: "s", expected: 1, stored: 2))
            }
            let stored = try #require(try second.allSessions().first)
            #expect(stored.session.state == #"{"by":"first"}"#)
            #expect(stored.controllers.map(\.id).contains("first"))
            #expect(!stored.controllers.map(\.id).contains("second"))
            #expect(try second.historyCount(session: "s") == 3)
        }
    }

    @Test(
        "16 threads committing at once share transactions: the batch hook counts every commit once",
        arguments: stores)
    func concurrentCommitsBatched(_ kind: StoreKind) throws {
        try kind.with { db in
            let store = try db.open()
            let threads = 16
            let perThread = 10
            let started = Atomic<Int>(0)
            let batches = Mutex<[Int]>([])
            store.batchObserver.withLock {
                $0 = BatchObserver { size in
                    let isFirst = batches.withLock { list in
                        list.append(size)
                        return list.count == 1
                    }
                    // Hold the first batch's leader (still "writing") until every other thread has
                    // called commit, so that their commits queue up for the next transaction.
                    // Bounded: 2 000 × 1 ms at most.
                    guard isFirst else { return }
                    var spins = 0
                    while started.load(ordering: .acquiring) < threads, spins < 2_000 {
                        usleep(1_000)
                        spins += 1
                    }
                    usleep(50_000)
                }
            }
            let failures = Mutex<[String]>([])
            onThreads(threads) { thread in
                for (n, commit) in commits(for: "t\(thread)", operations: perThread - 1).enumerated() {
                    if n == 0 { started.add(1, ordering: .releasing) }
                    do { try store.commit(commit) } catch { failures.withLock { $0.append("\(error)") } }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let sizes = batches.withLock { $0 }
            #expect(sizes.reduce(0, +) == threads * perThread)
            #expect(sizes.count < threads * perThread)
            #expect((sizes.max() ?? 0) > 1)
            let statistics = store.statistics
            #expect(statistics.commits == threads * perThread)
            #expect(statistics.batches == sizes.count)
            #expect(statistics.largestBatch == sizes.max())
            let loaded = try store.allSessions()
            #expect(loaded.count == threads)
            #expect(loaded.allSatisfy { $0.session.version == perThread - 1 && $0.controllers.count == perThread })
        }
    }

    @Test("deleteSession removes its controllers and history and leaves other sessions alone", arguments: stores)
    func deleteCascades(_ kind: StoreKind) throws {
        try kind.with { db in
            let store = try db.open()
            for commit in commits(for: "gone", operations: 2) + commits(for: "kept", operations: 1) {
                try store.commit(commit)
            }
            try store.deleteSession("gone", sweep: true)
            try store.deleteSession("never-existed", sweep: true)
            #expect(try store.loadSession("gone") == nil)
            store.waitForDeletions()
            #expect(try store.allSessions().map(\.session.id) == ["kept"])
            #expect(try store.historyCount(session: "gone") == 0)
            #expect(try store.historyCount(session: "kept") == 2)
        }
    }

    @Test(
        "a deleted session is gone at once; finishDeletion clears its rows so the id can be created again",
        arguments: stores)
    func deleteThenRecreate(_ kind: StoreKind) throws {
        try kind.with { db in
            let store = try db.open()
            for commit in commits(for: "s", operations: 3) { try store.commit(commit) }
            // No background sweep: whatever the store leaves must go in finishDeletion.
            try store.deleteSession("s", sweep: false)
            #expect(try store.loadSession("s") == nil)
            #expect(try store.sessionIDs() == [])
            #expect(try store.sessionPage(after: nil, limit: 10).isEmpty)
            try store.finishDeletion("s")
            #expect(try store.historyCount(session: "s") == 0)
            for commit in commits(for: "s", operations: 1) { try store.commit(commit) }
            let again = try #require(try store.loadSession("s"))
            #expect(again.session.version == 1)
            #expect(again.controllers.map(\.id) == ["c1", "root"])
            #expect(try store.history(session: "s", after: -1, limit: 10, checkpoints: true).map(\.version) == [0, 1])
            try store.finishDeletion("never-deleted")
            store.resumeDeletions()
            store.waitForDeletions()
            #expect(try store.historyCount(session: "s") == 2)
        }
    }

    @Test(
        "loadSession, sessionIDs and sessionPage: byte order of ids, keyset pages, nil for an unknown id",
        arguments: stores)
    func loadingAndPaging(_ kind: StoreKind) throws {
        try kind.with { db in
            do {
                let store = try db.open()
                for id in ["b", "a", "é", "Z", "a-1"] {
                    for commit in commits(for: id, operations: id.count) { try store.commit(commit) }
                }
            }
            let store = try db.open()
            // Unicode scalar (UTF-8 byte) order, not a locale's: "Z" < "a" and "é" last.
            #expect(try store.sessionIDs() == ["Z", "a", "a-1", "b", "é"])
            #expect(try store.sessionPage(after: nil, limit: 2).map(\.id) == ["Z", "a"])
            #expect(try store.sessionPage(after: "a", limit: 2).map(\.id) == ["a-1", "b"])
            #expect(try store.sessionPage(after: "b", limit: 2).map(\.id) == ["é"])
            #expect(try store.sessionPage(after: "é", limit: 2).isEmpty)
            #expect(try store.sessionPage(after: nil, limit: 0).isEmpty)
            let page = try store.sessionPage(after: "a", limit: 1)
            #expect(page.map(\.version) == [3] && page.map(\.createdAt) == ["2026-01-01T00:00:00Z"])
            #expect(try store.loadSession("nobody") == nil)
            let a1 = try #require(try store.loadSession("a-1"))
            #expect(a1.session == session("a-1", version: 3))
            #expect(a1.controllers.map(\.id) == ["c1", "c2", "c3", "root"])
        }
    }

    @Test("history without checkpoints leaves the column out; with them it is read", arguments: stores)
    func historyCheckpoints(_ kind: StoreKind) throws {
        try kind.with { db in
            let store = try db.open()
            try store.commit(SessionCommit(session: session("s"), history: entry(0, checkpoint: #"{"whole":0}"#)))
            try store.commit(SessionCommit(session: session("s", version: 1), history: entry(1, changes: #"{"removed":[]}"#)))
            let full = try store.history(session: "s", after: -1, limit: 10, checkpoints: true)
            let lean = try store.history(session: "s", after: -1, limit: 10, checkpoints: false)
            #expect(full.map(\.checkpoint) == [#"{"whole":0}"#, nil])
            #expect(lean.map(\.checkpoint) == [nil, nil])
            #expect(lean.map(\.changes) == full.map(\.changes))
        }
    }

    @Test(
        "enqueue: commits queued while the writer is busy share one transaction; completions in queue order",
        arguments: stores)
    func enqueueOrderAndBatching(_ kind: StoreKind) throws {
        try kind.with { db in
            let store = try db.open()
            let batches = Mutex<[Int]>([])
            store.batchObserver.withLock { $0 = BatchObserver { size in batches.withLock { $0.append(size) } } }
            // Three sessions' creations and operations, interleaved as three clients would queue them.
            let perSession = (0..<3).map { commits(for: "q\($0)", operations: 3) }
            let queued = (0..<4).flatMap { n in perSession.map { $0[n] } }
            let told = Mutex<[String]>([])
            let done = DispatchGroup()
            let hold = WriterHold(store)
            let before = store.statistics
            batches.withLock { $0 = [] }  // the hold's own batch
            for commit in queued {
                done.enter()
                let label = "\(commit.session.id)@\(commit.session.version)"
                store.enqueue(commit) { result in
                    told.withLock { $0.append((try? result.get()) == nil ? "failed " + label : label) }
                    done.leave()
                }
            }
            #expect(batches.withLock { $0 } == [])
            hold.release()
            done.wait()
            #expect(told.withLock { $0 } == queued.map { "\($0.session.id)@\($0.session.version)" })
            #expect(batches.withLock { $0 } == [queued.count])
            #expect(store.statistics.batches - before.batches == 1 && store.statistics.largestBatch == queued.count)
            #expect(try store.allSessions().map(\.session.version) == [3, 3, 3])
        }
    }

    @Test(
        "a failed commit's pipelined followers fail unwritten; a commit on durable state ends the chain",
        arguments: stores)
    func followersOfAFailureFail(_ kind: StoreKind) throws {
        try kind.with { db in
            let store = try db.open()
            for commit in commits(for: "s", operations: 1) + commits(for: "other", operations: 0) { try store.commit(commit) }
            let outcomes = Mutex<[String: Result<Void, any Error>]>([:])
            let done = DispatchGroup()
            func enqueue(_ name: String, _ commit: SessionCommit) {
                done.enter()
                store.enqueue(commit) { result in
                    outcomes.withLock { $0[name] = result }
                    done.leave()
                }
            }
            let hold = WriterHold(store)
            // Version 2 carrying entry 1 again: refused (the session already has entry 1).
            enqueue("bad", SessionCommit(session: session("s", version: 2), history: entry(1)))
            enqueue("follower", SessionCommit(session: session("s", version: 3), history: entry(3), followsPending: true))
            enqueue("unrelated", SessionCommit(session: session("other", version: 1), history: entry(1), followsPending: true))
            enqueue("retry", SessionCommit(session: session("s", version: 2), history: entry(2)))
            hold.release()
            done.wait()
            let results = outcomes.withLock { $0 }
            #expect(throws: (any Error).self) { try results["bad"]?.get() }
            #expect(throws: SessionStoreError.predecessorFailed(session: "s", version: 1)) { try results["follower"]?.get() }
            #expect(throws: Never.self) { try results["unrelated"]?.get() }
            #expect(throws: Never.self) { try results["retry"]?.get() }
            #expect(try store.history(session: "s", after: -1, limit: 10, checkpoints: false).map(\.version) == [0, 1, 2])
            #expect(try store.loadSession("other")?.session.version == 1)
        }
    }

    @Test(
        "migrations are applied once: reopening finds the schema at the last step and changes nothing",
        arguments: stores)
    func migrationsAppliedOnce(_ kind: StoreKind) throws {
        try kind.with { db in
            try db.open().commit(SessionCommit(session: session("s")))
            #expect(try db.schemaVersion() == db.latestVersion)
            let again = try db.open()
            #expect(try db.schemaVersion() == db.latestVersion)
            #expect(try again.allSessions().map(\.session) == [session("s")])
        }
    }

    @Test("a database written by a newer build is refused and left as it is", arguments: stores)
    func newerDatabaseRefused(_ kind: StoreKind) throws {
        try kind.with { db in
            _ = try db.open()
            try db.pretendNewerSchema()
            let error = #expect(throws: MigrationError.self) { _ = try db.open() }
            #expect(error == .databaseTooNew(userVersion: db.latestVersion + 1, latestKnown: db.latestVersion))
            #expect(try db.schemaVersion() == db.latestVersion + 1)
        }
    }

    @Test("migrations-postgres/ has the same steps, numbers and names as migrations/")
    func sameMigrationSteps() throws {
        func steps(_ folder: String) throws -> [String] {
            try Migrator(directory: repositoryRoot.appendingPathComponent(folder).path).migrations
                .map { Migration.fileName(version: $0.version, name: $0.name) }
        }
        let sqlite = try steps("migrations")
        #expect(!sqlite.isEmpty)
        #expect(try steps("migrations-postgres") == sqlite)
    }
}

/// What only the PostgreSQL store does: the multi-instance checks and the server's settings.
@Suite("PostgreSQL store", .enabled(if: postgresURL != nil, Comment(rawValue: noPostgres)))
struct PostgresStoreTests {
    @Test("the server keeps synchronous_commit and fsync on")
    func durableSettings() throws {
        let db = try PostgreSQL.Connection(url: try #require(postgresURL))
        #expect(try db.query("SHOW synchronous_commit").first?.text(0) == "on")
        #expect(try db.query("SHOW fsync").first?.text(0) == "on")
    }

    @Test("in a database whose collation is a locale's (ICU en-US), ids still list and page in byte order")
    func byteOrderUnderALocale() throws {
        let url = try #require(postgresURL)
        let name = "navsim_icu_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try PostgreSQL.Connection(url: url)
        try admin.execute("CREATE DATABASE \(name) TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'")
        defer { try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        var components = try #require(URLComponents(string: url))
        components.path = "/" + name
        let localeURL = try #require(components.string)
        // The locale itself sorts "a" < "é" < "Z"; without step 0005 the key would too.
        let probe = try PostgreSQL.Connection(url: localeURL)
        #expect(try probe.query("SELECT string_agg(x, ',' ORDER BY x) AS s FROM (VALUES ('Z'), ('a'), ('é')) v(x)").first?.text("s") == "a,é,Z")
        let store = try PostgresSessionStore(url: localeURL, migrationsDirectory: repositoryRoot.appendingPathComponent("migrations-postgres").path)
        for id in ["é", "a", "Z", "b"] { try store.commit(SessionCommit(session: session(id), history: entry(0))) }
        #expect(try store.sessionIDs() == ["Z", "a", "b", "é"])
        #expect(try store.sessionPage(after: "Z", limit: 2).map(\.id) == ["a", "b"])
        #expect(try store.sessionPage(after: "b", limit: 2).map(\.id) == ["é"])
    }

    @Test("a version gap and a second creation of one id are stale, nothing written")
    func gapAndRecreation() throws {
        try StoreKind.postgres.with { db in
            let store = try db.open()
            for commit in commits(for: "s", operations: 1) { try store.commit(commit) }
            let gap = #expect(throws: PostgresStoreError.self) {
                try store.commit(SessionCommit(session: session("s", version: 3), history: entry(3)))
            }
            #expect(gap == .staleVersion(session: "s", expected: 2, stored: 1))
            let again = #expect(throws: PostgresStoreError.self) {
                try store.commit(SessionCommit(session: session("s", state: "{}"), history: entry(0)))
            }
            #expect(again == .staleVersion(session: "s", expected: nil, stored: 1))
            let missing = #expect(throws: PostgresStoreError.self) {
                try store.commit(SessionCommit(session: session("nobody", version: 1), history: entry(1)))
            }
            #expect(missing == .staleVersion(session: "nobody", expected: 0, stored: nil))
            #expect(try store.allSessions().map(\.session) == [session("s", version: 1)])
            #expect(try store.history(session: "s", after: -1, limit: 10, checkpoints: true).map(\.version) == [0, 1])
        }
    }

    @Test("after the server drops the store's connections, the first commit and the first reads already succeed on fresh connections")
    func reconnects() throws {
        try StoreKind.postgres.with { db in
            let store = try db.open()
            for commit in commits(for: "s", operations: 1) { try store.commit(commit) }
            // pg_terminate_backend(pid, 5000) returns once each backend has exited (bounded: 5 s).
            let drop = try #require(db.dropConnections)
            #expect(try drop() == 3)  // the writer, the reader and the storyboard revision's reader
            // Its BEGIN fails on the dead connection, before anything of it reached the server,
            // so it runs once more on a fresh connection (written once: version 2 is not free).
            try store.commit(SessionCommit(session: session("s", version: 2), history: entry(2)))
            #expect(throws: PostgresError.self) {
                try store.commit(SessionCommit(session: session("s", version: 3), history: entry(2)))
            }
            // A read whose connection broke runs once more on a fresh one (reads change nothing):
            // the first read after the drop already answers.
            #expect(try store.allSessions().map(\.session.version) == [2])
            #expect(try store.storyboardRevision() != nil)
            #expect(try drop() == 3)
            #expect(try store.sessionVersion("s")?.version == 2)
            #expect(try store.loadSession("s")?.session.version == 2)
        }
    }

    @Test("storyboard puts and deletes notify listeners with the name")
    func storyboardNotifications() throws {
        try StoreKind.postgres.with { db in
            let store = try db.open()
            let listener = try PostgreSQL.Connection(url: try #require(postgresURL))
            try listener.listen(PostgresSessionStore.storyboardChannel)
            try store.putStoryboard(StoredStoryboard(name: "Main", xml: [1], updatedAt: "2026-01-01T00:00:00Z"))
            _ = try store.deleteStoryboard("Main")
            // Bounded waits (5 s each), not timings: notifications arrive after the commit.
            let put = try listener.nextNotification(timeoutMilliseconds: 5_000)
            #expect(put?.channel == PostgresSessionStore.storyboardChannel)
            #expect(put?.payload == "Main")
            #expect(try listener.nextNotification(timeoutMilliseconds: 5_000)?.payload == "Main")
        }
    }
}

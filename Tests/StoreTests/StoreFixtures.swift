import Foundation
@testable import NavSimService
import PostgreSQL
import SQLite
@testable import SessionStorage
@testable import SQLiteStore
@testable import PostgresStore

/// The repository root, found from this file, so the schemas under test are the shipped ones.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // StoreTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

/// The PostgreSQL server the PostgreSQL cases run against: a libpq URL in `NAVSIM_TEST_POSTGRES`
/// (scripts/pg-cluster.sh prints one), or nil, and then those cases are skipped.
let postgresURL: String? = ProcessInfo.processInfo.environment["NAVSIM_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }

/// The stores the cases that take `arguments: stores` run on: SQLite always, PostgreSQL when
/// `NAVSIM_TEST_POSTGRES` is set.
let stores: [StoreKind] = postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]

/// One fresh database and the ways a test reaches it besides the store itself.
struct StoreUnderTest {
    /// A new store on this database: the first call creates the schema, later ones are a restart.
    let open: () throws -> any SessionStoring
    /// The schema version the database records.
    let schemaVersion: () throws -> Int
    /// Records a schema step past this build's last one, as a newer navsim would have.
    let pretendNewerSchema: () throws -> Void
    /// The version of the last migration step this build ships.
    let latestVersion: Int
    /// Whether the store refuses a commit whose base is not the stored version (the multi-instance
    /// check); SQLite, written by one instance, refuses only a history version it already has.
    let checksBaseVersion: Bool
    /// Makes the server drop every connection of this database's stores (PostgreSQL only);
    /// returns how many it dropped.
    var dropConnections: (() throws -> Int)? = nil
}

/// Which store a case runs on.
enum StoreKind: String, CustomStringConvertible, Sendable {
    case sqlite, postgres
    var description: String { rawValue }

    /// Runs `body` on a fresh database of this kind, removed afterwards.
    func with<T>(_ body: (StoreUnderTest) throws -> T) throws -> T {
        switch self {
        case .sqlite: try withSQLite(body)
        case .postgres: try withPostgres(body)
        }
    }
}

private func withSQLite<T>(_ body: (StoreUnderTest) throws -> T) throws -> T {
    let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("StoreTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = (directory as NSString).appendingPathComponent("navsim.sqlite")
    let migrations = repositoryRoot.appendingPathComponent("migrations").path
    return try body(
        StoreUnderTest(
            open: { try SessionStore(path: path, migrationsDirectory: migrations) },
            schemaVersion: { try SQLite.Connection(path: path, readOnly: true).userVersion },
            pretendNewerSchema: {
                let db = try SQLite.Connection(path: path)
                try db.execute("PRAGMA user_version = \(try db.userVersion + 1)")
            },
            latestVersion: try Migrator(directory: migrations).latestVersion,
            checksBaseVersion: false))
}

/// A schema of its own per case (dropped at the end), so cases never see each other's rows.
private func withPostgres<T>(_ body: (StoreUnderTest) throws -> T) throws -> T {
    guard let url = postgresURL else { preconditionFailure("the PostgreSQL suite runs only with NAVSIM_TEST_POSTGRES") }
    let schema = "navsim_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    let quoted = PostgreSQL.Connection.quoteIdentifier(schema)
    let admin = try PostgreSQL.Connection(url: url)
    defer { try? admin.execute("DROP SCHEMA IF EXISTS \(quoted) CASCADE") }
    let migrations = repositoryRoot.appendingPathComponent("migrations-postgres").path
    return try body(
        StoreUnderTest(
            open: { try PostgresSessionStore(url: url, migrationsDirectory: migrations, schema: schema) },
            schemaVersion: {
                Int(try admin.query("SELECT max(version) AS v FROM \(quoted).schema_migrations").first?.int("v") ?? 0)
            },
            pretendNewerSchema: {
                try admin.execute(
                    "INSERT INTO \(quoted).schema_migrations (version, name) SELECT max(version) + 1, 'from-a-newer-build' FROM \(quoted).schema_migrations")
            },
            latestVersion: try Migrator(directory: migrations).latestVersion,
            checksBaseVersion: true,
            dropConnections: {
                try admin.query(
                    "SELECT count(pg_terminate_backend(pid, 5000)) AS n FROM pg_stat_activity WHERE application_name = $1",
                    [.text(PostgresSessionStore.applicationName(schema: schema))]
                ).first?.int("n").map { Int($0) } ?? 0
            }))
}

// MARK: - Rows

func session(_ id: String, version: Int = 0, state: String = #"{"traits":{}}"#) -> SessionRow {
    SessionRow(id: id, version: version, createdAt: "2026-01-01T00:00:00Z", state: state)
}

func entry(_ version: Int, changes: String? = nil, checkpoint: String? = nil) -> HistoryRow {
    HistoryRow(
        version: version, at: "2026-01-01T00:00:0\(version % 10)Z", method: "POST", path: "/v1/sessions/s/present",
        body: version % 2 == 0 ? nil : #"{"v":\#(version)}"#, command: #"[{"present":\#(version)}]"#,
        result: #"{"events":[]}"#, changes: changes, checkpoint: checkpoint, rulesVersion: version == 0 ? nil : 1)
}

/// A session creation (with history entry 0, as the service writes it) and `count` operations,
/// each adding one controller.
func commits(for id: String, operations count: Int) -> [SessionCommit] {
    let root = ControllerRow(id: "root", body: #"{"class":"UINavigationController"}"#)
    var list = [SessionCommit(session: session(id), upsertedControllers: [root], history: entry(0))]
    for version in stride(from: 1, through: count, by: 1) {
        let child = ControllerRow(id: "c\(version)", parent: "root", body: #"{"n":\#(version)}"#)
        list.append(
            SessionCommit(
                session: session(id, version: version), upsertedControllers: [child],
                history: entry(version, changes: #"{"removed":[]}"#)))
    }
    return list
}

/// Runs `body(0..<count)` on `count` threads of its own and waits for all of them (real threads:
/// `concurrentPerform` runs no more workers than cores, and commits must overlap).
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
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

// MARK: - Store helpers

extension SessionStoring {
    /// Every session with its controllers, by id: ``SessionStoring/sessionIDs()`` then
    /// ``SessionStoring/loadSession(_:)`` for each (what the service's lazy loads add up to).
    func allSessions() throws -> [StoredSession] {
        try sessionIDs().compactMap { try loadSession($0) }
    }
}

// MARK: - Chunked deletion hooks

extension SessionStoring {
    /// Rows of `controllers` and `history` left with `session`'s id, on either store.
    func childRows(_ session: String) throws -> Int {
        if let sqlite = self as? SessionStore { return try sqlite.childRowCount(session: session) }
        return try (self as! PostgresSessionStore).childRowCount(session: session)
    }

    /// At most `maxChunks` chunks of `chunkRows` rows of deleted session `id`; whether it is done.
    func sweep(_ id: String, chunkRows: Int, maxChunks: Int) throws -> Bool {
        if let sqlite = self as? SessionStore { return try sqlite.sweepDeletion(id, chunkRows: chunkRows, maxChunks: maxChunks) }
        return try (self as! PostgresSessionStore).sweepDeletion(id, chunkRows: chunkRows, maxChunks: maxChunks)
    }

    /// The ids the store still lists as being removed, ascending.
    func pendingDeletions() throws -> [String] {
        if let sqlite = self as? SessionStore { return sqlite.pendingDeletionIDs.sorted() }
        return try (self as! PostgresSessionStore).pendingDeletionIDs(nil)
    }
}

import Foundation
import PostgreSQL
import Testing

import NavSimService
import SessionStorage
import PostgresStore

/// The PostgreSQL database the release before the storage targets wrote
/// (Tests/Fixtures/Databases/main-postgres.sql, a `pg_dump` made by make-fixture.py beside it),
/// loaded into a schema of its own, opens with this code and reads back as that release read it:
/// every recorded reply, byte for byte. Runs where `NAVSIM_TEST_POSTGRES` names a server, as the
/// other PostgreSQL cases do (scripts/pg-store-suite.sh).
@Suite(
    "A PostgreSQL database written by the previous release reads back identically",
    .enabled(
        if: ProcessInfo.processInfo.environment["NAVSIM_TEST_POSTGRES"].map { !$0.isEmpty } ?? false,
        "set NAVSIM_TEST_POSTGRES to a PostgreSQL URL"))
struct PostgresFixtureTests {
    @Test func everyRecordedReplyIsTheSame() throws {
        let url = try #require(ProcessInfo.processInfo.environment["NAVSIM_TEST_POSTGRES"])
        let dump = try String(
            contentsOf: PersistenceFixtureTests.folder.appendingPathComponent("main-postgres.sql"),
            encoding: .utf8)
        #expect(dump.contains("navsim_fixture."))
        let schema = "navsim_fixture_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try PostgreSQL.Connection(url: url)
        defer { try? admin.execute("DROP SCHEMA IF EXISTS \(PostgreSQL.Connection.quoteIdentifier(schema)) CASCADE") }
        // The dump names its schema everywhere; a name of its own keeps parallel runs apart.
        try admin.execute(dump.replacingOccurrences(of: "navsim_fixture", with: schema))
        let store = try PostgresSessionStore(url: url, migrationsDirectory: SharedDatabase.migrations, schema: schema)
        let service = try NavSimService(store: store, openAPI: [])
        let replies = try PersistenceFixtureTests.recorded("main-postgres")
        #expect(replies.count > 50)
        let differing = PersistenceFixtureTests.differing(service, from: replies)
        #expect(differing == 0, "\(differing) of \(replies.count) replies differ")
    }
}

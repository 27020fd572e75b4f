import Foundation
@testable import NavSimService
import PostgreSQL
import Synchronization
import Testing
@testable import SessionStorage
@testable import PostgresStore

// What the PostgreSQL store does when the server drops its connection at COMMIT: the one point
// where it cannot know whether the transaction was written.
extension PostgresStoreTests {
    @Test("a transaction whose connection breaks at COMMIT is not run again and fails as of unknown outcome")
    func breakAtCommit() throws {
        try StoreKind.postgres.with { db in
            let store = try #require(try db.open() as? PostgresSessionStore)
            for commit in commits(for: "s", operations: 1) { try store.commit(commit) }
            let url = try #require(postgresURL)
            let application = store.applicationName
            let schema = PostgreSQL.Connection.quoteIdentifier(String(application.dropFirst("navsim:".count)))
            let admin = try PostgreSQL.Connection(url: url)
            // At COMMIT, after the statements: a deferred trigger on entry 2 ends the writer's own
            // backend (its transaction is rolled back), so the COMMIT meets a dead connection,
            // exactly as a crash of the server between the two would leave it. A sequence counts
            // the COMMITs that got there: it is not rolled back with them.
            try admin.execute(
                """
                CREATE SEQUENCE \(schema).commits_seen;
                CREATE FUNCTION \(schema).end_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    PERFORM nextval('\(schema).commits_seen');
                    PERFORM pg_terminate_backend(pg_backend_pid());
                    RETURN NULL;
                END $$;
                CREATE CONSTRAINT TRIGGER end_at_commit AFTER INSERT ON \(schema).history
                    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.session_id = 's' AND NEW.version = 2)
                    EXECUTE FUNCTION \(schema).end_at_commit();
                """)
            let commitsSeen = { Int(try admin.query("SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS n FROM \(schema).commits_seen").first?.int("n") ?? -1) }
            let error = #expect(throws: PostgresStoreError.self) {
                try store.commit(SessionCommit(session: session("s", version: 2), history: entry(2)))
            }
            if case .commitOutcomeUnknown? = error {} else { Issue.record("expected commitOutcomeUnknown, got \(String(describing: error))") }
            // Not run again: one COMMIT was attempted.
            #expect(try commitsSeen() == 1)
            #expect(!store.reachability.isReachable)
            try admin.execute("DROP TRIGGER end_at_commit ON \(schema).history")
            // Here the server had rolled it back, so version 2 is still free; the next commit
            // reconnects.
            try store.commit(SessionCommit(session: session("s", version: 2), history: entry(2)))
            #expect(store.reachability.isReachable)
            #expect(try store.history(session: "s", after: -1, limit: 10, checkpoints: false).map(\.version) == [0, 1, 2])
        }
    }
}

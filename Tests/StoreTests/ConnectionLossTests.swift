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
            let commitsSeen = Mutex(0)
            // On the writer, after the statements and before COMMIT: the server ends the writer's
            // backend (its transaction is rolled back), so the COMMIT that follows meets a dead
            // connection, exactly as a crash of the server between the two would leave it.
            store.beforeCommit.withLock {
                $0 = {
                    commitsSeen.withLock { $0 += 1 }
                    guard let admin = try? PostgreSQL.Connection(url: url) else { return }
                    _ = try? admin.query(
                        "SELECT count(pg_terminate_backend(pid, 5000)) AS n FROM pg_stat_activity WHERE application_name = $1",
                        [.text(application)])
                }
            }
            let error = #expect(throws: PostgresStoreError.self) {
                try store.commit(SessionCommit(session: session("s", version: 2), history: entry(2)))
            }
            if case .commitOutcomeUnknown? = error {} else { Issue.record("expected commitOutcomeUnknown, got \(String(describing: error))") }
            // Not run again: one COMMIT was attempted.
            #expect(commitsSeen.withLock { $0 } == 1)
            #expect(!store.reachability.isReachable)
            store.beforeCommit.withLock { $0 = nil }
            // Here the server had rolled it back, so version 2 is still free; the next commit
            // reconnects.
            try store.commit(SessionCommit(session: session("s", version: 2), history: entry(2)))
            #expect(store.reachability.isReachable)
            #expect(try store.history(session: "s", after: -1, limit: 10, checkpoints: false).map(\.version) == [0, 1, 2])
        }
    }
}

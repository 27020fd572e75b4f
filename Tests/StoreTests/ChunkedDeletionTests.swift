import Foundation
@testable import NavSimService
import Testing
@testable import SessionStorage
@testable import SQLiteStore

/// A deleted session's rows go a bounded chunk per transaction (SessionStoring's "gone at once").
@Suite("Chunked deletion")
struct ChunkedDeletionTests {
    @Test(
        "rows go a chunk at a time; a sweep stopped between chunks is finished by the next start",
        arguments: stores)
    func chunksAndResume(_ kind: StoreKind) throws {
        try kind.with { db in
            do {
                let store = try db.open()
                // 8 history entries and 8 controllers.
                for commit in commits(for: "long", operations: 7) + commits(for: "kept", operations: 1) {
                    try store.commit(commit)
                }
                try store.deleteSession("long", sweep: false)
                #expect(try store.loadSession("long") == nil)
                #expect(try store.sessionIDs() == ["kept"])
                #expect(try store.pendingDeletions() == ["long"])
                #expect(try store.childRows("long") == 16)
                // Two chunks of 3 rows, then a stop (as a crash between chunks).
                #expect(try !store.sweep("long", chunkRows: 3, maxChunks: 2))
                #expect(try store.childRows("long") == 10)
                #expect(try store.pendingDeletions() == ["long"])
            }
            let restarted = try db.open()
            #expect(try restarted.pendingDeletions() == ["long"])
            restarted.resumeDeletions()
            restarted.waitForDeletions()
            #expect(try restarted.childRows("long") == 0)
            #expect(try restarted.pendingDeletions() == [])
            #expect(try restarted.childRows("kept") == 4)
            // Nothing pending: a sweep returns at once and touches nothing.
            #expect(try restarted.sweep("kept", chunkRows: 1, maxChunks: 1))
            #expect(try restarted.childRows("kept") == 4)
        }
    }

    @Test(
        "the background sweep removes every row of a long session and the id can be used again",
        arguments: stores)
    func backgroundSweep(_ kind: StoreKind) throws {
        try kind.with { db in
            let store = try db.open()
            // More rows than one chunk: 1,200 entries and controllers.
            for commit in commits(for: "s", operations: 599) { try store.commit(commit) }
            #expect(try store.childRows("s") == 1_200)
            try store.deleteSession("s", sweep: true)
            #expect(try store.loadSession("s") == nil)
            store.waitForDeletions()
            #expect(try store.childRows("s") == 0)
            #expect(try store.pendingDeletions() == [])
            try store.finishDeletion("s")
            for commit in commits(for: "s", operations: 1) { try store.commit(commit) }
            #expect(try store.historyCount(session: "s") == 2)
        }
    }

    @Test("SQLite: each group-commit batch carries one chunk of a deletion in its own transaction, and touches no other session")
    func chunksRideInBatches() throws {
        try StoreKind.sqlite.with { db in
            let store = try #require(try db.open() as? SessionStore)
            // 250 history entries and 250 controllers.
            for commit in commits(for: "long", operations: 249) + commits(for: "kept", operations: 1) {
                try store.commit(commit)
            }
            try store.deleteSession("long", sweep: false)
            // Only batches remove chunks: no idle step runs.
            store.scheduleSweep("long", whenIdle: false)
            #expect(store.sweepingIDs == ["long"])
            var version = 1
            func keptCommit() -> [Result<Void, any Error>] {
                version += 1
                return store.commitBatch([SessionCommit(session: session("kept", version: version), history: entry(version))])
            }
            var left = 500, batches = store.statistics.batches, carrying = 0
            while left > 0, carrying < 100 {
                let results = keptCommit()
                #expect(results.count == 1 && (try? results[0].get()) != nil, "the batch's own commit is written")
                batches += 1
                carrying += 1
                #expect(store.statistics.batches == batches, "one transaction per batch, the chunk inside it")
                let now = try store.childRows("long")
                #expect(now < left && left - now <= SessionStore.batchChunkRows, "\(left) → \(now)")
                left = now
            }
            #expect(left == 0)
            // History in chunks, then controllers: one chunk per batch.
            let perTable = (250 + SessionStore.batchChunkRows - 1) / SessionStore.batchChunkRows
            #expect(carrying == 2 * perTable)
            #expect(try store.pendingDeletions() == ["long"])
            // The next batch finds nothing left and drops the id; none after it carries a chunk.
            _ = keptCommit()
            #expect(try store.pendingDeletions() == [])
            #expect(store.sweepingIDs.isEmpty)
            #expect(try store.historyCount(session: "kept") == version + 1)
            #expect(try store.loadSession("kept")?.controllers.count == 2)
            // A session created again under the id keeps its rows: no sweep is left to touch them.
            for commit in commits(for: "long", operations: 1) { try store.commit(commit) }
            _ = keptCommit()
            #expect(try store.childRows("long") == 4)
        }
    }

    @Test(
        "PostgreSQL: an instance that did not delete the session finishes its removal before reusing the id",
        .enabled(if: postgresURL != nil, "NAVSIM_TEST_POSTGRES is not set: several instances share only a PostgreSQL database"))
    func finishedByAnotherInstance() throws {
        try StoreKind.postgres.with { db in
            let a = try db.open(), b = try db.open()
            for commit in commits(for: "s", operations: 3) { try a.commit(commit) }
            try a.deleteSession("s", sweep: false)
            #expect(try b.loadSession("s") == nil)
            #expect(try b.pendingDeletions() == ["s"])
            try b.finishDeletion("s")
            #expect(try a.childRows("s") == 0)
            #expect(try a.pendingDeletions() == [])
            for commit in commits(for: "s", operations: 1) { try b.commit(commit) }
            #expect(try a.loadSession("s")?.controllers.map(\.id) == ["c1", "root"])
        }
    }
}

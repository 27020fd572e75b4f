import Dispatch
import SQLite
public import SessionStorage
public import Synchronization

/// The durable side of navsim: sessions, their controllers and history, and storyboards, in one
/// SQLite file whose schema comes from the `migrations` folder.
///
/// ```swift
/// let store = try SessionStore(path: "/var/lib/navsim/navsim.sqlite", migrationsDirectory: "migrations")
/// try store.commit(SessionCommit(session: row, upsertedControllers: changed, history: entry))
/// // only now may the reply go out: the operation survives kill -9 and power loss
/// ```
///
/// **Durability.** ``commit(_:)`` returns only after SQLite's `COMMIT` has returned on a
/// connection in WAL mode with `synchronous=FULL`, i.e. after the write-ahead log was synced:
/// an acknowledged operation survives a crash of the process and a power loss.
///
/// **Speed: group commit.** That sync is the whole cost of a small commit: one
/// fsync per single-row `BEGIN IMMEDIATE…COMMIT` with WAL+FULL, against one per hundred rows when
/// they share a transaction (`scripts/bench.sh` measures both). Rather than
/// buy speed with `synchronous=NORMAL` (which may lose acknowledged commits on power loss), the
/// store shares one sync between concurrent callers: while one transaction is being written,
/// arriving commits queue up, and the next transaction writes all of them. A lone caller pays
/// exactly one transaction, as before; under load the number of syncs per commit falls with the
/// queue length. Callers need not wait on a thread: ``enqueue(_:then:)`` calls back once the
/// commit is durable. Durability is the same for every caller: none is told of success before
/// its own data has been synced.
///
/// **Connections.** One writer connection, owned by a `Mutex`, does every write. A small pool of
/// read-only connections (``defaultReaders``, each in its own `Mutex`) serves history pages,
/// version reads, listing and the loads of sessions on first use; WAL lets them read the last
/// committed state while the writer is writing, so reads never wait for a sync, and one long
/// read (a `?version=N` far from a checkpoint) does not queue the others.
///
/// **Deleting.** ``deleteSession(_:)`` removes the session row at once and its controllers and
/// history afterwards, a bounded chunk per transaction (``sweepDeletion(_:chunkRows:maxChunks:)``),
/// so other sessions' commits interleave with a long session's removal.
public final class SessionStore: Sendable {
    private let writer: Mutex<Connection>
    let readers: [Reader]
    /// Where the next read starts looking for a free reader (round robin).
    let nextReader = Atomic<Int>(0)
    private let counters = Mutex(Counters())
    /// The one thread that writes queued commits (``enqueue(_:then:)``), batching them.
    private let writes = WriterQueue(label: "navsim.store.writer")
    /// Sessions whose commit at the given version failed, so their followers fail too.
    private let brokenChains = Mutex(BrokenChains())

    /// Ids whose session row is gone but whose controllers or history may remain (migration 0005).
    private let pendingDeletions = Mutex(Set<String>())
    /// Deleted sessions whose rows are being removed, in the order they were deleted: the
    /// writer removes a chunk of the first one inside each batch's transaction, and alone when
    /// no commit is waiting (``scheduleSweep(_:)``).
    private let sweeps = Mutex<[String]>([])

    /// Read-only connections opened unless told otherwise.
    public static let defaultReaders = 4
    /// Rows (controllers or history entries) removed per transaction when a session is deleted:
    /// small enough that a commit arriving behind a chunk waits about a millisecond more (500 made
    /// other writers' p99 1.5x of without a delete).
    public static let deletionChunkRows = 100
    /// Rows removed by the chunk a group-commit batch carries (``commitBatch(_:)``): the batch's
    /// commits wait for these deletes, but not for a sync of their own. Under load every batch
    /// carries one, so fewer than ``deletionChunkRows`` (100 per batch made the writes
    /// overlapping a 10,000-entry sweep slower by about a chunk's deletes each).
    static let batchChunkRows = 25
    /// How long the writer must have had no commit before it removes a chunk alone: longer than
    /// a client answered by the last batch takes to send its next write, so that write rides in
    /// a batch with the next chunk instead of waiting behind a chunk's own sync.
    static let idleSweepDelay = Duration.milliseconds(5)

    /// The steps of `migrations/` this code is written against, in order: a folder that lacks
    /// one is refused at open (``Migrator/check(provides:directory:)``). A new step is added
    /// here too; `SchemaStepsTests` keeps the two in agreement.
    public static let schemaSteps = [
        "0001_initial.sql", "0002_stored_format.sql", "0003_storyboard_classes.sql", "0004_history_changes.sql",
        "0005_pending_deletions.sql", "0006_storyboard_revision.sql", "0007_chunked_deletes.sql",
    ]

    /// Opens (creating) the database at `path`, applies the migrations found in `migrationsDirectory`.
    ///
    /// - Parameters:
    ///   - path: A file path (not `:memory:`: the reader connection must see the writer's file).
    ///     The directory must exist.
    ///   - migrationsDirectory: The folder of `NNNN_name.sql` steps (see ``Migrator``).
    /// - Throws: ``DatabaseLocationError`` naming the path when its folder is missing or the file
    ///   or folder may not be written; ``SQLiteError`` if the file cannot be opened, written, or put in WAL mode;
    ///   ``MigrationError`` if the migrations are invalid, fail, or the file was written by a
    ///   newer build.
    ///   - readers: How many read-only connections the pool holds (at least 1).
    public init(path: String, migrationsDirectory: String, readers: Int = SessionStore.defaultReaders) throws {
        let migrator = try Migrator(directory: migrationsDirectory)
        // Before the file is created: a folder from an older build would migrate a schema that
        // lacks tables this code uses, which fail only at the first write that needs them.
        try migrator.check(provides: Self.schemaSteps, directory: migrationsDirectory)
        try DatabaseLocationError.check(path)
        let writer = try Connection(path: path, durability: .full)
        // Before migrating: a database that cannot be written is refused now, naming its path.
        try writer.checkWritable()
        _ = try migrator.migrate(writer)
        // Opened after the writer, which has switched the file to WAL mode and created the -wal
        // and -shm files a read-only connection cannot create itself.
        self.readers = try (0..<max(readers, 1)).map { _ in
            try Reader(path: path)
        }
        let pending = try writer.query("SELECT session_id FROM pending_deletions").map { try $0.required("session_id") }
        self.writer = Mutex(writer)
        pendingDeletions.withLock { $0 = Set(pending) }
        writes.setIdleWork(after: Self.idleSweepDelay) { [weak self] in self?.idleSweepStep() ?? false }
    }

    /// Statements the writer connection has run so far (``Connection/statementsRun``): tests
    /// of what a batch costs in statements.
    var writerStatements: Int { writer.withLock { $0.statementsRun } }

    // MARK: Writing

    /// Writes one operation; durable before it returns (WAL + `synchronous=FULL`). The same
    /// queue as ``enqueue(_:then:)``, waited on.
    ///
    /// - Throws: This commit's own error, with none of its changes applied: a ``SQLiteError``
    ///   such as `SQLITE_CONSTRAINT_PRIMARYKEY` for a history version the session already has,
    ///   the error of `BEGIN`/`COMMIT` if the whole transaction failed, or
    ///   ``SessionStoreError/predecessorFailed(session:version:)``.
    public func commit(_ commit: SessionCommit) throws {
        try writes.submit(commit) { [self] in commitBatch($0) }
    }

    /// Queues one operation for the writer and returns at once; `completion` is called with
    /// its outcome once the transaction holding it has been synced (WAL + `synchronous=FULL`),
    /// or has failed. Nothing is acknowledged before that call.
    ///
    /// **Group commit.** One writer (a serial dispatch queue) writes everything queued so far in
    /// one `BEGIN IMMEDIATE` transaction; commits arriving while it syncs wait for the next one,
    /// so batches grow with the load and no caller's thread waits on a sync. A commit that fails
    /// fails alone (see ``commitBatch(_:)``).
    ///
    /// **Order.** Completions are called on the writer, one at a time, in the order the commits
    /// were queued: a session whose commits are queued under its lock is told in version order.
    ///
    /// **Pipelined followers.** A caller may queue version N+1 of a session before N is durable,
    /// marking it ``SessionCommit/followsPending``. When N fails, every such follower of that
    /// session queued after it with a higher version fails too, unwritten, with
    /// ``SessionStoreError/predecessorFailed(session:version:)``: it was computed on top of N.
    /// The session's next commit that follows nothing pending (the caller rolled back to the
    /// last durable version) ends that.
    public func enqueue(_ commit: SessionCommit, then completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        writes.enqueue(commit, writeBatch: { [self] in commitBatch($0) }, then: completion)
    }

    /// Writes `commits` in one `BEGIN IMMEDIATE` transaction and returns each one's outcome in order.
    ///
    /// A commit whose statements fail is reported as failed and the others still commit: the
    /// batch, first written without savepoints, is then rolled back and written again with each
    /// commit inside its own savepoint, which a failing commit is rolled back to alone. If the transaction as a whole fails (`BEGIN`, `COMMIT`,
    /// or an I/O or disk-full error that makes SQLite roll everything back), nothing was written
    /// and every commit reports that error. Internal so tests can build a batch deterministically.
    func commitBatch(_ commits: [SessionCommit]) -> [Result<Void, any Error>] {
        guard !commits.isEmpty else { return [] }
        let results = writer.withLock { db -> [Result<Void, any Error>] in
            // Only ever read and written with the writer connection held.
            var chains = brokenChains.withLock { $0 }
            defer { brokenChains.withLock { [chains] in $0 = chains } }
            // A deletion's chunk rides along: it shares the batch's sync instead of
            // costing one of its own that the next batch would wait behind.
            var sweep = sweeps.withLock { $0.first }
            // A savepoint per commit costs two statements and a copy of every page the commit
            // changes into the statement journal, and nearly no batch needs it: the batch is
            // first written without them, and only when one of its commits fails is it rolled
            // back and written again with them, so that that commit fails alone.
            var eachInSavepoint = false
            while true {
                var swept: Bool?
                // The chains as this attempt leaves them; kept only if it commits.
                var attempt = chains
                do {
                    let results = try db.transaction {
                        if let id = sweep {
                            // Its own savepoint, first: a chunk that fails is undone alone, and
                            // one whose error ends the transaction has cost no commit anything.
                            swept = try? db.transaction { try Self.removeChunk(of: id, rows: Self.batchChunkRows, in: db) }
                            guard db.isInTransaction else { throw ChunkEndedTransaction() }
                        }
                        guard eachInSavepoint else {
                            // Any commit's error ends the attempt: the transaction rolls back
                            // (writeEach rethrows it, as it "is not in a transaction" any more).
                            return try attempt.writeEach(commits, isInTransaction: { false }) { commit in
                                do { try Self.apply(commit, to: db) } catch { throw WriteAgainInSavepoints() }
                            }
                        }
                        return try attempt.writeEach(commits, isInTransaction: { db.isInTransaction }) { commit in
                            // Nested transaction() = SAVEPOINT … RELEASE, or ROLLBACK TO on error. Some
                            // errors (SQLITE_FULL, SQLITE_IOERR, …) roll back the whole transaction,
                            // taking the earlier commits with it: writeEach then fails the batch.
                            try db.transaction { try Self.apply(commit, to: db) }
                        }
                    }
                    chains = attempt
                    if let id = sweep { sweptChunk(of: id, done: swept) }
                    return results
                } catch is WriteAgainInSavepoints {
                    // Nothing of the attempt was written (a failed COMMIT is not retried: its
                    // error, a failed sync among them, fails the batch below).
                    eachInSavepoint = true
                } catch is ChunkEndedTransaction {
                    // Written again without the chunk; the id stays pending for the next start.
                    if let id = sweep { sweptChunk(of: id, done: nil) }
                    sweep = nil
                } catch {
                    chains.batchFailed(commits)
                    return Array(repeating: .failure(error), count: commits.count)
                }
            }
        }
        var rows = 0
        for (commit, result) in zip(commits, results) where (try? result.get()) != nil {
            rows += commit.upsertedControllers.count + commit.deletedControllers.count
        }
        counters.withLock { [rows] counters in
            counters.commits += commits.count
            counters.batches += 1
            counters.largestBatch = max(counters.largestBatch, commits.count)
            counters.controllerRows += rows
        }
        batchObserver.withLock { $0 }?.observe(commits.count)
        return results
    }

    private static func apply(_ commit: SessionCommit, to db: Connection) throws {
        if commit.laterCheckpoint != nil { return try db.writeLaterCheckpoint(of: commit) }
        let session = commit.session
        // A later version of a stored session updates its row in place (one B-tree seek); a
        // creation, or a row found missing, takes the upsert.
        if session.version > 0 {
            try db.run(Self.updateSession, session.parameters())
            if db.changes == 1 { return try db.writeChildren(of: commit) }
        }
        // An upsert, not INSERT OR REPLACE: REPLACE deletes the old row first, and with
        // foreign keys on that delete would cascade to the session's controllers and history.
        try db.run(
            """
            INSERT INTO sessions (id, version, created_at, state, format) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET
                version = excluded.version, created_at = excluded.created_at, state = excluded.state,
                format = excluded.format
            """,
            session.parameters())
        try db.writeChildren(of: commit)
    }

    /// The session row's update, with ``SessionRow/parameters()``'s order (`?1` is the id).
    private static let updateSession = """
        UPDATE sessions SET version = ?2, created_at = ?3, state = ?4, format = ?5 WHERE id = ?1
        """

    /// Deletes a session: durable before it returns, the session row is gone (a load by id finds
    /// nothing, listing skips it, also after a crash), and its id is recorded in
    /// `pending_deletions` in the same transaction. Its controllers and history go afterwards, in
    /// chunks on the writer (``scheduleSweep(_:)``): one inside each group-commit batch's
    /// transaction, sharing its sync, and one at a time alone when no commit is waiting.
    /// Deleting an unknown session does nothing.
    ///
    /// Not group-committed: deletions are rare, and the caller's per-session lock already orders
    /// this after the session's last ``commit(_:)``. Foreign keys are off for this one
    /// transaction (under the writer's lock, so no other write sees it): with them on, deleting
    /// the row would cascade to every child row at once.
    ///
    /// - Parameter sweep: false leaves the rows for a later sweep (tests of a crash between chunks).
    public func deleteSession(_ id: String, sweep: Bool = true) throws {
        // The in-memory sets change under the writer's lock, as the chunks' do: between a
        // sweep's last chunk and its bookkeeping, a session created and deleted again under the
        // id would otherwise be dropped from them and its rows left until a restart.
        let existed = try writer.withLock { db -> Bool in
            try db.execute("PRAGMA foreign_keys = OFF")
            defer { try? db.execute("PRAGMA foreign_keys = ON") }
            let existed = try db.transaction {
                try db.run("DELETE FROM sessions WHERE id = ?", [.text(id)])
                guard db.changes > 0 else { return false }
                try db.run("INSERT OR IGNORE INTO pending_deletions (session_id) VALUES (?)", [.text(id)])
                return true
            }
            if existed {
                pendingDeletions.withLock { _ = $0.insert(id) }
                if sweep { sweeps.withLock { if !$0.contains(id) { $0.append(id) } } }
            }
            return existed
        }
        if existed, sweep { writes.wakeIdleWork() }
    }

    /// Removes deleted session `id`'s rows in the background, a chunk at a time on the writer:
    /// ``commitBatch(_:)`` removes ``batchChunkRows`` rows of the first id in ``sweeps`` inside
    /// each batch's transaction, so under load the chunks cost no sync of their own; when no
    /// commit has come for ``idleSweepDelay``, ``idleSweepStep()`` removes ``deletionChunkRows``
    /// in a transaction of its own, and a commit arriving meanwhile waits for that one chunk at most. Ends when
    /// nothing is left or a chunk fails (the id stays pending; start-up sweeps it again).
    /// - Parameter whenIdle: false leaves the chunks to batches alone (tests).
    func scheduleSweep(_ id: String, whenIdle: Bool = true) {
        sweeps.withLock { if !$0.contains(id) { $0.append(id) } }
        if whenIdle { writes.wakeIdleWork() }
    }

    /// The writer's idle work: one chunk of the first sweep, alone in its transaction. Returns
    /// whether sweeps remain.
    private func idleSweepStep() -> Bool {
        guard let id = sweeps.withLock({ $0.first }) else { return false }
        // A finished sweep leaves `sweeps` inside ``sweepDeletion``, under the writer's lock; a
        // failed one ends here (the id stays pending; start-up sweeps it again).
        if (try? sweepDeletion(id, maxChunks: 1)) == nil { sweeps.withLock { $0.removeAll { $0 == id } } }
        return sweeps.withLock { !$0.isEmpty }
    }

    /// After a batch carrying a chunk of `id` committed: `done` says whether nothing is left
    /// (the chunk also dropped the id from `pending_deletions`), nil when the chunk failed (the
    /// sweep ends; the id stays pending).
    private func sweptChunk(of id: String, done: Bool?) {
        guard done != false else { return }
        if done == true { pendingDeletions.withLock { _ = $0.remove(id) } }
        sweeps.withLock { $0.removeAll { $0 == id } }
    }

    /// Thrown inside a batch's transaction when its chunk's error ended the transaction
    /// (SQLite rolls everything back on `SQLITE_FULL`, `SQLITE_IOERR`, …): the batch is
    /// written again without it.
    private struct ChunkEndedTransaction: Error {}

    /// Thrown inside a batch's transaction written without a savepoint per commit when one of
    /// its commits failed: the batch is rolled back and written again with them (``commitBatch(_:)``).
    private struct WriteAgainInSavepoints: Error {}

    /// One chunk of deleted session `id`'s removal, inside the caller's transaction: at most
    /// `rows` rows of `history`, else of `controllers`; when neither has any left, the id leaves
    /// `pending_deletions`. Touches nothing when the id is not pending, so it never removes rows
    /// of a session created again under it.
    /// - Returns: whether nothing is left (the id is not pending after the transaction).
    private static func removeChunk(of id: String, rows: Int, in db: Connection) throws -> Bool {
        guard try !db.query("SELECT 1 FROM pending_deletions WHERE session_id = ?", [.text(id)]).isEmpty else {
            return true
        }
        for table in ["history", "controllers"] {
            try db.run(
                "DELETE FROM \(table) WHERE rowid IN (SELECT rowid FROM \(table) WHERE session_id = ? LIMIT ?)",
                [.text(id), .integer(Int64(max(rows, 1)))])
            if db.changes > 0 { return false }
        }
        try db.run("DELETE FROM pending_deletions WHERE session_id = ?", [.text(id)])
        return true
    }

    /// Removes what is left of deleted session `id`, at most `chunkRows` rows per transaction
    /// (history first, then controllers), for at most `maxChunks` transactions. The transaction
    /// that finds nothing left also drops the id from `pending_deletions`. Each chunk first checks
    /// that the id is still pending, so a sweep never touches a session created again under the
    /// same id after ``finishDeletion(_:)``.
    /// - Returns: whether nothing is left (the id is no longer pending).
    @discardableResult
    func sweepDeletion(_ id: String, chunkRows: Int = SessionStore.deletionChunkRows, maxChunks: Int = .max) throws -> Bool {
        var chunks = 0
        while chunks < maxChunks {
            chunks += 1
            let done = try writer.withLock { db -> Bool in
                let done = try db.transaction { try Self.removeChunk(of: id, rows: chunkRows, in: db) }
                if done {
                    pendingDeletions.withLock { _ = $0.remove(id) }
                    sweeps.withLock { $0.removeAll { $0 == id } }
                }
                return done
            }
            if done { return true }
        }
        return false
    }

    /// Finishes the removal of deleted session `id` now, if any is pending: a session created
    /// again under the id must not meet its predecessor's rows. Returns at once otherwise.
    public func finishDeletion(_ id: String) throws {
        guard pendingDeletions.withLock({ $0.contains(id) }) else { return }
        try sweepDeletion(id)
    }

    /// Calls `body` once no rows of a deleted session `id` are left: at once on the caller's
    /// thread when none is pending (the usual case), else on the writer's queue after the
    /// remaining chunks (``finishDeletion(_:)``), so a creation under a recently deleted id does
    /// not hold a handler thread. `body` receives the sweep's error, if any.
    public func afterDeletion(of id: String, _ body: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        guard pendingDeletions.withLock({ $0.contains(id) }) else { return body(.success(())) }
        writes.perform { [self] in body(Result { try finishDeletion(id) }) }
    }

    /// Sweeps every deletion a previous run left unfinished, in the background (start-up).
    public func resumeDeletions() {
        for id in pendingDeletions.withLock({ $0.sorted() }) { scheduleSweep(id) }
    }

    /// Waits until the background removals scheduled so far have run (tests, shutdown).
    public func waitForDeletions() {
        // Each pass lets the writer run what is queued; an idle chunk is queued once its delay
        // has passed, so the loop pauses for about that long between passes. A sweep ends after
        // finitely many chunks.
        while !sweeps.withLock({ $0.isEmpty }) {
            writes.waitForQueuedWork()
            if !sweeps.withLock({ $0.isEmpty }) { _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(1)) }
        }
    }

    /// The ids whose rows are still being removed.
    var pendingDeletionIDs: Set<String> { pendingDeletions.withLock { $0 } }

    /// The ids the writer is sweeping, in order (tests of the chunked delete).
    var sweepingIDs: [String] { sweeps.withLock { $0 } }

    /// Rows of `controllers` and `history` that carry `session`'s id (tests of the chunked delete).
    func childRowCount(session: String) throws -> Int {
        try read { db in
            let c = try db.query(
                "SELECT (SELECT count(*) FROM controllers WHERE session_id = ?1) + (SELECT count(*) FROM history WHERE session_id = ?1) AS n",
                [.text(session)])
            return Int(c.first?.int("n") ?? 0)
        }
    }

    /// Stores a storyboard, replacing one of the same name; durable before it returns.
    public func putStoryboard(_ s: StoredStoryboard) throws {
        try putStoryboards([s])
    }

    /// Stores several storyboards in one transaction (all or none), durable before it returns:
    /// a refactor's two documents (`POST /v1/storyboards/{name}/refactor`).
    public func putStoryboards(_ list: [StoredStoryboard]) throws {
        try writer.withLock { db in
            try db.transaction { try db.upsert(list) }
        }
    }

    /// Deletes a storyboard; durable before it returns.
    /// - Returns: Whether a storyboard of that name existed.
    public func deleteStoryboard(_ name: String) throws -> Bool {
        try writer.withLock { db in
            try db.transaction {
                try db.write(Connection.statements.deleteStoryboard, [.text(name)])
                guard db.changes > 0 else { return false }
                try db.bumpStoryboardRevision()
                return true
            }
        }
    }

    /// One read-only connection of the pool, in its own lock (a `Mutex` cannot sit in an array).
    final class Reader: Sendable {
        let connection: Mutex<Connection>
        init(path: String) throws { connection = Mutex(try Connection(path: path, readOnly: true, durability: .full)) }
    }

    // MARK: Metrics

    /// Told each transaction's commit count once it is written (the service's batch-size histogram).
    ///
    /// A class around the closure, not the closure itself in the `Mutex`: reading a function
    /// value out of `Mutex.withLock` re-abstracted it and stored the thunk back, so every batch
    /// wrapped the observer in two more thunks and calling it cost more with each batch.
    public let batchObserver = Mutex<BatchObserver?>(nil)

    /// Counters for /metrics: commits, batches (transactions), largest batch.
    ///
    /// `commits / batches` is the average batch size, i.e. how many commits shared each sync.
    public var statistics: (commits: Int, batches: Int, largestBatch: Int) {
        counters.withLock { ($0.commits, $0.batches, $0.largestBatch) }
    }

    /// Controller rows written (upserted or deleted) by successful commits so far: a commit
    /// writes the controllers its operation changed, not the whole session.
    var controllerRowsWritten: Int { counters.withLock { $0.controllerRows } }
}

// MARK: - Bookkeeping

private struct Counters {
    var commits = 0
    var batches = 0
    var largestBatch = 0
    var controllerRows = 0
}

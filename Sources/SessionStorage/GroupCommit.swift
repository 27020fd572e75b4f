import Dispatch
import Synchronization

/// Group commit through one writer thread, for a store whose writes go through one connection:
/// jobs queued while a transaction is being written wait, and the next transaction writes all
/// of them, so they share one durable sync. Callers never wait on a thread of their own;
/// each is called back with its job's outcome.
///
/// One serial dispatch queue writes a batch (everything queued so far) per turn through the
/// `writeBatch` given with the jobs (a store passes its own batch writer; taking it per call
/// lets the store create this queue before `self` exists), then calls the batch's completions one at a time in the
/// order the jobs were queued, and goes on until the queue is empty.
///
/// Both stores write through it: `SessionStore` (SQLiteStore) and `PostgresSessionStore` (PostgresStore). A store
/// may also give it idle work (``setIdleWork(after:_:)``, SQLite's deletion chunks), done a step
/// at a time when no job has come for a while.
///
/// Not generic: both stores queue ``SessionCommit``s, and a generic class called from their
/// modules would run unspecialised, looking up type metadata and key paths on every batch.
package final class WriterQueue: Sendable {
    /// What one queued write is.
    package typealias Job = SessionCommit
    private let state = Mutex(State())
    private let thread: DispatchQueue
    package typealias BatchWriter = @Sendable ([Job]) -> [Result<Void, any Error>]

    private struct State {
        var waiting: [(job: Job, completion: @Sendable (Result<Void, any Error>) -> Void)] = []
        var writing = false
        /// The last `writeBatch` given to ``enqueue(_:writeBatch:then:)``.
        var writeBatch: BatchWriter?
        /// What the writer does when no job is waiting (``setIdleWork(_:)``).
        var idleWork: IdleWork?
        /// ``wakeIdleWork()`` calls so far, and the count an idle step last answered "nothing
        /// more" for: idle steps run while they differ (a wake during a step is not lost).
        var idleWakes = 0
        var idleAnswered = 0
        /// An idle step is armed (``idleTick()`` is scheduled).
        var idleArmed = false
        /// When the writer last had a job: queued, or its batch written (uptime nanoseconds).
        var lastBusy: UInt64 = 0
    }

    /// A class around the closure (a function value read out of `Mutex.withLock` is
    /// re-abstracted on every read, see `BatchObserver`).
    private final class IdleWork: Sendable {
        let step: @Sendable () -> Bool
        /// How long the writer must have had no job before a step, in nanoseconds.
        let delay: UInt64
        init(_ step: @escaping @Sendable () -> Bool, delay: Duration) {
            self.step = step
            let parts = delay.components
            self.delay = UInt64(max(0, parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000))
        }
    }

    private enum Turn {
        case batch([(job: Job, completion: @Sendable (Result<Void, any Error>) -> Void)], BatchWriter)
        /// Nothing to write; an idle step is to be tried after that many nanoseconds.
        case stop(armingIdleAfter: UInt64?)
    }

    /// What ``idleTick()`` does: the step, the check again later, or nothing.
    private enum Tick {
        case run(IdleWork, wakes: Int)
        case later(UInt64)
        case none
    }

    /// - Parameter label: The writer's dispatch queue label.
    package init(label: String) {
        thread = DispatchQueue(label: label)
    }

    /// Queues `job` and returns at once; `completion` is called on the writer with its outcome.
    /// - Parameter writeBatch: Writes the jobs given, in order, in one transaction, and returns
    ///   one result per job (same order). Called on the writer only, never concurrently; every
    ///   caller of one queue passes the same function.
    package func enqueue(
        _ job: Job, writeBatch: @escaping BatchWriter,
        then completion: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        let starts = state.withLock { state -> Bool in
            state.waiting.append((job, completion))
            state.writeBatch = writeBatch
            if state.idleWork != nil { state.lastBusy = DispatchTime.now().uptimeNanoseconds }
            guard !state.writing else { return false }
            state.writing = true
            return true
        }
        if starts { thread.async { self.drain() } }
    }

    /// ``enqueue(_:then:)`` waited on; throws the job's error.
    package func submit(_ job: Job, writeBatch: @escaping BatchWriter) throws {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Void, any Error>?>(nil)
        enqueue(job, writeBatch: writeBatch) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        try outcome.withLock { $0 }?.get()
    }

    /// Writes batches while jobs wait. When none does and idle
    /// work was asked for, arms ``idleTick()``: the step runs only if still no job has come by
    /// then, so that clients answered by the last batch, whose next commits are on their way,
    /// find the writer free rather than behind an idle step.
    private func drain() {
        while true {
            let turn = state.withLock { state -> Turn in
                if !state.waiting.isEmpty, let writeBatch = state.writeBatch {
                    defer { state.waiting.removeAll(keepingCapacity: true) }
                    return .batch(state.waiting, writeBatch)
                }
                state.writing = false
                guard state.idleWakes != state.idleAnswered, let work = state.idleWork else { return .stop(armingIdleAfter: nil) }
                state.lastBusy = DispatchTime.now().uptimeNanoseconds
                guard !state.idleArmed else { return .stop(armingIdleAfter: nil) }
                state.idleArmed = true
                return .stop(armingIdleAfter: work.delay)
            }
            switch turn {
            case .batch(let batch, let writeBatch):
                let results = writeBatch(batch.map { $0.job })
                precondition(results.count == batch.count, "writeBatch returns one result per job")
                for i in batch.indices { batch[i].completion(results[i]) }
            case .stop(let delay):
                if let delay { armIdleTick(after: delay) }
                return
            }
        }
    }

    /// One idle step, when the writer is still without a job: then the batches that
    /// came meanwhile, and the next step armed again while the work answers that it has more.
    private func idleTick() {
        let tick = state.withLock { state -> Tick in
            // A drain is queued (it arms the next step when it is done), or nothing is asked.
            guard !state.writing, state.waiting.isEmpty, state.idleWakes != state.idleAnswered,
                let work = state.idleWork
            else {
                state.idleArmed = false
                return .none
            }
            // Busy since the step was armed: wait until it has been quiet for the whole delay.
            let quiet = DispatchTime.now().uptimeNanoseconds &- state.lastBusy
            if quiet < work.delay { return .later(work.delay - quiet) }
            state.idleArmed = false
            state.writing = true
            return .run(work, wakes: state.idleWakes)
        }
        switch tick {
        case .none:
            return
        case .later(let nanoseconds):
            armIdleTick(after: nanoseconds)
        case .run(let work, let wakes):
            if !work.step() { state.withLock { if $0.idleWakes == wakes { $0.idleAnswered = wakes } } }
            drain()
        }
    }

    private func armIdleTick(after nanoseconds: UInt64) {
        thread.asyncAfter(deadline: .now() + .nanoseconds(Int(min(nanoseconds, 1_000_000_000)))) { self.idleTick() }
    }

    /// Sets the work the writer does, one step at a time, when it has had no job for `delay`:
    /// after ``wakeIdleWork()``, steps run until one answers false (nothing more to do). A step
    /// runs on the writer, like a batch, never beside one. Set once, before use.
    package func setIdleWork(after delay: Duration, _ step: @escaping @Sendable () -> Bool) {
        state.withLock { $0.idleWork = IdleWork(step, delay: delay) }
    }

    /// Tells the writer that its idle work has something to do (arming a step when it is idle).
    package func wakeIdleWork() {
        let starts = state.withLock { state -> Bool in
            state.idleWakes &+= 1
            guard !state.writing else { return false }
            state.writing = true
            return true
        }
        if starts { thread.async { self.drain() } }
    }

    /// Runs `work` on the writer after what its queue was given so far: a batch being written,
    /// or one that starts before `work` was queued, goes first.
    package func perform(_ work: @escaping @Sendable () -> Void) { thread.async(execute: work) }

    /// Waits until everything queued on the writer so far has run (an armed idle step is not
    /// queued until its delay has passed).
    package func waitForQueuedWork() { thread.sync {} }
}

/// The pipelined-follower rule both stores apply inside a batch: after a commit of a session
/// fails at version v, a later commit of that session marked ``SessionCommit/followsPending``
/// with a higher version fails unwritten with ``SessionStoreError/predecessorFailed(session:version:)``
/// (it was computed on top of v); the session's next commit that follows nothing pending (the
/// caller rolled back to durable state) ends the chain. Kept by the store between batches, read
/// and written on the writer only.
package struct BrokenChains: Sendable {
    /// Per session, the version of its commit that failed.
    private var failed: [String: Int] = [:]

    /// No broken chain.
    package init() {}

    /// Writes each commit of a batch, in order, inside the batch's open transaction, and returns
    /// one result per commit: a follower of a failed commit is refused unwritten; otherwise
    /// `write` runs (the store's savepoint and statements), and its error fails that commit alone.
    /// - Parameters:
    ///   - isInTransaction: Whether the batch's transaction is still open after an error.
    ///     When it is not (SQLite's `SQLITE_FULL`/`SQLITE_IOERR`, a dropped PostgreSQL
    ///     connection), the earlier commits went with it: the error is rethrown so that the
    ///     caller fails the whole batch (and then calls ``batchFailed(_:)``).
    /// - Throws: that error only.
    package mutating func writeEach(
        _ commits: [SessionCommit], isInTransaction: () -> Bool,
        write: (SessionCommit) throws -> Void
    ) throws -> [Result<Void, any Error>] {
        var results: [Result<Void, any Error>] = []
        results.reserveCapacity(commits.count)
        for commit in commits {
            // A checkpoint written after its entry follows nothing and is followed by nothing.
            if commit.laterCheckpoint != nil {
                do {
                    try write(commit)
                    results.append(.success(()))
                } catch {
                    guard isInTransaction() else { throw error }
                    results.append(.failure(error))
                }
                continue
            }
            let id = commit.session.id, version = commit.history?.version ?? 0
            if let failedVersion = failed[id] {
                if commit.followsPending, version > failedVersion {
                    results.append(.failure(SessionStoreError.predecessorFailed(session: id, version: failedVersion)))
                    continue
                }
                // Built on durable state (the caller rolled back): the chain is over.
                if !commit.followsPending { failed[id] = nil }
            }
            do {
                try write(commit)
                results.append(.success(()))
            } catch {
                guard isInTransaction() else { throw error }
                failed[id] = version
                results.append(.failure(error))
            }
        }
        return results
    }

    /// Nothing of the batch was written: each session's first commit in it failed.
    package mutating func batchFailed(_ commits: [SessionCommit]) {
        for commit in commits.reversed() where commit.laterCheckpoint == nil {
            failed[commit.session.id] = commit.history?.version ?? 0
        }
    }
}

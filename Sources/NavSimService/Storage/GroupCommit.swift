import Dispatch
import Synchronization

/// Group commit, leader/follower, for a store whose writes go through one connection: callers
/// that arrive while a transaction is being written queue up, and the next transaction writes
/// all of them, so they share one durable sync.
///
/// The first caller that finds nobody writing becomes the leader and writes everything queued
/// so far through `writeBatch`; the others wait for their own result. A leader that is done
/// hands the lead to the oldest caller that queued meanwhile and returns, so no caller waits
/// for more than the transaction in flight when it arrived and the one carrying its own job.
///
/// ``PostgresSessionStore`` uses it. `SessionStore` (SQLite) has the same algorithm inline,
/// from before this type; it can move onto this one without a change of behaviour.
final class GroupCommitter<Job: Sendable>: Sendable {
    private let state = Mutex(State())

    private struct State {
        var waiting: [Ticket] = []
        var writing = false
    }

    /// One caller's job and the slot through which whoever writes it answers.
    private final class Ticket: Sendable {
        enum Outcome: Sendable {
            case finished(Result<Void, any Error>)
            case lead
        }

        let job: Job
        private let semaphore = DispatchSemaphore(value: 0)
        private let outcome = Mutex<Outcome?>(nil)

        init(_ job: Job) { self.job = job }

        func wait() -> Outcome {
            semaphore.wait()
            return outcome.withLock { outcome in
                guard let outcome else { preconditionFailure("a ticket was signalled without an outcome") }
                return outcome
            }
        }

        func resolve(_ outcome: Outcome) {
            self.outcome.withLock { $0 = outcome }
            semaphore.signal()
        }
    }

    /// Queues `job` and returns once it was written, by this caller or another.
    ///
    /// - Parameter writeBatch: Writes the jobs given, in order, in one transaction, and returns
    ///   one result per job (same order). Called by whichever caller leads, never concurrently.
    /// - Throws: This job's own error.
    func submit(_ job: Job, writeBatch: ([Job]) -> [Result<Void, any Error>]) throws {
        let ticket = Ticket(job)
        let leads = state.withLock { state in
            state.waiting.append(ticket)
            if state.writing { return false }
            state.writing = true
            return true
        }
        if !leads, case .finished(let result) = ticket.wait() {
            return try result.get()
        }
        let batch = state.withLock { state in
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        let results = writeBatch(batch.map(\.job))
        precondition(results.count == batch.count, "writeBatch returns one result per job")
        let next = state.withLock { state in
            // While nobody is writing, nobody is waiting: a caller arriving now either finds
            // `writing` false and leads, or is in `waiting` and is handed the lead.
            if state.waiting.isEmpty { state.writing = false }
            return state.waiting.first
        }
        var own: Result<Void, any Error> = .success(())
        for (other, result) in zip(batch, results) {
            if other === ticket { own = result } else { other.resolve(.finished(result)) }
        }
        next?.resolve(.lead)
        try own.get()
    }
}

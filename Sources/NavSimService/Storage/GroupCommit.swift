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
/// ``PostgresSessionStore`` uses it. `SessionStore` (SQLite) has the same algorithm inline,
/// from before this type; it can move onto this one without a change of behaviour.
final class WriterQueue<Job: Sendable>: Sendable {
    private let state = Mutex(State())
    private let thread: DispatchQueue
    typealias BatchWriter = @Sendable ([Job]) -> [Result<Void, any Error>]

    private struct State {
        var waiting: [(job: Job, completion: @Sendable (Result<Void, any Error>) -> Void)] = []
        var writing = false
        var held = false
        /// The last `writeBatch` given to ``enqueue(_:writeBatch:then:)``.
        var writeBatch: BatchWriter?
    }

    /// - Parameter label: The writer's dispatch queue label.
    init(label: String) {
        thread = DispatchQueue(label: label)
    }

    /// Queues `job` and returns at once; `completion` is called on the writer with its outcome.
    /// - Parameter writeBatch: Writes the jobs given, in order, in one transaction, and returns
    ///   one result per job (same order). Called on the writer only, never concurrently; every
    ///   caller of one queue passes the same function.
    func enqueue(_ job: Job, writeBatch: @escaping BatchWriter,
                 then completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let starts = state.withLock { state -> Bool in
            state.waiting.append((job, completion))
            state.writeBatch = writeBatch
            guard !state.writing, !state.held else { return false }
            state.writing = true
            return true
        }
        if starts { thread.async { self.drain() } }
    }

    /// ``enqueue(_:then:)`` waited on; throws the job's error.
    func submit(_ job: Job, writeBatch: @escaping BatchWriter) throws {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Void, any Error>?>(nil)
        enqueue(job, writeBatch: writeBatch) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        try outcome.withLock { $0 }?.get()
    }

    private func drain() {
        while true {
            let (batch, writeBatch) = state.withLock { state -> ([(job: Job, completion: @Sendable (Result<Void, any Error>) -> Void)], BatchWriter?) in
                guard !state.held, !state.waiting.isEmpty else {
                    state.writing = false
                    return ([], nil)
                }
                defer { state.waiting.removeAll(keepingCapacity: true) }
                return (state.waiting, state.writeBatch)
            }
            guard let writeBatch, !batch.isEmpty else { return }
            let results = writeBatch(batch.map(\.job))
            precondition(results.count == batch.count, "writeBatch returns one result per job")
            for (queued, result) in zip(batch, results) { queued.completion(result) }
        }
    }

    /// Test hook: while held, queued jobs wait (so a test can line several up in one batch).
    func hold() { state.withLock { $0.held = true } }

    /// Ends ``hold()``.
    func release() {
        let starts = state.withLock { state -> Bool in
            state.held = false
            guard !state.writing, !state.waiting.isEmpty else { return false }
            state.writing = true
            return true
        }
        if starts { thread.async { self.drain() } }
    }
}

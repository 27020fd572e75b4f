import NavigationCore
import SessionFormat

/// The identity of one applied version, or of a session's preparer; compared with `===`. A
/// version keeps it when its number is taken again (a rerun after a stale commit), so the
/// store's answer for a dropped version never touches the one that replaced it.
final class CommitToken: Sendable {}

/// One session's writes from "applied" to "durable", as a value: each event is a `mutating`
/// function that returns what the caller must do (an action), in the style of swift-nio's state
/// machines. It performs nothing itself: no lock, no store, no reply; ``SessionWriter`` drives it
/// under the session's lock and performs the actions.
///
/// A write goes through three events, in this order:
///
/// 1. ``apply(_:work:client:committedVersion:)``: the version is decided (the core's turn ran on
///    ``headState(committed:)``) and appended to the pending ones. The first writer to find no
///    preparer becomes it and gets the version's ``Job``.
/// 2. ``prepared(_:encoded:reply:shell:)`` or ``preparationFailed(_:)``: the preparer built the
///    version's rows, bytes and reply outside the lock. Prepared, its commit is queued now, under
///    the lock, so a session's commits reach the store in version order; then
///    ``nextJob(for:)`` gives the preparer the next applied version, or ends its role.
/// 3. ``committed(_:laterCheckpoint:outcome:)``: the store's answer, in queue order. Durable, the
///    oldest pending version becomes the committed view and its reply goes out; failed, it and
///    every version on top of it are dropped and answered with the failure.
///
/// `Work` is what preparing a version needs, `Reply` what its client is sent once durable,
/// `Client` who waits for it; the machine only stores them.
struct WritePipeline<Work: Sendable, Reply: Sendable, Client: Sendable>: Sendable {
    /// The arguments by name, for the code that drives one specialisation (``SessionWriter``).
    typealias WorkType = Work
    typealias ReplyType = Reply
    typealias ClientType = Client

    /// A version applied on top of the committed one, not yet durable.
    struct Version: Sendable {
        let number: Int
        let state: SessionState
        let client: Client
        let token: CommitToken
        var stage: Stage
    }

    /// Where a pending version is.
    enum Stage: Sendable {
        /// Applied: what preparing it needs.
        case applied(Work)
        /// Prepared, its commit queued: its representation and the reply sent once durable;
        /// `laterCheckpoint`: its checkpoint is encoded and stored after it is durable.
        case prepared(encoded: EncodedSession, reply: Reply, laterCheckpoint: Bool)
    }

    /// What the session's writes are doing.
    enum State: Sendable {
        /// No version pending and no preparer: the committed view is the head.
        case idle
        /// A preparer builds the applied versions, oldest first (`pending` may be empty after a
        /// failure dropped them, until the preparer asks for its next job).
        case preparing(pending: [Version], preparer: CommitToken)
        /// Every pending version is prepared and its commit queued; no preparer.
        case committing(pending: [Version])
    }

    /// What preparing one applied version starts from.
    struct Job: Sendable {
        let token: CommitToken
        let number: Int
        let state: SessionState
        let work: Work
        /// The version before it: nil for the committed one (whose state and bytes the session
        /// holds), else the pending one's state and bytes.
        let previous: (state: SessionState, encoded: EncodedSession)?
        /// The session row as the last prepared version left it (``Persistence/Shell``).
        let shell: Persistence.Shell?
        /// Its commit follows one not yet durable (``SessionCommit/followsPending``).
        let followsPending: Bool
        /// Its checkpoint is encoded with its entry, because the session's previous one is still
        /// being encoded off the handler threads.
        let checkpointNow: Bool
    }

    /// What the caller does after ``apply(_:work:client:committedVersion:)``.
    enum ApplyAction: Sendable {
        /// Become the session's preparer (`preparer`) and prepare `job`, outside the lock.
        case prepare(Job, preparer: CommitToken)
        /// Nothing: the session's preparer will prepare it.
        case none
    }

    /// What the caller does after ``prepared(_:encoded:reply:shell:)``.
    enum PreparedAction: Sendable {
        /// Queue the version's commit now, still under the lock; pass `laterCheckpoint` back
        /// with the store's answer.
        case commit(laterCheckpoint: Bool)
        /// Nothing: a failure dropped the version while it was prepared.
        case none
    }

    /// What the caller does after ``committed(_:laterCheckpoint:outcome:)``.
    enum CommitAction: Sendable {
        /// The version is durable: make it the committed view, send `reply` to `client`, and
        /// when `checkpoint`, store its checkpoint later.
        case durable(
            number: Int, state: SessionState, encoded: EncodedSession, reply: Reply, client: Client,
            checkpoint: Bool)
        /// The commit failed: answer these clients (the version and those applied on top of it) with the failure.
        case failed([Client])
        /// The store refused the commit as stale (another instance wrote the session): drop the
        /// copy in memory and run these clients' requests again, or answer them with a conflict.
        case stale([Client])
        /// Nothing: the version was already dropped with a failed predecessor.
        case none
    }

    /// How the store answered a commit.
    enum CommitOutcome: Sendable {
        case durable
        case stale
        case failed
    }

    private(set) var state: State = .idle
    /// The session row's stored form as the last prepared version left it; nil after a failure
    /// (the next commit builds it from the state).
    private(set) var shell: Persistence.Shell?
    /// One of the session's checkpoints is being encoded or stored off the handler threads: the
    /// next one is then encoded with its entry, so they never pile up.
    private(set) var checkpointing = false
    /// How many of `pending`'s versions, from the oldest, are prepared. The preparer prepares
    /// them oldest first, a durable one leaves from the front and a failure drops the newest
    /// ones, so the prepared versions are always a prefix: the next job is found by index, not by
    /// a walk that would copy every pending version under the session's lock.
    private(set) var preparedCount = 0

    /// Versions applied and not durable, ascending and gapless.
    var pending: [Version] {
        switch state {
        case .idle: []
        case .preparing(let pending, _), .committing(let pending): pending
        }
    }

    /// Nothing is held only here: no version waits for its commit.
    var isIdle: Bool { pending.isEmpty }

    /// The version the next write builds on: the last pending one, else the committed one.
    /// (Read by index, field by field: `pending.last` would copy the whole version.)
    func headVersion(committed: Int) -> Int {
        let pending = self.pending
        return pending.isEmpty ? committed : pending[pending.count - 1].number
    }

    /// The state the next write runs on.
    func headState(committed: SessionState) -> SessionState {
        let pending = self.pending
        return pending.isEmpty ? committed : pending[pending.count - 1].state
    }

    /// Applies a decided version (`state`, from the core's turn on the head) on top of the head.
    mutating func apply(_ state: SessionState, work: Work, client: Client, committedVersion: Int) -> ApplyAction {
        let version = Version(
            number: headVersion(committed: committedVersion) + 1, state: state, client: client,
            token: CommitToken(), stage: .applied(work))
        switch self.state {
        case .idle:
            let preparer = CommitToken()
            self.state = .preparing(pending: [version], preparer: preparer)
            return nextJob(for: preparer).map { .prepare($0, preparer: preparer) } ?? .none
        case .committing:
            var pending = takePending()
            pending.append(version)
            let preparer = CommitToken()
            self.state = .preparing(pending: pending, preparer: preparer)
            return nextJob(for: preparer).map { .prepare($0, preparer: preparer) } ?? .none
        case .preparing(_, let preparer):
            var pending = takePending()
            pending.append(version)
            self.state = .preparing(pending: pending, preparer: preparer)
            return .none
        }
    }

    /// The oldest applied version for `preparer` to prepare; nil when none is left (the session
    /// has no preparer then) or `preparer` is not the session's.
    mutating func nextJob(for preparer: CommitToken) -> Job? {
        switch state {
        case .idle, .committing:
            return nil
        case .preparing(let pending, let current):
            guard current === preparer else { return nil }
            let i = preparedCount
            guard i < pending.count, case .applied(let work) = pending[i].stage else {
                state = pending.isEmpty ? .idle : .committing(pending: pending)
                return nil
            }
            var previous: (state: SessionState, encoded: EncodedSession)?
            if i > 0, case .prepared(let encoded, _, _) = pending[i - 1].stage { previous = (pending[i - 1].state, encoded) }
            let number = pending[i].number
            return Job(
                token: pending[i].token, number: number, state: pending[i].state, work: work,
                previous: previous, shell: shell, followsPending: i > 0,
                checkpointNow: SessionHistory.keepsCheckpoint(number) && checkpointing)
        }
    }

    /// The preparer built `job`'s version.
    mutating func prepared(_ job: Job, encoded: EncodedSession, reply: Reply, shell: Persistence.Shell) -> PreparedAction {
        guard let (i, preparer) = appliedVersion(job.token) else { return .none }
        var pending = takePending()
        let laterCheckpoint = SessionHistory.keepsCheckpoint(job.number) && !job.checkpointNow
        pending[i].stage = .prepared(encoded: encoded, reply: reply, laterCheckpoint: laterCheckpoint)
        state = .preparing(pending: pending, preparer: preparer)
        preparedCount += 1
        self.shell = shell
        if laterCheckpoint { checkpointing = true }
        return .commit(laterCheckpoint: laterCheckpoint)
    }

    /// The preparer could not build `job`'s version: it and the versions on top of it are dropped.
    /// - Returns: their clients, to answer with the failure.
    mutating func preparationFailed(_ job: Job) -> [Client] {
        drop(from: job.token)
    }

    /// The store answered the commit of the version `token`. `laterCheckpoint` is what
    /// ``prepared(_:encoded:reply:shell:)`` said for it: its checkpoint was left out, so the
    /// session's next checkpoint may go off the handler threads again.
    mutating func committed(_ token: CommitToken, laterCheckpoint: Bool, outcome: CommitOutcome) -> CommitAction {
        if laterCheckpoint { checkpointing = false }
        switch outcome {
        case .durable:
            guard let first = pending.first, first.token === token,
                case .prepared(let encoded, let reply, _) = first.stage
            else { return .none }
            var pending = takePending()
            pending.removeFirst()
            preparedCount -= 1
            replace(pending)
            // Its checkpoint is encoded now that it is durable, and the next one waits for it.
            if laterCheckpoint { checkpointing = true }
            return .durable(
                number: first.number, state: first.state, encoded: encoded, reply: reply,
                client: first.client, checkpoint: laterCheckpoint)
        case .stale:
            guard pending.contains(where: { $0.token === token }) else { return .none }
            return .stale(drop(from: token))
        case .failed:
            guard pending.contains(where: { $0.token === token }) else { return .none }
            return .failed(drop(from: token))
        }
    }

    /// A checkpoint stored off the handler threads is stored (or failed): the next may go there too.
    mutating func checkpointStored() {
        checkpointing = false
    }

    /// Drops the version `token` and every one applied on top of it: the head is the committed
    /// view again (their commits, queued, fail unwritten as ``SessionCommit/followsPending``).
    private mutating func drop(from token: CommitToken) -> [Client] {
        guard let at = pending.firstIndex(where: { $0.token === token }) else { return [] }
        var pending = takePending()
        let dropped = pending[at...].map { $0.client }
        pending.removeSubrange(at...)
        preparedCount = min(preparedCount, at)
        replace(pending)
        shell = nil
        return dropped
    }

    /// Where the applied (not yet prepared) version `token` is while a preparer works, and who
    /// that preparer is; nil otherwise. Only the oldest applied version is prepared next.
    private func appliedVersion(_ token: CommitToken) -> (index: Int, preparer: CommitToken)? {
        guard case .preparing(let pending, let preparer) = state, preparedCount < pending.count,
            pending[preparedCount].token === token, case .applied = pending[preparedCount].stage
        else { return nil }
        return (preparedCount, preparer)
    }

    /// Moves `pending` out of the state, leaving it empty there (the state's shape unchanged), so
    /// that changing it does not copy the array: the caller puts it back (``replace(_:)``).
    private mutating func takePending() -> [Version] {
        switch state {
        case .idle:
            return []
        case .preparing(let pending, let preparer):
            state = .preparing(pending: [], preparer: preparer)
            return pending
        case .committing(let pending):
            state = .committing(pending: [])
            return pending
        }
    }

    /// `pending` in the current state; a state without a preparer and nothing pending is idle.
    private mutating func replace(_ pending: [Version]) {
        switch state {
        case .idle, .committing:
            state = pending.isEmpty ? .idle : .committing(pending: pending)
        case .preparing(_, let preparer):
            state = .preparing(pending: pending, preparer: preparer)
        }
    }
}

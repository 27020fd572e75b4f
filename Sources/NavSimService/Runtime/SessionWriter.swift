import Dispatch
import NavigationCore
import SessionFormat
import SessionStorage

/// How a write failed, for its client to render; nothing of it was stored.
enum WriteFailure: Error {
    /// The store could not write it, or a version it was applied on top of.
    case storage(any Error)
    /// Its rows, representation or reply could not be built (the error as thrown).
    case preparation(any Error)
    /// The store refused it as stale on its rerun too: another instance keeps writing the session.
    case conflict
}

/// Who waits for a write's outcome, answered exactly once.
protocol WriteClient: Sendable {
    associatedtype Reply: Sendable
    /// The write is durable (`reply`), or failed.
    func answer(_ outcome: Result<Reply, WriteFailure>)
    /// Runs the write again on the session read again from the store, when the store refused
    /// its commit as stale; nil when it is not to run again (it is answered ``WriteFailure/conflict``).
    var rerun: (@Sendable () -> Void)? { get }
}

/// What the preparer built for one version, outside the session's lock.
struct PreparedVersion: Sendable {
    let commit: SessionCommit
    let shell: Persistence.Shell
    let encoded: EncodedSession
    let reply: SessionWrites.ReplyType
    /// The turn's operations UIKit refused, counted once the version is durable.
    let refusals: Int
}

/// Drives each session's ``WritePipeline`` (``LiveSession/writes``): takes the session's lock,
/// sends the machine an event, and performs the action it returns. The only code that writes
/// a session's pending versions.
///
/// **Who touches what, under which lock.** Everything in a ``LiveSession`` (committed view and
/// pipeline) is read and written only under its ``SessionBox``'s lock. A write takes it three
/// times, each for what cannot be done without it, and nothing slow runs under it:
///
/// 1. ``apply(_:client:decide:)``, on the handler's thread: `If-Match`, the decoding and the
///    core's turn on the head decide the version, which is applied. They must see the head of
///    the versions applied before, and the next write must see this one.
/// 2. ``prepare(_:as:first:)``, on the preparer's thread, after building the version's rows,
///    bytes and reply without the lock: records them and queues the commit, so one session's
///    commits reach the store in version order, then takes the next version or ends the role.
///    Building under lock 1 would make the session's next write wait for it; without this lock
///    a write applied meanwhile could find the session with a preparer that has left.
/// 3. ``committed(_:token:laterCheckpoint:refusals:since:_:)``, on the store's writer, in queue
///    order: the version becomes the committed view that reads show, only once durable.
///
/// Replies, reruns and late checkpoints are sent after the lock is released. The store, the
/// registry and the counters are themselves thread-safe and need no session lock.
final class SessionWriter: Sendable {
    let store: any SessionStoring
    let sessions: SessionRegistry
    let pastVersions: PastVersions
    let checkpoints: LateCheckpoints
    /// Builds a version's commit, representation and reply (the HTTP layer's `prepareVersion`).
    let build: @Sendable (PrepareJob) throws -> PreparedVersion
    /// Observes a commit's duration, from its queueing to the store's answer.
    let observeCommit: @Sendable (Duration) -> Void
    /// Counts operations UIKit refused in a durable turn.
    let countRefusals: @Sendable (Int) -> Void

    /// Versions one preparer builds on its own thread before handing the rest to a Dispatch
    /// worker: a handler thread goes back to its other connections within that many.
    static let preparedPerTurn = 8

    init(
        store: any SessionStoring, sessions: SessionRegistry, pastVersions: PastVersions,
        checkpoints: LateCheckpoints, build: @escaping @Sendable (PrepareJob) throws -> PreparedVersion,
        observeCommit: @escaping @Sendable (Duration) -> Void, countRefusals: @escaping @Sendable (Int) -> Void
    ) {
        self.store = store
        self.sessions = sessions
        self.pastVersions = pastVersions
        self.checkpoints = checkpoints
        self.build = build
        self.observeCommit = observeCommit
        self.countRefusals = countRefusals
    }

    /// Applies a write to the session `box` holds (lock 1): `decide` runs on its head (version
    /// and state) and returns the new state and what preparing it needs, or throws the problem
    /// that refuses it with nothing changed. Whoever applies a version while no one prepares the
    /// session's versions prepares them, starting with this one, on this thread.
    func apply(
        _ box: SessionBox, client: SessionWrites.ClientType,
        decide: (_ version: Int, _ head: SessionState) throws(Problem) -> (SessionState, SessionWrites.WorkType)
    ) throws(Problem) {
        let sessions = self.sessions
        let first: (CommitToken, PrepareJob)? = try box.withSession { live throws(Problem) in
            let (state, work) = try decide(live.headVersion, live.headState)
            switch live.writes.apply(state, work: work, client: client, committedVersion: live.version) {
            case .none: return nil
            case .prepare(let job, let preparer): return (preparer, live.resolve(job, in: sessions))
            }
        }
        if let (preparer, job) = first { prepare(box, as: preparer, first: job) }
    }

    /// The preparer's loop (lock 2 once per version): builds each applied version outside the
    /// lock, oldest first, each from the one before, then under the lock records it, queues its
    /// commit and takes the next. After ``preparedPerTurn`` versions a Dispatch worker goes on.
    func prepare(_ box: SessionBox, as preparer: CommitToken, first: PrepareJob) {
        var next: PrepareJob? = first
        var prepared = 0
        while let job = next {
            let built = Result { try build(job) }
            prepared += 1
            let handOff = prepared >= Self.preparedPerTurn
            let sessions = self.sessions
            let (failed, following): ([SessionWrites.ClientType], PrepareJob?) =
                box.writing { live, _ in
                    var failed: [SessionWrites.ClientType] = []
                    switch built {
                    case .success(let version):
                        switch live.writes.prepared(job.job, encoded: version.encoded, reply: version.reply, shell: version.shell) {
                        case .commit(let laterCheckpoint):
                            let started = ContinuousClock.now
                            store.enqueue(version.commit) { [self] outcome in
                                committed(
                                    box, token: job.job.token, laterCheckpoint: laterCheckpoint,
                                    refusals: version.refusals, since: started, outcome)
                            }
                        case .none:
                            break
                        }
                    case .failure:
                        failed = live.writes.preparationFailed(job.job)
                    }
                    return (failed, handOff ? nil : live.nextJob(for: preparer, in: sessions))
                } ?? ([], nil)
            if case .failure(let error) = built {
                for client in failed { client.answer(.failure(.preparation(error))) }
            }
            if handOff {
                DispatchQueue.global().async { [self] in
                    guard let job = box.writing({ live, _ in live.nextJob(for: preparer, in: sessions) }) ?? nil else { return }
                    prepare(box, as: preparer, first: job)
                }
                return
            }
            next = following
        }
    }

    /// The store's answer for the commit of the version `token` (lock 3), on its writer, in
    /// queue order. Durable: the version is the committed view and its reply goes out. Failed:
    /// it and the versions on top of it are answered with the failure. Refused as stale
    /// (another instance wrote the session first): the copy in memory is dropped, so the next
    /// use reads the session again, and the dropped requests run again in version order on a
    /// Dispatch worker, never on the writer; one not to run again is answered with a conflict.
    func committed(
        _ box: SessionBox, token: CommitToken, laterCheckpoint: Bool, refusals: Int,
        since started: ContinuousClock.Instant, _ outcome: Result<Void, any Error>
    ) {
        observeCommit(ContinuousClock.now - started)
        let kind: SessionWrites.CommitOutcome
        switch outcome {
        case .success: kind = .durable
        case .failure(let error) where error.isStaleVersion: kind = .stale
        case .failure: kind = .failed
        }
        let sessions = self.sessions
        let answer = box.writing { live, reload in
            let action = live.commit(token, laterCheckpoint: laterCheckpoint, outcome: kind, in: sessions)
            if case .stale = action { reload = true }
            return (action, live.createdAt)
        }
        guard let (action, createdAt) = answer else { return }
        switch action {
        case .none:
            break
        case .durable(let version, let state, let encoded, let reply, let client, let checkpoint):
            if refusals > 0 { countRefusals(refusals) }
            if checkpoint {
                // The block's base for `?version=N` is this version, already encoded for its
                // reply: kept now, the block's first read does not decode and encode it again.
                pastVersions.keep(
                    PastVersions.Base(version: version, state: state, encoded: encoded),
                    as: PastVersions.Key(session: box.id, createdAt: createdAt, checkpoint: version))
            }
            client.answer(.success(reply))
            if checkpoint { checkpointLater(box, version: version, createdAt: createdAt, state: state) }
        case .failed(let clients):
            if case .failure(let error) = outcome {
                for client in clients { client.answer(.failure(.storage(error))) }
            }
        case .stale(let clients):
            var reruns: [@Sendable () -> Void] = []
            for client in clients {
                if let rerun = client.rerun { reruns.append(rerun) } else { client.answer(.failure(.conflict)) }
            }
            if !reruns.isEmpty {
                DispatchQueue.global().async { [reruns] in for rerun in reruns { rerun() } }
            }
        }
    }

    /// Creates the session `live` with its creation's `commit`: takes its id, so no other
    /// creation may (and no route sees a session under it yet); once the rows of a session
    /// deleted under the id are gone, queues the commit; only once it is durable is the session
    /// registered. A failed commit leaves no session and no row, and answers
    /// ``WriteFailure/storage(_:)``; ``WriteFailure/conflict`` when another instance created the
    /// id meanwhile (a shared store), nothing written. `answer` runs off the handler's thread.
    /// `encoded` (version 0's bytes) is cached with the session, as the registry's budget allows.
    /// - Returns: false when the id is taken here (a session, or a creation under way): nothing was done.
    func create(
        _ live: LiveSession, encoded: EncodedSession, commit: SessionCommit,
        answer: @escaping @Sendable (Result<Void, WriteFailure>) -> Void
    ) -> Bool {
        let id = live.id
        guard sessions.reserve(id) else { return false }
        let (sessions, store, observeCommit) = (self.sessions, self.store, self.observeCommit)
        store.afterDeletion(of: id) { finished in
            if case .failure(let error) = finished {
                sessions.unreserve(id)
                return answer(.failure(.storage(error)))
            }
            let started = ContinuousClock.now
            store.enqueue(commit) { outcome in
                observeCommit(ContinuousClock.now - started)
                switch outcome {
                case .success:
                    var live = live
                    live.keep(encoded, in: sessions)
                    // Not added (cannot happen while the id is reserved): its bytes leave the gauge.
                    if sessions.add(live, reserved: true) == nil { live.replaceEncoding(nil, in: sessions) }
                    answer(.success(()))
                case .failure(let error):
                    sessions.unreserve(id)
                    answer(.failure(error.isStaleVersion ? .conflict : .storage(error)))
                }
            }
        }
        return true
    }

    /// Stores the checkpoint of a durable `version` off the handler threads; the session's next
    /// checkpoint goes there too once it is stored.
    func checkpointLater(_ box: SessionBox, version: Int, createdAt: String, state: SessionState) {
        checkpoints.store(box.id, createdAt: createdAt, version: version, state: state) {
            _ = box.writing { live, _ in if live.createdAt == createdAt { live.writes.checkpointStored() } }
        }
    }
}

import Dispatch
import NavigationCore
import SessionFormat
import SessionStorage
import Synchronization

/// Checkpoints encoded and stored after their entries, off the handler threads: a version due a
/// checkpoint is committed without it, and once durable its checkpoint is encoded on a Dispatch
/// worker and written into the entry by a commit of its own (``SessionCommit/checkpoint(session:createdAt:version:text:)``).
/// Until it is stored, `?version=N` starts from the checkpoint before it (docs/history.md).
final class LateCheckpoints: Sendable {
    let store: any SessionStoring
    /// Checkpoints being encoded or stored.
    private let group = DispatchGroup()
    /// The same, by session, creation and version: a read that finds one missing does not
    /// store it again while it is on its way.
    private let inFlight = Mutex<Set<PastVersions.Key>>([])

    init(store: any SessionStoring) {
        self.store = store
    }

    /// Encodes `state` as the checkpoint of `version` on a Dispatch worker and queues its
    /// checkpoint-only commit; `then` runs once it is stored or failed. At most one per
    /// checkpoint at a time; nothing but `then` when it is already on its way.
    func store(
        _ sid: String, createdAt: String, version: Int, state: SessionState,
        then: @escaping @Sendable () -> Void
    ) {
        let key = PastVersions.Key(session: sid, createdAt: createdAt, checkpoint: version)
        guard inFlight.withLock({ $0.insert(key).inserted }) else { return then() }
        group.enter()
        DispatchQueue.global(qos: .utility).async { [self] in
            let done: @Sendable (Result<Void, any Error>) -> Void = { [self] _ in
                inFlight.withLock { _ = $0.remove(key) }
                then()
                group.leave()
            }
            guard let text = try? Persistence.checkpointText(state) else { return done(.success(())) }
            store.enqueue(.checkpoint(session: sid, createdAt: createdAt, version: version, text: text), then: done)
        }
    }

    /// Waits until the checkpoints on their way are stored, for at most `timeout`.
    /// - Returns: false on timeout.
    func wait(timeout: Duration) -> Bool {
        let parts = timeout.components
        let nanoseconds = Int(parts.seconds) * 1_000_000_000 + Int(parts.attoseconds / 1_000_000_000)
        return group.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
    }
}

import NavigationCore
import Synchronization

/// A session as the running service holds it: the authoritative in-memory state, its version and
/// what replay needs. Guarded by its own lock, so sessions run in parallel (ARCHITECTURE.md).
struct LiveSession {
    var id: String
    var createdAt: String
    var version: Int
    var state: SessionState
}

/// One lock per session: operations on a session are serialised, different sessions are not.
final class SessionBox: Sendable {
    let live: Mutex<LiveSession?>
    init(_ session: LiveSession) { live = Mutex(session) }
}

/// The sessions of the process, by id.
final class SessionRegistry: Sendable {
    private let boxes = Mutex<[String: SessionBox]>([:])
    /// Creation order, for paging `GET /v1/sessions`.
    private let order = Mutex<[String]>([])

    func box(_ id: String) -> SessionBox? { boxes.withLock { $0[id] } }

    /// Registers a new session; false when the id is taken.
    func add(_ session: LiveSession) -> SessionBox? {
        let box = SessionBox(session)
        let added = boxes.withLock { dict -> Bool in
            if dict[session.id] != nil { return false }
            dict[session.id] = box
            return true
        }
        guard added else { return nil }
        order.withLock { $0.append(session.id) }
        return box
    }

    func remove(_ id: String) {
        _ = boxes.withLock { $0.removeValue(forKey: id) }
        order.withLock { $0.removeAll { $0 == id } }
    }

    func ids() -> [String] { order.withLock { $0 } }
    var count: Int { boxes.withLock { $0.count } }
}

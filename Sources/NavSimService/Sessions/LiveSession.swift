import NavigationCore
import Synchronization

/// A session as the running service holds it: the authoritative in-memory state, its version and
/// what replay needs. Guarded by its own lock, so sessions run in parallel (ARCHITECTURE.md).
struct LiveSession {
    var id: String
    var createdAt: String
    var version: Int
    var state: SessionState
    /// The representation of `version` as bytes, once a read or a write needed it (issue 11);
    /// nil after a restart until then. Replaced only through ``replaceEncoding(_:in:)``, which
    /// keeps ``SessionRegistry/cachedBytes`` right.
    private(set) var encoded: EncodedSession?

    init(id: String, createdAt: String, version: Int, state: SessionState) {
        self.id = id
        self.createdAt = createdAt
        self.version = version
        self.state = state
    }

    /// The current version's bytes, encoded now when not cached (once per version while the
    /// registry's cache budget has room).
    mutating func encoding(in registry: SessionRegistry) -> EncodedSession {
        if let encoded, encoded.version == version { return encoded }
        let (fresh, _) = EncodedSession.make(id: id, version: version, createdAt: createdAt, state: state, previous: nil)
        keep(fresh, in: registry)
        return fresh
    }

    /// Moves to `state` at `version` (after its commit) and encodes it, from the previous
    /// version's encoding when there is one.
    /// - Returns: the new version's encoding, the ids whose object changed and those that left,
    ///   in the session's order.
    @discardableResult
    mutating func advance(to state: SessionState, version: Int, in registry: SessionRegistry)
        -> (encoded: EncodedSession, changed: [String], removed: [String]) {
        let previous = encoding(in: registry)
        let (fresh, changed) = EncodedSession.make(id: id, version: version, createdAt: createdAt, state: state,
                                                   previous: previous, previousState: self.state)
        let removed = self.state.order.filter { self.state.controllers[$0] != nil && state.controllers[$0] == nil }
        self.state = state
        self.version = version
        keep(fresh, in: registry)
        return (fresh, changed, removed)
    }

    /// Caches `fresh` when the registry's budget has room for it, and drops the old bytes otherwise
    /// (the next read encodes again): memory stays bounded however many sessions are read.
    private mutating func keep(_ fresh: EncodedSession, in registry: SessionRegistry) {
        let total = registry.cachedBytes.load(ordering: .relaxed) - (encoded?.body.count ?? 0) + fresh.body.count
        replaceEncoding(total <= registry.cacheBudget ? fresh : nil, in: registry)
    }

    /// Drops or replaces the cached bytes, counting the difference in the registry's gauge.
    mutating func replaceEncoding(_ new: EncodedSession?, in registry: SessionRegistry) {
        let delta = (new?.body.count ?? 0) - (encoded?.body.count ?? 0)
        encoded = new
        if delta != 0 { registry.cachedBytes.add(delta, ordering: .relaxed) }
    }
}

/// One lock per session: operations on a session are serialised, different sessions are not.
final class SessionBox: Sendable {
    let live: Mutex<LiveSession?>
    init(_ session: LiveSession) { live = Mutex(session) }
}

/// The sessions of the process, by id, with the ids also kept in sorted order, so that a page of
/// `GET /v1/sessions` is a binary search and a slice (keyset paging), not a sort of every id.
final class SessionRegistry: Sendable {
    private struct Index {
        var boxes: [String: SessionBox] = [:]
        /// Every id, ascending (String's `<`: Unicode scalar order, as the listing documents).
        var sorted: [String] = []

        /// The position of the first id greater than `id` (all of them when `id` is nil).
        func firstIndex(after id: String?) -> Int {
            guard let id else { return 0 }
            var low = 0, high = sorted.count
            while low < high {
                let mid = (low + high) / 2
                if sorted[mid] <= id { low = mid + 1 } else { high = mid }
            }
            return low
        }
    }

    private let index = Mutex(Index())
    /// Bytes of session representations held by the read cache (the `navsim_session_cache_bytes` gauge).
    let cachedBytes = Atomic<Int>(0)
    /// The most bytes the read cache keeps (checked without a global lock, so concurrent
    /// sessions may overshoot it by one encoding each).
    let cacheBudget: Int

    /// `cacheBudget`: bytes of encoded sessions kept for reads, 256 MiB unless given.
    init(cacheBudget: Int = 256 << 20) { self.cacheBudget = cacheBudget }

    func box(_ id: String) -> SessionBox? { index.withLock { $0.boxes[id] } }

    /// Registers a new session; nil when the id is taken.
    func add(_ session: LiveSession) -> SessionBox? {
        let box = SessionBox(session)
        let added = index.withLock { index -> Bool in
            guard index.boxes[session.id] == nil else { return false }
            index.boxes[session.id] = box
            index.sorted.insert(session.id, at: index.firstIndex(after: session.id))
            return true
        }
        return added ? box : nil
    }

    /// Registers the sessions loaded at start-up, sorting the ids once; ids already present are skipped.
    func load(_ sessions: [LiveSession]) {
        index.withLock { index in
            for session in sessions where index.boxes[session.id] == nil {
                index.boxes[session.id] = SessionBox(session)
                index.sorted.append(session.id)
            }
            index.sorted.sort()
        }
    }

    func remove(_ id: String) {
        index.withLock { index in
            guard let box = index.boxes.removeValue(forKey: id) else { return }
            let at = index.firstIndex(after: id) - 1
            if at >= 0, index.sorted[at] == id { index.sorted.remove(at: at) }
            _ = box
        }
    }

    /// Up to `limit` sessions whose id is greater than `after`, in id order, and whether more follow.
    func page(after: String?, limit: Int) -> (boxes: [SessionBox], more: Bool) {
        index.withLock { index in
            let start = index.firstIndex(after: after)
            let end = min(start + limit, index.sorted.count)
            return (index.sorted[start..<end].compactMap { index.boxes[$0] }, end < index.sorted.count)
        }
    }

    /// Every id, ascending.
    func ids() -> [String] { index.withLock { $0.sorted } }
    var count: Int { index.withLock { $0.boxes.count } }
}

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
                                                   previous: previous)
        let removed = self.state.orderedControllers.map(\.id).filter { state.controllers[$0] == nil }
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

extension LiveSession {
    /// Whether the session may leave memory now: nothing about it is held only here.
    ///
    /// Every accepted write is durable before the in-memory state moves (``advance(to:version:in:)``
    /// runs after the commit), so a session under its lock always equals its stored rows, and an
    /// evicted session reloads to the same state, version and bytes. A write path that applies
    /// before it commits (a committed/applied split) must answer false here while anything it
    /// applied is not yet committed, and the registry then keeps the session.
    var isIdle: Bool { true }
}

/// One lock per session: operations on a session are serialised, different sessions are not.
///
/// The box outlives its session's state: after start-up, or once the registry evicted it, the box
/// holds nothing, and ``withLock(_:)`` loads the session from the store (under the box's lock, so
/// exactly once) before running its body. A deleted session leaves a box holding nil, which every
/// body reads as "no such session".
final class SessionBox: Sendable {
    /// The session's state when loaded (`session` nil and `loaded` true: deleted).
    private struct Slot {
        var session: LiveSession?
        var loaded: Bool
    }

    let id: String
    private let slot: Mutex<Slot>
    /// Set by every use, cleared by the registry's eviction sweep: a used session gets a second chance.
    fileprivate let touched = Atomic<Bool>(true)
    private unowned let registry: SessionRegistry

    fileprivate init(id: String, loaded session: LiveSession?, registry: SessionRegistry) {
        self.id = id
        self.registry = registry
        slot = Mutex(Slot(session: session, loaded: session != nil))
    }

    /// Runs `body` on the session under its lock, loading it from the store first when it is not
    /// in memory. `body` sees nil for a deleted session; setting nil deletes it from memory.
    /// A session that cannot be loaded (the store failed, or holds a row this build cannot read)
    /// is a 503 `storage-error` and nothing changes.
    func withLock<T>(_ body: (inout LiveSession?) -> Result<T, Problem>) -> Result<T, Problem> {
        let registry = self.registry
        let id = self.id
        let (result, loadedNow): (Result<T, Problem>, Bool) = slot.withLock { slot in
            var loadedNow = false
            if !slot.loaded {
                do {
                    slot.session = try registry.loader(id)
                } catch {
                    return (.failure(Problem.storage(error, "The session could not be loaded")), false)
                }
                slot.loaded = true
                loadedNow = slot.session != nil
            }
            let resident = slot.session != nil
            let result = body(&slot.session)
            if resident, slot.session == nil { registry.resident.subtract(1, ordering: .relaxed) }
            return (result, loadedNow)
        }
        touched.store(true, ordering: .relaxed)
        if loadedNow { registry.didLoad(id) }
        return result
    }

    /// What ``evictIfIdle(from:)`` found.
    fileprivate enum Eviction { case evicted, busy, notResident }

    /// Drops the session's state and cached bytes when its lock is free and it is idle.
    fileprivate func evictIfIdle(from registry: SessionRegistry) -> Eviction {
        slot.withLockIfAvailable { slot -> Eviction in
            guard slot.loaded, var session = slot.session else { return .notResident }
            guard session.isIdle else { return .busy }
            session.replaceEncoding(nil, in: registry)
            slot.session = nil
            slot.loaded = false
            return .evicted
        } ?? .busy
    }

    /// Whether the session's state is in memory now (tests).
    var isResident: Bool { slot.withLock { $0.session != nil } }
}

/// Every session of the database by id, each with its own lock, and the budget of how many are
/// in memory at once.
///
/// Start-up registers the ids only (``register(ids:)``); a session's state is read from the
/// store on its first use (``SessionBox/withLock(_:)``). Once more than `residentBudget`
/// sessions are in memory, idle ones are evicted (state and cached bytes) in the order they were
/// loaded, a session used since its last sweep being kept once more (second chance), and reload
/// on next use, identical: the store holds every acknowledged write. Listing is the store's
/// (keyset on its primary key), not the registry's.
final class SessionRegistry: Sendable {
    /// Ids of the sessions in memory, in the order they were loaded (the eviction sweep's order).
    private struct LoadOrder {
        var ids: [String] = []
        var head = 0

        mutating func push(_ id: String) { ids.append(id) }

        mutating func pop() -> String? {
            guard head < ids.count else { return nil }
            defer {
                head += 1
                if head > 1024, head * 2 > ids.count {
                    ids.removeFirst(head)
                    head = 0
                }
            }
            return ids[head]
        }

        var count: Int { ids.count - head }
    }

    private let boxes = Mutex([String: SessionBox]())
    private let order = Mutex(LoadOrder())
    /// Reads a session from the store by id (nil: no such row).
    let loader: @Sendable (String) throws -> LiveSession?
    /// Sessions whose state is in memory (the `navsim_sessions_loaded` gauge).
    let resident = Atomic<Int>(0)
    /// The most sessions kept in memory; more are evicted once idle.
    let residentBudget: Int
    /// Bytes of session representations held by the read cache (the `navsim_session_cache_bytes` gauge).
    let cachedBytes = Atomic<Int>(0)
    /// The most bytes the read cache keeps (checked without a global lock, so concurrent
    /// sessions may overshoot it by one encoding each).
    let cacheBudget: Int

    /// - Parameters:
    ///   - cacheBudget: bytes of encoded sessions kept for reads.
    ///   - residentBudget: sessions kept in memory (at least 1).
    ///   - loader: reads a session from the store by id; the default knows none (tests of the cache alone).
    init(cacheBudget: Int = NavSimService.defaultCacheBytes, residentBudget: Int = NavSimService.defaultLoadedSessions,
         loader: @escaping @Sendable (String) throws -> LiveSession? = { _ in nil }) {
        self.cacheBudget = cacheBudget
        self.residentBudget = max(residentBudget, 1)
        self.loader = loader
    }

    func box(_ id: String) -> SessionBox? { boxes.withLock { $0[id] } }

    /// Registers a new session, in memory; nil when the id is taken.
    func add(_ session: LiveSession) -> SessionBox? {
        let box = SessionBox(id: session.id, loaded: session, registry: self)
        let added = boxes.withLock { boxes -> Bool in
            guard boxes[session.id] == nil else { return false }
            boxes[session.id] = box
            return true
        }
        guard added else { return nil }
        resident.add(1, ordering: .relaxed)
        didLoad(session.id, counted: true)
        return box
    }

    /// Registers the stored sessions at start-up by id, none loaded; ids already present are skipped.
    func register(ids: [String]) {
        boxes.withLock { boxes in
            boxes.reserveCapacity(ids.count)
            for id in ids where boxes[id] == nil { boxes[id] = SessionBox(id: id, loaded: nil, registry: self) }
        }
    }

    /// Forgets a session (after its deletion, or a creation that could not be stored).
    func remove(_ id: String) {
        _ = boxes.withLock { $0.removeValue(forKey: id) }
    }

    /// Notes that `id`'s state came into memory, then evicts idle sessions while over budget.
    fileprivate func didLoad(_ id: String, counted: Bool = false) {
        if !counted { resident.add(1, ordering: .relaxed) }
        order.withLock { $0.push(id) }
        trim()
    }

    /// Evicts idle sessions, oldest loaded first, until at most `residentBudget` are in memory.
    /// A session in use (its lock held, or not idle) or used since the last sweep stays, queued
    /// again; the sweep looks at each queued id at most twice, so it ends.
    func trim() {
        var looks = 2 * order.withLock { $0.count }
        while resident.load(ordering: .relaxed) > residentBudget, looks > 0 {
            looks -= 1
            guard let id = order.withLock({ $0.pop() }) else { return }
            guard let box = box(id) else { continue }  // deleted meanwhile
            if box.touched.exchange(false, ordering: .relaxed) {
                order.withLock { $0.push(id) }
                continue
            }
            switch box.evictIfIdle(from: self) {
            case .evicted: resident.subtract(1, ordering: .relaxed)
            case .busy: order.withLock { $0.push(id) }
            case .notResident: break
            }
        }
    }

    /// Sessions known (in memory or not).
    var count: Int { boxes.withLock { $0.count } }
}

import HTTPServer
import NavigationCore
import Synchronization

/// A session as the running service holds it, in two views (pipelined writes):
///
/// - the **committed** view, `version`, `state` and ``encoded``: the last durable version, the
///   only one reads show (`GET`, history, listings);
/// - the **applied head**, ``headVersion`` and ``headState``: the committed view plus the
///   versions in ``pending``, applied in order under the session's lock but not yet durable.
///   Mutations run on it and check `If-Match` against it.
///
/// A version is applied under the lock (the core's turn, the limits), then **prepared** outside
/// it: its rows, its representation and its reply (``PendingVersion/work``). One thread at a
/// time prepares a session's versions (``preparer``), oldest first, each from the one before,
/// and queues each commit as soon as it is prepared: commits reach the store in version order,
/// while other writers of the session apply their turns meanwhile.
///
/// A pending version becomes the committed view when its commit is durable (``durable(_:in:)``),
/// in version order; its reply goes out then and not before. When a commit fails, it and every
/// version applied on top of it are dropped (``failed(from:)``): the head is the committed view
/// again, nothing acknowledged is lost and nothing unacknowledged was shown.
/// Guarded by its own lock, so sessions run in parallel (ARCHITECTURE.md).
struct LiveSession {
    var id: String
    var createdAt: String
    /// The last durable version.
    var version: Int
    /// The last durable version's state.
    var state: SessionState
    /// The representation of `version` as bytes, once a read or a write needed it;
    /// nil after a restart until then. Replaced only through ``replaceEncoding(_:in:)``, which
    /// keeps ``SessionRegistry/cachedBytes`` right.
    private(set) var encoded: EncodedSession?
    /// Versions applied on top of `version` whose commits are queued, ascending and gapless.
    private(set) var pending: [PendingVersion] = []
    /// The session row's state of the last prepared version, kept for the next commit (``Persistence/Shell``).
    var headShell: Persistence.Shell?
    /// The thread preparing this session's versions, when one is (``NavSimService/prepare(_:as:first:)``):
    /// whoever applies a version while there is none becomes it. Compared with `===`.
    var preparer: CommitToken?
    /// A version's checkpoint is being encoded off the handler threads, or will be once its
    /// entry is durable (``NavSimService/checkpointLater(_:version:createdAt:state:)``): the
    /// session's next one is then encoded with its entry, so they never pile up.
    var checkpointing = false

    init(id: String, createdAt: String, version: Int, state: SessionState) {
        self.id = id
        self.createdAt = createdAt
        self.version = version
        self.state = state
    }

    /// The version the next mutation builds on: the last pending one, else the committed one.
    var headVersion: Int { pending.last?.version ?? version }
    /// The state the next mutation runs on.
    var headState: SessionState { pending.last?.state ?? state }

    /// The current (committed) version's bytes, encoded now when not cached (once per version
    /// while the registry's cache budget has room).
    mutating func encoding(in registry: SessionRegistry) -> EncodedSession {
        if let encoded, encoded.version == version { return encoded }
        let (fresh, _) = EncodedSession.make(id: id, version: version, createdAt: createdAt, state: state, previous: nil)
        keep(fresh, in: registry)
        return fresh
    }

    /// Applies a version on top of the head; it is prepared and queued for commit next.
    mutating func apply(_ next: PendingVersion) {
        precondition(next.version == headVersion + 1, "pending versions are gapless")
        pending.append(next)
    }

    /// The oldest version not yet prepared, with the state and bytes of the version before it:
    /// the previous pending one (prepared, since versions are prepared in order; without bytes
    /// the new version is encoded whole) or the committed one.
    mutating func nextToPrepare(in registry: SessionRegistry)
        -> (index: Int, previousState: SessionState, previousEncoding: EncodedSession?)? {
        guard let i = pending.firstIndex(where: { $0.work != nil }) else { return nil }
        if i > 0 { return (i, pending[i - 1].state, pending[i - 1].encoded) }
        return (i, state, encoding(in: registry))
    }

    /// Records what preparing the pending version `token` produced.
    /// - Returns: false when that version is no longer pending (a failure dropped it meanwhile).
    mutating func prepared(_ token: CommitToken, encoded: EncodedSession, reply: HTTPResponse, shell: Persistence.Shell) -> Bool {
        guard let i = pending.firstIndex(where: { $0.token === token }), pending[i].work != nil else { return false }
        pending[i].work = nil
        pending[i].encoded = encoded
        pending[i].reply = reply
        headShell = shell
        return true
    }

    /// The commit of `version` is durable: it becomes the committed view.
    /// - Returns: that pending version (its reply may go out now), or nil when it is not the
    ///   oldest pending one (already failed and dropped).
    mutating func durable(_ version: Int, in registry: SessionRegistry) -> PendingVersion? {
        guard let first = pending.first, first.version == version else { return nil }
        pending.removeFirst()
        self.version = first.version
        state = first.state
        // Always prepared: a commit is queued only once its version is.
        if let encoded = first.encoded { keep(encoded, in: registry) }
        return first
    }

    /// The commit of `version` failed: drops it and every version applied on top of it, so the
    /// head is the committed view again.
    /// - Returns: the dropped versions, whose requests must fail.
    mutating func failed(from version: Int) -> [PendingVersion] {
        guard let at = pending.firstIndex(where: { $0.version >= version }) else { return [] }
        let dropped = Array(pending[at...])
        pending.removeSubrange(at...)
        headShell = nil
        return dropped
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

/// A version applied to a session, not yet durable: what it is, what preparing it needs, and
/// once prepared (its commit queued) the reply that goes out when the commit is durable.
struct PendingVersion: Sendable {
    let version: Int
    let state: SessionState
    /// What preparing it needs; nil once prepared.
    var work: PendingWork?
    /// Its representation, encoded from the previous version's; nil until prepared.
    var encoded: EncodedSession?
    /// The reply, nil until prepared; sent through `deferred` when the commit is durable.
    var reply: HTTPResponse?
    let deferred: DeferredResponse
    /// Runs the request again on the session reloaded from the store, answering `deferred`,
    /// when the store refuses this commit as stale (a shared store); nil on SQLite and for a rerun.
    var retry: (@Sendable () -> Void)? = nil
    /// This version's own identity, which the store's answer to its commit is matched by: a
    /// rerun keeps its request's `deferred` and may take the version number of a dropped one.
    let token = CommitToken()
}

/// What preparing an applied version needs (``NavSimService/prepare(_:as:first:)``): the request and
/// the turn's outcome, from which its rows, representation and reply are built.
struct PendingWork: Sendable {
    let request: HTTPRequest
    let body: JSON
    let created: Bool
    let turn: Bool
    let commands: [Command]
    let outcome: Navigator.TurnResult
    /// When it was applied (`history.at`).
    let at: String
}

/// The identity of one applied version (``PendingVersion/token``), or of a session's preparer
/// (``LiveSession/preparer``); compared with `===`.
final class CommitToken: Sendable {}


extension LiveSession {
    /// Whether the session may leave memory now: nothing about it is held only here.
    ///
    /// The committed view equals the stored rows, so an evicted session reloads to the same
    /// state, version and bytes. A version applied but not yet durable (``pending``) lives only
    /// here, with its waiting reply: while there is one, the registry keeps the session.
    var isIdle: Bool { pending.isEmpty }
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
    /// The committed version's cached bytes as `slot` holds them (nil when not cached, not
    /// loaded or deleted), copied out at the end of every section under `slot`'s lock: a `GET`
    /// of the current version takes this lock alone, held for three retains, instead of the
    /// session's (with every pool thread reading one session, the readers spun on the
    /// session's lock, 13% of the server's CPU).
    private let published = Mutex<EncodedSession?>(nil)
    /// Set by every use, cleared by the registry's eviction sweep: a used session gets a second chance.
    fileprivate let touched = Atomic<Bool>(true)
    private unowned let registry: SessionRegistry

    fileprivate init(id: String, loaded session: LiveSession?, registry: SessionRegistry) {
        self.id = id
        self.registry = registry
        slot = Mutex(Slot(session: session, loaded: session != nil))
        published.withLock { $0 = Self.current(session) }
    }

    /// `session`'s cached bytes when they show its committed version.
    private static func current(_ session: LiveSession?) -> EncodedSession? {
        guard let session, let encoded = session.encoded, encoded.version == session.version else { return nil }
        return encoded
    }

    /// Call at the end of every section under `slot`'s lock, so `published` follows it in order.
    private func publish(_ session: LiveSession?) {
        let current = Self.current(session)
        published.withLock { $0 = current }
    }

    /// The committed version's bytes when they are cached, without the session's lock; nil:
    /// take the session's lock (``withLock(_:)``), which loads and encodes. Counts as a use.
    func publishedEncoding() -> EncodedSession? {
        let current = published.withLock { $0 }
        if current != nil { touched.store(true, ordering: .relaxed) }
        return current
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
                    return (.failure(Problem.storage(error, "The session could not be loaded", access: .read)), false)
                }
                slot.loaded = true
                loadedNow = slot.session != nil
            }
            let resident = slot.session != nil
            let result = body(&slot.session)
            if resident, slot.session == nil { registry.resident.subtract(1, ordering: .relaxed) }
            publish(slot.session)
            return (result, loadedNow)
        }
        touched.store(true, ordering: .relaxed)
        if loadedNow { registry.didLoad(id) }
        return result
    }

    /// Runs `body` on the session as it is in memory, under its lock, without loading it: for
    /// the writer's commit callbacks and delete's wait, which concern only a session with
    /// versions pending, and such a session is never evicted (``LiveSession/isIdle``).
    func inMemory<T>(_ body: (inout LiveSession?) -> T) -> T {
        slot.withLock { slot in
            defer { publish(slot.session) }
            return body(&slot.session)
        }
    }

    /// As ``inMemory(_:)``; when `body` sets its second argument, the session's state is then
    /// dropped, if idle, so that its next use reads it from the store again (a copy the store
    /// found stale: another instance wrote the session).
    func inMemory<T>(_ body: (inout LiveSession?, inout Bool) -> T) -> T {
        let registry = self.registry
        let (result, dropped): (T, Bool) = slot.withLock { slot in
            var reload = false
            let result = body(&slot.session, &reload)
            defer { publish(slot.session) }
            // A session known to be deleted is read again too (a shared store may hold a new one).
            if reload, slot.loaded, slot.session == nil { slot.loaded = false }
            guard reload, slot.loaded, var session = slot.session, session.isIdle else { return (result, false) }
            session.replaceEncoding(nil, in: registry)
            slot.session = nil
            slot.loaded = false
            return (result, true)
        }
        if dropped { registry.resident.subtract(1, ordering: .relaxed) }
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
            publish(nil)
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

    /// The sessions by id, and the ids of creations whose commit is not yet durable.
    private struct Boxes {
        var byID: [String: SessionBox] = [:]
        /// Taken by ``reserve(_:)``: not a session yet (404 to every route), but not free for another creation.
        var reserved: Set<String> = []
    }

    private let boxes = Mutex(Boxes())
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
    /// Gives the allocator's free pages back to the kernel after eviction batches, so reloading
    /// evicted sessions does not ratchet RSS up (``FreePages``).
    let freePages: FreePages
    /// Evictions between two ``freePages`` passes: an eighth of the budget (about 25 MiB of
    /// 10-controller sessions at the default 20,000), at least 64.
    let freePagesEvery: Int
    /// Evictions since the last ``freePages`` pass was asked for.
    private let evictedSincePass = Atomic<Int>(0)

    /// Whether an id not registered is looked up in the store (a store shared with other
    /// instances, which create sessions this one never registered).
    let findsUnregistered: Bool

    /// - Parameters:
    ///   - cacheBudget: bytes of encoded sessions kept for reads.
    ///   - residentBudget: sessions kept in memory (at least 1).
    ///   - freePagesEvery: evictions between two passes of ``freePages``; nil: an eighth of the budget, at least 64.
    ///   - freePages: the passes' pacing (tests give one without the minimum interval).
    ///   - findsUnregistered: look an unknown id up through `loader` (a shared store).
    ///   - loader: reads a session from the store by id; the default knows none (tests of the cache alone).
    init(cacheBudget: Int = NavSimService.defaultCacheBytes, residentBudget: Int = NavSimService.defaultLoadedSessions,
         freePagesEvery: Int? = nil, freePages: FreePages = FreePages(), findsUnregistered: Bool = false,
         loader: @escaping @Sendable (String) throws -> LiveSession? = { _ in nil }) {
        self.cacheBudget = cacheBudget
        self.residentBudget = max(residentBudget, 1)
        self.freePagesEvery = max(freePagesEvery ?? self.residentBudget / 8, freePagesEvery == nil ? 64 : 1)
        self.freePages = freePages
        self.findsUnregistered = findsUnregistered
        self.loader = loader
    }

    /// The box of `id`, nil when the store cannot be read either (tests, and callers for whom
    /// "not found" is the safe answer).
    func box(_ id: String) -> SessionBox? {
        (try? find(id)) ?? nil
    }

    /// The box of `id`. On a shared store an id not registered here is read from the store and
    /// registered, loaded, when another instance created it.
    /// - Throws: the storage problem when the store cannot be read (503 while its database is
    ///   unreachable): the session may exist, so the answer is not 404.
    func find(_ id: String) throws(Problem) -> SessionBox? {
        if let box = boxes.withLock({ $0.byID[id] }) { return box }
        guard findsUnregistered else { return nil }
        let found: LiveSession?
        do { found = try loader(id) } catch { throw Problem.storage(error, "The session could not be loaded", access: .read) }
        guard let found else { return nil }
        return add(found) ?? boxes.withLock { $0.byID[id] }
    }

    /// Takes `id` for a creation whose commit is being written: no other creation may take it
    /// until ``add(_:reserved:)`` or ``unreserve(_:)``, and no route sees a session under it yet.
    /// - Returns: false when a session or another creation holds the id.
    func reserve(_ id: String) -> Bool {
        boxes.withLock { boxes in
            guard boxes.byID[id] == nil, !boxes.reserved.contains(id) else { return false }
            boxes.reserved.insert(id)
            return true
        }
    }

    /// Gives up a reservation whose creation was not stored.
    func unreserve(_ id: String) {
        _ = boxes.withLock { $0.reserved.remove(id) }
    }

    /// Registers a new session, in memory; nil when the id is taken. `reserved`: the id was
    /// taken by ``reserve(_:)`` for this session, whose creation is now durable.
    func add(_ session: LiveSession, reserved: Bool = false) -> SessionBox? {
        let box = SessionBox(id: session.id, loaded: session, registry: self)
        let added = boxes.withLock { boxes -> Bool in
            guard boxes.byID[session.id] == nil, reserved == boxes.reserved.contains(session.id) else { return false }
            boxes.reserved.remove(session.id)
            boxes.byID[session.id] = box
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
            boxes.byID.reserveCapacity(ids.count)
            for id in ids where boxes.byID[id] == nil { boxes.byID[id] = SessionBox(id: id, loaded: nil, registry: self) }
        }
    }

    /// Forgets a session (after its deletion).
    func remove(_ id: String) {
        _ = boxes.withLock { $0.byID.removeValue(forKey: id) }
    }

    /// Notes that `id`'s state came into memory, then evicts idle sessions while over budget.
    fileprivate func didLoad(_ id: String, counted: Bool = false) {
        if !counted { resident.add(1, ordering: .relaxed) }
        order.withLock { $0.push(id) }
        trim()
    }

    /// Evicts idle sessions, oldest loaded first, until at most `residentBudget` are in memory.
    /// A session in use (its lock held, or not idle) or used since the last sweep stays, queued
    /// again; the sweep looks at each queued id at most twice, so it ends. Once
    /// ``freePagesEvery`` sessions have been evicted, asks ``freePages`` for a pass.
    func trim() {
        var evicted = 0
        defer {
            if evicted > 0, evictedSincePass.add(evicted, ordering: .relaxed).newValue >= freePagesEvery {
                evictedSincePass.store(0, ordering: .relaxed)
                freePages.schedule()
            }
        }
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
            case .evicted:
                resident.subtract(1, ordering: .relaxed)
                evicted += 1
            case .busy: order.withLock { $0.push(id) }
            case .notResident: break
            }
        }
    }

    /// Sessions known (in memory or not).
    var count: Int { boxes.withLock { $0.byID.count } }
}

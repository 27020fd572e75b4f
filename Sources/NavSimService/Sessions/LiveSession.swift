import NavigationCore
import Synchronization

/// A session as the running service holds it, in two views (pipelined writes):
///
/// - the **committed** view, `version`, `state` and ``encoded``: the last durable version, the
///   only one reads show (`GET`, history, listings);
/// - the **applied head**, ``headVersion`` and ``headState``: the committed view plus the
///   versions ``writes`` holds, applied in order under the session's lock but not yet durable.
///   Mutations run on it and check `If-Match` against it.
///
/// ``writes`` is the write pipeline's state machine (Runtime/WritePipeline.swift), which
/// ``SessionWriter`` drives; a version it reports durable becomes the committed view here
/// (``commit(_:laterCheckpoint:outcome:in:)``). Guarded by its ``SessionBox``'s lock, so
/// sessions run in parallel.
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
    /// The versions applied on top of `version` and not durable yet, and who prepares them.
    var writes = SessionWrites()

    init(id: String, createdAt: String, version: Int, state: SessionState) {
        self.id = id
        self.createdAt = createdAt
        self.version = version
        self.state = state
    }

    /// The version the next mutation builds on: the last pending one, else the committed one.
    var headVersion: Int { writes.headVersion(committed: version) }
    /// The state the next mutation runs on.
    var headState: SessionState { writes.headState(committed: state) }

    /// The current (committed) version's bytes, encoded now when not cached (once per version
    /// while the registry's cache budget has room).
    mutating func encoding(in registry: SessionRegistry) -> EncodedSession {
        if let encoded, encoded.version == version { return encoded }
        let (fresh, _) = EncodedSession.make(id: id, version: version, createdAt: createdAt, state: state, previous: nil)
        keep(fresh, in: registry)
        return fresh
    }

    /// The next applied version for `preparer` to prepare, with the version before it: a
    /// pending one, or the committed view (its bytes encoded now when not cached).
    mutating func nextJob(for preparer: CommitToken, in registry: SessionRegistry) -> PrepareJob? {
        writes.nextJob(for: preparer).map { resolve($0, in: registry) }
    }

    /// `job` with the state and bytes of the version before it.
    mutating func resolve(_ job: SessionWrites.Job, in registry: SessionRegistry) -> PrepareJob {
        if let previous = job.previous {
            return PrepareJob(
                job: job, sid: id, createdAt: createdAt, previousState: previous.state,
                previousEncoding: previous.encoded)
        }
        return PrepareJob(
            job: job, sid: id, createdAt: createdAt, previousState: state,
            previousEncoding: encoding(in: registry))
    }

    /// The store's answer for a pending version (``WritePipeline/committed(_:laterCheckpoint:outcome:)``);
    /// a durable one becomes the committed view.
    mutating func commit(
        _ token: CommitToken, laterCheckpoint: Bool, outcome: SessionWrites.CommitOutcome,
        in registry: SessionRegistry
    ) -> SessionWrites.CommitAction {
        let action = writes.committed(token, laterCheckpoint: laterCheckpoint, outcome: outcome)
        if case .durable(let number, let state, let encoded, _, _, _) = action {
            version = number
            self.state = state
            keep(encoded, in: registry)
        }
        return action
    }

    /// Caches `fresh` when the registry's budget has room for it, and drops the old bytes otherwise
    /// (the next read encodes again): memory stays bounded however many sessions are read.
    mutating func keep(_ fresh: EncodedSession, in registry: SessionRegistry) {
        let total = registry.cachedBytes.load(ordering: .relaxed) - (encoded?.body.count ?? 0) + fresh.body.count
        replaceEncoding(total <= registry.cacheBudget ? fresh : nil, in: registry)
    }

    /// Drops or replaces the cached bytes, counting the difference in the registry's gauge.
    mutating func replaceEncoding(_ new: EncodedSession?, in registry: SessionRegistry?) {
        let delta = (new?.body.count ?? 0) - (encoded?.body.count ?? 0)
        encoded = new
        if delta != 0 { registry?.cachedBytes.add(delta, ordering: .relaxed) }
    }
}

/// What preparing one applied version starts from (``SessionWriter/prepare(_:as:first:)``): the
/// machine's job, with the session's identity and the version before it resolved. A class:
/// the preparer passes it through several calls, and each is then one retain.
final class PrepareJob: Sendable {
    let job: SessionWrites.Job
    let sid: String
    let createdAt: String
    let previousState: SessionState
    let previousEncoding: EncodedSession?

    init(job: SessionWrites.Job, sid: String, createdAt: String, previousState: SessionState, previousEncoding: EncodedSession?) {
        self.job = job
        self.sid = sid
        self.createdAt = createdAt
        self.previousState = previousState
        self.previousEncoding = previousEncoding
    }
}

extension LiveSession {
    /// Whether the session may leave memory now: nothing about it is held only here.
    ///
    /// The committed view equals the stored rows, so an evicted session reloads to the same
    /// state, version and bytes. A version applied but not yet durable (``WritePipeline/pending``)
    /// lives only here, with its waiting reply: while there is one, the registry keeps the session.
    var isIdle: Bool { writes.isIdle }
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
    /// session's (with every pool thread reading one session, the readers would spin on the
    /// session's lock).
    private let published = Mutex<EncodedSession?>(nil)
    /// Set by every use, cleared by the registry's eviction sweep: a used session gets a second chance.
    fileprivate let touched = Atomic<Bool>(true)
    /// Weak: work queued on Dispatch may outlive the service that made the box (a test's, or a
    /// stopped one), and the registry holds its boxes, so a strong reference would be a cycle.
    private weak let registry: SessionRegistry?

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
        // `registry` (weak) is read only where it is used, off the common path: each read
        // retains the registry, which every pool thread shares.
        let id = self.id
        let (result, loadedNow): (Result<T, Problem>, Bool) = slot.withLock { slot in
            var loadedNow = false
            if !slot.loaded {
                // The service that made the box is gone: nothing can load the session any more.
                guard let registry = self.registry else { return (.failure(Problem.unknownSession(id)), false) }
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
            if resident, slot.session == nil { self.registry?.resident.subtract(1, ordering: .relaxed) }
            publish(slot.session)
            return (result, loadedNow)
        }
        touched.store(true, ordering: .relaxed)
        if loadedNow { self.registry?.didLoad(id) }
        return result
    }

    /// Runs `body` on the session under its lock, loaded first when it is not in memory, in
    /// place; a deleted session is 404 `unknown-session`.
    func withSession<T>(_ body: (inout LiveSession) throws(Problem) -> T) throws(Problem) -> T {
        let id = self.id
        return try withLock { slot -> Result<T, Problem> in
            // Moved out (not copied), so `live` holds the only reference to the session's buffers
            // and `body` writes them in place (a copy would duplicate each buffer on its first
            // write, and retain every one of them on the way).
            guard var live = slot.take() else { return .failure(Problem.unknownSession(id)) }
            defer { slot = live }
            do throws(Problem) { return .success(try body(&live)) } catch { return .failure(error) }
        }.get()
    }

    /// Runs `body` on the session as it is in memory, under its lock, in place, without loading
    /// it; nil when it is not in memory (deleted, evicted or dropped). `body` sets its second
    /// argument to drop the session's state afterwards, as the two-argument `inMemory` does.
    func writing<T>(_ body: (inout LiveSession, inout Bool) -> T) -> T? {
        inMemory { slot, reload -> T? in
            guard var live = slot.take() else { return nil }
            defer { slot = live }
            return body(&live, &reload)
        }
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
        let (result, dropped): (T, Bool) = slot.withLock { slot in
            var reload = false
            let result = body(&slot.session, &reload)
            defer { publish(slot.session) }
            // A session known to be deleted is read again too (a shared store may hold a new one).
            if reload, slot.loaded, slot.session == nil { slot.loaded = false }
            guard reload, slot.loaded, var session = slot.session, session.isIdle else { return (result, false) }
            session.replaceEncoding(nil, in: self.registry)
            slot.session = nil
            slot.loaded = false
            return (result, true)
        }
        if dropped { self.registry?.resident.subtract(1, ordering: .relaxed) }
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
        var byID: [SessionKey: SessionBox] = [:]
        /// Taken by ``reserve(_:)``: not a session yet (404 to every route), but not free for another creation.
        var reserved: Set<SessionKey> = []
    }

    /// One part of the registry, under its own lock.
    private final class Shard: Sendable {
        let boxes = Mutex(Boxes())
    }

    /// The registry in parts, an id always in the same one: every request looks its session up
    /// here, and with one lock the handler threads queued on it (and spun) whenever the thread
    /// holding it was descheduled; with many, two requests meet only on the same part.
    private let shards: [Shard] = (0..<16).map { _ in Shard() }

    /// The part that holds `id`.
    private func shard(_ id: String) -> Shard {
        // Not `hashValue`: its seed differs per process, which is fine, but FNV-1a over the bytes
        // is cheaper than SipHash for ids this short.
        var h: UInt32 = 2_166_136_261
        for b in id.utf8 { h = (h ^ UInt32(b)) &* 16_777_619 }
        return shards[Int(h % UInt32(shards.count))]
    }
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
    init(
        cacheBudget: Int = NavSimService.defaultCacheBytes, residentBudget: Int = NavSimService.defaultLoadedSessions,
        freePagesEvery: Int? = nil, freePages: FreePages = FreePages(), findsUnregistered: Bool = false,
        loader: @escaping @Sendable (String) throws -> LiveSession? = { _ in nil }
    ) {
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
        if let box = shard(id).boxes.withLock({ $0.byID[SessionKey(id)] }) { return box }
        guard findsUnregistered else { return nil }
        let found: LiveSession?
        do { found = try loader(id) } catch { throw Problem.storage(error, "The session could not be loaded", access: .read) }
        guard let found else { return nil }
        return add(found) ?? shard(id).boxes.withLock { $0.byID[SessionKey(id)] }
    }

    /// Takes `id` for a creation whose commit is being written: no other creation may take it
    /// until ``add(_:reserved:)`` or ``unreserve(_:)``, and no route sees a session under it yet.
    /// - Returns: false when a session or another creation holds the id.
    func reserve(_ id: String) -> Bool {
        shard(id).boxes.withLock { boxes in
            let key = SessionKey(id)
            guard boxes.byID[key] == nil, !boxes.reserved.contains(key) else { return false }
            boxes.reserved.insert(key)
            return true
        }
    }

    /// Gives up a reservation whose creation was not stored.
    func unreserve(_ id: String) {
        _ = shard(id).boxes.withLock { $0.reserved.remove(SessionKey(id)) }
    }

    /// Registers a new session, in memory; nil when the id is taken. `reserved`: the id was
    /// taken by ``reserve(_:)`` for this session, whose creation is now durable.
    func add(_ session: LiveSession, reserved: Bool = false) -> SessionBox? {
        let box = SessionBox(id: session.id, loaded: session, registry: self)
        let added = shard(session.id).boxes.withLock { boxes -> Bool in
            let key = SessionKey(session.id)
            guard boxes.byID[key] == nil, reserved == boxes.reserved.contains(key) else { return false }
            boxes.reserved.remove(key)
            boxes.byID[key] = box
            return true
        }
        guard added else { return nil }
        resident.add(1, ordering: .relaxed)
        didLoad(session.id, counted: true)
        return box
    }

    /// Registers the stored sessions at start-up by id, none loaded; ids already present are skipped.
    func register(ids: [String]) {
        for id in ids {
            shard(id).boxes.withLock { boxes in
                if boxes.byID[SessionKey(id)] == nil { boxes.byID[SessionKey(id)] = SessionBox(id: id, loaded: nil, registry: self) }
            }
        }
    }

    /// Forgets a session (after its deletion).
    func remove(_ id: String) {
        _ = shard(id).boxes.withLock { $0.byID.removeValue(forKey: SessionKey(id)) }
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
    var count: Int { shards.reduce(0) { $0 + $1.boxes.withLock { $0.byID.count } } }
}

/// A session id as the stores compare it: by its UTF-8 bytes (SQLite's and PostgreSQL's text
/// keys). Swift's `String` compares by canonical equivalence, under which `é` and `e` with a
/// combining accent are one id: a map keyed by `String` would find one session under the other's
/// id while the database keeps two. The registry and the past-version cache key sessions by it.
struct SessionKey: Hashable, Sendable {
    let id: String
    init(_ id: String) { self.id = id }
    static func == (a: SessionKey, b: SessionKey) -> Bool { a.id.utf8.elementsEqual(b.id.utf8) }
    func hash(into hasher: inout Hasher) {
        var bytes = id
        bytes.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

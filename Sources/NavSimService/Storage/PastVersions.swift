import JSONValues
import NavigationCore
import SessionFormat
import SessionStorage
import Synchronization

/// Past versions read back in milliseconds (`GET …?version=N`, docs/history.md).
///
/// A rebuild is a checkpoint plus at most 63 change-sets. What made it cost what the session
/// holds, not what those entries changed, was the checkpoint: decoding every controller's stored
/// JSON, then encoding every controller again for the reply. Both are the same for every version
/// of a checkpoint's block, so the first read of a block keeps them here (the checkpoint's state
/// and its encoded pieces); later reads of any version in that block decode only the block's
/// change-sets up to N and encode only the controllers they touched, splicing the others'
/// pieces from the checkpoint's bytes. Past versions never change, so nothing here is ever stale;
/// an entry is keyed by the session's creation time too, so a session deleted and created again
/// under the same id never meets the old one's.
///
/// Bounded: at most ``capacity`` checkpoints and ``byteBudget`` bytes of encoded pieces, the
/// least recently used going first.
final class PastVersions: Sendable {
    /// One checkpoint as a rebuild starts from it.
    struct Base: Sendable {
        let version: Int
        let state: SessionState
        let encoded: EncodedSession
    }

    struct Key: Hashable, Sendable {
        /// By its bytes, as the registry and the stores compare it.
        let session: SessionKey
        let createdAt: String
        let checkpoint: Int

        init(session: String, createdAt: String, checkpoint: Int) {
            self.session = SessionKey(session)
            self.createdAt = createdAt
            self.checkpoint = checkpoint
        }
    }

    static let capacity = 32
    static let byteBudget = 64 << 20

    private struct Table {
        var entries: [Key: (base: Base, used: UInt64)] = [:]
        var clock: UInt64 = 0
        var bytes = 0
    }
    private let table = Mutex(Table())

    /// The checkpoint `key`, when kept.
    func base(_ key: Key) -> Base? {
        table.withLock { t in
            guard let hit = t.entries[key] else { return nil }
            t.clock += 1
            t.entries[key] = (hit.base, t.clock)
            return hit.base
        }
    }

    /// Keeps `base` under `key`, dropping the least recently used entries past the bounds.
    func keep(_ base: Base, as key: Key) {
        table.withLock { t in
            t.clock += 1
            if let old = t.entries[key] { t.bytes -= old.base.encoded.body.count }
            t.entries[key] = (base, t.clock)
            t.bytes += base.encoded.body.count
            while t.entries.count > Self.capacity || (t.bytes > Self.byteBudget && t.entries.count > 1) {
                guard let oldest = t.entries.min(by: { $0.value.used < $1.value.used }) else { break }
                t.bytes -= oldest.value.base.encoded.body.count
                t.entries[oldest.key] = nil
            }
        }
    }

    /// Bytes of encoded pieces kept (for `/metrics`-style reporting and tests).
    var bytes: Int { table.withLock { $0.bytes } }
}

extension EncodedSession {
    /// Encodes `state` as version `version`, reusing `base`'s piece for every controller whose
    /// piece cannot differ from it: one that is not in `touched` (the ids the entries between
    /// `base` and `state` upserted or removed) and none of whose ancestors is, while the window's
    /// traits and the running transitions are those of `base`. A controller's representation
    /// reads only its own stored form, its parent chain's (presentation links, kinds, views in
    /// the window, trait overrides), the traits and the transitions (Encode.controller), so the
    /// bytes are the ones ``make(id:version:createdAt:state:previous:)`` would write.
    static func reusing(
        _ base: PastVersions.Base, id: String, version: Int, createdAt: String, state: SessionState,
        touched: Set<String>
    ) -> EncodedSession {
        guard state.traits == base.state.traits, state.transitions == base.state.transitions else {
            return make(id: id, version: version, createdAt: createdAt, state: state, previous: nil).0
        }
        var head = JSONWriter(capacity: base.encoded.body.count + 512)
        head.openObject()
        Encode.sessionHead(id: id, version: version, createdAt: createdAt, state: state, into: &head)
        var out = head.finish()
        out.append(contentsOf: #","controllers":{"#.utf8)
        var order: [String] = []
        var ranges: [Range<Int>] = []
        order.reserveCapacity(state.controllers.count)
        ranges.reserveCapacity(state.controllers.count)
        // `id` or one of its ancestors is in `touched` (walked without building the chain).
        func chainTouched(_ id: String) -> Bool {
            var current: String? = id
            var hops = 0
            while let c = current, hops < 10_000 {
                if touched.contains(c) { return true }
                current = state.controllers[c]?.parent
                hops += 1
            }
            return false
        }
        var first = true
        for cid in state.order {
            guard let c = state.controllers[cid] else { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSON.writeString(cid, into: &out)
            out.append(UInt8(ascii: ":"))
            let start = out.count
            if let p = base.encoded.index[cid], !chainTouched(cid) {
                out.append(contentsOf: base.encoded.body[base.encoded.ranges[p]])
            } else {
                out.append(contentsOf: Encode.controller(c, in: state))
            }
            order.append(cid)
            ranges.append(start..<out.count)
        }
        out.append(contentsOf: "}}".utf8)
        return EncodedSession(
            version: version, body: out, order: order, ranges: ranges,
            index: EncodedSession.index(of: order, sharing: nil, prefix: 0), etag: "\"\(version)\"")
    }
}

extension SessionHistory {
    /// Version `version` of session `sid` rebuilt and encoded (`GET …?version=N`), or nil when
    /// its rows cannot rebuild it without replay (entries of earlier releases).
    ///
    /// Starts from the checkpoint of `version`'s block kept in `kept`, reading only the entries
    /// after it up to `version` (without their checkpoint column); on the block's first read the
    /// checkpoint is decoded, encoded once and kept. The reply then encodes only the controllers
    /// the block's entries touched up to `version`, splicing the others' pieces
    /// (``EncodedSession/reusing(_:id:version:createdAt:state:touched:)``). So a read costs the
    /// distance from the checkpoint, once the block was read once.
    /// `block`: the checkpoint to start from (default: `version`'s own block).
    /// `backfill`: told each durable entry found without its due checkpoint (its late checkpoint
    /// was lost to a crash, a stop or a store error) with the state rebuilt for it, so the
    /// caller can store it and later reads start there again.
    static func past(
        _ sid: String, createdAt: String, version: Int, store: any SessionStoring,
        kept: PastVersions, from block: Int? = nil,
        backfill: ((_ version: Int, _ state: SessionState) -> Void)? = nil
    ) throws -> (state: SessionState, encoded: EncodedSession)? {
        let first = block ?? firstRow(for: version)
        let key = PastVersions.Key(session: sid, createdAt: createdAt, checkpoint: first)
        let base: PastVersions.Base
        let after: [HistoryRow]
        if let hit = kept.base(key) {
            base = hit
            after = try store.history(session: sid, after: first, limit: version - first, checkpoints: false)
        } else {
            let rows = try store.history(session: sid, after: first - 1, limit: version - first + 1)
            guard let row = rows.first, row.version == first else { return nil }
            if let state = try Self.base(row) {
                base = PastVersions.Base(
                    version: first, state: state,
                    encoded: EncodedSession.make(id: sid, version: first, createdAt: createdAt, state: state, previous: nil).0)
            } else {
                // The checkpoint is encoded after its entry is durable and stored later (or lost
                // to a crash before): the block's base is then its first version rebuilt from
                // the block before.
                guard row.changes != nil,
                    let earlier = try past(
                        sid, createdAt: createdAt, version: first, store: store, kept: kept,
                        from: firstRow(for: first - 1), backfill: backfill)
                else { return nil }
                base = PastVersions.Base(version: first, state: earlier.state, encoded: earlier.encoded)
                backfill?(first, earlier.state)
            }
            kept.keep(base, as: key)
            after = Array(rows.dropFirst())
        }
        var state = base.state
        let rows = after.filter { $0.version <= version }
        guard (rows.last?.version ?? first) == version, rows.allSatisfy({ $0.changes != nil }) else { return nil }
        let touched = try advance(&state, by: rows)
        let encoded = EncodedSession.reusing(base, id: sid, version: version, createdAt: createdAt, state: state, touched: touched)
        return (state, encoded)
    }
}

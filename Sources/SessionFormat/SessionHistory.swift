import JSONValues
public import NavigationCore
public import SessionStorage

/// The version of the navigation rules a history entry was produced by.
///
/// Policy (docs/history.md "Rules versions"): raise it by one in the same commit as any change
/// to `Sources/NavigationCore` that makes some command answer differently (other events, another
/// refusal, another resulting state), and name the R-id of the changed rule in the commit
/// message. Refactors that change no answer leave it alone. Every history entry stores the
/// value current when it was written (`history.rules_version`; NULL in rows written before it
/// existed), so a client can tell whether `?version=N&replay=true` may differ from `?version=N`.
public enum RulesVersion {
    /// The rules this binary runs.
    public static let current = 10
}

/// What one history entry changed, as stored in `history.changes` (persistence format 1):
/// enough to move the stored state of version N−1 to that of version N without running any rule.
struct StoredChange: Decodable, Equatable {
    /// The session without its controllers after the entry, when it differs from before; absent
    /// when the entry left the shell as it was.
    var shell: StoredSessionState?
    /// The controllers whose stored form the entry changed or created, in the session's order.
    var controllers: [StoredController]
    /// The ids of the controllers that left the session.
    var removed: [String]
}

/// A ``StoredChange`` read without its shell.
private struct ControllersOnly: Decodable {
    var controllers: [StoredController]
    var removed: [String]
}

/// How past versions are rebuilt from stored changes and checkpoints (docs/history.md).
public enum SessionHistory {
    /// Every entry whose version is a multiple of this keeps a full checkpoint (the whole stored
    /// state); entry 0's `result` is the first. 64 bounds a rebuild to one checkpoint decode and
    /// at most 63 small change-sets, while the checkpoints add about 1/64 of a state per entry.
    public static let checkpointInterval = 64

    /// Whether the entry of `version` keeps a checkpoint column (entry 0 has its `result`).
    public static func keepsCheckpoint(_ version: Int) -> Bool {
        version > 0 && version % checkpointInterval == 0
    }

    /// The state of `version` from the rows of `history` from a checkpoint up to it (ascending,
    /// the first at or below the nearest multiple of ``checkpointInterval``), or nil when those
    /// rows cannot rebuild it without replay: no checkpoint among them, or an entry after the
    /// checkpoint written before change-sets were stored.
    /// - Throws: as ``Persistence/decodeState(_:)``.
    public static func rebuild(_ rows: [HistoryRow], to version: Int) throws -> SessionState? {
        let upTo = rows.filter { $0.version <= version }
        guard let base = upTo.lastIndex(where: { $0.version == 0 || $0.checkpoint != nil }) else { return nil }
        let baseRow = upTo[base]
        var state: SessionState
        if baseRow.version == 0 {
            state = try Persistence.decodeInitial(baseRow)
        } else {
            guard let text = baseRow.checkpoint else { return nil }
            state = try Persistence.decode(StoredSessionState.self, text, format: baseRow.format).domain()
        }
        for row in upTo[(base + 1)...] {
            guard let text = row.changes else { return nil }
            let change = try Persistence.decode(StoredChange.self, text, format: row.format)
            try apply(change, to: &state)
        }
        return upTo.last?.version == version ? state : nil
    }

    /// Moves `state` by one stored change.
    static func apply(_ change: StoredChange, to state: inout SessionState) throws {
        if let shell = change.shell {
            var next = try shell.domain()
            // Moved, not copied: a second reference to the dictionary would make the writes
            // below copy every controller, once per entry with a shell (most of them).
            swap(&next.controllers, &state.controllers)
            state = next
        }
        for id in change.removed { state.controllers[id] = nil }
        for c in change.controllers {
            let controller = try c.domain()
            state.controllers[controller.id] = controller
        }
    }

    /// The state a block of history starts from: entry 0's initial state, or the checkpoint an
    /// entry keeps; nil when `row` keeps neither (its late checkpoint was not stored).
    /// - Throws: as ``Persistence/decodeState(_:)``.
    public static func base(_ row: HistoryRow) throws -> SessionState? {
        if row.version == 0 { return try Persistence.decodeInitial(row) }
        guard let text = row.checkpoint else { return nil }
        return try Persistence.decode(StoredSessionState.self, text, format: row.format).domain()
    }

    /// Moves `state` by the stored changes of `rows` (ascending, each with its `changes`), as
    /// ``rebuild(_:to:)`` does, and returns the ids of the controllers they upserted or removed.
    ///
    /// Each change-set is parsed once. A shell replaces the whole shell, so only the last one
    /// counts: decoding every entry's (its `order` lists every controller) would make a late
    /// version cost what the whole session holds.
    /// - Throws: as ``Persistence/decodeState(_:)``.
    public static func advance(_ state: inout SessionState, by rows: [HistoryRow]) throws -> Set<String> {
        var touched = Set<String>()
        let parsed = try rows.map { try Persistence.parse($0.changes ?? "", format: $0.format) }
        for (row, change) in zip(rows, parsed).reversed() {
            if let shell = change["shell"], !shell.isNull {
                var next = try Persistence.decode(StoredSessionState.self, shell, format: row.format).domain()
                swap(&next.controllers, &state.controllers)
                state = next
                break
            }
        }
        for (row, json) in zip(rows, parsed) {
            let change = try Persistence.decode(ControllersOnly.self, json, format: row.format)
            for id in change.removed { state.controllers[id] = nil }
            for c in change.controllers {
                let controller = try c.domain()
                state.controllers[controller.id] = controller
            }
            touched.formUnion(change.controllers.map(\.properties.id))
            touched.formUnion(change.removed)
        }
        return touched
    }

    /// The first version whose rows ``rebuild(_:to:)`` needs for `version`.
    public static func firstRow(for version: Int) -> Int {
        version - version % checkpointInterval
    }
}

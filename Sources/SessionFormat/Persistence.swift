import JSONValues
public import NavigationCore
public import SessionStorage

/// How sessions become rows and back: the session row holds the state minus its controllers,
/// each controller is a row with its parent and presentation links as columns, and each history
/// entry keeps what it changed (plus a full checkpoint every `SessionHistory.checkpointInterval`
/// entries) so any version can be rebuilt as it was, and the commands so it can also be replayed
/// with the current rules (docs/history.md). The JSON is
/// the persistence format's (`StoredFormat.swift`), never the core's types themselves,
/// written and read by its codec (`StoredCodec.swift`); each row records its format
/// version and is read by that version's decoder.
public enum Persistence {
    /// `value` as a stored row's JSON text, by its writer (`StoredRowWriter.swift`).
    static func text<T: StoredBytesWritable>(_ value: T) throws -> String {
        try StoredCodec.rowText(value)
    }

    /// `[]`, or the ids as a JSON array.
    static func text(_ ids: [String]) -> String {
        if ids.isEmpty { return "[]" }
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (i, id) in ids.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSON.writeString(id, into: &out)
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The session row's `state`: the session without its controllers.
    static func sessionText(_ state: SessionState) throws -> String {
        try text(StoredSessionState(state, withControllers: false))
    }

    static func row(_ c: Controller) throws -> ControllerRow {
        ControllerRow(
            id: c.id, parent: c.parent, presenting: c.presentation?.presenting, presented: c.presentedID,
            body: try text(StoredController(c)))
    }

    /// The rows of a new session (`id`, created at `createdAt`, RFC 3339), with its initial
    /// `state` as history entry 0 (the replay base).
    /// The creation's `events` (the root appearing) are kept beside the state in that entry's
    /// result, as `events`; decoding the state ignores them, and entries stored before have none.
    /// `reported` is what installing the root reported, the JSON object the service's 201 reply
    /// carries: its members (`events`, and `warnings` when the root's lifecycle code called
    /// operations UIKit refuses with a log line, D7…) are spliced after the state's, so entry 0
    /// reports them as any entry does; nil, or no events and no warnings, adds none. `body` is
    /// the creation request's JSON body text (nil when it had none): entry 0 keeps it as any
    /// entry keeps its request, so `navsim record` can send the same creation again (a root's
    /// `on` code is in it and nowhere else in full).
    /// - Throws: an encoding error of a stored type (a value the format cannot hold).
    public static func creation(
        id: String, createdAt: String, state: SessionState, body: String? = nil,
        reported: [UInt8]? = nil
    ) throws -> SessionCommit {
        var bytes = try StoredCodec.row(StoredSessionState(state, withControllers: true))
        if let reported, reported != Self.reportsNothing, reported.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") {
            bytes.removeLast()
            bytes.append(UInt8(ascii: ","))
            bytes.append(contentsOf: reported[1...])
        }
        let result = String(decoding: bytes, as: UTF8.self)
        let initial = HistoryRow(
            version: 0, at: createdAt, method: "POST", path: "/v1/sessions", body: body,
            command: "[]", result: result, rulesVersion: RulesVersion.current)
        return SessionCommit(
            session: SessionRow(id: id, version: 0, createdAt: createdAt, state: try sessionText(state)),
            upsertedControllers: try state.orderedControllers.map(row),
            deletedControllers: [], history: initial)
    }

    /// What a creation that reported nothing reports (no events, no warnings).
    private static let reportsNothing = Array(#"{"events":[]}"#.utf8)

    /// The session row's `state` of some version, kept beside it so the next commit need not
    /// convert and encode it again when the turn left the session's own fields alone.
    public struct Shell: Sendable {
        var stored: StoredSessionState
        /// The row's `state` text.
        public internal(set) var text: String

        /// The row state of `state`.
        /// - Throws: an encoding error of a stored type (a value the format cannot hold).
        public init(_ state: SessionState) throws {
            stored = StoredSessionState(state, withControllers: false)
            text = try Persistence.text(stored)
        }

        init(stored: StoredSessionState, text: String) {
            self.stored = stored
            self.text = text
        }
    }

    /// One accepted turn (``TurnRecord``) as the rows it stores: the controllers the turn changed
    /// (`turn.changed`, from the core's ``Navigator/TurnResult/changedControllers``, never a
    /// comparison of every controller), the new version and the history entry. Each changed
    /// controller is converted and encoded once; its text serves both its row and the entry's
    /// change-set, which is spliced from those texts (JSON that reads back as the
    /// ``StoredChange`` it stands for).
    /// - Returns: the commit and the new version's row state, for the next commit.
    /// - Throws: an encoding error of a stored type (a value the format cannot hold).
    // Not inlined, so that the write path's profile (scripts/bench/) counts the stored-row step
    // apart from the encoding of the reply beside it (one call per write costs nothing it could measure).
    @inline(never)
    public static func commit(_ turn: TurnRecord) throws -> (SessionCommit, Shell) {
        let (old, newState, changed, version) = (turn.old, turn.new, turn.changed, turn.version)
        var upserts: [ControllerRow] = []
        upserts.reserveCapacity(changed.count)
        var inserted = 0
        var linksUnchanged: Set<String> = []
        for cid in changed {
            guard let c = newState.controllers[cid] else { continue }
            let r = try row(c)
            if let before = old.controllers[cid] {
                // The stored row is the old state's (commits are written in version order), so
                // when its links stay the store need only rewrite its body.
                if before.parent == r.parent, before.presentation?.presenting == r.presenting, before.presentedID == r.presented {
                    linksUnchanged.insert(cid)
                }
            } else {
                inserted += 1
            }
            upserts.append(r)
        }
        // Only a release (NavigationCore/Release.swift) removes controllers; the counts tell,
        // so a turn without one never scans the order.
        let deleted =
            old.controllers.count + inserted == newState.controllers.count
            ? [] : old.order.filter { newState.controllers[$0] == nil }
        let before = try turn.shell ?? Shell(old)
        let afterStored = StoredSessionState(newState, withControllers: false)
        let after = afterStored == before.stored ? before : Shell(stored: afterStored, text: try text(afterStored))
        let change = changeText(
            upserts: upserts, removed: text(deleted),
            shell: afterStored == before.stored ? nil : after.text)
        let checkpoint = turn.keepsCheckpoint && SessionHistory.keepsCheckpoint(version) ? try checkpointText(newState) : nil
        let entry = HistoryRow(
            version: version, at: turn.at, method: turn.method, path: turn.path,
            body: turn.body,
            command: try commandText(turn.commands, resolvedSegues: turn.resolvedSegues),
            result: String(decoding: turn.result, as: UTF8.self),
            changes: change, checkpoint: checkpoint, rulesVersion: RulesVersion.current)
        let commit = SessionCommit(
            session: SessionRow(id: turn.session, version: version, createdAt: turn.createdAt, state: after.text),
            upsertedControllers: upserts, deletedControllers: deleted, history: entry, linksUnchanged: linksUnchanged)
        return (commit, after)
    }

    /// A history entry's `checkpoint`: the whole state, controllers included. Costs every
    /// controller's conversion and encoding, which is why the service encodes it off the
    /// handler threads once the entry is durable.
    /// - Throws: an encoding error of a stored type (a value the format cannot hold).
    public static func checkpointText(_ state: SessionState) throws -> String {
        try text(StoredSessionState(state, withControllers: true))
    }

    /// A ``StoredChange``'s text from texts already encoded (`controllers`, `removed`, `shell`),
    /// so `decode(StoredChange.self, …)` reads it back as the value it stands for.
    static func changeText(upserts: [ControllerRow], removed: String, shell: String?) -> String {
        var out = #"{"controllers":["#
        out.reserveCapacity(upserts.reduce(64 + removed.utf8.count + (shell?.utf8.count ?? 0)) { $0 + $1.body.utf8.count + 1 })
        for (i, row) in upserts.enumerated() {
            if i > 0 { out += "," }
            out += row.body
        }
        out += #"],"removed":"#
        out += removed
        if let shell {
            out += #","shell":"#
            out += shell
        }
        out += "}"
        return out
    }

    /// Reads `text`, written in persistence format `format`, as a `T`. Format 1 is the only one
    /// so far; a later one adds its case here, decoding into its own stored types.
    static func decode<T: Decodable>(_ type: T.Type, _ text: String, format: Int) throws -> T {
        switch format {
        case 1: return try StoredCodec.decode(T.self, from: text)
        default: throw StoredFormatError.unsupportedFormat(format)
        }
    }

    /// A stored row's text parsed once, to read several of its members with
    /// ``decode(_:_:format:)-(_,JSON,_)``; checks the format as ``decode(_:_:format:)`` does.
    static func parse(_ text: String, format: Int) throws -> JSON {
        guard StoredFormat.readable.contains(format) else { throw StoredFormatError.unsupportedFormat(format) }
        return try JSON.parse(Array(text.utf8), maxDepth: StoredCodec.maxDepth)
    }

    /// Reads part of a row parsed by ``parse(_:format:)`` as a `T`.
    static func decode<T: Decodable>(_ type: T.Type, _ json: JSON, format: Int) throws -> T {
        switch format {
        case 1: return try StoredCodec.decode(T.self, from: json)
        default: throw StoredFormatError.unsupportedFormat(format)
        }
    }

    /// A session as start-up rebuilds it: its row's state and its controllers' rows.
    /// - Throws: ``StoredFormatError`` for a row of an unknown format, an unknown value or a
    ///   lost controller; `DecodingError` or `JSONParseError` for a row that is not the format.
    public static func decodeState(_ stored: StoredSession) throws -> SessionState {
        var state = try decode(StoredSessionState.self, stored.session.state, format: stored.session.format).domain()
        for row in stored.controllers {
            let c = try decode(StoredController.self, row.body, format: row.format).domain()
            state.controllers[c.id] = c
        }
        try checkLinks(state)
        return state
    }

    /// Every controller a link of `state` names has its row: the core follows these links
    /// without asking (``SessionState`` is consistent by construction), so a database that lost
    /// a row is refused here as unreadable, not met later as a crash.
    /// - Throws: ``StoredFormatError/missingController(_:linkedFrom:)``.
    static func checkLinks(_ state: SessionState) throws {
        func need(_ id: ControllerID?, _ from: String) throws {
            if let id, state.controllers[id] == nil { throw StoredFormatError.missingController(id, linkedFrom: from) }
        }
        try need(state.rootViewController, "the window's rootViewController")
        for (id, c) in state.controllers {
            let name = id
            try need(c.parent, "\(name).parent")
            try need(c.presentedID, "\(name).presentedViewController")
            for child in c.children { try need(child, "\(name).children") }
            for child in c.viewControllers { try need(child, "\(name).viewControllers") }
        }
    }

    /// History entry 0's initial state, the base `?version=N` replays from.
    /// - Throws: as ``decodeState(_:)``.
    public static func decodeInitial(_ row: HistoryRow) throws -> SessionState {
        try decode(StoredSessionState.self, row.result, format: row.format).domain()
    }

    /// `history.command`: the commands as a JSON array, or, when lifecycle code performed
    /// storyboard segues, a ``StoredTurn`` that keeps their destinations too.
    static func commandText(_ commands: [Command], resolvedSegues: [Command]) throws -> String {
        var w = StoredBytes(capacity: 256)
        func list(_ commands: [Command]) throws {
            w.openArray()
            for c in commands { try StoredCommands.write(c, to: &w) }
            w.closeArray()
        }
        if resolvedSegues.isEmpty {
            try list(commands)
        } else {
            w.open()
            w.key("commands"); try list(commands)
            w.key("segueDestinations"); try list(resolvedSegues)
            w.close()
        }
        return String(decoding: w.finish(), as: UTF8.self)
    }

    /// The commands of a history entry, to replay it.
    /// - Throws: as ``decodeState(_:)``.
    public static func decodeCommands(_ row: HistoryRow) throws -> [Command] { try decodeTurn(row).commands }

    /// The commands of a history entry and the nested segues' recorded destinations.
    /// - Throws: as ``decodeState(_:)``.
    public static func decodeTurn(_ row: HistoryRow) throws -> (commands: [Command], segues: [Command]) {
        if row.command.first(where: { !$0.isWhitespace }) == "{" {
            let turn = try decode(StoredTurn.self, row.command, format: row.format)
            return (turn.commands.map(\.command), turn.segueDestinations.map(\.command))
        }
        return (try decode([StoredCommandReading].self, row.command, format: row.format).map(\.command), [])
    }
}

/// One accepted turn of a session, as the write path hands it to storage
/// (``Persistence/commit(_:)``): the states before and after, what changed, and the request
/// history keeps to replay it.
public struct TurnRecord {
    /// The session's id and creation time (RFC 3339).
    public var session: String
    public var createdAt: String
    /// The version the turn makes: one past `old`'s.
    public var version: Int
    /// The state the turn ran on (the session's applied head) and its row state, when known.
    public var old: SessionState
    public var shell: Persistence.Shell?
    /// The state after the turn, and the controllers it changed (the core's
    /// `Navigator.TurnResult.changedControllers`).
    public var new: SessionState
    public var changed: [ControllerID]
    /// When the request was accepted (RFC 3339), its method and path, and its JSON body's text
    /// (nil when it had none).
    public var at: String
    public var method: String
    public var path: String
    public var body: String?
    /// The commands the turn ran, the storyboard segues callback code performed (kept for
    /// replays), and the reply's `result` bytes.
    public var commands: [Command]
    public var resolvedSegues: [Command]
    public var result: [UInt8]
    /// Whether the entry keeps its checkpoint when its version is due one
    /// (``SessionHistory/keepsCheckpoint(_:)``); false when the caller stores it later
    /// (``Persistence/checkpointText(_:)``, `SessionCommit.laterCheckpoint`).
    public var keepsCheckpoint: Bool

    /// A turn of session `session` made version `version` from `old` to `new`; the parameters
    /// are the members of the same names.
    public init(
        session: String, createdAt: String, version: Int, old: SessionState, shell: Persistence.Shell?,
        new: SessionState, changed: [ControllerID], at: String, method: String, path: String, body: String?,
        commands: [Command], resolvedSegues: [Command] = [], result: [UInt8], keepsCheckpoint: Bool = true
    ) {
        self.session = session
        self.createdAt = createdAt
        self.version = version
        self.old = old
        self.shell = shell
        self.new = new
        self.changed = changed
        self.at = at
        self.method = method
        self.path = path
        self.body = body
        self.commands = commands
        self.resolvedSegues = resolvedSegues
        self.result = result
        self.keepsCheckpoint = keepsCheckpoint
    }
}

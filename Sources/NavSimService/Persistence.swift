import Foundation
import HTTPServer
import NavigationCore

/// How sessions become rows and back: the session row holds the state minus its controllers,
/// each controller is a row with its parent and presentation links as columns, and each history
/// entry keeps what it changed (plus a full checkpoint every `SessionHistory.checkpointInterval`
/// entries) so any version can be rebuilt as it was, and the commands so it can also be replayed
/// with the current rules (docs/history.md). The JSON is
/// the persistence format's (`Storage/StoredFormat.swift`), never the core's types themselves;
/// each row records its format version and is read by that version's decoder.
enum Persistence {
    static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return e
    }

    static func text<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encoder().encode(value), as: UTF8.self)
    }

    /// The session row's `state`: the session without its controllers.
    static func sessionText(_ state: SessionState) throws -> String {
        try text(StoredSessionState(state, withControllers: false))
    }

    static func row(_ c: Controller) throws -> ControllerRow {
        ControllerRow(id: c.id, parent: c.parent, presenting: c.presentation?.presenting, presented: c.presentedID,
                      body: try text(StoredController(c)))
    }

    /// The rows of a new session, with its initial state as history entry 0 (the replay base).
    /// The creation's `events` (the root appearing) are kept beside the state in that entry's
    /// result, as `events`; decoding the state ignores them, and entries stored before have none.
    static func creation(_ live: LiveSession, events: [Event] = []) throws -> SessionCommit {
        var result = try text(StoredSessionState(live.state, withControllers: true))
        if !events.isEmpty, case .object(var members)? = try? JSON.parse(Array(result.utf8)) {
            members.append(("events", .array(events.map(Encode.event))))
            result = JSON.object(members).text
        }
        let initial = HistoryRow(version: 0, at: live.createdAt, method: "POST", path: "/v1/sessions", body: nil,
                                 command: "[]", result: result, rulesVersion: RulesVersion.current)
        return SessionCommit(
            session: SessionRow(id: live.id, version: 0, createdAt: live.createdAt, state: try sessionText(live.state)),
            upsertedControllers: try live.state.orderedControllers.map(row),
            deletedControllers: [], history: initial)
    }

    /// One accepted request: the changed controllers only, the new version and the history entry.
    static func commit(for live: LiveSession, newState: SessionState, version: Int, at: String, request: HTTPRequest,
                       body: JSON, commands: [Command], result: JSON) throws -> SessionCommit {
        var upserts: [ControllerRow] = []
        var changed: [StoredController] = []
        for c in newState.orderedControllers where live.state.controllers[c.id] != c {
            // One conversion serves the controller's row and the entry's change-set.
            let stored = StoredController(c)
            upserts.append(ControllerRow(id: c.id, parent: c.parent, presenting: c.presentation?.presenting,
                                         presented: c.presentedID, body: try text(stored)))
            changed.append(stored)
        }
        let deleted = live.state.order.filter { newState.controllers[$0] == nil }
        let change = SessionHistory.change(from: live.state, to: newState, upserted: changed, removed: deleted)
        let checkpoint = SessionHistory.keepsCheckpoint(version)
            ? try text(StoredSessionState(newState, withControllers: true)) : nil
        let entry = HistoryRow(version: version, at: at, method: request.method, path: request.path,
                               body: request.body.isEmpty ? nil : body.text,
                               command: try text(commands.map(StoredCommand.init)), result: result.text,
                               changes: try text(change), checkpoint: checkpoint, rulesVersion: RulesVersion.current)
        return SessionCommit(
            session: SessionRow(id: live.id, version: version, createdAt: live.createdAt, state: try sessionText(newState)),
            upsertedControllers: upserts, deletedControllers: deleted, history: entry)
    }

    /// Reads `text`, written in persistence format `format`, as a `T`. Format 1 is the only one
    /// so far; a later one adds its case here, decoding into its own stored types.
    static func decode<T: Decodable>(_ type: T.Type, _ text: String, format: Int) throws -> T {
        switch format {
        case 1: return try JSONDecoder().decode(T.self, from: Data(text.utf8))
        default: throw StoredFormatError.unsupportedFormat(format)
        }
    }

    /// A session as start-up rebuilds it: its row's state and its controllers' rows.
    static func decodeState(_ stored: StoredSession) throws -> SessionState {
        var state = try decode(StoredSessionState.self, stored.session.state, format: stored.session.format).domain()
        for row in stored.controllers {
            let c = try decode(StoredController.self, row.body, format: row.format).domain()
            state.controllers[c.id] = c
        }
        return state
    }

    /// History entry 0's initial state, the base `?version=N` replays from.
    static func decodeInitial(_ row: HistoryRow) throws -> SessionState {
        try decode(StoredSessionState.self, row.result, format: row.format).domain()
    }

    /// The commands of a history entry, to replay it.
    static func decodeCommands(_ row: HistoryRow) throws -> [Command] {
        try decode([StoredCommand].self, row.command, format: row.format).map { try $0.domain() }
    }

    /// What a history entry reports: the events and transition of the request (API.md History).
    static func resultJSON(_ outcomes: [OperationOutcome], turn: Bool) -> JSON {
        let items: [JSON] = outcomes.map { outcome in
            switch outcome {
            case .applied(let r): return .object(Encode.resultMembers(r))
            case .refused(let d): return Problem(d).json
            case .invalid(let e): return Problem.fromCore(e).json
            }
        }
        return turn ? .array(items) : (items.first ?? .null)
    }

    static func historyJSON(_ row: HistoryRow) -> JSON {
        let result = (try? JSON.parse(Array(row.result.utf8))) ?? .null
        let body = row.body.flatMap { try? JSON.parse(Array($0.utf8)) } ?? .null
        var transition: JSON = .null
        var events: JSON = .array([])
        var warnings: [JSON] = []
        if case .array(let items) = result {
            // A turn: its operations' events in order; its last transition.
            var all: [JSON] = []
            for item in items {
                if let e = item["events"]?.array { all += e }
                if let w = item["warnings"]?.array { warnings += w }
                if let t = item["transition"], !t.isNull { transition = t }
            }
            events = .array(all)
        } else {
            transition = result["transition"] ?? .null
            events = result["events"] ?? .array([])
            warnings = result["warnings"]?.array ?? []
        }
        var members: [(String, JSON)] = [
            ("version", .number(Double(row.version))), ("at", .string(row.at)),
            ("request", .object([("method", .string(row.method)), ("path", .string(row.path)), ("body", body)])),
            ("transition", transition), ("events", events),
        ]
        if let returned = result["returned"] { members.append(("returned", returned)) }
        if !warnings.isEmpty { members.append(("warnings", .array(warnings))) }
        // The rules that produced the entry (docs/history.md); entries of releases that did not
        // record it have none, and their replies stay as those releases wrote them.
        if let rules = row.rulesVersion { members.append(("rulesVersion", .number(Double(rules)))) }
        return .object(members)
    }
}

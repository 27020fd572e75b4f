import Foundation
import HTTPServer
import JSONValues
import NavigationCore
import SessionFormat
import SessionStorage

// The service's side of the stored format (SessionFormat's `Persistence`): its times, its live
// sessions and requests as the rows take them, and a history entry as the API shows it.
extension Persistence {
    /// `date` as rows store times (`created_at`, `history.at`), ``RFC3339``.
    static func timestamp(_ date: Date = Date()) -> String { RFC3339.string(date) }

    /// The rows of a new live session: ``Persistence/creation(id:createdAt:state:body:reported:)``
    /// with the request's parsed `body` (nil when it had none) and what the 201 reply reports
    /// (``Encode/createdResult(events:warnings:)``).
    static func creation(_ live: LiveSession, body: JSON? = nil, reported: [UInt8]? = nil) throws -> SessionCommit {
        try creation(id: live.id, createdAt: live.createdAt, state: live.state, body: body?.text, reported: reported)
    }

    /// A history entry as `GET …/history` lists it.
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

extension TurnRecord {
    /// A turn accepted from `request` (whose parsed body is `body`): history keeps its method,
    /// its path and, when it had one, its body.
    init(
        session: String, createdAt: String, version: Int, old: SessionState, shell: Persistence.Shell?,
        new: SessionState, changed: [ControllerID], at: String, request: HTTPRequest, body: JSON,
        commands: [Command], resolvedSegues: [Command] = [], result: [UInt8], keepsCheckpoint: Bool = true
    ) {
        self.init(
            session: session, createdAt: createdAt, version: version, old: old, shell: shell, new: new,
            changed: changed, at: at, method: request.method, path: request.path,
            body: request.body.isEmpty ? nil : body.text, commands: commands, resolvedSegues: resolvedSegues,
            result: result, keepsCheckpoint: keepsCheckpoint)
    }
}

import Foundation
public import JSONValues
public import NavigationCore
import SessionStorage
import Synchronization

/// An RFC 9457 problem: every error navsim answers (docs/api.md, "Problem types").
public struct Problem: Error, Sendable {
    public var status: Int
    public var slug: String
    public var title: String
    public var detail: String
    /// The UIKit diagnostic behind a 409 (§17 code, severity, exception name).
    public var uikit: Diagnostic?
    /// For 422: the offending field and the values it allows.
    public var field: String?
    public var allowed: [String]?
    /// For `limit-exceeded`: the limit's name (``Limits``) and its configured maximum.
    public var limit: String?
    public var max: Int?
    /// Extra headers (405 `Allow`).
    public var headers: [(String, String)] = []

    public init(status: Int, slug: String, title: String, detail: String, field: String? = nil, allowed: [String]? = nil) {
        self.status = status
        self.slug = slug
        self.title = title
        self.detail = detail
        self.field = field
        self.allowed = allowed
    }

    /// 409 for a UIKit refusal (exception or warning).
    public init(_ d: Diagnostic) {
        self.init(
            status: 409, slug: d.slug,
            title: d.severity == .exception ? "UIKit raises \(d.name ?? "an exception")" : "UIKit refuses the call",
            detail: d.message)
        uikit = d
    }

    public var json: JSON {
        var members: [(String, JSON)] = [
            ("type", .string("/v1/problems/\(slug)")), ("title", .string(title)),
            ("status", .number(Double(status))), ("detail", .string(detail)),
        ]
        if let uikit {
            var u: [(String, JSON)] = uikit.code.map { [("code", .string($0))] } ?? []
            u.append(("severity", .string(uikit.severity.rawValue)))
            if let name = uikit.name { u.append(("name", .string(name))) }
            members.append(("uikit", .object(u)))
        }
        if let field { members.append(("field", .string(field))) }
        if let allowed { members.append(("allowed", .array(allowed.map { .string($0) }))) }
        if let limit { members.append(("limit", .string(limit))) }
        if let max { members.append(("max", .number(Double(max)))) }
        return .object(members)
    }

    static func invalidBody(_ detail: String) -> Problem {
        Problem(status: 400, slug: "invalid-body", title: "The body is not valid JSON", detail: detail)
    }
    static func invalidField(_ field: String, _ detail: String, allowed: [String]? = nil) -> Problem {
        Problem(
            status: 422, slug: "invalid-body", title: "The body is well-formed but invalid", detail: detail,
            field: field, allowed: allowed)
    }
    /// This problem found in a body nested in a bigger one at `path` (`operations[2]`): its
    /// `field` named from the outer body's root (`operations[2].viewController.title`; `body`,
    /// the nested body itself, becomes `path`). Problems naming no field are left as they are.
    func within(_ path: String) -> Problem {
        guard let field else { return self }
        var p = self
        p.field = field == "body" ? path : field.hasPrefix("[") ? path + field : "\(path).\(field)"
        return p
    }
    /// 422 `invalid-query`: a query parameter is repeated, not a value it takes, or out of its
    /// range (``QueryParameters``); `field` names the parameter. Not `invalid-body`: a `GET` has no body.
    static func invalidQuery(_ name: String, _ detail: String) -> Problem {
        Problem(status: 422, slug: "invalid-query", title: "A query parameter is invalid", detail: detail, field: name)
    }
    /// 422 `invalid-path`: a path parameter can never name a resource of its kind (a storyboard
    /// name over 200 bytes, or with a control character); `field` names the parameter as
    /// openapi.yaml does. Not `invalid-body`: the path is not the body.
    static func invalidPath(_ parameter: String, _ detail: String) -> Problem {
        Problem(status: 422, slug: "invalid-path", title: "A path parameter is invalid", detail: detail, field: parameter)
    }
    /// 400 for a request target that is not a valid URI (RFC 3986 §2.1: a `%` not followed by two
    /// hex digits; RFC 9112 §3.2): `invalid-path` or `invalid-query` by where `escape` is, as
    /// `invalid-body` is 400 for a body that is not JSON and 422 for one that is but is invalid.
    static func malformedTarget(_ part: String, _ escape: String) -> Problem {
        Problem(
            status: 400, slug: part == "path" ? "invalid-path" : "invalid-query",
            title: part == "path" ? "Malformed path" : "Malformed query",
            detail: "The \(part) has '\(escape)': a '%' must begin an escape of two hex digits (RFC 3986 §2.1).")
    }
    static func unknownSession(_ id: String) -> Problem {
        Problem(status: 404, slug: "unknown-session", title: "Unknown session", detail: "No session with id '\(id)'.")
    }
    static func unknownController(_ detail: String) -> Problem {
        Problem(status: 404, slug: "unknown-controller", title: "Unknown controller", detail: detail)
    }
    static func unknownTransition(_ detail: String) -> Problem {
        Problem(status: 404, slug: "unknown-transition", title: "Unknown transition", detail: detail)
    }
    /// 409 (RFC 9110 §15.5.10): the transition's state does not allow it (queued, not interactive).
    static func transitionConflict(_ detail: String) -> Problem {
        Problem(status: 409, slug: "transition-conflict", title: "The transition cannot do that now", detail: detail)
    }
    static func notFound(_ path: String) -> Problem {
        Problem(status: 404, slug: "not-found", title: "Not found", detail: "No resource at \(path).")
    }
    static func unknownOperation(_ op: String) -> Problem {
        Problem(
            status: 404, slug: "unknown-operation", title: "Unknown operation",
            detail: "'\(op)' is not an operation. Allowed: \(Operations.names.joined(separator: ", ")).",
            allowed: Operations.names)
    }
    /// 405 with `Allow`; HEAD is listed wherever GET is (RFC 9110 §9.3.2).
    static func methodNotAllowed(_ method: String, allow methods: [String]) -> Problem {
        let allow = methods.flatMap { $0 == "GET" ? ["GET", "HEAD"] : [$0] }
        var p = Problem(
            status: 405, slug: "method-not-allowed", title: "Method not allowed",
            detail: "\(method) is not allowed here. Allowed: \(allow.joined(separator: ", ")).")
        p.headers = [("Allow", allow.joined(separator: ", "))]
        return p
    }
    static func unsupportedMediaType(_ got: String?, expected: String) -> Problem {
        Problem(
            status: 415, slug: "unsupported-media-type", title: "Unsupported media type",
            detail: "Expected Content-Type \(expected), got \(got ?? "none").")
    }
    static func payloadTooLarge(_ limit: Int) -> Problem {
        Problem(
            status: 413, slug: "payload-too-large", title: "Payload too large",
            detail: "The body is larger than \(limit) bytes.")
    }
    static func versionMismatch(expected: String, actual: Int) -> Problem {
        preconditionFailed(
            "If-Match \(expected) does not match the session's version \"\(actual)\""
                + (expected.contains("W/") ? " (a weak entity tag never matches: If-Match compares strongly, RFC 9110 §13.1.1)." : "."))
    }
    /// 412 `version-mismatch`: an `If-Match` or `If-None-Match` condition is false (RFC 9110
    /// §13.1.1, §13.1.2; ``Preconditions``); `detail` says which and against what.
    static func preconditionFailed(_ detail: String) -> Problem {
        Problem(status: 412, slug: "version-mismatch", title: "Precondition failed", detail: detail)
    }
    /// 422 `limit-exceeded`: the request is well-formed but would exceed one of ``Limits``
    /// (or the storyboard parser's limits); `limit` names it and `max` is its configured value.
    static func limitExceeded(_ limit: String, max: Int, detail: String) -> Problem {
        var p = Problem(status: 422, slug: "limit-exceeded", title: "A limit is exceeded", detail: detail)
        p.limit = limit
        p.max = max
        return p
    }
    /// What a request was doing with the store when it failed, for the problem's detail.
    enum StorageAccess {
        /// Writing: nothing was stored (all or nothing), unless the outcome is unknown.
        case write
        /// Reading: nothing was changed.
        case read
    }

    /// A storage fault as a reply that names no SQL, table or file: 503 `store-unreachable` with
    /// `Retry-After` when the database could not be reached (``StoreUnreachable``; a write whose
    /// connection broke at `COMMIT`, ``StoreFault/isCommitOutcomeUnknown``, says it may
    /// have been stored); 507 Insufficient Storage (RFC 4918 §11.5) when the database or its
    /// disk is full; else 500. `access` says whether a write or a read failed. The full error
    /// goes to standard error, where the operator can read it, except an unreachable database's:
    /// the store logs one line when it goes and one when it answers again (``StoreReachability``),
    /// not one per request.
    static func storage(_ error: any Error, _ title: String, access: StorageAccess = .write) -> Problem {
        if error.isStoreUnreachable { return storeUnreachable(error, title, access: access) }
        ServerLog.error(title, error)
        // A problem type keeps one title (RFC 9457 §3.1.3); what failed leads the detail.
        if error.storeFault?.isStorageFull == true {
            return Problem(
                status: 507, slug: "insufficient-storage", title: "Insufficient storage",
                detail: "\(title): the database is full; nothing was stored. Free space (or raise the database's size limit) and retry.")
        }
        switch access {
        case .read:
            return Problem(
                status: 500, slug: "storage-failure", title: "Storage failure",
                detail: "\(title): the database could not be read; nothing was changed. The server log has the cause.")
        case .write:
            if error.storeFault?.isCommitOutcomeUnknown == true {
                return Problem(
                    status: 500, slug: "storage-failure", title: "Storage failure",
                    detail: "\(title): the connection to the database broke while the write was being committed, so it may have been stored. Read the session before retrying.")
            }
            return Problem(
                status: 500, slug: "storage-failure", title: "Storage failure",
                detail: "\(title): the database could not complete the write; nothing was stored. The server log has the cause.")
        }
    }

    /// Seconds a client waits before it sends again a request answered `store-unreachable`
    /// (`Retry-After`, RFC 9110 §10.2.3): the store connects again on the next request that
    /// needs it, so this is only what keeps clients from spinning.
    static let storeRetryAfterSeconds = 1

    /// 503 `store-unreachable` with `Retry-After` (RFC 9110 §15.6.4), titled as `/readyz`'s:
    /// `detail` says what failed (`what`), whether the request read or wrote, and that nothing
    /// was stored, or, for a write whose connection broke at `COMMIT`, that it may have been.
    static func storeUnreachable(_ error: any Error, _ what: String, access: StorageAccess) -> Problem {
        let detail: String
        if error.storeFault?.isCommitOutcomeUnknown == true {
            detail = "\(what): the connection to the database broke while the write was being committed, so it may have been stored. Read the session before retrying."
        } else {
            switch access {
            case .read: detail = "\(what): the database cannot be reached at the moment; nothing was changed. Retry after Retry-After seconds."
            case .write: detail = "\(what): the database cannot be reached at the moment; nothing was stored. Retry after Retry-After seconds."
            }
        }
        var p = Problem(status: 503, slug: "store-unreachable", title: "Store unreachable", detail: detail)
        p.headers = [("Retry-After", String(storeRetryAfterSeconds))]
        return p
    }

    /// 503 `store-unreachable` for `GET /readyz`: the last attempt to reach the store's
    /// database failed and none has succeeded since (RFC 9110 §15.6.4).
    static let notReady: Problem = {
        var p = Problem(
            status: 503, slug: "store-unreachable", title: "Store unreachable",
            detail: "The last attempt to reach the database failed and none has succeeded since; this instance cannot serve sessions until it answers again.")
        p.headers = [("Retry-After", String(storeRetryAfterSeconds))]
        return p
    }()
    /// 400: a request header field is malformed (e.g. `If-Match` that is not `*` or entity tags).
    static func invalidHeader(_ field: String, _ detail: String) -> Problem {
        Problem(status: 400, slug: "invalid-header", title: "Malformed header field", detail: detail, field: field)
    }
    /// 401 (RFC 6750 §3): no bearer token, or `invalidToken` when one was sent that is not accepted.
    static func unauthorized(invalidToken: Bool) -> Problem {
        var p = Problem(
            status: 401, slug: "unauthorized", title: "Authentication required",
            detail: invalidToken
                ? "The bearer token is not accepted."
                : "Send Authorization: Bearer <token> (RFC 6750).")
        p.headers = [("WWW-Authenticate", invalidToken ? #"Bearer realm="navsim", error="invalid_token""# : #"Bearer realm="navsim""#)]
        return p
    }
    /// A 409 (RFC 9110 §15.5.10) whose title is its problem type's own (RFC 9457 §3.1.3: the
    /// title is the same for every occurrence of the type, and says what the type is).
    static func conflict(_ slug: String, _ detail: String) -> Problem {
        Problem(status: 409, slug: slug, title: conflictTitles[slug] ?? "Conflict", detail: detail)
    }

    /// The title of each 409 problem type made by ``conflict(_:_:)``.
    static let conflictTitles: [String: String] = [
        "session-exists": "A session with that id exists",
        "controller-exists": "A controller with that id exists",
        "controller-held": "The controller is still held",
        "writes-pending": "The session is still being written",
        "storyboard-exists": "A storyboard with that name exists",
        "relationship-cycle": "The scene's containers contain each other",
        "unresolved-reference": "A storyboard reference cannot be followed",
        "reference-cycle": "Storyboard references lead back to themselves",
        "unknown-destination": "The destination scene does not exist",
    ]

    /// 409 `controller-exists`: a new controller's id (`field`) is one the session already has; a
    /// conflict with the session's state, as `session-exists` is with the store's (RFC 9110 §15.5.10).
    static func controllerExists(_ field: String, _ detail: String) -> Problem {
        var p = conflict("controller-exists", detail)
        p.field = field
        return p
    }

    /// 409 `write-conflict`: on a store several instances share, the request's commit was
    /// refused as stale twice (another instance wrote the session first, then again while the
    /// request ran on the reloaded session). Nothing was stored; the client may read and retry.
    static func writeConflict(_ sid: String) -> Problem {
        Problem(
            status: 409, slug: "write-conflict", title: "Write conflict",
            detail: "Session '\(sid)' was changed by another instance while this request was applied, twice; nothing was stored. Read the session and retry.")
    }
}

/// Lines for the operator: internal failures whose text must not reach clients (SQL, paths).
/// One JSON object per line, as the request log writes its lines: `time` (RFC 3339 UTC),
/// `level` (`error`, `warning` for what the server works around, `info` for a store that
/// answers again: ``storeChange(_:)``), `message` (what failed),
/// `error` (the full error, on one line), and the store's own code when there is one: `code`,
/// SQLite's extended result code (13 `SQLITE_FULL`, 5 `SQLITE_BUSY`, <https://sqlite.org/rescode.html>),
/// or `sqlState`, PostgreSQL's SQLSTATE. `navsim serve` sends them through its one log writer
/// (``install(_:)``), in order with the request lines; until then they go to stderr at once.
public enum ServerLog {
    /// Writes one line's members, in order.
    public typealias Writer = @Sendable ([(String, JSON)]) -> Void

    /// A class around the closure: a function value read out of `Mutex.withLock` is
    /// re-abstracted on every read (see `BatchObserver` in SessionStorage).
    private final class Output: Sendable {
        let write: Writer
        init(_ write: @escaping Writer) { self.write = write }
    }

    private static let output = Mutex<Output?>(nil)

    /// Sends every line from now on to `writer` (the process's log writer).
    public static func install(_ writer: @escaping Writer) {
        output.withLock { $0 = Output(writer) }
    }

    static func error(_ what: String, _ error: any Error) {
        emit(line(level: "error", what, error: error))
    }

    static func warning(_ what: String, _ error: any Error) {
        emit(line(level: "warning", what, error: error))
    }

    /// The one line of a store's change of reachability: `error` `store unreachable` with the
    /// failure that showed it, or `info` `store reachable again` with `unreachableSeconds` and
    /// the reads and writes that failed meanwhile (`failedReads`, `failedWrites`).
    static func storeChange(_ change: StoreReachability.Change) {
        emit(line(change))
    }

    /// The members of ``storeChange(_:)``'s line.
    static func line(_ change: StoreReachability.Change, time: String = RFC3339.now()) -> [(String, JSON)] {
        switch change {
        case .unreachable(let error):
            return line(level: "error", "store unreachable", error: (error as? StoreUnreachable)?.cause ?? error, time: time)
        case .reachableAgain(let downMillis, let reads, let writes):
            return [
                ("time", .string(time)), ("level", .string("info")), ("message", .string("store reachable again")),
                ("unreachableSeconds", .number(Double(downMillis) / 1000)),
                ("failedReads", .number(Double(reads))), ("failedWrites", .number(Double(writes))),
            ]
        }
    }

    /// The members of one line: `time`, `level`, `message`, `error`, then `code` or `sqlState`.
    static func line(level: String, _ message: String, error: any Error, time: String = RFC3339.now()) -> [(String, JSON)] {
        var members: [(String, JSON)] = [
            ("time", .string(time)), ("level", .string(level)), ("message", .string(message)),
            ("error", .string(String(describing: error).replacingOccurrences(of: "\n", with: " "))),
        ]
        switch error.storeFault?.storeCode {
        case .resultCode(let code)?: members.append(("code", .number(Double(code))))
        case .sqlState(let state)?: members.append(("sqlState", .string(state)))
        case nil: break
        }
        return members
    }

    private static func emit(_ members: [(String, JSON)]) {
        if let output = output.withLock({ $0 }) { return output.write(members) }
        var bytes = JSON.object(members).bytes
        bytes.append(UInt8(ascii: "\n"))
        FileHandle.standardError.write(Data(bytes))
    }
}
extension Problem {
    /// Core input errors: unknown ids are 404, a transition in the wrong state 409, the rest 422.
    static func fromCore(_ e: CommandError) -> Problem {
        switch e.kind {
        case .unknownController: return .unknownController(e.message)
        case .unknownTransition: return .unknownTransition(e.message)
        case .transitionConflict: return .transitionConflict(e.message)
        case .held: return .conflict("controller-held", e.message)
        case .idTaken: return .controllerExists(e.field ?? "id", e.message)
        case .invalid: return .invalidField(e.field ?? "body", e.message)
        case .wrongReceiver:
            return Problem(status: 422, slug: "invalid-receiver", title: "The receiver does not take this operation", detail: e.message)
        case .limitExceeded:
            let limit = e.limit.flatMap(CallbackCode.Limit.init(rawValue:)) ?? .callbackDepth
            return .limitExceeded(limit.rawValue, max: limit.maximum, detail: e.message)
        case .invariantViolation:
            return Problem(status: 500, slug: "internal-invariant", title: "Internal error", detail: e.message)
        }
    }
}

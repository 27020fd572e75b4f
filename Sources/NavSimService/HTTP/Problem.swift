import NavigationCore

/// An RFC 9457 problem: every error navsim answers (API.md "General rules").
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
        self.init(status: 409, slug: d.slug,
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
        return .object(members)
    }

    static func invalidBody(_ detail: String) -> Problem {
        Problem(status: 400, slug: "invalid-body", title: "The body is not valid JSON", detail: detail)
    }
    static func invalidField(_ field: String, _ detail: String, allowed: [String]? = nil) -> Problem {
        Problem(status: 422, slug: "invalid-body", title: "The body is well-formed but invalid", detail: detail,
                field: field, allowed: allowed)
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
        Problem(status: 404, slug: "unknown-operation", title: "Unknown operation",
                detail: "'\(op)' is not an operation. Allowed: \(Operations.names.joined(separator: ", ")).",
                allowed: Operations.names)
    }
    /// 405 with `Allow`; HEAD is listed wherever GET is (RFC 9110 §9.3.2).
    static func methodNotAllowed(_ method: String, allow methods: [String]) -> Problem {
        let allow = methods.flatMap { $0 == "GET" ? ["GET", "HEAD"] : [$0] }
        var p = Problem(status: 405, slug: "method-not-allowed", title: "Method not allowed",
                        detail: "\(method) is not allowed here. Allowed: \(allow.joined(separator: ", ")).")
        p.headers = [("Allow", allow.joined(separator: ", "))]
        return p
    }
    static func unsupportedMediaType(_ got: String?, expected: String) -> Problem {
        Problem(status: 415, slug: "unsupported-media-type", title: "Unsupported media type",
                detail: "Expected Content-Type \(expected), got \(got ?? "none").")
    }
    static func payloadTooLarge(_ limit: Int) -> Problem {
        Problem(status: 413, slug: "payload-too-large", title: "Payload too large",
                detail: "The body is larger than \(limit) bytes.")
    }
    static func versionMismatch(expected: String, actual: Int) -> Problem {
        Problem(status: 412, slug: "version-mismatch", title: "Precondition failed",
                detail: "If-Match \(expected) does not match the session's version \"\(actual)\".")
    }
    /// 400: a request header field is malformed (e.g. `If-Match` that is not `*` or entity tags).
    static func invalidHeader(_ field: String, _ detail: String) -> Problem {
        Problem(status: 400, slug: "invalid-header", title: "Malformed header field", detail: detail, field: field)
    }
    /// 401 (RFC 6750 §3): no bearer token, or `invalidToken` when one was sent that is not accepted.
    static func unauthorized(invalidToken: Bool) -> Problem {
        var p = Problem(status: 401, slug: "unauthorized", title: "Authentication required",
                        detail: invalidToken ? "The bearer token is not accepted."
                            : "Send Authorization: Bearer <token> (RFC 6750).")
        p.headers = [("WWW-Authenticate", invalidToken ? #"Bearer realm="navsim", error="invalid_token""# : #"Bearer realm="navsim""#)]
        return p
    }
    static func conflict(_ slug: String, _ detail: String) -> Problem {
        Problem(status: 409, slug: slug, title: "Conflict", detail: detail)
    }
}

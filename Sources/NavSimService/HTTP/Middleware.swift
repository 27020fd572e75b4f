import HTTPServer
import Synchronization

/// What the pieces around the router learn about one request as it passes: the route that ran
/// it, when one did (the request metrics' label).
struct RequestContext {
    var route: Route<NavSimService>?
}

/// The rest of the chain, as one piece sees it.
typealias Responder = (HTTPRequest, inout RequestContext) throws(Problem) -> HTTPResponse

/// One cross-cutting concern composed around the router, in the manner of Hummingbird's
/// middleware: it sees every request, may answer it itself, and otherwise calls `next`. The
/// handlers know none of them.
protocol ServiceMiddleware: Sendable {
    func respond(to request: HTTPRequest, context: inout RequestContext, next: Responder) throws(Problem) -> HTTPResponse
}

/// The pieces in order, outermost first, ending at `endpoint` (the router).
struct MiddlewareChain: Sendable {
    let pieces: [any ServiceMiddleware]

    func respond(
        to request: HTTPRequest, context: inout RequestContext, from index: Int = 0,
        endpoint: Responder
    ) throws(Problem) -> HTTPResponse {
        guard index < pieces.count else { return try endpoint(request, &context) }
        return try pieces[index].respond(to: request, context: &context) { request, context throws(Problem) in
            try respond(to: request, context: &context, from: index + 1, endpoint: endpoint)
        }
    }
}

/// Counts every request in `navsim_requests_total` and observes its duration in
/// `navsim_http_request_duration_seconds`, when its reply is sent (a deferred one's too).
struct RequestMetrics: ServiceMiddleware {
    let counters: ServiceCounters
    let durations: HistogramFamily

    func respond(to request: HTTPRequest, context: inout RequestContext, next: Responder) throws(Problem) -> HTTPResponse {
        counters.requests.add(1, ordering: .relaxed)
        let started = ContinuousClock.now
        let response = try next(request, &context)
        observe(response, route: context.route, request: request, since: started)
        return response
    }

    /// Records `response` in `navsim_http_request_duration_seconds`, when it is sent for a
    /// deferred reply.
    func observe(
        _ response: HTTPResponse, route matched: Route<NavSimService>?, request: HTTPRequest,
        since started: ContinuousClock.Instant
    ) {
        // Labels from bounded sets only: a registered template and its method, or "unmatched".
        // The series is named by (route, HEAD or not, status); its label text is rendered once.
        let found = matched
        let head = found.map { $0.method != request.method } ?? false
        let route = found.map { $0.index * 2 + (head ? 1 : 0) } ?? -1
        let durations = self.durations
        let method = request.method
        @Sendable func observe(_ status: Int) {
            durations.observe(ServiceMetrics.seconds(ContinuousClock.now - started), key: .init(a: route, b: status)) {
                let labels =
                    found.map { route in
                        head
                            ? "method=\(HistogramFamily.quoted(method)),route=\(HistogramFamily.quoted(route.template.description))"
                            : route.metricLabels
                    } ?? #"method="other",route="unmatched""#
                return labels + ",status=\"\(status)\""
            }
        }
        if let deferred = response.deferred {
            deferred.finishing { reply in observe(reply.status) }
        } else {
            observe(response.status)
        }
    }
}

/// Renders a problem thrown inside the chain as problem+json, counting it in
/// `navsim_uikit_refusals_total` when it is UIKit refusing (it carries a `uikit` diagnostic,
/// docs/uikit-behaviours.md): navsim's own 409s (`session-exists`, `write-conflict`, …) are not UIKit's.
struct ProblemResponses: ServiceMiddleware {
    let counters: ServiceCounters

    func respond(to request: HTTPRequest, context: inout RequestContext, next: Responder) throws(Problem) -> HTTPResponse {
        do { return try next(request, &context) } catch {
            count(error)
            return NavSimService.problem(error)
        }
    }

    func count(_ problem: Problem) {
        if problem.uikit != nil { counters.refusals.add(1, ordering: .relaxed) }
    }
}

/// Refuses a request on its head alone: 401 problem+json with `WWW-Authenticate: Bearer
/// realm="navsim"` (plus `error="invalid_token"` for a wrong token, RFC 6750 §3) when tokens are
/// set and none was sent, on every route the route table marks as requiring one (all but
/// `/healthz`, `/readyz` and `/inspector`). The server runs ``screen(_:)`` before reading a body;
/// the chain runs it again, so it holds in process too.
struct TokenScreen: ServiceMiddleware {
    let tokens: ReloadableTokens

    func respond(to request: HTTPRequest, context: inout RequestContext, next: Responder) throws(Problem) -> HTTPResponse {
        if let refusal = screen(request) { return refusal }
        return try next(request, &context)
    }

    func screen(_ request: HTTPRequest) -> HTTPResponse? {
        let tokens = self.tokens.current
        guard !tokens.isEmpty, NavSimService.router.requiresToken(path: request.pathSegments) else { return nil }
        switch tokens.verdict(authorization: request.headers.values(for: "Authorization")) {
        case .accepted: return nil
        case .missing: return NavSimService.problem(.unauthorized(invalidToken: false))
        case .invalid: return NavSimService.problem(.unauthorized(invalidToken: true))
        }
    }
}

/// Refuses a request target or body no route should see: 400 `invalid-path`/`invalid-query` for
/// a malformed `%` escape (RFC 3986 §2.1), 413 for a body over the limit.
struct RequestChecks: ServiceMiddleware {
    func respond(to request: HTTPRequest, context: inout RequestContext, next: Responder) throws(Problem) -> HTTPResponse {
        if let escape = malformedPercentEscape(in: request.path) { throw Problem.malformedTarget("path", escape) }
        if let escape = request.malformedQueryEscape { throw Problem.malformedTarget("query", escape) }
        if request.bodyTooLarge { throw Problem.payloadTooLarge(request.bodyLimit) }
        return try next(request, &context)
    }
}

/// Every read's `If-Match` and `If-None-Match` against the tag of its answer (RFC 9110 §13.2.2),
/// so no read handler evaluates them itself (``Preconditions/answer(_:to:)``).
struct ConditionalReads: ServiceMiddleware {
    func respond(to request: HTTPRequest, context: inout RequestContext, next: Responder) throws(Problem) -> HTTPResponse {
        try Preconditions.answer(request, to: next(request, &context))
    }
}

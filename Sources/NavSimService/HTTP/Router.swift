import HTTPServer

/// A path template of the HTTP contract, as `openapi.yaml` writes it: `/`-separated literal
/// segments and `{name}` parameters, e.g. `/v1/sessions/{sid}/controllers/{cid}/{operation}`.
struct PathTemplate: Sendable, Hashable, CustomStringConvertible {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    let segments: [Segment]
    /// The template as written (`/` for the root).
    let description: String

    init(_ template: String) {
        description = template
        segments = template.split(separator: "/").map { s in
            s.hasPrefix("{") && s.hasSuffix("}") ? .parameter(String(s.dropFirst().dropLast())) : .literal(String(s))
        }
    }

    /// How many segments are literal: of two templates matching one path, the more literal wins.
    var literalCount: Int { segments.count { if case .literal = $0 { true } else { false } } }

    /// The parameters when `path` (already split, then percent-decoded: ``HTTPRequest/pathSegments``)
    /// fits this template segment for segment; nil otherwise.
    func match(_ path: [String]) -> PathParameters? {
        guard path.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (segment, value) in zip(segments, path) {
            switch segment {
            case let .literal(text): if text != value { return nil }
            case let .parameter(name): values[name] = value
            }
        }
        return PathParameters(values: values)
    }
}

/// The values of a matched template's `{name}` parameters, decoded.
struct PathParameters: Sendable {
    var values: [String: String]
    /// The value of `{name}`; a name the template does not have is a programming error caught by
    /// the route tests, and reads as `""` rather than trapping.
    subscript(_ name: String) -> String { values[name] ?? "" }
}

/// One registered route: a method on a path template, its handler, and its attributes.
struct Route<Context: Sendable>: Sendable {
    typealias Handler = @Sendable (Context, HTTPRequest, PathParameters) throws(Problem) -> HTTPResponse

    let method: String
    let template: PathTemplate
    /// False for the routes a client may call without a bearer token (`/healthz`).
    let requiresToken: Bool
    let handler: Handler

    init(_ method: String, _ template: String, requiresToken: Bool = true, _ handler: @escaping Handler) {
        self.method = method
        self.template = PathTemplate(template)
        self.requiresToken = requiresToken
        self.handler = handler
    }
}

/// The routes, registered once; 404, 405 with `Allow`, and HEAD follow from them:
/// - a path no template matches is 404 `not-found`;
/// - a path some template matches, with a method none registers, is 405 whose `Allow` lists the
///   registered methods of the matching templates, HEAD wherever GET (RFC 9110 §15.5.6, §9.3.2);
/// - HEAD runs the GET handler (libmicrohttpd leaves the content out).
struct Router<Context: Sendable>: Sendable {
    let routes: [Route<Context>]

    init(_ routes: [Route<Context>]) { self.routes = routes }

    enum Resolution {
        case route(Route<Context>, PathParameters)
        case methodNotAllowed(allow: [String])
        case notFound
    }

    /// The route for `method` on `path` (split, then decoded), or why there is none.
    func resolve(method: String, path: [String]) -> Resolution {
        let lookup = method == "HEAD" ? "GET" : method
        var allow: [String] = []
        var best: (route: Route<Context>, parameters: PathParameters)?
        for route in routes {
            guard let parameters = route.template.match(path) else { continue }
            if !allow.contains(route.method) { allow.append(route.method) }
            if route.method == lookup, best.map({ route.template.literalCount > $0.route.template.literalCount }) ?? true {
                best = (route, parameters)
            }
        }
        if let best { return .route(best.route, best.parameters) }
        return allow.isEmpty ? .notFound : .methodNotAllowed(allow: allow)
    }

    /// Runs the handler of the request's route, or throws the 404/405 the registrations imply.
    /// `matched` is told the route's template before its handler runs (metrics label by it).
    func dispatch(_ context: Context, _ request: HTTPRequest, matched: (PathTemplate) -> Void = { _ in }) throws(Problem) -> HTTPResponse {
        switch resolve(method: request.method, path: request.pathSegments) {
        case let .route(route, parameters):
            matched(route.template)
            return try route.handler(context, request, parameters)
        case let .methodNotAllowed(allow): throw Problem.methodNotAllowed(request.method, allow: allow)
        case .notFound: throw Problem.notFound(request.path)
        }
    }

    /// False when the path's routes are all registered without a token (`requiresToken: false`);
    /// an unknown path requires one, so a 404 tells nothing to a client without a token.
    func requiresToken(path: [String]) -> Bool {
        let matching = routes.filter { $0.template.match(path) != nil }
        return matching.isEmpty || matching.contains { $0.requiresToken }
    }

    /// Every registered (method, template), in registration order: what `openapi.yaml` must list.
    var registrations: [(method: String, template: String)] {
        routes.map { ($0.method, $0.template.description) }
    }
}

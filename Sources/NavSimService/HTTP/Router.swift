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
    /// How many segments are literal: of two templates matching one path, the more literal wins.
    let literalCount: Int

    init(_ template: String) {
        description = template
        segments = template.split(separator: "/").map { s in
            s.hasPrefix("{") && s.hasSuffix("}") ? .parameter(String(s.dropFirst().dropLast())) : .literal(String(s))
        }
        literalCount = segments.count { if case .literal = $0 { true } else { false } }
    }

    /// The parameters when `path` (already split, then percent-decoded: ``HTTPRequest/pathSegments``)
    /// fits this template segment for segment; nil otherwise.
    func match(_ path: [String]) -> PathParameters? {
        guard path.count == segments.count else { return nil }
        var values: [(String, String)] = []
        for (segment, value) in zip(segments, path) {
            switch segment {
            case let .literal(text): if text != value { return nil }
            case let .parameter(name):
                if values.isEmpty { values.reserveCapacity(segments.count - literalCount) }
                values.append((name, value))
            }
        }
        return PathParameters(values: values)
    }
}

/// The values of a matched template's `{name}` parameters, decoded, in the template's order:
/// at most a few, so a scan (no hashing, one allocation) finds one.
struct PathParameters: Sendable {
    var values: [(String, String)]
    /// The value of `{name}`; a name the template does not have is a programming error caught by
    /// the route tests, and reads as `""` rather than trapping.
    subscript(_ name: String) -> String { values.first { $0.0 == name }?.1 ?? "" }
}

/// One registered route: a method on a path template, its handler, and its attributes.
struct Route<Context: Sendable>: Sendable {
    typealias Handler = @Sendable (Context, HTTPRequest, PathParameters) throws(Problem) -> HTTPResponse

    let method: String
    let template: PathTemplate
    /// False for the routes a client may call without a bearer token (`/healthz`, `/readyz`).
    let requiresToken: Bool
    let handler: Handler
    /// `method="…",route="…"`: the route's labels in the request-duration histogram, quoted once
    /// here rather than per request.
    let metricLabels: String
    /// The route's position in its ``Router``'s table (set by the router; -1 before): the
    /// request-duration histogram names the route's series by it instead of by label text.
    fileprivate(set) var index = -1

    init(_ method: String, _ template: String, requiresToken: Bool = true, _ handler: @escaping Handler) {
        self.method = method
        self.template = PathTemplate(template)
        self.requiresToken = requiresToken
        self.handler = handler
        metricLabels = "method=\(HistogramFamily.quoted(method)),route=\(HistogramFamily.quoted(template))"
    }
}

/// The routes, registered once; 404, 405 with `Allow`, and HEAD follow from them:
/// - a path no template matches is 404 `not-found`;
/// - a path some template matches, with a method none registers, is 405 whose `Allow` lists the
///   registered methods of the matching templates, HEAD wherever GET (RFC 9110 §15.5.6, §9.3.2);
/// - HEAD runs the GET handler (libmicrohttpd leaves the content out).
///
/// Of two templates matching one path for the method, the one with more literal segments wins,
/// the earlier registration on a tie. Lookup walks a tree of the templates' segments built once
/// from the table (no scan of every template per request); the table stays the one
/// declaration, and the answers are those of trying every template in order.
struct Router<Context: Sendable>: Sendable {
    let routes: [Route<Context>]
    /// The templates' segments as a tree: `nodes[0]` is the root; a route ends at the node its
    /// last segment leads to.
    private let nodes: [Node]

    private struct Node: Sendable {
        /// The child for each literal segment. A node has a few, so a scan of small strings is
        /// cheaper than hashing the request's segment (three hashes per `GET`).
        var literals: [(text: String, node: Int)] = []
        /// The child for a `{parameter}` segment, whatever its name.
        var parameter: Int?
        /// Indices into `routes` of the templates that end here, in registration order.
        var endings: [Int] = []

        /// The child for the literal segment `text`.
        func literal(_ text: String) -> Int? {
            for child in literals where child.text == text { return child.node }
            return nil
        }
    }

    init(_ routes: [Route<Context>]) {
        self.routes = routes.enumerated().map { index, route in
            var route = route
            route.index = index
            return route
        }
        var nodes = [Node()]
        for (index, route) in routes.enumerated() {
            var at = 0
            for segment in route.template.segments {
                let next: Int?
                switch segment {
                case let .literal(text): next = nodes[at].literal(text)
                case .parameter: next = nodes[at].parameter
                }
                if let next {
                    at = next
                    continue
                }
                nodes.append(Node())
                switch segment {
                case let .literal(text): nodes[at].literals.append((text, nodes.count - 1))
                case .parameter: nodes[at].parameter = nodes.count - 1
                }
                at = nodes.count - 1
            }
            nodes[at].endings.append(index)
        }
        self.nodes = nodes
    }

    enum Resolution {
        case route(Route<Context>, PathParameters)
        case methodNotAllowed(allow: [String])
        case notFound
    }

    /// The indices of every route whose template fits `path` segment for segment, ascending
    /// (registration order). A literal and a parameter child may both fit one segment: both
    /// branches are followed.
    func matching(_ path: [String]) -> [Int] {
        var found: [Int] = []
        func walk(_ node: Int, _ depth: Int) {
            guard depth < path.count else {
                found += nodes[node].endings
                return
            }
            if let literal = nodes[node].literal(path[depth]) { walk(literal, depth + 1) }
            if let parameter = nodes[node].parameter { walk(parameter, depth + 1) }
        }
        walk(0, 0)
        if found.count > 1 { found.sort() }
        return found
    }

    /// The route for `method` on `path` (split, then decoded), or why there is none.
    ///
    /// The tree is walked without collecting the matches: the best route for the method is kept
    /// as it is found, and `Allow` is built only for a 405 (no allocation on a `GET`
    /// beyond the parameters). The answer is that of ``matching(_:)`` in registration order.
    func resolve(method: String, path: [String]) -> Resolution {
        let lookup = method == "HEAD" ? "GET" : method
        var best = -1
        var any = false
        func walk(_ node: Int, _ depth: Int) {
            guard depth < path.count else {
                for index in nodes[node].endings {
                    any = true
                    let route = routes[index]
                    guard route.method == lookup else { continue }
                    // More literal segments win; on a tie, the earlier registration.
                    if best < 0 || route.template.literalCount > routes[best].template.literalCount
                        || (route.template.literalCount == routes[best].template.literalCount && index < best)
                    {
                        best = index
                    }
                }
                return
            }
            if let literal = nodes[node].literal(path[depth]) { walk(literal, depth + 1) }
            if let parameter = nodes[node].parameter { walk(parameter, depth + 1) }
        }
        walk(0, 0)
        if best >= 0, let parameters = routes[best].template.match(path) { return .route(routes[best], parameters) }
        guard any else { return .notFound }
        var allow: [String] = []
        for index in matching(path) where !allow.contains(routes[index].method) { allow.append(routes[index].method) }
        return .methodNotAllowed(allow: allow)
    }

    /// Runs the handler of the request's route, or throws the 404/405 the registrations imply.
    /// `matched` is told the route's template before its handler runs (metrics label by it).
    func dispatch(_ context: Context, _ request: HTTPRequest, matched: (Route<Context>) -> Void = { _ in }) throws(Problem) -> HTTPResponse {
        switch resolve(method: request.method, path: request.pathSegments) {
        case let .route(route, parameters):
            matched(route)
            return try route.handler(context, request, parameters)
        case let .methodNotAllowed(allow): throw Problem.methodNotAllowed(request.method, allow: allow)
        case .notFound: throw Problem.notFound(request.path)
        }
    }

    /// False when the path's routes are all registered without a token (`requiresToken: false`);
    /// an unknown path requires one, so a 404 tells nothing to a client without a token.
    func requiresToken(path: [String]) -> Bool {
        let matching = matching(path)
        return matching.isEmpty || matching.contains { routes[$0].requiresToken }
    }

    /// Every registered (method, template), in registration order: what `openapi.yaml` must list.
    var registrations: [(method: String, template: String)] {
        routes.map { ($0.method, $0.template.description) }
    }
}

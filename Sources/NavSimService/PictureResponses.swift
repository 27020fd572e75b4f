import HTTPServer
import JSONValues
public import Pictures

/// Content negotiation and rendering for the two routes that answer pictures,
/// `GET /v1/sessions/{sid}` (any `?version=N`) and `GET /v1/storyboards/{name}` (docs/pictures.md).
/// Every representation is made from the route's JSON reply; non-JSON ones are cached per
/// version (``PictureCache``) and every answer carries `Vary: Accept` (RFC 9110 §12.5.5).
/// The HTTP side of the `Pictures` target: it reads `Accept`, answers problems and builds responses.
final class Pictures: Sendable {
    let graphviz: Graphviz
    let cache: PictureCache

    init(graphviz: Graphviz = .system, cache: PictureCache = PictureCache()) {
        self.graphviz = graphviz
        self.cache = cache
    }

    /// The representation `req`'s `Accept` asks for (all field lines joined, RFC 9110 §5.3).
    /// - Throws: 406 `not-acceptable` when none can be sent; when only SVG is acceptable and
    ///   Graphviz is missing, the detail says to install it.
    func choose(_ req: HTTPRequest) throws(Problem) -> Representation {
        let lines = req.headers.values(for: "Accept")
        switch Representation.negotiate(lines.isEmpty ? nil : lines.joined(separator: ", "), svgAvailable: graphviz.isAvailable) {
        case .send(let r): return r
        case .notAcceptable:
            let offered = Representation.allCases.filter { $0 != .svg || graphviz.isAvailable }.map(\.mediaType)
            throw Problem(
                status: 406, slug: "not-acceptable", title: "No acceptable representation",
                detail: "This resource is available as \(offered.joined(separator: ", ")); the Accept field allows none of them.")
        case .needsGraphviz:
            throw Problem(
                status: 406, slug: "graphviz-not-installed", title: "SVG needs Graphviz",
                detail:
                    "image/svg+xml is rendered by Graphviz's dot, which is not on this server's PATH: install Graphviz (Debian: apt-get install graphviz); no restart is needed. text/vnd.graphviz and text/plain are available."
            )
        }
    }

    /// The answer in `representation`: JSON as is (with `etag` as given); text, DOT or SVG
    /// built from it (through the cache under `resource`/`version`) with a per-representation
    /// entity tag when `etag` is given.
    /// - Throws: 503 `render-failed` when `dot` fails, times out or exceeds a size bound.
    func response(
        _ representation: Representation, resource: String, version: String, etag: Int?,
        json: JSON, text: (JSON) -> String, dot: (JSON) -> String
    ) throws(Problem) -> HTTPResponse {
        var headers = HTTPHeaders([("Content-Type", representation.contentType), ("Vary", "Accept")])
        if let etag { headers.add("ETag", representation.entityTag(etag)) }
        let key = PictureCache.Key(resource: resource, version: version, representation: representation)
        let body: [UInt8]
        switch representation {
        case .json: body = json.bytes
        case .text: body = cache.value(key) { Array(text(json).utf8) }
        case .dot: body = cache.value(key) { Array(dot(json).utf8) }
        case .svg:
            let graphviz = self.graphviz
            do {
                body = try cache.value(key) { () throws(Graphviz.Failure) -> [UInt8] in try graphviz.svg(dot(json)) }
            } catch {
                throw Self.problem(error)
            }
        }
        return HTTPResponse(status: 200, headers: headers, body: body)
    }

    static func problem(_ failure: Graphviz.Failure) -> Problem {
        let detail: String
        switch failure {
        case .notInstalled:
            return Problem(
                status: 406, slug: "graphviz-not-installed", title: "SVG needs Graphviz",
                detail: "Graphviz's dot is not on this server's PATH: install Graphviz (Debian: apt-get install graphviz); no restart is needed.")
        case .inputTooLarge(let max): detail = "The graph is larger than \(max) bytes of DOT; ask for text/vnd.graphviz instead."
        case .timedOut(let s): detail = "dot did not finish within \(s) seconds; ask for text/vnd.graphviz instead."
        case .outputTooLarge(let max): detail = "dot's SVG is larger than \(max) bytes; ask for text/vnd.graphviz instead."
        case let .failed(status, message): detail = "dot failed (status \(status)): \(message)"
        }
        return Problem(status: 503, slug: "render-failed", title: "The picture could not be rendered", detail: detail)
    }
}

/// The replies the pictures are drawn from are the service's own JSON values.
extension JSON: PictureReply {}

extension Inspector {
    /// `GET /inspector`'s reply: the page with its header fields.
    static let response = HTTPResponse(status: 200, headers: HTTPHeaders(headers.map { ($0.name, $0.value) }), body: Array(page.utf8))
}

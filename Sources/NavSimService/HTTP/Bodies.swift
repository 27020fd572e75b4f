import Foundation
import HTTPServer
import JSONValues
import NavigationCore

/// JSON request bodies and replies, problem+json, and the `Prefer` field.
extension NavSimService {
    static func problem(_ p: Problem) -> HTTPResponse {
        var headers = HTTPHeaders([("Content-Type", "application/problem+json")])
        for (k, v) in p.headers { headers.add(k, v) }
        return HTTPResponse(status: p.status, headers: headers, body: p.json.bytes)
    }

    static func json(_ status: Int, _ body: JSON, etag: Int? = nil, location: String? = nil) -> HTTPResponse {
        json(status, bytes: body.bytes, etag: etag.map { "\"\($0)\"" }, location: location)
    }

    /// A JSON reply from bytes already encoded; `etag` is the quoted tag (`"3"`).
    static func json(_ status: Int, bytes: [UInt8], etag: String?, location: String? = nil, vary: String? = nil) -> HTTPResponse {
        // Room for every field here and the request log's `X-Request-Id`: one allocation.
        var pairs: [(String, String)] = []
        pairs.reserveCapacity(5)
        pairs.append(("Content-Type", "application/json"))
        if let etag { pairs.append(("ETag", etag)) }
        if let location { pairs.append(("Location", location)) }
        if let vary { pairs.append(("Vary", vary)) }
        return HTTPResponse(status: status, headers: HTTPHeaders(pairs), body: bytes)
    }

    /// Media types a JSON body may be sent as (parameters such as `charset=utf-8` aside).
    static let jsonMediaTypes: Set<String> = ["application/json", "application/problem+json"]

    func parseBody(_ req: HTTPRequest) throws(Problem) -> JSON {
        if req.body.isEmpty { return .object([]) }
        guard let type = req.mediaType, Self.jsonMediaTypes.contains(type) else {
            throw Problem.unsupportedMediaType(req.headers["content-type"], expected: "application/json")
        }
        return try Self.parseJSON(req.body, limits: limits)
    }

    /// A JSON body within `limits` (`jsonDepth`, `jsonContainers`): malformed text is 400
    /// `invalid-body`, text past a limit 422 `limit-exceeded` naming it.
    static func parseJSON(_ bytes: [UInt8], limits: Limits) throws(Problem) -> JSON {
        do { return try JSON.parse(bytes, maxDepth: limits.jsonDepth, maxContainers: limits.jsonContainers) } catch {
            if let limit = error.exceeded { throw Problem.limitExceeded(limit.name, max: limit.max, detail: error.description) }
            throw Problem.invalidBody(error.description)
        }
    }

    /// RFC 7240 §4.2: whether the `Prefer` field asks for `return=minimal`. Preferences are
    /// comma-separated, their parameters (after `;`) ignored, the name matched in any case, the
    /// value with or without quotes. Only the first `return` counts (§2: later instances of a
    /// preference are ignored), over every field line in order. Any other preference, or none,
    /// means the full reply.
    static func prefersMinimal(_ req: HTTPRequest) -> Bool {
        for line in req.headers.values(for: "Prefer") {
            for preference in line.split(separator: ",") {
                let token = preference.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
                let parts = token.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, Self.trimmed(parts[0]).lowercased() == "return" else { continue }
                var value = Self.trimmed(parts[1])
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
                return value.lowercased() == "minimal"
            }
        }
        return false
    }

    /// `text` without leading and trailing spaces and tabs (OWS, RFC 9110 §5.6.3).
    static func trimmed(_ text: Substring) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}

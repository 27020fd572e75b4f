import HTTPServer

/// `If-Match` and `If-None-Match`, evaluated in RFC 9110 §13.2.2's order for every route: the one
/// place that decides a 304 or a 412.
///
/// - Reads (GET, HEAD): ``read(_:etag:vary:)`` against the tag the 200 would carry. The router
///   applies it to every 2xx read with an `ETag` (``answer(_:to:)``); a handler calls it itself
///   where that saves work (a past version's rebuild) or its answer has no tag (a replay).
/// - Writes: ``write(ifMatch:ifNoneMatch:version:)`` against the session's version, before
///   anything is applied.
///
/// Tags are `"<version>"` or a representation's own (`"3-text"`). A field whose value is neither
/// `*` nor a list of entity tags (§8.8.3) is 400 `invalid-header`: a broken header, not a failed
/// condition. The other preconditions (`If-Modified-Since`, `If-Unmodified-Since`, `If-Range`) do
/// not apply: no navsim resource has a `Last-Modified` date.
enum Preconditions {
    /// Every field line of `name` joined into one list (RFC 9110 §5.3), or nil when there is none.
    static func field(_ req: HTTPRequest, _ name: String) -> String? {
        let lines = req.headers.values(for: name)
        return lines.isEmpty ? nil : lines.joined(separator: ", ")
    }

    /// A GET or HEAD of a representation tagged `etag` (nil: it has none, as a replay's answer):
    /// 412 `version-mismatch` (thrown) when `If-Match` is false (§13.1.1: strong comparison, `*`
    /// true since the resource exists), else 304 when `If-None-Match` is `*` or lists the tag
    /// under weak comparison (§13.1.2), else nil: answer the 200. The 304 carries the `ETag` and
    /// `Vary` the 200 would (§15.4.5), and no content. `etag` is built only when a field is present.
    static func read(_ req: HTTPRequest, etag makeTag: @autoclosure () -> String?, vary: String? = nil) throws(Problem) -> HTTPResponse? {
        let ifMatch = field(req, "If-Match"), ifNoneMatch = field(req, "If-None-Match")
        guard ifMatch != nil || ifNoneMatch != nil else { return nil }
        let etag = makeTag()
        let opaque = etag.map { $0.utf8.count >= 2 ? String($0.dropFirst().dropLast()) : $0 }
        if let ifMatch {
            let tags = try parse(ifMatch, "If-Match")
            if !tags.matchesAny, !(opaque.map(tags.strong.contains) ?? false) {
                throw Problem.preconditionFailed(
                    "If-Match \(ifMatch) does not match the current entity tag \(etag ?? "(none)")"
                        + (ifMatch.contains("W/") ? " (a weak entity tag never matches: If-Match compares strongly, RFC 9110 §13.1.1)." : "."))
            }
        }
        guard let ifNoneMatch else { return nil }
        let tags = try parse(ifNoneMatch, "If-None-Match")
        if !tags.matchesAny {
            guard let opaque, tags.strong.contains(opaque) || tags.weak.contains(opaque) else { return nil }
        }
        var headers = HTTPHeaders()
        if let etag { headers.add("ETag", etag) }
        if let vary { headers.add("Vary", vary) }
        return HTTPResponse(status: 304, headers: headers)
    }

    /// The router's pass over a read's answer: for a 2xx answer to GET or HEAD that carries an
    /// `ETag`, ``read(_:etag:vary:)`` against that tag and the answer's `Vary`. Any other answer is
    /// returned as it is: a failure (§13.2.1: preconditions are ignored when the request would not
    /// succeed without them), and a resource navsim gives no validator (`/healthz`, the session
    /// list, storyboards), whose writes take no preconditions either. The one untagged answer that
    /// does evaluate them, a replay, calls ``read(_:etag:vary:)`` itself.
    static func answer(_ req: HTTPRequest, to response: HTTPResponse) throws(Problem) -> HTTPResponse {
        guard req.method == "GET" || req.method == "HEAD", (200..<300).contains(response.status), response.deferred == nil,
            req.headers["If-Match"] != nil || req.headers["If-None-Match"] != nil,
            let etag = response.headers["ETag"]
        else { return response }
        return try read(req, etag: etag, vary: response.headers["Vary"]) ?? response
    }

    /// A request that changes the session at `version` (tag `"<version>"`): 412 `version-mismatch`
    /// (thrown) when `If-Match` is false (strong comparison; it names the version the client last
    /// saw) or when `If-None-Match` is true (`*`, since the session exists, or a list naming the
    /// tag under weak comparison): §13.1.2 says an unsafe method then answers 412, not 304.
    static func write(ifMatch: String?, ifNoneMatch: String?, version: Int) throws(Problem) {
        let current = "\(version)"
        if let ifMatch {
            let tags = try parse(ifMatch, "If-Match")
            if !tags.matchesAny, !tags.strong.contains(current) { throw Problem.versionMismatch(expected: ifMatch, actual: version) }
        }
        if let ifNoneMatch {
            let tags = try parse(ifNoneMatch, "If-None-Match")
            if tags.matchesAny || tags.strong.contains(current) || tags.weak.contains(current) {
                throw Problem.preconditionFailed(
                    "If-None-Match \(ifNoneMatch) matches the session's version \"\(version)\": "
                        + "the request would change a representation the client says it does not have.")
            }
        }
    }

    /// ``write(ifMatch:ifNoneMatch:version:)`` with the request's fields.
    static func write(_ req: HTTPRequest, version: Int) throws(Problem) {
        try write(ifMatch: field(req, "If-Match"), ifNoneMatch: field(req, "If-None-Match"), version: version)
    }

    private static func parse(_ value: String, _ name: String) throws(Problem) -> EntityTags {
        guard let tags = EntityTags(ifMatch: value) else {
            throw Problem.invalidHeader(name, "\(name) is * or a list of entity tags such as \"3\"; got \(value).")
        }
        return tags
    }
}

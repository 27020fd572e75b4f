/// One complete HTTP request as the handler sees it.
public struct HTTPRequest: Sendable {
    /// The request method as sent, e.g. `"GET"` (RFC 9110 §9: case-sensitive, not normalised).
    public var method: String
    /// The path without the query, percent-decoded (`%2F` becomes `/`). A malformed escape is
    /// kept as written; bytes that are not UTF-8 become U+FFFD.
    public var path: String
    /// Query parameters, percent-decoded, `+` read as a space; for a repeated name the last wins.
    /// A name without `=` maps to `""`.
    public var query: [String: String]
    /// Request header fields; look up with any case.
    public var headers: HTTPHeaders
    /// The whole body (already de-chunked), or empty.
    public var body: [UInt8]
    /// `true` when the body exceeded `HTTPServerConfiguration.maxBodyBytes`; `body` is then empty.
    /// Answer 413 (RFC 9110 §15.5.14). When it was known from `Content-Length`, the handler runs
    /// before the body is read and the connection closes after the reply.
    public var bodyTooLarge: Bool

    public init(method: String, path: String, query: [String: String] = [:],
                headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], bodyTooLarge: Bool = false) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.bodyTooLarge = bodyTooLarge
    }
}

/// The handler's answer.
///
/// libmicrohttpd adds `Date` and `Content-Length` itself, and refuses a handler-supplied
/// `Content-Length`. A `Connection: close` header closes the connection after this reply.
public struct HTTPResponse: Sendable {
    /// Status code, 200...999 (libmicrohttpd refuses others as a final response); anything else
    /// is sent as 500.
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Turns a request into a response. Called on one of libmicrohttpd's pool threads, so it must
/// be thread-safe and synchronous; while it blocks, the other connections of that thread wait.
/// It must not call `HTTPServer.stop` (stop joins the thread the handler runs on).
public typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// One complete HTTP request as the handler sees it.
public struct HTTPRequest: Sendable {
    /// The request method as sent, e.g. `"GET"` (RFC 9110 §9: case-sensitive, not normalised).
    public var method: String
    /// The path without the query, exactly as sent: escapes are kept, so `%2F` is still `%2F`.
    /// Route on ``pathSegments``; use this raw form in logs and messages.
    public var path: String
    /// Query parameters, percent-decoded, `+` read as a space; for a repeated name the last wins
    /// (and the name is in ``repeatedQueryNames``). A name without `=` maps to `""`.
    public var query: [String: String]
    /// The decoded names given more than once in the query, in first-repeat order: a handler
    /// refuses these for a single-valued parameter instead of taking the last.
    public var repeatedQueryNames: [String]
    /// The first malformed escape of the query (RFC 3986 §2.1, ``malformedPercentEscape(in:)``)
    /// as written, or nil. The server delivers such a request with the escape kept as written in
    /// ``query`` (and in ``path``, where `malformedPercentEscape(in: path)` finds it): the handler
    /// decides, e.g. 400 (RFC 9112 §3.2: the target is not a valid URI).
    public var malformedQueryEscape: String?
    /// Request header fields; look up with any case.
    public var headers: HTTPHeaders
    /// The whole body (already de-chunked), or empty.
    public var body: [UInt8]
    /// `true` when the body exceeded the limit for its media type (``bodyLimit``); `body` is then
    /// empty. Answer 413 (RFC 9110 §15.5.14); the server closes the connection after the reply.
    public var bodyTooLarge: Bool
    /// The largest body in bytes the server accepts for this request's media type
    /// (``HTTPServerConfiguration/maxBodyBytes(for:)``); name it in a 413.
    public var bodyLimit: Int
    /// The query as the request line carried it, without the `?`: its parameters in order with
    /// their escapes kept (a `+` as sent), empty when there is none. For logs; read parameters
    /// from ``query``.
    public var rawQuery: String
    /// The address of the connection's peer as text (`127.0.0.1`, `::1`), or nil when unknown:
    /// the client, or the proxy in front of it (``TrustedProxies`` tells which).
    public var peerAddress: String?

    public init(
        method: String, path: String, query: [String: String] = [:], repeatedQueryNames: [String] = [],
        malformedQueryEscape: String? = nil,
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], bodyTooLarge: Bool = false,
        bodyLimit: Int = HTTPServerConfiguration.defaultMaxBodyBytes,
        rawQuery: String = "", peerAddress: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.repeatedQueryNames = repeatedQueryNames
        self.malformedQueryEscape = malformedQueryEscape
        self.headers = headers
        self.body = body
        self.bodyTooLarge = bodyTooLarge
        self.bodyLimit = bodyLimit
        self.rawQuery = rawQuery
        self.peerAddress = peerAddress
    }

    /// The path split on `/` first, then each segment percent-decoded (RFC 3986 §2.4), so
    /// `/v1/x/a%2Fb` is `["v1", "x", "a/b"]`. Empty segments are left out (`//a/` is `["a"]`).
    /// A malformed escape stays as written; bytes that are not UTF-8 become U+FFFD.
    public var pathSegments: [String] {
        var path = path
        return path.withUTF8 { bytes in
            // One pass over the bytes, one array (a request path has few segments).
            var segments: [String] = []
            segments.reserveCapacity(6)
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "/") {
                if end > start { segments.append(percentDecoded(UnsafeBufferPointer(rebasing: bytes[start..<end]))) }
                start = end + 1
            }
            return segments
        }
    }

    /// The media type of the body: `Content-Type` without parameters, trimmed and lower-cased
    /// (RFC 9110 §8.3.1: `Application/JSON; charset=utf-8` is `application/json`); `nil` when absent.
    public var mediaType: String? { headers["content-type"].map(HTTPHeaders.mediaType) }
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
    /// Set: the reply comes later, through this (``DeferredResponse``); the other fields are
    /// not sent, and the connection is suspended until it completes.
    public var deferred: DeferredResponse?

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A reply that ``DeferredResponse/complete(_:)`` delivers later.
    public init(deferred: DeferredResponse) {
        self.init(status: 202)
        self.deferred = deferred
    }
}

/// Looks at a request whose head has arrived, before its body is read (`body` is empty,
/// `bodyTooLarge` false). Return a response to refuse the request (e.g. 401): the server then
/// reads and discards the body, within ``HTTPServerConfiguration/maxDiscardBytes``, and sends it;
/// return `nil` to let the request go on to the ``HTTPHandler``. Same threading rules as the handler.
public typealias HTTPScreen = @Sendable (HTTPRequest) -> HTTPResponse?

/// Sees each reply the server makes itself before any handler or screen runs (a framing refusal:
/// RFC 9112 §6.1, §6.3, §3.2, or a transfer coding it does not know), with the request's head
/// (`body` empty), and returns the reply to send, e.g. with a request id added after logging it.
/// The status and body are the server's; only headers should change. Same threading rules as
/// the handler.
public typealias HTTPRefusalHook = @Sendable (HTTPRequest, HTTPResponse) -> HTTPResponse

/// Turns a request into a response. Called on one of libmicrohttpd's pool threads, so it must
/// be thread-safe and synchronous; while it blocks, the other connections of that thread wait.
/// A reply that must wait for something (a durable commit) is returned as
/// ``HTTPResponse/init(deferred:)`` instead of blocking.
/// It must not call `HTTPServer.stop` (stop joins the thread the handler runs on).
public typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

import Glibc
import Synchronization
import Testing
@testable import HTTPServer

/// How many requests reached a handler.
private final class Calls: Sendable {
    let count = Atomic<Int>(0)
    var handled: Int { count.load(ordering: .relaxed) }
}

/// A server on an ephemeral port whose handler counts its calls and echoes path, Host, `q` and body.
private func echoServer(_ handled: Calls) throws -> HTTPServer {
    try HTTPServer(configuration: HTTPServerConfiguration(port: 0, threadPoolSize: 2)) { request in
        handled.count.add(1, ordering: .relaxed)
        return HTTPResponse(
            status: 200,
            headers: [
                "X-Path": request.path, "X-Host": request.headers["host"] ?? "-",
                "X-Query": request.query["q"] ?? "-",
                "X-Repeated": request.repeatedQueryNames.joined(separator: ","),
            ],
            body: request.body)
    }
}

/// Request framing and routing fields (RFC 9112 §6.3, §3.2, §3.2.2), on the wire.
extension HTTPServerTests {
    @Test(arguments: [("12", "2"), ("2", "12"), ("2, 12", nil), ("12", "x")] as [(String, String?)])
    func differingContentLengthsAre400AndCloseBeforeAnyHandler(first: String, second: String?) throws {
        let handled = Calls()
        let server = try echoServer(handled)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let lines = "Content-Length: \(first)\r\n" + (second.map { "Content-Length: \($0)\r\n" } ?? "")
        try client.send("POST /v1/sessions HTTP/1.1\r\nHost: x\r\n\(lines)Content-Type: application/json\r\n\r\n{\"id\":\"cl1\"}")
        let reply = try client.readResponse()
        #expect(reply.status == 400)
        #expect(try client.serverClosed())  // no second reply from the leftover bytes
        #expect(handled.handled == 0)
    }

    @Test func differingContentLengthsGetAProblemDetail() throws {
        let handled = Calls()
        let server = try echoServer(handled)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 12\r\n\r\n{\"id\":\"cl1\"}")
        let reply = try client.readResponse()
        #expect(reply.status == 400)
        #expect(reply.header("Content-Type") == "application/problem+json")
        #expect(reply.text.contains("Content-Length"))
    }

    /// Each refusal the server makes itself goes through the refusal hook with the request's
    /// head, and the hook's headers reach the wire (navsim adds `X-Request-Id` there).
    @Test func framingRefusalsGoThroughTheRefusalHook() throws {
        let handled = Calls()
        let seen = Mutex<[String]>([])
        let server = try HTTPServer(
            configuration: HTTPServerConfiguration(port: 0, threadPoolSize: 2),
            refusals: { request, reply in
                seen.withLock { $0.append("\(request.method) \(request.path) \(request.headers["x-tag"] ?? "-")") }
                var reply = reply
                reply.headers.add("X-Hooked", "\(reply.status)")
                return reply
            }
        ) { _ in
            handled.count.add(1, ordering: .relaxed)
            return HTTPResponse(status: 200)
        }
        defer { server.stop() }
        for (head, status) in [
            ("POST /cl HTTP/1.1\r\nHost: x\r\nX-Tag: a\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}", 400),
            ("POST /te HTTP/1.1\r\nHost: x\r\nX-Tag: b\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}", 400),
            ("GET /host HTTP/1.1\r\nX-Tag: c\r\n\r\n", 400),
            ("POST /gzip HTTP/1.1\r\nHost: x\r\nX-Tag: d\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ] {
            let client = try RawClient(port: server.port)
            try client.send(head)
            let reply = try client.readResponse()
            #expect(reply.status == status && reply.header("X-Hooked") == "\(status)", "\(head)")
            #expect(reply.header("Content-Type") == "application/problem+json")
        }
        #expect(seen.withLock { $0 } == ["POST /cl a", "POST /te b", "GET /host c", "POST /gzip d"])
        #expect(try RawClient(port: server.port).request("GET", "/fine").header("X-Hooked") == nil, "handler replies do not pass the hook")
        #expect(handled.handled == 1)
    }

    @Test func repeatedIdenticalContentLengthsFrameTheBody() throws {
        let handled = Calls()
        let server = try echoServer(handled)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\ncontent-length: 2\r\n\r\n{}")
        let reply = try client.readResponse()
        #expect(reply.status == 200)
        #expect(reply.text == "{}")
        #expect(try client.request("GET", "/after").header("X-Path") == "/after")  // connection kept
    }

    @Test func contentLengthListsAgreeOrConflict() {
        #expect(!HeadFields(pairs: [("Content-Length", "7"), ("CONTENT-LENGTH", "7")]).contentLengthConflict)
        #expect(HeadFields(pairs: [("Content-Length", "7, 7")]).contentLength == 7)
        #expect(HeadFields(pairs: [("Content-Length", "7, 8")]).contentLengthConflict)
        #expect(HeadFields(pairs: [("Content-Length", "7"), ("Content-Length", "8")]).contentLengthConflict)
        #expect(HeadFields(pairs: [("Content-Length", "")]).contentLengthConflict)
        #expect(HeadFields(pairs: [("Content-Length", "-1")]).contentLengthConflict)
        #expect(HeadFields(pairs: [("Host", "a"), ("host", "b")]).hostLines == 2)
    }

    @Test func http11WithoutHostOrWithTwoIs400AndHttp10WithoutHostIsServed() throws {
        let handled = Calls()
        let server = try echoServer(handled)
        defer { server.stop() }
        for head in [
            "GET /healthz HTTP/1.1\r\n\r\n", "GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
            "GET /healthz HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n",
        ] {
            let client = try RawClient(port: server.port)
            try client.send(head)
            let reply = try client.readResponse()
            #expect(reply.status == 400, "\(head)")
            #expect(reply.text.contains("Host"), "\(head)")
        }
        #expect(handled.handled == 0)
        let old = try RawClient(port: server.port)
        try old.send("GET /healthz HTTP/1.0\r\n\r\n")
        let reply = try old.readResponse()
        #expect(reply.status == 200)
        #expect(reply.header("X-Path") == "/healthz")
        #expect(handled.handled == 1)
    }

    @Test func anAbsoluteFormTargetRoutesByItsPathAndItsAuthorityIsTheHost() throws {
        let handled = Calls()
        let server = try echoServer(handled)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let authority = "127.0.0.1:\(server.port)"
        try client.send("GET http://\(authority)/healthz?q=1 HTTP/1.1\r\nHost: other\r\n\r\n")
        let reply = try client.readResponse()
        #expect(reply.status == 200)
        #expect(reply.header("X-Path") == "/healthz")
        #expect(reply.header("X-Host") == authority)
        #expect(reply.header("X-Query") == "1")
        try client.send("GET HTTP://\(authority) HTTP/1.1\r\nHost: other\r\n\r\n")
        #expect(try client.readResponse().header("X-Path") == "/")
    }

    @Test func absoluteFormSplitsAuthorityAndPath() {
        #expect(absoluteFormTarget("/v1/sessions") == nil)
        #expect(absoluteFormTarget("*") == nil)
        #expect(absoluteFormTarget("http://h:1/a/b").map { [$0.authority, $0.path] } == ["h:1", "/a/b"])
        #expect(absoluteFormTarget("HTTPS://h").map { [$0.authority, $0.path] } == ["h", "/"])
        #expect(absoluteFormTarget("httpx://h/a") == nil)
    }

    @Test func repeatedQueryNamesAreReported() throws {
        let handled = Calls()
        let server = try echoServer(handled)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let reply = try client.request("GET", "/x?q=1&b=2&q=3&%62=4&c")
        #expect(reply.header("X-Query") == "3")  // the last still wins in `query`
        #expect(reply.header("X-Repeated") == "q,b")  // names compare decoded
        #expect((try client.request("GET", "/x?q=1&b=2").header("X-Repeated") ?? "").isEmpty)
    }
}

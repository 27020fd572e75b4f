import Foundation
import Glibc
import Synchronization
import Testing
@testable import HTTPServer

private func text(_ s: String) -> [UInt8] { Array(s.utf8) }

/// Late connections the server has counted, once it counts at least one (30 s at most): the
/// reaper shuts a late socket down and adds to its count a moment later, on its own thread, so
/// a client can see the close before the count moves.
private func closedLate(_ server: HTTPServer) -> Int {
    let deadline = ContinuousClock.now + .seconds(30)
    while server.connectionsClosedLate == 0, ContinuousClock.now < deadline { usleep(1_000) }
    return server.connectionsClosedLate
}

/// A server on an ephemeral port with `configure` applied to a small test configuration.
private func serve(
    _ configure: (inout HTTPServerConfiguration) -> Void = { _ in },
    screen: HTTPScreen? = nil, _ handler: @escaping HTTPHandler
) throws -> HTTPServer {
    var configuration = HTTPServerConfiguration(port: 0, threadPoolSize: 2)
    configure(&configuration)
    return try HTTPServer(configuration: configuration, screen: screen, handler: handler)
}

/// Slow clients, strict framing, per-type body limits and screening. In the same (serialized)
/// suite as the rest, because the request-state leak counter is process-wide.
extension HTTPServerTests {
    // MARK: Body limits per media type

    @Test func bodyLimitsFollowTheMediaType() throws {
        let server = try serve({
            $0.maxBodyBytes = 1_000; $0.maxBodyBytesByMediaType = ["application/xml": 4_000]
        }) { request in
            HTTPResponse(status: request.bodyTooLarge ? 413 : 200, body: text("\(request.bodyLimit)"))
        }
        defer { server.stop() }
        let body = [UInt8](repeating: 0x3C, count: 3_000)
        let xml = try RawClient(port: server.port).request("PUT", "/x", headers: [("Content-Type", "Application/XML; charset=utf-8")], body: body)
        #expect(xml.status == 200)
        #expect(xml.text == "4000")
        let json = try RawClient(port: server.port).request("PUT", "/x", headers: [("Content-Type", "application/json")], body: body)
        #expect(json.status == 413)
        #expect(json.text == "1000")
        let untyped = try RawClient(port: server.port).request("PUT", "/x", body: body)
        #expect(untyped.status == 413)
    }

    @Test func configurationMapsContentTypesToLimits() {
        let c = HTTPServerConfiguration(maxBodyBytes: 10, maxBodyBytesByMediaType: ["text/xml": 20])
        #expect(c.maxBodyBytes(for: nil) == 10)
        #expect(c.maxBodyBytes(for: "application/json") == 10)
        #expect(c.maxBodyBytes(for: " Text/XML ;charset=UTF-8") == 20)
        #expect(HTTPHeaders.mediaType("application/problem+json; q=1") == "application/problem+json")
    }

    /// The byte-level reading of a media type (ASCII) agrees with the Character-level one it
    /// replaced, which non-ASCII text still takes.
    @Test(arguments: [
        ("application/json", "application/json"), (" \tApplication/JSON\t ; charset=utf-8", "application/json"),
        ("TEXT/XML;", "text/xml"), (";charset=utf-8", ""), ("", ""), ("   ", ""), ("a; b; c", "a"),
        ("Text/Ä-Type ; x", "text/ä-type"),
    ])
    func mediaTypeIsTheEssenceLowerCased(value: String, expected: String) {
        #expect(HTTPHeaders.mediaType(value) == expected)
    }

    // MARK: Framing (RFC 9112 §6.1)

    @Test func chunkedWithContentLengthIs400AndCloses() throws {
        let handled = Atomic<Int>(0)
        let server = try serve { _ in
            handled.add(1, ordering: .relaxed); return HTTPResponse(status: 200)
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
        let reply = try client.readResponse()
        #expect(reply.status == 400)
        #expect(reply.header("Content-Type") == "application/problem+json")
        #expect(reply.text.contains("Content-Length"))
        #expect(try client.serverClosed())

        let other = try RawClient(port: server.port)
        try other.send("POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n")
        #expect(try other.readResponse().status == 501)
        #expect(handled.load(ordering: .relaxed) == 0)
    }

    // MARK: Screening

    @Test func aScreenedRequestHasItsBodyDiscardedAndKeepsTheConnection() throws {
        let handled = Atomic<Int>(0)
        let server = try serve(screen: { request in
            request.headers["x-deny"] != nil ? HTTPResponse(status: 401, body: text("no")) : nil
        }) { request in
            handled.add(1, ordering: .relaxed)
            return HTTPResponse(status: 200, body: request.body)
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let refused = try client.request("PUT", "/x", headers: [("X-Deny", "1")], body: [UInt8](repeating: 0x61, count: 200_000))
        #expect(refused.status == 401)
        #expect(refused.text == "no")
        let fine = try client.request("PUT", "/x", body: text("ok"))  // same connection
        #expect(fine.status == 200)
        #expect(fine.text == "ok")
        #expect(handled.load(ordering: .relaxed) == 1)

        // A client that waits for 100 Continue gets the refusal instead, and never sends the body.
        let waiting = try RawClient(port: server.port)
        try waiting.send("PUT /x HTTP/1.1\r\nHost: x\r\nX-Deny: 1\r\nExpect: 100-continue\r\nContent-Length: 9\r\n\r\n")
        #expect(try waiting.readResponse().status == 401)
        #expect(handled.load(ordering: .relaxed) == 1)
    }

    // MARK: Slow and idle clients

    /// A client that keeps sending header bytes, slowly, is cut at the header deadline even
    /// though every byte restarts libmicrohttpd's own idle timeout.
    @Test func aSlowHeaderIsCutAtTheDeadline() throws {
        let server = try serve({
            $0.headerTimeoutSeconds = 1; $0.connectionTimeoutSeconds = 30
        }) { _ in HTTPResponse(status: 200) }
        defer { server.stop() }
        let slow = try RawClient(port: server.port)
        var sendFailed = false
        for byte in text("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ") + [UInt8](repeating: 0x61, count: 40) {
            if (try? slow.send([byte])) == nil { sendFailed = true; break }
            usleep(100_000)  // 10 bytes a second: ~6 s in all, well past the 1 s deadline
        }
        #expect(try sendFailed || slow.serverClosed())
        #expect(closedLate(server) >= 1)

        // A prompt client is not affected.
        #expect(try RawClient(port: server.port).request("GET", "/").status == 200)
    }

    /// The whole request has a deadline too: a body that trickles in is cut.
    @Test func aSlowBodyIsCutAtTheRequestDeadline() throws {
        let handled = Atomic<Int>(0)
        let server = try serve({
            $0.headerTimeoutSeconds = 0; $0.requestTimeoutSeconds = 1
        }) { _ in
            handled.add(1, ordering: .relaxed)
            return HTTPResponse(status: 200)
        }
        defer { server.stop() }
        let slow = try RawClient(port: server.port)
        try slow.send("PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: 60\r\n\r\n")
        var sendFailed = false
        for _ in 0..<60 {
            if (try? slow.send([0x61])) == nil { sendFailed = true; break }
            usleep(100_000)
        }
        #expect(try sendFailed || slow.serverClosed())
        #expect(closedLate(server) >= 1)
        #expect(handled.load(ordering: .relaxed) == 0)
    }

    /// A chunked body past the discard bound cannot be answered (libmicrohttpd refuses replies
    /// mid-body), so the connection is dropped rather than read forever.
    @Test func aChunkedBodyPastTheDiscardBoundDropsTheConnection() throws {
        let server = try serve({
            $0.maxBodyBytes = 1_000; $0.maxDiscardBytes = 10_000
        }) { _ in HTTPResponse(status: 200) }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        var wire = text("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        for _ in 0..<100 { wire += text("3e8\r\n") + [UInt8](repeating: 0x61, count: 1_000) + text("\r\n") }
        try? client.send(wire + text("0\r\n\r\n"))
        #expect((try? client.readResponse()) == nil)
        #expect(try RawClient(port: server.port).request("GET", "/").status == 200)
    }

    @Test func connectionsOverThePerAddressLimitAreClosed() throws {
        let server = try serve({ $0.perIPConnectionLimit = 2 }) { _ in HTTPResponse(status: 200) }
        defer { server.stop() }
        let first = try RawClient(port: server.port), second = try RawClient(port: server.port)
        #expect(try first.request("GET", "/").status == 200)
        #expect(try second.request("GET", "/").status == 200)
        let third = try RawClient(port: server.port)  // the kernel accepts; libmicrohttpd closes it
        try? third.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try third.serverClosed())
        #expect(try first.request("GET", "/").status == 200)
    }

    @Test func theConnectionLimitStaysBelowTheFileDescriptorLimit() throws {
        let soft = FileDescriptors.softLimit
        #expect(FileDescriptors.connectionLimit(.max) <= soft - FileDescriptors.reserve)
        #expect(FileDescriptors.connectionLimit(10) == 10)
        let server = try serve({ $0.connectionLimit = .max }) { _ in HTTPResponse(status: 200) }
        defer { server.stop() }
        #expect(server.connectionLimit < soft)
    }

    // MARK: Paths

    @Test func pathsSplitBeforeTheyAreDecoded() {
        #expect(HTTPRequest(method: "GET", path: "/v1/s/controllers/a%2Fb").pathSegments == ["v1", "s", "controllers", "a/b"])
        #expect(HTTPRequest(method: "GET", path: "//a//b/").pathSegments == ["a", "b"])
        #expect(HTTPRequest(method: "GET", path: "/%2F").pathSegments == ["/"])
        #expect(HTTPRequest(method: "GET", path: "/").pathSegments == [])
    }

    /// RFC 3986 §2.1: `%` begins two hex digits; the first that does not is found as written.
    @Test(
        arguments: [
            ("/v1/sessions/%zz", "%zz"), ("/v1/sessions/s1%zz", "%zz"), ("/a%4", "%4"), ("/a%", "%"),
            ("/a%4g/%zz", "%4g"), ("/%41%2f%C3%A9/%e2%82", nil), ("/no/escape", nil), ("", nil),
        ] as [(String, String?)])
    func malformedEscapesAreFound(text: String, escape: String?) {
        #expect(malformedPercentEscape(in: text) == escape)
    }

    /// The server delivers a query with a malformed escape as written and says which it was.
    @Test func aMalformedQueryEscapeIsReported() throws {
        let seen = Mutex<HTTPRequest?>(nil)
        let server = try serve({ _ in }) { request in
            seen.withLock { $0 = request }
            return HTTPResponse(status: 200)
        }
        defer { server.stop() }
        #expect(try RawClient(port: server.port).request("GET", "/a%zz?x=1&q=%4g%41").status == 200)
        let bad = try #require(seen.withLock { $0 })
        #expect(bad.malformedQueryEscape == "%4g")
        #expect(bad.query == ["x": "1", "q": "%4gA"])
        #expect(bad.pathSegments == ["a%zz"])
        #expect(try RawClient(port: server.port).request("GET", "/a?q=%41%2B").status == 200)
        #expect(seen.withLock { $0 }?.malformedQueryEscape == nil)
    }
}

@Suite("If-Match syntax (RFC 9110 §8.8.3)")
struct EntityTagTests {
    @Test func wellFormedValues() throws {
        #expect(EntityTags(ifMatch: "*")?.matchesAny == true)
        #expect(EntityTags(ifMatch: " * ")?.matchesAny == true)
        #expect(EntityTags(ifMatch: #""3""#)?.strong == ["3"])
        let list = try #require(EntityTags(ifMatch: #""1", W/"2" ,, "x!#""#))
        #expect(list.strong == ["1", "x!#"])
        #expect(list.weak == ["2"])
        #expect(EntityTags(ifMatch: #""""#)?.strong == [""])
    }

    @Test func malformedValues() {
        for bad in ["", " ", "3", #""3"#, #"W/3"#, #""1" "2""#, ",", "*, \"1\"", #""a b""#, #"w/"1""#, "**"] {
            #expect(EntityTags(ifMatch: bad) == nil, "\(bad)")
        }
    }
}

@Suite("Bearer tokens (RFC 6750)")
struct BearerTokenTests {
    @Test func verdicts() {
        let tokens = BearerTokens(["s3cret", " other "])
        #expect(tokens.count == 2)
        #expect(tokens.verdict(authorization: ["Bearer s3cret"]) == .accepted)
        #expect(tokens.verdict(authorization: ["bearer other"]) == .accepted)
        #expect(tokens.verdict(authorization: ["Bearer s3cre"]) == .invalid)
        #expect(tokens.verdict(authorization: ["Bearer s3cret!"]) == .invalid)
        #expect(tokens.verdict(authorization: ["Bearer "]) == .missing)
        #expect(tokens.verdict(authorization: ["Basic czNjcmV0"]) == .missing)
        #expect(tokens.verdict(authorization: []) == .missing)
        #expect(!tokens.description.contains("s3cret"))
        #expect(BearerTokens(["", "  "]).isEmpty)
    }

    @Test func tokenFiles() {
        let text = "# deploy tokens\n\nalpha\r\n  beta  \n#gamma\n"
        #expect(BearerTokens.tokens(inFile: text) == ["alpha", "beta"])
    }
}

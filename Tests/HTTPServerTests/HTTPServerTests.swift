import Foundation
import Glibc
import Synchronization
import Testing
@testable import HTTPServer

/// Runs `body(i)` on `count` real threads (handlers and clients block, so not on the
/// cooperative pool) and waits for all of them.
private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let done = DispatchSemaphore(value: 0)
    for i in 0..<count {
        Thread.detachNewThread {
            body(i)
            done.signal()
        }
    }
    for _ in 0..<count { done.wait() }
}

private func text(_ s: String) -> [UInt8] { Array(s.utf8) }

private func startServer(
    maxBodyBytes: Int = 1 << 20, threads: Int = 4,
    _ handler: @escaping HTTPHandler
) throws -> HTTPServer {
    try HTTPServer(
        configuration: HTTPServerConfiguration(
            port: 0, threadPoolSize: threads,
            maxBodyBytes: maxBodyBytes),
        handler: handler)
}

/// Serialized: the machine has 2 cores, and every case starts a server and clients of its own.
@Suite(.serialized)
struct HTTPServerTests {
    @Test func getReturnsHandlerReplyAndKeepsConnectionAlive() throws {
        let server = try startServer { request in
            HTTPResponse(
                status: 201, headers: ["X-Method": request.method, "Content-Type": "text/plain"],
                body: text("hello \(request.path)"))
        }
        defer { server.stop() }
        #expect(server.port != 0)

        let client = try RawClient(port: server.port)
        let first = try client.request("GET", "/one")
        #expect(first.status == 201)
        #expect(first.text == "hello /one")
        #expect(first.header("x-method") == "GET")
        #expect(first.header("Content-Type") == "text/plain")
        #expect(first.header("Connection")?.lowercased() != "close")

        let second = try client.request("GET", "/two")  // same socket: keep-alive held
        #expect(second.status == 201)
        #expect(second.text == "hello /two")
    }

    /// The default connection memory (16 KiB, ``HTTPServerConfiguration/connectionMemoryLimit``)
    /// bounds the header section: a 12,000-byte field is served on a kept-alive connection, a
    /// 20,000-byte one is 431 from libmicrohttpd, and the server goes on serving.
    @Test func defaultConnectionMemoryBoundsTheHeaderSection() throws {
        #expect(HTTPServerConfiguration().connectionMemoryLimit == 16 * 1024)
        let server = try startServer { request in
            HTTPResponse(
                status: 200, headers: ["Content-Type": "text/plain"],
                body: text("\(request.headers["x-big"]?.utf8.count ?? -1)"))
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let fits = try client.request("GET", "/a", headers: [("X-Big", String(repeating: "a", count: 12_000))])
        #expect(fits.status == 200)
        #expect(fits.text == "12000")
        #expect(try client.request("GET", "/b").status == 200)  // same connection, kept alive

        let tooBig = try RawClient(port: server.port)
        let refused = try tooBig.request("GET", "/c", headers: [("X-Big", String(repeating: "a", count: 20_000))])
        #expect(refused.status == 431)
        #expect(try RawClient(port: server.port).request("GET", "/d").status == 200)
    }

    @Test func emptyBodyAndOddStatusDoNotBreakTheServer() throws {
        let server = try startServer { request in
            HTTPResponse(status: request.path == "/odd" ? 42 : 204)
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        #expect(try client.request("GET", "/empty").status == 204)
        #expect(try client.request("GET", "/odd").status == 500)
    }

    @Test func headersLibmicrohttpdOwnsOrRefusesCannotCorruptTheReply() throws {
        let server = try startServer { request in
            var headers: HTTPHeaders = ["Content-Length": "999", "X-Split": "a\r\nX-Injected: 1", "X-Fine": "ok"]
            if request.path == "/close" { headers["Connection"] = "close" }
            return HTTPResponse(status: 200, headers: headers, body: text("body"))
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let reply = try client.request("GET", "/")
        #expect(reply.text == "body")
        #expect(reply.header("Content-Length") == "4")
        #expect(reply.header("X-Injected") == nil)
        #expect(reply.header("X-Fine") == "ok")
        #expect(try client.request("GET", "/close").text == "body")
        #expect(try client.serverClosed())
    }

    @Test func postBodyArrivesWholeAndQueryAndPathAreDecoded() throws {
        let seen = Mutex<HTTPRequest?>(nil)
        let server = try startServer { request in
            seen.withLock { $0 = request }
            return HTTPResponse(status: 200, body: request.body)
        }
        defer { server.stop() }

        let body = (0..<(200 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let client = try RawClient(port: server.port)
        try client.send(
            "POST /caf%C3%A9/a%2Fb/%zz%4?name=J%C3%BCrgen+M&x=1&x=2&flag&empty=&sp%20ace=%2B HTTP/1.1\r\n"
                + "Host: x\r\nX-Custom-Field: Value\r\nContent-Length: \(body.count)\r\n\r\n")
        var offset = 0
        while offset < body.count {  // pieces, with pauses, so MHD sees several chunks
            let end = min(offset + 9_000, body.count)
            try client.send(Array(body[offset..<end]))
            offset = end
            if offset % 45_000 == 0 { usleep(1_000) }
        }
        let reply = try client.readResponse()
        #expect(reply.status == 200)
        #expect(reply.body == body)

        let request = try #require(seen.withLock { $0 })
        #expect(request.method == "POST")
        #expect(request.path == "/caf%C3%A9/a%2Fb/%zz%4")  // as sent: split first, decode after
        #expect(request.pathSegments == ["café", "a/b", "%zz%4"])
        #expect(request.query == ["name": "Jürgen M", "x": "2", "flag": "", "empty": "", "sp ace": "+"])
        #expect(request.headers["x-custom-field"] == "Value")
        #expect(request.headers["CONTENT-LENGTH"] == "\(body.count)")
        #expect(!request.bodyTooLarge)
    }

    @Test func oddBytesInTheTargetAreDecodedWithoutTrapping() throws {
        let seen = Mutex<HTTPRequest?>(nil)
        let server = try startServer { request in
            seen.withLock { $0 = request }
            return HTTPResponse(status: 200)
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send(
            [UInt8]("GET /a%FF%00b".utf8) + [0xC3, 0x28] + [UInt8]("?k=%E2%82 HTTP/1.1\r\nHost: x\r\nX-Bin: ".utf8)
                + [0xFF, 0xFE] + [UInt8]("\r\n\r\n".utf8))
        let reply = try client.readResponse()
        #expect(reply.status == 200)
        let request = try #require(seen.withLock { $0 })
        #expect(request.path == "/a%FF%00b\u{FFFD}(")
        #expect(request.pathSegments == ["a\u{FFFD}\u{0}b\u{FFFD}("])
        #expect(request.query == ["k": "\u{FFFD}"])
        #expect(request.headers["x-bin"] == "\u{FFFD}\u{FFFD}")
    }

    /// Answering before the body is read would leave a client that is still sending with a
    /// reset instead of the 413 (Python's http.client does that): the body is read and dropped.
    @Test func announcedBodyOverTheLimitIsDrainedThenRejectedAndTheConnectionCloses() throws {
        let seen = Mutex<HTTPRequest?>(nil)
        let server = try startServer(maxBodyBytes: 1_000) { request in
            seen.withLock { $0 = request }
            return HTTPResponse(status: request.bodyTooLarge ? 413 : 200)
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let reply = try client.request("POST", "/upload", body: [UInt8](repeating: 0x41, count: 300_000))
        #expect(reply.status == 413)
        #expect(reply.header("Connection")?.lowercased() == "close")
        #expect(try client.serverClosed())
        let request = try #require(seen.withLock { $0 })
        #expect(request.bodyTooLarge)
        #expect(request.bodyLimit == 1_000)
        #expect(request.body.isEmpty)
    }

    /// Past the discard bound the reply goes out at once, before any body byte.
    @Test func announcedBodyBeyondTheDiscardBoundIsRejectedBeforeItIsRead() throws {
        let server = try HTTPServer(
            configuration: HTTPServerConfiguration(
                port: 0, threadPoolSize: 2, maxBodyBytes: 1_000,
                maxDiscardBytes: 4_000)
        ) { request in
            HTTPResponse(status: request.bodyTooLarge ? 413 : 200)
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")  // body never sent
        #expect(try client.readResponse().status == 413)
        #expect(try client.serverClosed())
    }

    @Test func chunkedBodyOverTheLimitIsDrainedThenRejected() throws {
        let seen = Mutex<HTTPRequest?>(nil)
        let server = try startServer(maxBodyBytes: 1_000) { request in
            seen.withLock { $0 = request }
            return HTTPResponse(status: request.bodyTooLarge ? 413 : 200, body: text("\(request.body.count)"))
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        func chunked(_ total: Int) -> [UInt8] {
            var wire = text("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            for _ in 0..<(total / 250) { wire += text("fa\r\n") + [UInt8](repeating: 0x61, count: 250) + text("\r\n") }
            return wire + text("0\r\n\r\n")
        }
        try client.send(chunked(3_000))
        #expect(try client.readResponse().status == 413)
        #expect(try #require(seen.withLock { $0 }).bodyTooLarge)

        let fresh = try RawClient(port: server.port)
        try fresh.send(chunked(1_000))  // exactly the limit, chunked
        let reply = try fresh.readResponse()
        #expect(reply.status == 200)
        #expect(reply.text == "1000")
    }

    @Test func bodyOfExactlyTheLimitIsAccepted() throws {
        let server = try startServer(maxBodyBytes: 1_000) { request in
            HTTPResponse(status: request.bodyTooLarge ? 413 : 200, body: request.body)
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let body = [UInt8](repeating: 0x7A, count: 1_000)
        let reply = try client.request("PUT", "/x", body: body)
        #expect(reply.status == 200)
        #expect(reply.body == body)
        #expect(try client.request("PUT", "/x", body: body + [1]).status == 413)
    }

    @Test func expectContinueGetsInterimReplyOnlyWhenTheBodyFits() throws {
        let server = try startServer(maxBodyBytes: 1_000) { request in
            HTTPResponse(status: request.bodyTooLarge ? 413 : 200, body: request.body)
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("POST /e HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        #expect(try client.readResponse().status == 100)  // curl waits for this before sending
        try client.send("hello")
        let reply = try client.readResponse()
        #expect(reply.status == 200)
        #expect(reply.text == "hello")

        let big = try RawClient(port: server.port)
        try big.send("POST /e HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 1001\r\n\r\n")
        #expect(try big.readResponse().status == 413)  // no 100 Continue: the body is never sent
    }

    @Test func bindingAPortInUseThrows() throws {
        let first = try startServer { _ in HTTPResponse(status: 200) }
        defer { first.stop() }
        let error = #expect(throws: HTTPServerError.self) {
            try HTTPServer(configuration: HTTPServerConfiguration(port: first.port)) { _ in HTTPResponse(status: 200) }
        }
        #expect(error?.kind == .startFailed)
        #expect(error?.message.contains("\(first.port)") == true)
        #expect(error?.message.contains("in use") == true)
    }

    @Test(arguments: ["localhost", "::1", "127.0.0.256", ""])
    func nonIPv4HostIsRejected(host: String) {
        let error = #expect(throws: HTTPServerError.self) {
            try HTTPServer(configuration: HTTPServerConfiguration(host: host, port: 0)) { _ in HTTPResponse(status: 200) }
        }
        #expect(error?.kind == .invalidConfiguration)
    }

    /// The server listens on 127.0.77.1, an address of its own, not 127.0.0.1: once stopped,
    /// its port is free, and another test's server (or a navsim the end-to-end tests start) may
    /// bind it on 127.0.0.1 at any moment; that one accepting is no sign of this one's listener.
    @Test func stopLetsTheInFlightRequestFinishThenRefusesConnections() throws {
        let host = "127.0.77.1"
        let entered = DispatchSemaphore(value: 0)
        let server = try HTTPServer(configuration: HTTPServerConfiguration(host: host, port: 0, threadPoolSize: 4)) { request in
            if request.path == "/slow" {
                entered.signal()
                usleep(300_000)
            }
            return HTTPResponse(status: 200, body: text("done \(request.path)"))
        }
        let port = server.port
        // An idle keep-alive connection holds up the drain for `idleGrace` at most (1 s by default).
        let idle = try RawClient(port: port, host: host)
        #expect(try idle.request("GET", "/warm").status == 200)

        let reply = Mutex<Result<RawResponse, ClientError>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result: Result<RawResponse, ClientError>
            do {
                result = .success(try RawClient(port: port, host: host).request("GET", "/slow"))
            } catch {
                result = .failure(ClientError("\(error)"))
            }
            reply.withLock { $0 = result }
            finished.signal()
        }
        #expect(entered.wait(timeout: .now() + 10) == .success)
        server.stop()
        #expect(finished.wait(timeout: .now() + 10) == .success)

        let response = try reply.withLock { try #require($0) }.get()
        #expect(response.status == 200)
        #expect(response.text == "done /slow")
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(RawClient.connectError(port: port, host: host) == ECONNREFUSED)
        #expect(try idle.serverClosed())
        server.stop()  // idempotent
        #expect(server.liveRequestStates == 0)
    }

    @Test func manyThreadsManyRequests() throws {
        let server = try startServer(threads: 8) { request in
            HTTPResponse(status: 200, body: request.body + text(request.path))
        }
        defer { server.stop() }
        let port = server.port
        let ok = Atomic<Int>(0)
        onThreads(8) { thread in
            var client: RawClient?
            for i in 0..<200 {
                do {
                    if i % 50 == 0 { client = try RawClient(port: port) }
                    let post = i % 2 == 0
                    let reply = try client!.request(
                        post ? "POST" : "GET", "/t\(thread)/r\(i)",
                        body: post ? text("b\(i)") : [])
                    if reply.status == 200, reply.text == (post ? "b\(i)" : "") + "/t\(thread)/r\(i)" {
                        ok.add(1, ordering: .relaxed)
                    }
                } catch {
                    client = nil
                }
            }
        }
        #expect(ok.load(ordering: .relaxed) == 8 * 200)
    }

    /// Reply bodies are sent from the reply's own bytes (lent, not copied): a body larger than
    /// the socket buffers, shared by every reply, arrives whole on every connection, and each
    /// lent body is given back once libmicrohttpd is done with it.
    @Test func lentReplyBodiesArriveWholeAndAreGivenBack() throws {
        let shared = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let server = try startServer(threads: 4) { _ in HTTPResponse(status: 200, body: shared) }
        let port = server.port
        let ok = Atomic<Int>(0)
        onThreads(4) { _ in
            guard let client = try? RawClient(port: port) else { return }
            for _ in 0..<10 {
                if let reply = try? client.request("GET", "/big"), reply.status == 200, reply.body == shared {
                    ok.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(ok.load(ordering: .relaxed) == 40)
        server.stop(drainTimeout: .milliseconds(200))
        #expect(server.lentResponseBodies == 0)
    }

    @Test func requestBodiesAreReleasedAfterEveryRequest() throws {
        let server = try startServer(maxBodyBytes: 100) { request in HTTPResponse(status: 200, body: request.body) }
        let client = try RawClient(port: server.port)
        #expect(try client.request("POST", "/a", body: text("abc")).text == "abc")
        // An aborted upload still reaches NOTIFY_COMPLETED.
        let aborted = try RawClient(port: server.port)
        try aborted.send("POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\nhalf")
        usleep(50_000)
        server.stop(drainTimeout: .milliseconds(100))
        #expect(server.liveRequestStates == 0)
    }

    @Test func headersLookUpCaseInsensitively() {
        var headers = HTTPHeaders([("Content-Type", "a"), ("X-Multi", "1")])
        headers.add("x-multi", "2")
        #expect(headers["content-type"] == "a")
        #expect(headers["CONTENT-TYPE"] == "a")
        #expect(headers["Content-Typ"] == nil)
        #expect(headers["x-MULTI"] == "1")
        #expect(headers.values(for: "X-MULTI") == ["1", "2"])
        headers["X-Multi"] = "3"
        #expect(headers.values(for: "x-multi") == ["3"])
        headers["content-type"] = nil
        #expect(headers.pairs.count == 1)
        #expect(HTTPHeaders([("[", "1")])["{"] == nil)  // '[' ^ '{' == 0x20 but they are not letters
    }
}

import Foundation
import Glibc
import Synchronization
import Testing
@testable import HTTPServer

/// A reply of the test's own for requests refused while stopping, told apart from any other 503.
private let stopping = HTTPResponse(
    status: 503, headers: ["Content-Type": "application/problem+json"],
    body: Array(#"{"type":"/test/stopping","status":503}"#.utf8))

/// Runs `body` on a thread of its own; the semaphore is signalled when it returns.
private func onThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        body()
        done.signal()
    }
    return done
}

/// The stop as a SIGTERM runs it: new connections refused at once, requests under way finished,
/// later requests on open connections answered 503, no client cut off.
///
/// Each server listens on a loopback address of its own (127.0.77.x), not 127.0.0.1: the port
/// a stopped server frees may be bound by any other test or process on the machine, and
/// 127.0.0.1:port would then accept again; only a listener on 127.0.77.x (or on every address)
/// can.
@Suite(.serialized)
struct StopTests {
    /// While a request is under way: a new connection is refused, a request on an idle
    /// keep-alive connection is answered the stopping reply with `Connection: close`, and the
    /// request under way gets its own reply.
    @Test func stopRefusesNewConnectionsAtOnceAndAnswersLaterRequestsWithTheStoppingReply() throws {
        let host = "127.0.77.2"
        let entered = DispatchSemaphore(value: 0)
        // A deferred reply, not a blocked handler: a handler that blocks holds its pool thread,
        // and with it every connection of that thread, the idle one too.
        let slowReply = DeferredResponse()
        let server = try HTTPServer(configuration: HTTPServerConfiguration(host: host, port: 0, threadPoolSize: 2)) { request in
            if request.path == "/slow" {
                entered.signal()
                return HTTPResponse(deferred: slowReply)
            }
            return HTTPResponse(status: 200, body: Array("done \(request.path)".utf8))
        }
        let port = server.port
        let idle = try RawClient(port: port, host: host)
        #expect(try idle.request("GET", "/warm").status == 200)

        let slow = Mutex<Result<RawResponse, ClientError>?>(nil)
        let slowDone = onThread {
            let result: Result<RawResponse, ClientError>
            do {
                result = .success(try RawClient(port: port, host: host).request("GET", "/slow"))
            } catch {
                result = .failure(ClientError("\(error)"))
            }
            slow.withLock { $0 = result }
        }
        #expect(entered.wait(timeout: .now() + 10) == .success)
        // Generous bounds, so that the stop ends only because every connection has closed.
        let stopped = onThread {
            server.stop(drainTimeout: .seconds(60), idleGrace: .seconds(60), stoppingReply: stopping)
        }

        #expect(RawClient.waitUntilRefused(port: port, host: host), "a new connection was accepted while stopping")
        let late = try idle.request("POST", "/late", body: Array("x".utf8))
        #expect(late.status == 503)
        #expect(late.text == #"{"type":"/test/stopping","status":503}"#)
        #expect(late.header("Connection")?.lowercased() == "close")
        #expect(try idle.serverClosed())

        slowReply.complete(HTTPResponse(status: 200, body: Array("done /slow".utf8)))
        #expect(slowDone.wait(timeout: .now() + 30) == .success)
        let reply = try slow.withLock { try #require($0) }.get()
        #expect(reply.status == 200)
        #expect(reply.text == "done /slow")
        #expect(reply.header("Connection")?.lowercased() == "close")
        #expect(stopped.wait(timeout: .now() + 30) == .success)
        #expect(server.liveRequestStates == 0)
    }

    /// A client whose connection the kernel completed while the server was busy, and which has
    /// sent its request, is answered (the stopping reply), not reset when the stop closes the
    /// listening socket. One pool thread, held by a request, so the second connection waits in
    /// the backlog when the stop begins.
    @Test func connectionsWaitingInTheBacklogAreAnsweredNotReset() throws {
        let host = "127.0.77.3"
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let server = try HTTPServer(configuration: HTTPServerConfiguration(host: host, port: 0, threadPoolSize: 1)) { request in
            if request.path == "/slow" {
                entered.signal()
                release.wait()
            }
            return HTTPResponse(status: 200, body: Array("done \(request.path)".utf8))
        }
        let port = server.port
        let slowStatus = Mutex<Int>(-1)
        let slowDone = onThread {
            let status = (try? RawClient(port: port, host: host).request("GET", "/slow").status) ?? -1
            slowStatus.withLock { $0 = status }
        }
        #expect(entered.wait(timeout: .now() + 10) == .success)
        let waiting = try RawClient(port: port, host: host)  // in the backlog: the only thread is busy
        try waiting.send("POST /queued HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nx")

        let stopped = onThread {
            server.stop(drainTimeout: .seconds(60), idleGrace: .seconds(60), stoppingReply: stopping)
        }
        #expect(RawClient.waitUntilRefused(port: port, host: host), "a new connection was accepted while stopping")
        release.signal()

        let reply = try waiting.readResponse()
        #expect(reply.status == 503)
        #expect(reply.text == #"{"type":"/test/stopping","status":503}"#)
        #expect(reply.header("Connection")?.lowercased() == "close")
        #expect(try waiting.serverClosed())
        #expect(slowDone.wait(timeout: .now() + 30) == .success)
        #expect(slowStatus.withLock { $0 } == 200)
        #expect(stopped.wait(timeout: .now() + 30) == .success)
        #expect(server.liveRequestStates == 0)
    }

    /// A keep-alive connection that sends nothing is closed once it has waited `idleGrace`
    /// (cleanly: end of stream), and the stop ends then, long before `drainTimeout`.
    @Test func anIdleConnectionIsClosedAfterTheIdleGrace() throws {
        let host = "127.0.77.4"
        let server = try HTTPServer(configuration: HTTPServerConfiguration(host: host, port: 0, threadPoolSize: 2)) { _ in
            HTTPResponse(status: 200)
        }
        let idle = try RawClient(port: server.port, host: host)
        #expect(try idle.request("GET", "/warm").status == 200)
        let stopped = onThread { server.stop(drainTimeout: .seconds(60), idleGrace: .milliseconds(100)) }
        #expect(try idle.serverClosed())
        #expect(stopped.wait(timeout: .now() + 30) == .success)
    }

    /// Busy keep-alive clients, each sending its next request as soon as it has a reply: a stop
    /// in the middle cuts none of them off. Every request sent is answered, 200 or the stopping
    /// reply; the only failures allowed are refused connection attempts after the stop began.
    /// Stopping used to wait for the requests in flight only, and closed connections whose
    /// next request was on its way.
    @Test func busyKeepAliveClientsAreNeverCutOffByAStop() throws {
        let host = "127.0.77.5"
        let server = try HTTPServer(configuration: HTTPServerConfiguration(host: host, port: 0, threadPoolSize: 4)) { request in
            HTTPResponse(status: 200, body: request.body)
        }
        let port = server.port
        let answered = Atomic<Int>(0)
        let statuses = Mutex<[Int: Int]>([:])
        let failures = Mutex<[String]>([])
        var clients: [DispatchSemaphore] = []
        for c in 0..<8 {
            clients.append(
                onThread {
                    var client: RawClient?
                    for i in 0..<100_000 {
                        if client == nil {
                            do { client = try RawClient(port: port, host: host) } catch {
                                // Refused: the stop has begun. Anything else is a failure.
                                if !"\(error)".contains("errno \(ECONNREFUSED)") {
                                    failures.withLock { $0.append("connect: \(error)") }
                                }
                                return
                            }
                        }
                        do {
                            let reply = try client!.request("POST", "/c\(c)/\(i)", body: Array("\(c)-\(i)".utf8))
                            statuses.withLock { $0[reply.status, default: 0] += 1 }
                            answered.add(1, ordering: .relaxed)
                            if reply.header("Connection")?.lowercased() == "close" { client = nil }
                        } catch {
                            failures.withLock { $0.append("request \(i) of client \(c): \(error)") }
                            return
                        }
                    }
                })
        }
        // Bounded (30 s): the clients are under way.
        var waited = 0
        while answered.load(ordering: .relaxed) < 400, waited < 30_000 {
            usleep(1_000)
            waited += 1
        }
        server.stop(drainTimeout: .seconds(30), idleGrace: .seconds(5), stoppingReply: stopping)
        for client in clients { #expect(client.wait(timeout: .now() + 30) == .success) }
        #expect(failures.withLock { $0 } == [])
        #expect(Set(statuses.withLock { $0.keys }).isSubset(of: [200, 503]))
        #expect(answered.load(ordering: .relaxed) >= 400)
    }
}

import Dispatch
import Foundation  // Thread: clients that do not wait for a pool thread
import Glibc
import Synchronization
import Testing

@testable import HTTPServer

/// Deferred replies: the connection is suspended while the reply is pending and resumed with
/// it (`MHD_suspend_connection` / `MHD_resume_connection`), keep-alive intact; stopping with
/// connections still suspended answers them 503 and stops cleanly. In `HTTPServerTests`'
/// serialized suite, as its other cases of the server's connections.
extension HTTPServerTests {
    /// Handlers' pending replies, for the test to complete.
    final class Pending: Sendable {
        let replies = Mutex<[DeferredResponse]>([])
        func add(_ d: DeferredResponse) { replies.withLock { $0.append(d) } }
        var count: Int { replies.withLock { $0.count } }
        func completeAll(_ make: (Int) -> HTTPResponse) {
            let all = replies.withLock { r in
                defer { r.removeAll() }; return r
            }
            for (i, d) in all.enumerated() { d.complete(make(i)) }
        }
    }

    @Test func aDeferredReplyIsSentWhenCompletedAndTheConnectionStaysOpen() throws {
        let pending = Pending()
        let server = try HTTPServer(configuration: HTTPServerConfiguration(port: 0, threadPoolSize: 2)) { request in
            if request.path == "/now" { return HTTPResponse(status: 200, body: Array("now".utf8)) }
            let d = DeferredResponse()
            pending.add(d)
            return HTTPResponse(deferred: d)
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        for round in 0..<3 {
            let answered = Mutex<RawResponse?>(nil)
            let afterwards = Mutex<String?>(nil)
            let done = DispatchSemaphore(value: 0)
            let port = server.port
            // A thread of its own: on DispatchQueue.global() this blocking client could wait
            // seconds for a pool thread while other suites hold them.
            Thread.detachNewThread {
                let send = try? RawClient(port: port)
                let r = try? send?.request("POST", "/later", body: Array("x".utf8))
                answered.withLock { $0 = r }
                // The same connection carries the next request.
                let next = try? send?.request("GET", "/now").text
                afterwards.withLock { $0 = next }
                done.signal()
            }
            // Suspended: the reply waits for the completion; the other connection is served.
            // The server suspends the connection just after the handler returns, so wait (30 s
            // at most) for the suspension itself, not only for the handler's call.
            let deadline = ContinuousClock.now + .seconds(30)
            while pending.count == 0 || server.suspendedConnections == 0, ContinuousClock.now < deadline {
                usleep(1_000)
            }
            #expect(pending.count == 1)
            #expect(server.suspendedConnections == 1)
            #expect(try client.request("GET", "/now").text == "now")
            #expect(answered.withLock { $0 } == nil)
            pending.completeAll { _ in HTTPResponse(status: 201, body: Array("done \(round)".utf8)) }
            #expect(done.wait(timeout: .now() + 30) == .success)
            let reply = try #require(answered.withLock { $0 })
            #expect(reply.status == 201)
            #expect(reply.text == "done \(round)")
            #expect(reply.header("Connection")?.lowercased() != "close")
            #expect(server.suspendedConnections == 0)
            #expect(afterwards.withLock { $0 } == "now")
        }
    }

    @Test func aReplyCompletedBeforeTheHandlerReturnsIsSent() throws {
        let server = try HTTPServer(configuration: HTTPServerConfiguration(port: 0, threadPoolSize: 1)) { _ in
            let d = DeferredResponse()
            d.complete(HTTPResponse(status: 200, body: Array("early".utf8)))
            return HTTPResponse(deferred: d)
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        for _ in 0..<20 { #expect(try client.request("GET", "/").text == "early") }
    }

    @Test func stoppingWithSuspendedConnectionsAnswersThem503AndStops() throws {
        let pending = Pending()
        let server = try HTTPServer(configuration: HTTPServerConfiguration(port: 0, threadPoolSize: 2)) { _ in
            let d = DeferredResponse()
            pending.add(d)
            return HTTPResponse(deferred: d)
        }
        let replies = Mutex<[Int]>([])
        let failures = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let port = server.port
        // Each client on a thread of its own, all started at once. Not on DispatchQueue.global():
        // while other suites block its threads, libdispatch adds about one a second, so four
        // blocking clients could start seconds apart and the first one's 10 s receive timeout
        // ran out before the fourth request arrived and the server was stopped (the flaky -1).
        for _ in 0..<4 {
            Thread {
                do {
                    let status = try RawClient(port: port).request("POST", "/never", body: Array("x".utf8)).status
                    replies.withLock { $0.append(status) }
                } catch {
                    replies.withLock { $0.append(-1) }
                    failures.withLock { $0.append(String(describing: error)) }
                }
                done.signal()
            }.start()
        }
        // Bounded (30 s): all four suspended, not only handed to the handler.
        var waited = 0
        while server.suspendedConnections < 4, waited < 30_000 {
            usleep(1_000)
            waited += 1
        }
        #expect(pending.count == 4)
        #expect(server.suspendedConnections == 4)
        server.stop(drainTimeout: .milliseconds(50))
        for _ in 0..<4 { done.wait() }
        #expect(replies.withLock { $0 } == [503, 503, 503, 503], "client errors: \(failures.withLock { $0 })")
        #expect(server.suspendedConnections == 0)
        // A completion after the stop touches nothing.
        pending.completeAll { _ in HTTPResponse(status: 200) }
        #expect(server.liveRequestStates == 0)
    }

    /// `stop(beforeAnswering:)` runs its closure after the drain and before the 503s: a reply it
    /// completes there goes out as completed (its work landed, so no 503 for it); the one it
    /// leaves pending is answered 503.
    @Test func stoppingLetsTheOwnerSettlePendingRepliesBeforeThe503s() throws {
        let pending = Pending()
        let server = try HTTPServer(configuration: HTTPServerConfiguration(port: 0, threadPoolSize: 2)) { request in
            let d = DeferredResponse()
            if request.path == "/lands" { pending.add(d) }
            return HTTPResponse(deferred: d)
        }
        let replies = Mutex<[String: Int]>([:])
        let done = DispatchSemaphore(value: 0)
        let port = server.port
        for path in ["/lands", "/never"] {
            Thread {
                let status = (try? RawClient(port: port).request("POST", path, body: Array("x".utf8)).status) ?? -1
                replies.withLock { $0[path] = status }
                done.signal()
            }.start()
        }
        var waited = 0
        while server.suspendedConnections < 2, waited < 30_000 {
            usleep(1_000)
            waited += 1
        }
        #expect(server.suspendedConnections == 2)
        let settledWhileSuspended = Mutex<Int>(-1)
        server.stop(drainTimeout: .milliseconds(50)) {
            settledWhileSuspended.withLock { $0 = server.suspendedConnections }
            pending.completeAll { _ in HTTPResponse(status: 201) }
        }
        for _ in 0..<2 { done.wait() }
        #expect(settledWhileSuspended.withLock { $0 } == 2, "the closure runs before any pending reply is answered")
        #expect(replies.withLock { $0 } == ["/lands": 201, "/never": 503])
        #expect(server.suspendedConnections == 0)
    }

    /// More suspensions than lock shards (``SuspendedShard/count``), completed in reverse order:
    /// each connection is resumed with its own reply and stays open.
    @Test func manySuspendedConnectionsEachGetTheirOwnReply() throws {
        let waiting = Mutex<[(String, DeferredResponse)]>([])
        let server = try HTTPServer(configuration: HTTPServerConfiguration(port: 0, threadPoolSize: 4)) { request in
            if request.path == "/now" { return HTTPResponse(status: 200, body: Array("now".utf8)) }
            let d = DeferredResponse()
            waiting.withLock { $0.append((request.path, d)) }
            return HTTPResponse(deferred: d)
        }
        defer { server.stop() }
        let count = 2 * SuspendedShard.count + 3
        let results = Mutex<[String: (String?, String?)]>([:])
        let group = DispatchGroup()
        let port = server.port
        for i in 0..<count {
            group.enter()
            // A thread each: every client blocks until the last one is suspended, more than
            // Dispatch's pool runs at once on a small machine.
            Thread.detachNewThread {
                let client = try? RawClient(port: port)
                let reply = try? client?.request("POST", "/n/\(i)", body: Array("x".utf8))
                let next = try? client?.request("GET", "/now")
                results.withLock { $0["/n/\(i)"] = (reply?.text, next?.text) }
                group.leave()
            }
        }
        // The server suspends a connection just after its handler returns: wait for both (30 s at most).
        let deadline = ContinuousClock.now + .seconds(30)
        while waiting.withLock({ $0.count }) < count || server.suspendedConnections < count, ContinuousClock.now < deadline {
            usleep(1_000)
        }
        #expect(server.suspendedConnections == count)
        for (path, d) in waiting.withLock({ $0 }).reversed() {
            d.complete(HTTPResponse(status: 200, body: Array("for \(path)".utf8)))
        }
        #expect(group.wait(timeout: .now() + 30) == .success)
        let all = results.withLock { $0 }
        #expect(all.count == count)
        for (path, (reply, next)) in all {
            #expect(reply == "for \(path)")
            #expect(next == "now")
        }
        #expect(server.suspendedConnections == 0)
    }

    @Test func finishingStepsRunBeforeTheReplyIsHandedOn() {
        let d = DeferredResponse()
        d.finishing { $0.headers.add("X-Step", "1") }
        d.complete(HTTPResponse(status: 204))
        d.complete(HTTPResponse(status: 500))  // the first completion wins
        let reply = d.wait()
        #expect(reply.status == 204)
        #expect(reply.headers["x-step"] == "1")
    }
}

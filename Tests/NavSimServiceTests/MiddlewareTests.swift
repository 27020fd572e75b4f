import HTTPServer
import Synchronization
import Testing

@testable import NavSimService

/// The pieces around the router (HTTP/Middleware.swift): composed in order, each able to answer
/// alone, and the service's own chain holding the order the contract needs.
@Suite struct MiddlewareTests {
    /// Records its name on the way in and out; answers 418 itself when `answers`.
    struct Recorder: ServiceMiddleware {
        let name: String
        let log: RecorderLog
        var answers = false

        func respond(to request: HTTPRequest, context: inout RequestContext, next: Responder) throws(Problem) -> HTTPResponse {
            log.append("in \(name)")
            defer { log.append("out \(name)") }
            if answers { return HTTPResponse(status: 418) }
            return try next(request, &context)
        }
    }

    @Test("Pieces run outermost first around the endpoint; one that answers ends the chain")
    func order() throws {
        let log = RecorderLog()
        let chain = MiddlewareChain(pieces: [Recorder(name: "a", log: log), Recorder(name: "b", log: log)])
        var context = RequestContext()
        let reply = try chain.respond(to: HTTPRequest(method: "GET", path: "/"), context: &context) { _, _ throws(Problem) in
            log.append("endpoint")
            return HTTPResponse(status: 204)
        }
        #expect(reply.status == 204)
        #expect(log.all == ["in a", "in b", "endpoint", "out b", "out a"])

        let stopping = MiddlewareChain(pieces: [Recorder(name: "a", log: log, answers: true), Recorder(name: "b", log: log)])
        log.clear()
        let answered = try stopping.respond(to: HTTPRequest(method: "GET", path: "/"), context: &context) { _, _ throws(Problem) in
            log.append("endpoint")
            return HTTPResponse(status: 204)
        }
        #expect(answered.status == 418)
        #expect(log.all == ["in a", "out a"])
    }

    @Test("A problem thrown inside the chain is problem+json, and counted as UIKit's only when it is")
    func problems() throws {
        let counters = ServiceCounters()
        let chain = MiddlewareChain(pieces: [ProblemResponses(counters: counters), RequestChecks()])
        var context = RequestContext()
        let malformed = try chain.respond(to: HTTPRequest(method: "GET", path: "/v1/sessions/%zz"), context: &context) {
            _, _ throws(Problem) in HTTPResponse(status: 200)
        }
        #expect(malformed.status == 400)
        #expect(malformed.headers["content-type"] == "application/problem+json")
        #expect(counters.refusals.load(ordering: .relaxed) == 0)
    }

    @Test("The service's chain: the token screen answers before the request checks, and every reply is counted")
    func serviceOrder() throws {
        let h = try ServiceHarness(tokens: ["secret"])
        let service = try #require(h.service)
        #expect(
            service.middleware.pieces.map { String(describing: type(of: $0)) }
                == ["RequestMetrics", "ProblemResponses", "TokenScreen", "RequestChecks", "ConditionalReads"])
        let before = service.counters.requests.load(ordering: .relaxed)
        #expect(service.handle(HTTPRequest(method: "GET", path: "/v1/sessions/%zz")).status == 401)
        #expect(service.counters.requests.load(ordering: .relaxed) == before + 1)
    }
}

/// A shared log for the recorders.
final class RecorderLog: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    func clear() { lines.withLock { $0.removeAll() } }
    var all: [String] { lines.withLock { $0 } }
}

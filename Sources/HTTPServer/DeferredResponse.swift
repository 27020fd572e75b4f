import Dispatch
import Synchronization

/// A reply that is not ready when the handler returns: the handler answers
/// `HTTPResponse(deferred: d)` and calls ``complete(_:)`` later, from any thread (say, once the
/// request's write is durable). Meanwhile the server suspends the connection
/// (`MHD_suspend_connection`), so its pool thread serves other connections, and resumes it
/// with the reply queued when it is complete (`MHD_resume_connection`; libmicrohttpd's manual).
///
/// ```swift
/// let reply = DeferredResponse()
/// store.enqueue(commit) { _ in reply.complete(HTTPResponse(status: 204)) }
/// return HTTPResponse(deferred: reply)
/// ```
///
/// The first ``complete(_:)`` wins; later ones are ignored. A server that stops before the
/// reply is complete answers 503 itself (``HTTPServer/stop(drainTimeout:idleGrace:stoppingReply:beforeAnswering:)``).
public final class DeferredResponse: Sendable {
    private struct State {
        /// Set once the reply is complete and every finishing step has run on it.
        var response: HTTPResponse?
        /// ``complete(_:)`` was called; its finishing steps may still be running.
        var completing = false
        /// Who is waiting: the server's resume, or ``wait()``.
        var waiter: Waiter?
        /// Run on the response just before it is handed on, in the order added.
        var finishers: [Finisher] = []
    }

    /// A class around each closure: a function value read out of `Mutex.withLock` is
    /// re-abstracted on every read (see `SessionStore.batchObserver`).
    private final class Waiter: Sendable {
        let ready: @Sendable () -> Void
        init(_ ready: @escaping @Sendable () -> Void) { self.ready = ready }
    }

    private final class Finisher: Sendable {
        let body: @Sendable (inout HTTPResponse) -> Void
        init(_ body: @escaping @Sendable (inout HTTPResponse) -> Void) { self.body = body }
    }

    private let state = Mutex(State())

    public init() {}

    /// Whether ``complete(_:)`` has been called.
    public var isComplete: Bool { state.withLock { $0.response != nil } }

    /// Delivers the reply; the first call wins. Never blocks on the network. The finishing
    /// steps run on this thread, outside the lock; only then is the reply handed on, so a
    /// waiter never sees it half finished.
    public func complete(_ response: HTTPResponse) {
        let first = state.withLock { s -> Bool in
            guard !s.completing else { return false }
            s.completing = true
            return true
        }
        guard first else { return }
        var finished = response
        while true {
            // Steps added while the earlier ones ran are run too, before the reply is published.
            let (steps, waiter) = state.withLock { s -> ([Finisher], Waiter?) in
                if s.finishers.isEmpty {
                    s.response = finished
                    defer { s.waiter = nil }
                    return ([], s.waiter)
                }
                defer { s.finishers = [] }
                return (s.finishers, nil)
            }
            guard !steps.isEmpty else {
                waiter?.ready()
                return
            }
            for step in steps { step.body(&finished) }
        }
    }

    /// Adds a step run on the reply when it completes, before anyone receives it (a log line,
    /// a header, a metric). Runs at once, on the reply as sent, when it is already complete.
    public func finishing(_ body: @escaping @Sendable (inout HTTPResponse) -> Void) {
        state.withLock { s in
            if var r = s.response {
                body(&r)
                s.response = r
            } else {
                s.finishers.append(Finisher(body))
            }
        }
    }

    /// Blocks until the reply is complete and returns it: for callers that serve a request
    /// in process, with no connection to suspend.
    public func wait() -> HTTPResponse {
        let signal = DispatchSemaphore(value: 0)
        whenComplete { signal.signal() }
        signal.wait()
        return state.withLock { $0.response } ?? HTTPResponse(status: 500)
    }

    /// Calls `ready` once the reply is complete: now, on this thread, when it already is.
    /// One waiter at a time.
    func whenComplete(_ ready: @escaping @Sendable () -> Void) {
        let now = state.withLock { s -> Bool in
            guard s.response == nil else { return true }
            s.waiter = Waiter(ready)
            return false
        }
        if now { ready() }
    }

    /// The reply, once complete.
    var response: HTTPResponse? { state.withLock { $0.response } }
}

import Foundation
import HTTPServer
import Synchronization

/// Which session writes (creations, mutations, deletions) may still start, and how many that
/// started have not been answered: what a stop needs so that no client is told "failed" for a
/// write that lands (``NavSimService/stopWrites()``).
///
/// A write is admitted before anything of it is applied or queued, and counts until its reply
/// is complete (the durable outcome, or a problem). Once ``stop()`` has run, a write not yet
/// admitted is refused 503 `server-stopping` before it changes anything; ``stop()`` itself
/// returns when every admitted write has its reply, so the server's 503 for replies still
/// pending after it (HTTPServer.stop) never goes to a session write that may still land.
final class WritesGate: Sendable {
    private struct State {
        var stopped = false
        var open = 0
    }
    private let state = Mutex(State())

    /// Admits one write; false once stopped. An admitted write calls ``finish()`` exactly once,
    /// when its reply is complete or it was refused before anything was applied.
    func admit() -> Bool {
        state.withLock { s in
            guard !s.stopped else { return false }
            s.open += 1
            return true
        }
    }

    /// Admits a write answered through `deferred`: finished when the reply completes (a write
    /// refused after this completes `deferred` with its problem, so it is finished too).
    /// - Throws: 503 `server-stopping` once stopped.
    func admit(_ deferred: DeferredResponse) throws(Problem) {
        guard admit() else { throw StoryboardCatalog.stopping }
        deferred.finishing { [self] _ in finish() }
    }

    /// One admitted write is answered.
    func finish() {
        state.withLock { $0.open -= 1 }
    }

    /// Refuses every write from now on and waits until those admitted are answered. Not
    /// bounded: an admitted write's commit either lands or fails, and its reply says which; a
    /// process killed meanwhile leaves its clients with no reply, never with a wrong one.
    func stop() {
        state.withLock { $0.stopped = true }
        while state.withLock({ $0.open }) > 0 { usleep(1_000) }
    }

    /// Writes admitted and not answered yet (tests).
    var open: Int { state.withLock { $0.open } }
}

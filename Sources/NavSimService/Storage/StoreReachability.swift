import Dispatch
import Synchronization

/// Whether a store's database answered its most recent attempt, for `GET /healthz`: a load
/// balancer stops routing to an instance whose store is unreachable (docs/api.md, `/healthz`).
///
/// Every operation on the database reports its outcome (``attempted(reached:at:)``): reached
/// when the connection was still usable afterwards, whatever the statement's own result (a
/// refused commit reached the database too); not reached when connecting failed or the
/// connection broke. The last outcome reported wins, so one success after a failure makes the
/// store reachable again.
///
/// `/healthz` only reads this state (``check(at:)``), never the database. When the last outcome
/// is older than ``probeIntervalMillis``, `check` asks its caller to start one probe (a
/// cheap statement on a background queue) and lets no other start until that one reports
/// (``probeFinished(reached:at:)``): at most one probe per interval and per store, and none
/// while traffic keeps reporting outcomes.
///
/// Times are milliseconds on a monotonic clock (``now()``); they are parameters so the rules
/// can be tested without waiting.
public final class StoreReachability: Sendable {
    private struct State {
        var reachable = true
        /// When the last outcome was reported; nil before the first.
        var lastOutcome: Int64?
        var probing = false
    }

    private let state = Mutex(State())
    /// The least time between two probes, in milliseconds.
    public let probeIntervalMillis: Int64

    /// - Parameter probeIntervalMillis: at least this long between probes (0: whenever asked
    ///   and none is running).
    public init(probeIntervalMillis: Int64 = 1_000) {
        self.probeIntervalMillis = max(0, probeIntervalMillis)
    }

    /// Milliseconds since an arbitrary start, monotonic (`DispatchTime`, the uptime clock).
    public static func now() -> Int64 { Int64(DispatchTime.now().uptimeNanoseconds / 1_000_000) }

    /// Records the outcome of an attempt to use the database that ended at `now`.
    public func attempted(reached: Bool, at now: Int64 = StoreReachability.now()) {
        state.withLock { s in
            s.reachable = reached
            s.lastOutcome = now
        }
    }

    /// The current answer, and whether the caller should start a probe now (then it must call
    /// ``probeFinished(reached:at:)`` when the probe ends).
    public func check(at now: Int64 = StoreReachability.now()) -> (reachable: Bool, probe: Bool) {
        state.withLock { s in
            let due = s.lastOutcome.map { now - $0 >= probeIntervalMillis } ?? true
            let probe = due && !s.probing
            if probe { s.probing = true }
            return (s.reachable, probe)
        }
    }

    /// Records a probe's outcome and allows the next probe.
    public func probeFinished(reached: Bool, at now: Int64 = StoreReachability.now()) {
        state.withLock { s in
            s.reachable = reached
            s.lastOutcome = now
            s.probing = false
        }
    }

    /// Whether the last outcome reported was a success (or none was reported yet).
    public var isReachable: Bool { state.withLock { $0.reachable } }
}

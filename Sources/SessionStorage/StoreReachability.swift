import Dispatch
import Synchronization

/// Whether a store's database answered its most recent operation, for `GET /readyz` and the
/// `navsim_store_up` gauge (docs/api.md), and the outage's two log lines.
///
/// Every operation on the database reports its outcome once, after the store's own reconnect
/// and retry (``attempted(reached:failed:error:started:at:)``): reached when the connection was
/// still usable afterwards, whatever the statement's own result (a refused commit reached the
/// database too); not reached when connecting failed or the connection broke. The newest outcome
/// wins, so one success after a failure makes the store reachable again. Newest is by when the
/// operation started: one that started before the operation whose outcome decided the state is
/// older news (its thread was slow to report), so it does not flip the state back and forth
/// around the outage's edges; a failure of it still counts while the store is unreachable.
///
/// A change between the two states is returned as a ``Change``, which the store logs as one
/// line (the service's `ServerLog.storeChange`, through ``installLog(_:)``): one when the store becomes unreachable, one when it
/// answers again, with how long it was away and how many reads and writes failed meanwhile,
/// instead of one line per failed request.
///
/// `/readyz` only reads this state (``check(at:)``), never the database. When the last outcome
/// is older than ``probeIntervalMillis``, `check` asks its caller to start one probe (a
/// cheap statement on a background queue) and lets no other start until that one reports
/// (``probeFinished(reached:error:at:)``): at most one probe per interval and per store, and none
/// while traffic keeps reporting outcomes. Requests never wait for a probe: each one that needs
/// the database connects again on its own (docs/deployment.md, "When the database goes away").
///
/// Times are milliseconds on a monotonic clock (``now()``); they are parameters so the rules
/// can be tested without waiting.
public final class StoreReachability: Sendable {
    /// A change of reachability, to be logged once.
    public enum Change: Sendable {
        /// The store became unreachable: `error` is the failure that showed it.
        case unreachable(error: any Error)
        /// The store answered again after `downMillis`; `failedReads` and `failedWrites` count
        /// the operations that failed meanwhile (a write per commit, so per request).
        case reachableAgain(downMillis: Int64, failedReads: Int, failedWrites: Int)
    }

    /// What an operation that did not reach the database was, for the outage's count.
    public enum Failed: Sendable, Equatable {
        /// A probe: not counted (no request failed).
        case nothing
        /// A read.
        case read
        /// A write transaction holding this many commits (or other writes).
        case writes(Int)
    }

    private struct State {
        var reachable = true
        /// When the last outcome was reported; nil before the first.
        var lastOutcome: Int64?
        var probing = false
        /// When the operation whose outcome decided `reachable` started; nil before the first.
        var decidedBy: Int64?
        /// When the store became unreachable (meaningful while it is).
        var downSince: Int64 = 0
        var failedReads = 0
        var failedWrites = 0

        mutating func record(reached: Bool, failed: Failed, error: (any Error)?, started: Int64, at now: Int64) -> Change? {
            lastOutcome = now
            if let decided = decidedBy, started < decided {
                if !reached, !reachable { count(failed) }
                return nil
            }
            decidedBy = started
            let was = reachable
            reachable = reached
            if reached {
                return was
                    ? nil
                    : .reachableAgain(
                        downMillis: max(0, now - downSince), failedReads: failedReads,
                        failedWrites: failedWrites)
            }
            if was {
                downSince = now
                failedReads = 0
                failedWrites = 0
            }
            count(failed)
            return was ? .unreachable(error: error ?? Unanswered()) : nil
        }

        mutating func count(_ failed: Failed) {
            switch failed {
            case .nothing: break
            case .read: failedReads += 1
            case .writes(let n): failedWrites += n
            }
        }
    }

    /// The error of a change to unreachable reported without one.
    private struct Unanswered: Error, CustomStringConvertible {
        var description: String { "the database did not answer" }
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

    /// Records the outcome of an operation on the database that started at `started` (nil: at
    /// `now`) and ended at `now`; when it did not reach it, `failed` says what failed (counted
    /// until the store answers again) and `error` why.
    /// - Returns: the change of state this outcome made, if any, for the log.
    @discardableResult
    public func attempted(
        reached: Bool, failed: Failed = .nothing, error: (any Error)? = nil,
        started: Int64? = nil, at now: Int64 = StoreReachability.now()
    ) -> Change? {
        state.withLock { $0.record(reached: reached, failed: failed, error: error, started: started ?? now, at: now) }
    }

    /// The current answer, and whether the caller should start a probe now (then it must call
    /// ``probeFinished(reached:error:at:)`` when the probe ends).
    public func check(at now: Int64 = StoreReachability.now()) -> (reachable: Bool, probe: Bool) {
        state.withLock { s in
            let due = s.lastOutcome.map { now - $0 >= probeIntervalMillis } ?? true
            let probe = due && !s.probing
            if probe { s.probing = true }
            return (s.reachable, probe)
        }
    }

    /// Records the outcome of a probe that started at `started` (nil: at `now`) and allows the
    /// next probe.
    /// - Returns: the change of state it made, if any, for the log.
    @discardableResult
    public func probeFinished(
        reached: Bool, error: (any Error)? = nil, started: Int64? = nil,
        at now: Int64 = StoreReachability.now()
    ) -> Change? {
        state.withLock { s in
            s.probing = false
            return s.record(reached: reached, failed: .nothing, error: error, started: started ?? now, at: now)
        }
    }

    /// Whether the last outcome reported was a success (or none was reported yet).
    public var isReachable: Bool { state.withLock { $0.reachable } }
}

extension StoreReachability {
    /// Where changes go, once installed: a class around the closure, because a function value
    /// read out of `Mutex.withLock` is re-abstracted on every read.
    private final class Log: Sendable {
        let write: @Sendable (Change) -> Void
        init(_ write: @escaping @Sendable (Change) -> Void) { self.write = write }
    }

    private static let log = Mutex<Log?>(nil)

    /// Sends every change a store reports from now on to `log`: the service installs its
    /// operator log, which writes one line per change. Until then changes are not logged.
    public static func installLog(_ log: @escaping @Sendable (Change) -> Void) {
        self.log.withLock { $0 = Log(log) }
    }

    /// Hands `change` (what ``attempted(reached:failed:error:started:at:)`` or
    /// ``probeFinished(reached:error:started:at:)`` returned) to the installed log.
    package static func report(_ change: Change) {
        log.withLock { $0 }?.write(change)
    }
}

/// Why a store operation failed when its database could not be reached: connecting failed, or
/// the connection broke before the operation's `COMMIT` was sent, so nothing of it was written.
/// The service answers it 503 `store-unreachable` with `Retry-After` (``Problem/storage(_:_:access:)``),
/// and the store's next operation connects again.
public struct StoreUnreachable: Error, CustomStringConvertible {
    /// The driver's error (libpq's text, or the server's, e.g. SQLSTATE 57P01 for a shutdown).
    public let cause: any Error

    public init(_ cause: any Error) { self.cause = cause }

    public var description: String { "the database cannot be reached: \(cause)" }
}

extension Error {
    /// Whether the store could not reach its database for this operation: ``StoreUnreachable``,
    /// or a connection that broke while `COMMIT` was on its way
    /// (``StoreFault/isCommitOutcomeUnknown``, whose write may have been stored).
    public var isStoreUnreachable: Bool {
        self is StoreUnreachable || storeFault?.isCommitOutcomeUnknown == true
    }
}

import CMicroHTTPD
import Dispatch
import Foundation  // Thread: the reaper needs a thread of its own
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Milliseconds on the monotonic clock (never jumps with the wall clock).
func monotonicMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}

/// Where one connection is in its current request, for the header and request deadlines.
///
/// libmicrohttpd's own timeout restarts on every byte, so a client sending one byte every few
/// seconds keeps a connection forever, and enough of them take every slot (slowloris).
/// libmicrohttpd 0.9.75 has no header deadline, so the server keeps one: each connection gets a
/// `ConnectionClock` from `MHD_OPTION_NOTIFY_CONNECTION` (stored in its socket context), the
/// access handler moves it on, and a `Reaper` thread shuts down the socket of a connection that
/// is late. Fields are atomics: the connection's pool thread writes, the reaper reads.
final class ConnectionClock: Sendable {
    enum Phase: UInt8 {
        /// Waiting for (the rest of) a request's header section.
        case head = 0
        /// Header section in, body still arriving.
        case body = 1
        /// Whole request in: being handled or answered; no deadline (the idle timeout applies).
        case answering = 2
    }

    let fd: Int32
    /// When the current request began: the connection's start, or the previous request's end.
    private let since = Atomic<Int64>(0)
    private let phase = Atomic<UInt8>(Phase.head.rawValue)

    init(fd: Int32, now: Int64) {
        self.fd = fd
        since.store(now, ordering: .relaxed)
    }

    /// Header section complete (access handler, first call).
    func headReceived() { phase.store(Phase.body.rawValue, ordering: .relaxed) }
    /// Whole request received (access handler, last call).
    func requestReceived() { phase.store(Phase.answering.rawValue, ordering: .relaxed) }
    /// Request finished (completion callback): the next one's header deadline starts now.
    func requestFinished(now: Int64) {
        since.store(now, ordering: .relaxed)
        phase.store(Phase.head.rawValue, ordering: .releasing)
    }

    /// Whether the whole request is in and its reply not yet sent.
    var isAnswering: Bool { phase.load(ordering: .acquiring) == Phase.answering.rawValue }

    /// Whether the connection has been waiting for a request's header section since `cutoff`
    /// or earlier (milliseconds).
    func isIdle(since cutoff: Int64) -> Bool {
        phase.load(ordering: .acquiring) == Phase.head.rawValue && since.load(ordering: .relaxed) <= cutoff
    }

    /// Whether the connection missed a deadline at `now` (milliseconds; 0 = no such deadline).
    func isLate(now: Int64, headerMillis: Int64, requestMillis: Int64) -> Bool {
        let current = Phase(rawValue: phase.load(ordering: .acquiring)) ?? .answering
        let age = now - since.load(ordering: .relaxed)
        switch current {
        case .head: return (headerMillis > 0 && age > headerMillis) || (requestMillis > 0 && age > requestMillis)
        case .body: return requestMillis > 0 && age > requestMillis
        case .answering: return false
        }
    }
}

/// Every open connection's clock, and the thread that closes late connections. The clocks are
/// kept even without deadlines: a stop waits until every connection has closed
/// (``HTTPServer/stop(drainTimeout:idleGrace:stoppingReply:beforeAnswering:)``).
///
/// Closing from another thread is done with `shutdown(fd, SHUT_RDWR)`, never `close`: the
/// socket stays open, epoll reports it readable, libmicrohttpd's own thread reads end-of-stream
/// and closes the connection the ordinary way (completion callbacks and all). The descriptor
/// cannot have been reused meanwhile: the reaper shuts down only under `open`'s lock, and
/// libmicrohttpd 0.9.75 sends `MHD_CONNECTION_NOTIFY_CLOSED` (which removes the clock under
/// the same lock) before it closes the socket (`MHD_cleanup_connections`, daemon.c).
final class ConnectionDeadlines: Sendable {
    private let open = Mutex<[ObjectIdentifier: ConnectionClock]>([:])
    let headerMillis: Int64
    let requestMillis: Int64
    /// Connections closed for missing a deadline, since start.
    let reaped = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(headerSeconds: UInt32, requestSeconds: UInt32) {
        headerMillis = Int64(headerSeconds) * 1000
        requestMillis = Int64(requestSeconds) * 1000
    }

    var enabled: Bool { headerMillis > 0 || requestMillis > 0 }

    func opened(_ clock: ConnectionClock) {
        open.withLock { $0[ObjectIdentifier(clock)] = clock }
    }

    func closed(_ clock: ConnectionClock) {
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(clock)) }
    }

    /// Open connections being tracked.
    var count: Int { open.withLock { $0.count } }

    /// Sockets handed to libmicrohttpd by a stop (`MHD_add_connection`) that its thread has not
    /// started yet: they are open connections too, though no clock is registered for them yet.
    private let adopting = Mutex<Set<Int32>>([])

    /// A socket about to be handed to libmicrohttpd; counted until its clock is registered.
    func adopt(_ fd: Int32) { _ = adopting.withLock { $0.insert(fd) } }
    /// The hand-over failed (libmicrohttpd closed the socket): it is no longer counted.
    func abandon(_ fd: Int32) { _ = adopting.withLock { $0.remove(fd) } }

    /// Whether a connection has a whole request in and its reply not yet sent (being handled,
    /// waiting on a deferred reply, or being written).
    var anyAnswering: Bool { open.withLock { $0.values.contains { $0.isAnswering } } }

    /// Whether every connection, those being handed over included, has closed.
    var allClosed: Bool { adopting.withLock { $0.isEmpty } && count == 0 }

    /// For a stop: shuts down every connection that has waited for its next request since
    /// `cutoff` (milliseconds) or longer and has no unread byte, so that a client which sent a
    /// request just now is answered (503, then closed) instead of cut off. Returns how many.
    @discardableResult
    func closeIdle(since cutoff: Int64) -> Int {
        open.withLock { clocks -> Int in
            var n = 0
            for clock in clocks.values where clock.isIdle(since: cutoff) {
                var unread: Int32 = 0
                if ioctl(clock.fd, UInt(FIONREAD), &unread) == 0, unread > 0 { continue }
                if shutdown(clock.fd, Int32(SHUT_RDWR)) == 0 { n += 1 }
            }
            return n
        }
    }

    /// One pass: shuts down every late connection; returns how many.
    @discardableResult
    func reap(now: Int64 = monotonicMilliseconds()) -> Int {
        let n = open.withLock { clocks -> Int in
            var n = 0
            for clock in clocks.values where clock.isLate(now: now, headerMillis: headerMillis, requestMillis: requestMillis) {
                if shutdown(clock.fd, Int32(SHUT_RDWR)) == 0 { n += 1 }
            }
            return n
        }
        if n > 0 { reaped.add(n, ordering: .relaxed) }
        return n
    }

    /// Starts the reaper thread: a pass every quarter of the shortest deadline (at most 1 s).
    func start() {
        guard enabled else { finished.signal(); return }
        let shortest: Int64 = [headerMillis, requestMillis].filter { $0 > 0 }.min() ?? 1000
        let period = max(50, min(1000, Int(shortest / 4)))
        let thread = Thread { [self] in
            while !stopping.load(ordering: .acquiring) {
                _ = wake.wait(timeout: .now() + .milliseconds(period))
                if stopping.load(ordering: .acquiring) { break }
                reap()
            }
            finished.signal()
        }
        thread.name = "navsim-reaper"
        thread.start()
    }

    /// Stops the reaper thread and waits for it. Call once, before `MHD_stop_daemon`.
    func stop() {
        stopping.store(true, ordering: .releasing)
        wake.signal()
        finished.wait()
    }
}

/// `MHD_NotifyConnectionCallback`: gives each connection a clock on start, drops it on close.
/// `cls` is the `ServerContext`; `*socketContext` holds the clock as a +1 reference.
let mhdNotifyConnection: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
    guard let cls, let connection, let socketContext else { return }
    let deadlines = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue().deadlines
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        let clock = ConnectionClock(fd: mhd_shim_connection_fd(connection), now: monotonicMilliseconds())
        guard clock.fd >= 0 else { return }
        deadlines.opened(clock)
        deadlines.abandon(clock.fd)  // an adopted socket is counted by its clock from now on
        socketContext.pointee = Unmanaged.passRetained(clock).toOpaque()
    case .CONNECTION_NOTIFY_CLOSED:
        guard let raw = socketContext.pointee else { return }
        let clock = Unmanaged<ConnectionClock>.fromOpaque(raw)
        deadlines.closed(clock.takeUnretainedValue())
        clock.release()
        socketContext.pointee = nil
    @unknown default:
        return
    }
}

/// The clock of `connection`, if the server tracks it.
func connectionClock(_ connection: OpaquePointer) -> ConnectionClock? {
    guard let raw = mhd_shim_socket_context(connection) else { return nil }
    return Unmanaged<ConnectionClock>.fromOpaque(raw).takeUnretainedValue()
}

import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 server on libmicrohttpd 0.9.75 that hands each complete request to one handler.
///
/// ```swift
/// let server = try HTTPServer(configuration: .init(port: 0)) { request in
///     HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("hi".utf8))
/// }
/// print(server.port)
/// server.stop()
/// ```
///
/// libmicrohttpd runs an internal epoll thread pool (`MHD_USE_AUTO_INTERNAL_THREAD`, which is
/// epoll on Linux) and calls the handler on those threads. Keep-alive follows HTTP/1.1 (RFC 9112
/// §9.3): the handler is only ever called once the whole request has arrived,
/// because a reply queued on libmicrohttpd's first callback closes the connection
/// (libmicrohttpd's manual). The exceptions are where closing is the point: ambiguous framing (400),
/// and a refused or oversized body the client will not send (`Expect: 100-continue`) or that is
/// beyond `maxDiscardBytes`. Other oversized or refused bodies are read and dropped first, so
/// the client sees the reply rather than a reset.
///
/// Slow clients: a reaper thread closes connections whose request head (or whole request)
/// misses its deadline (``HTTPServerConfiguration/headerTimeoutSeconds``); connections are
/// limited per IP address and in all, below the file-descriptor limit.
public final class HTTPServer: Sendable {
    /// The port actually bound (`MHD_DAEMON_INFO_BIND_PORT`); differs from the configuration
    /// when it asked for port 0.
    public let port: UInt16
    /// The connection limit in force: the configured one, lowered when needed to stay
    /// ``FileDescriptors/reserve`` below the soft `RLIMIT_NOFILE` (each connection is a descriptor).
    public let connectionLimit: UInt32

    private let context: ServerContext
    /// `nil` once stopped. The lock also serialises `stop` callers: a second one waits for
    /// the first to finish.
    private let daemon: Mutex<DaemonHandle?>

    /// Starts listening and serving before returning.
    ///
    /// `screen`, when given, sees each request's head before its body is read and may refuse it
    /// (see ``HTTPScreen``); `refusals`, when given, sees each reply the server makes itself
    /// (``HTTPRefusalHook``); `handler` answers complete requests.
    ///
    /// - Throws: `HTTPServerError` with kind `.invalidConfiguration` (host not an IPv4 literal,
    ///   negative sizes) or `.startFailed` with libmicrohttpd's reason (address in use,
    ///   address not available, ...).
    public init(
        configuration: HTTPServerConfiguration, screen: HTTPScreen? = nil, refusals: HTTPRefusalHook? = nil,
        handler: @escaping HTTPHandler
    ) throws {
        let config = configuration
        guard config.threadPoolSize >= 1 else {
            throw HTTPServerError(
                kind: .invalidConfiguration,
                message: "threadPoolSize must be at least 1, got \(config.threadPoolSize)")
        }
        for (name, value) in [("maxBodyBytes", config.maxBodyBytes), ("maxDiscardBytes", config.maxDiscardBytes)]
            + config.maxBodyBytesByMediaType.map({ ("maxBodyBytes for \($0.key)", $0.value) }) where value < 0
        {
            throw HTTPServerError(kind: .invalidConfiguration, message: "\(name) must not be negative, got \(value)")
        }
        guard config.connectionLimit >= 1 else {
            throw HTTPServerError(kind: .invalidConfiguration, message: "connectionLimit must be at least 1")
        }
        guard config.connectionMemoryLimit > 0 else {
            throw HTTPServerError(
                kind: .invalidConfiguration,
                message: "connectionMemoryLimit must be positive, got \(config.connectionMemoryLimit)")
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = config.port.bigEndian
        guard inet_pton(AF_INET, config.host, &address.sin_addr) == 1 else {
            throw HTTPServerError(
                kind: .invalidConfiguration,
                message: "host must be an IPv4 address literal such as 127.0.0.1 or 0.0.0.0, got \"\(config.host)\"")
        }

        let connectionLimit = FileDescriptors.connectionLimit(config.connectionLimit)
        guard connectionLimit >= UInt32(config.threadPoolSize) else {
            throw HTTPServerError(
                kind: .invalidConfiguration,
                message: "the file-descriptor limit (\(FileDescriptors.softLimit)) leaves no room for connections")
        }
        let context = ServerContext(handler: handler, screen: screen, refusals: refusals, limits: config)
        let contextPointer = Unmanaged.passRetained(context)
        let log = UnsafeMutablePointer<mhd_shim_log>.allocate(capacity: 1)
        log.initialize(to: mhd_shim_log())

        // ITC: MHD_quiesce_daemon returns -1 without it (libmicrohttpd's manual).
        // ALLOW_SUSPEND_RESUME: deferred replies (``DeferredResponse``) suspend their connection.
        let flags =
            MHD_USE_AUTO_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue
        let started: OpaquePointer? = withUnsafePointer(to: &address) { addressPointer in
            var options = mhd_shim_config(
                flags: flags,
                port: config.port,
                address: addressPointer,
                thread_pool_size: UInt32(clamping: config.threadPoolSize),
                connection_timeout: config.connectionTimeoutSeconds,
                connection_limit: connectionLimit,
                per_ip_connection_limit: config.perIPConnectionLimit,
                connection_memory_limit: config.connectionMemoryLimit,
                notify_connection: mhdNotifyConnection,
                notify_connection_cls: contextPointer.toOpaque(),
                listen_fd: config.listeningSocket?.descriptor ?? -1)
            let cls = contextPointer.toOpaque()
            return mhd_shim_start(&options, log, mhdAccessHandler, cls, mhdRequestCompleted, cls)
        }
        guard let started else {
            let reason = withUnsafeBytes(of: &log.pointee.start_errors) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            log.deallocate()
            contextPointer.release()
            throw HTTPServerError(
                kind: .startFailed,
                message: "cannot listen on \(config.listeningSocket?.host ?? config.host):\(config.listeningSocket?.port ?? config.port): "
                    + (reason.isEmpty ? "libmicrohttpd refused to start (no reason logged)" : reason))
        }
        let bound = mhd_shim_bind_port(started)
        self.port = bound != 0 ? bound : config.listeningSocket?.port ?? config.port
        self.connectionLimit = connectionLimit
        self.context = context
        context.deadlines.start()
        self.daemon = Mutex(DaemonHandle(raw: started, log: log, context: contextPointer))
    }

    /// Stops gracefully; returns when the daemon is gone. Calling it again does nothing.
    ///
    /// 1. New connections are refused from the first moment: `MHD_quiesce_daemon` takes the
    ///    listening socket from libmicrohttpd's threads, the connections the kernel already
    ///    completed in its backlog are accepted here and handed to libmicrohttpd
    ///    (`MHD_add_connection`), and the socket stops listening (`shutdown`), so a client
    ///    connecting from then on gets `ECONNREFUSED`, and none that connected is reset.
    /// 2. The drain, for up to `drainTimeout`: requests already under way finish and are sent;
    ///    every reply carries `Connection: close`. A request that arrives after the stop began
    ///    is answered `stoppingReply` (its body read and dropped first) and its connection
    ///    closed. A connection that has waited `idleGrace` for its next request since the stop
    ///    began (or since its previous reply, if later) is closed, unless a byte of one has
    ///    arrived: a client that is between two requests has that long to send the next and
    ///    hear 503 instead of finding its connection closed. The drain ends as soon as every
    ///    connection has closed. It waits for connections, not only for requests in flight:
    ///    between two requests of a busy keep-alive connection none is in flight, and a stop
    ///    that went on then closed the connection under the client's next request.
    /// 3. `beforeAnswering` runs: there the handler's owner settles the work pending replies
    ///    wait for (completes them, or refuses what has not begun), so that no request is
    ///    answered 503 while its work may still land.
    /// 4. A deferred reply still pending is answered `stoppingReply` and its connection resumed:
    ///    `MHD_stop_daemon` must not find one suspended. Then, for up to ``stopReplyTimeout``,
    ///    it waits until every request received whole has been answered and sent:
    ///    `MHD_stop_daemon` closes the connections it finds without serving them, so a resumed
    ///    connection whose 503 is not out yet would see its connection close instead.
    /// 5. `MHD_stop_daemon` closes what is left and joins libmicrohttpd's threads.
    ///
    /// `stoppingReply` should be a 503 (RFC 9110 §15.6.4); the server adds `Connection: close`.
    /// Must not be called from inside the handler: stopping joins the handler's thread.
    public func stop(
        drainTimeout: Duration = .seconds(5), idleGrace: Duration = .seconds(1),
        stoppingReply: HTTPResponse = defaultStoppingReply, beforeAnswering: () -> Void = {}
    ) {
        daemon.withLock { handle in
            guard let current = handle else { return }
            handle = nil
            context.stoppingReply.withLock { $0 = stoppingReply }
            context.closing.store(true, ordering: .releasing)
            let clock = ContinuousClock()
            let began = monotonicMilliseconds()
            let deadline = clock.now.advanced(by: drainTimeout)
            let listenSocket = MHD_quiesce_daemon(current.raw)
            if listenSocket >= 0 {
                adoptBacklog(listenSocket, daemon: current.raw)
                // SHUT_RD makes a listening socket stop listening (on Linux): later connection
                // attempts are refused. The descriptor stays open until MHD_stop_daemon has
                // joined every thread, because a pool thread that saw the socket readable just
                // before the quiesce may still call accept on it: libmicrohttpd asks that the
                // socket MHD_quiesce_daemon returns not be closed while its threads may use it.
                _ = shutdown(listenSocket, Int32(SHUT_RD))
            }
            let grace = Self.milliseconds(idleGrace)
            while !context.deadlines.allClosed, clock.now < deadline {
                // Idle since the later of the stop's start and its previous reply: each
                // connection gets `idleGrace` after the stop to send a request.
                let cutoff = monotonicMilliseconds() - grace
                if cutoff >= began { context.deadlines.closeIdle(since: cutoff) }
                usleep(2_000)
            }
            context.deadlines.stop()
            beforeAnswering()
            // Replies still pending get the stopping reply and every suspended connection is
            // resumed: MHD_stop_daemon must find none suspended (libmicrohttpd manual, "Suspend"). From here
            // on a handler's deferred reply is answered at once instead of suspending.
            context.resumeAll(with: stoppingReply)
            // libmicrohttpd serves a resumed connection only on its pool thread's next turn,
            // and once MHD_stop_daemon has set its shutdown flag no thread takes another turn:
            // each worker leaves its loop, resumes what is pending and closes every connection
            // unserved (daemon.c, MHD_polling_thread and close_all_connections; and
            // MHD_queue_response then queues nothing). So wait, bounded, until no connection
            // has a whole request in and its reply unsent: those 503s are sent, and so is the
            // one a handler that was still running during resumeAll queues itself. Always, not
            // only when resumeAll found a pending reply: such a handler's reply is not in the
            // table yet. A request whose head or body is still arriving past the drain has no
            // reply coming and does not hold the stop up.
            let sent = clock.now.advanced(by: Self.stopReplyTimeout)
            while context.deadlines.anyAnswering, clock.now < sent { usleep(1_000) }
            MHD_stop_daemon(current.raw)
            if listenSocket >= 0 {
                close(listenSocket)
            }
            // Only now are no callbacks left that could read these (libmicrohttpd's manual).
            current.log.deallocate()
            current.context.release()
        }
    }

    /// What a request gets when the server is stopping and ``stop(drainTimeout:idleGrace:stoppingReply:beforeAnswering:)``
    /// was given no reply of the handler's own: a 503 problem (RFC 9110 §15.6.4, RFC 9457).
    public static let defaultStoppingReply = transportProblem(
        503, "Service Unavailable", "The server is stopping and did not handle this request; send it again to a running server.")

    /// Accepts every connection waiting in the kernel's backlog of the quiesced `listenSocket`
    /// and hands it to libmicrohttpd, which serves it like any other (its request is answered
    /// 503, as the server is stopping). Closing the socket instead would reset those clients,
    /// which believe they are connected and may have sent a request already.
    private func adoptBacklog(_ listenSocket: Int32, daemon raw: OpaquePointer) {
        let flags = fcntl(listenSocket, F_GETFL)
        if flags >= 0, flags & O_NONBLOCK == 0 { _ = fcntl(listenSocket, F_SETFL, flags | O_NONBLOCK) }
        while true {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            // accept, not accept4 (which Glibc's Swift module does not export): libmicrohttpd
            // makes the socket non-blocking itself, and close-on-exec is set at once.
            let fd = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listenSocket, $0, &length) }
            }
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return  // EAGAIN: the backlog is empty
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            context.deadlines.adopt(fd)
            let added = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(raw, fd, $0, length) }
            }
            // On failure libmicrohttpd has closed the socket itself (its MHD_add_connection contract).
            if added != .YES { context.deadlines.abandon(fd) }
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let parts = duration.components
        return parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000
    }

    /// How long ``stop(drainTimeout:idleGrace:stoppingReply:beforeAnswering:)`` waits, after
    /// answering pending deferred replies, for the requests in flight to be sent.
    public static let stopReplyTimeout: Duration = .seconds(5)

    deinit {
        stop(drainTimeout: .zero)
    }

    /// Connections closed so far because their header section (or whole request) missed its
    /// deadline (``HTTPServerConfiguration/headerTimeoutSeconds``, ``HTTPServerConfiguration/requestTimeoutSeconds``).
    public var connectionsClosedLate: Int { context.deadlines.reaped.load(ordering: .relaxed) }

    /// Connections suspended now, waiting for a ``DeferredResponse``.
    public var suspendedConnections: Int { context.suspendedCount }
    /// Reply bodies libmicrohttpd still holds (sent from the reply's own bytes, not copied).
    var lentResponseBodies: Int { context.lentBodies.load(ordering: .relaxed) }
    /// This server's request states not yet released; 0 after ``stop(drainTimeout:idleGrace:stoppingReply:beforeAnswering:)``.
    var liveRequestStates: Int { context.liveRequestStates.load(ordering: .relaxed) }
}

/// The process's file-descriptor limit (`RLIMIT_NOFILE`), which bounds the connections a
/// server can hold.
public enum FileDescriptors {
    /// Descriptors kept free for everything but connections: the listening socket, epoll and
    /// inter-thread channels of each pool thread, SQLite's files, logs.
    public static let reserve: UInt32 = 64

    /// The current soft limit; `UInt32.max` when unlimited.
    public static var softLimit: UInt32 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return limit.rlim_cur == rlim_t.max ? .max : UInt32(clamping: limit.rlim_cur)  // RLIM_INFINITY
    }

    /// Raises the soft limit to the hard one (a process may do so unprivileged), so the
    /// connection limit need not be lowered. Returns the soft limit now in force.
    @discardableResult
    public static func raiseSoftLimit() -> UInt32 {
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return softLimit
    }

    /// `wanted`, lowered to stay ``reserve`` below the soft limit.
    static func connectionLimit(_ wanted: UInt32) -> UInt32 {
        let soft = softLimit
        let room = soft > reserve ? soft - reserve : 0
        return min(wanted, room)
    }
}

/// The C-side resources of one running daemon.
///
/// `@unchecked Sendable` because it holds raw pointers. Safe because: the values are
/// immutable; the daemon pointer is only passed to libmicrohttpd functions that are
/// thread-safe for a running daemon (`MHD_quiesce_daemon`, `MHD_stop_daemon`), and only under
/// `HTTPServer.daemon`'s lock, which also ensures stop runs once; `log` is touched by Swift only
/// on the thread that started the daemon and freed after `MHD_stop_daemon` has joined every
/// thread that could log; `context` is a +1 reference released at the same point.
struct DaemonHandle: @unchecked Sendable {
    let raw: OpaquePointer
    let log: UnsafeMutablePointer<mhd_shim_log>
    let context: Unmanaged<ServerContext>
}

/// How the server listens and what it bounds. Most fields map to one libmicrohttpd option; the
/// body limits and deadlines are enforced by `HTTPServer` itself (libmicrohttpd has neither).
public struct HTTPServerConfiguration: Sendable {
    /// 1 MiB: the body limit when nothing else is configured.
    public static let defaultMaxBodyBytes = 1 << 20

    /// IPv4 literal to bind (`"0.0.0.0"` for all interfaces), bound through `MHD_OPTION_SOCK_ADDR`.
    public var host: String
    /// TCP port; 0 asks for an ephemeral one, read it back from `HTTPServer.port`.
    public var port: UInt16
    /// Threads of the epoll pool (`MHD_OPTION_THREAD_POOL_SIZE`); 1 means a single polling thread.
    /// Handlers block their thread, so size it above the core count when they wait on I/O
    /// (pool 8 kept cheap requests fast beside fsync-ing writers, pool 2 did not).
    public var threadPoolSize: Int
    /// Largest accepted body in bytes for a media type not in ``maxBodyBytesByMediaType``;
    /// larger ones reach the handler with `bodyTooLarge`.
    public var maxBodyBytes: Int
    /// Body limits in bytes per media type (lower-case, no parameters: `"application/xml"`),
    /// overriding ``maxBodyBytes`` for bodies of that `Content-Type`.
    public var maxBodyBytesByMediaType: [String: Int]
    /// Bytes of an oversized (or screened-out) body the server reads and throws away so that the
    /// client, which is still sending, can read the error reply; beyond it, or when the client
    /// sent `Expect: 100-continue`, the reply goes out at once and the connection closes.
    public var maxDiscardBytes: Int
    /// Seconds a connection may stay idle before it is closed (`MHD_OPTION_CONNECTION_TIMEOUT`);
    /// 0 = never. libmicrohttpd restarts it on every byte, so it does not stop slow senders:
    /// ``headerTimeoutSeconds`` does.
    public var connectionTimeoutSeconds: UInt32
    /// Seconds from a connection's start (or its previous request's end) until the request's
    /// header section must be complete; a connection that misses it is closed (slowloris).
    /// 0 = no deadline. Also bounds how long an idle keep-alive connection is kept.
    public var headerTimeoutSeconds: UInt32
    /// Seconds from the same start until the whole request, body included, must have arrived;
    /// 0 = no deadline.
    public var requestTimeoutSeconds: UInt32
    /// Concurrent connections (`MHD_OPTION_CONNECTION_LIMIT`); libmicrohttpd splits it evenly
    /// over the pool threads and closes connections over a thread's share at once. The server
    /// lowers it to stay below the file-descriptor limit (``HTTPServer/connectionLimit``).
    public var connectionLimit: UInt32
    /// Concurrent connections from one IP address (`MHD_OPTION_PER_IP_CONNECTION_LIMIT`);
    /// further ones are accepted and closed at once. 0 = no limit.
    public var perIPConnectionLimit: UInt32
    /// Bytes per connection for headers and buffers (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`);
    /// request headers that do not fit are answered 431/414 by libmicrohttpd. Bodies are not
    /// held there (the server copies each chunk out), so this bounds the header section only.
    /// The default is 16 KiB, not 64: libmicrohttpd 0.9.75 zeroes the whole pool, and half of it
    /// again, after every request on a keep-alive connection (`MHD_pool_reset`), a cost paid
    /// on every request in proportion to the pool's size.
    /// A header section of up to about 16 KiB still fits (a 16,000-byte field did, a 20,000-byte
    /// one is 431); nginx's default, for one, is 8 KiB per header line.
    public var connectionMemoryLimit: Int
    /// A socket already bound and listening (``ListeningSocket/open(host:port:)``), served
    /// instead of binding ``host`` and ``port``; the server closes it when it stops. nil: bind.
    public var listeningSocket: ListeningSocket?

    public init(
        host: String = "127.0.0.1", port: UInt16 = 8080, threadPoolSize: Int = 8,
        maxBodyBytes: Int = Self.defaultMaxBodyBytes, maxBodyBytesByMediaType: [String: Int] = [:],
        maxDiscardBytes: Int = 64 << 20, connectionTimeoutSeconds: UInt32 = 30,
        headerTimeoutSeconds: UInt32 = 10, requestTimeoutSeconds: UInt32 = 120,
        connectionLimit: UInt32 = 4096, perIPConnectionLimit: UInt32 = 0,
        connectionMemoryLimit: Int = 16 * 1024, listeningSocket: ListeningSocket? = nil
    ) {
        self.host = host
        self.port = port
        self.threadPoolSize = threadPoolSize
        self.maxBodyBytes = maxBodyBytes
        self.maxBodyBytesByMediaType = maxBodyBytesByMediaType
        self.maxDiscardBytes = maxDiscardBytes
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.headerTimeoutSeconds = headerTimeoutSeconds
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.connectionLimit = connectionLimit
        self.perIPConnectionLimit = perIPConnectionLimit
        self.connectionMemoryLimit = connectionMemoryLimit
        self.listeningSocket = listeningSocket
    }

    /// The body limit for a `Content-Type` value (any case, parameters ignored); `nil` means
    /// no body type was given, which gets ``maxBodyBytes``.
    public func maxBodyBytes(for contentType: String?) -> Int {
        guard let contentType else { return maxBodyBytes }
        return maxBodyBytesByMediaType[HTTPHeaders.mediaType(contentType)] ?? maxBodyBytes
    }
}

/// Why an `HTTPServer` could not start.
public struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A configuration value is unusable (non-IPv4 host, negative limit, ...); nothing was started.
        case invalidConfiguration
        /// `MHD_start_daemon` failed; `message` carries libmicrohttpd's reason (e.g. the bind error).
        case startFailed
    }

    public var kind: Kind
    public var message: String

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

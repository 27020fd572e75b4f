/// How the server listens and what it bounds. Every field maps to one libmicrohttpd option.
public struct HTTPServerConfiguration: Sendable {
    /// IPv4 literal to bind (`"0.0.0.0"` for all interfaces), bound through `MHD_OPTION_SOCK_ADDR`.
    public var host: String
    /// TCP port; 0 asks for an ephemeral one, read it back from `HTTPServer.port`.
    public var port: UInt16
    /// Threads of the epoll pool (`MHD_OPTION_THREAD_POOL_SIZE`); 1 means a single polling thread.
    /// Handlers block their thread, so size it above the core count when they wait on I/O
    /// (ENGINEERING.md §1.2: pool 8 kept cheap requests fast beside fsync-ing writers, pool 2 did not).
    public var threadPoolSize: Int
    /// Largest accepted body in bytes; larger ones reach the handler with `bodyTooLarge`.
    /// libmicrohttpd has no body limit of its own.
    public var maxBodyBytes: Int
    /// Seconds a connection may stay idle before it is closed (`MHD_OPTION_CONNECTION_TIMEOUT`);
    /// 0 = never, which lets idle keep-alive clients hold slots forever.
    public var connectionTimeoutSeconds: UInt32
    /// Concurrent connections (`MHD_OPTION_CONNECTION_LIMIT`); libmicrohttpd splits it evenly
    /// over the pool threads and closes connections over a thread's share at once.
    public var connectionLimit: UInt32
    /// Bytes per connection for headers and buffers (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`);
    /// request headers that do not fit are answered 431/414 by libmicrohttpd.
    public var connectionMemoryLimit: Int

    public init(host: String = "127.0.0.1", port: UInt16 = 8080, threadPoolSize: Int = 8,
                maxBodyBytes: Int = 1 << 20, connectionTimeoutSeconds: UInt32 = 30,
                connectionLimit: UInt32 = 1024, connectionMemoryLimit: Int = 64 * 1024) {
        self.host = host
        self.port = port
        self.threadPoolSize = threadPoolSize
        self.maxBodyBytes = maxBodyBytes
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.connectionLimit = connectionLimit
        self.connectionMemoryLimit = connectionMemoryLimit
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

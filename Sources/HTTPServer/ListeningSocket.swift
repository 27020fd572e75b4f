#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP socket bound to an IPv4 address and listening, made before the server starts and handed
/// to it (``HTTPServerConfiguration/listeningSocket``, libmicrohttpd's `MHD_OPTION_LISTEN_SOCKET`).
/// Binding first lets a program find a port that is taken before it does slow or lasting work
/// (opening and migrating a database); connections that arrive in between wait in the backlog.
public struct ListeningSocket: Sendable {
    /// The socket's file descriptor (close-on-exec, non-blocking, as libmicrohttpd makes its own).
    public let descriptor: Int32
    public let host: String
    /// The port bound: the one asked for, or the one the kernel chose for 0.
    public let port: UInt16

    /// Binds `host:port` (`SO_REUSEADDR`, as libmicrohttpd sets on the sockets it binds itself)
    /// and listens with the system's largest backlog.
    /// - Throws: `HTTPServerError` `.invalidConfiguration` when `host` is not an IPv4 literal;
    ///   `.startFailed` with the system's reason ("cannot listen on 127.0.0.1:8080: Address
    ///   already in use").
    public static func open(host: String, port: UInt16) throws(HTTPServerError) -> ListeningSocket {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw HTTPServerError(
                kind: .invalidConfiguration,
                message: "host must be an IPv4 address literal such as 127.0.0.1 or 0.0.0.0, got \"\(host)\"")
        }
        func failure(_ step: String) -> HTTPServerError {
            HTTPServerError(kind: .startFailed, message: "cannot listen on \(host):\(port): \(step)\(String(cString: strerror(errno)))")
        }
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw failure("socket: ") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 }
        }
        guard bound else {
            let error = failure("")
            close(fd)
            throw error
        }
        guard listen(fd, SOMAXCONN) == 0 else {
            let error = failure("listen: ")
            close(fd)
            throw error
        }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        return ListeningSocket(descriptor: fd, host: host, port: named ? UInt16(bigEndian: address.sin_port) : port)
    }
}

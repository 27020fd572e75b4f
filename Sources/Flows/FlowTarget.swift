import Foundation
#if canImport(Glibc)
import Glibc
#endif
public import HTTPServer
public import NavSimService
import SQLiteStore

/// Where a flow's requests go: something that answers one HTTP request at a time.
public protocol FlowTarget: Sendable {
    /// Sends `request` (its `path` may carry a `?query`, percent-encoded as written) and waits for the reply.
    /// - Throws: `FlowTargetError` when no reply came (connection refused, timeout).
    func send(_ request: HTTPRequest) throws(FlowTargetError) -> HTTPResponse
}

/// No reply: what went wrong on the way.
public struct FlowTargetError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// - Parameter message: what went wrong, for the failure line.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A navsim in this process, on a database of its own in a fresh temporary folder that goes away
/// with the target: nothing listens on a socket, requests go straight to `NavSimService.handle`.
public final class InProcessTarget: FlowTarget {
    /// The service requests go to (a test can inspect it).
    public let service: NavSimService
    let folder: URL

    /// Opens a new service on an empty database migrated from `migrationsDirectory`.
    /// - Throws: the store's error when the database cannot be created or migrated.
    public init(migrationsDirectory: String) throws {
        let fm = FileManager.default
        folder = fm.temporaryDirectory.appendingPathComponent("navsim-flow-\(UUID().uuidString)")
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            let store = try SessionStore(
                path: folder.appendingPathComponent("navsim.sqlite").path,
                migrationsDirectory: migrationsDirectory)
            service = try NavSimService(store: store, openAPI: Array("openapi: 3.1.0\n".utf8))
        } catch {
            try? fm.removeItem(at: folder)
            throw error
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Answers through `NavSimService.handle`, after splitting and decoding the query as the HTTP server would.
    public func send(_ request: HTTPRequest) throws(FlowTargetError) -> HTTPResponse {
        var r = request
        let (path, query) = Self.split(request.path)
        r.path = path
        r.query = query
        return service.handle(r)
    }

    /// Path and query the way the HTTP server hands them over: both percent-decoded, `+` in the
    /// query read as a space, the last of a repeated name winning.
    static func split(_ target: String) -> (String, [String: String]) {
        guard let q = target.firstIndex(of: "?") else { return (target.removingPercentEncoding ?? target, [:]) }
        let path = String(target[..<q])
        var query: [String: String] = [:]
        for pair in target[target.index(after: q)...].split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String {
                let spaced = s.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            query[decode(kv[0])] = kv.count > 1 ? decode(kv[1]) : ""
        }
        return (path.removingPercentEncoding ?? path, query)
    }
}

/// A running navsim at `base` (`http://127.0.0.1:8080`, optionally with a path prefix), spoken
/// to over HTTP/1.1 on a plain blocking socket: one connection per request, `Connection: close`,
/// the reply read to the end and de-chunked when it is chunked (RFC 9112 §7.1). `https` is not
/// supported; put a TLS-terminating proxy's plain side, or the server itself, in `--base`.
///
/// Not URLSession: on Linux it is FoundationNetworking, which links libcurl into the whole navsim
/// binary (the server too) and needs libcurl's development files for a static build.
public final class HTTPTarget: FlowTarget {
    /// The server's URL without a trailing `/`.
    public let base: String
    let host: String?
    let port: UInt16
    let prefix: String
    let timeout: Double

    /// - Parameter timeout: seconds to wait for the connection, each write and each read.
    public init(base: String, timeout: Double = 30) {
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
        self.timeout = min(max(timeout, 0.001), 86_400)
        let url = URL(string: self.base)
        let port = url?.port ?? 80
        host = url?.scheme == "http" && (1...65_535).contains(port) ? url?.host : nil
        self.port = UInt16(clamping: port)
        prefix = url?.path ?? ""
    }

    /// Sends `request` to `base + request.path` and blocks until the whole reply has come.
    /// - Throws: `FlowTargetError` naming the server when it cannot be reached, stops answering
    ///   within the timeout, or answers something that is not HTTP/1.x.
    public func send(_ request: HTTPRequest) throws(FlowTargetError) -> HTTPResponse {
        guard let host else { throw FlowTargetError("--base must be an http:// URL with a host (and a port 1…65535), got \(base)") }
        var head = "\(request.method) \(prefix)\(request.path) HTTP/1.1\r\nHost: \(host.contains(":") ? "[\(host)]" : host):\(port)\r\n"
        for (name, value) in request.headers.pairs {
            let lower = name.lowercased()
            if lower == "host" || lower == "content-length" || lower == "connection" { continue }
            guard !name.contains(where: { $0 == "\r" || $0 == "\n" || $0 == ":" }), !value.contains(where: { $0 == "\r" || $0 == "\n" }) else {
                throw FlowTargetError("header \(name) holds a line break")
            }
            head += "\(name): \(value)\r\n"
        }
        if !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method) {
            head += "Content-Length: \(request.body.count)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        let socket = try Socket(host: host, port: port, timeout: timeout, base: base)
        defer { socket.close() }
        try socket.write(Array(head.utf8) + request.body)
        let bytes = try socket.readToEnd()
        return try Self.parse(bytes, method: request.method, base: base)
    }

    /// A whole HTTP/1.x reply: status line, header fields, body (de-chunked; none for HEAD, 204, 304).
    static func parse(_ bytes: [UInt8], method: String, base: String) throws(FlowTargetError) -> HTTPResponse {
        let crlf2: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: crlf2) }) else {
            throw FlowTargetError(bytes.isEmpty ? "no reply from \(base): the connection closed" : "the reply from \(base) has no complete header")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw FlowTargetError("not an HTTP/1.x reply from \(base): \(lines[0].prefix(100))")
        }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Array(bytes[(end + 4)...])
        if method == "HEAD" || status == 204 || status == 304 {
            body = []
        } else if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            body = try dechunk(body, base: base)
        } else if let length = headers["content-length"].flatMap({ Int($0) }), length <= body.count {
            body = Array(body.prefix(length))
        }
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// RFC 9112 §7.1: size line (hex, extensions ignored), data, CRLF, …, a zero-size chunk.
    static func dechunk(_ bytes: [UInt8], base: String) throws(FlowTargetError) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while true {
            guard let lineEnd = bytes[i...].indices.first(where: { bytes[$0] == 13 && $0 + 1 < bytes.count && bytes[$0 + 1] == 10 }) else {
                throw FlowTargetError("a truncated chunked reply from \(base)")
            }
            let sizeText = String(decoding: bytes[i..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                throw FlowTargetError("a bad chunk size from \(base)")
            }
            i = lineEnd + 2
            if size == 0 { return out }
            guard size <= bytes.count - i else { throw FlowTargetError("a truncated chunked reply from \(base)") }
            out += bytes[i..<(i + size)]
            i += size + 2
            guard i <= bytes.count else { throw FlowTargetError("a truncated chunked reply from \(base)") }
        }
    }
}

/// One blocking TCP connection with send and receive timeouts (which on Linux bound `connect` too).
struct Socket {
    let fd: Int32
    let base: String

    init(host: String, port: UInt16, timeout: Double, base: String) throws(FlowTargetError) {
        self.base = base
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &found)
        guard rc == 0, let first = found else {
            throw FlowTargetError("no reply from \(base): cannot resolve \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(first) }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        var lastError: Int32 = 0
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let ai = next {
            next = ai.pointee.ai_next
            let fd = Glibc.socket(ai.pointee.ai_family, ai.pointee.ai_socktype, ai.pointee.ai_protocol)
            guard fd >= 0 else { lastError = errno; continue }
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            if connect(fd, ai.pointee.ai_addr, ai.pointee.ai_addrlen) == 0 {
                self.fd = fd
                return
            }
            lastError = errno
            Glibc.close(fd)
        }
        throw FlowTargetError("no reply from \(base): \(String(cString: strerror(lastError)))")
    }

    func write(_ bytes: [UInt8]) throws(FlowTargetError) {
        var sent = 0
        while sent < bytes.count {
            // MSG_NOSIGNAL: a server that hung up is an error here, not a SIGPIPE that ends navsim.
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw FlowTargetError("no reply from \(base): sending failed: \(String(cString: strerror(errno)))") }
            sent += n
        }
    }

    func readToEnd() throws(FlowTargetError) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return out }
            if n < 0 {
                if errno == EINTR { continue }
                let timedOut = errno == EAGAIN || errno == EWOULDBLOCK
                throw FlowTargetError("no reply from \(base): " + (timedOut ? "no answer within the timeout" : String(cString: strerror(errno))))
            }
            out += buffer[..<n]
        }
    }

    func close() { Glibc.close(fd) }
}

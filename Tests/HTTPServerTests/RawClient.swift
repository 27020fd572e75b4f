import Glibc

struct ClientError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

struct RawResponse {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A tiny blocking HTTP/1.1 client on a raw TCP socket, so tests see exactly what goes on the
/// wire (keep-alive, closes) with no client library in between.
final class RawClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host` (an IPv4 literal), 127.0.0.1 unless given.
    init(port: UInt16, host: String = "127.0.0.1") throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError("socket: errno \(errno)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)  // a hung server fails the test, not CI
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = Self.connect(fd, port, host)
        guard result == 0 else {
            close(fd)
            throw ClientError("connect: errno \(result)")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// 0 on success, else errno.
    private static func connect(_ fd: Int32, _ port: UInt16, _ host: String) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return EINVAL }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return rc == 0 ? 0 : errno
    }

    /// errno of a fresh connection attempt to `host`:`port`, or 0 if it connected.
    static func connectError(port: UInt16, host: String = "127.0.0.1") -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        // A full backlog drops the SYN and connect would retry for minutes: give up after 1 s.
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return connect(fd, port, host)
    }

    /// Waits, up to 10 s, until a connection attempt to `host`:`port` is refused; false if it
    /// never was (the attempts that connect are closed at once).
    static func waitUntilRefused(port: UInt16, host: String) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(10))
        while clock.now < deadline {
            if connectError(port: port, host: host) == ECONNREFUSED { return true }
            usleep(1_000)
        }
        return false
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw ClientError("send: errno \(errno)") }
            offset += n
        }
    }

    /// Sends a request with `Content-Length` (when there is a body) and reads the reply.
    func request(
        _ method: String, _ target: String, headers: [(String, String)] = [],
        body: [UInt8] = []
    ) throws -> RawResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        try send(Array((head + "\r\n").utf8) + body)
        return try readResponse()
    }

    /// Reads more bytes into the buffer; false at end of stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n == 0 { return false }
        if n < 0 {
            if errno == ECONNRESET { return false }
            throw ClientError("recv: errno \(errno)")
        }
        buffer.append(contentsOf: chunk[..<n])
        return true
    }

    func readResponse() throws -> RawResponse {
        var headEnd: Int?
        while true {
            if let end = findHeadEnd() { headEnd = end; break }
            guard try fill() else { throw ClientError("connection closed before a response head") }
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + 4)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw ClientError("bad status line in \(head)")
        }
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                String(line[..<colon]),
                String(line[line.index(after: colon)...]).trimmingCharacters(in: " ")
            )
        }
        var response = RawResponse(status: status, headers: headers, body: [])
        let length = response.header("Content-Length").flatMap { Int($0) } ?? 0
        while buffer.count < length {
            guard try fill() else { throw ClientError("connection closed inside a body") }
        }
        response.body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return response
    }

    /// True when the server closes the connection (reads end of stream) before 10 s.
    func serverClosed() throws -> Bool {
        while try fill() { buffer.removeAll() }
        return true
    }

    private func findHeadEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4)
        where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import HTTPServer
import JSONValues
import NavSimService
import Synchronization

/// Log lines on stderr, one JSON object each, so that log shippers read them as they are:
/// `{"time": RFC 3339 UTC, "message": …, …}`. JSON escaping also keeps client text (paths,
/// ids) from forging or splitting lines.
enum Log {
    static func event(_ message: String, _ fields: [(String, JSON)] = []) {
        write([("time", .string(RFC3339.now())), ("message", .string(message))] + fields)
    }

    /// Writes an event line at once, after every request line queued before it.
    static func write(_ members: [(String, JSON)]) {
        var bytes = JSON.object(members).bytes
        bytes.append(UInt8(ascii: "\n"))
        LogSink.shared.append(bytes)
        LogSink.shared.flush()
    }

    /// Writes one whole line to stderr with `write(2)`: one call per line (a line shorter than
    /// `PIPE_BUF` is never interleaved with another thread's on a pipe), repeated only for what a
    /// short write left. A failed write drops the line: logging never stops a request.
    static func emit(_ line: [UInt8]) {
        line.withUnsafeBytes { raw in
            guard var base = raw.baseAddress else { return }
            var left = raw.count
            while left > 0 {
                let n = Glibc.write(2, base, left)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                left -= n
                base += n
            }
        }
    }
}

/// One log line per request (method, path, query, client, status, duration, bytes, request id)
/// and the `X-Request-Id` header on every reply: the client's own id when it sent a usable one,
/// else a fresh one (``RequestIDs`` in HTTPServer: unique across instances), so a client can quote
/// it and an operator can find the line. The client is the connection's peer, or, behind a
/// proxy of `--trusted-proxies`, the address its `X-Forwarded-For` names (``TrustedProxies``).
struct RequestLog: Sendable {
    let trustedProxies: TrustedProxies

    func wrapping(_ handle: @escaping HTTPHandler) -> HTTPHandler {
        { request in
            let started = Self.monotonicNanoseconds()
            let id = Self.clientID(request.headers["x-request-id"]) ?? RequestIDs.next()
            var response = handle(request)
            // A deferred reply (a mutation waiting for its commit) is logged when it is sent.
            if let deferred = response.deferred {
                deferred.finishing { reply in
                    reply.headers.add("X-Request-Id", id)
                    write(request, reply, id: id, since: started)
                }
                return response
            }
            response.headers.add("X-Request-Id", id)
            write(request, response, id: id, since: started)
            return response
        }
    }

    /// The same for a screen: a request it refuses (401 before the body is read) is logged and
    /// answered with an `X-Request-Id` like any other.
    func screening(_ screen: @escaping HTTPScreen) -> HTTPScreen {
        { request in
            let started = Self.monotonicNanoseconds()
            guard let response = screen(request) else { return nil }
            return refused(request, response, since: started)
        }
    }

    /// The same for the replies the server makes itself (an ``HTTPRefusalHook``: 400 or 501
    /// `about:blank` for bad framing): logged and answered with an `X-Request-Id` like any other.
    func refused(_ request: HTTPRequest, _ response: HTTPResponse) -> HTTPResponse {
        refused(request, response, since: Self.monotonicNanoseconds())
    }

    private func refused(_ request: HTTPRequest, _ response: HTTPResponse, since started: Int64) -> HTTPResponse {
        var response = response
        let id = Self.clientID(request.headers["x-request-id"]) ?? RequestIDs.next()
        response.headers.add("X-Request-Id", id)
        write(request, response, id: id, since: started)
        return response
    }

    /// One line: method, path and query as sent, client, status, duration, bytes, id. Never a
    /// header value as sent (tokens); the client from `X-Forwarded-For` is a checked address.
    private func write(_ request: HTTPRequest, _ response: HTTPResponse, id: String, since started: Int64) {
        let micros = (Self.monotonicNanoseconds() - started) / 1000
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        // The header is looked at only when a trusted proxy is configured (none by default).
        let client =
            trustedProxies.isEmpty
            ? request.peerAddress
            : trustedProxies.client(peer: request.peerAddress, forwardedFor: request.headers.values(for: "x-forwarded-for"))
        Self.withLine(
            method: request.method, path: request.path, query: request.rawQuery, client: client ?? "",
            status: response.status, microseconds: micros, bytes: response.body.count, id: id,
            seconds: Int(now.tv_sec), milliseconds: Int(now.tv_nsec) / 1_000_000
        ) { LogSink.shared.append($0) }
    }

    /// Builds the line `write` logs, newline included, in a buffer on the stack (no
    /// heap array or string per request or per field) and hands it to `body` for the call only:
    /// the members `time` (RFC 3339 UTC with milliseconds, from `seconds` since 1970 and
    /// `milliseconds`), `method`, `path`, `query` (only when not empty), `client` (only when
    /// known), `status`, `durationMs` (milliseconds with up to three decimals, from
    /// `microseconds`), `bytes` and `requestId`, in that order, strings escaped as
    /// ``JSON/writeString(_:into:)`` escapes them (RFC 8259 §7).
    static func withLine<T>(
        method: String, path: String, query: String = "", client: String = "", status: Int,
        microseconds: Int64, bytes: Int, id: String,
        seconds: Int, milliseconds: Int, _ body: (UnsafeRawBufferPointer) -> T
    ) -> T {
        // The fixed text and numbers take under 250 bytes; an escaped byte at most 6.
        let room = 256 + 6 * (method.utf8.count + path.utf8.count + query.utf8.count + client.utf8.count + id.utf8.count)
        return withUnsafeTemporaryAllocation(byteCount: room, alignment: 1) { buffer in
            var out = LineWriter(buffer)
            out.append(#"{"time":""#)
            out.time(seconds: seconds, milliseconds: milliseconds)
            out.append(#"","method":"#)
            out.string(method)
            out.append(#","path":"#)
            out.string(path)
            if !query.isEmpty {
                out.append(#","query":"#)
                out.string(query)
            }
            if !client.isEmpty {
                out.append(#","client":"#)
                out.string(client)
            }
            out.append(#","status":"#)
            out.integer(Int64(status))
            out.append(#","durationMs":"#)
            let us = max(0, microseconds)
            out.integer(us / 1000)
            var fraction = us % 1000
            if fraction != 0 {
                // The shortest decimal of the milliseconds, as JSON numbers print them: 1.5, not 1.500.
                out.byte(UInt8(ascii: "."))
                var place: Int64 = 100
                while fraction > 0 {
                    out.byte(UInt8(ascii: "0") + UInt8(fraction / place))
                    fraction %= place
                    place /= 10
                }
            }
            out.append(#","bytes":"#)
            out.integer(Int64(bytes))
            out.append(#","requestId":"#)
            out.string(id)
            out.append("}\n")
            return body(UnsafeRawBufferPointer(rebasing: buffer[..<out.count]))
        }
    }

    /// `CLOCK_MONOTONIC` in nanoseconds: a request's duration without `Duration`'s 128-bit arithmetic.
    static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// A client's id is kept when it is 1–128 visible ASCII characters (no spaces or controls,
    /// so it is safe in a header and a log line); anything else gets a fresh id instead.
    static func clientID(_ value: String?) -> String? {
        guard let value, (1...128).contains(value.utf8.count),
            value.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return nil }
        return value
    }
}

/// Writes one log line into a buffer sized for it by ``RequestLog/withLine``: plain stores,
/// no capacity checks or reference counting per byte as an `[UInt8]`'s `append` has.
private struct LineWriter {
    let buffer: UnsafeMutableRawBufferPointer
    private(set) var count = 0

    init(_ buffer: UnsafeMutableRawBufferPointer) { self.buffer = buffer }

    mutating func byte(_ value: UInt8) {
        buffer[count] = value
        count += 1
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { utf8 in
            UnsafeMutableRawBufferPointer(rebasing: buffer[count..<count + utf8.count]).copyMemory(from: UnsafeRawBufferPointer(utf8))
            count += utf8.count
        }
    }

    /// A JSON string (RFC 8259 §7), quotes included, escaped as ``JSON/writeString(_:into:)`` does:
    /// `"` and `\` with a backslash, LF, CR and tab by letter, other controls as `\u00XX`.
    mutating func string(_ text: String) {
        byte(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            for b in utf8 {
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): byte(92); byte(b)
                case 0x0A: byte(92); byte(UInt8(ascii: "n"))
                case 0x0D: byte(92); byte(UInt8(ascii: "r"))
                case 0x09: byte(92); byte(UInt8(ascii: "t"))
                case 0..<0x20:
                    byte(92); byte(UInt8(ascii: "u")); byte(48); byte(48)
                    byte(hexDigit(b >> 4)); byte(hexDigit(b & 15))
                default: byte(b)
                }
            }
        }
        byte(UInt8(ascii: "\""))
    }

    /// A whole number in decimal ASCII.
    mutating func integer(_ value: Int64) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        let v = value.magnitude
        var divisor: UInt64 = 1
        while divisor <= v / 10 { divisor *= 10 }
        while divisor > 0 {
            byte(UInt8(ascii: "0") + UInt8(v / divisor % 10))
            divisor /= 10
        }
    }

    /// `value` in `width` decimal digits, zero-padded.
    mutating func digits(_ value: Int, _ width: Int) {
        var v = value
        for i in stride(from: width - 1, through: 0, by: -1) {
            buffer[count + i] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
        }
        count += width
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for `seconds` since 1970 (UTC), as ``RFC3339`` writes it, from
    /// its calendar fields (``RFC3339/fields(seconds:)``), into the stack buffer.
    mutating func time(seconds: Int, milliseconds: Int) {
        let (year, month, day, hour, minute, second) = RFC3339.fields(seconds: seconds)
        digits(year, 4); byte(UInt8(ascii: "-")); digits(month, 2); byte(UInt8(ascii: "-")); digits(day, 2)
        byte(UInt8(ascii: "T"))
        digits(hour, 2); byte(UInt8(ascii: ":")); digits(minute, 2); byte(UInt8(ascii: ":"))
        digits(second, 2); byte(UInt8(ascii: ".")); digits(milliseconds, 3); byte(UInt8(ascii: "Z"))
    }

    private func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

/// Request lines go to stderr through one writer thread: a handler copies its line into a
/// buffer and goes on; the writer takes whatever has gathered and writes it with one `write(2)`.
/// Under load many lines share a call, and pool threads do not queue on the pipe's or file's
/// lock. The writer waits `gatherMicroseconds` after the first line of a batch, so a
/// line reaches stderr about that long after its reply. Lines keep their order, and each is
/// copied into the buffer whole, under its lock, so lines never interleave. The two buffers
/// (the one filling, the one being written) keep their capacity, so a steady load allocates
/// nothing. An event line (`Log.event`), `navsim serve`'s stop and the process's exit
/// (`atexit`) flush the buffer, so `stopping` follows every line before it and nothing queued
/// is lost on a normal exit or SIGTERM; a crash or SIGKILL may lose the lines of its last
/// `gatherMicroseconds`.
final class LogSink: Sendable {
    static let shared = LogSink()

    /// Bytes the writer has not taken yet; past `limit` new lines are counted and dropped
    /// (a stderr nobody reads must not grow the heap without bound).
    private let pending = Mutex<(bytes: [UInt8], dropped: Int)>(([], 0))
    /// Held while a batch is taken and written, so batches go out in the order they were taken;
    /// holds the buffer last written, emptied and swapped in for the next batch.
    private let writing = Mutex<[UInt8]>([])
    private let wake = DispatchSemaphore(value: 0)
    static let limit = 8 << 20
    /// How long the writer waits after the first line of a batch before writing it.
    static let gatherMicroseconds: UInt32 = 5_000

    private init() {
        Thread.detachNewThread { [self] in
            while true {
                wake.wait()
                // Let lines gather: one wake-up and one write(2) per batch, not per request
                // (at most `gather` late, and at most one signal per batch from `append`).
                usleep(Self.gatherMicroseconds)
                flush()
            }
        }
        atexit { LogSink.shared.flush() }
    }

    /// Queues one line (newline included); wakes the writer when the buffer was empty.
    func append(_ line: UnsafeRawBufferPointer) {
        let wasEmpty = pending.withLock { state -> Bool in
            guard state.bytes.count + line.count <= Self.limit else {
                state.dropped += 1
                return false
            }
            let empty = state.bytes.isEmpty
            state.bytes.append(contentsOf: line)
            return empty
        }
        if wasEmpty { wake.signal() }
    }

    /// Queues one line (newline included).
    func append(_ line: [UInt8]) {
        line.withUnsafeBytes { append($0) }
    }

    /// Writes everything queued so far, on the calling thread.
    func flush() {
        writing.withLock { batch in
            batch.removeAll(keepingCapacity: true)
            let dropped = pending.withLock { state -> Int in
                swap(&state.bytes, &batch)
                defer { state.dropped = 0 }
                return state.dropped
            }
            if !batch.isEmpty { Log.emit(batch) }
            if dropped > 0 {
                Log.emit(Array("{\"message\":\"log lines dropped: stderr is not being read\",\"dropped\":\(dropped)}\n".utf8))
            }
            // A burst's buffer is not kept for ever: past 1 MiB it goes (the next batch grows a new one).
            if batch.capacity > 1 << 20 { batch = [] }
        }
    }
}

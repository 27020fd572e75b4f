#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import HTTPServer
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

/// One log line per request (method, path, status, duration, bytes, request id) and the
/// `X-Request-Id` header on every reply: the client's own id when it sent a usable one,
/// else a fresh one, so a client can quote it and an operator can find the line.
enum RequestLog {
    static func wrapping(_ handle: @escaping HTTPHandler) -> HTTPHandler {
        { request in
            let started = ContinuousClock.now
            let id = clientID(request.headers["x-request-id"]) ?? freshID()
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
    static func screening(_ screen: @escaping HTTPScreen) -> HTTPScreen {
        { request in
            let started = ContinuousClock.now
            guard var response = screen(request) else { return nil }
            let id = clientID(request.headers["x-request-id"]) ?? freshID()
            response.headers.add("X-Request-Id", id)
            write(request, response, id: id, since: started)
            return response
        }
    }

    /// One line: method, path as sent, status, duration, bytes, id. Never a header value (tokens).
    private static func write(_ request: HTTPRequest, _ response: HTTPResponse, id: String, since started: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - started
        let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        LogSink.shared.append(line(method: request.method, path: request.path, status: response.status,
                                   microseconds: micros, bytes: response.body.count, id: id))
    }

    /// The line `write` logs, newline included, written byte by byte (issue 11: no JSON value
    /// tree and no formatter per request): the members `time`, `method`, `path`, `status`,
    /// `durationMs` (milliseconds with three decimals, from `microseconds`), `bytes` and
    /// `requestId`, in that order, strings escaped as `JSON` escapes them.
    static func line(method: String, path: String, status: Int, microseconds: Int64, bytes: Int, id: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128 + path.utf8.count)
        out.append(contentsOf: #"{"time":""#.utf8)
        RFC3339.writeNow(into: &out)
        out.append(contentsOf: #"","method":"#.utf8)
        JSON.writeString(method, into: &out)
        out.append(contentsOf: #","path":"#.utf8)
        JSON.writeString(path, into: &out)
        out.append(contentsOf: #","status":"#.utf8)
        writeInteger(Int64(status), into: &out)
        out.append(contentsOf: #","durationMs":"#.utf8)
        let us = max(0, microseconds)
        writeInteger(us / 1000, into: &out)
        let fraction = us % 1000
        if fraction != 0 {
            // The shortest decimal of the milliseconds, as JSON numbers print them: 1.5, not 1.500.
            out.append(UInt8(ascii: "."))
            var rest = fraction, place: Int64 = 100
            while rest > 0 {
                out.append(UInt8(ascii: "0") + UInt8(rest / place))
                rest %= place
                place /= 10
            }
        }
        out.append(contentsOf: #","bytes":"#.utf8)
        writeInteger(Int64(bytes), into: &out)
        out.append(contentsOf: #","requestId":"#.utf8)
        JSON.writeString(id, into: &out)
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    /// A whole number in decimal ASCII.
    private static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        let v = value.magnitude
        var divisor: UInt64 = 1
        while divisor <= v / 10 { divisor *= 10 }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(v / divisor % 10))
            divisor /= 10
        }
    }

    /// A client's id is kept when it is 1–128 visible ASCII characters (no spaces or controls,
    /// so it is safe in a header and a log line); anything else gets a fresh id instead.
    static func clientID(_ value: String?) -> String? {
        guard let value, (1...128).contains(value.utf8.count),
              value.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        return value
    }

    /// Fresh ids: a counter from a random start, through the SplitMix64 finaliser, a bijection of
    /// 64-bit values, so no two ids of one process repeat and they do not read as a sequence.
    /// One random draw per process instead of one `getrandom` call per request.
    private static let nextID = Atomic<UInt64>(UInt64.random(in: .min ... .max))
    private static let idSalt = UInt64.random(in: .min ... .max)

    /// 16 hex digits.
    static func freshID() -> String {
        var z = nextID.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue ^ idSalt
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return String(unsafeUninitializedCapacity: 16) { buffer in
            for i in 0..<16 {
                let nibble = UInt8(z & 0xF)
                buffer[15 - i] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
                z >>= 4
            }
            return 16
        }
    }
}

/// Request lines go to stderr through one writer thread: a handler appends its line to a buffer
/// and goes on; the writer takes whatever has gathered and writes it with one `write(2)`. Under
/// load many lines share a call, and pool threads no longer queue on the pipe's or file's lock
/// (issue 11: a GET loop spent 9% of its samples in that write, and twice raw libmicrohttpd's
/// context switches). The writer waits `gatherMicroseconds` after the first line of a batch, so
/// a line reaches stderr about 2 ms after its reply. Lines keep their order. An event line (`Log.event`) and the process's
/// exit (`atexit`) flush the buffer first, so `stopping` follows every line before it and
/// nothing queued is lost on a normal exit; a crash may lose the lines of its last moments.
final class LogSink: Sendable {
    static let shared = LogSink()

    /// Bytes the writer has not taken yet; past `limit` new lines are counted and dropped
    /// (a stderr nobody reads must not grow the heap without bound).
    private let pending = Mutex<(bytes: [UInt8], dropped: Int)>(([], 0))
    /// Held while a batch is taken and written, so batches go out in the order they were taken.
    private let writing = Mutex<Void>(())
    private let wake = DispatchSemaphore(value: 0)
    static let limit = 8 << 20
    /// How long the writer waits after the first line of a batch before writing it.
    static let gatherMicroseconds: UInt32 = 2_000

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
    func append(_ line: [UInt8]) {
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

    /// Writes everything queued so far, on the calling thread.
    func flush() {
        writing.withLock { _ in
            let (batch, dropped) = pending.withLock { state -> ([UInt8], Int) in
                defer { state = ([], 0) }
                return state
            }
            if !batch.isEmpty { Log.emit(batch) }
            if dropped > 0 {
                Log.emit(Array("{\"message\":\"log lines dropped: stderr is not being read\",\"dropped\":\(dropped)}\n".utf8))
            }
        }
    }
}

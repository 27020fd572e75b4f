import Foundation
import HTTPServer
import NavSimService

/// Log lines on stderr, one JSON object each, so that log shippers read them as they are:
/// `{"time": RFC 3339 UTC, "message": …, …}`. JSON escaping also keeps client text (paths,
/// ids) from forging or splitting lines.
enum Log {
    static func event(_ message: String, _ fields: [(String, JSON)] = []) {
        write([("time", .string(timestamp())), ("message", .string(message))] + fields)
    }

    static func write(_ members: [(String, JSON)]) {
        var bytes = JSON.object(members).bytes
        bytes.append(UInt8(ascii: "\n"))
        FileHandle.standardError.write(Data(bytes))
    }

    /// RFC 3339 with milliseconds, in UTC: `2026-12-01T09:30:00.123Z`.
    static func timestamp() -> String {
        Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
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
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        Log.write([("time", .string(Log.timestamp())), ("method", .string(request.method)),
                   ("path", .string(request.path)), ("status", .number(Double(response.status))),
                   ("durationMs", .number((seconds * 1e6).rounded() / 1e3)),
                   ("bytes", .number(Double(response.body.count))), ("requestId", .string(id))])
    }

    /// A client's id is kept when it is 1–128 visible ASCII characters (no spaces or controls,
    /// so it is safe in a header and a log line); anything else gets a fresh id instead.
    static func clientID(_ value: String?) -> String? {
        guard let value, (1...128).contains(value.utf8.count),
              value.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        return value
    }

    /// 16 random hex digits.
    static func freshID() -> String {
        let n = UInt64.random(in: .min ... .max)
        let hex = String(n, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

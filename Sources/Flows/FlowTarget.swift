import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPServer
import NavSimService
import Synchronization

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
            service = try NavSimService(databasePath: folder.appendingPathComponent("navsim.sqlite").path,
                                        migrationsDirectory: migrationsDirectory, openAPI: Array("openapi: 3.1.0\n".utf8))
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

/// A running navsim at `base` (`http://127.0.0.1:8080`), over HTTP/1.1 with Foundation's
/// URLSession (on Linux that is FoundationNetworking, which loads libcurl at run time).
public final class HTTPTarget: FlowTarget {
    /// The server's URL without a trailing `/`.
    public let base: String
    let session: URLSession
    let timeout: Double

    /// - Parameter timeout: seconds to wait for each reply.
    public init(base: String, timeout: Double = 30) {
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends `request` to `base + request.path` and blocks until the reply or the timeout.
    /// - Throws: `FlowTargetError` naming the URL when no HTTP reply came.
    public func send(_ request: HTTPRequest) throws(FlowTargetError) -> HTTPResponse {
        guard let url = URL(string: base + request.path) else { throw FlowTargetError("not a URL: \(base + request.path)") }
        var r = URLRequest(url: url, timeoutInterval: timeout)
        r.httpMethod = request.method
        for (name, value) in request.headers.pairs { r.addValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { r.httpBody = Data(request.body) }
        let done = DispatchSemaphore(value: 0)
        let box = ReplyBox()
        session.dataTask(with: r) { data, response, error in
            if let http = response as? HTTPURLResponse {
                var headers = HTTPHeaders()
                for (k, v) in http.allHeaderFields {
                    if let k = k as? String, let v = v as? String { headers.add(k, v) }
                }
                box.set(.success(HTTPResponse(status: http.statusCode, headers: headers, body: data.map { Array($0) } ?? [])))
            } else {
                box.set(.failure(FlowTargetError("no reply from \(url): \(error.map { "\($0.localizedDescription)" } ?? "not an HTTP response")")))
            }
            done.signal()
        }.resume()
        done.wait()
        return try box.get().get()
    }
}

/// Carries a URLSession completion's outcome back to the waiting thread.
final class ReplyBox: Sendable {
    private let state = Mutex<Result<HTTPResponse, FlowTargetError>>(.failure(FlowTargetError("no reply")))
    func set(_ r: Result<HTTPResponse, FlowTargetError>) { state.withLock { $0 = r } }
    func get() -> Result<HTTPResponse, FlowTargetError> { state.withLock { $0 } }
}

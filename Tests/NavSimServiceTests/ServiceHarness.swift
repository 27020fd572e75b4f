import Foundation
import HTTPServer
import JSONValues
import Testing

import NavSimService
import SQLiteStore

// MARK: - ServiceHarness (shared by the test files of this target)

/// Files of the checkout the tests read: the schema and the spec the service ships.
enum ServiceFiles {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // NavSimServiceTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository root
    static let migrations = root.appendingPathComponent("migrations").path
    static let openAPI = root.appendingPathComponent("openapi.yaml").path
}

/// One reply of `NavSimService.handle`, with its body parsed when it is JSON.
struct ServiceReply: CustomStringConvertible {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
    /// The parsed body, or `.null` when it is not JSON.
    var json: JSON { (try? JSON.parse(body)) ?? .null }
    subscript(key: String) -> JSON? { json[key] }
    /// The problem's slug: `type` without `/v1/problems/`.
    var slug: String? {
        guard let type = json["type"]?.string, type.hasPrefix("/v1/problems/") else { return nil }
        return String(type.dropFirst("/v1/problems/".count))
    }
    /// The `Allow` header's methods.
    var allow: Set<String> {
        Set((headers["allow"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }
    var description: String { "\(status) \(text.prefix(600))" }
}

/// What a session looks like from outside: its JSON, its version and its whole history.
struct SessionSnapshot: Equatable {
    var status: Int
    var session: String
    var etag: String?
    var history: String
}

/// A service on a database in a fresh temporary directory, driven in process through `handle`.
final class ServiceHarness {
    let directory: String
    let databasePath: String
    var service: NavSimService?
    let limits: Limits
    let tokens: BearerTokens
    /// Sessions the service keeps decoded in memory (`--max-loaded-sessions`).
    let loadedSessions: Int
    /// Sent as `Authorization: Bearer …` with every request that carries no `Authorization` of
    /// its own; the first of `tokens` by default. Set to `nil` to send none.
    var bearer: String?

    /// `tokens`: bearer tokens the service requires (none: no authentication).
    init(limits: Limits = .defaults, tokens: [String] = [], loadedSessions: Int = NavSimService.defaultLoadedSessions) throws {
        self.limits = limits
        self.loadedSessions = loadedSessions
        self.tokens = BearerTokens(tokens)
        bearer = tokens.first
        directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("ServiceTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        databasePath = (directory as NSString).appendingPathComponent("navsim.sqlite")
        service = try Self.open(databasePath, limits: limits, tokens: self.tokens, loadedSessions: loadedSessions)
    }

    deinit {
        service = nil
        try? FileManager.default.removeItem(atPath: directory)
    }

    static func open(
        _ path: String, limits: Limits = .defaults, tokens: BearerTokens = BearerTokens([]),
        loadedSessions: Int = NavSimService.defaultLoadedSessions
    ) throws -> NavSimService {
        let spec = FileManager.default.contents(atPath: ServiceFiles.openAPI).map { Array($0) } ?? []
        return try NavSimService(
            store: SessionStore(path: path, migrationsDirectory: ServiceFiles.migrations), openAPI: spec,
            limits: limits, tokens: tokens, loadedSessions: loadedSessions)
    }

    /// Drops the running service, then builds a new one on the same database file: a restart.
    func restart() throws {
        service?.sqlite.waitForDeletions()
        service = nil
        service = try Self.open(databasePath, limits: limits, tokens: tokens, loadedSessions: loadedSessions)
    }

    /// Sends one request. `target` may carry a query (`/v1/sessions/s/history?after=2`); `body`
    /// goes with `contentType` (none when nil).
    @discardableResult
    func send(
        _ method: String, _ target: String, _ body: String? = nil, contentType: String? = "application/json",
        headers extra: [(String, String)] = [], bodyTooLarge: Bool = false
    ) -> ServiceReply {
        var path = target
        var query: [String: String] = [:]
        var repeated: [String] = []  // as the server reports them (HTTPRequest.repeatedQueryNames)
        if let q = target.firstIndex(of: "?") {
            path = String(target[..<q])
            for pair in target[target.index(after: q)...].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if query.updateValue(kv.count > 1 ? String(kv[1]) : "", forKey: String(kv[0])) != nil,
                    !repeated.contains(String(kv[0]))
                {
                    repeated.append(String(kv[0]))
                }
            }
        }
        var headers = HTTPHeaders(extra)
        if let bearer, headers["authorization"] == nil { headers.add("Authorization", "Bearer \(bearer)") }
        if let body, !body.isEmpty, let contentType { headers.add("Content-Type", contentType) }
        let request = HTTPRequest(
            method: method, path: path, query: query, repeatedQueryNames: repeated, headers: headers,
            body: body.map { Array($0.utf8) } ?? [], bodyTooLarge: bodyTooLarge)
        guard let service else { fatalError("the harness has no service") }
        let response = service.handle(request)
        return ServiceReply(status: response.status, headers: response.headers, body: response.body)
    }

    /// Creates a session whose window's root is the navigation controller `nav` holding `home`;
    /// on iOS 17 unless `options` says otherwise, the release the tests using it were written for.
    @discardableResult
    func makeSession(
        _ id: String, options: String = #"{"iOS": "17", "transitions": "immediate"}"#,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ServiceReply {
        let reply = send(
            "POST", "/v1/sessions",
            """
            {"id": "\(id)", "options": \(options),
             "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"id": "home", "class": "HomeViewController"}]}}
            """)
        #expect(reply.status == 201, "creating \(id): \(reply)", sourceLocation: sourceLocation)
        return reply
    }

    /// Sends a request that must succeed with `status`; returns the reply.
    @discardableResult
    func ok(
        _ method: String, _ target: String, _ body: String? = nil, status: Int = 200,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ServiceReply {
        let reply = send(method, target, body)
        #expect(reply.status == status, "\(method) \(target): \(reply)", sourceLocation: sourceLocation)
        return reply
    }

    func snapshot(_ sid: String) -> SessionSnapshot {
        let session = send("GET", "/v1/sessions/\(sid)")
        let history = send("GET", "/v1/sessions/\(sid)/history?after=0&limit=1000")
        return SessionSnapshot(
            status: session.status, session: session.text, etag: session.headers["etag"],
            history: history.text)
    }

    func version(_ sid: String) -> Int? {
        send("GET", "/v1/sessions/\(sid)")["version"]?.number.map { Int($0) }
    }

    /// Runs `body`, then expects the session to look exactly as before (JSON, version, history)
    /// and the list of sessions to be unchanged.
    func expectUnchanged(_ sid: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void) {
        let before = snapshot(sid)
        let sessionsBefore = send("GET", "/v1/sessions?limit=1000").text
        #expect(before.status == 200, sourceLocation: sourceLocation)
        body()
        let after = snapshot(sid)
        #expect(after == before, "session \(sid) changed", sourceLocation: sourceLocation)
        #expect(
            send("GET", "/v1/sessions?limit=1000").text == sessionsBefore, "the session list changed",
            sourceLocation: sourceLocation)
    }
}

/// Expects a problem+json reply with this status and slug whose body repeats the status and
/// carries a detail.
func expectProblem(_ reply: ServiceReply, _ status: Int, _ slug: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(reply.status == status, "\(reply)", sourceLocation: sourceLocation)
    #expect(reply.slug == slug, "\(reply)", sourceLocation: sourceLocation)
    #expect(reply.headers["content-type"] == "application/problem+json", sourceLocation: sourceLocation)
    #expect(reply["status"]?.number == Double(status), sourceLocation: sourceLocation)
    let detail = reply["detail"]?.string ?? ""
    #expect(!detail.isEmpty, "no detail: \(reply)", sourceLocation: sourceLocation)
    #expect(reply["title"]?.string != nil, sourceLocation: sourceLocation)
}

func strings(_ json: JSON?) -> [String] { json?.array?.compactMap(\.string) ?? [] }

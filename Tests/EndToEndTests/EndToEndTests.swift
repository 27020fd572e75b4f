import Foundation
import Glibc
import ProcessSpawning
import Synchronization
import Testing
import TestSupport

import SQLite
@testable import NavSimService

// The real `navsim` binary on an ephemeral port of 127.0.78.1, spoken to over a raw socket.

/// Files of the checkout the binary needs (a build directory has no `migrations/` beside it).
private enum Checkout {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // EndToEndTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository root
    static let migrations = root.appendingPathComponent("migrations").path
    static let openAPI = root.appendingPathComponent("openapi.yaml").path
}

struct E2EError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The `navsim` executable: `NAVSIM_BINARY`, else the one `swift build` put beside this test
/// bundle, else the checkout's `.build/debug/navsim`.
private func locateBinary() throws -> String {
    let fm = FileManager.default
    var candidates: [String] = []
    if let env = ProcessInfo.processInfo.environment["NAVSIM_BINARY"], !env.isEmpty { candidates.append(env) }
    var dirs: [URL] = []
    if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") { dirs.append(URL(fileURLWithPath: exe).deletingLastPathComponent()) }
    if let first = CommandLine.arguments.first { dirs.append(URL(fileURLWithPath: first).deletingLastPathComponent()) }
    dirs.append(Bundle.main.bundleURL)
    dirs.append(Bundle.main.bundleURL.deletingLastPathComponent())
    for dir in dirs {
        // The test runner lives in …/debug/ (or inside …/debug/navsimPackageTests.xctest/… on macOS).
        var d = dir
        for _ in 0..<4 {
            candidates.append(d.appendingPathComponent("navsim").path)
            d = d.deletingLastPathComponent()
        }
    }
    candidates.append(Checkout.root.appendingPathComponent(".build/debug/navsim").path)
    if let found = candidates.first(where: { path in
        var isDirectory: ObjCBool = false
        return fm.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue && fm.isExecutableFile(atPath: path)
    }) {
        return found
    }
    throw E2EError("cannot find the navsim binary (build it, or set NAVSIM_BINARY); looked at \(candidates)")
}

/// The address every server of this suite listens on: one of its own, not 127.0.0.1, where the
/// port a stopped server frees may be bound by any other test's server at once, so that "the port
/// no longer answers" and every exchange reach this suite's navsim and no other.
private let serverHost = "127.0.78.1"

struct WireReply: CustomStringConvertible {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: JSON { (try? JSON.parse(body)) ?? .null }
    subscript(key: String) -> JSON? { json[key] }
    var description: String { "\(status) \(text.prefix(600))" }
}

/// A connected TCP socket to this suite's server on `port`, for tests that write raw bytes.
private func connectedSocket(port: UInt16) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw E2EError("socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    inet_pton(AF_INET, serverHost, &address.sin_addr)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(fd)
        throw E2EError("connect \(serverHost):\(port): errno \(errno)")
    }
    return fd
}

/// One HTTP/1.1 exchange on a fresh connection (`Connection: close`), blocking, with a timeout.
private func exchange(port: UInt16, _ method: String, _ target: String, body: [UInt8]? = nil,
                      headers extra: [(String, String)] = [], sendBody: Bool = true) throws -> WireReply {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw E2EError("socket: errno \(errno)") }
    defer { close(fd) }
    // A hung server fails the test instead of hanging it. Longer than SQLite's 5 s busy timeout,
    // which databaseErrorsAreJSONLogLines waits out: at 5 s the two raced on a loaded machine.
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    inet_pton(AF_INET, serverHost, &address.sin_addr)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw E2EError("connect \(serverHost):\(port): errno \(errno)") }

    var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
    for (name, value) in extra { head += "\(name): \(value)\r\n" }
    if let body {
        if !extra.contains(where: { $0.0.lowercased() == "content-type" }) { head += "Content-Type: application/json\r\n" }
        if !extra.contains(where: { $0.0.lowercased() == "content-length" }) { head += "Content-Length: \(body.count)\r\n" }
    }
    let out = Array((head + "\r\n").utf8) + (sendBody ? body ?? [] : [])
    var offset = 0
    while offset < out.count {
        let n = out[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard n > 0 else { throw E2EError("send: errno \(errno)") }
        offset += n
    }

    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n == 0 { break }
        if n < 0 {
            if errno == EINTR { continue }
            if errno == ECONNRESET && !received.isEmpty { break }
            throw E2EError("recv from \(method) \(target): errno \(errno) after \(received.count) bytes")
        }
        received += chunk[..<n]
    }
    guard let end = received.indices.dropLast(3).first(where: {
        received[$0] == 13 && received[$0 + 1] == 10 && received[$0 + 2] == 13 && received[$0 + 3] == 10
    }) else { throw E2EError("no response head for \(method) \(target): \(String(decoding: received, as: UTF8.self))") }
    var lines = String(decoding: received[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let statusLine = lines.removeFirst().split(separator: " ")
    guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw E2EError("bad status line for \(method) \(target)") }
    let headers = lines.compactMap { line -> (String, String)? in
        guard let colon = line.firstIndex(of: ":") else { return nil }
        return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    var body = Array(received[(end + 4)...])
    // A HEAD response's Content-Length is the GET's; no content follows (RFC 9110 §9.3.2).
    if method != "HEAD", let length = headers.first(where: { $0.0.lowercased() == "content-length" }).flatMap({ Int($0.1) }) {
        guard body.count >= length else { throw E2EError("short body for \(method) \(target): \(body.count) of \(length)") }
        body = Array(body.prefix(length))
    }
    return WireReply(status: status, headers: headers, body: body)
}

/// One run of the binary on a database file. Its log goes to a file (a pipe nobody drains
/// would block the server once full).
final class Server {
    let process: ChildProcess
    let port: UInt16
    let logPath: String

    /// `arguments` and `environment` are added to the usual ones (host, port, db, resources).
    /// `executable` and `workingDirectory`: another copy of the binary, run from there;
    /// `openAPIFile` false leaves `NAVSIM_OPENAPI` unset (the binary serves its own).
    ///
    /// The server binds port 0 and the port is read back from its `listening` log line: a port
    /// picked free beforehand (bind, read, close, then start navsim on it) could be taken by
    /// another test's server in between, and a test could then talk to that one.
    init(databasePath: String, logPath: String, arguments: [String] = [], environment extra: [String: String] = [:],
         executable: String? = nil, workingDirectory: String? = nil, openAPIFile: Bool = true) throws {
        self.logPath = logPath
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)  // each run's log starts empty
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        environment["NAVSIM_MIGRATIONS"] = Checkout.migrations
        environment["NAVSIM_OPENAPI"] = openAPIFile ? Checkout.openAPI : nil
        process = try ChildProcess(executable: try executable ?? locateBinary(),
                                   arguments: ["--host", serverHost, "--port", "0", "--db", databasePath] + arguments,
                                   environment: environment, workingDirectory: workingDirectory,
                                   standardOutput: .appending(toFile: logPath), standardError: .appending(toFile: logPath))
        port = try Self.listeningPort(process, logPath: logPath)
        try waitUntilHealthy()
    }

    /// The port of the `listening` line's `url` (http://127.0.78.1:PORT), waited for up to 10 s.
    private static func listeningPort(_ process: ChildProcess, logPath: String) throws -> UInt16 {
        let deadline = Date().addingTimeInterval(10)
        var log = ""
        while Date() < deadline {
            log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            for line in log.split(separator: "\n") {
                guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                      object["message"] as? String == "listening", let url = object["url"] as? String,
                      let colon = url.lastIndex(of: ":"), let port = UInt16(url[url.index(after: colon)...]) else { continue }
                return port
            }
            if let ended = process.termination { throw E2EError("navsim ended (\(ended)) before listening: \(log)") }
            usleep(20_000)
        }
        throw E2EError("navsim logged no listening line within 10 s: \(log)")
    }

    deinit {
        if process.signal(SIGKILL) { process.wait(timeout: 5) }
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// The log's lines that are JSON objects (all of them, when the log is as it should be).
    /// Waits (at most 5 s) until a log line satisfies `predicate`: request lines reach stderr
    /// through the log's writer thread, a few milliseconds after their reply.
    @discardableResult
    func waitForLogLine(_ predicate: ([String: Any]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if logLines.contains(where: predicate) { return true }
            usleep(10_000)
        }
        return logLines.contains(where: predicate)
    }

    var logLines: [[String: Any]] {
        log.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    private func waitUntilHealthy() throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let ended = process.termination { throw E2EError("navsim ended (\(ended)): \(log)") }
            if let r = try? exchange(port: port, "GET", "/healthz"), r.status == 200 { return }  // no token needed
            usleep(20_000)
        }
        throw E2EError("navsim did not answer /healthz on port \(port) within 10 s: \(log)")
    }

    @discardableResult
    func request(_ method: String, _ target: String, _ body: String? = nil, headers: [(String, String)] = []) throws -> WireReply {
        try exchange(port: port, method, target, body: body.map { Array($0.utf8) }, headers: headers)
    }

    /// Sends a signal and waits (bounded) for the process to end.
    func stop(with sig: Int32, seconds: Double = 10) -> Bool {
        process.signal(sig)
        return process.wait(timeout: seconds) != nil
    }
}

/// A fresh temporary directory, removed when the value goes away.
final class Scratch {
    let path: String
    init() throws {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("EndToEndTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }
}

@Suite("navsim binary end to end", .serialized)
struct EndToEndTests {
    /// docs/api.md, docs/architecture.md: an acknowledged operation survives kill -9. Three sessions,
    /// 38 operations across them (pushes, pops, tab selections, PATCHes, presentations, manual
    /// transitions and a turn), SIGKILL right after the last reply, a new process on the same
    /// file: every session, every history and every past version answer exactly as before.
    @Test func acknowledgedOperationsSurviveSIGKILL() throws {
        let scratch = try Scratch()
        let db = scratch.file("navsim.sqlite")
        var server: Server? = try Server(databasePath: db, logPath: scratch.file("first.log"))
        let first = try #require(server)

        func ok(_ method: String, _ target: String, _ body: String? = nil, status: Int = 200,
                sourceLocation: SourceLocation = #_sourceLocation) throws -> WireReply {
            let r = try first.request(method, target, body)
            #expect(r.status == status, "\(method) \(target): \(r)", sourceLocation: sourceLocation)
            return r
        }
        _ = try ok("POST", "/v1/sessions", #"{"id": "nav", "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"id": "home"}]}}"#, status: 201)
        _ = try ok("POST", "/v1/sessions", """
            {"id": "tabs", "root": {"id": "tabs", "kind": "tabBarController", "viewControllers": [
              {"id": "navA", "kind": "navigationController", "viewControllers": [{"id": "rootA"}]},
              {"id": "navB", "kind": "navigationController", "viewControllers": [{"id": "rootB"}]}]}}
            """, status: 201)
        _ = try ok("POST", "/v1/sessions", #"{"id": "manual", "options": {"transitions": "manual"}, "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"id": "home"}]}}"#, status: 201)

        var operations = 0
        var selected = 0
        for k in 0..<12 {
            // nav: push, push, pop, …
            if k % 3 == 2 {
                _ = try ok("POST", "/v1/sessions/nav/controllers/nav/pop", #"{"animated": false}"#)
            } else {
                _ = try ok("POST", "/v1/sessions/nav/controllers/nav/push", #"{"viewController": {"id": "n\#(k)", "title": "N\#(k)"}}"#)
            }
            // tabs: select, push onto the selected tab's navigation controller, retitle what was pushed.
            switch k % 3 {
            case 0:
                selected = (k / 3) % 2
                _ = try ok("POST", "/v1/sessions/tabs/controllers/tabs/select", #"{"index": \#(selected)}"#)
            case 1:
                _ = try ok("POST", "/v1/sessions/tabs/controllers/\(selected == 0 ? "navA" : "navB")/push",
                           #"{"viewController": {"id": "t\#(k)"}}"#)
            default:
                _ = try ok("PATCH", "/v1/sessions/tabs/controllers/t\(k - 1)", #"{"title": "T\#(k)", "modalPresentationStyle": "formSheet"}"#)
            }
            // manual: present (in flight), tick, dismiss (in flight), tick.
            switch k % 4 {
            case 0: _ = try ok("POST", "/v1/sessions/manual/controllers/nav/present", #"{"viewController": {"id": "m\#(k)"}}"#)
            case 2: _ = try ok("POST", "/v1/sessions/manual/controllers/nav/dismiss", "{}")
            default: _ = try ok("POST", "/v1/sessions/manual/transitions/complete", "{}")
            }
            operations += 3
        }
        // A turn, a trait change, and a presentation left in flight at the kill.
        let turn = try ok("POST", "/v1/sessions/nav/turns", """
            {"operations": [{"controller": "nav", "operation": "present", "viewController": {"id": "sheet"}},
                            {"controller": "nav", "operation": "present", "viewController": {"id": "refused"}}]}
            """)
        #expect(turn["results"]?.array?.last?["status"]?.number == 409, "\(turn)")
        _ = try ok("PATCH", "/v1/sessions/tabs", #"{"traits": {"verticalSizeClass": "compact"}}"#)
        _ = try ok("POST", "/v1/sessions/manual/controllers/nav/present", #"{"viewController": {"id": "last"}}"#)
        operations += 3
        #expect(operations >= 30)

        let ids = ["nav", "tabs", "manual"]
        var before: [String: String] = [:]
        var histories: [String: String] = [:]
        var versions: [String: [String]] = [:]
        for id in ids {
            before[id] = try ok("GET", "/v1/sessions/\(id)").text
            histories[id] = try ok("GET", "/v1/sessions/\(id)/history?limit=1000").text
            let current = Int(try ok("GET", "/v1/sessions/\(id)")["version"]?.number ?? 0)
            versions[id] = try (0...current).map { try ok("GET", "/v1/sessions/\(id)?version=\($0)").text }
        }
        #expect(versions.values.map { $0.count - 1 }.reduce(0, +) == operations, "every operation was one version")
        let list = try ok("GET", "/v1/sessions").text
        let inFlight = try ok("GET", "/v1/sessions/manual/transitions")
        #expect(inFlight["transitions"]?.array?.count == 1, "\(inFlight)")

        try #require(first.stop(with: SIGKILL), "navsim did not die on SIGKILL")
        #expect(first.process.termination == .signalled(SIGKILL))
        server = nil

        let second = try Server(databasePath: db, logPath: scratch.file("second.log"))
        for id in ids {
            let now = try second.request("GET", "/v1/sessions/\(id)")
            #expect(now.status == 200)
            #expect(now.text == before[id], "session \(id) after SIGKILL and restart differs")
            #expect(try second.request("GET", "/v1/sessions/\(id)/history?limit=1000").text == histories[id], "history of \(id) differs")
            for (v, text) in (versions[id] ?? []).enumerated() {
                #expect(try second.request("GET", "/v1/sessions/\(id)?version=\(v)").text == text, "\(id)?version=\(v) differs")
            }
        }
        #expect(try second.request("GET", "/v1/sessions").text == list)
        #expect(try second.request("GET", "/v1/sessions/manual/transitions").text == inFlight.text)
        // It carries on: the in-flight presentation finishes on the next tick.
        let tick = try second.request("POST", "/v1/sessions/manual/transitions/complete", "{}")
        #expect(tick.status == 200 && tick["transition"]?["state"]?.string == "completed", "\(tick)")
        #expect(second.stop(with: SIGTERM), "navsim did not stop on SIGTERM")
    }

    /// SIGTERM stops the server cleanly: exit status 0, the port closed.
    /// `--shutdown-grace` bounds the drain: a request whose body stops halfway would hold the
    /// stop up for the default 10 s; with `--shutdown-grace 1` navsim exits 0 well before.
    /// A grace that is not a whole number is refused at start, before the database is created.
    @Test func shutdownGraceBoundsTheDrain() throws {
        let scratch = try Scratch()
        let bad = try runToExit(["--port", "0", "--db", scratch.file("x.sqlite"), "--shutdown-grace", "soon"])
        #expect(bad.status == 2 && bad.output.contains("--shutdown-grace must be a whole number"), "\(bad)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("x.sqlite")))

        let server = try Server(databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("navsim.log"),
                                arguments: ["--shutdown-grace", "1"])
        let fd = try connectedSocket(port: server.port)
        defer { close(fd) }
        let half = "POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{}"
        #expect(half.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) } == half.utf8.count)
        // Once its head is in (its log line is written when answered, so wait for a reply on another connection).
        #expect(try server.request("GET", "/healthz").status == 200)
        try #require(server.stop(with: SIGTERM, seconds: 8), "navsim still running 8 s after SIGTERM with --shutdown-grace 1")
        #expect(server.process.termination == .exited(0), "\(server.log)")
        #expect(server.logLines.contains { $0["message"] as? String == "stopping" && $0["graceSeconds"] as? Int == 1 }, "\(server.log)")
    }

    /// libmicrohttpd's own messages (a client gone in the middle of its request) are JSON lines
    /// of the log like every other, not text beside them.
    @Test func libmicrohttpdMessagesAreJSONLines() throws {
        let scratch = try Scratch()
        let server = try Server(databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("navsim.log"))
        defer { _ = server.stop(with: SIGTERM) }
        func isLibraryLine(_ line: [String: Any]) -> Bool { (line["message"] as? String)?.hasPrefix("libmicrohttpd: ") == true }
        // A client gone before its body is in: libmicrohttpd says so once it has read the head, so
        // the client waits a moment before it goes (and tries again if the server was slower).
        for _ in 0..<10 where !server.logLines.contains(where: isLibraryLine) {
            let fd = try connectedSocket(port: server.port)
            let half = "POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
            #expect(half.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) } == half.utf8.count)
            usleep(200_000)
            close(fd)
            server.waitForLogLine(isLibraryLine)
        }
        #expect(server.logLines.contains(where: isLibraryLine), "no libmicrohttpd line: \(server.log)")
        let lines = server.log.split(separator: "\n")
        #expect(lines.count == server.logLines.count, "a line that is not a JSON object: \(server.log)")
        #expect(server.logLines.contains { $0["level"] as? String == "warning" && $0["time"] is String && isLibraryLine($0) },
                "\(server.log)")
    }

    @Test func sigtermStopsCleanly() throws {
        let scratch = try Scratch()
        let server = try Server(databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("navsim.log"))
        let r = try server.request("POST", "/v1/sessions", #"{"id": "s"}"#)
        #expect(r.status == 201, "\(r)")
        try #require(server.stop(with: SIGTERM), "navsim did not stop within 10 s of SIGTERM")
        #expect(server.process.termination == .exited(0), "exit status; log: \(server.log)")
        #expect(server.logLines.contains { $0["message"] as? String == "stopping" }, "\(server.log)")
        #expect(server.logLines.last?["message"] as? String == "stopped", "the last line says the stop completed: \(server.log)")
        #expect((try? exchange(port: server.port, "GET", "/healthz")) == nil, "the port still answers after the stop")

        // SIGINT too, and what was written is still there.
        let again = try Server(databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("again.log"))
        #expect(try again.request("GET", "/v1/sessions/s").status == 200)
        try #require(again.stop(with: SIGINT), "navsim did not stop within 10 s of SIGINT")
        #expect(again.process.termination == .exited(0))
    }

    /// A signal sent the moment the server answers (its first request served) still stops it:
    /// there is no window after start-up in which SIGTERM or SIGINT is lost.
    @Test func signalRightAfterStartStops() throws {
        let scratch = try Scratch()
        for (i, sig) in [SIGTERM, SIGINT, SIGTERM, SIGINT, SIGTERM, SIGINT].enumerated() {
            let server = try Server(databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("run\(i).log"))
            try #require(server.stop(with: sig, seconds: 5), "run \(i): navsim ignored signal \(sig) sent right after start-up")
            #expect(server.process.termination == .exited(0),
                    "run \(i): \(server.log)")
        }
    }

    /// The service over real HTTP: health, a presentation, the spec, and the body limit.
    @Test func healthAndPresentOverHTTP() throws {
        let scratch = try Scratch()
        let server = try Server(databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("navsim.log"))
        defer { _ = server.stop(with: SIGTERM) }

        var r = try server.request("GET", "/healthz")
        #expect(r.status == 200)
        #expect(r.header("Content-Type") == "application/json")
        #expect(r.json == .object([("status", .string("ok"))]))

        r = try server.request("POST", "/v1/sessions", #"{"id": "mail", "root": {"id": "inboxNav", "kind": "navigationController", "viewControllers": [{"id": "inbox", "class": "InboxViewController"}]}}"#)
        #expect(r.status == 201, "\(r)")
        #expect(r.header("Location") == "/v1/sessions/mail")
        #expect(r.header("ETag") == #""0""#)

        r = try server.request("POST", "/v1/sessions/mail/controllers/inbox/present",
                               #"{"viewController": {"id": "compose", "class": "ComposeViewController"}, "modalPresentationStyle": "fullScreen"}"#,
                               headers: [("If-Match", #""0""#)])
        #expect(r.status == 200, "\(r)")
        #expect(r.header("ETag") == #""1""#)
        #expect(r["version"]?.number == 1)
        let transition = r["transition"]
        #expect(transition?["operation"]?.string == "present")
        #expect(transition?["toViewController"]?.string == "compose")
        #expect(transition?["presentationStyle"]?.string == "fullScreen")
        #expect(transition?["state"]?.string == "completed")
        let callbacks = (r["events"]?.array ?? []).compactMap { e in e["controller"]?.string.flatMap { c in e["callback"]?.string.map { "\(c).\($0)" } } }
        #expect(callbacks.contains("compose.viewDidAppear") && callbacks.contains("inboxNav.viewDidDisappear"), "\(callbacks)")
        #expect(callbacks.last == "inbox.completion", "\(callbacks)")
        #expect(r["session"]?["window"]?["visibleViewController"]?.string == "compose")
        #expect(r["session"]?["controllers"]?["compose"]?["presentingViewController"]?.string == "inboxNav")
        #expect(r["session"]?["window"]?["viewsInWindow"]?.array == [.string("compose")], "full screen removes the views beneath")

        r = try server.request("GET", "/v1/sessions/mail")
        #expect(r.header("ETag") == #""1""#)
        #expect(r["window"]?["visibleViewController"]?.string == "compose")

        r = try server.request("GET", "/openapi.yaml")
        #expect(r.status == 200 && r.body == FileManager.default.contents(atPath: Checkout.openAPI).map { Array($0) })

        r = try server.request("DELETE", "/healthz")
        #expect(r.status == 405 && r.header("Allow") == "GET, HEAD", "\(r)")

        // HEAD: the GET's status and headers, no content (libmicrohttpd leaves it out).
        r = try server.request("HEAD", "/healthz")
        #expect(r.status == 200 && r.body.isEmpty && r.header("Content-Length") == "15", "\(r)")

        // A path cannot forge a log line: each line is one JSON object, the newline escaped in it.
        r = try server.request("GET", "/v1/sessions/abc%0AGET%20/healthz%20200%201us")
        #expect(r.status == 404)
        server.waitForLogLine { $0["status"] as? Int == 404 }
        let lines = server.log.split(separator: "\n")
        #expect(server.logLines.count == lines.count, "a log line is not a JSON object: \(server.log)")
        // The log has the path as sent (escapes kept), like the request line.
        #expect(server.logLines.contains { $0["path"] as? String == "/v1/sessions/abc%0AGET%20/healthz%20200%201us" && $0["status"] as? Int == 404 },
                "\(server.log)")

        // Over 1 MiB: 413, after the body was read and dropped, so the client sees it.
        r = try exchange(port: server.port, "POST", "/v1/sessions/mail/controllers/inbox/dismiss",
                         body: [UInt8](repeating: 32, count: (1 << 20) + 1))
        #expect(r.status == 413, "\(r)")
        #expect(r["type"]?.string == "/v1/problems/payload-too-large", "\(r)")
        #expect(try server.request("GET", "/v1/sessions/mail")["version"]?.number == 1)
    }
    /// Request logs: one JSON object per request with an RFC 3339 time, method, path, status,
    /// duration and bytes, and the request id that the reply carries as `X-Request-Id`; a
    /// client's own id is kept, a control character in it is not.
    @Test func requestLogLinesAndRequestIDs() throws {
        let scratch = try Scratch()
        let server = try Server(databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("navsim.log"))
        defer { _ = server.stop(with: SIGTERM) }
        var r = try server.request("GET", "/", headers: [("X-Request-Id", "client-id-42")])
        #expect(r.status == 200 && r.header("X-Request-Id") == "client-id-42", "\(r)")
        #expect(r["name"]?.string == "navsim" && r["links"]?["sessions"]?.string == "/v1/sessions", "\(r)")
        r = try server.request("GET", "/healthz")
        let fresh = try #require(r.header("X-Request-Id"))
        let alphabet = Set("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")
        #expect(fresh.count == 15 && fresh.allSatisfy(alphabet.contains), "\(fresh)")
        r = try server.request("GET", "/healthz", headers: [("X-Request-Id", String(repeating: "x", count: 129))])
        #expect(r.header("X-Request-Id")?.count == 15, "an id over 128 characters is replaced")
        let next = try #require(r.header("X-Request-Id"))
        #expect(next != fresh && next > fresh && next.suffix(5) == fresh.suffix(5),
                "fresh ids count up, in the instance's tag: \(fresh), then \(next)")

        // Request lines reach stderr through the log's writer thread: wait (bounded) for both.
        server.waitForLogLine { $0["requestId"] as? String == fresh }
        server.waitForLogLine { $0["requestId"] as? String == "client-id-42" }
        let entries = server.logLines.filter { $0["requestId"] != nil }
        let mine = try #require(entries.first { $0["requestId"] as? String == "client-id-42" }, "\(server.log)")
        #expect(mine["method"] as? String == "GET" && mine["path"] as? String == "/" && mine["status"] as? Int == 200)
        #expect((mine["bytes"] as? Int ?? 0) > 0 && (mine["durationMs"] as? Double) != nil, "\(mine)")
        let time = try #require(mine["time"] as? String)
        let parsed = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(time)
        #expect(parsed != nil, "not RFC 3339: \(time)")
        #expect(parsed.map { abs($0.timeIntervalSinceNow) < 300 } ?? false, "the log's clock is off: \(time)")
        #expect(entries.contains { $0["requestId"] as? String == fresh })

        // A refusal the transport makes before any handler (differing Content-Length, RFC 9112
        // §6.3) carries an id and has its line too; before, it had neither.
        r = try exchange(port: server.port, "POST", "/v1/sessions", body: Array("{}".utf8),
                         headers: [("Content-Length", "2"), ("Content-Length", "3"), ("X-Request-Id", "framing-7")])
        #expect(r.status == 400 && r.header("X-Request-Id") == "framing-7", "\(r)")
        #expect(server.waitForLogLine { $0["requestId"] as? String == "framing-7" && $0["status"] as? Int == 400 }, "\(server.log)")
        r = try exchange(port: server.port, "GET", "/healthz", headers: [("Transfer-Encoding", "gzip")])
        #expect(r.status == 501 && r.header("X-Request-Id")?.count == 15, "\(r)")
    }

    /// A request's log line has the query as sent and the client's address. `X-Forwarded-For`
    /// names the client only when the peer is a trusted proxy (`--trusted-proxies`): then the
    /// client is the right-most entry that is not trusted; without the flag the header is ignored.
    /// A request the server refuses on its head (401 before the body is read) or on its framing
    /// (400: both Transfer-Encoding and Content-Length) never reaches a route, and /metrics
    /// counts it under route="unmatched" all the same, as docs/api.md says.
    @Test func refusedHeadsAreCountedInMetrics() throws {
        let scratch = try Scratch()
        let server = try Server(databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("navsim.log"),
                                environment: ["NAVSIM_TOKEN": "metrics-token"])
        defer { _ = server.stop(with: SIGTERM) }
        let auth = [("Authorization", "Bearer metrics-token")]
        func scrape() throws -> String {
            let r = try server.request("GET", "/metrics", headers: auth)
            #expect(r.status == 200, "\(r)")
            return r.text
        }
        func sample(_ text: String, _ prefix: String) -> Double {
            text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
        }
        let before = try scrape()
        for token in ["", "wrong"] {
            let r = try server.request("GET", "/v1/sessions", headers: token.isEmpty ? [] : [("Authorization", "Bearer \(token)")])
            #expect(r.status == 401, "\(r)")
        }
        let framing = try server.request("POST", "/v1/sessions", "{}", headers: auth + [("Transfer-Encoding", "chunked")])
        #expect(framing.status == 400, "\(framing)")
        let after = try scrape()
        let unauthorized = #"navsim_http_request_duration_seconds_count{method="other",route="unmatched",status="401"}"#
        let badFraming = #"navsim_http_request_duration_seconds_count{method="other",route="unmatched",status="400"}"#
        #expect(sample(after, unauthorized) - sample(before, unauthorized) == 2, "\(after)")
        #expect(sample(after, badFraming) - sample(before, badFraming) == 1, "\(after)")
        // The three refusals and the second scrape, which counts itself as it starts.
        #expect(sample(after, "navsim_requests_total ") - sample(before, "navsim_requests_total ") == 4, "\(after)")
    }

    @Test func requestLogLinesCarryTheQueryAndTheClient() throws {
        let scratch = try Scratch()
        func line(_ server: Server, _ target: String, forwardedFor: [String], id: String) throws -> [String: Any] {
            let r = try server.request("GET", target, headers: forwardedFor.map { ("X-Forwarded-For", $0) } + [("X-Request-Id", id)])
            #expect(r.status == 200, "\(r)")
            server.waitForLogLine { $0["requestId"] as? String == id }
            return try #require(server.logLines.first { $0["requestId"] as? String == id }, "\(server.log)")
        }

        var server = try Server(databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("plain.log"))
        var entry = try line(server, "/v1/sessions?limit=2&after=a%20b+c", forwardedFor: ["203.0.113.9"], id: "q-1")
        #expect(entry["path"] as? String == "/v1/sessions" && entry["query"] as? String == "limit=2&after=a%20b+c", "\(entry)")
        #expect(entry["client"] as? String == "127.0.0.1", "no trusted proxy: the header is ignored: \(entry)")
        entry = try line(server, "/healthz", forwardedFor: [], id: "q-2")
        #expect(entry["query"] == nil && entry["client"] as? String == "127.0.0.1", "\(entry)")
        #expect(server.stop(with: SIGTERM))

        server = try Server(databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("proxied.log"),
                            arguments: ["--trusted-proxies", "127.0.0.0/8, 10.0.0.0/8,2001:db8::/32"])
        defer { _ = server.stop(with: SIGTERM) }
        let cases: [(forwardedFor: [String], client: String)] = [
            (["198.51.100.7, 203.0.113.9, 10.1.2.3"], "203.0.113.9"),  // the right-most untrusted one
            (["198.51.100.7", "10.0.0.5"], "198.51.100.7"),             // two field lines are one list
            (["2001:db8::1, 10.0.0.1"], "2001:db8::1"),                 // every hop trusted: the left-most
            (["2001:db9::7"], "2001:db9::7"),
            (["203.0.113.9, not-an-address, 10.0.0.5"], "10.0.0.5"),    // garbage ends the walk at a trusted hop
            ([], "127.0.0.1"),
        ]
        for (n, c) in cases.enumerated() {
            entry = try line(server, "/healthz", forwardedFor: c.forwardedFor, id: "xff-\(n)")
            #expect(entry["client"] as? String == c.client, "\(c.forwardedFor): \(entry)")
        }
    }

    /// A `--trusted-proxies` item that is not an address or a CIDR block stops the start.
    @Test func trustedProxiesRefusesWhatIsNotAnAddress() throws {
        let scratch = try Scratch()
        for bad in ["10.0.0.0/33", "proxy.internal", "10.0.0.1/", "::1/129"] {
            let (status, output) = try runToExit(["serve", "--port", "0", "--db", scratch.file("x.sqlite"), "--trusted-proxies", bad])
            #expect(status == 2 && output.contains("--trusted-proxies") && output.contains(bad), "\(bad): \(status) \(output)")
        }
    }

    /// The binary carries its OpenAPI document: copied alone into an empty folder and run from
    /// there, with nothing but its migrations found elsewhere, it serves the repository's
    /// openapi.yaml byte for byte (before, a 15-byte stub).
    @Test func anInstalledBinaryServesTheRealOpenAPIDocument() throws {
        let scratch = try Scratch()
        let installed = scratch.file("bin")
        try FileManager.default.createDirectory(atPath: installed, withIntermediateDirectories: true)
        let binary = (installed as NSString).appendingPathComponent("navsim")
        try FileManager.default.copyItem(atPath: try locateBinary(), toPath: binary)
        let server = try Server(databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("navsim.log"),
                                executable: binary, workingDirectory: installed, openAPIFile: false)
        defer { _ = server.stop(with: SIGTERM) }
        let reply = try server.request("GET", "/openapi.yaml")
        let expected = try #require(FileManager.default.contents(atPath: Checkout.openAPI))
        #expect(reply.status == 200 && reply.header("Content-Type") == "application/yaml", "\(reply.status)")
        #expect(reply.body == Array(expected), "served \(reply.body.count) bytes, the repository's file has \(expected.count)")
        // --openapi still names a file to serve instead.
        let other = scratch.file("other.yaml")
        try Data("openapi: 3.1.0\ninfo: {title: other, version: '1'}\npaths: {}\n".utf8).write(to: URL(fileURLWithPath: other))
        let overridden = try Server(databasePath: scratch.file("second.sqlite"), logPath: scratch.file("second.log"),
                                    arguments: ["--openapi", other], executable: binary, workingDirectory: installed,
                                    openAPIFile: false)
        defer { _ = overridden.stop(with: SIGTERM) }
        #expect(try overridden.request("GET", "/openapi.yaml").body == Array(try Data(contentsOf: URL(fileURLWithPath: other))))
    }

    /// The request log under load and at shutdown: requests from several threads at once, then
    /// SIGTERM straight after the last reply. Every line the log holds is one whole JSON object
    /// (lines written by several threads never interleave or split), every reply's `X-Request-Id`
    /// has exactly one line (none lost in the writer's buffer at exit), fresh ids never repeat, and
    /// a second run of the binary on the same database hands out none of the first run's ids.
    @Test func requestLogLinesStayWholeUnderLoadAndAtShutdown() throws {
        let scratch = try Scratch()
        let threads = 8, perThread = 60
        var seen: [String] = []
        for run in 0..<2 {
            let server = try Server(databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("navsim-\(run).log"))
            let port = server.port
            let replies = Mutex<[(id: String?, path: String)]>([])
            DispatchQueue.concurrentPerform(iterations: threads) { t in
                for i in 0..<perThread {
                    // A path that must be escaped in the line (`"` and `\` as the client sent them).
                    let path = ["/healthz", "/v1/sessions/s\(t)-\(i)", #"/v1/sessions/a"b\c"#, "/"][i % 4]
                    let reply = try? exchange(port: port, "GET", path)
                    replies.withLock { $0.append((reply?.header("X-Request-Id"), path)) }
                }
            }
            #expect(server.stop(with: SIGTERM), "navsim did not stop on SIGTERM")
            let answered = replies.withLock { $0 }
            #expect(answered.count == threads * perThread && answered.allSatisfy { $0.id != nil }, "\(answered.filter { $0.id == nil })")
            let ids = answered.compactMap(\.id)
            #expect(Set(ids).count == ids.count, "a fresh request id repeated within one run")
            #expect(Set(ids).isDisjoint(with: seen), "a fresh request id of the first run came again after the restart")
            // Each run draws its own tag (the ids' last five characters), so instances running at
            // once stay apart too (RequestIDTests); a chance of one in 2^30 that two runs draw the same.
            let tags = Set(ids.map { $0.suffix(5) })
            #expect(tags.count == 1 && tags.isDisjoint(with: Set(seen.map { $0.suffix(5) })), "\(tags)")
            seen += ids

            let lines = server.log.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            var logged: [String: Int] = [:]
            for line in lines {
                let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
                #expect(object != nil, "not one whole JSON object: \(line)")
                if let id = object?["requestId"] as? String {
                    logged[id, default: 0] += 1
                    #expect(object?["method"] as? String == "GET" && object?["status"] is Int && object?["time"] is String
                            && object?["durationMs"] is NSNumber && object?["bytes"] is Int, "\(line)")
                }
            }
            #expect(server.log.hasSuffix("\n"), "the log ends inside a line")
            let missing = ids.filter { logged[$0] != 1 }
            #expect(missing.isEmpty, "\(missing.count) replies without exactly one log line, e.g. \(missing.prefix(3))")
            let escaped = lines.filter { $0.contains(#""path":"/v1/sessions/a\"b\\c""#) }
            #expect(escaped.count == threads * perThread / 4, "the path with a quote and a backslash is logged as sent, escaped")
        }
    }

    /// First contact: `--version`, a port in use said once, a missing migrations folder refused.
    @Test func startUpMessages() throws {
        let scratch = try Scratch()
        let version = try runToExit(["--version"])
        #expect(version.status == 0 && version.output.hasPrefix("navsim ") && version.output.split(separator: "\n").count == 1,
                "\(version)")

        let server = try Server(databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("navsim.log"))
        defer { _ = server.stop(with: SIGTERM) }
        let busy = try runToExit(["--host", serverHost, "--port", String(server.port), "--db", scratch.file("other.sqlite")])
        #expect(busy.status == 2, "\(busy)")
        #expect(busy.output.components(separatedBy: "cannot listen").count == 2 && busy.output.split(separator: "\n").count == 1,
                "the bind failure is said once, on one line: \(busy.output)")
        #expect(fatalMessage(busy.output) == "cannot listen on \(serverHost):\(server.port): Address already in use", "\(busy)")

        let missing = try runToExit(["--port", "0", "--db", scratch.file("x.sqlite")],
                                    environment: ["NAVSIM_MIGRATIONS": scratch.file("no-such-folder")])
        #expect(missing.status == 2 && fatalMessage(missing.output)?.contains("no-such-folder does not exist") == true, "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("x.sqlite")), "nothing is created when migrations are missing")

        // An empty migrations folder and a bad host are refused before the database is created.
        try FileManager.default.createDirectory(atPath: scratch.file("empty"), withIntermediateDirectories: true)
        let empty = try runToExit(["--port", "0", "--db", scratch.file("y.sqlite")],
                                  environment: ["NAVSIM_MIGRATIONS": scratch.file("empty")])
        #expect(empty.status == 2 && empty.output.contains("holds no NNNN_name.sql files") && !empty.output.contains("SQL:"), "\(empty)")
        let host = try runToExit(["--host", "1.2.3", "--db", scratch.file("z.sqlite")])
        #expect(host.status == 2 && fatalMessage(host.output)?.hasPrefix("--host must be an IPv4 address") == true, "\(host)")
        // --help and --version stay text for people.
        let help = try runToExit(["serve", "--help"])
        #expect(help.status == 0 && help.output.hasPrefix("usage: "), "\(help)")
        for name in ["y.sqlite", "z.sqlite"] {
            #expect(!FileManager.default.fileExists(atPath: scratch.file(name)), "\(name) was created before the refusal")
        }
    }

    /// `--store`: with `--db` a usage error, anything but a PostgreSQL URL refused, an
    /// unreachable server a clear start-up failure whose message hides the password.
    @Test func storeFlagRefusals() throws {
        let scratch = try Scratch()
        let both = try runToExit(["--port", "0", "--store", "postgresql://127.0.0.1:1/x", "--db", scratch.file("a.sqlite")])
        #expect(both.status == 2 && both.output.contains("exclude each other"), "\(both)")
        let fromEnvironment = try runToExit(["--port", "0", "--db", scratch.file("a.sqlite")],
                                            environment: ["NAVSIM_STORE": "postgresql://127.0.0.1:1/x"])
        #expect(fromEnvironment.status == 2 && fromEnvironment.output.contains("exclude each other"), "\(fromEnvironment)")
        // An empty NAVSIM_DB is set, not "not given": refused, naming it, rather than guessed at.
        let blank = try runToExit(["--port", "0", "--store", "postgresql://127.0.0.1:1/x"], environment: ["NAVSIM_DB": ""])
        #expect(blank.status == 2 && fatalMessage(blank.output)?.contains("NAVSIM_DB is set but empty") == true, "\(blank)")
        let other = try runToExit(["--port", "0", "--store", "mysql://u:hunter2@127.0.0.1/x"])
        #expect(other.status == 2 && other.output.contains("postgres://") && !other.output.contains("hunter2"), "\(other)")
        // Port 1 on loopback: nothing listens, the connection is refused at once.
        let down = try runToExit(["--port", "0", "--store", "postgresql://navsim:hunter2@127.0.0.1:1/navsim"])
        #expect(down.status == 2, "\(down)")
        #expect(fatalMessage(down.output)?.hasPrefix("cannot open the PostgreSQL database postgresql://navsim:***@127.0.0.1:1/navsim") == true,
                "\(down)")
        #expect(!down.output.contains("hunter2"), "\(down)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("a.sqlite")), "no SQLite file is made for --store")
    }
}

/// Runs the binary to its end (bounded: 10 s) and returns its status and its stdout+stderr.
/// `launcher` runs it through another program (`setpriv …` to drop root), which takes the binary's
/// path and arguments after its own.
private func runToExit(_ arguments: [String], environment extra: [String: String] = [:],
                       launcher: [String] = []) throws -> (status: Int32, output: String) {
    var environment = ProcessInfo.processInfo.environment
    environment["NAVSIM_MIGRATIONS"] = Checkout.migrations
    environment["NAVSIM_OPENAPI"] = Checkout.openAPI
    for (k, v) in extra { environment[k] = v }
    let scratch = try Scratch()
    let outputPath = scratch.file("output")
    var binary = try locateBinary()
    if !launcher.isEmpty {
        // Another user (setpriv's nobody) may not reach the checkout (a clone in a 0700 folder):
        // it runs a copy of the binary, migrations and spec from a folder anyone may read.
        let fm = FileManager.default
        try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.path)
        let staged = scratch.file("navsim")
        try fm.copyItem(atPath: binary, toPath: staged)
        try fm.copyItem(atPath: Checkout.migrations, toPath: scratch.file("migrations"))
        try fm.copyItem(atPath: Checkout.openAPI, toPath: scratch.file("openapi.yaml"))
        binary = staged
        environment["NAVSIM_MIGRATIONS"] = extra["NAVSIM_MIGRATIONS"] ?? scratch.file("migrations")
        environment["NAVSIM_OPENAPI"] = extra["NAVSIM_OPENAPI"] ?? scratch.file("openapi.yaml")
    }
    let process = try ChildProcess(executable: launcher.first ?? binary,
                                   arguments: launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + [binary] + arguments,
                                   environment: environment,
                                   standardOutput: .appending(toFile: outputPath), standardError: .appending(toFile: outputPath))
    guard case .exited(let status) = process.wait(timeout: 10) else {
        process.signal(SIGKILL)
        throw E2EError("navsim \(arguments) did not exit within 10 s, or died of a signal: \(String(describing: process.termination))")
    }
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    return (status, output.trimmingCharacters(in: .whitespacesAndNewlines))
}

/// A valid storyboard of about `bytes` bytes: one scene, padded with a comment.
private func storyboard(paddedTo bytes: Int) -> [UInt8] { Array(StoryboardXML.home(paddedTo: bytes).utf8) }

/// Hostile and large requests; in the serialized suite, so that no two binaries start at once.
extension EndToEndTests {
    /// Real apps ship storyboards of 2.3 MB: 2.5 MB is accepted. 20 MB is over the 16 MiB XML
    /// limit, and the 413 arrives after the whole body was sent, as a client that does not wait
    /// for `100 Continue` needs (sending it would fail with a reset if the server closed first).
    @Test func aLargeStoryboardUploadsAndAnOversizedOneGetsAReadable413() throws {
        let scratch = try Scratch()
        let server = try Server(databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("log"))
        let big = try exchange(port: server.port, "PUT", "/v1/storyboards/Big", body: storyboard(paddedTo: 2_500_000),
                               headers: [("Content-Type", "application/xml")])
        #expect(big.status == 201, "\(big)")
        let huge = try exchange(port: server.port, "PUT", "/v1/storyboards/Huge", body: storyboard(paddedTo: 20_000_000),
                                headers: [("Content-Type", "application/xml")])
        #expect(huge.status == 413, "\(huge)")
        #expect(huge.text.contains("\(16 << 20)"), "the problem names the limit: \(huge)")
        // JSON keeps its 1 MiB limit.
        let json = try exchange(port: server.port, "POST", "/v1/sessions", body: Array(repeating: 0x20, count: 1_100_000))
        #expect(json.status == 413, "\(json)")
        #expect(try server.request("GET", "/v1/storyboards/Huge").status == 404)
    }

    /// With a token set, nothing but /healthz answers without it, and the token is never logged.
    @Test func aTokenLocksEveryRouteButHealthz() throws {
        let scratch = try Scratch()
        let tokenFile = scratch.file("tokens")
        try "# one a line\nfile-token-1\nfile-token-2\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let server = try Server(databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("log"),
                                arguments: ["--token-file", tokenFile], environment: ["NAVSIM_TOKEN": "env-token-0"])
        #expect(try server.request("GET", "/healthz").status == 200)
        let refused = try server.request("GET", "/v1/sessions")
        #expect(refused.status == 401)
        #expect(refused.header("WWW-Authenticate") == #"Bearer realm="navsim""#)
        #expect(refused.header("Content-Type") == "application/problem+json")
        let wrong = try server.request("GET", "/v1/sessions", headers: [("Authorization", "Bearer file-token-3")])
        #expect(wrong.header("WWW-Authenticate") == #"Bearer realm="navsim", error="invalid_token""#)
        for token in ["env-token-0", "file-token-1", "file-token-2"] {
            #expect(try server.request("GET", "/v1/sessions", headers: [("Authorization", "Bearer \(token)")]).status == 200)
        }
        // A refused upload is answered after its body, not with a reset.
        let upload = try exchange(port: server.port, "PUT", "/v1/storyboards/Big", body: storyboard(paddedTo: 3_000_000),
                                  headers: [("Content-Type", "application/xml")])
        #expect(upload.status == 401)
        #expect(!server.log.contains("token-"), "a token reached the log")
    }
}

/// The operator's lines from the service; in the serialized suite, as every run of the binary.
extension EndToEndTests {
    /// A database error is a JSON line of the one log writer, as the request lines are, with
    /// `level`, `message`, the full `error` and SQLite's `code`: here `SQLITE_BUSY` (5), the
    /// write lock held by another connection for longer than the 5 s busy timeout. A stored
    /// storyboard that no longer parses is skipped at start with a `warning` line. Every line of
    /// the log is one JSON object.
    @Test func databaseErrorsAreJSONLogLines() throws {
        let scratch = try Scratch()
        let database = scratch.file("navsim.sqlite")
        let xml = StoryboardXML.document(initial: "a", scenes: [
            #"<scene sceneID="s"><objects><viewController id="a" sceneMemberID="viewController"/></objects></scene>"#,
        ])
        do {
            let server = try Server(databasePath: database, logPath: scratch.file("first.log"))
            defer { _ = server.stop(with: SIGTERM) }
            #expect(try exchange(port: server.port, "PUT", "/v1/storyboards/Main", body: Array(xml.utf8),
                                 headers: [("Content-Type", "application/xml")]).status == 201)
            let lock = try SQLite.Connection(path: database)
            try lock.execute("BEGIN IMMEDIATE")
            let refused = try exchange(port: server.port, "PUT", "/v1/storyboards/Other", body: Array(xml.utf8),
                                       headers: [("Content-Type", "application/xml")])
            try lock.execute("ROLLBACK")
            #expect(refused.status == 500 && refused["type"]?.string == "/v1/problems/storage-failure", "\(refused)")
            #expect(server.waitForLogLine { $0["level"] as? String == "error" }, "\(server.log)")
            let line = try #require(server.logLines.first { $0["level"] as? String == "error" })
            #expect(line["message"] as? String == "The storyboard could not be stored", "\(line)")
            #expect(line["code"] as? Int == 5, "SQLITE_BUSY: \(line)")
            #expect((line["error"] as? String)?.contains("SQLite error 5") == true, "\(line)")
            #expect((line["time"] as? String).flatMap { try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse($0) } != nil,
                    "\(line)")
            // Then the one in its place: a stored document that no longer parses.
            let edit = try SQLite.Connection(path: database)
            try edit.run("UPDATE storyboards SET xml = ? WHERE name = 'Main'", [.blob(Array("<document".utf8))])
        }
        let again = try Server(databasePath: database, logPath: scratch.file("second.log"))
        #expect(again.stop(with: SIGTERM))
        let warning = try #require(again.logLines.first { $0["level"] as? String == "warning" }, "\(again.log)")
        #expect(warning["message"] as? String == "stored storyboard 'Main' skipped", "\(warning)")
        for log in [scratch.file("first.log"), scratch.file("second.log")] {
            let text = try String(contentsOfFile: log, encoding: .utf8)
            for line in text.split(separator: "\n") {
                #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "not a JSON line: \(line)")
            }
        }
    }
}

/// The message of a fatal start-up error of `serve`: the whole output must be one JSON log line
/// with `time` and `level` `error`, as the server's other lines are; nil otherwise.
private func fatalMessage(_ output: String) -> String? {
    let lines = output.split(separator: "\n")
    guard lines.count == 1,
          let object = (try? JSONSerialization.jsonObject(with: Data(lines[0].utf8))) as? [String: Any],
          object["level"] as? String == "error", object["time"] is String else { return nil }
    return object["message"] as? String
}

/// A copy of the checkout's `folder` holding only its first `count` steps.
private func olderMigrations(_ folder: String, keeping count: Int, in scratch: Scratch) throws -> String {
    let source = Checkout.root.appendingPathComponent(folder).path
    let target = scratch.file("\(folder)-\(count)")
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
    for file in try FileManager.default.contentsOfDirectory(atPath: source).filter({ $0.hasSuffix(".sql") }).sorted().prefix(count) {
        try FileManager.default.copyItem(atPath: source + "/" + file, toPath: target + "/" + file)
    }
    return target
}

/// Start-up and security settings: fail closed, and say exactly what is wrong.
extension EndToEndTests {
    /// A variable that is set but empty is refused, naming it, instead of being taken as not
    /// given: `NAVSIM_TOKEN=` used to start the server with no authentication at all.
    @Test func aSetButEmptyVariableRefusesToStart() throws {
        let scratch = try Scratch()
        for name in ["NAVSIM_TOKEN", "NAVSIM_TOKEN_FILE", "NAVSIM_STORE", "NAVSIM_HOST", "NAVSIM_PORT", "NAVSIM_MAX_CONNECTIONS"] {
            // Not overridden on the command line: --port 0 would win over NAVSIM_PORT.
            let port = name == "NAVSIM_PORT" ? [] : ["--port", "0"]
            let run = try runToExit(port + ["--db", scratch.file("a.sqlite")], environment: [name: ""])
            #expect(run.status == 2, "\(name)=: \(run)")
            #expect(fatalMessage(run.output)?.contains("\(name) is set but empty") == true, "\(name)=: \(run)")
        }
        let db = try runToExit(["--port", "0"], environment: ["NAVSIM_DB": ""])
        #expect(db.status == 2 && fatalMessage(db.output)?.contains("NAVSIM_DB is set but empty") == true, "\(db)")
        // On the command line too: an empty --db would be SQLite's private temporary database.
        for flag in ["--token", "--token-file", "--db", "--store"] {
            let run = try runToExit(["--port", "0", flag, ""])
            #expect(run.status == 2 && fatalMessage(run.output)?.contains("\(flag) is empty") == true, "\(flag) '': \(run)")
        }
        // A token file that exists but holds only blanks still exits.
        try " \n# none\n\t\n".write(toFile: scratch.file("blank-tokens"), atomically: true, encoding: .utf8)
        let blank = try runToExit(["--port", "0", "--db", scratch.file("a.sqlite")], environment: ["NAVSIM_TOKEN_FILE": scratch.file("blank-tokens")])
        #expect(blank.status == 2 && fatalMessage(blank.output)?.contains("holds no token") == true, "\(blank)")
        // A token that no client could send (RFC 6750 §2.1) is refused, from a file or a flag.
        try "good-token\ntok with space\n".write(toFile: scratch.file("spaced-tokens"), atomically: true, encoding: .utf8)
        let spaced = try runToExit(["--port", "0", "--db", scratch.file("a.sqlite"), "--token-file", scratch.file("spaced-tokens")])
        #expect(spaced.status == 2 && fatalMessage(spaced.output)?.contains("token 2 of") == true, "\(spaced)")
        #expect(!(spaced.output.contains("tok with space")), "a token is never printed: \(spaced)")
        let quoted = try runToExit(["--port", "0", "--db", scratch.file("a.sqlite"), "--token", "a\"b"])
        #expect(quoted.status == 2 && fatalMessage(quoted.output)?.contains("not a bearer token") == true, "\(quoted)")
        // A flag is never taken as the value of the one before it.
        let swallowed = try runToExit(["--port", "0", "--db", scratch.file("a.sqlite"), "--token", "--help"])
        #expect(swallowed.status == 2 && fatalMessage(swallowed.output)?.contains("--token needs a value") == true, "\(swallowed)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("a.sqlite")), "a database was created before a refusal")
        // The flag wins over its variable, so an empty variable it overrides does no harm.
        let overridden = try Server(databasePath: scratch.file("b.sqlite"), logPath: scratch.file("log"),
                                    arguments: ["--token", "t0k3n"], environment: ["NAVSIM_TOKEN": "", "NAVSIM_DB": ""])
        #expect(try overridden.request("GET", "/v1/sessions").status == 401)
        #expect(try overridden.request("GET", "/v1/sessions", headers: [("Authorization", "Bearer t0k3n")]).status == 200)
        #expect(overridden.stop(with: SIGTERM))
    }

    /// SIGHUP re-reads the token file: the old token is refused, the new one accepted, the
    /// server still serves. A file that no longer names a token keeps the tokens in force.
    @Test func sighupReloadsTheTokenFile() throws {
        let scratch = try Scratch()
        let tokenFile = scratch.file("tokens")
        try "old-token\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let server = try Server(databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("log"),
                                arguments: ["--token-file", tokenFile])
        func status(_ token: String) throws -> Int {
            try server.request("GET", "/v1/sessions", headers: [("Authorization", "Bearer \(token)")]).status
        }
        func reloads(_ predicate: @escaping ([String: Any]) -> Bool) -> Int { server.logLines.filter(predicate).count }
        let reloaded: ([String: Any]) -> Bool = { $0["message"] as? String == "tokens reloaded" }
        let refused: ([String: Any]) -> Bool = { ($0["message"] as? String)?.hasPrefix("tokens not reloaded") == true }
        #expect(try status("old-token") == 200)

        try "# rotated\nnew-token\nsecond-token\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        #expect(server.process.signal(SIGHUP))
        #expect(server.waitForLogLine(reloaded), "\(server.log)")
        let line = try #require(server.logLines.first(where: reloaded))
        #expect(line["tokens"] as? Int == 2 && line["level"] as? String == "info", "\(line)")
        #expect(try status("old-token") == 401)
        #expect(try status("new-token") == 200 && status("second-token") == 200)

        // Emptied, then gone: each reload is refused with an error line, the tokens stay.
        try "# nothing here\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        #expect(server.process.signal(SIGHUP))
        #expect(server.waitForLogLine { refused($0) && ($0["message"] as? String)?.contains("holds no token") == true }, "\(server.log)")
        try FileManager.default.removeItem(atPath: tokenFile)
        #expect(server.process.signal(SIGHUP))
        #expect(server.waitForLogLine { refused($0) && ($0["message"] as? String)?.contains("cannot read") == true }, "\(server.log)")
        #expect(reloads(refused) == 2 && server.logLines.filter(refused).allSatisfy { $0["level"] as? String == "error" })
        #expect(try status("new-token") == 200)
        #expect(try server.request("GET", "/v1/sessions").status == 401, "a failed reload turned authentication off")
        #expect(server.process.termination == nil, "SIGHUP ended the server")
        #expect(!server.log.contains("new-token") && !server.log.contains("old-token"), "a token reached the log")
        #expect(server.stop(with: SIGTERM) && server.process.termination == .exited(0), "\(server.log)")

        // Without --token-file there is nothing to reload: said, and the server serves on.
        let plain = try Server(databasePath: scratch.file("other.sqlite"), logPath: scratch.file("plain.log"))
        #expect(plain.process.signal(SIGHUP))
        #expect(plain.waitForLogLine { ($0["message"] as? String)?.contains("no --token-file to reload") == true }, "\(plain.log)")
        #expect(try plain.request("GET", "/healthz").status == 200)
        #expect(plain.stop(with: SIGTERM) && plain.process.termination == .exited(0))
    }

    /// A migrations folder that lacks steps this binary needs is refused at start, naming the
    /// first missing step, before the database is created (it used to start and answer 500
    /// `no such table` at the first storyboard upload). For PostgreSQL the folder is checked
    /// before connecting, so an unreachable server still shows the folder's fault.
    @Test func anOlderMigrationsFolderIsRefused() throws {
        let scratch = try Scratch()
        let sqlite = try runToExit(["--port", "0", "--db", scratch.file("x.sqlite")],
                                   environment: ["NAVSIM_MIGRATIONS": try olderMigrations("migrations", keeping: 4, in: scratch)])
        #expect(sqlite.status == 2, "\(sqlite)")
        #expect(fatalMessage(sqlite.output)?.contains("lack 0005_pending_deletions.sql") == true, "\(sqlite)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("x.sqlite")))
        let postgres = try runToExit(["--port", "0", "--store", "postgresql://127.0.0.1:1/x"],
                                     environment: ["NAVSIM_POSTGRES_MIGRATIONS": try olderMigrations("migrations-postgres", keeping: 6, in: scratch)])
        #expect(postgres.status == 2, "\(postgres)")
        #expect(fatalMessage(postgres.output)?.contains("lack 0007_chunked_deletes.sql") == true, "\(postgres)")
    }

    /// A missing folder, a folder the server may not create the file in and a file it may not
    /// write each get their own message with the path (all three were `SQLite error 14`). Root
    /// may write anything, so those two run the binary as `nobody` through setpriv(1) when the
    /// tests run as root: the permission checks are then the kernel's, as in production.
    @Test func databaseLocationErrorsSayWhatIsWrong() throws {
        let scratch = try Scratch()
        let missing = try runToExit(["--port", "0", "--db", "/nonexistent/dir/x.sqlite"])
        #expect(missing.status == 2 && fatalMessage(missing.output)?.contains("the folder /nonexistent/dir of database /nonexistent/dir/x.sqlite does not exist") == true,
                "\(missing)")

        let launcher = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        if getuid() == 0 { try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "setpriv (util-linux) is needed as root") }
        let fm = FileManager.default
        let locked = scratch.file("locked")
        try fm.createDirectory(atPath: locked, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o555])
        let folder = try runToExit(["--port", "0", "--db", locked + "/x.sqlite"], launcher: launcher)
        #expect(folder.status == 2 && fatalMessage(folder.output) ==
                "cannot open the database \(locked)/x.sqlite: cannot create database \(locked)/x.sqlite: the folder \(locked) is not writable (permission denied)",
                "\(folder)")
        #expect(!fm.fileExists(atPath: locked + "/x.sqlite"))

        // An open folder (anyone may create the -wal and -shm files) and a file only its owner
        // may write: root's, or, when not root, one without write permission at all.
        let open = scratch.file("open")
        try fm.createDirectory(atPath: open, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        try fm.setAttributes([.posixPermissions: 0o777], ofItemAtPath: open)  // past the umask
        try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.path)
        let file = open + "/x.sqlite"
        #expect(fm.createFile(atPath: file, contents: nil, attributes: [.posixPermissions: getuid() == 0 ? 0o644 : 0o444]))
        let readOnly = try runToExit(["--port", "0", "--db", file], launcher: launcher)
        #expect(readOnly.status == 2 && fatalMessage(readOnly.output) ==
                "cannot open the database \(file): database \(file) cannot be written (permission denied)", "\(readOnly)")
        #expect((try? fm.contentsOfDirectory(atPath: open)) == ["x.sqlite"], "files were created beside it")
    }

    /// A port in use is found before the database is created or migrated: exit 2 naming
    /// HOST:PORT, and the folder stays empty.
    @Test func aTakenPortLeavesNoDatabaseBehind() throws {
        let scratch = try Scratch()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        try #require(bound, "errno \(errno)")
        let port = UInt16(bigEndian: address.sin_port)
        let folder = scratch.file("fresh")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let run = try runToExit(["--host", "127.0.0.1", "--port", String(port), "--db", folder + "/navsim.sqlite"])
        #expect(run.status == 2, "\(run)")
        #expect(fatalMessage(run.output)?.hasPrefix("cannot listen on 127.0.0.1:\(port): ") == true, "\(run)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder)) == [], "the database was created before the port was tried")
    }

    /// `serve --help` and the README's configuration table name the same places, in the same
    /// order, for the migrations folder (Resources.locate: beside the binary and up to four
    /// folders above, the working directory, /usr/share/navsim).
    @Test func helpAndReadmeAgreeOnWhereMigrationsAreFound() throws {
        let help = try runToExit(["serve", "--help"])
        let helpLine = try #require(help.output.split(separator: "\n").first { $0.hasPrefix("  --migrations ") }.map(String.init), "\(help)")
        let readme = try String(contentsOfFile: Checkout.root.appendingPathComponent("README.md").path, encoding: .utf8)
        let row = try #require(readme.split(separator: "\n").first { $0.hasPrefix("| `--migrations` |") }.map(String.init))
        let places = ["beside the binary", "up to four folders above it", "the working directory", "/usr/share/navsim/migrations"]
        for text in [helpLine, row] {
            let positions = places.map { text.range(of: $0)?.lowerBound }
            #expect(positions.allSatisfy { $0 != nil }, "missing in: \(text)")
            let found = positions.compactMap { $0 }
            #expect(found == found.sorted(), "out of order in: \(text)")
        }
    }
}

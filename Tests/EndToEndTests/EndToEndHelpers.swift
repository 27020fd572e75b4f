import Foundation
import Glibc
import ProcessSpawning
import Synchronization
import JSONValues
import Testing
import TestSupport

import SQLite
import NavSimService

// The real `navsim` binary on an ephemeral port of 127.0.78.1, spoken to over a raw socket.

/// Files of the checkout the binary needs (a build directory has no `migrations/` beside it).
enum Checkout {
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
func locateBinary() throws -> String {
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
let serverHost = "127.0.78.1"

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
func connectedSocket(port: UInt16) throws -> Int32 {
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
func exchange(
    port: UInt16, _ method: String, _ target: String, body: [UInt8]? = nil,
    headers extra: [(String, String)] = [], sendBody: Bool = true
) throws -> WireReply {
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
    guard
        let end = received.indices.dropLast(3).first(where: {
            received[$0] == 13 && received[$0 + 1] == 10 && received[$0 + 2] == 13 && received[$0 + 3] == 10
        })
    else { throw E2EError("no response head for \(method) \(target): \(String(decoding: received, as: UTF8.self))") }
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
    init(
        databasePath: String, logPath: String, arguments: [String] = [], environment extra: [String: String] = [:],
        executable: String? = nil, workingDirectory: String? = nil, openAPIFile: Bool = true
    ) throws {
        self.logPath = logPath
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)  // each run's log starts empty
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        environment["NAVSIM_MIGRATIONS"] = Checkout.migrations
        environment["NAVSIM_OPENAPI"] = openAPIFile ? Checkout.openAPI : nil
        process = try ChildProcess(
            executable: try executable ?? locateBinary(),
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
                    let colon = url.lastIndex(of: ":"), let port = UInt16(url[url.index(after: colon)...])
                else { continue }
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

/// Runs the binary to its end (bounded: 10 s) and returns its status and its stdout+stderr.
/// `launcher` runs it through another program (`setpriv …` to drop root), which takes the binary's
/// path and arguments after its own.
func runToExit(
    _ arguments: [String], environment extra: [String: String] = [:],
    launcher: [String] = []
) throws -> (status: Int32, output: String) {
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
    let process = try ChildProcess(
        executable: launcher.first ?? binary,
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
func storyboard(paddedTo bytes: Int) -> [UInt8] { Array(StoryboardXML.home(paddedTo: bytes).utf8) }

/// The message of a fatal start-up error of `serve`: the whole output must be one JSON log line
/// with `time` and `level` `error`, as the server's other lines are; nil otherwise.
func fatalMessage(_ output: String) -> String? {
    let lines = output.split(separator: "\n")
    guard lines.count == 1,
        let object = (try? JSONSerialization.jsonObject(with: Data(lines[0].utf8))) as? [String: Any],
        object["level"] as? String == "error", object["time"] is String
    else { return nil }
    return object["message"] as? String
}

/// A copy of the checkout's `folder` holding only its first `count` steps.
func olderMigrations(_ folder: String, keeping count: Int, in scratch: Scratch) throws -> String {
    let source = Checkout.root.appendingPathComponent(folder).path
    let target = scratch.file("\(folder)-\(count)")
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
    for file in try FileManager.default.contentsOfDirectory(atPath: source).filter({ $0.hasSuffix(".sql") }).sorted().prefix(count) {
        try FileManager.default.copyItem(atPath: source + "/" + file, toPath: target + "/" + file)
    }
    return target
}

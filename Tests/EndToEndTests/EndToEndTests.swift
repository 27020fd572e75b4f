import Foundation
import Glibc
import JSONValues
import ProcessSpawning
import Synchronization
import Testing
import TestSupport

import SQLite
import NavSimService

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

        func ok(
            _ method: String, _ target: String, _ body: String? = nil, status: Int = 200,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> WireReply {
            let r = try first.request(method, target, body)
            #expect(r.status == status, "\(method) \(target): \(r)", sourceLocation: sourceLocation)
            return r
        }
        _ = try ok("POST", "/v1/sessions", #"{"id": "nav", "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"id": "home"}]}}"#, status: 201)
        _ = try ok(
            "POST", "/v1/sessions",
            """
            {"id": "tabs", "root": {"id": "tabs", "kind": "tabBarController", "viewControllers": [
              {"id": "navA", "kind": "navigationController", "viewControllers": [{"id": "rootA"}]},
              {"id": "navB", "kind": "navigationController", "viewControllers": [{"id": "rootB"}]}]}}
            """, status: 201)
        _ = try ok(
            "POST", "/v1/sessions",
            #"{"id": "manual", "options": {"transitions": "manual"}, "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"id": "home"}]}}"#, status: 201)

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
                _ = try ok(
                    "POST", "/v1/sessions/tabs/controllers/\(selected == 0 ? "navA" : "navB")/push",
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
        let turn = try ok(
            "POST", "/v1/sessions/nav/turns",
            """
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

        let server = try Server(
            databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("navsim.log"),
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
        #expect(
            server.logLines.contains { $0["level"] as? String == "warning" && $0["time"] is String && isLibraryLine($0) },
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
            #expect(
                server.process.termination == .exited(0),
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

        r = try server.request(
            "POST", "/v1/sessions",
            #"{"id": "mail", "root": {"id": "inboxNav", "kind": "navigationController", "viewControllers": [{"id": "inbox", "class": "InboxViewController"}]}}"#)
        #expect(r.status == 201, "\(r)")
        #expect(r.header("Location") == "/v1/sessions/mail")
        #expect(r.header("ETag") == #""0""#)

        r = try server.request(
            "POST", "/v1/sessions/mail/controllers/inbox/present",
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
        #expect(
            server.logLines.contains { $0["path"] as? String == "/v1/sessions/abc%0AGET%20/healthz%20200%201us" && $0["status"] as? Int == 404 },
            "\(server.log)")

        // Over 1 MiB: 413, after the body was read and dropped, so the client sees it.
        r = try exchange(
            port: server.port, "POST", "/v1/sessions/mail/controllers/inbox/dismiss",
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
        #expect(
            next != fresh && next > fresh && next.suffix(5) == fresh.suffix(5),
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
        r = try exchange(
            port: server.port, "POST", "/v1/sessions", body: Array("{}".utf8),
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
        let server = try Server(
            databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("navsim.log"),
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

        server = try Server(
            databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("proxied.log"),
            arguments: ["--trusted-proxies", "127.0.0.0/8, 10.0.0.0/8,2001:db8::/32"])
        defer { _ = server.stop(with: SIGTERM) }
        let cases: [(forwardedFor: [String], client: String)] = [
            (["198.51.100.7, 203.0.113.9, 10.1.2.3"], "203.0.113.9"),  // the right-most untrusted one
            (["198.51.100.7", "10.0.0.5"], "198.51.100.7"),  // two field lines are one list
            (["2001:db8::1, 10.0.0.1"], "2001:db8::1"),  // every hop trusted: the left-most
            (["2001:db9::7"], "2001:db9::7"),
            (["203.0.113.9, not-an-address, 10.0.0.5"], "10.0.0.5"),  // garbage ends the walk at a trusted hop
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
        let server = try Server(
            databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("navsim.log"),
            executable: binary, workingDirectory: installed, openAPIFile: false)
        defer { _ = server.stop(with: SIGTERM) }
        let reply = try server.request("GET", "/openapi.yaml")
        let expected = try #require(FileManager.default.contents(atPath: Checkout.openAPI))
        #expect(reply.status == 200 && reply.header("Content-Type") == "application/yaml", "\(reply.status)")
        #expect(reply.body == Array(expected), "served \(reply.body.count) bytes, the repository's file has \(expected.count)")
        // --openapi still names a file to serve instead.
        let other = scratch.file("other.yaml")
        try Data("openapi: 3.1.0\ninfo: {title: other, version: '1'}\npaths: {}\n".utf8).write(to: URL(fileURLWithPath: other))
        let overridden = try Server(
            databasePath: scratch.file("second.sqlite"), logPath: scratch.file("second.log"),
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
                    #expect(
                        object?["method"] as? String == "GET" && object?["status"] is Int && object?["time"] is String
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
        #expect(
            version.status == 0 && version.output.hasPrefix("navsim ") && version.output.split(separator: "\n").count == 1,
            "\(version)")

        let server = try Server(databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("navsim.log"))
        defer { _ = server.stop(with: SIGTERM) }
        let busy = try runToExit(["--host", serverHost, "--port", String(server.port), "--db", scratch.file("other.sqlite")])
        #expect(busy.status == 2, "\(busy)")
        #expect(
            busy.output.components(separatedBy: "cannot listen").count == 2 && busy.output.split(separator: "\n").count == 1,
            "the bind failure is said once, on one line: \(busy.output)")
        #expect(fatalMessage(busy.output) == "cannot listen on \(serverHost):\(server.port): Address already in use", "\(busy)")

        let missing = try runToExit(
            ["--port", "0", "--db", scratch.file("x.sqlite")],
            environment: ["NAVSIM_MIGRATIONS": scratch.file("no-such-folder")])
        #expect(missing.status == 2 && fatalMessage(missing.output)?.contains("no-such-folder does not exist") == true, "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("x.sqlite")), "nothing is created when migrations are missing")

        // An empty migrations folder and a bad host are refused before the database is created.
        try FileManager.default.createDirectory(atPath: scratch.file("empty"), withIntermediateDirectories: true)
        let empty = try runToExit(
            ["--port", "0", "--db", scratch.file("y.sqlite")],
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
        let fromEnvironment = try runToExit(
            ["--port", "0", "--db", scratch.file("a.sqlite")],
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
        #expect(
            fatalMessage(down.output)?.hasPrefix("cannot open the PostgreSQL database postgresql://navsim:***@127.0.0.1:1/navsim") == true,
            "\(down)")
        #expect(!down.output.contains("hunter2"), "\(down)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("a.sqlite")), "no SQLite file is made for --store")
    }
}

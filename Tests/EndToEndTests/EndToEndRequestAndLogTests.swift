import Foundation
import Glibc
import ProcessSpawning
import Synchronization
import JSONValues
import Testing
import TestSupport

import SQLite
import NavSimService

/// Hostile and large requests; in the serialized suite, so that no two binaries start at once.
extension EndToEndTests {
    /// Real apps ship storyboards of 2.3 MB: 2.5 MB is accepted. 20 MB is over the 16 MiB XML
    /// limit, and the 413 arrives after the whole body was sent, as a client that does not wait
    /// for `100 Continue` needs (sending it would fail with a reset if the server closed first).
    @Test func aLargeStoryboardUploadsAndAnOversizedOneGetsAReadable413() throws {
        let scratch = try Scratch()
        let server = try Server(databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("log"))
        let big = try exchange(
            port: server.port, "PUT", "/v1/storyboards/Big", body: storyboard(paddedTo: 2_500_000),
            headers: [("Content-Type", "application/xml")])
        #expect(big.status == 201, "\(big)")
        let huge = try exchange(
            port: server.port, "PUT", "/v1/storyboards/Huge", body: storyboard(paddedTo: 20_000_000),
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
        let server = try Server(
            databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("log"),
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
        let upload = try exchange(
            port: server.port, "PUT", "/v1/storyboards/Big", body: storyboard(paddedTo: 3_000_000),
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
        let xml = StoryboardXML.document(
            initial: "a",
            scenes: [
                #"<scene sceneID="s"><objects><viewController id="a" sceneMemberID="viewController"/></objects></scene>"#
            ])
        do {
            let server = try Server(databasePath: database, logPath: scratch.file("first.log"))
            defer { _ = server.stop(with: SIGTERM) }
            #expect(
                try exchange(
                    port: server.port, "PUT", "/v1/storyboards/Main", body: Array(xml.utf8),
                    headers: [("Content-Type", "application/xml")]
                ).status == 201)
            let lock = try SQLite.Connection(path: database)
            try lock.execute("BEGIN IMMEDIATE")
            let refused = try exchange(
                port: server.port, "PUT", "/v1/storyboards/Other", body: Array(xml.utf8),
                headers: [("Content-Type", "application/xml")])
            try lock.execute("ROLLBACK")
            #expect(refused.status == 500 && refused["type"]?.string == "/v1/problems/storage-failure", "\(refused)")
            #expect(server.waitForLogLine { $0["level"] as? String == "error" }, "\(server.log)")
            let line = try #require(server.logLines.first { $0["level"] as? String == "error" })
            #expect(line["message"] as? String == "The storyboard could not be stored", "\(line)")
            #expect(line["code"] as? Int == 5, "SQLITE_BUSY: \(line)")
            #expect((line["error"] as? String)?.contains("SQLite error 5") == true, "\(line)")
            #expect(
                (line["time"] as? String).flatMap { try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse($0) } != nil,
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

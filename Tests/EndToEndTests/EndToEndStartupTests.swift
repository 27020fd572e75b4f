import Foundation
import Glibc
import ProcessSpawning
import Synchronization
import Testing
import TestSupport

import SQLite
import NavSimService

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
        let overridden = try Server(
            databasePath: scratch.file("b.sqlite"), logPath: scratch.file("log"),
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
        let server = try Server(
            databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("log"),
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
        let sqlite = try runToExit(
            ["--port", "0", "--db", scratch.file("x.sqlite")],
            environment: ["NAVSIM_MIGRATIONS": try olderMigrations("migrations", keeping: 4, in: scratch)])
        #expect(sqlite.status == 2, "\(sqlite)")
        #expect(fatalMessage(sqlite.output)?.contains("lack 0005_pending_deletions.sql") == true, "\(sqlite)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("x.sqlite")))
        let postgres = try runToExit(
            ["--port", "0", "--store", "postgresql://127.0.0.1:1/x"],
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
        #expect(
            missing.status == 2 && fatalMessage(missing.output)?.contains("the folder /nonexistent/dir of database /nonexistent/dir/x.sqlite does not exist") == true,
            "\(missing)")

        let launcher = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        if getuid() == 0 { try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "setpriv (util-linux) is needed as root") }
        let fm = FileManager.default
        let locked = scratch.file("locked")
        try fm.createDirectory(atPath: locked, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o555])
        let folder = try runToExit(["--port", "0", "--db", locked + "/x.sqlite"], launcher: launcher)
        #expect(
            folder.status == 2
                && fatalMessage(folder.output)
                    == "cannot open the database \(locked)/x.sqlite: cannot create database \(locked)/x.sqlite: the folder \(locked) is not writable (permission denied)",
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
        #expect(readOnly.status == 2 && fatalMessage(readOnly.output) == "cannot open the database \(file): database \(file) cannot be written (permission denied)", "\(readOnly)")
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

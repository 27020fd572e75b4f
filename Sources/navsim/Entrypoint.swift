import Foundation
import HTTPServer
import NavSimService

/// `navsim [--host 127.0.0.1] [--port 8080] [--db ./navsim.sqlite]` (also NAVSIM_HOST, NAVSIM_PORT,
/// NAVSIM_DB, NAVSIM_MIGRATIONS). Flags win over the environment. Only wiring lives here.
@main
struct Entrypoint {
    static func main() {
        Signals.block()
        let env = ProcessInfo.processInfo.environment
        var host = env["NAVSIM_HOST"] ?? "127.0.0.1"
        var port = env["NAVSIM_PORT"] ?? "8080"
        var db = env["NAVSIM_DB"] ?? "./navsim.sqlite"
        var args = Array(CommandLine.arguments.dropFirst())
        while !args.isEmpty {
            let flag = args.removeFirst()
            if flag == "--help" || flag == "-h" {
                print("usage: navsim [--host 127.0.0.1] [--port 8080] [--db ./navsim.sqlite]")
                exit(0)
            }
            guard ["--host", "--port", "--db"].contains(flag), !args.isEmpty else { fail("unknown or incomplete flag \(flag)") }
            let value = args.removeFirst()
            switch flag {
            case "--host": host = value
            case "--port": port = value
            default: db = value
            }
        }
        guard let portNumber = UInt16(port) else { fail("--port must be 0…65535, got \(port)") }
        guard let migrations = Resources.find("migrations", env: env["NAVSIM_MIGRATIONS"]) else {
            fail("cannot find the migrations folder; set NAVSIM_MIGRATIONS")
        }
        let openAPI = Resources.find("openapi.yaml", env: env["NAVSIM_OPENAPI"])
            .flatMap { FileManager.default.contents(atPath: $0) }.map { Array($0) } ?? Array("openapi: 3.1.0\n".utf8)
        let service: NavSimService
        do {
            service = try NavSimService(databasePath: db, migrationsDirectory: migrations, openAPI: openAPI)
        } catch {
            fail("cannot open \(db): \(error)")
        }
        let server: HTTPServer
        do {
            server = try HTTPServer(configuration: HTTPServerConfiguration(host: host, port: portNumber,
                                                                           maxBodyBytes: NavSimService.maxBodyBytes)) { request in
                let started = ContinuousClock.now
                let response = service.handle(request)
                let elapsed = ContinuousClock.now - started
                let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
                Log.line("\(Log.escaped(request.method)) \(Log.escaped(request.path)) \(response.status) \(micros)µs")
                return response
            }
        } catch {
            fail("cannot listen on \(host):\(port): \(error)")
        }
        Log.line("navsim listening on http://\(host):\(server.port) (db \(db))")
        Signals.waitForTermination()
        Log.line("navsim stopping")
        server.stop()
        exit(0)
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("navsim: \(message)\n".utf8))
        exit(2)
    }
}

enum Log {
    static func line(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Client text as it goes into a log line: control characters and spaces percent-encoded, so
    /// a request cannot forge or split lines (the path arrives percent-decoded).
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x21 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) || scalar == "%" {
                for byte in String(scalar).utf8 { out += "%" + String(byte, radix: 16, uppercase: true).leftPadded() }
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

private extension String {
    func leftPadded() -> String { count == 1 ? "0" + self : self }
}

/// Finds a resource folder or file: the environment variable, then next to the executable and up
/// to four folders above it (a checkout's `.build/release/navsim`), then the working directory,
/// then /usr/share/navsim (the container image).
enum Resources {
    static func find(_ name: String, env: String?) -> String? {
        let fm = FileManager.default
        if let env, fm.fileExists(atPath: env) { return env }
        var candidates: [String] = []
        if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
            for _ in 0..<5 {
                candidates.append(dir.appendingPathComponent(name).path)
                dir = dir.deletingLastPathComponent()
            }
        }
        candidates.append(fm.currentDirectoryPath + "/" + name)
        candidates.append("/usr/share/navsim/" + name)
        return candidates.first { fm.fileExists(atPath: $0) }
    }
}

/// SIGINT/SIGTERM end the process cleanly. They are blocked first thing in `main`, before any
/// thread exists, so every thread (libmicrohttpd's, Dispatch's) inherits the mask and a signal
/// that arrives at any moment, even as the port opens, stays pending until `sigwait` takes it.
/// (Ignoring them and arming a Dispatch signal source after the server started lost a signal
/// sent in between: the process then never stopped.)
enum Signals {
    static func block() {
        var set = termination
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    static func waitForTermination() {
        var set = termination
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
    }

    private static var termination: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }
}

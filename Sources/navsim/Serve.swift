import Foundation
import HTTPServer
import JSONValues
import NavSimService
import PostgresStore
import SQLiteStore
import SessionStorage
import Storyboards
import Synchronization

/// `navsim serve`: opens (and migrates) the database, serves the API until SIGINT/SIGTERM.
enum Serve {
    static let usage = "navsim [serve] [--host 127.0.0.1] [--port 8080] [--db ./navsim.sqlite | --store postgres://…]"

    static let flags: [Flags.Flag] =
        [
            .init(name: "host", env: "NAVSIM_HOST", defaultValue: "127.0.0.1", help: "IPv4 address to listen on"),
            .init(name: "port", env: "NAVSIM_PORT", defaultValue: "8080", help: "TCP port (0: any free port)"),
            .init(
                name: "db", env: "NAVSIM_DB", defaultValue: "./navsim.sqlite",
                help: "SQLite database, created and migrated on start"),
            .init(
                name: "store", env: "NAVSIM_STORE", defaultValue: nil,
                help: "postgres://… or postgresql://… (a libpq URL): keep sessions in a PostgreSQL database several instances share, instead of --db"),
            .init(
                name: "migrations", env: "NAVSIM_MIGRATIONS", defaultValue: nil,
                help:
                    "folder of NNNN_name.sql files (default: migrations/ beside the binary or up to four folders above it, the working directory, then /usr/share/navsim/migrations)"
            ),
            .init(
                name: "postgres-migrations", env: "NAVSIM_POSTGRES_MIGRATIONS", defaultValue: nil,
                help: "folder of PostgreSQL NNNN_name.sql files for --store (default: migrations-postgres, found as --migrations is)"),
            .init(
                name: "openapi", env: "NAVSIM_OPENAPI", defaultValue: nil,
                help: "a file served at /openapi.yaml instead of the openapi.yaml built into the binary"),
            // Authentication (RFC 6750). A token on the command line shows in `ps`: prefer the environment or a file.
            .init(
                name: "token", env: "NAVSIM_TOKEN", defaultValue: nil,
                help: "bearer token every route but /healthz and /readyz requires (no tenancy: a token is full access)"),
            .init(
                name: "token-file", env: "NAVSIM_TOKEN_FILE", defaultValue: nil,
                help: "file of accepted bearer tokens, one a line (# comments); adds to --token; read again on SIGHUP"),
            // Request bodies.
            .init(
                name: "max-json-body", env: "NAVSIM_MAX_JSON_BODY", defaultValue: "\(NavSimService.maxBodyBytes)",
                help: "largest JSON body in bytes (also for bodies of any other type); larger is 413"),
            .init(
                name: "max-xml-body", env: "NAVSIM_MAX_XML_BODY", defaultValue: "\(NavSimService.maxStoryboardBytes)",
                help: "largest storyboard (application/xml, text/xml) body in bytes; larger is 413"),
            .init(
                name: "max-discard-body", env: "NAVSIM_MAX_DISCARD_BODY", defaultValue: "\(64 << 20)",
                help: "bytes of an oversized body read and dropped so the client sees the 413; beyond, the reply goes out at once"),
            // Slow and idle clients, connections.
            .init(
                name: "header-timeout", env: "NAVSIM_HEADER_TIMEOUT", defaultValue: "10",
                help: "seconds a connection has to send a request's headers (from its start or its previous reply); 0: none"),
            .init(
                name: "request-timeout", env: "NAVSIM_REQUEST_TIMEOUT", defaultValue: "120",
                help: "seconds a connection has to send a whole request, body included; 0: none"),
            .init(
                name: "idle-timeout", env: "NAVSIM_IDLE_TIMEOUT", defaultValue: "30",
                help: "seconds without a byte before a connection is closed; 0: none"),
            .init(
                name: "max-connections", env: "NAVSIM_MAX_CONNECTIONS", defaultValue: "4096",
                help: "concurrent connections, lowered to stay below the file-descriptor limit"),
            .init(
                name: "max-connections-per-ip", env: "NAVSIM_MAX_CONNECTIONS_PER_IP", defaultValue: "256",
                help: "concurrent connections from one IP address; 0: no limit"),
            // The pool that runs handlers. Durable writes no longer hold a thread (their connection is
            // suspended until the commit), so fewer threads mean fewer wake-ups per commit batch
            // (2 threads measured ~0.6 context switches and ~130 us CPU per write, 8 threads
            // ~0.8-1.3 and ~140-160); but a slow handler (a 16 MiB storyboard parsed, a session loaded)
            // then holds a larger share of the connections, so the default stays 8.
            // Logs. X-Forwarded-For is anyone's to send: believed only from the proxies named here.
            .init(
                name: "trusted-proxies", env: "NAVSIM_TRUSTED_PROXIES", defaultValue: nil,
                help: "comma-separated addresses or CIDR blocks of proxies whose X-Forwarded-For names the client in the request log (default: none)"),
            .init(
                name: "threads", env: "NAVSIM_THREADS", defaultValue: "8",
                help: "libmicrohttpd pool threads that run handlers (at least 1)"),
            // Memory (docs/configuration: sessions load on first use; idle ones past the budget leave memory).
            .init(
                name: "max-loaded-sessions", env: "NAVSIM_MAX_LOADED_SESSIONS", defaultValue: "\(NavSimService.defaultLoadedSessions)",
                help: "sessions kept decoded in memory; idle ones beyond are evicted and reload from the database on next use"),
            .init(
                name: "session-cache-bytes", env: "NAVSIM_SESSION_CACHE_BYTES", defaultValue: "\(NavSimService.defaultCacheBytes)",
                help: "bytes of encoded session replies kept for reads; 0: encode every read"),
            // Stopping (docs/deployment.md "Stopping").
            .init(
                name: "shutdown-grace", env: "NAVSIM_SHUTDOWN_GRACE", defaultValue: "10",
                help: "seconds a SIGTERM/SIGINT waits for requests in flight and open connections before answering what is left 503"),
        ] + limitFlags.map(\.flag)

    /// One row per entry of `Limits`: exceeding one is a 422 `limit-exceeded` naming it.
    static let limitFlags: [(flag: Flags.Flag, apply: @Sendable (inout Limits, Int) -> Void)] = {
        let d = Limits.defaults
        func row(
            _ name: String, _ env: String, _ value: Int, _ help: String,
            _ apply: @escaping @Sendable (inout Limits, Int) -> Void
        ) -> (flag: Flags.Flag, apply: @Sendable (inout Limits, Int) -> Void) {
            (Flags.Flag(name: name, env: env, defaultValue: String(value), help: help), apply)
        }
        return [
            row(
                "max-controllers", "NAVSIM_MAX_CONTROLLERS", d.controllersPerSession,
                "controllers in one session (limit controllersPerSession)"
            ) { $0.controllersPerSession = $1 },
            row(
                "max-stack-depth", "NAVSIM_MAX_STACK_DEPTH", d.navigationStackDepth,
                "view controllers on one navigation stack (limit navigationStackDepth)"
            ) { $0.navigationStackDepth = $1 },
            row(
                "max-tabs", "NAVSIM_MAX_TABS", d.tabsPerTabBar,
                "view controllers of one tab bar controller (limit tabsPerTabBar)"
            ) { $0.tabsPerTabBar = $1 },
            row(
                "max-spec-width", "NAVSIM_MAX_SPEC_WIDTH", d.specWidth,
                "ControllerSpecs in one array, entries in one list of a controller (limit specWidth)"
            ) { $0.specWidth = $1 },
            row(
                "max-spec-depth", "NAVSIM_MAX_SPEC_DEPTH", d.specDepth,
                "ControllerSpecs nested in one another (limit specDepth)"
            ) { $0.specDepth = $1 },
            row(
                "max-turn-operations", "NAVSIM_MAX_TURN_OPERATIONS", d.operationsPerTurn,
                "operations in one turn (limit operationsPerTurn)"
            ) { $0.operationsPerTurn = $1 },
            row(
                "max-json-containers", "NAVSIM_MAX_JSON_CONTAINERS", d.jsonContainers,
                "arrays and objects in one JSON body (limit jsonContainers)"
            ) { $0.jsonContainers = $1 },
            row(
                "max-json-depth", "NAVSIM_MAX_JSON_DEPTH", d.jsonDepth,
                "arrays and objects nested in one JSON body (limit jsonDepth)"
            ) { $0.jsonDepth = $1 },
            row(
                "max-xml-attributes", "NAVSIM_MAX_XML_ATTRIBUTES", d.storyboard.attributesPerElement,
                "attributes of one storyboard element (limit attributesPerElement)"
            ) { $0.storyboard.attributesPerElement = $1 },
            row(
                "max-xml-elements", "NAVSIM_MAX_XML_ELEMENTS", d.storyboard.elements,
                "elements of one storyboard (limit elementsPerDocument)"
            ) { $0.storyboard.elements = $1 },
            row(
                "max-xml-depth", "NAVSIM_MAX_XML_DEPTH", d.storyboard.elementDepth,
                "nesting of storyboard elements (limit elementDepth)"
            ) { $0.storyboard.elementDepth = $1 },
        ]
    }()

    /// The limits the flags and environment give; a value that is not a positive integer exits 2.
    /// A storyboard document may be as large as an XML body may be (`--max-xml-body`).
    static func limits(_ flags: Flags, storyboardBytes: Int) -> Limits {
        var limits = Limits.defaults
        limits.storyboard.documentBytes = storyboardBytes
        for (flag, apply) in limitFlags {
            guard let text = flags[flag.name], let value = Int(text), value > 0 else {
                fail("--\(flag.name) / \(flag.env ?? "") must be a positive integer, got \(flags[flag.name] ?? "nothing")")
            }
            apply(&limits, value)
        }
        return limits
    }

    /// A whole number flag in `range`, or exit 2 naming the flag.
    static func number<T: FixedWidthInteger>(
        _ flags: Flags, _ name: String, _ type: T.Type,
        min: T = 0
    ) -> T {
        let raw = flags[name] ?? ""
        guard let value = T(raw.trimmingCharacters(in: .whitespaces)), value >= min else {
            fail("--\(name) must be a whole number from \(min) to \(T.max), got \(raw)")
        }
        return value
    }

    /// The tokens of `--token` and `--token-file`; exits 2 when the file cannot be read or
    /// names none. Never prints a token.
    static func tokens(_ flags: Flags) -> BearerTokens {
        switch readTokens(flags) {
        case .success(let tokens): tokens
        case .failure(let problem): fail(problem.message)
        }
    }

    /// Why tokens could not be read: a message naming the flag and the file, never a token.
    struct TokenProblem: Error { var message: String }

    /// The tokens of `--token` and `--token-file`, read now: at start and on each SIGHUP.
    static func readTokens(_ flags: Flags) -> Result<BearerTokens, TokenProblem> {
        var all: [String] = []
        if let token = flags["token"] {
            guard !BearerTokens([token]).isEmpty else { return .failure(TokenProblem(message: "--token / NAVSIM_TOKEN is empty")) }
            guard BearerTokens.isSendable(token) else {
                return .failure(TokenProblem(message: "--token / NAVSIM_TOKEN is not a bearer token: letters, digits and -._~+/ (then = only) (RFC 6750 §2.1)"))
            }
            all.append(token)
        }
        if let path = flags["token-file"] {
            guard let data = FileManager.default.contents(atPath: path) else {
                return .failure(TokenProblem(message: "--token-file / NAVSIM_TOKEN_FILE: cannot read \(path)"))
            }
            let fromFile = BearerTokens.tokens(inFile: String(decoding: data, as: UTF8.self))
            guard !fromFile.isEmpty else {
                return .failure(TokenProblem(message: "--token-file / NAVSIM_TOKEN_FILE: \(path) holds no token"))
            }
            if let bad = fromFile.firstIndex(where: { !BearerTokens.isSendable($0) }) {
                return .failure(
                    TokenProblem(
                        message: "--token-file / NAVSIM_TOKEN_FILE: token \(bad + 1) of \(path) is not a bearer token: letters, digits and -._~+/ (then = only) (RFC 6750 §2.1)"))
            }
            all += fromFile
        }
        return .success(BearerTokens(all))
    }

    /// SIGHUP: reads `--token-file` again and accepts its tokens (with `--token`'s) from the next
    /// request on, logging how many. A file that cannot be read or names no token keeps the
    /// tokens in force and logs an error: a reload never turns authentication off.
    static func reloadTokens(_ flags: Flags, into accepted: ReloadableTokens) {
        guard let path = flags["token-file"] else {
            Log.event(
                "SIGHUP: no --token-file to reload; tokens unchanged",
                [("level", .string("info")), ("tokens", .number(Double(accepted.current.count)))])
            return
        }
        switch readTokens(flags) {
        case .success(let tokens) where accepted.replace(with: tokens):
            Log.event(
                "tokens reloaded",
                [
                    ("level", .string("info")), ("tokenFile", .string(path)),
                    ("tokens", .number(Double(tokens.count))),
                ])  // how many, never which
        case .success:
            Log.write([
                ("time", .string(RFC3339.now())), ("level", .string("error")),
                ("message", .string("tokens not reloaded: \(path) names none; the previous tokens stay in force")),
                ("tokens", .number(Double(accepted.current.count))),
            ])
        case .failure(let problem):
            Log.write([
                ("time", .string(RFC3339.now())), ("level", .string("error")),
                ("message", .string("tokens not reloaded: \(problem.message); the previous tokens stay in force")),
                ("tokens", .number(Double(accepted.current.count))),
            ])
        }
    }

    static func run(_ args: [String]) -> Never {
        Signals.block()
        // From here a fatal error is a JSON log line like the server's others; --help stays text.
        FailureOutput.logLines.store(true, ordering: .relaxed)
        let flags = Flags(command: "serve", usage: usage, flags, args: args)
        guard flags.positional.isEmpty else { fail("serve: unexpected argument \(flags.positional[0])") }
        let host = flags["host"]!, port = flags["port"]!
        guard let portNumber = UInt16(port) else { fail("--port must be 0…65535, got \(port)") }
        // Checked here, before the database file is created, as every other flag is.
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else {
            fail("--host must be an IPv4 address literal such as 127.0.0.1 or 0.0.0.0, got \(host)")
        }
        let choice = storeChoice(flags)
        // The spec built into the binary (Plugins/EmbedOpenAPI), so no install layout can lose it;
        // a file named by the flag replaces it.
        let openAPI: [UInt8]
        if let path = flags["openapi"] {
            guard let data = FileManager.default.contents(atPath: path) else {
                fail("--openapi / NAVSIM_OPENAPI: cannot read \(path)")
            }
            openAPI = Array(data)
        } else {
            openAPI = embeddedOpenAPI
        }

        let tokens = tokens(flags)
        let requestLog: RequestLog
        do {
            requestLog = RequestLog(trustedProxies: try TrustedProxies(parsing: flags["trusted-proxies"] ?? ""))
        } catch {
            fail("--trusted-proxies / NAVSIM_TRUSTED_PROXIES: \(error)")
        }
        let jsonLimit = number(flags, "max-json-body", Int.self), xmlLimit = number(flags, "max-xml-body", Int.self)
        let fileLimit = FileDescriptors.raiseSoftLimit()
        // The port is taken before the database is touched: a port in use is said before any
        // file is created or migrated (connections that come meanwhile wait in the backlog).
        let listening: ListeningSocket
        do {
            listening = try ListeningSocket.open(host: host, port: portNumber)
        } catch {
            fail("\(error)")  // "cannot listen on HOST:PORT: reason"
        }
        let configuration = HTTPServerConfiguration(
            host: host, port: listening.port,
            threadPoolSize: number(flags, "threads", Int.self, min: 1),
            maxBodyBytes: jsonLimit,
            maxBodyBytesByMediaType: ["application/xml": xmlLimit, "text/xml": xmlLimit],
            maxDiscardBytes: number(flags, "max-discard-body", Int.self),
            connectionTimeoutSeconds: number(flags, "idle-timeout", UInt32.self),
            headerTimeoutSeconds: number(flags, "header-timeout", UInt32.self),
            requestTimeoutSeconds: number(flags, "request-timeout", UInt32.self),
            connectionLimit: number(flags, "max-connections", UInt32.self, min: 1),
            perIPConnectionLimit: number(flags, "max-connections-per-ip", UInt32.self),
            listeningSocket: listening)
        let shutdownGrace = number(flags, "shutdown-grace", UInt32.self)

        // The service's operator lines (storage failures, skipped storyboards) are JSON lines
        // of the one log writer, in order with the request lines.
        ServerLog.install { Log.write($0) }
        let store: any SessionStoring
        do {
            store = try choice.open()
        } catch {
            fail("cannot open the \(choice.description): \(error)")
        }
        let service: NavSimService
        do {
            service = try NavSimService(
                store: store, openAPI: openAPI,
                limits: limits(flags, storyboardBytes: xmlLimit), tokens: tokens,
                loadedSessions: number(flags, "max-loaded-sessions", Int.self, min: 1),
                cacheBytes: number(flags, "session-cache-bytes", Int.self))
        } catch {
            fail("cannot read the \(choice.description): \(error)")
        }
        let server: HTTPServer
        do {
            // Only tokens screen requests; without them the head is not built twice.
            server = try HTTPServer(
                configuration: configuration,
                screen: tokens.isEmpty ? nil : requestLog.screening(service.screenCounted),
                refusals: { request, response in requestLog.refused(request, service.countServerReply(request, response)) },
                handler: requestLog.wrapping(service.serve))
        } catch {
            fail("\(error)")  // HTTPServerError already says "cannot listen on HOST:PORT: reason"
        }
        Log.event(
            "listening",
            [
                ("url", .string("http://\(host):\(server.port)")), choice.logField,
                ("version", .string(NavSimVersion.current)),
                ("tokens", .number(Double(tokens.count))),  // how many, never which
                ("maxConnections", .number(Double(server.connectionLimit))),
                ("fileDescriptorLimit", .number(Double(fileLimit))),
            ])
        Signals.waitForTermination(onHangUp: { reloadTokens(flags, into: service.tokens) })
        Log.event("stopping", [("graceSeconds", .number(Double(shutdownGrace)))])
        // New connections are refused at once; requests under way finish, later ones on open
        // connections are answered 503 server-stopping, for up to the grace (HTTPServer.stop).
        // Session and storyboard writes still queued at the end of the drain are answered with
        // their outcome, those not begun refused, none left to land after a 503 (NavSimService.stopWrites).
        server.stop(
            drainTimeout: .seconds(Int(shutdownGrace)), stoppingReply: NavSimService.stoppingReply,
            beforeAnswering: service.stopWrites)
        // Checkpoints encoded after their entries: stored before exit when they can be (reads
        // do without one, from the checkpoint before, but a restart should not have to).
        let checkpointed = service.waitForCheckpoints(timeout: .seconds(5))
        // The last line: an operator (or a supervisor's log) sees the stop completed, not only begun.
        Log.event("stopped", [("checkpointsStored", .bool(checkpointed))])
        exit(0)
    }
}

extension Serve {
    /// Where sessions and storyboards live, as the flags chose it.
    enum StoreChoice {
        /// One SQLite file (`--db`, the default).
        case sqlite(path: String, migrations: String)
        /// A PostgreSQL database (`--store postgres://…`); `url` is passed to libpq as given.
        case postgres(url: String, migrations: String)

        /// Opens and migrates the store.
        /// - Throws: the store's error (unreachable server, refused login, failed migration).
        func open() throws -> any SessionStoring {
            switch self {
            case .sqlite(let path, let migrations): try SessionStore(path: path, migrationsDirectory: migrations)
            case .postgres(let url, let migrations): try PostgresSessionStore(url: url, migrationsDirectory: migrations)
            }
        }

        /// "database ./navsim.sqlite" or "PostgreSQL database postgres://navsim@db/navsim", password hidden.
        var description: String {
            switch self {
            case .sqlite(let path, _): "database \(path)"
            case .postgres(let url, _): "PostgreSQL database \(Serve.redacted(url))"
            }
        }

        /// The `listening` log line's field naming the store (no password).
        var logField: (String, JSON) {
            switch self {
            case .sqlite(let path, _): ("db", .string(path))
            case .postgres(let url, _): ("store", .string(Serve.redacted(url)))
            }
        }
    }

    /// The store the flags ask for; exits 2 when `--store` and `--db` are both given (flag or
    /// environment), when `--store` is not a PostgreSQL URL, or when migrations are missing.
    static func storeChoice(_ flags: Flags) -> StoreChoice {
        guard let url = flags["store"] else {
            return .sqlite(path: flags["db"]!, migrations: migrations(flags, name: "migrations", flag: "migrations", env: "NAVSIM_MIGRATIONS"))
        }
        guard !flags.isSet("db") else {
            fail("--store / NAVSIM_STORE and --db / NAVSIM_DB exclude each other: give one (a PostgreSQL URL or a SQLite file)")
        }
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            fail("--store / NAVSIM_STORE must be a postgres://… or postgresql://… URL, got \(redacted(url)); for SQLite use --db PATH")
        }
        return .postgres(
            url: url,
            migrations: migrations(
                flags, name: "migrations-postgres", flag: "postgres-migrations",
                env: "NAVSIM_POSTGRES_MIGRATIONS"))
    }

    /// A folder of migrations, given or found (``Resources/locate(_:given:flag:required:)``); exits 2 when it holds no step.
    static func migrations(_ flags: Flags, name: String, flag: String, env: String) -> String {
        let label = "--\(flag) / \(env)"
        let folder = Resources.locate(name, given: flags[flag], flag: label)!
        let steps = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.filter { $0.hasSuffix(".sql") } ?? []
        guard !steps.isEmpty else { fail("\(label): \(folder) holds no NNNN_name.sql files") }
        return folder
    }

    /// `url` with its password replaced by `***` (`user:secret@` in the authority, `password=`
    /// in the query), so messages and logs never show it.
    static func redacted(_ url: String) -> String {
        var text = url
        if let scheme = text.range(of: "://") {
            let rest = text[scheme.upperBound...]
            let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@"),
                let colon = rest[..<at].firstIndex(of: ":")
            {
                text.replaceSubrange(text.index(after: colon)..<at, with: "***")
            }
        }
        if let range = text.range(of: "password=") {
            let end = text[range.upperBound...].firstIndex(of: "&") ?? text.endIndex
            text.replaceSubrange(range.upperBound..<end, with: "***")
        }
        return text
    }
}

/// Finds a resource folder or file: the path given by flag or environment (which must exist),
/// else next to the executable and up to four folders above it (a checkout's
/// `.build/release/navsim`), then the working directory, then /usr/share/navsim (the image).
enum Resources {
    static func locate(_ name: String, given: String?, flag: String, required: Bool = true) -> String? {
        let fm = FileManager.default
        if let given {
            guard fm.fileExists(atPath: given) else { fail("\(flag): \(given) does not exist") }
            return given
        }
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
        if let found = candidates.first(where: { fm.fileExists(atPath: $0) }) { return found }
        if required { fail("cannot find \(name) beside the binary, in the working directory or /usr/share/navsim; set \(flag)") }
        return nil
    }
}

/// SIGINT/SIGTERM end the process cleanly; SIGHUP reloads the token file. They are blocked
/// first thing, before any thread exists, so every thread (libmicrohttpd's, Dispatch's) inherits
/// the mask and a signal that arrives at any moment, even as the port opens, stays pending until
/// `sigwait` takes it. (Ignoring them and arming a Dispatch signal source after the server
/// started lost a signal sent in between: the process then never stopped.)
enum Signals {
    static func block() {
        var set = handled
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Returns at SIGINT or SIGTERM; runs `onHangUp` on this thread for each SIGHUP taken before.
    static func waitForTermination(onHangUp: () -> Void) {
        var set = handled
        while true {
            var received: Int32 = 0
            guard sigwait(&set, &received) == 0 else { continue }
            if received == SIGHUP {
                onHangUp()
                continue
            }
            return
        }
    }

    private static var handled: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGHUP)
        return set
    }
}

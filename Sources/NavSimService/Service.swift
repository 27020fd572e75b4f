import Foundation
public import HTTPServer
import NavigationCore
import Pictures
import SessionFormat
public import SessionStorage
import Storyboards
import Synchronization

/// navsim's HTTP contract (docs/api.md) over the pure core, composed here and kept nowhere else:
/// the pieces around the router (HTTP/Middleware.swift), the route table (HTTP/Routes.swift) and
/// its handlers by resource (Routes/), the session registry (Sessions/) and the write runtime
/// (Runtime/), over the store. Runs on libmicrohttpd's threads, so everything here is
/// synchronous and `Sendable`.
public final class NavSimService: Sendable {
    /// The durable side: SQLite (the default) or a PostgreSQL database shared by several instances.
    let store: any SessionStoring
    /// Every session by id; their state is loaded on first use and evicted when idle past the budget.
    let sessions: SessionRegistry
    let storyboards: StoryboardCatalog
    /// Text, DOT and SVG renderings of sessions and storyboards (docs/pictures.md).
    let pictures: Pictures
    let openAPI: [UInt8]
    /// `navsim_requests_total` and `navsim_uikit_refusals_total`.
    let counters = ServiceCounters()
    /// Request-duration, commit-latency and batch-size histograms (`/metrics`).
    let histograms = ServiceMetrics()
    /// Checkpoints of past versions kept decoded and encoded for `?version=N` (Storage/PastVersions.swift).
    let pastVersions = PastVersions()
    /// The session write runtime: applies, prepares and commits every mutation (Runtime/SessionWriter.swift).
    let writer: SessionWriter
    /// Session writes admitted and not answered yet, refused once the server stops (``stopWrites()``).
    let sessionWrites = WritesGate()
    /// The pieces around the router, outermost first (HTTP/Middleware.swift).
    let middleware: MiddlewareChain
    let requestMetrics: RequestMetrics
    let tokenScreen: TokenScreen
    /// What one request may create (controllers, stack depth, tabs, spec width and nesting).
    public let limits: Limits
    /// Bearer tokens every route but `/healthz` and `/readyz` requires; empty: no authentication. Replaceable
    /// while serving (`navsim serve` reloads its token file on SIGHUP), never by an empty set.
    public let tokens: ReloadableTokens
    /// The largest JSON request body accepted by default (docs/api.md: over 1 MiB is 413).
    public static let maxBodyBytes = 1 << 20
    /// The largest storyboard (XML) body accepted by default: real apps ship storyboards of 2.3 MB.
    /// The parser's own document bound, so the HTTP layer and the parser agree.
    public static let maxStoryboardBytes = StoryboardParser.maximumDocumentSize
    /// Sessions kept decoded in memory by default (`--max-loaded-sessions`): with about 10 kB of
    /// RSS per loaded 10-controller session, 20,000 of them take some 200 MB, so 100,000 stored
    /// sessions fit in 1 GiB with the read cache and the rest of the process.
    public static let defaultLoadedSessions = 20_000
    /// Bytes of encoded sessions kept for reads by default (`--session-cache-bytes`), 64 MiB.
    public static let defaultCacheBytes = 64 << 20

    /// Serves from `store`, already opened and migrated: `SessionStore` (SQLiteStore) or
    /// `PostgresSessionStore` (PostgresStore, `navsim --store postgres://…`). Loads every
    /// storyboard and registers every stored session by id, none loaded; a session's state is
    /// read from the store on its first use, so the port can open at once however many sessions
    /// are stored. On a shared store (``SessionStoring/isShared``) sessions other instances
    /// create later are found by id on first use.
    /// - Parameters:
    ///   - limits: what one request may create (``Limits``); the documented defaults unless given.
    ///   - tokens: when not empty, every route but `/healthz` and `/readyz` answers 401 without one of them.
    ///   - loadedSessions: sessions kept decoded in memory; idle ones past it are evicted and
    ///     reload on next use.
    ///   - cacheBytes: bytes of encoded session representations kept for reads.
    /// - Throws: the store's error when storyboards or session ids cannot be read.
    public convenience init(
        store: any SessionStoring, openAPI: [UInt8], limits: Limits = .defaults,
        tokens: BearerTokens = BearerTokens([]), loadedSessions: Int = NavSimService.defaultLoadedSessions,
        cacheBytes: Int = NavSimService.defaultCacheBytes
    ) throws {
        try self.init(
            store: store, openAPI: openAPI, limits: limits, tokens: tokens, pictures: Pictures(),
            loadedSessions: loadedSessions, cacheBytes: cacheBytes)
    }

    /// The designated initialiser: `store` as above, with the renderer.
    init(
        store: any SessionStoring, openAPI: [UInt8], limits: Limits = .defaults,
        tokens: BearerTokens = BearerTokens([]), pictures: Pictures, loadedSessions: Int = NavSimService.defaultLoadedSessions,
        cacheBytes: Int = NavSimService.defaultCacheBytes
    ) throws {
        self.tokens = ReloadableTokens(tokens)
        self.pictures = pictures
        self.store = store
        // A store that loses its database says so in the operator log, one line per change.
        StoreReachability.installLog { ServerLog.storeChange($0) }
        let sessions = SessionRegistry(
            cacheBudget: cacheBytes, residentBudget: loadedSessions,
            findsUnregistered: store.isShared
        ) { id in
            try store.loadSession(id).map { stored in
                LiveSession(
                    id: stored.session.id, createdAt: stored.session.createdAt,
                    version: stored.session.version, state: try Persistence.decodeState(stored))
            }
        }
        self.sessions = sessions
        let (histograms, counters) = (self.histograms, self.counters)
        let batchSize = histograms.batchSize
        store.batchObserver.withLock { $0 = BatchObserver { batchSize.observe(Double($0)) } }
        writer = SessionWriter(
            store: store, sessions: sessions, pastVersions: pastVersions,
            checkpoints: LateCheckpoints(store: store), build: Self.prepareVersion,
            observeCommit: { histograms.commitDuration.observe(ServiceMetrics.seconds($0)) },
            countRefusals: { counters.refusals.add($0, ordering: .relaxed) })
        requestMetrics = RequestMetrics(counters: counters, durations: histograms.requestDuration)
        tokenScreen = TokenScreen(tokens: self.tokens)
        middleware = MiddlewareChain(pieces: [
            requestMetrics, ProblemResponses(counters: counters), tokenScreen,
            RequestChecks(), ConditionalReads(),
        ])
        self.openAPI = openAPI
        self.limits = limits
        storyboards = try StoryboardCatalog(store: store, limits: limits, pictures: pictures)
        sessions.register(ids: try store.sessionIDs())
        // Deletions a previous run left between chunks: their rows go in the background.
        store.resumeDeletions()
    }

    /// Answers one request, waiting for a deferred reply (a mutation's durable commit) before
    /// returning: for callers in process. Never throws and never traps on input: every failure
    /// is a problem+json.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let response = serve(request)
        return response.deferred?.wait() ?? response
    }

    /// Answers one request as ``handle(_:)`` does, but a mutation answers at once with a deferred
    /// reply (``HTTPResponse/deferred``) that completes when its commit is durable: what the
    /// HTTP server runs, so a pool thread never waits on a sync.
    public func serve(_ request: HTTPRequest) -> HTTPResponse {
        var context = RequestContext()
        do {
            return try middleware.respond(to: request, context: &context) { request, context throws(Problem) in
                // HEAD runs the GET handler (``Router``); libmicrohttpd leaves the content out (RFC 9110 §9.3.2).
                try Self.router.dispatch(self, request) { context.route = $0 }
            }
        } catch {
            // Unreachable: ``ProblemResponses`` renders every problem inside the chain.
            return Self.problem(error)
        }
    }

    /// The token screen (``TokenScreen``) as the HTTP server runs it, on a request's head before
    /// its body: a request it refuses never reaches ``serve(_:)``, so it is counted here, in
    /// `navsim_requests_total` and under `route="unmatched"`, like any request no route ran
    /// (docs/api.md, `/metrics`).
    public func screenCounted(_ request: HTTPRequest) -> HTTPResponse? {
        let started = ContinuousClock.now
        guard let refusal = tokenScreen.screen(request) else { return nil }
        counters.requests.add(1, ordering: .relaxed)
        requestMetrics.observe(refusal, route: nil, request: request, since: started)
        return refusal
    }

    /// Counts a reply the HTTP server made itself (400 or 501 for bad framing, an
    /// ``HTTPRefusalHook``) as ``screenCounted(_:)`` counts a refused head; returns it unchanged.
    public func countServerReply(_ request: HTTPRequest, _ response: HTTPResponse) -> HTTPResponse {
        counters.requests.add(1, ordering: .relaxed)
        requestMetrics.observe(response, route: nil, request: request, since: ContinuousClock.now)
        return response
    }

    /// The token screen alone (``TokenScreen``): the 401 a request gets on its head, or nil.
    public func screen(_ request: HTTPRequest) -> HTTPResponse? {
        tokenScreen.screen(request)
    }

    /// Waits until the checkpoints being encoded or stored after their entries
    /// (Runtime/LateCheckpoints.swift) are stored, for at most `timeout` (tests, and the server's stop).
    /// - Returns: false on timeout.
    @discardableResult
    public func waitForCheckpoints(timeout: Duration = .seconds(10)) -> Bool {
        writer.checkpoints.wait(timeout: timeout)
    }

    static func now() -> String { Persistence.timestamp() }
}

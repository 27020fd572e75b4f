import Foundation
import HTTPServer
import NavigationCore
import SessionStorage
import Storyboards
import Synchronization

/// navsim's HTTP contract (docs/api.md) over the pure core: routes, problem+json, per-session locking
/// and durable commits. Runs on libmicrohttpd's threads, so everything here is synchronous and
/// `Sendable`.
public final class NavSimService: Sendable {
    /// The durable side: SQLite (the default) or a PostgreSQL database shared by several instances.
    let store: any SessionStoring
    /// Every session by id; their state is loaded on first use and evicted when idle past the budget.
    let sessions: SessionRegistry
    let storyboards: StoryboardCatalog
    /// Text, DOT and SVG renderings of sessions and storyboards (docs/pictures.md).
    let pictures: Pictures
    let openAPI: [UInt8]
    let requestCount = Atomic<Int>(0)
    let refusalCount = Atomic<Int>(0)
    /// Request-duration, commit-latency and batch-size histograms (`/metrics`).
    let histograms = ServiceMetrics()
    /// Checkpoints of past versions kept decoded and encoded for `?version=N` (Storage/PastVersions.swift).
    let pastVersions = PastVersions()
    /// Checkpoints being encoded or stored after their entries (``checkpointLater(_:version:createdAt:state:)``).
    let checkpoints = DispatchGroup()
    /// The late checkpoints of ``checkpoints`` by session, creation and version: a read that finds
    /// one missing does not store it again while it is on its way (``backfillCheckpoint(_:createdAt:version:state:)``).
    let checkpointsInFlight = Mutex<Set<PastVersions.Key>>([])
    /// Session writes admitted and not answered yet, refused once the server stops (``stopWrites()``).
    let sessionWrites = WritesGate()
    /// What one request may create (controllers, stack depth, tabs, spec width and nesting).
    public let limits: Limits
    /// Bearer tokens every route but `/healthz` and `/readyz` requires; empty: no authentication. Replaceable
    /// while serving (`navsim serve` reloads its token file on SIGHUP), never by an empty set.
    public let tokens: ReloadableTokens
    /// The largest JSON request body accepted by default (API.md: over 1 MiB is 413).
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
    public convenience init(store: any SessionStoring, openAPI: [UInt8], limits: Limits = .defaults,
                            tokens: BearerTokens = BearerTokens([]), loadedSessions: Int = NavSimService.defaultLoadedSessions,
                            cacheBytes: Int = NavSimService.defaultCacheBytes) throws {
        try self.init(store: store, openAPI: openAPI, limits: limits, tokens: tokens, pictures: Pictures(),
                      loadedSessions: loadedSessions, cacheBytes: cacheBytes)
    }

    /// The designated initialiser: `store` as above, with the renderer.
    init(store: any SessionStoring, openAPI: [UInt8], limits: Limits = .defaults,
         tokens: BearerTokens = BearerTokens([]), pictures: Pictures, loadedSessions: Int = NavSimService.defaultLoadedSessions,
         cacheBytes: Int = NavSimService.defaultCacheBytes) throws {
        self.tokens = ReloadableTokens(tokens)
        self.pictures = pictures
        self.store = store
        // A store that loses its database says so in the operator log, one line per change.
        StoreReachability.installLog { ServerLog.storeChange($0) }
        sessions = SessionRegistry(cacheBudget: cacheBytes, residentBudget: loadedSessions,
                                   findsUnregistered: store.isShared) { id in
            try store.loadSession(id).map { stored in
                LiveSession(id: stored.session.id, createdAt: stored.session.createdAt,
                            version: stored.session.version, state: try Persistence.decodeState(stored))
            }
        }
        let batchSize = histograms.batchSize
        store.batchObserver.withLock { $0 = BatchObserver { batchSize.observe(Double($0)) } }
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
        requestCount.add(1, ordering: .relaxed)
        let started = ContinuousClock.now
        var matched: Route<NavSimService>?
        let response: HTTPResponse
        if let refusal = screen(request) {
            response = refusal
        } else {
            do {
                // HEAD runs the GET handler (``Router``); libmicrohttpd leaves the content out (RFC 9110 §9.3.2).
                response = try route(request) { matched = $0 }
            } catch {
                countRefusal(error)
                response = Self.problem(error)
            }
        }
        observe(response, route: matched, request: request, since: started)
        return response
    }

    /// ``screen(_:)`` as the HTTP server runs it, on a request's head before its body: a request
    /// it refuses never reaches ``serve(_:)``, so it is counted here, in `navsim_requests_total`
    /// and under `route="unmatched"`, like any request no route ran (docs/api.md, `/metrics`).
    public func screenCounted(_ request: HTTPRequest) -> HTTPResponse? {
        let started = ContinuousClock.now
        guard let refusal = screen(request) else { return nil }
        requestCount.add(1, ordering: .relaxed)
        observe(refusal, route: nil, request: request, since: started)
        return refusal
    }

    /// Counts a reply the HTTP server made itself (400 or 501 for bad framing, an
    /// ``HTTPRefusalHook``) as ``screenCounted(_:)`` counts a refused head; returns it unchanged.
    public func countServerReply(_ request: HTTPRequest, _ response: HTTPResponse) -> HTTPResponse {
        requestCount.add(1, ordering: .relaxed)
        observe(response, route: nil, request: request, since: ContinuousClock.now)
        return response
    }

    /// Records `response` in `navsim_http_request_duration_seconds`, when it is sent for a
    /// deferred reply.
    private func observe(_ response: HTTPResponse, route matched: Route<NavSimService>?, request: HTTPRequest,
                         since started: ContinuousClock.Instant) {
        // Labels from bounded sets only: a registered template and its method, or "unmatched".
        // The series is named by (route, HEAD or not, status); its label text is rendered once.
        let found = matched
        let head = found.map { $0.method != request.method } ?? false
        let route = found.map { $0.index * 2 + (head ? 1 : 0) } ?? -1
        let durations = histograms.requestDuration
        let method = request.method
        @Sendable func observe(_ status: Int) {
            durations.observe(ServiceMetrics.seconds(ContinuousClock.now - started), key: .init(a: route, b: status)) {
                let labels = found.map { route in
                    head ? "method=\(HistogramFamily.quoted(method)),route=\(HistogramFamily.quoted(route.template.description))"
                        : route.metricLabels
                } ?? #"method="other",route="unmatched""#
                return labels + ",status=\"\(status)\""
            }
        }
        if let deferred = response.deferred {
            deferred.finishing { reply in observe(reply.status) }
        } else {
            observe(response.status)
        }
    }

    /// Refuses a request on its head alone (an `HTTPScreen`): 401 problem+json with
    /// `WWW-Authenticate: Bearer realm="navsim"` (plus `error="invalid_token"` for a wrong token,
    /// RFC 6750 §3) when tokens are set and none was sent, on every route but `/healthz`, `/readyz` and `/inspector`.
    /// The server runs it before reading a body; `handle` runs it again, so it holds in process too.
    public func screen(_ request: HTTPRequest) -> HTTPResponse? {
        let tokens = self.tokens.current
        guard !tokens.isEmpty, Self.router.requiresToken(path: request.pathSegments) else { return nil }
        switch tokens.verdict(authorization: request.headers.values(for: "Authorization")) {
        case .accepted: return nil
        case .missing: return Self.problem(.unauthorized(invalidToken: false))
        case .invalid: return Self.problem(.unauthorized(invalidToken: true))
        }
    }

    static func problem(_ p: Problem) -> HTTPResponse {
        var headers = HTTPHeaders([("Content-Type", "application/problem+json")])
        for (k, v) in p.headers { headers.add(k, v) }
        return HTTPResponse(status: p.status, headers: headers, body: p.json.bytes)
    }

    static func json(_ status: Int, _ body: JSON, etag: Int? = nil, location: String? = nil) -> HTTPResponse {
        json(status, bytes: body.bytes, etag: etag.map { "\"\($0)\"" }, location: location)
    }

    /// A JSON reply from bytes already encoded; `etag` is the quoted tag (`"3"`).
    static func json(_ status: Int, bytes: [UInt8], etag: String?, location: String? = nil, vary: String? = nil) -> HTTPResponse {
        // Room for every field here and the request log's `X-Request-Id`: one allocation.
        var pairs: [(String, String)] = []
        pairs.reserveCapacity(5)
        pairs.append(("Content-Type", "application/json"))
        if let etag { pairs.append(("ETag", etag)) }
        if let location { pairs.append(("Location", location)) }
        if let vary { pairs.append(("Vary", vary)) }
        return HTTPResponse(status: status, headers: HTTPHeaders(pairs), body: bytes)
    }

    /// `GET /healthz`'s reply, built once: nothing in it changes (no per-request work
    /// that can be done once).
    static let healthz = json(200, .object([("status", .string("ok"))]))
    /// `GET /readyz`'s reply while the store is unreachable (``SessionStoring/checkReachability()``),
    /// built once: 503 `store-unreachable` with `Retry-After`. `/healthz` (liveness) is 200 then:
    /// instances share the database, so taking them out would not route around its outage.
    static let readyzStoreUnreachable = problem(Problem.notReady)
    /// `GET /`'s reply, built once.
    static let indexResponse = json(200, index)

    /// `GET /`: what this server is and where to start (links relative to the server).
    static let index = JSON.object([
        ("name", .string("navsim")),
        ("version", .string(NavSimVersion.current)),
        ("description", .string("UIKit view-controller navigation as a headless HTTP service")),
        ("links", .object([
            ("openapi", .string("/openapi.yaml")),
            ("health", .string("/healthz")),
            ("metrics", .string("/metrics")),
            ("sessions", .string("/v1/sessions")),
            ("storyboards", .string("/v1/storyboards")),
        ])),
    ])

    static func now() -> String { Persistence.timestamp() }

    // MARK: - Routing

    /// Every route of the HTTP contract (`openapi.yaml`, docs/api.md), registered once: the router
    /// derives 404 `not-found`, 405 with `Allow` and HEAD from this table, the bearer-token screen
    /// reads `requiresToken` from it, and the OpenAPI tests compare it with the spec.
    static let router = Router<NavSimService>([
        Route("GET", "/") { _, _, _ throws(Problem) in indexResponse },
        Route("GET", "/healthz", requiresToken: false) { _, _, _ throws(Problem) in healthz },
        Route("GET", "/readyz", requiresToken: false) { s, _, _ throws(Problem) in
            s.store.checkReachability() ? healthz : readyzStoreUnreachable
        },
        Route("GET", "/openapi.yaml") { s, _, _ throws(Problem) in
            HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/yaml")]), body: s.openAPI)
        },
        Route("GET", "/metrics") { s, _, _ throws(Problem) in s.metrics() },
        // A static page holding no data; the API calls it makes carry the token.
        Route("GET", "/inspector", requiresToken: false) { _, _, _ throws(Problem) in Inspector.response },
        Route("GET", "/v1/sessions") { s, req, _ throws(Problem) in try s.listSessions(req) },
        Route("POST", "/v1/sessions") { s, req, _ throws(Problem) in try s.createSession(req) },
        Route("GET", "/v1/sessions/{sid}") { s, req, p throws(Problem) in try s.getSession(req, p["sid"]) },
        Route("PATCH", "/v1/sessions/{sid}") { s, req, p throws(Problem) in try s.setTraits(req, p["sid"]) },
        Route("DELETE", "/v1/sessions/{sid}") { s, req, p throws(Problem) in try s.deleteSession(req, p["sid"]) },
        Route("PUT", "/v1/sessions/{sid}/rootViewController") { s, req, p throws(Problem) in try s.setRoot(req, p["sid"]) },
        Route("POST", "/v1/sessions/{sid}/controllers") { s, req, p throws(Problem) in try s.createController(req, p["sid"]) },
        Route("GET", "/v1/sessions/{sid}/controllers/{cid}") { s, req, p throws(Problem) in try s.getController(req, p["sid"], p["cid"]) },
        Route("PATCH", "/v1/sessions/{sid}/controllers/{cid}") { s, req, p throws(Problem) in
            try s.updateController(req, p["sid"], p["cid"])
        },
        Route("DELETE", "/v1/sessions/{sid}/controllers/{cid}") { s, req, p throws(Problem) in
            try s.releaseController(req, p["sid"], p["cid"])
        },
        Route("POST", "/v1/sessions/{sid}/controllers/{cid}/{operation}") { s, req, p throws(Problem) in
            try s.perform(req, p["sid"], p["cid"], p["operation"])
        },
        Route("POST", "/v1/sessions/{sid}/turns") { s, req, p throws(Problem) in try s.runTurn(req, p["sid"]) },
        Route("GET", "/v1/sessions/{sid}/history") { s, req, p throws(Problem) in try s.history(req, p["sid"]) },
        Route("GET", "/v1/sessions/{sid}/transitions") { s, _, p throws(Problem) in try s.transitions(p["sid"]) },
        Route("POST", "/v1/sessions/{sid}/transitions/complete") { s, req, p throws(Problem) in
            try s.finishTransition(req, p["sid"], .completeTransition(id: nil))
        },
        Route("POST", "/v1/sessions/{sid}/transitions/{tid}/complete") { s, req, p throws(Problem) in
            try s.finishTransition(req, p["sid"], .completeTransition(id: p["tid"]))
        },
        Route("POST", "/v1/sessions/{sid}/transitions/{tid}/cancel") { s, req, p throws(Problem) in
            try s.finishTransition(req, p["sid"], .cancelTransition(id: p["tid"]))
        },
    ] + StoryboardCatalog.routes { $0.storyboards })

    func route(_ req: HTTPRequest, matched: (Route<NavSimService>) -> Void = { _ in }) throws(Problem) -> HTTPResponse {
        if let escape = malformedPercentEscape(in: req.path) { throw Problem.malformedTarget("path", escape) }
        if let escape = req.malformedQueryEscape { throw Problem.malformedTarget("query", escape) }
        if req.bodyTooLarge { throw Problem.payloadTooLarge(req.bodyLimit) }
        // Every read's If-Match and If-None-Match against the tag of its answer (RFC 9110 §13.2.2).
        return try Preconditions.answer(req, to: Self.router.dispatch(self, req, matched: matched))
    }

    // MARK: - Session routes

    /// `PATCH /v1/sessions/{sid}`: `{"traits": …}` changes the window's traits.
    func setTraits(_ req: HTTPRequest, _ sid: String) throws(Problem) -> HTTPResponse {
        try mutate(req, sid) { body, state, decoder throws(Problem) in
            let r = try BodyReader(body, allowed: ["traits"])
            guard r.has("traits") else { throw Problem.invalidField("traits", "traits is required.") }
            let traits = try decoder.traits(r.raw("traits"), path: "traits", base: state.traits)
            return [.setTraits(traits)]
        }
    }

    /// `PUT /v1/sessions/{sid}/rootViewController`: `{"viewController", "animated"?}`.
    func setRoot(_ req: HTTPRequest, _ sid: String) throws(Problem) -> HTTPResponse {
        try mutate(req, sid) { body, _, decoder throws(Problem) in
            let r = try BodyReader(body, allowed: ["viewController", "animated"])
            let ref = try decoder.ref(r.raw("viewController"), path: "viewController")
            return [.setRoot(ref, animated: try r.bool("animated") ?? false)]
        }
    }

    /// `POST /v1/sessions/{sid}/controllers`: a ControllerSpec; 201 with the controller.
    func createController(_ req: HTTPRequest, _ sid: String) throws(Problem) -> HTTPResponse {
        try mutate(req, sid, created: true) { body, _, decoder throws(Problem) in
            guard !body.isNull, let spec = try decoder.spec(body, path: "") else {
                throw Problem.invalidField("body", "The storyboard has no initial view controller (instantiateInitialViewController() returns nil).")
            }
            return [.createController(spec)]
        }
    }

    /// `GET /v1/sessions/{sid}/controllers/{cid}`.
    func getController(_ req: HTTPRequest, _ sid: String, _ cid: String) throws(Problem) -> HTTPResponse {
        try withSessionMutating(sid) { live throws(Problem) in
            guard live.state.controllers[cid] != nil else { throw Problem.unknownController(CommandError.unknown(cid).message) }
            let encoded = live.encoding(in: sessions)
            return Self.json(200, bytes: Array(encoded.piece(cid) ?? []), etag: encoded.etag)
        }
    }

    /// `PATCH /v1/sessions/{sid}/controllers/{cid}`: a ControllerPatch.
    func updateController(_ req: HTTPRequest, _ sid: String, _ cid: String) throws(Problem) -> HTTPResponse {
        try mutate(req, sid) { body, _, decoder throws(Problem) in [.updateController(cid, try decoder.patch(body))] }
    }

    /// `POST /v1/sessions/{sid}/controllers/{cid}/{operation}`: one operation of ``Operations``;
    /// an unknown name is 404 `unknown-operation` before the session is looked up.
    func perform(_ req: HTTPRequest, _ sid: String, _ cid: String, _ name: String) throws(Problem) -> HTTPResponse {
        guard Operations.byName[name] != nil else { throw Problem.unknownOperation(name) }
        return try mutate(req, sid) { body, state, decoder throws(Problem) in
            var command = try decoder.operation(name, receiver: cid, body: body)
            command = try self.storyboards.resolveSegue(command, in: state, budget: decoder.budget)
            return [command]
        }
    }

    /// `POST /v1/sessions/{sid}/turns`: `{"operations": [{"controller", "operation", …}]}` as one turn.
    func runTurn(_ req: HTTPRequest, _ sid: String) throws(Problem) -> HTTPResponse {
        try mutate(req, sid, turn: true) { body, state, decoder throws(Problem) in
            let r = try BodyReader(body, allowed: ["operations"])
            guard let ops = r.raw("operations")?.array else { throw Problem.invalidField("operations", "operations must be an array.") }
            guard ops.count <= self.limits.operationsPerTurn else {
                throw Problem.limitExceeded("operationsPerTurn", max: self.limits.operationsPerTurn,
                                            detail: "The turn has \(ops.count) operations; at most \(self.limits.operationsPerTurn) are allowed.")
            }
            var commands: [Command] = []
            for (i, op) in ops.enumerated() {
                guard case .object(let members) = op else { throw Problem.invalidField("operations[\(i)]", "Each operation is an object.") }
                guard let controller = op["controller"]?.string, let name = op["operation"]?.string else {
                    throw Problem.invalidField("operations[\(i)]", "Each operation needs controller and operation.")
                }
                let body = JSON.object(members.filter { $0.0 != "controller" && $0.0 != "operation" })
                // Storyboard segues find their destination scene as a single operation does,
                // from the session as the turn begins (a receiver created earlier in the same
                // turn has no storyboard yet, and answers 422 in place); the destinations
                // count against the request's budget like any other spec.
                let command = try decoder.operation(name, receiver: controller, body: body)
                commands.append(try self.storyboards.resolveSegue(command, in: state, budget: decoder.budget))
            }
            return commands
        }
    }

    /// `GET /v1/sessions/{sid}/transitions`: the transitions in flight.
    func transitions(_ sid: String) throws(Problem) -> HTTPResponse {
        try withSession(sid) { live throws(Problem) in
            var w = JSONWriter()
            w.openObject()
            w.key("transitions")
            w.raw(Encode.transitions(live.state.transitions.map(\.record)))
            w.closeObject()
            return Self.json(200, bytes: w.bytes, etag: "\"\(live.version)\"")
        }
    }

    /// `POST …/transitions/complete`, `…/transitions/{tid}/complete|cancel`: no body, or `{}`.
    func finishTransition(_ req: HTTPRequest, _ sid: String, _ command: Command) throws(Problem) -> HTTPResponse {
        try mutate(req, sid) { body, _, _ throws(Problem) in
            _ = try BodyReader(body, allowed: [])
            return [command]
        }
    }

    /// `DELETE /v1/sessions/{sid}/controllers/{cid}`: releases a controller nothing but the client
    /// holds, with what only it holds (`Command.release`, NavigationCore/Release.swift): 404 for an
    /// unknown id, 409 `controller-held` naming its holders. Recorded in history like any change.
    func releaseController(_ req: HTTPRequest, _ sid: String, _ cid: String) throws(Problem) -> HTTPResponse {
        try mutate(req, sid) { body, _, _ throws(Problem) in
            _ = try BodyReader(body, allowed: [])
            return [.release(cid)]
        }
    }

    /// A decoder for one request, whose budget starts from the `existing` controllers of the session.
    func decoder(existing: Int) -> Decoder {
        Decoder(instantiate: storyboards.instantiator, budget: SpecBudget(limits, existing: existing))
    }

    // MARK: - Sessions

    /// Media types a JSON body may be sent as (parameters such as `charset=utf-8` aside).
    static let jsonMediaTypes: Set<String> = ["application/json", "application/problem+json"]

    func parseBody(_ req: HTTPRequest) throws(Problem) -> JSON {
        if req.body.isEmpty { return .object([]) }
        guard let type = req.mediaType, Self.jsonMediaTypes.contains(type) else {
            throw Problem.unsupportedMediaType(req.headers["content-type"], expected: "application/json")
        }
        return try Self.parseJSON(req.body, limits: limits)
    }

    /// A JSON body within `limits` (`jsonDepth`, `jsonContainers`): malformed text is 400
    /// `invalid-body`, text past a limit 422 `limit-exceeded` naming it.
    static func parseJSON(_ bytes: [UInt8], limits: Limits) throws(Problem) -> JSON {
        do { return try JSON.parse(bytes, maxDepth: limits.jsonDepth, maxContainers: limits.jsonContainers) } catch {
            if let limit = error.exceeded { throw Problem.limitExceeded(limit.name, max: limit.max, detail: error.description) }
            throw Problem.invalidBody(error.description)
        }
    }

    func createSession(_ req: HTTPRequest) throws(Problem) -> HTTPResponse {
        let body = try parseBody(req)
        let r = try BodyReader(body, allowed: ["id", "traits", "root", "options"])
        let decoder = self.decoder(existing: 0)
        let traits = try decoder.traits(r.raw("traits"), path: "traits", base: .phonePortrait)
        var options = Options()
        if let o = try r.object("options", allowed: ["iOS", "transitions", "navTransitionPolicy", "release"]) {
            if let v = try o.enumValue("release", ReleasePolicy.self) { options.release = v }
            if let v = try o.enumValue("iOS", IOSRelease.self) { options.iOS = v }
            if let v = try o.enumValue("transitions", TransitionMode.self) { options.transitions = v }
            if let v = try o.enumValue("navTransitionPolicy", NavigationTransitionPolicy.self) { options.navTransitionPolicy = v }
        }
        let id = try r.string("id") ?? UUID().uuidString.lowercased()
        guard Names.isKey(id) else { throw Problem.invalidField("id", "A session id is \(Names.keyRule).") }
        if let existing = try sessions.find(id), !forgetIfDeletedElsewhere(existing) {
            throw Problem.conflict("session-exists", "A session with id '\(id)' already exists.")
        }
        if r.raw("root")?.string != nil {
            throw Problem.invalidField("root", "A new session has no controllers yet: root is a ControllerSpec object, not an id.")
        }
        let root = r.has("root") ? try decoder.ref(r.raw("root"), path: "root") : nil
        let state: SessionState
        let created: ActionResult
        let nested = NestedSegues(storyboards.snapshot, budget: decoder.budget)
        switch Navigator.makeSessionReporting(traits: traits, options: options, root: root, segues: nested.destinations) {
        case .success(let s): (state, created) = s
        case .failure where nested.problem != nil: throw nested.problem!
        case .failure(.uikit(let d)): throw Problem(d)
        case .failure(.input(let e)): throw Problem.fromCore(e)
        }
        try limits.check(state)
        let live = LiveSession(id: id, createdAt: Self.now(), version: 0, state: state)
        // Encoded once: the reply and history entry 0 splice the same bytes.
        let reported = Encode.createdResult(events: created.events, warnings: created.warnings)
        let commit: SessionCommit
        do {
            commit = try Persistence.creation(live, body: req.body.isEmpty ? nil : body, reported: reported)
        } catch {
            throw Problem.storage(error, "The session could not be stored")
        }
        // Item 6: the root's callbacks, as `makeKeyAndVisible()` fires them.
        // What the root's lifecycle code did that UIKit only logs (D7…) is in it, as any reply has it.
        let reply = Self.json(201, bytes: Encode.created(id: id, createdAt: live.createdAt, state: state, result: reported),
                              etag: "\"0\"", location: "/v1/sessions/\(id.percentEncodedPathSegment)")
        // Everything above writes nothing; from here the id is taken until the commit's outcome.
        let deferred = DeferredResponse()
        try sessionWrites.admit(deferred)
        guard sessions.reserve(id) else {
            let taken = Problem.conflict("session-exists", "A session with id '\(id)' already exists.")
            deferred.complete(Self.problem(taken))
            throw taken
        }
        // Off the handler thread, as a mutation: the reply waits for the durable
        // commit, and only then does the session exist for other requests. A failed commit
        // answers 5xx and leaves no session and no row.
        store.afterDeletion(of: id) { [self] finished in
            let fail: @Sendable (any Error) -> Void = { error in
                self.sessions.unreserve(id)
                deferred.complete(Self.problem(Problem.storage(error, "The session could not be stored")))
            }
            // A session deleted under this id may still have had rows waiting for their chunk.
            if case .failure(let error) = finished { return fail(error) }
            let started = ContinuousClock.now
            store.enqueue(commit) { [self] outcome in
                histograms.commitDuration.observe(ServiceMetrics.seconds(ContinuousClock.now - started))
                switch outcome {
                case .success:
                    _ = sessions.add(live, reserved: true)
                    deferred.complete(reply)
                case .failure(let error) where error.isStaleVersion:
                    // Another instance created the id meanwhile (a shared store); nothing was written.
                    sessions.unreserve(id)
                    deferred.complete(Self.problem(Problem.conflict("session-exists", "A session with id '\(id)' already exists.")))
                case .failure(let error):
                    fail(error)
                }
            }
        }
        return HTTPResponse(deferred: deferred)
    }

    func listSessions(_ req: HTTPRequest) throws(Problem) -> HTTPResponse {
        let limit = try QueryParameters.int(req, "limit", default: 100, range: 1...1000)
        let after = try QueryParameters.single(req, "after")
        // In id order: the same before and after a restart, and an `after` whose session was
        // deleted still pages on. Keyset paging on the store's primary key (`WHERE id > ?
        // ORDER BY id LIMIT ?`), one more row than asked telling whether more follow; the
        // versions are the committed ones, no session is loaded for it.
        let rows: [(id: String, version: Int, createdAt: String)]
        do { rows = try store.sessionPage(after: after, limit: limit + 1) } catch {
            throw Problem.storage(error, "Sessions could not be listed", access: .read)
        }
        let page = rows.prefix(limit)
        let items: [JSON] = page.map { s in
            .object([("id", .string(s.id)), ("version", .number(Double(s.version))), ("createdAt", .string(s.createdAt))])
        }
        var members: [(String, JSON)] = [("sessions", .array(items))]
        if rows.count > limit, let last = page.last { members.append(("next", .string(last.id))) }
        return Self.json(200, .object(members))
    }

    /// On a store other instances write (``SessionStoring/isShared``): whether `box` is of a
    /// session another instance has deleted (the database has no row, and this instance has no
    /// write of it pending); the box is then forgotten, so the id can be created again here.
    func forgetIfDeletedElsewhere(_ box: SessionBox) -> Bool {
        guard store.isShared, case .some(.none) = try? store.sessionVersion(box.id),
              box.inMemory({ slot in slot?.isIdle ?? true }) else { return false }
        sessions.remove(box.id)
        return true
    }

    /// On a store other instances write (``SessionStoring/isShared``): compares the copy in
    /// memory with the session's version in the database (one read on the primary key) and
    /// drops it when the database is ahead, has no such session, or has another session under
    /// the id (deleted and created again elsewhere: another creation time), so the read that follows
    /// loads it again. A read on any instance thus never shows a version older than the newest
    /// acknowledged one (docs/deployment.md, "Reads"). A copy with writes pending is kept: this
    /// instance is writing it, and its commits are checked against the database.
    /// - Throws: 500 `storage-failure` when the database cannot be read.
    func refreshIfBehind(_ box: SessionBox) throws(Problem) {
        guard store.isShared else { return }
        let stored: (version: Int, createdAt: String)?
        do { stored = try store.sessionVersion(box.id) } catch { throw Problem.storage(error, "The session could not be read", access: .read) }
        box.inMemory { slot, reload in
            // Known deleted here: the database may hold a session created since under the id.
            guard let live = slot else { reload = stored != nil; return }
            guard live.isIdle else { return }
            // The same session (not one deleted and created again elsewhere), no newer version.
            if let stored, stored.createdAt == live.createdAt, stored.version <= live.version { return }
            reload = true
        }
    }

    /// Runs `body` on the session under its lock, letting it update what the session caches.
    func withSessionMutating<T>(_ sid: String, _ body: (inout LiveSession) throws(Problem) -> T) throws(Problem) -> T {
        guard let box = try sessions.find(sid) else { throw Problem.unknownSession(sid) }
        try refreshIfBehind(box)
        let result: Result<T, Problem> = box.withLock { slot in
            // In place: a copy would hold a second reference to every buffer of the session while
            // `body` runs, so its first write to one would copy it.
            guard slot != nil else { return .failure(Problem.unknownSession(sid)) }
            do throws(Problem) { return .success(try body(&slot!)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Runs `body` on the session under its lock (a read: the copy is checked as by ``refreshIfBehind(_:)``).
    func withSession<T>(_ sid: String, _ body: (LiveSession) throws(Problem) -> T) throws(Problem) -> T {
        guard let box = try sessions.find(sid) else { throw Problem.unknownSession(sid) }
        try refreshIfBehind(box)
        let result: Result<T, Problem> = box.withLock { live in
            guard let live else { return .failure(Problem.unknownSession(sid)) }
            do throws(Problem) { return .success(try body(live)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// `GET /v1/sessions/{sid}` (`?version=N` replays the history): JSON, or the text tree,
    /// DOT or SVG picture the `Accept` field asks for (docs/pictures.md).
    func getSession(_ req: HTTPRequest, _ sid: String) throws(Problem) -> HTTPResponse {
        let representation = try pictures.choose(req)
        let requested: Int? = try QueryParameters.single(req, "version") == nil ? nil
            : QueryParameters.int(req, "version", default: 0, range: 0...Int.max)
        // `replay=true`: the version as the current rules give it, by running its commands again.
        let replaying = try QueryParameters.bool(req, "replay")
        // The current version's JSON, cached: served from the bytes the session's box publishes,
        // without the session's lock (``SessionBox/publishedEncoding()``). When none are cached the
        // locked path below encodes them (on a shared store it checks the stored version once more).
        if requested == nil, !replaying, representation == .json, let box = try sessions.find(sid) {
            try refreshIfBehind(box)
            if let encoded = box.publishedEncoding() {
                return Self.json(200, bytes: encoded.body, etag: encoded.etag, vary: "Accept")
            }
        }
        // The current version's JSON is served from its cached bytes: the lock is held only to
        // take a reference to them, and the reply is built after it (every GET of one
        // session takes this lock, so what it holds it for is what concurrent readers spin on).
        // Only a read that goes on past the lock takes a copy of the session (the cached reply
        // costs no copy of the session's fields).
        enum Current { case reply(HTTPResponse), encoded(EncodedSession), snapshot(LiveSession) }
        let current: Current = try withSessionMutating(sid) { live throws(Problem) in
            if let n = requested, n > live.version {
                throw Problem(status: 404, slug: "unknown-version", title: "Unknown version",
                              detail: "Session '\(sid)' has versions 0…\(live.version).")
            }
            let version = requested ?? live.version
            // Each representation has its own tag (`"3"`, `"3-text"`, …), compared as the 200 would send it,
            // here before a past version is rebuilt. A replay's answer has no tag, but the fields are
            // evaluated all the same (RFC 9110 §13.2.1).
            if let notModified = try Preconditions.read(req, etag: replaying ? nil : representation.entityTag(version), vary: "Accept") {
                return .reply(notModified)
            }
            guard representation == .json, version == live.version, !replaying else { return .snapshot(live) }
            return .encoded(live.encoding(in: sessions))
        }
        let snapshot: LiveSession
        switch current {
        case let .reply(reply): return reply
        case let .encoded(encoded): return Self.json(200, bytes: encoded.body, etag: encoded.etag, vary: "Accept")
        case let .snapshot(live): snapshot = live
        }
        let version = requested ?? snapshot.version
        // A past version's JSON: from its checkpoint's kept pieces (SessionHistory.past).
        var past: (state: SessionState, encoded: EncodedSession)?
        if !replaying, version != snapshot.version {
            do {
                past = try SessionHistory.past(sid, createdAt: snapshot.createdAt, version: version, store: store, kept: pastVersions,
                                               backfill: { [self] at, state in
                                                   backfillCheckpoint(sid, createdAt: snapshot.createdAt, version: at, state: state)
                                               })
            } catch {
                throw Problem.storage(error, "History could not be read", access: .read)
            }
            if let past, representation == .json {
                return Self.json(200, bytes: past.encoded.body, etag: past.encoded.etag, vary: "Accept")
            }
        }
        let state: SessionState
        if let past { state = past.state } else {
            state = replaying ? try replay(sid, to: version)
                : version == snapshot.version ? snapshot.state : try stateAt(sid, version: version)
        }
        let session = Encode.session(id: sid, version: version, createdAt: snapshot.createdAt, state: state)
        guard representation != .json else {
            // A replay's answer is not the version's representation: no tag a cache could confuse with it.
            return Self.json(200, bytes: session, etag: replaying ? nil : "\"\(version)\"", vary: "Accept")
        }
        // The pictures read the JSON as a tree.
        let tree: JSON, transitions: JSON
        do throws(JSONParseError) {
            tree = try JSON.parse(session)
            transitions = try JSON.parse(Encode.transitions(state.transitions.map(\.record)))
        } catch {
            // Unreachable: the encoder writes JSON the parser reads.
            throw Problem(status: 500, slug: "internal-invariant", title: "Internal error", detail: error.description)
        }
        return try pictures.response(representation, resource: "session \(sid) \(snapshot.createdAt)", version: "\(version)",
                                     etag: version, json: tree,
                                     text: { SessionPicture(session: $0, transitions: transitions).text },
                                     dot: { SessionPicture(session: $0, transitions: transitions).dot })
    }

    /// The stored state of `version` as it was reported then: rebuilt from the nearest checkpoint
    /// at or below it plus the entries' stored changes, whatever the current rules are
    /// (docs/history.md). Entries written before change-sets were stored fall back to ``replay(_:to:)``.
    func stateAt(_ sid: String, version: Int) throws(Problem) -> SessionState {
        do {
            var first = SessionHistory.firstRow(for: version)
            while true {
                let rows = try store.history(session: sid, after: first - 1, limit: version - first + 1)
                if let state = try SessionHistory.rebuild(rows, to: version) { return state }
                // A checkpoint not stored yet (``checkpointLater``): from the one before it.
                guard first > 0, let row = rows.first, row.version == first, row.checkpoint == nil,
                      rows.allSatisfy({ $0.changes != nil }) else { break }
                first = SessionHistory.firstRow(for: first - 1)
            }
        } catch let p as Problem {
            throw p
        } catch {
            throw Problem.storage(error, "History could not be read", access: .read)
        }
        return try replay(sid, to: version)
    }

    /// `version` as the current rules give it: the history's commands run again from the initial
    /// state (`?version=N&replay=true`, and old entries that stored no change).
    func replay(_ sid: String, to version: Int) throws(Problem) -> SessionState {
        do {
            let rows = try store.history(session: sid, after: -1, limit: version + 1)
            guard let first = rows.first, first.version == 0 else { throw Problem.unknownSession(sid) }
            var state = try Persistence.decodeInitial(first)
            for row in rows.dropFirst() where row.version <= version {
                let turn = try Persistence.decodeTurn(row)
                state = Navigator.run(turn.commands, on: state, segues: SegueDestinations(recorded: turn.segues)).state
            }
            return state
        } catch let p as Problem {
            throw p
        } catch {
            throw Problem.storage(error, "History could not be read", access: .read)
        }
    }

    /// `DELETE /v1/sessions/{sid}`: 204 once the session row is gone, durably (its history and
    /// controllers go afterwards in chunks, `SessionStore.deleteSession`). The work runs on
    /// ``deletions``, not on the handler thread: the reply is deferred until the delete is durable.
    func deleteSession(_ req: HTTPRequest, _ sid: String) throws(Problem) -> HTTPResponse {
        guard let box = try sessions.find(sid) else { throw Problem.unknownSession(sid) }
        let (ifMatch, ifNoneMatch) = (Preconditions.field(req, "If-Match"), Preconditions.field(req, "If-None-Match"))
        let deferred = DeferredResponse()
        try sessionWrites.admit(deferred)
        Self.deletions.async { [self] in deferred.complete(delete(box, sid, ifMatch: ifMatch, ifNoneMatch: ifNoneMatch)) }
        return HTTPResponse(deferred: deferred)
    }

    /// Where deletes wait for the session's commits and write: one at a time (they are rare, and
    /// every write goes through the one writer connection anyway).
    static let deletions = DispatchQueue(label: "navsim.sessions.delete")

    /// The delete itself: after the session's queued commits (which would otherwise write its
    /// rows again), `If-Match` and `If-None-Match` against the committed version, the durable
    /// delete, then the box goes.
    func delete(_ box: SessionBox, _ sid: String, ifMatch: String?, ifNoneMatch: String?) -> HTTPResponse {
        Self.waitForCommits(box)
        let result: Result<Void, Problem> = box.withLock { live in
            guard let current = live else { return .failure(Problem.unknownSession(sid)) }
            guard current.pending.isEmpty else {
                return .failure(Problem.conflict("writes-pending", "Session '\(sid)' is still being written; try again."))
            }
            do throws(Problem) { try Preconditions.write(ifMatch: ifMatch, ifNoneMatch: ifNoneMatch, version: current.version) } catch {
                return .failure(error)
            }
            do { try store.deleteSession(sid) } catch {
                return .failure(Problem.storage(error, "Delete failed"))
            }
            live?.replaceEncoding(nil, in: sessions)
            live = nil
            return .success(())
        }
        if case .failure(let problem) = result { return Self.problem(problem) }
        sessions.remove(sid)
        return HTTPResponse(status: 204)
    }

    /// Waits, polling for at most 10 s, until the session has no commit in flight (a delete's
    /// precondition; deletes are rare, commits take milliseconds).
    static func waitForCommits(_ box: SessionBox) {
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while box.inMemory({ $0?.pending.isEmpty == false }), ContinuousClock.now < deadline {
            usleep(500)
        }
    }

    func history(_ req: HTTPRequest, _ sid: String) throws(Problem) -> HTTPResponse {
        let version = try withSession(sid) { $0.version }
        // `after=-1` includes entry 0, the creation (its events since item 6).
        let after = try QueryParameters.int(req, "after", default: 0, range: -1...Int.max)
        let limit = try QueryParameters.int(req, "limit", default: 100, range: 1...1000)
        do {
            // Up to the version the ETag names, even if an operation commits meanwhile.
            let rows = try store.history(session: sid, after: after, limit: limit + 1, checkpoints: false).filter { $0.version <= version }
            let page = rows.prefix(limit)
            var members: [(String, JSON)] = [("entries", .array(page.map(Persistence.historyJSON)))]
            if rows.count > limit, let last = page.last { members.append(("next", .number(Double(last.version)))) }
            return Self.json(200, .object(members), etag: version)
        } catch {
            throw Problem.storage(error, "History could not be read", access: .read)
        }
    }

    // MARK: - Mutations

    /// Runs the commands a request decodes to as one turn on the session's applied head, under
    /// its lock; queues the history entry and changed rows for commit and releases the lock, so
    /// the session's next write can apply on top while this one syncs. The reply is
    /// deferred (``DeferredResponse``): built now, sent by ``committed(_:version:token:_:since:)``
    /// once the commit is durable, in version order, never before; if the commit fails, this
    /// request and those applied on top of it fail and the session is back at its last durable
    /// version. Refused single operations change nothing and add no entry.
    ///
    /// On a store other instances write (PostgreSQL), the commit may be refused as stale: the
    /// session was written elsewhere since this copy was loaded. The request is then run once
    /// more on the session reloaded from the store, `If-Match` checked against the fresh
    /// version, and that run's reply is the client's; stale again, it is 409 `write-conflict`.
    func mutate(_ req: HTTPRequest, _ sid: String, created: Bool = false, turn: Bool = false,
                _ decode: @escaping @Sendable (JSON, SessionState, Decoder) throws(Problem) -> [Command]) throws(Problem) -> HTTPResponse {
        let body = try parseBody(req)
        let deferred = DeferredResponse()
        // Admitted before anything is applied: at stop it is answered with its outcome, or refused unapplied.
        try sessionWrites.admit(deferred)
        do {
            try apply(Mutation(request: req, sid: sid, body: body, created: created, turn: turn, decode: decode),
                      answering: deferred, retried: false)
        } catch {
            // Refused before anything was applied; completing `deferred` counts it answered.
            deferred.complete(Self.problem(error))
            throw error
        }
        return HTTPResponse(deferred: deferred)
    }

    /// One mutating request, decoded enough to be run again on a reloaded session.
    struct Mutation: Sendable {
        let request: HTTPRequest
        let sid: String
        let body: JSON
        let created: Bool
        let turn: Bool
        let decode: @Sendable (JSON, SessionState, Decoder) throws(Problem) -> [Command]
    }

    /// Applies `m` on the session's head and prepares and queues its commit; `deferred` gets the
    /// reply once the commit is durable. `retried`: this is the run after a stale commit (no third run).
    ///
    /// Under the session's lock only what decides the version runs: `If-Match`, the
    /// decoding, the core's turn and the limits. The version is then applied to the head and the
    /// lock released; its rows, its representation and its reply are built outside it by the
    /// session's preparer (``prepare(_:as:first:)``), which queues the commits in version order.
    /// - Throws: the request's problem when it is refused before anything is applied.
    func apply(_ m: Mutation, answering deferred: DeferredResponse, retried: Bool) throws(Problem) {
        let (req, sid, body, created, turn) = (m.request, m.sid, m.body, m.created, m.turn)
        guard let box = try sessions.find(sid) else { throw Problem.unknownSession(sid) }
        // A stale commit's rerun: the same request, answering the same client.
        var retry: (@Sendable () -> Void)? = nil
        if !retried, store.isShared {
            retry = { @Sendable [self] in
                do throws(Problem) { try apply(m, answering: deferred, retried: true) } catch {
                    countRefusal(error)
                    deferred.complete(Self.problem(error))
                }
            }
        }
        let result: Result<(CommitToken, PrepareJob)?, Problem> = box.withLock { slot in
            guard slot != nil else { return .failure(Problem.unknownSession(sid)) }
            do throws(Problem) {
                // `If-Match` names the version the client last saw, which may still be pending.
                try Preconditions.write(req, version: slot!.headVersion)
                let head = slot!.headState
                // One decoder per request: its budget counts every spec the request creates.
                let requestDecoder = self.decoder(existing: head.controllers.count)
                let commands = try m.decode(body, head, requestDecoder)
                // Segues performed inside lifecycle code find their destinations in the
                // catalogue as of this request, counted against the same budget.
                let nested = NestedSegues(storyboards.snapshot, budget: requestDecoder.budget)
                let outcome = Navigator.run(commands, on: head, segues: nested.destinations)
                if outcome.failure != nil, let p = nested.problem { throw p }
                // An exception inside lifecycle code fails the whole request (CallbackCode).
                switch outcome.failure {
                case .uikit(let d)?: throw Problem(d)
                case .input(let e)?: throw Problem.fromCore(e)
                case nil: break
                }
                // A single refused operation changes nothing and adds no entry; a turn reports it in place.
                if !turn {
                    switch outcome.outcomes[0] {
                    case .refused(let d): throw Problem(d)
                    case .invalid(let e): throw Problem.fromCore(e)
                    case .applied: break
                    }
                }
                // Stack depth and tabs grow by operations on existing controllers too; checked
                // on the outcome, before anything is applied, so an over-limit request changes nothing.
                try limits.check(outcome.state, changed: outcome.changedControllers)
                let work = PendingWork(request: req, body: body, created: created, turn: turn, commands: commands,
                                       outcome: outcome, at: Self.now())
                slot!.apply(PendingVersion(version: slot!.headVersion + 1, state: outcome.state, work: work,
                                           deferred: deferred, retry: retry))
                // Whoever applies a version while no one prepares the session's versions prepares
                // them, starting with this one (taken now, under the same lock).
                guard slot!.preparer == nil else { return .success(nil) }
                let preparer = CommitToken()
                slot!.preparer = preparer
                return .success(takeJob(&slot, as: preparer).map { (preparer, $0) })
            } catch {
                return .failure(error)
            }
        }
        if let (preparer, first) = try result.get() { prepare(box, as: preparer, first: first) }
    }

    /// Versions one preparer builds on its own thread before handing the rest to a Dispatch
    /// worker: a handler thread goes back to its other connections within that many.
    static let preparedPerTurn = 8

    /// What preparing one applied version starts from (``takeJob(_:as:)``).
    struct PrepareJob {
        let version: PendingVersion
        let work: PendingWork
        let previousState: SessionState
        let previousEncoding: EncodedSession?
        let shell: Persistence.Shell?
        let createdAt: String
        let followsPending: Bool
        let checkpointNow: Bool
    }

    /// Under the session's lock: the next version for `preparer` to prepare, or nil (and the
    /// session without a preparer) when none is left; nil too when `preparer` is not the
    /// session's any more (it was dropped and read again).
    func takeJob(_ slot: inout LiveSession?, as preparer: CommitToken) -> PrepareJob? {
        guard slot != nil, slot!.preparer === preparer else { return nil }
        guard let next = slot!.nextToPrepare(in: sessions), let work = slot!.pending[next.index].work else {
            slot!.preparer = nil
            return nil
        }
        let version = slot!.pending[next.index]
        // A checkpoint is encoded after its entry is durable, off the handler threads
        // (``checkpointLater(_:version:createdAt:state:)``), unless the session's previous
        // one is still being encoded: then here, so they do not pile up.
        let checkpointNow = SessionHistory.keepsCheckpoint(version.version) && slot!.checkpointing
        return PrepareJob(version: version, work: work, previousState: next.previousState,
                          previousEncoding: next.previousEncoding, shell: slot!.headShell, createdAt: slot!.createdAt,
                          followsPending: next.index > 0, checkpointNow: checkpointNow)
    }

    /// Prepares the session's applied versions, oldest first, outside its lock, starting with
    /// `first` (taken under the lock by ``takeJob(_:as:)``): for each, the commit (only the
    /// changed controllers' rows, `Persistence.commit`), the representation (from the previous
    /// version's pieces, `EncodedSession.make`) and the reply; then, under the lock again,
    /// records them, queues the commit and takes the next version, so commits are queued in
    /// version order, each built on the one before. Runs until no version is left to prepare,
    /// while other threads apply turns under the lock meanwhile.
    ///
    /// `preparer` is the session's ``LiveSession/preparer``. A version whose preparation fails
    /// fails like a failed commit: it and the versions applied on top of it are answered with
    /// the problem and dropped.
    func prepare(_ box: SessionBox, as preparer: CommitToken, first: PrepareJob) {
        var next: PrepareJob? = first
        var prepared = 0
        while let job = next {
            let (sid, version, work) = (box.id, job.version.version, job.work)
            let outcome = work.outcome
            let built: Result<(SessionCommit, Persistence.Shell, EncodedSession, HTTPResponse), Problem>
            do {
                let results = Encode.results(outcome.outcomes, turn: work.turn)
                // Only what the turn changed is converted, encoded and written.
                var (commit, shell) = try Persistence.commit(TurnRecord(
                    session: sid, createdAt: job.createdAt, version: version, old: job.previousState, shell: job.shell,
                    new: outcome.state, changed: outcome.changedControllers, at: work.at, request: work.request,
                    body: work.body, commands: work.commands, resolvedSegues: outcome.resolvedSegues, result: results,
                    keepsCheckpoint: job.checkpointNow))
                commit.followsPending = job.followsPending
                // The new version is encoded once, from the previous version's pieces; the reply
                // splices its bytes (full) or the changed pieces (return=minimal).
                let (encoded, changed) = EncodedSession.make(
                    id: sid, version: version, createdAt: job.createdAt, state: outcome.state,
                    previous: job.previousEncoding, previousState: job.previousState,
                    changedControllers: outcome.changedControllers)
                let reply = try Self.mutationReply(work.request, sid: sid, created: work.created, turn: work.turn,
                                                   outcome: outcome, results: results, encoded: encoded,
                                                   changed: changed, removed: commit.deletedControllers)
                built = .success((commit, shell, encoded, reply))
            } catch let p as Problem {
                built = .failure(p)
            } catch {
                built = .failure(Problem.storage(error, "The operation could not be stored"))
            }
            let token = job.version.token
            prepared += 1
            let handOff = prepared >= Self.preparedPerTurn
            let (failed, following): ([PendingVersion], PrepareJob?) = box.inMemory { slot in
                guard slot != nil else { return ([], nil) }
                var failed: [PendingVersion] = []
                switch built {
                case .success(let (commit, shell, encoded, reply)):
                    if slot!.prepared(token, encoded: encoded, reply: reply, shell: shell) {
                        let laterCheckpoint = SessionHistory.keepsCheckpoint(version) && !job.checkpointNow
                        if laterCheckpoint { slot!.checkpointing = true }
                        // A turn's operations UIKit refused, counted once the turn is durable (a
                        // stale commit's rerun is prepared again and counts its own).
                        let refused = outcome.outcomes.reduce(0) { n, o in if case .refused = o { n + 1 } else { n } }
                        // Queued under the lock: the session's commits reach the store in version order.
                        let started = ContinuousClock.now
                        store.enqueue(commit) { [self] result in
                            committed(box, version: version, token: token, result, since: started,
                                      checkpoint: laterCheckpoint, refusals: refused)
                        }
                    }
                case .failure:
                    if slot!.pending.contains(where: { $0.token === token }) { failed = slot!.failed(from: version) }
                }
                // After this turn's share, a Dispatch worker goes on (the preparer stays set).
                return (failed, handOff ? nil : takeJob(&slot, as: preparer))
            }
            if case .failure(let problem) = built {
                for dropped in failed { dropped.deferred.complete(Self.problem(problem)) }
            }
            if handOff {
                DispatchQueue.global().async { [self] in
                    guard let job = box.inMemory({ takeJob(&$0, as: preparer) }) else { return }
                    prepare(box, as: preparer, first: job)
                }
                return
            }
            next = following
        }
    }

    /// Encodes the checkpoint of `version`, durable without one, on a Dispatch worker and
    /// stores it into its entry (``SessionCommit/checkpoint(session:createdAt:version:text:)``):
    /// at 600 controllers that is ~14 ms, which no handler thread and no lock waits for.
    /// Until it is stored, `?version=N` starts from the checkpoint before it.
    func checkpointLater(_ box: SessionBox, version: Int, createdAt: String, state: SessionState) {
        storeCheckpoint(box.id, createdAt: createdAt, version: version, state: state) {
            box.inMemory { slot in if slot?.createdAt == createdAt { slot!.checkpointing = false } }
        }
    }

    /// Stores the checkpoint of `version`, found missing from its durable entry by a read
    /// (``SessionHistory/past(_:createdAt:version:store:kept:from:backfill:)``): its late commit
    /// was lost (a crash, a stop past the wait, a store error), and without it every read of the
    /// block would start from the checkpoint before, for ever. `state` is that version rebuilt
    /// from the stored changes, the state the lost checkpoint held. Nothing when it is on its way.
    func backfillCheckpoint(_ sid: String, createdAt: String, version: Int, state: SessionState) {
        storeCheckpoint(sid, createdAt: createdAt, version: version, state: state) {}
    }

    /// Encodes `state` as the checkpoint of `version` on a Dispatch worker and queues its
    /// checkpoint-only commit; `then` runs once it is stored or failed. At most one per
    /// checkpoint at a time (``checkpointsInFlight``); ``waitForCheckpoints(timeout:)`` waits for it.
    private func storeCheckpoint(_ sid: String, createdAt: String, version: Int, state: SessionState,
                                 then: @escaping @Sendable () -> Void) {
        let key = PastVersions.Key(session: sid, createdAt: createdAt, checkpoint: version)
        guard checkpointsInFlight.withLock({ $0.insert(key).inserted }) else { return then() }
        checkpoints.enter()
        DispatchQueue.global(qos: .utility).async { [self] in
            let done: @Sendable (Result<Void, any Error>) -> Void = { [self] _ in
                checkpointsInFlight.withLock { _ = $0.remove(key) }
                then()
                checkpoints.leave()
            }
            guard let text = try? Persistence.checkpointText(state) else { return done(.success(())) }
            store.enqueue(.checkpoint(session: sid, createdAt: createdAt, version: version, text: text), then: done)
        }
    }

    /// Waits until the checkpoints being encoded or stored (``checkpointLater(_:version:createdAt:state:)``)
    /// are stored, for at most `timeout` (tests, and the server's stop).
    /// - Returns: false on timeout.
    @discardableResult
    public func waitForCheckpoints(timeout: Duration = .seconds(10)) -> Bool {
        let parts = timeout.components
        let nanoseconds = Int(parts.seconds) * 1_000_000_000 + Int(parts.attoseconds / 1_000_000_000)
        return checkpoints.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
    }

    /// The store's answer for the commit of `version` (on its writer, in queue order): durable,
    /// that version becomes the session's committed view and its reply goes out; failed, it
    /// and every version applied on top of it are dropped and their requests answered with the
    /// storage problem.
    ///
    /// Refused as stale (another instance wrote the session first), the copy in memory is
    /// dropped so the next use reads the session again, and the dropped requests (the stale one
    /// and its pipelined followers, which the store fails as `predecessorFailed`) run again in
    /// version order on a Dispatch worker, never on the writer; a rerun refused as stale is
    /// answered 409 `write-conflict`. Nothing was written by any of them.
    ///
    /// `token` identifies the applied version: an answer for one no longer pending (a follower
    /// dropped with its failed predecessor, whose number and request a rerun on the reloaded
    /// session may have taken since) changes nothing. Matching by version and request instead
    /// let a dropped follower's `predecessorFailed` fail its own rerun with 500.
    ///
    /// `checkpoint`: the entry was stored without its due checkpoint; once durable, it is
    /// encoded and stored later (``checkpointLater(_:version:createdAt:state:)``).
    /// `refusals`: the turn's operations UIKit refused, added to `navsim_uikit_refusals_total` once durable.
    func committed(_ box: SessionBox, version: Int, token: CommitToken, _ outcome: Result<Void, any Error>,
                   since started: ContinuousClock.Instant, checkpoint: Bool = false, refusals: Int = 0) {
        histograms.commitDuration.observe(ServiceMetrics.seconds(ContinuousClock.now - started))
        var reruns: [@Sendable () -> Void] = []
        var durable: (state: SessionState, createdAt: String)?
        let replies: [(DeferredResponse, HTTPResponse)] = box.inMemory { slot, reload in
            guard slot != nil else { return [] }
            // Its checkpoint is encoded once durable; otherwise the next may go off the handler threads again.
            if checkpoint { slot!.checkpointing = false }
            switch outcome {
            case .success:
                guard slot!.pending.first?.token === token, let done = slot!.durable(version, in: sessions),
                      let reply = done.reply else { return [] }
                if refusals > 0 { refusalCount.add(refusals, ordering: .relaxed) }
                if checkpoint {
                    slot!.checkpointing = true
                    durable = (done.state, slot!.createdAt)
                    // The block's base for `?version=N` is this version, already encoded for its
                    // reply: kept now, the block's first read does not decode and encode the
                    // checkpoint again (a 1,000-controller one took 27–74 ms), stored or not yet.
                    if let encoded = done.encoded {
                        pastVersions.keep(PastVersions.Base(version: version, state: done.state, encoded: encoded),
                                          as: PastVersions.Key(session: box.id, createdAt: slot!.createdAt, checkpoint: version))
                    }
                }
                return [(done.deferred, reply)]
            case .failure where !slot!.pending.contains(where: { $0.token === token }):
                return []
            case .failure(let error) where error.isStaleVersion:
                reload = true
                var answered: [(DeferredResponse, HTTPResponse)] = []
                for dropped in slot!.failed(from: version) {
                    if let retry = dropped.retry { reruns.append(retry) } else {
                        answered.append((dropped.deferred, Self.problem(.writeConflict(box.id))))
                    }
                }
                return answered
            case .failure(let error):
                let problem = Self.problem(Problem.storage(error, "The operation could not be stored"))
                return slot!.failed(from: version).map { ($0.deferred, problem) }
            }
        }
        for (deferred, reply) in replies { deferred.complete(reply) }
        if let durable { checkpointLater(box, version: version, createdAt: durable.createdAt, state: durable.state) }
        if !reruns.isEmpty {
            DispatchQueue.global().async { [reruns] in for rerun in reruns { rerun() } }
        }
    }

    /// A mutation's 200 (or 201 for a created controller): the result members and the session,
    /// whole or, with `Prefer: return=minimal`, only what changed.
    static func mutationReply(_ req: HTTPRequest, sid: String, created: Bool, turn: Bool, outcome: Navigator.TurnResult,
                              results: [UInt8], encoded: EncodedSession, changed: [String],
                              removed: [String]) throws(Problem) -> HTTPResponse {
        if created, case .applied(let r) = outcome.outcomes[0], let cid = r.created, let piece = encoded.piece(cid) {
            return json(201, bytes: Array(piece), etag: encoded.etag,
                        location: "/v1/sessions/\(sid.percentEncodedPathSegment)/controllers/\(cid.percentEncodedPathSegment)")
        }
        let minimal = prefersMinimal(req)
        let session = minimal
            ? encoded.minimal(id: sid, state: outcome.state, changed: changed, removed: removed)
            : encoded.body
        // `results` is the history entry's text, reused: not encoded a second time.
        let body = Encode.mutationReply(version: encoded.version, turn: turn, results: results,
                                        released: outcome.released, session: session)
        var response = json(200, bytes: body, etag: encoded.etag, vary: "Prefer")
        if minimal { response.headers.add("Preference-Applied", "return=minimal") }
        return response
    }

    /// RFC 7240 §4.2: whether the `Prefer` field asks for `return=minimal`. Preferences are
    /// comma-separated, their parameters (after `;`) ignored, the name matched in any case, the
    /// value with or without quotes. Only the first `return` counts (§2: later instances of a
    /// preference are ignored), over every field line in order. Any other preference, or none,
    /// means the full reply.
    static func prefersMinimal(_ req: HTTPRequest) -> Bool {
        for line in req.headers.values(for: "Prefer") {
            for preference in line.split(separator: ",") {
                let token = preference.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
                let parts = token.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, Self.trimmed(parts[0]).lowercased() == "return" else { continue }
                var value = Self.trimmed(parts[1])
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
                return value.lowercased() == "minimal"
            }
        }
        return false
    }

    /// `text` without leading and trailing spaces and tabs (OWS, RFC 9110 §5.6.3).
    static func trimmed(_ text: Substring) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }

    /// Counts `problem` in `navsim_uikit_refusals_total` when it is UIKit refusing (it carries a
    /// `uikit` diagnostic, docs/uikit-behaviours.md): navsim's own 409s (`session-exists`,
    /// `write-conflict`, …) are not UIKit's.
    func countRefusal(_ problem: Problem) {
        if problem.uikit != nil { refusalCount.add(1, ordering: .relaxed) }
    }

    /// `navsim_sessions`: the sessions in the store, loaded or not. SQLite has one owner, this
    /// instance, whose registry lists them all; a PostgreSQL database is shared, and only its own
    /// count includes the sessions other instances created or deleted. When the database cannot
    /// answer, the sample is left out (Prometheus then sees no value, not a wrong one).
    func sessionsGauge(into text: inout String) {
        let count: Int?
        if store.isShared {
            count = try? store.sessionCount()
        } else {
            count = sessions.count
        }
        text += "# HELP navsim_sessions Sessions in the store, loaded in memory or not (with --store: every instance's).\n"
        text += "# TYPE navsim_sessions gauge\n"
        if let count { text += "navsim_sessions \(count)\n" }
    }

    func metrics() -> HTTPResponse {
        let stats = store.statistics
        var text = """
        # HELP navsim_requests_total HTTP requests answered.
        # TYPE navsim_requests_total counter
        navsim_requests_total \(requestCount.load(ordering: .relaxed))
        # HELP navsim_uikit_refusals_total Operations UIKit refused (409).
        # TYPE navsim_uikit_refusals_total counter
        navsim_uikit_refusals_total \(refusalCount.load(ordering: .relaxed))
        # HELP navsim_store_commits_total Durable commits.
        # TYPE navsim_store_commits_total counter
        navsim_store_commits_total \(stats.commits)
        # HELP navsim_store_transactions_total Store transactions, SQLite or PostgreSQL (group commit batches).
        # TYPE navsim_store_transactions_total counter
        navsim_store_transactions_total \(stats.batches)
        # HELP navsim_sessions_loaded Sessions whose state is in memory (at most --max-loaded-sessions, once idle).
        # TYPE navsim_sessions_loaded gauge
        navsim_sessions_loaded \(sessions.resident.load(ordering: .relaxed))
        # HELP navsim_session_cache_bytes Bytes of encoded session representations kept for reads.
        # TYPE navsim_session_cache_bytes gauge
        navsim_session_cache_bytes \(sessions.cachedBytes.load(ordering: .relaxed))

        """
        sessionsGauge(into: &text)
        text += StoreUpGauge.text(reachable: store.checkReachability())
        ProcessMetrics.write(into: &text)
        histograms.requestDuration.write(into: &text)
        histograms.commitDuration.write(into: &text)
        histograms.batchSize.write(into: &text)
        return HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "text/plain; version=0.0.4")]), body: Array(text.utf8))
    }
}

extension Problem {
    /// Core input errors: unknown ids are 404, a transition in the wrong state 409, the rest 422.
    static func fromCore(_ e: CommandError) -> Problem {
        switch e.kind {
        case .unknownController: return .unknownController(e.message)
        case .unknownTransition: return .unknownTransition(e.message)
        case .transitionConflict: return .transitionConflict(e.message)
        case .held: return .conflict("controller-held", e.message)
        case .idTaken: return .controllerExists(e.field ?? "id", e.message)
        case .invalid: return .invalidField(e.field ?? "body", e.message)
        case .wrongReceiver:
            return Problem(status: 422, slug: "invalid-receiver", title: "The receiver does not take this operation", detail: e.message)
        case .limitExceeded:
            let limit = e.limit.flatMap(CallbackCode.Limit.init(rawValue:)) ?? .callbackDepth
            return .limitExceeded(limit.rawValue, max: limit.maximum, detail: e.message)
        case .invariantViolation:
            return Problem(status: 500, slug: "internal-invariant", title: "Internal error", detail: e.message)
        }
    }
}

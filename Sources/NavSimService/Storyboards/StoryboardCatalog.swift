import Dispatch
import Foundation
public import HTTPServer
import JSONValues
import NavigationCore
import Pictures
import SessionStorage
import Storyboards
import Synchronization

/// Uploaded storyboards, and what the core needs from them: scene instantiation (R101, R102) and
/// segue destinations (R96–R98). Serves `/v1/storyboards/…` (docs/api.md "Storyboards").
///
/// The parsed library lives in memory behind one lock; every upload, replacement, declaration
/// and deletion is written to the store (table `storyboards`, byte for byte as uploaded) before
/// it is answered, and `init(store:)` parses them all again, so storyboards survive a restart.
///
/// **Writes off the handler thread**. A writing route parses and checks its body on
/// the handler thread, then answers with a deferred reply (``DeferredResponse``, the suspended
/// connection of a session mutation) and leaves the rest to one serial queue
/// (``deferredWrite(_:)``): the checks against the library and the rows to store under the
/// lock, the store's durable write with the lock released (so requests reading the library do
/// not wait for the sync), then the change to the library under the lock, and the reply. One
/// write at a time, so each is computed from the one before it; the library shows a change
/// only once it is durable.
///
/// **At stop** (``stopWrites()``, which `navsim serve` runs once the server has drained and before
/// it answers the replies still pending 503): the write under way finishes and answers its
/// outcome, and every write queued behind it, or sent later, is refused 503 `server-stopping`
/// without touching the store. So no client is told "failed" for a write that then lands.
///
/// **Several instances on one database** (PostgreSQL): every use of the library (a request's
/// snapshot, an instantiation, a segue lookup, each route) first reads the store's
/// ``SessionStoring/storyboardRevision()`` and, when it moved from the revision the library was
/// loaded at, reloads the library from the store under the lock (documents whose bytes did not
/// change keep their parsed form). So an upload, declaration or delete answered by instance A is
/// seen by instance B on its next use. The check costs one primary-key read per use; with SQLite
/// the store answers nil once at start and the catalog never checks again. When the check
/// itself fails (the database is unreachable), the library in memory is used as it is.
/// Diagnostics that depend on other storyboards (`unresolved-reference`, cross-file cycles) and on
/// declared custom segue classes are computed on every read, so they follow later uploads.
final class StoryboardCatalog: Sendable {
    let store: any SessionStoring
    /// The service's limits: `storyboard` bounds an uploaded document (bytes, attributes,
    /// elements, nesting), the JSON ones a `customSegues` body.
    let serviceLimits: Limits
    var limits: StoryboardParser.Limits { serviceLimits.storyboard }
    /// Internal (not private) for the refactor route in StoryboardRefactorRoute.swift.
    let contents: Mutex<Contents>
    /// Text, DOT and SVG renderings of a storyboard's flow (docs/pictures.md).
    let pictures: Pictures
    /// Where storyboard writes run, one at a time (``deferredWrite(_:)``).
    private let writes = DispatchQueue(label: "navsim.storyboards.write")
    /// Set by ``stopWrites()``: from then on a write that has not begun is refused, not run.
    private let stopped = Atomic<Bool>(false)

    /// What the lock guards: the library and, per storyboard, its declared custom segue classes.
    struct Contents: Sendable {
        var library = StoryboardLibrary()
        var declarations: [String: CustomSegueDeclarations] = [:]
        /// Per storyboard, what its view controller classes do (`PUT …/classes`).
        var classes: [String: ClassDeclarations] = [:]
        var xml: [String: [UInt8]] = [:]
        /// Counts uploads, replacements, declarations, deletions and reloads: a storyboard's
        /// reply (its diagnostics) may change with any of them, so cached pictures are keyed by it.
        var generation = 0
        /// The store's storyboard revision the contents agree with; nil when the store never
        /// changes behind this catalog (``SessionStoring/storyboardRevision()``).
        var revision: Int?

        var snapshot: StoryboardSnapshot { StoryboardSnapshot(library: library, declarations: declarations, classes: classes) }

        /// The row to store for `name` with `xml`, carrying its declarations as they are now.
        func stored(
            _ name: String, xml: [UInt8], customSegues: CustomSegueDeclarations? = nil,
            classes: ClassDeclarations? = nil
        ) -> StoredStoryboard {
            StoredStoryboard(
                name: name, xml: xml, customSegues: (customSegues ?? declarations[name])?.storedText,
                classes: (classes ?? self.classes[name])?.storedText, updatedAt: NavSimService.now())
        }
    }

    /// Loads and parses every stored storyboard. A stored document that no longer parses (the
    /// parser got stricter) is skipped with a line on standard error rather than failing start-up.
    /// - Throws: the store's error when the table cannot be read.
    init(store: any SessionStoring, limits: Limits = .defaults, pictures: Pictures = Pictures()) throws {
        self.store = store
        self.pictures = pictures
        self.serviceLimits = limits
        // Read before the rows: a change landing in between moves the revision again, and the
        // next use reloads (once more than needed, never less).
        let revision = try store.storyboardRevision()
        var contents = Self.load(try store.loadStoryboards(), limits: limits, reusing: Contents())
        contents.revision = revision
        self.contents = Mutex(contents)
    }

    /// Contents built from the stored rows; a document whose bytes equal those in `previous`
    /// keeps its parsed storyboard instead of being parsed again.
    private static func load(_ rows: [StoredStoryboard], limits serviceLimits: Limits, reusing previous: Contents) -> Contents {
        var contents = Contents()
        for stored in rows {
            do {
                let storyboard: Storyboard
                if previous.xml[stored.name] == stored.xml, let parsed = previous.library[stored.name] {
                    storyboard = parsed
                } else {
                    storyboard = try StoryboardParser.parse(name: stored.name, data: stored.xml, limits: serviceLimits.storyboard)
                }
                contents.library.insert(storyboard)
                contents.xml[stored.name] = stored.xml
                if let text = stored.customSegues {
                    contents.declarations[stored.name] = try CustomSegueDeclarations.decode(stored: text)
                }
                if let text = stored.classes {
                    contents.classes[stored.name] = try ClassDeclarations.decode(stored: text, limits: serviceLimits)
                }
            } catch {
                ServerLog.warning("stored storyboard '\(stored.name)' skipped", error)
            }
        }
        contents.generation = previous.generation + 1
        return contents
    }

    /// Runs `body` on the contents under the lock, after reloading them from the store if its
    /// storyboard revision moved since they were loaded (another instance changed storyboards).
    /// Every use of the contents goes through here.
    func withContents<T>(_ body: (inout Contents) -> T) -> T {
        contents.withLock { contents in
            refresh(&contents)
            return body(&contents)
        }
    }

    /// Reloads `contents` when the store's revision is not theirs. Nothing for a store whose
    /// revision is nil; the contents as they are when the revision or the rows cannot be read.
    private func refresh(_ contents: inout Contents) {
        guard let known = contents.revision, let now = try? store.storyboardRevision(), now != known else { return }
        guard let rows = try? store.loadStoryboards() else { return }
        contents = Self.load(rows, limits: serviceLimits, reusing: contents)
        contents.revision = now
    }

    /// After this catalog's own storyboard write (inside ``withContents(_:)``, the contents
    /// already changed to match): the write moved the revision by one, so when the store is at
    /// `known + 1` the contents agree with it; otherwise another instance wrote too, and the
    /// revision stays at `known` so that the next use reloads.
    func wrote(_ contents: inout Contents) {
        guard let known = contents.revision, let now = try? store.storyboardRevision(), now == known + 1 else { return }
        contents.revision = now
    }

    /// Runs `write` on the catalog's write queue and answers at once with a reply deferred until
    /// it is done: its response, or its problem as problem+json. `write` checks what it needs
    /// against the contents, calls the store (durable when it returns) outside the lock, and only
    /// then changes the contents; writes run one after another in the order they were queued.
    /// After ``stopWrites()`` a write not yet begun answers 503 `server-stopping` instead.
    func deferredWrite(_ write: @escaping @Sendable () throws(Problem) -> HTTPResponse) -> HTTPResponse {
        let reply = DeferredResponse()
        writes.async { [self] in
            guard !stopped.load(ordering: .acquiring) else { return reply.complete(NavSimService.problem(Self.stopping)) }
            do throws(Problem) { reply.complete(try write()) } catch { reply.complete(NavSimService.problem(error)) }
        }
        return HTTPResponse(deferred: reply)
    }

    /// Ends storyboard writes for a stop: returns once the write under way (if any) has finished
    /// and answered its outcome; writes queued behind it, and any sent later, answer 503
    /// `server-stopping` and store nothing. Blocks for as long as that one write takes.
    func stopWrites() {
        stopped.store(true, ordering: .releasing)
        // The queue is serial: this returns after every write queued before the flag was seen.
        writes.sync {}
    }

    /// 503 `server-stopping`: a write refused because the server stopped before it began.
    static let stopping = Problem(
        status: 503, slug: "server-stopping", title: "Server stopping",
        detail: "The server stopped before this write began; nothing was stored. Send it again to a running server.")

    /// A consistent view of the library for one request.
    var snapshot: StoryboardSnapshot { withContents { $0.snapshot } }

    // MARK: - Core hooks

    /// Instantiates ControllerSpecs `{"storyboard", "identifier"?}` (R101, R102): nil for a
    /// storyboard without an entry point, 409 D20/D19 for an unknown storyboard or identifier.
    var instantiator: StoryboardInstantiator {
        { [self] name, identifier, budget, depth throws(Problem) in
            try snapshot.instantiate(storyboard: name, identifier: identifier, budget: budget, depth: depth)
        }
    }

    /// Fills in the destination scene of a `performSegue`/`triggerSegue` from the receiver's
    /// segue table (R96 step 1, R97); unwinds and unknown identifiers are left to the core
    /// (R99, D18). See ``StoryboardSnapshot/resolveSegue(_:in:budget:)``.
    func resolveSegue(_ command: Command, in state: SessionState, budget: SpecBudget) throws(Problem) -> Command {
        try snapshot.resolveSegue(command, in: state, budget: budget)
    }

    // MARK: - Routes

    /// The `/v1/storyboards/…` routes (docs/api.md "Storyboards"), registered in the service's one
    /// table (``NavSimService/router``); `catalog` finds the catalog in the router's context.
    static func routes<Context>(_ catalog: @escaping @Sendable (Context) -> StoryboardCatalog) -> [Route<Context>] {
        [
            Route("GET", "/v1/storyboards") { c, _, _ throws(Problem) in catalog(c).list() },
            Route("GET", "/v1/storyboards/{name}") { c, req, p throws(Problem) in try catalog(c).get(try validName(p["name"]), req) },
            Route("PUT", "/v1/storyboards/{name}") { c, req, p throws(Problem) in try catalog(c).put(try validName(p["name"]), req) },
            Route("DELETE", "/v1/storyboards/{name}") { c, _, p throws(Problem) in catalog(c).delete(try validName(p["name"])) },
            Route("POST", "/v1/storyboards/{name}/refactor") { c, req, p throws(Problem) in
                try catalog(c).refactor(try validName(p["name"]), req)
            },
            Route("POST", "/v1/storyboards/{name}/explore") { c, req, p throws(Problem) in
                try catalog(c).explore(try validName(p["name"]), req)
            },
            Route("PUT", "/v1/storyboards/{name}/customSegues") { c, req, p throws(Problem) in
                try catalog(c).putCustomSegues(try validName(p["name"]), req)
            },
            Route("PUT", "/v1/storyboards/{name}/classes") { c, req, p throws(Problem) in
                try catalog(c).putClasses(try validName(p["name"]), req)
            },
        ]
    }

    /// Media types a storyboard upload may be sent as (parameters such as `charset` aside).
    static let xmlMediaTypes: Set<String> = ["application/xml", "text/xml"]

    /// `name` when it can name a storyboard (``Names/isKey(_:)``). Refused as the path's `{name}`
    /// (422 `invalid-path`), or as the body member `field` when one is given (422 `invalid-body`).
    static func validName(_ name: String, field: String? = nil) throws(Problem) -> String {
        guard Names.isKey(name) else {
            let detail = "A storyboard name is \(Names.keyRule)."
            throw field.map { Problem.invalidField($0, detail) } ?? Problem.invalidPath("name", detail)
        }
        return name
    }

    static func unknownStoryboard(_ name: String) -> Problem {
        Problem(
            status: 404, slug: "unknown-storyboard", title: "Unknown storyboard",
            detail: "No storyboard named '\(name)' has been uploaded.")
    }

    static func storageFailure(_ error: any Error) -> Problem {
        Problem.storage(error, "The storyboard could not be stored")
    }

    func list() -> HTTPResponse {
        let snapshot = self.snapshot
        let items: [JSON] = snapshot.library.names.compactMap { name in
            guard let storyboard = snapshot.library[name] else { return nil }
            return .object([
                ("name", .string(name)),
                ("initialViewController", .from(storyboard.initialViewController)),
                ("scenes", .from(storyboard.scenes.count)),
                ("diagnostics", .from(snapshot.diagnostics(for: name).count)),
            ])
        }
        return NavSimService.json(200, .object([("storyboards", .array(items))]))
    }

    /// JSON, or the flow as text, DOT or SVG, as `Accept` asks (docs/pictures.md), or the
    /// document as uploaded when `Accept` prefers XML (``Representation/prefersDocument(_:)``).
    func get(_ name: String, _ req: HTTPRequest) throws(Problem) -> HTTPResponse {
        let accept = req.headers.values(for: "Accept")
        if Representation.prefersDocument(accept.isEmpty ? nil : accept.joined(separator: ", ")) {
            guard let xml = withContents({ $0.xml[name] }) else { throw Self.unknownStoryboard(name) }
            return HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/xml"), ("Vary", "Accept")]), body: xml)
        }
        let representation = try pictures.choose(req)
        let (snapshot, generation) = withContents { ($0.snapshot, $0.generation) }
        guard let reply = snapshot.reply(for: name) else { throw Self.unknownStoryboard(name) }
        return try pictures.response(
            representation, resource: "storyboard \(name)", version: "\(generation)", etag: nil,
            json: reply, text: StoryboardPicture.text, dot: StoryboardPicture.dot)
    }

    /// `PUT /v1/storyboards/{name}`: 415 unless XML, 400 when malformed (line and column in the
    /// detail), 422 for a document that is not an iOS storyboard; 201 new, 200 replaced. Custom
    /// segue declarations survive a replacement (they are about classes, not the XML).
    func put(_ name: String, _ req: HTTPRequest) throws(Problem) -> HTTPResponse {
        guard let type = req.mediaType, Self.xmlMediaTypes.contains(type) else {
            throw Problem.unsupportedMediaType(req.headers["content-type"], expected: "application/xml")
        }
        let storyboard: Storyboard
        do {
            storyboard = try StoryboardParser.parse(name: name, data: req.body, limits: limits)
        } catch {
            throw Self.problem(error)
        }
        let xml = req.body
        return deferredWrite { [self] () throws(Problem) -> HTTPResponse in
            let (created, row) = withContents { ($0.library[name] == nil, $0.stored(name, xml: xml)) }
            do { try store.putStoryboard(row) } catch { throw Self.storageFailure(error) }
            let snapshot = withContents { contents in
                contents.library.insert(storyboard)
                contents.xml[name] = xml
                contents.generation += 1
                wrote(&contents)
                return contents.snapshot
            }
            guard let reply = snapshot.reply(for: name) else { throw Self.unknownStoryboard(name) }
            let location = "/v1/storyboards/" + name.percentEncodedPathSegment
            return NavSimService.json(created ? 201 : 200, reply, location: created ? location : nil)
        }
    }

    /// `DELETE /v1/storyboards/{name}`: 204 once the deletion is durable; 404 for an unknown name.
    func delete(_ name: String) -> HTTPResponse {
        deferredWrite { [self] () throws(Problem) -> HTTPResponse in
            guard withContents({ $0.library[name] != nil }) else { throw Self.unknownStoryboard(name) }
            do { _ = try store.deleteStoryboard(name) } catch { throw Self.storageFailure(error) }
            withContents { contents in
                contents.library.remove(named: name)
                contents.declarations[name] = nil
                contents.classes[name] = nil
                contents.xml[name] = nil
                contents.generation += 1
                wrote(&contents)
            }
            return HTTPResponse(status: 204)
        }
    }

    /// `PUT /v1/storyboards/{name}/customSegues`: replaces the declarations of the storyboard's
    /// custom segue classes (what their `perform` does, R98 "Custom") and answers the storyboard
    /// reply with its diagnostics recomputed (`undeclared-custom-segue` clears).
    func putCustomSegues(_ name: String, _ req: HTTPRequest) throws(Problem) -> HTTPResponse {
        var body = JSON.object([])
        if !req.body.isEmpty {
            guard let type = req.mediaType, NavSimService.jsonMediaTypes.contains(type) else {
                throw Problem.unsupportedMediaType(req.headers["content-type"], expected: "application/json")
            }
            body = try NavSimService.parseJSON(req.body, limits: serviceLimits)
        }
        let declarations = try CustomSegueDeclarations.decode(body)
        return deferredWrite { [self] () throws(Problem) -> HTTPResponse in
            let row = withContents { contents -> StoredStoryboard? in
                guard contents.library[name] != nil, let xml = contents.xml[name] else { return nil }
                return contents.stored(name, xml: xml, customSegues: declarations)
            }
            guard let row else { throw Self.unknownStoryboard(name) }
            do { try store.putStoryboard(row) } catch { throw Self.storageFailure(error) }
            let snapshot = withContents { contents in
                contents.declarations[name] = declarations
                contents.generation += 1
                wrote(&contents)
                return contents.snapshot
            }
            guard let reply = snapshot.reply(for: name) else { throw Self.unknownStoryboard(name) }
            return NavSimService.json(200, reply)
        }
    }

    /// `PUT /v1/storyboards/{name}/classes`: replaces what the storyboard's view controller
    /// classes do (``ClassDeclarations``); every instance of a declared class instantiated from
    /// this storyboard from then on starts with that configuration. Answers the storyboard reply,
    /// diagnostics recomputed, with `classes`.
    func putClasses(_ name: String, _ req: HTTPRequest) throws(Problem) -> HTTPResponse {
        var body = JSON.object([])
        if !req.body.isEmpty {
            guard let type = req.mediaType, NavSimService.jsonMediaTypes.contains(type) else {
                throw Problem.unsupportedMediaType(req.headers["content-type"], expected: "application/json")
            }
            body = try NavSimService.parseJSON(req.body, limits: serviceLimits)
        }
        let classes = try ClassDeclarations.decode(body, limits: serviceLimits)
        return deferredWrite { [self] () throws(Problem) -> HTTPResponse in
            let found = withContents { contents -> (StoredStoryboard, Storyboard)? in
                guard let storyboard = contents.library[name], let xml = contents.xml[name] else { return nil }
                return (contents.stored(name, xml: xml, classes: classes), storyboard)
            }
            guard let (row, storyboard) = found else { throw Self.unknownStoryboard(name) }
            try classes.check(against: storyboard)
            do { try store.putStoryboard(row) } catch { throw Self.storageFailure(error) }
            let snapshot = withContents { contents in
                contents.classes[name] = classes
                contents.generation += 1
                wrote(&contents)
                return contents.snapshot
            }
            guard let reply = snapshot.reply(for: name) else { throw Self.unknownStoryboard(name) }
            return NavSimService.json(200, reply)
        }
    }

    /// Parser errors as problems: not XML, content after `</document>` included (XML 1.0 §2.1:
    /// only comments, processing instructions and white space may follow the document element)
    /// → 400 `invalid-body` (with line and column); XML that is no iOS storyboard → 422
    /// `unsupported-document-type`; a DOCTYPE (never written by Interface Builder, refused for
    /// safety) → 422 `invalid-body`;
    /// over a parser limit (attributes, elements, nesting) → 422 `limit-exceeded`; too large → 413.
    static func problem(_ error: StoryboardError) -> Problem {
        switch error {
        case let .limitExceeded(limit, max, _, _):
            return Problem.limitExceeded(limit.rawValue, max: max, detail: error.description)
        case let .tooDeeplyNested(limit, _, _):
            return Problem.limitExceeded(StoryboardParser.Limit.elementDepth.rawValue, max: limit, detail: error.description)
        case .malformedXML, .unsupportedEncoding, .contentAfterDocument:
            return Problem(
                status: 400, slug: "invalid-body", title: "The body is not a well-formed XML document",
                detail: error.description)
        case .doctypeNotAllowed:
            return Problem(status: 422, slug: "invalid-body", title: "The document is refused", detail: error.description)
        case .notAStoryboard, .unsupportedDocumentType:
            return Problem(
                status: 422, slug: "unsupported-document-type", title: "Not an iOS storyboard",
                detail: error.description)
        case let .documentTooLarge(_, limit):
            return Problem.payloadTooLarge(limit)
        }
    }
}

extension NavSimService {
    /// For a stop, once the server has stopped taking requests and before it answers those still
    /// pending 503 (``HTTPServer/stop(drainTimeout:beforeAnswering:)``): lets the storyboard write
    /// under way finish and answer its outcome, and refuses the ones not begun, 503
    /// `server-stopping`, without storing them (``StoryboardCatalog/stopWrites()``). Session
    /// writes likewise (``WritesGate``): those admitted (applied, queued in a session's preparer
    /// or the group-commit writer) are flushed and answered with their outcome before this
    /// returns; later ones are refused 503 `server-stopping` before anything is applied.
    public func stopWrites() {
        sessionWrites.stop()
        storyboards.stopWrites()
    }

    /// 503 `server-stopping` for a request the server does not handle because it is stopping:
    /// one that arrived after the stop began, or whose reply was still pending after
    /// ``stopWrites()``. `navsim serve` gives it to `HTTPServer.stop` as the stopping reply.
    public static let stoppingReply = problem(
        Problem(
            status: 503, slug: "server-stopping", title: "Server stopping",
            detail: "The server is stopping and did not handle this request; nothing was changed. Send it again to a running server."))
}

import Foundation
import HTTPServer
import NavigationCore
import Storyboards
import Synchronization

/// Uploaded storyboards, and what the core needs from them: scene instantiation (R101, R102) and
/// segue destinations (R96–R98). Serves `/v1/storyboards/…` (API.md "Storyboards").
///
/// The parsed library lives in memory behind one lock; every upload, replacement, declaration
/// and deletion is written to the store (table `storyboards`, byte for byte as uploaded) before it
/// is answered, and `init(store:)` parses them all again, so storyboards survive a restart.
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

    /// What the lock guards: the library and, per storyboard, its declared custom segue classes.
    struct Contents: Sendable {
        var library = StoryboardLibrary()
        var declarations: [String: CustomSegueDeclarations] = [:]
        /// Per storyboard, what its view controller classes do (`PUT …/classes`).
        var classes: [String: ClassDeclarations] = [:]
        var xml: [String: [UInt8]] = [:]
        /// Counts uploads, replacements, declarations and deletions: a storyboard's reply (its
        /// diagnostics) may change with any of them, so cached pictures are keyed by it.
        var generation = 0

        var snapshot: StoryboardSnapshot { StoryboardSnapshot(library: library, declarations: declarations, classes: classes) }

        /// The row to store for `name` with `xml`, carrying its declarations as they are now.
        func stored(_ name: String, xml: [UInt8], customSegues: CustomSegueDeclarations? = nil,
                    classes: ClassDeclarations? = nil) -> StoredStoryboard {
            StoredStoryboard(name: name, xml: xml, customSegues: (customSegues ?? declarations[name])?.storedText,
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
        let classLimits = limits
        let limits = limits.storyboard
        var contents = Contents()
        for stored in try store.loadStoryboards() {
            do {
                let storyboard = try StoryboardParser.parse(name: stored.name, data: stored.xml, limits: limits)
                contents.library.insert(storyboard)
                contents.xml[stored.name] = stored.xml
                if let text = stored.customSegues {
                    contents.declarations[stored.name] = try CustomSegueDeclarations.decode(stored: text)
                }
                if let text = stored.classes {
                    contents.classes[stored.name] = try ClassDeclarations.decode(stored: text, limits: classLimits)
                }
            } catch {
                FileHandle.standardError.write(Data("navsim: stored storyboard '\(stored.name)' skipped: \(error)\n".utf8))
            }
        }
        self.contents = Mutex(contents)
    }

    /// A consistent view of the library for one request.
    var snapshot: StoryboardSnapshot { contents.withLock { $0.snapshot } }

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

    /// The `/v1/storyboards/…` routes (API.md "Storyboards"), registered in the service's one
    /// table (``NavSimService/router``); `catalog` finds the catalog in the router's context.
    static func routes<Context>(_ catalog: @escaping @Sendable (Context) -> StoryboardCatalog) -> [Route<Context>] {
        [
            Route("GET", "/v1/storyboards") { c, _, _ throws(Problem) in catalog(c).list() },
            Route("GET", "/v1/storyboards/{name}") { c, req, p throws(Problem) in try catalog(c).get(try validName(p["name"]), req) },
            Route("PUT", "/v1/storyboards/{name}") { c, req, p throws(Problem) in try catalog(c).put(try validName(p["name"]), req) },
            Route("DELETE", "/v1/storyboards/{name}") { c, _, p throws(Problem) in try catalog(c).delete(try validName(p["name"])) },
            Route("POST", "/v1/storyboards/{name}/refactor") { c, req, p throws(Problem) in
                try catalog(c).refactor(try validName(p["name"]), req)
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

    static func validName(_ name: String) throws(Problem) -> String {
        guard !name.isEmpty, name.utf8.count <= 200, !name.contains("/") else {
            throw Problem.invalidField("name", "A storyboard name is 1–200 characters without '/'.")
        }
        return name
    }

    static func unknownStoryboard(_ name: String) -> Problem {
        Problem(status: 404, slug: "unknown-storyboard", title: "Unknown storyboard",
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

    /// JSON, or the flow as text, DOT or SVG, as `Accept` asks (docs/pictures.md).
    func get(_ name: String, _ req: HTTPRequest) throws(Problem) -> HTTPResponse {
        let representation = try pictures.choose(req)
        let (snapshot, generation) = contents.withLock { ($0.snapshot, $0.generation) }
        guard let reply = snapshot.reply(for: name) else { throw Self.unknownStoryboard(name) }
        return try pictures.response(representation, resource: "storyboard \(name)", version: "\(generation)", etag: nil,
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
        let result: Result<(created: Bool, snapshot: StoryboardSnapshot), Problem> = contents.withLock { contents in
            do {
                try store.putStoryboard(contents.stored(name, xml: req.body))
            } catch {
                return .failure(Self.storageFailure(error))
            }
            let created = contents.library.insert(storyboard) == nil
            contents.xml[name] = req.body
            contents.generation += 1
            return .success((created, contents.snapshot))
        }
        let (created, snapshot) = try result.get()
        guard let reply = snapshot.reply(for: name) else { throw Self.unknownStoryboard(name) }
        let location = "/v1/storyboards/" + name.percentEncodedPathSegment
        return NavSimService.json(created ? 201 : 200, reply, location: created ? location : nil)
    }

    func delete(_ name: String) throws(Problem) -> HTTPResponse {
        let result: Result<Void, Problem> = contents.withLock { contents in
            guard contents.library[name] != nil else { return .failure(Self.unknownStoryboard(name)) }
            do { _ = try store.deleteStoryboard(name) } catch { return .failure(Self.storageFailure(error)) }
            contents.library.remove(named: name)
            contents.declarations[name] = nil
            contents.classes[name] = nil
            contents.xml[name] = nil
            contents.generation += 1
            return .success(())
        }
        try result.get()
        return HTTPResponse(status: 204)
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
        let result: Result<StoryboardSnapshot, Problem> = contents.withLock { contents in
            guard contents.library[name] != nil, let xml = contents.xml[name] else {
                return .failure(Self.unknownStoryboard(name))
            }
            do {
                try store.putStoryboard(contents.stored(name, xml: xml, customSegues: declarations))
            } catch {
                return .failure(Self.storageFailure(error))
            }
            contents.declarations[name] = declarations
            contents.generation += 1
            return .success(contents.snapshot)
        }
        guard let reply = try result.get().reply(for: name) else { throw Self.unknownStoryboard(name) }
        return NavSimService.json(200, reply)
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
        let result: Result<StoryboardSnapshot, Problem> = contents.withLock { contents in
            guard contents.library[name] != nil, let xml = contents.xml[name] else {
                return .failure(Self.unknownStoryboard(name))
            }
            do {
                try store.putStoryboard(contents.stored(name, xml: xml, classes: classes))
            } catch {
                return .failure(Self.storageFailure(error))
            }
            contents.classes[name] = classes
            contents.generation += 1
            return .success(contents.snapshot)
        }
        guard let reply = try result.get().reply(for: name) else { throw Self.unknownStoryboard(name) }
        return NavSimService.json(200, reply)
    }

    /// Parser errors as problems: not XML → 400 `invalid-body` (with line and column); XML that
    /// is no iOS storyboard → 422 `unsupported-document-type`; a DOCTYPE (never written by
    /// Interface Builder, refused for safety) or content after `</document>` → 422 `invalid-body`;
    /// over a parser limit (attributes, elements, nesting) → 422 `limit-exceeded`; too large → 413.
    static func problem(_ error: StoryboardError) -> Problem {
        switch error {
        case let .limitExceeded(limit, max, _, _):
            return Problem.limitExceeded(limit.rawValue, max: max, detail: error.description)
        case .contentAfterDocument:
            return Problem(status: 422, slug: "invalid-body", title: "The document is refused", detail: error.description)
        case let .tooDeeplyNested(limit, _, _):
            return Problem.limitExceeded(StoryboardParser.Limit.elementDepth.rawValue, max: limit, detail: error.description)
        case .malformedXML, .unsupportedEncoding:
            return Problem(status: 400, slug: "invalid-body", title: "The body is not a well-formed XML document",
                           detail: error.description)
        case .doctypeNotAllowed:
            return Problem(status: 422, slug: "invalid-body", title: "The document is refused", detail: error.description)
        case .notAStoryboard, .unsupportedDocumentType:
            return Problem(status: 422, slug: "unsupported-document-type", title: "Not an iOS storyboard",
                           detail: error.description)
        case let .documentTooLarge(_, limit):
            return Problem.payloadTooLarge(limit)
        }
    }
}

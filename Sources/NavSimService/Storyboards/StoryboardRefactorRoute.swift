import JSONValues
import HTTPServer
import SessionStorage
import Storyboards
import StoryboardTools

extension StoryboardCatalog {
    /// `POST /v1/storyboards/{name}/refactor {"scenes": ["id", …], "into": "Settings"}`: Refactor
    /// to Storyboard (docs/refactor.md). Stores the rewritten source and the new storyboard in one
    /// transaction and answers 200 `{"storyboards": [<source reply>, <new reply>]}`, each with its
    /// diagnostics. 404 for an unknown storyboard; 409 `storyboard-exists` when `into` names a
    /// storyboard already uploaded; 409 `refactor-refused` with the reason (an unknown scene id, a
    /// container split from its relationship or embed children, `into` the source's own name):
    /// refusals that depend on the storyboard as it stands, not on the body's shape (RFC 9110
    /// §15.5.10); 422 `invalid-field` for a bad body.
    /// The new storyboard gets the source's class and custom segue declarations for the classes
    /// its scenes and segues use (an unwind to a moved controller still finds its declared
    /// action); the source keeps all of its own.
    /// The reply is deferred (``deferredWrite(_:)``) until both documents are durable.
    func refactor(_ name: String, _ req: HTTPRequest) throws(Problem) -> HTTPResponse {
        guard let type = req.mediaType, NavSimService.jsonMediaTypes.contains(type) else {
            throw Problem.unsupportedMediaType(req.headers["content-type"], expected: "application/json")
        }
        let body = try BodyReader(try NavSimService.parseJSON(req.body, limits: serviceLimits), path: "", allowed: ["scenes", "into"])
        guard let scenes = try body.strings("scenes"), !scenes.isEmpty else {
            throw Problem.invalidField("scenes", "scenes is a non-empty array of scene ids.")
        }
        let into = try Self.validName(try body.requiredString("into"), field: "into")
        // The rewrite and its parses read the library: on the write queue, like the store's write.
        return deferredWrite { [self] () throws(Problem) -> HTTPResponse in
            typealias Plan = (
                rows: [StoredStoryboard], source: Storyboard, extracted: Storyboard,
                customSegues: CustomSegueDeclarations?, classes: ClassDeclarations?
            )
            let planned: Result<Plan, Problem> = withContents { contents in
                // 404 for an unknown storyboard first, whatever `into` says.
                guard let xml = contents.xml[name] else { return .failure(Self.unknownStoryboard(name)) }
                // Into its own name: refused as the CLI refuses it (docs/refactor.md), not as a name clash.
                guard into != name else {
                    return .failure(
                        Problem(
                            status: 409, slug: "refactor-refused", title: "The refactor is refused",
                            detail: "Cannot move scenes of '\(name)' into '\(into)': the new storyboard needs a name of its own."))
                }
                guard contents.library[into] == nil else {
                    return .failure(
                        Problem.conflict(
                            "storyboard-exists",
                            "Storyboard '\(into)' is already uploaded; refactor into a new name."))
                }
                let outcome: RefactorOutcome
                do throws(RefactorFailure) {
                    outcome = try RefactorOutcome(xml: xml, name: name, scenes: scenes, into: into, limits: limits)
                } catch {
                    switch error {
                    case .refused(let reason):
                        return .failure(
                            Problem(
                                status: 409, slug: "refactor-refused", title: "The refactor is refused",
                                detail: "Cannot move \(scenes.joined(separator: ", ")) into '\(into)': \(reason)."))
                    case .unparsable(let reason):
                        return .failure(Self.problem(reason))
                    }
                }
                let now = NavSimService.now()
                // Declarations are per storyboard and per class: the moved scenes' classes take theirs along.
                let customSegues = contents.declarations[name]?.only(outcome.segueClasses)
                let classes = contents.classes[name]?.only(outcome.controllerClasses)
                return .success(
                    (
                        [
                            StoredStoryboard(
                                name: name, xml: outcome.result.original, customSegues: contents.declarations[name]?.storedText,
                                classes: contents.classes[name]?.storedText, updatedAt: now),
                            StoredStoryboard(
                                name: into, xml: outcome.result.extracted, customSegues: customSegues?.storedText,
                                classes: classes?.storedText, updatedAt: now),
                        ], outcome.source, outcome.extracted, customSegues, classes
                    ))
            }
            let plan = try planned.get()
            do { try store.putStoryboards(plan.rows) } catch { throw Self.storageFailure(error) }
            let snapshot = withContents { contents in
                contents.library.insert(plan.source)
                contents.library.insert(plan.extracted)
                contents.xml[name] = plan.rows[0].xml
                contents.xml[into] = plan.rows[1].xml
                contents.declarations[into] = plan.customSegues
                contents.classes[into] = plan.classes
                contents.generation += 1
                wrote(&contents)
                return contents.snapshot
            }
            guard let first = snapshot.reply(for: name), let second = snapshot.reply(for: into) else {
                throw Self.unknownStoryboard(name)
            }
            return NavSimService.json(200, .object([("storyboards", .array([first, second]))]))
        }
    }
}

extension ClassDeclarations {
    /// The declarations of `classes` only; nil when none is declared.
    func only(_ classes: Set<String>) -> ClassDeclarations? {
        let kept = given.filter { classes.contains($0.key) }
        return kept.isEmpty ? nil : ClassDeclarations(byClass: byClass.filter { kept[$0.key] != nil }, given: kept)
    }
}

import JSONValues
import NavigationCore
import Storyboards

/// The uploaded storyboards as one request sees them, on the service's side: instantiation and
/// segue resolution (``SceneInstantiation`` in the Storyboards target) with its failures and the
/// request's ``SpecBudget`` as HTTP problems, and the storyboard replies of docs/api.md
/// "Storyboards".
struct StoryboardSnapshot: Sendable {
    /// Instantiation and segue resolution over the library and the declarations.
    var scenes: SceneInstantiation
    /// What each storyboard's view controller classes do (`PUT …/classes`), as declared.
    var classes: [String: ClassDeclarations]

    var library: StoryboardLibrary { scenes.library }
    var declarations: [String: CustomSegueDeclarations] { scenes.declarations }

    init(library: StoryboardLibrary, declarations: [String: CustomSegueDeclarations], classes: [String: ClassDeclarations] = [:]) {
        scenes = SceneInstantiation(library: library, declarations: declarations, classes: classes.mapValues(\.byClass))
        self.classes = classes
    }

    /// ``SceneInstantiation/instantiate(storyboard:identifier:depth:budget:failure:)`` for a request.
    /// - Throws: 409 D20/D19 for an unknown storyboard or identifier, the R101 assertion for an
    ///   empty one, 409 problems for references that cannot be followed, 422 `limit-exceeded`
    ///   when the scenes would exceed `budget` (counted as they are built).
    func instantiate(storyboard name: String, identifier: String?, budget: SpecBudget, depth: Int = 0) throws(Problem) -> ControllerSpec? {
        try scenes.instantiate(storyboard: name, identifier: identifier, depth: depth, budget: budget.take, failure: Self.problem)
    }

    /// ``SceneInstantiation/resolveSegue(_:in:budget:failure:)`` for a request: the destination
    /// scene of a `performSegue`/`triggerSegue`, counted against `budget`. An unwind that names
    /// its destination is 422; a named destination id in use is 409.
    func resolveSegue(_ command: Command, in state: SessionState, budget: SpecBudget) throws(Problem) -> Command {
        try scenes.resolveSegue(command, in: state, budget: budget.take, failure: Self.problem)
    }

    /// Upload diagnostics, computed now: other storyboards and declarations may have changed.
    func diagnostics(for name: String) -> [StoryboardDiagnostic] { scenes.diagnostics(for: name) }

    /// Each failure as its problem. D19 and D20 are UIKit's (409 with the UIKit code); the
    /// references that cannot be followed have no UIKit code and are 409s named like the upload
    /// diagnostics that announced them.
    static func problem(_ failure: InstantiationFailure) -> Problem {
        switch failure {
        case let .uikit(diagnostic):
            return Problem(diagnostic)
        case let .unresolved(error, address):
            switch error {
            case let .storyboardNotFound(name):
                return Problem(Diagnostic.unknownStoryboard(name))
            case let .identifierNotFound(identifier, storyboard):
                return Problem(Diagnostic.unknownStoryboardIdentifier(storyboard: storyboard, identifier: identifier))
            case .noInitialViewController:
                return Problem.conflict("unresolved-reference", "Cannot instantiate '\(address)': \(error.description)")
            case .referenceCycle:
                return Problem.conflict("reference-cycle", "Cannot instantiate '\(address)': \(error.description)")
            case .elementNotFound, .unwind:
                return Problem.conflict("unknown-destination", "Cannot instantiate '\(address)': \(error.description)")
            }
        case let .relationshipCycle(path):
            let repeated = path.last.map { "\($0)" } ?? ""
            return Problem.conflict(
                "relationship-cycle",
                "Scenes \(path.map { "'\($0)'" }.joined(separator: " → ")) contain each other through relationship/embed segues; instantiating '\(repeated)' would never finish.")
        case let .unwindCreatesNothing(identifier):
            return Problem.invalidField("destination", "The segue '\(identifier)' is an unwind segue: it creates no controller to name.")
        case let .destinationIDTaken(id):
            // Naming the field the client wrote rather than the scene's `id`.
            return Problem.controllerExists("destination.id", "The id '\(id)' is already used in this session.")
        }
    }

    // MARK: - Replies

    /// The storyboard reply of docs/api.md "Storyboards"; nil for an unknown name.
    func reply(for name: String) -> JSON? {
        guard let storyboard = library[name] else { return nil }
        var members: [(String, JSON)] = [
            ("name", .string(name)),
            ("initialViewController", .from(storyboard.initialViewController)),
            ("scenes", .array(storyboard.scenes.map { sceneJSON($0, in: name) })),
            ("diagnostics", .array(diagnostics(for: name).map(Self.diagnosticJSON))),
        ]
        if let declared = declarations[name], !declared.byClass.isEmpty { members.append(("customSegues", declared.json)) }
        if let declared = classes[name], !declared.given.isEmpty { members.append(("classes", declared.json)) }
        return .object(members)
    }

    /// A scene; a storyboard reference reports the kind and class it resolves to (when it does)
    /// and its target under `storyboardReference`.
    func sceneJSON(_ scene: Scene, in storyboard: String) -> JSON {
        var kind = scene.kind.rawValue
        var className = scene.className
        if scene.isReference {
            if case let .success(target) = library.resolve(SceneAddress(storyboard: storyboard, sceneID: scene.id)) {
                kind = target.scene.kind.rawValue
                className = target.scene.className
            } else {
                kind = ControllerKind.viewController.rawValue
            }
        }
        var members: [(String, JSON)] = [
            ("id", .string(scene.id)), ("kind", .string(kind)), ("class", .string(className)),
            ("storyboardIdentifier", .from(scene.storyboardIdentifier)), ("title", .from(scene.title)),
            ("segues", .array(scene.segues.map(Self.segueJSON))),
        ]
        if let reference = scene.placeholder {
            members.append(
                (
                    "storyboardReference",
                    .object([
                        ("storyboardName", .string(reference.storyboardName ?? storyboard)),
                        ("referencedIdentifier", .from(reference.referencedIdentifier)),
                    ])
                ))
        }
        return .object(members)
    }

    /// A segue; `kind` as the XML spells it (legacy `push`, `modal`, … stay visible). Besides
    /// docs/api.md's fields: `unwindAction`, `customClass` and the segue's own presentation styles, when set.
    static func segueJSON(_ segue: Segue) -> JSON {
        var members: [(String, JSON)] = [
            ("id", .string(segue.id)), ("identifier", .from(segue.identifier)), ("kind", .string(segue.spelledKind)),
            ("destination", .from(segue.destination)),
        ]
        if let v = segue.relationship { members.append(("relationship", .string(v))) }
        if let v = segue.modalPresentationStyle { members.append(("modalPresentationStyle", .string(v.spelling))) }
        if let v = segue.modalTransitionStyle { members.append(("modalTransitionStyle", .string(v.spelling))) }
        if let v = segue.unwindAction { members.append(("unwindAction", .string(v))) }
        if let v = segue.customClass { members.append(("customClass", .string(v))) }
        return .object(members)
    }

    static func diagnosticJSON(_ d: StoryboardDiagnostic) -> JSON {
        .object([
            ("severity", .string(d.severity.rawValue)), ("code", .string(d.code.rawValue)),
            ("message", .string(d.message)), ("element", .from(d.element)),
        ])
    }
}

/// What a request's lifecycle code needs to perform storyboard segues. The core asks
/// ``destinations`` when a callback's `performSegue`/`triggerSegue` runs; it is answered by
/// ``StoryboardSnapshot/resolveSegue(_:in:budget:)``, the same code as a top-level call, against
/// this request's snapshot of the catalogue (references followed, class declarations applied,
/// ids suffixed `~2` by the core), the destination counted against the request's budget.
/// A problem it meets (D19, D20, a cycle, a limit) fails the turn; ``problem`` keeps it whole,
/// status and slug included, for the reply.
final class NestedSegues {
    let snapshot: StoryboardSnapshot
    let budget: SpecBudget
    /// The first problem a nested segue met; the turn failed with it.
    private(set) var problem: Problem?

    init(_ snapshot: StoryboardSnapshot, budget: SpecBudget) {
        self.snapshot = snapshot
        self.budget = budget
    }

    /// The resolver handed to `Navigator.run`.
    var destinations: SegueDestinations {
        SegueDestinations(resolve: { [self] command, state in
            do throws(Problem) {
                return .success(try snapshot.resolveSegue(command, in: state, budget: budget))
            } catch {
                if problem == nil { problem = error }
                if let d = error.uikit { return .failure(.uikit(d)) }
                return .failure(.input(CommandError(kind: .invalid, message: error.detail, field: error.field)))
            }
        })
    }
}

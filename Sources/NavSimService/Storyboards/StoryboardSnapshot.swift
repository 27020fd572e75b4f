import NavigationCore
import Storyboards

/// The uploaded storyboards as one request sees them: builds ControllerSpecs from scenes
/// (R101, R102), fills in segue destinations (R96–R98) and renders the storyboard replies.
///
/// A scene's own fields become core values in the Storyboards target (`Scene.controllerSpec(in:)`,
/// `Segue.segueSpec(in:)`: they need only the scene and the core); what stays here needs the
/// service: the request's ``SpecBudget``, HTTP problems, and declared custom segue classes.
struct StoryboardSnapshot: Sendable {
    var library: StoryboardLibrary
    var declarations: [String: CustomSegueDeclarations]
    /// What each storyboard's view controller classes do (`PUT …/classes`).
    var classes: [String: ClassDeclarations] = [:]

    // MARK: - Instantiation (R101, R102)

    /// `UIStoryboard(name:bundle:)` then `instantiateInitialViewController()` (identifier nil) or
    /// `instantiateViewController(withIdentifier:)`.
    /// - Returns: the scene's spec; nil when the storyboard has no entry point (R102: UIKit returns nil).
    /// - Throws: 409 D20 for an unknown storyboard, D19 for an unknown identifier, the R101
    ///   assertion for an empty one; 409 problems for references that cannot be followed.
    ///   422 `limit-exceeded` when the scenes would exceed `budget` (counted as they are built).
    func instantiate(storyboard name: String, identifier: String?, budget: SpecBudget, depth: Int = 0) throws(Problem) -> ControllerSpec? {
        guard let storyboard = library[name] else { throw Problem(Diagnostic.unknownStoryboard(name)) }
        if let identifier {
            guard !identifier.isEmpty else { throw Problem(Diagnostic.emptyStoryboardIdentifier()) }
            guard let scene = storyboard.scene(withStoryboardIdentifier: identifier) else {
                throw Problem(Diagnostic.unknownStoryboardIdentifier(storyboard: name, identifier: identifier))
            }
            return try spec(at: SceneAddress(storyboard: name, sceneID: scene.id), depth: depth, budget: budget)
        }
        guard let initial = storyboard.initialViewController else { return nil }
        return try spec(at: SceneAddress(storyboard: name, sceneID: initial), depth: depth, budget: budget)
    }

    /// The ControllerSpec of the controller at `address` (a storyboard reference is followed to
    /// the scene it stands for), with its relationship and embed children (R102: instantiated
    /// with it) and its segue table (R97). Ids are the Storyboard ID, else the element id, with
    /// `~2`, `~3`, … appended by the core when taken (docs/api.md "Storyboards").
    ///
    /// A scene already being instantiated further up (`enclosing`, the scenes whose children are
    /// being built) is a real containment cycle: 409 `relationship-cycle`. A deep chain that never
    /// comes back is no cycle; it is bounded by ``Limits/specDepth`` (422 `limit-exceeded`), as
    /// is the number of scenes by the request's budget, so even a scene embedding the next one
    /// twice at every level (2ⁿ controllers) stops at the budget.
    func spec(at address: SceneAddress, depth: Int, budget: SpecBudget, enclosing: [SceneAddress] = []) throws(Problem) -> ControllerSpec {
        let resolved: ResolvedScene
        switch library.resolve(address) {
        case let .success(r): resolved = r
        case let .failure(error): throw Self.problem(error, at: address)
        }
        let scene = resolved.scene
        let name = resolved.storyboard
        let here = SceneAddress(storyboard: name, sceneID: scene.id)
        if enclosing.contains(here) {
            let path = (enclosing.drop { $0 != here } + [here]).map { "'\($0)'" }.joined(separator: " → ")
            throw Problem.conflict("relationship-cycle",
                                   "Scenes \(path) contain each other through relationship/embed segues; instantiating '\(here)' would never finish.")
        }
        try budget.take(depth: depth, path: "storyboard scene '\(here)'")
        let inside = enclosing + [here]
        var spec = scene.controllerSpec(in: name)
        spec.segues = segueSpecs(of: scene, in: name)
        // storyboard-format.md §7: a legacy `<classes>` section names the unwind actions a class implements.
        if let customClass = scene.customClass, let actions = library[name]?.unwindActionsByClass[customClass], !actions.isEmpty {
            spec.unwindActions = actions
        }
        // What the class's code sets, declared for this storyboard, over the scene's attributes.
        if let customClass = scene.customClass, let declared = classes[name]?[customClass] {
            spec.configuration = spec.configuration.merging(declared)
        }

        func child(_ segue: Segue) throws(Problem) -> ControllerRef? {
            guard let destination = segue.destination else { return nil }
            return .new(try self.spec(at: SceneAddress(storyboard: name, sceneID: destination), depth: depth + 1,
                                      budget: budget, enclosing: inside))
        }
        switch spec.kind {
        case .navigationController:
            if let root = scene.relationships.first(where: { $0.relationship == "rootViewController" }),
               let ref = try child(root) {
                spec.viewControllers = [ref]
            }
        case .tabBarController:
            var tabs: [ControllerRef] = []
            for segue in scene.relationships where segue.relationship == "viewControllers" {
                if let ref = try child(segue) { tabs.append(ref) }
            }
            spec.viewControllers = tabs
        case .splitViewController:
            // By name, never by position (storyboard-format.md §5); column-style names accepted too.
            for segue in scene.relationships {
                switch segue.relationship {
                case "masterViewController", "primaryViewController":
                    if spec.primary == nil { spec.primary = try child(segue) }
                case "detailViewController", "secondaryViewController":
                    if spec.secondary == nil { spec.secondary = try child(segue) }
                case "supplementaryViewController":
                    if spec.supplementary == nil { spec.supplementary = try child(segue) }
                default:
                    break
                }
            }
        // Pages have no relationship segues: the data source supplies them (§5).
        default:
            break
        }
        var embedded: [ControllerRef] = []
        for segue in scene.segues where segue.kind == .embed {
            if let ref = try child(segue) { embedded.append(ref) }
        }
        if !embedded.isEmpty { spec.embedded = embedded }
        return spec
    }

    /// The scene's transition segues as the core performs them (R97, R98): relationship and embed
    /// segues are containment, made at instantiation.
    func segueSpecs(of scene: Scene, in storyboard: String) -> [SegueSpec] {
        scene.segues.compactMap { segueSpec($0, in: storyboard) }
    }

    /// One segue as the core performs it; a segue with a custom class, of any kind but unwind,
    /// takes what the storyboard's declarations say its class does (R98 "Custom": their styles win
    /// over the segue's attributes). Nil for containment.
    func segueSpec(_ segue: Segue, in storyboard: String) -> SegueSpec? {
        guard var spec = segue.segueSpec(in: storyboard) else { return nil }
        if spec.kind != .unwind, let customClass = segue.customClass,
           let declared = declarations[storyboard]?[customClass] {
            spec.customPerforms = declared.performs
            if let v = declared.modalPresentationStyle { spec.modalPresentationStyle = v }
            if let v = declared.modalTransitionStyle { spec.modalTransitionStyle = v }
            spec.customTransitioningDelegate = declared.transitioningDelegate
        }
        return spec
    }

    /// The segue with element id `id` in storyboard `name` as the catalogue has it now, with the
    /// current declarations; nil when the storyboard or the segue is gone.
    func currentSpec(ofSegue id: String, in name: String) -> SegueSpec? {
        guard let storyboard = library[name] else { return nil }
        for scene in storyboard.scenes {
            if let segue = scene.segues.first(where: { $0.id == id }) { return segueSpec(segue, in: name) }
        }
        return nil
    }

    /// Resolution failures while following a scene: the missing storyboard is D20 and the missing
    /// Storyboard ID D19 (R101), as UIKit raises them when it loads the reference; the rest have no
    /// UIKit code and are 409s named like the upload diagnostics that announced them.
    static func problem(_ error: ResolutionError, at address: SceneAddress) -> Problem {
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
    }

    // MARK: - Segues (R96, R97)

    /// For `.performSegue/.triggerSegue(receiver, identifier, nil)`: finds the segue in the
    /// receiver's table the way the core does and instantiates its destination scene (R96 step 1),
    /// from `destinationStoryboard` (references are followed); a `triggerSegue` may name the segue
    /// by its element id (docs/api.md `triggerSegue`, `Controller.segue(named:acceptingElementID:)`). Unwinds
    /// (R99: the core finds the destination), unknown identifiers and controllers without a
    /// storyboard (D18, raised by the core) come back without a destination, as does a trigger that
    /// `shouldPerformSegue` vetoes (R96: nothing is instantiated). A destination holding only an
    /// id (`"destination": {"id": …}`) names the new instance; on an unwind it is 422.
    func resolveSegue(_ command: Command, in state: SessionState, budget: SpecBudget) throws(Problem) -> Command {
        let receiver: ControllerID
        let identifier: String
        let trigger: Bool
        let named: ControllerSpec?
        switch command {
        case let .performSegue(r, i, d, nil) where d?.storyboard == nil: (receiver, identifier, trigger, named) = (r, i, false, d)
        case let .triggerSegue(r, i, d, nil) where d?.storyboard == nil: (receiver, identifier, trigger, named) = (r, i, true, d)
        default: return command
        }
        var declared: SegueSpec?
        func rebuilt(_ destination: ControllerSpec?) -> Command {
            trigger ? .triggerSegue(receiver: receiver, identifier: identifier, destination: destination, segue: declared)
                : .performSegue(receiver: receiver, identifier: identifier, destination: destination, segue: declared)
        }
        // No storyboard: the core answers D18 (a named destination is never instantiated as is).
        guard let controller = state.controllers[receiver], let origin = controller.storyboard else { return rebuilt(nil) }
        // The same lookup the core makes, so both agree on which segue runs.
        guard let listed = controller.segue(named: identifier, acceptingElementID: trigger) else { return rebuilt(nil) }
        // Custom segue declarations made after the receiver was instantiated apply to
        // what it performs from now on (R98), as a re-upload does; the command carries them.
        if listed.customClass != nil, let current = currentSpec(ofSegue: listed.id, in: origin.name), current != listed {
            declared = current
        }
        let segue = declared ?? listed
        if segue.kind == .unwind, named != nil {
            throw Problem.invalidField("destination", "The segue '\(identifier)' is an unwind segue: it creates no controller to name.")
        }
        guard segue.kind != .unwind, let scene = segue.destinationScene else { return rebuilt(nil) }
        if trigger && controller.shouldPerformSegue[segue.identifier ?? identifier] == false { return rebuilt(nil) }
        let address = SceneAddress(storyboard: segue.destinationStoryboard ?? origin.name, sceneID: scene)
        var destination = try spec(at: address, depth: 0, budget: budget)
        if let id = named?.id {
            // `destination.id` names the new instance: taken as is, never suffixed (409 when in
            // use, naming the field the client wrote rather than the scene's `id`).
            guard state.controllers[id] == nil else {
                throw Problem.controllerExists("destination.id", "The id '\(id)' is already used in this session.")
            }
            destination.id = id
            destination.appendsSuffixWhenTaken = false
        }
        return rebuilt(destination)
    }

    // MARK: - Replies

    /// Upload diagnostics, computed now: other storyboards and declarations may have changed.
    func diagnostics(for name: String) -> [StoryboardDiagnostic] {
        library.diagnostics(for: name, customSegueClasses: declarations[name]?.classes ?? [])
    }

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
            members.append(("storyboardReference", .object([
                ("storyboardName", .string(reference.storyboardName ?? storyboard)),
                ("referencedIdentifier", .from(reference.referencedIdentifier)),
            ])))
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

public import NavigationCore

/// The uploaded storyboards as one request sees them, and what the core needs from them: a
/// scene instantiated as a ControllerSpec with its containment (R101, R102) and a segue's
/// destination scene filled in (R96–R98).
///
/// Nothing here knows HTTP. The caller gives a budget that counts the scenes built (it may
/// refuse one, with its own error `E`) and turns each ``InstantiationFailure`` into its `E`, so
/// both reach it as one typed error.
public struct SceneInstantiation: Sendable {
    /// The parsed storyboards, by name.
    public var library: StoryboardLibrary
    /// Per storyboard, its declared custom segue classes.
    public var declarations: [String: CustomSegueDeclarations]
    /// Per storyboard and view controller class, the configuration the class's code sets
    /// (`PUT …/classes`): over the scene's own attributes, under what a request's spec gives.
    public var classes: [String: [String: ControllerPatch]]

    /// The uploads as they stand, with no declarations unless given.
    public init(
        library: StoryboardLibrary, declarations: [String: CustomSegueDeclarations] = [:],
        classes: [String: [String: ControllerPatch]] = [:]
    ) {
        self.library = library
        self.declarations = declarations
        self.classes = classes
    }

    // MARK: - Instantiation (R101, R102)

    /// `UIStoryboard(name:bundle:)` then `instantiateInitialViewController()` (identifier nil) or
    /// `instantiateViewController(withIdentifier:)`.
    /// - Parameters:
    ///   - depth: how deep the spec sits in the request (0 at the top), for the budget.
    ///   - budget: called once per scene built, with its depth and a path naming it; throws to refuse it.
    ///   - failure: the caller's error for an ``InstantiationFailure``.
    /// - Returns: the scene's spec; nil when the storyboard has no entry point (R102: UIKit returns nil).
    /// - Throws: `failure(.uikit(D20))` for an unknown storyboard, D19 for an unknown identifier,
    ///   the R101 assertion for an empty one; the failures of ``spec(at:depth:enclosing:budget:failure:)``.
    public func instantiate<E: Error>(
        storyboard name: String, identifier: String?, depth: Int = 0,
        budget: (_ depth: Int, _ path: String) throws(E) -> Void,
        failure: (InstantiationFailure) -> E
    ) throws(E) -> ControllerSpec? {
        guard let storyboard = library[name] else { throw failure(.uikit(Diagnostic.unknownStoryboard(name))) }
        if let identifier {
            guard !identifier.isEmpty else { throw failure(.uikit(Diagnostic.emptyStoryboardIdentifier())) }
            guard let scene = storyboard.scene(withStoryboardIdentifier: identifier) else {
                throw failure(.uikit(Diagnostic.unknownStoryboardIdentifier(storyboard: name, identifier: identifier)))
            }
            return try spec(at: SceneAddress(storyboard: name, sceneID: scene.id), depth: depth, budget: budget, failure: failure)
        }
        guard let initial = storyboard.initialViewController else { return nil }
        return try spec(at: SceneAddress(storyboard: name, sceneID: initial), depth: depth, budget: budget, failure: failure)
    }

    /// The ControllerSpec of the controller at `address` (a storyboard reference is followed to
    /// the scene it stands for), with its relationship and embed children (R102: instantiated
    /// with it) and its segue table (R97). Ids are the Storyboard ID, else the element id, with
    /// `~2`, `~3`, … appended by the core when taken (docs/api.md "Storyboards").
    ///
    /// A scene already being instantiated further up (`enclosing`, the scenes whose children are
    /// being built) is a real containment cycle: ``InstantiationFailure/relationshipCycle(_:)``.
    /// A deep chain that never comes back is no cycle; the budget bounds it, as it bounds the
    /// number of scenes, so even a scene embedding the next one twice at every level (2ⁿ
    /// controllers) stops at the budget.
    public func spec<E: Error>(
        at address: SceneAddress, depth: Int, enclosing: [SceneAddress] = [],
        budget: (_ depth: Int, _ path: String) throws(E) -> Void,
        failure: (InstantiationFailure) -> E
    ) throws(E) -> ControllerSpec {
        let resolved: ResolvedScene
        switch library.resolve(address) {
        case let .success(r): resolved = r
        case let .failure(error): throw failure(Self.failure(error, at: address))
        }
        let scene = resolved.scene
        let name = resolved.storyboard
        let here = SceneAddress(storyboard: name, sceneID: scene.id)
        if enclosing.contains(here) {
            throw failure(.relationshipCycle(Array(enclosing.drop { $0 != here }) + [here]))
        }
        try budget(depth, "storyboard scene '\(here)'")
        let inside = enclosing + [here]
        var spec = scene.controllerSpec(in: name)
        spec.segues = segueSpecs(of: scene, in: name)
        // ../shared/spec/storyboard-format.md §7: a legacy `<classes>` section names the unwind actions a class implements.
        if let customClass = scene.customClass, let actions = library[name]?.unwindActionsByClass[customClass], !actions.isEmpty {
            spec.unwindActions = actions
        }
        // What the class's code sets, declared for this storyboard, over the scene's attributes.
        if let customClass = scene.customClass, let declared = classes[name]?[customClass] {
            // A property only other kinds have (`KindProperties.all`) cannot be the class's: the
            // route refuses such a declaration, and one made for a scene since re-uploaded as
            // another kind is left out here.
            let fitting = declared.fields.filter { KindProperties.declares(spec.kind, $0) }
            spec.configuration = spec.configuration.merging(
                fitting.count == declared.fields.count ? declared : ControllerPatch(values: declared.values, fields: fitting))
        }

        func child(_ segue: Segue) throws(E) -> ControllerRef? {
            guard let destination = segue.destination else { return nil }
            return .new(
                try self.spec(
                    at: SceneAddress(storyboard: name, sceneID: destination), depth: depth + 1,
                    enclosing: inside, budget: budget, failure: failure))
        }
        switch spec.kind {
        case .navigationController:
            if let root = scene.relationships.first(where: { $0.relationship == "rootViewController" }),
                let ref = try child(root)
            {
                spec.viewControllers = [ref]
            }
        case .tabBarController:
            var tabs: [ControllerRef] = []
            for segue in scene.relationships where segue.relationship == "viewControllers" {
                if let ref = try child(segue) { tabs.append(ref) }
            }
            spec.viewControllers = tabs
        case .splitViewController:
            // By name, never by position (../shared/spec/storyboard-format.md §5); column-style names accepted too.
            for segue in scene.relationships {
                switch segue.relationship {
                case "masterViewController", "primaryViewController":
                    if spec.primary == nil { spec.primary = try child(segue) }
                case "detailViewController", "secondaryViewController":
                    if spec.secondary == nil { spec.secondary = try child(segue) }
                case "supplementaryViewController":
                    if spec.supplementary == nil { spec.supplementary = try child(segue) }
                case "compactViewController":
                    if spec.compact == nil { spec.compact = try child(segue) }
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
    public func segueSpecs(of scene: Scene, in storyboard: String) -> [SegueSpec] {
        scene.segues.compactMap { segueSpec($0, in: storyboard) }
    }

    /// One segue as the core performs it; a segue with a custom class, of any kind but unwind,
    /// takes what the storyboard's declarations say its class does (R98 "Custom": their styles win
    /// over the segue's attributes). Nil for containment.
    public func segueSpec(_ segue: Segue, in storyboard: String) -> SegueSpec? {
        guard var spec = segue.segueSpec(in: storyboard) else { return nil }
        if spec.kind != .unwind, let customClass = segue.customClass,
            let declared = declarations[storyboard]?[customClass]
        {
            spec.customPerforms = declared.performs
            if let v = declared.modalPresentationStyle { spec.modalPresentationStyle = v }
            if let v = declared.modalTransitionStyle { spec.modalTransitionStyle = v }
            spec.customTransitioningDelegate = declared.transitioningDelegate
            spec.customSheetPresentationController = declared.sheetPresentationController
            if let v = declared.animated { spec.animates = v }
        }
        return spec
    }

    /// The segue with element id `id` in storyboard `name` as the uploads have it now, with the
    /// current declarations; nil when the storyboard or the segue is gone.
    public func currentSpec(ofSegue id: String, in name: String) -> SegueSpec? {
        guard let storyboard = library[name] else { return nil }
        for scene in storyboard.scenes {
            if let segue = scene.segues.first(where: { $0.id == id }) { return segueSpec(segue, in: name) }
        }
        return nil
    }

    /// Resolution failures while following a scene: the missing storyboard is D20 and the missing
    /// Storyboard ID D19 (R101), as UIKit raises them when it loads the reference; the rest have
    /// no UIKit code.
    static func failure(_ error: ResolutionError, at address: SceneAddress) -> InstantiationFailure {
        switch error {
        case let .storyboardNotFound(name):
            return .uikit(Diagnostic.unknownStoryboard(name))
        case let .identifierNotFound(identifier, storyboard):
            return .uikit(Diagnostic.unknownStoryboardIdentifier(storyboard: storyboard, identifier: identifier))
        default:
            return .unresolved(error, at: address)
        }
    }

    // MARK: - Segues (R96, R97)

    /// For `.performSegue/.triggerSegue(receiver, identifier, nil)`: finds the segue in the
    /// receiver's table the way the core does and instantiates its destination scene (R96 step 1),
    /// from `destinationStoryboard` (references are followed); a `triggerSegue` may name the segue
    /// by its element id (docs/api.md `triggerSegue`, `Controller.segue(named:acceptingElementID:)`).
    /// Unwinds (R99: the core finds the destination), unknown identifiers and controllers without
    /// a storyboard (D18, raised by the core) come back without a destination, as does a trigger
    /// that `shouldPerformSegue` vetoes (R96: nothing is instantiated). A destination holding only
    /// an id (`"destination": {"id": …}`) names the new instance.
    /// - Throws: `failure(.unwindCreatesNothing)` when an unwind names its destination,
    ///   `failure(.destinationIDTaken)` when the named id is in use, and instantiation's failures.
    public func resolveSegue<E: Error>(
        _ command: Command, in state: SessionState,
        budget: (_ depth: Int, _ path: String) throws(E) -> Void,
        failure: (InstantiationFailure) -> E
    ) throws(E) -> Command {
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
            trigger
                ? .triggerSegue(receiver: receiver, identifier: identifier, destination: destination, segue: declared)
                : .performSegue(receiver: receiver, identifier: identifier, destination: destination, segue: declared)
        }
        // No storyboard: the core answers D18 (a named destination is never instantiated as is).
        guard let controller = state.controllers[receiver], let origin = controller.storyboard else { return rebuilt(nil) }
        // The same lookup the core makes, so both agree on which segue runs.
        guard let listed = controller.segue(named: identifier, acceptingElementID: trigger) else { return rebuilt(nil) }
        // Custom segue declarations made after the receiver was instantiated apply to what it
        // performs from now on (R98), as a re-upload does; the command carries them.
        if listed.customClass != nil, let current = currentSpec(ofSegue: listed.id, in: origin.name), current != listed {
            declared = current
        }
        let segue = declared ?? listed
        if segue.kind == .unwind, named != nil { throw failure(.unwindCreatesNothing(identifier: identifier)) }
        guard segue.kind != .unwind, let scene = segue.destinationScene else { return rebuilt(nil) }
        if trigger && controller.shouldPerformSegue[segue.identifier ?? identifier] == false { return rebuilt(nil) }
        let address = SceneAddress(storyboard: segue.destinationStoryboard ?? origin.name, sceneID: scene)
        var destination = try spec(at: address, depth: 0, budget: budget, failure: failure)
        if let id = named?.id {
            // `destination.id` names the new instance: taken as is, never suffixed.
            guard state.controllers[id] == nil else { throw failure(.destinationIDTaken(id)) }
            destination.id = id
            destination.appendsSuffixWhenTaken = false
        }
        return rebuilt(destination)
    }

    /// Upload diagnostics, computed now: other storyboards and declarations may have changed.
    public func diagnostics(for name: String) -> [StoryboardDiagnostic] {
        library.diagnostics(for: name, customSegueClasses: declarations[name]?.classes ?? [])
    }
}

/// Why a scene could not be instantiated or a segue's destination resolved.
public enum InstantiationFailure: Error, Sendable {
    /// UIKit's own refusal: D20 (unknown storyboard), D19 (unknown Storyboard ID), or R101's
    /// assertion for an empty identifier.
    case uikit(Diagnostic)
    /// A storyboard reference or segue that cannot be followed from `at` (no entry point, a
    /// reference cycle, a missing element), as the upload diagnostics announced it.
    case unresolved(ResolutionError, at: SceneAddress)
    /// Scenes that contain each other through relationship or embed segues, outermost first,
    /// the repeated scene last: instantiating them would never finish.
    case relationshipCycle([SceneAddress])
    /// The request named the destination of an unwind segue, which creates no controller.
    case unwindCreatesNothing(identifier: String)
    /// The id the request gave the destination is already a controller of the session.
    case destinationIDTaken(ControllerID)
}

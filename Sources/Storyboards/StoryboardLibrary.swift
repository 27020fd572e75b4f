import NavigationCore

/// The storyboards uploaded so far, by name: what `UIStoryboard(name:bundle:)` can find.
/// Resolves storyboard references across files and computes upload diagnostics.
///
/// Source: ../shared/spec/storyboard-format.md §6 (resolution rule), R101 (missing storyboard/identifier),
/// R102 (initial view controller).
///
/// ```swift
/// var library = StoryboardLibrary([main, second])
/// let target = try library.resolveDestination(of: segue, in: "Main").get()
/// target.storyboard   // "Second"
/// ```
public struct StoryboardLibrary: Sendable, Equatable {
    /// Storyboards by name.
    public private(set) var storyboards: [String: Storyboard]

    /// A library holding `storyboards` (a later one with the same name replaces an earlier one).
    public init(_ storyboards: [Storyboard] = []) {
        self.storyboards = [:]
        for storyboard in storyboards { self.storyboards[storyboard.name] = storyboard }
    }

    /// Storyboard names, sorted.
    public var names: [String] { storyboards.keys.sorted() }

    /// The storyboard called `name`.
    public subscript(name: String) -> Storyboard? { storyboards[name] }

    /// Adds or replaces a storyboard (`PUT /v1/storyboards/{name}`). Returns the one it replaced.
    @discardableResult
    public mutating func insert(_ storyboard: Storyboard) -> Storyboard? {
        storyboards.updateValue(storyboard, forKey: storyboard.name)
    }

    /// Removes a storyboard (`DELETE /v1/storyboards/{name}`). Returns it.
    @discardableResult
    public mutating func remove(named name: String) -> Storyboard? {
        storyboards.removeValue(forKey: name)
    }

    /// The scene at `address`, without following references.
    public func scene(at address: SceneAddress) -> Scene? {
        storyboards[address.storyboard]?.scene(id: address.sceneID)
    }

    // MARK: Resolution

    /// The scene at `address`; when it is a storyboard reference, the controller it stands for,
    /// following references across storyboards until a real controller.
    public func resolve(_ address: SceneAddress) -> Result<ResolvedScene, ResolutionError> {
        var current = address
        var visited: [SceneAddress] = []
        while true {
            guard let storyboard = storyboards[current.storyboard] else {
                return .failure(.storyboardNotFound(current.storyboard))
            }
            guard let scene = storyboard.scene(id: current.sceneID) else {
                return .failure(.elementNotFound(id: current.sceneID, storyboard: current.storyboard))
            }
            guard let reference = scene.placeholder else {
                return .success(ResolvedScene(storyboard: current.storyboard, scene: scene))
            }
            if visited.contains(current) { return .failure(.referenceCycle(visited + [current])) }
            visited.append(current)
            switch target(of: reference, from: current.storyboard) {
            case let .success(next): current = next
            case let .failure(error): return .failure(error)
            }
        }
    }

    /// What a reference points at, one hop only: `referencedIdentifier` absent → the target
    /// storyboard's initial controller; present → the scene with that Storyboard ID (§6).
    public func target(of reference: StoryboardReference, from storyboard: String) -> Result<SceneAddress, ResolutionError> {
        let name = reference.storyboardName ?? storyboard
        guard let target = storyboards[name] else { return .failure(.storyboardNotFound(name)) }
        if let identifier = reference.referencedIdentifier {
            guard let scene = target.scene(withStoryboardIdentifier: identifier) else {
                return .failure(.identifierNotFound(identifier: identifier, storyboard: name))
            }
            return .success(SceneAddress(storyboard: name, sceneID: scene.id))
        }
        guard let initial = target.initialViewController else { return .failure(.noInitialViewController(storyboard: name)) }
        return .success(SceneAddress(storyboard: name, sceneID: initial))
    }

    /// `instantiateInitialViewController()` (R102): `.noInitialViewController` when there is none
    /// (UIKit returns nil), `.storyboardNotFound` for an unknown storyboard (D20).
    public func resolveInitial(of storyboard: String) -> Result<ResolvedScene, ResolutionError> {
        guard let target = storyboards[storyboard] else { return .failure(.storyboardNotFound(storyboard)) }
        guard let initial = target.initialViewController else { return .failure(.noInitialViewController(storyboard: storyboard)) }
        return resolve(SceneAddress(storyboard: storyboard, sceneID: initial))
    }

    /// `instantiateViewController(withIdentifier:)` (R101): `.identifierNotFound` is D19,
    /// `.storyboardNotFound` D20. A reference with that Storyboard ID is followed.
    public func resolve(identifier: String, in storyboard: String) -> Result<ResolvedScene, ResolutionError> {
        guard let target = storyboards[storyboard] else { return .failure(.storyboardNotFound(storyboard)) }
        guard let scene = target.scene(withStoryboardIdentifier: identifier) else {
            return .failure(.identifierNotFound(identifier: identifier, storyboard: storyboard))
        }
        return resolve(SceneAddress(storyboard: storyboard, sceneID: scene.id))
    }

    /// The controller a segue of `storyboard` leads to, through references. Unwind segues have
    /// no static destination (their `destination` is an `<exit>`, §7): `.unwind`.
    public func resolveDestination(of segue: Segue, in storyboard: String) -> Result<ResolvedScene, ResolutionError> {
        guard let destination = segue.destination else {
            return .failure(.elementNotFound(id: "", storyboard: storyboard))
        }
        if segue.kind == .unwind { return .failure(.unwind(exitID: destination)) }
        return resolve(SceneAddress(storyboard: storyboard, sceneID: destination))
    }

    // MARK: Diagnostics

    /// Upload diagnostics for storyboard `name` (docs/storyboards.md "Upload diagnostics"): its single-file
    /// diagnostics (``Storyboard/diagnostics``) plus `unresolved-reference` (warning; clears
    /// once the target is uploaded), `reference-cycle` (error), `relationship-cycle` through
    /// references (error) and `undeclared-custom-segue` (warning; `customSegueClasses` are the
    /// classes declared with `PUT /v1/storyboards/{name}/customSegues`). Empty for an unknown name.
    public func diagnostics(for name: String, customSegueClasses: Set<String> = []) -> [StoryboardDiagnostic] {
        guard let storyboard = storyboards[name] else { return [] }
        var diagnostics = storyboard.diagnostics
        referenceDiagnostics(storyboard, into: &diagnostics)
        diagnostics += crossFileRelationshipCycles(storyboard)
        customSegueDiagnostics(storyboard, declared: customSegueClasses, into: &diagnostics)
        return diagnostics
    }

    /// `unresolved-reference` is a warning, not an error: Xcode builds a reference to a
    /// storyboard that is missing or has no entry point, and the corpus has such files on
    /// purpose (IBDecodable `StoryboardReferences`, §6). A loop of references can never resolve:
    /// `reference-cycle` is an error.
    private func referenceDiagnostics(_ storyboard: Storyboard, into diagnostics: inout [StoryboardDiagnostic]) {
        for scene in storyboard.scenes {
            guard let reference = scene.placeholder else { continue }
            let address = SceneAddress(storyboard: storyboard.name, sceneID: scene.id)
            let label = "Storyboard reference '\(scene.id)' (to \(describe(reference)))"
            switch resolve(address) {
            case .success:
                continue
            case let .failure(.referenceCycle(path)):
                let chain = path.map(\.description).joined(separator: " → ")
                diagnostics.append(
                    .init(
                        severity: .error, code: .referenceCycle,
                        message: "\(label) never reaches a view controller: \(chain).",
                        element: scene.id))
            case let .failure(error):
                diagnostics.append(
                    .init(
                        severity: .warning, code: .unresolvedReference,
                        message: "\(label) cannot be resolved: \(error.description)",
                        element: scene.id))
            }
        }
    }

    /// Containment cycles that pass through a storyboard reference (the single-file ones are
    /// already in ``Storyboard/diagnostics``).
    private func crossFileRelationshipCycles(_ storyboard: Storyboard) -> [StoryboardDiagnostic] {
        let start = storyboard.scenes.map { SceneAddress(storyboard: storyboard.name, sceneID: $0.id) }
        let cycles = Cycles.find(nodes: start) { address -> [SceneAddress] in
            guard let scene = scene(at: address) else { return [] }
            if let reference = scene.placeholder {
                return (try? target(of: reference, from: address.storyboard).get()).map { [$0] } ?? []
            }
            return scene.segues.compactMap { segue in
                guard segue.kind == .relationship || segue.kind == .embed, let destination = segue.destination else { return nil }
                let next = SceneAddress(storyboard: address.storyboard, sceneID: destination)
                return self.scene(at: next) == nil ? nil : next
            }
        }
        return cycles.compactMap { cycle in
            // Pure reference loops are reference-cycle; single-file loops are already reported.
            let crossesReference = cycle.contains { scene(at: $0)?.isReference == true }
            let hasContainer = cycle.contains { scene(at: $0)?.isReference != true }
            guard crossesReference, hasContainer,
                let anchor = cycle.first(where: { $0.storyboard == storyboard.name })
            else { return nil }
            let path = (cycle + [cycle[0]]).map(\.description).joined(separator: " → ")
            return StoryboardDiagnostic(
                severity: .error, code: .relationshipCycle,
                message: "Scenes \(path) contain each other through relationship/embed segues and storyboard "
                    + "references; instantiating '\(anchor.sceneID)' would never finish.",
                element: anchor.sceneID)
        }
    }

    /// `undeclared-custom-segue` (warning): a segue class's `perform` is app code; without a
    /// declaration the service presents modally for a custom segue and does what the kind does for
    /// the others (R98; docs/api.md, "Storyboards"). Unwind segues take no declaration.
    private func customSegueDiagnostics(
        _ storyboard: Storyboard, declared: Set<String>,
        into diagnostics: inout [StoryboardDiagnostic]
    ) {
        for scene in storyboard.scenes {
            for segue in scene.segues
            where segue.kind == .custom
                || (segue.customClass != nil && ![.unwind, .relationship, .embed].contains(segue.kind))
            {
                let label = "\(segue.kind == .custom ? "Custom segue" : "Segue") '\(segue.id)' of scene '\(scene.id)'"
                let message: String
                if let customClass = segue.customClass {
                    guard !declared.contains(customClass) else { continue }
                    let fallback =
                        segue.kind == .custom
                        ? "it will present modally"
                        : "it will do what a '\(segue.spelledKind)' segue does"
                    message =
                        "\(label) uses class '\(customClass)', whose behaviour is not declared "
                        + "(PUT /v1/storyboards/\(storyboard.name)/customSegues); \(fallback)."
                } else if segue.spelledKind != "custom" {
                    message = "\(label) has kind '\(segue.spelledKind)', which navsim does not know; it will present modally."
                } else {
                    message = "\(label) names no segue class; it will present modally."
                }
                diagnostics.append(.init(severity: .warning, code: .undeclaredCustomSegue, message: message, element: segue.id))
            }
        }
    }

    private func describe(_ reference: StoryboardReference) -> String {
        let name = reference.storyboardName.map { "storyboard '\($0)'" } ?? "this storyboard"
        if let identifier = reference.referencedIdentifier { return "'\(identifier)' in \(name)" }
        return "the initial view controller of \(name)"
    }
}

/// A controller found by resolution: the storyboard it lives in and its scene (never a reference).
public struct ResolvedScene: Sendable, Equatable {
    /// Name of the storyboard holding the scene.
    public var storyboard: String
    /// The scene.
    public var scene: Scene

    /// Builds a resolved scene.
    public init(storyboard: String, scene: Scene) {
        self.storyboard = storyboard
        self.scene = scene
    }

    /// Where the scene lives.
    public var address: SceneAddress { SceneAddress(storyboard: storyboard, sceneID: scene.id) }
}

/// Why a scene or reference could not be resolved.
public enum ResolutionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No storyboard with that name is uploaded (UIKit: D20, R101).
    case storyboardNotFound(String)
    /// The storyboard has no entry point (UIKit returns nil, R102).
    case noInitialViewController(storyboard: String)
    /// No scene has that Storyboard ID (UIKit: D19, R101).
    case identifierNotFound(identifier: String, storyboard: String)
    /// No scene has that element id.
    case elementNotFound(id: String, storyboard: String)
    /// References lead back to one already followed; the path ends with the repeated one.
    case referenceCycle([SceneAddress])
    /// An unwind segue: its destination is found at run time (R99), not in the file.
    case unwind(exitID: String)

    /// A readable sentence.
    public var description: String {
        switch self {
        case let .storyboardNotFound(name):
            "storyboard '\(name)' is not uploaded."
        case let .noInitialViewController(storyboard):
            "storyboard '\(storyboard)' has no initial view controller."
        case let .identifierNotFound(identifier, storyboard):
            "storyboard '\(storyboard)' has no scene with Storyboard ID '\(identifier)'."
        case let .elementNotFound(id, storyboard):
            "storyboard '\(storyboard)' has no scene with id '\(id)'."
        case let .referenceCycle(path):
            "storyboard references loop: \(path.map(\.description).joined(separator: " → "))."
        case let .unwind(exitID):
            "unwind segues (to exit '\(exitID)') find their destination at run time."
        }
    }
}

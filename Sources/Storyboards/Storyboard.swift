/// A parsed iOS storyboard: its scenes in document order and the diagnostics that need no
/// other file. Built by ``StoryboardParser/parse(name:data:)``.
///
/// Source: ../shared/spec/storyboard-format.md §1 (document), §2 (scenes). Ids are unique within one file
/// only, so a scene is addressed by (storyboard name, element id): see ``SceneAddress``.
public struct Storyboard: Sendable, Equatable {
    /// The storyboard's name as `UIStoryboard(name:bundle:)` and `storyboardName` use it (no extension).
    public var name: String
    /// `initialViewController`: element id of the entry point; nil when the file has none (R102).
    public var initialViewController: String?
    /// Scenes in document order.
    public private(set) var scenes: [Scene]
    /// Diagnostics about this file alone (unknown destinations, duplicate Storyboard IDs,
    /// navigation controllers without root, containment cycles, popovers without anchor,
    /// unreachable scenes). ``StoryboardLibrary/diagnostics(for:customSegueClasses:)`` adds
    /// the ones that depend on other files and on declared custom segue classes.
    public var diagnostics: [StoryboardDiagnostic]
    /// `targetRuntime` (`iOS.CocoaTouch`, or `iOS.CocoaTouch.iPad` for iPad-only files).
    public var targetRuntime: String?
    /// `launchScreen="YES"`: Interface Builder's "Use as Launch Screen". The system shows it
    /// before the app runs; no navigation reaches it.
    public var isLaunchScreen = false
    /// Unwind actions declared in the legacy `<classes>` section (Xcode 4.x files), by class
    /// name: a hint for finding unwind destinations (§7).
    public var unwindActionsByClass: [String: [String]]

    private var indexByID: [String: Int]
    private var indexByStoryboardIdentifier: [String: Int]
    private var sceneIndexByExitID: [String: Int]

    /// Builds a storyboard from scenes; `diagnostics` is taken as given (the parser computes them).
    public init(
        name: String, initialViewController: String?, scenes: [Scene],
        diagnostics: [StoryboardDiagnostic] = [], targetRuntime: String? = nil,
        unwindActionsByClass: [String: [String]] = [:]
    ) {
        self.name = name
        self.initialViewController = initialViewController
        self.scenes = scenes
        self.diagnostics = diagnostics
        self.targetRuntime = targetRuntime
        self.unwindActionsByClass = unwindActionsByClass
        var byID: [String: Int] = [:]
        var byIdentifier: [String: Int] = [:]
        var byExit: [String: Int] = [:]
        for (index, scene) in scenes.enumerated() {
            if byID[scene.id] == nil { byID[scene.id] = index }
            // The first scene wins, as a duplicate Storyboard ID is already an error diagnostic.
            if let identifier = scene.storyboardIdentifier, byIdentifier[identifier] == nil {
                byIdentifier[identifier] = index
            }
            for exit in scene.exitIDs where byExit[exit] == nil { byExit[exit] = index }
        }
        indexByID = byID
        indexByStoryboardIdentifier = byIdentifier
        sceneIndexByExitID = byExit
    }

    /// The scene whose controller element has this id.
    public func scene(id: String) -> Scene? {
        indexByID[id].map { scenes[$0] }
    }

    /// The scene with this Storyboard ID (`instantiateViewController(withIdentifier:)`, R101).
    public func scene(withStoryboardIdentifier identifier: String) -> Scene? {
        indexByStoryboardIdentifier[identifier].map { scenes[$0] }
    }

    /// The entry point's scene (`instantiateInitialViewController()`, R102); nil without one.
    public var initialScene: Scene? {
        initialViewController.flatMap { scene(id: $0) }
    }

    /// The scene that owns the `<exit>` with this id (an unwind segue's `destination`, §7).
    public func scene(containingExit exitID: String) -> Scene? {
        sceneIndexByExitID[exitID].map { scenes[$0] }
    }

    /// True when `id` is an `<exit>` of some scene.
    public func isExit(_ id: String) -> Bool {
        sceneIndexByExitID[id] != nil
    }

    /// Every segue of the file with the id of the scene it belongs to, in document order.
    public var allSegues: [(sceneID: String, segue: Segue)] {
        scenes.flatMap { scene in scene.segues.map { (scene.id, $0) } }
    }
}

/// Where a scene lives: storyboard name plus element id (ids repeat across files, §1).
public struct SceneAddress: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Storyboard name.
    public var storyboard: String
    /// Element id of the scene's controller or reference.
    public var sceneID: String

    /// Builds an address.
    public init(storyboard: String, sceneID: String) {
        self.storyboard = storyboard
        self.sceneID = sceneID
    }

    /// `"<storyboard>/<id>"`.
    public var description: String { "\(storyboard)/\(sceneID)" }
}

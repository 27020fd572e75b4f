import NavigationCore
import Storyboards

/// The rules only the linter has (docs/lint.md). Each takes the folder's library and one of its
/// storyboards and answers diagnostics in the upload's shape; the code is carried separately
/// (``LintFinding/rule``) since ``StoryboardDiagnostic/Code`` lists upload codes only.
enum LintRules {
    typealias Found = (rule: LintRule, message: String, element: String?)

    static func check(_ storyboard: Storyboard, in library: StoryboardLibrary) -> [Found] {
        duplicateSegueIdentifiers(storyboard) + showOutsideNavigation(storyboard, library)
            + showPushesNavigationController(storyboard, library)
            + unreachedCustomClasses(storyboard, library) + undeclaredUnwindActions(storyboard, library)
            + deprecatedKinds(storyboard)
    }

    /// Identifiers are compared per scene, over every segue that can be performed by identifier
    /// (relationships cannot; embeds can only be told apart in `prepare(for:)`, so they count).
    static func duplicateSegueIdentifiers(_ storyboard: Storyboard) -> [Found] {
        var found: [Found] = []
        for scene in storyboard.scenes {
            var first: [String: String] = [:]
            for segue in scene.segues where segue.kind != .relationship {
                guard let identifier = segue.identifier else { continue }
                if let earlier = first[identifier] {
                    found.append(
                        (
                            .duplicateSegueIdentifier,
                            "Segues '\(earlier)' and '\(segue.id)' of scene '\(scene.id)' share the identifier "
                                + "'\(identifier)'; performSegue(withIdentifier:) always performs '\(earlier)'.",
                            segue.id
                        ))
                } else {
                    first[identifier] = segue.id
                }
            }
        }
        return found
    }

    /// A scene *may be* in a navigation controller (or a split view controller, whose `show`
    /// handles the segue itself, R98) when it is a child of one, when a Storyboard ID or a
    /// storyboard reference makes it reachable from code or from another place we cannot see,
    /// or when a show/push/showDetail/containment segue leads to it from such a scene. A `show`
    /// from any other scene is reported: it can only ever present modally.
    static func showOutsideNavigation(_ storyboard: Storyboard, _ library: StoryboardLibrary) -> [Found] {
        var mayNavigate = Set<String>()
        var queue: [String] = []
        func add(_ id: String?) {
            guard let id, storyboard.scene(id: id) != nil, mayNavigate.insert(id).inserted else { return }
            queue.append(id)
        }
        let referenced = referencedScenes(of: storyboard.name, in: library)
        for scene in storyboard.scenes {
            if scene.kind == .navigationController || scene.kind == .splitViewController {
                for segue in scene.relationships { add(segue.destination) }
            }
            if scene.storyboardIdentifier != nil || referenced.contains(scene.id) { add(scene.id) }
        }
        var cursor = 0
        while cursor < queue.count {
            let scene = storyboard.scene(id: queue[cursor])!
            cursor += 1
            for segue in scene.segues {
                switch segue.kind {
                case .show, .push, .showDetail, .relationship, .embed: add(segue.destination)
                default: break
                }
            }
        }
        var found: [Found] = []
        for scene in storyboard.scenes where !mayNavigate.contains(scene.id) && scene.kind != .navigationController {
            // A segue to no scene of the file is `unknown-destination`'s finding, not this one's.
            for segue in scene.segues where segue.kind == .show && segue.destination.flatMap(storyboard.scene(id:)) != nil {
                found.append(
                    (
                        .showOutsideNavigation,
                        "Show segue '\(segue.id)' of scene '\(scene.id)' (\(scene.className)) starts in no "
                            + "navigation controller, so UIKit presents its destination modally; embed the scene "
                            + "in a navigation controller or use a present segue.",
                        segue.id
                    ))
            }
        }
        return found
    }

    /// Scenes certainly inside a navigation stack: a navigation controller's root, and what a
    /// `show` or `push` from such a scene pushes. A `show` from one of them to a navigation or
    /// split view controller (references followed) pushes it, and UIKit raises D12 (R76, R93).
    /// Segues with a `customClass` are left alone: their `perform()` is app code.
    static func showPushesNavigationController(_ storyboard: Storyboard, _ library: StoryboardLibrary) -> [Found] {
        var stacked = Set<String>()
        var queue: [String] = []
        func add(_ id: String?) {
            guard let id, let scene = storyboard.scene(id: id), scene.placeholder == nil,
                scene.kind != .navigationController, scene.kind != .splitViewController,
                stacked.insert(id).inserted
            else { return }
            queue.append(id)
        }
        for scene in storyboard.scenes where scene.kind == .navigationController {
            for segue in scene.relationships where segue.relationship == "rootViewController" { add(segue.destination) }
        }
        var found: [Found] = []
        var cursor = 0
        while cursor < queue.count {
            let scene = storyboard.scene(id: queue[cursor])!
            cursor += 1
            for segue in scene.segues where (segue.kind == .show || segue.kind == .push) && segue.customClass == nil {
                guard case let .success(target) = library.resolveDestination(of: segue, in: storyboard.name) else { continue }
                let kind = target.scene.kind
                if kind == .navigationController || kind == .splitViewController {
                    let what = kind == .navigationController ? "navigation controller" : "split view controller"
                    found.append(
                        (
                            .showPushesNavigationController,
                            "\(segue.kind == .show ? "Show" : "Push") segue '\(segue.id)' of scene '\(scene.id)' "
                                + "starts in a navigation stack and leads to the \(what) '\(target.scene.id)': UIKit "
                                + "pushes it and raises NSInvalidArgumentException (D12); present it modally instead.",
                            segue.id
                        ))
                } else if target.storyboard == storyboard.name {
                    add(target.scene.id)
                }
            }
        }
        return found
    }

    /// Ids of scenes of `name` that a storyboard reference of the folder resolves to (one hop).
    static func referencedScenes(of name: String, in library: StoryboardLibrary) -> Set<String> {
        var ids = Set<String>()
        for other in library.storyboards.values {
            for scene in other.scenes {
                guard let reference = scene.placeholder,
                    case let .success(target) = library.target(of: reference, from: other.name),
                    target.storyboard == name
                else { continue }
                ids.insert(target.sceneID)
            }
        }
        return ids
    }

    static func unreachedCustomClasses(_ storyboard: Storyboard, _ library: StoryboardLibrary) -> [Found] {
        var entered = Set(storyboard.allSegues.compactMap(\.segue.destination))
        if let initial = storyboard.initialViewController { entered.insert(initial) }
        entered.formUnion(referencedScenes(of: storyboard.name, in: library))
        return storyboard.scenes.compactMap { scene in
            guard let customClass = scene.customClass, scene.storyboardIdentifier == nil,
                !scene.isReference, !entered.contains(scene.id)
            else { return nil }
            return (
                .unreachedCustomClass,
                "Scene '\(scene.id)' of class \(customClass) has no Storyboard ID and no segue or entry point "
                    + "leads to it; give it a Storyboard ID so code can call instantiateViewController(withIdentifier:).",
                scene.id
            )
        }
    }

    /// Unwind actions are declared in code (an `@IBAction` taking a `UIStoryboardSegue` in the
    /// destination class, R99), so a storyboard holds only indirect evidence. The heuristic:
    /// when the segue's file has a `<classes>` outline (Xcode 4/5 files list each class's actions
    /// there), the action must appear in an outline of the folder; otherwise only a scene with a custom class
    /// can declare an action, so some scene of the folder other than the segue's own must have one.
    static func undeclaredUnwindActions(_ storyboard: Storyboard, _ library: StoryboardLibrary) -> [Found] {
        let outlines = library.storyboards.values.map(\.unwindActionsByClass).filter { !$0.isEmpty }
        let outlined = Set(outlines.flatMap { $0.values.flatMap { $0 } })
        let hasOutline = !storyboard.unwindActionsByClass.isEmpty
        var found: [Found] = []
        for scene in storyboard.scenes {
            for segue in scene.segues where segue.kind == .unwind {
                guard let action = segue.unwindAction else { continue }
                let declared: Bool
                let why: String
                if hasOutline {
                    declared = outlined.contains(action)
                    why = "no class of the folder's <classes> outline declares it"
                } else {
                    declared = library.storyboards.values.contains { other in
                        other.scenes.contains { $0.customClass != nil && !(other.name == storyboard.name && $0.id == scene.id) }
                    }
                    why = "no other scene of the folder has a custom class that could declare it"
                }
                guard !declared else { continue }
                found.append(
                    (
                        .undeclaredUnwindAction,
                        "Unwind segue '\(segue.id)' of scene '\(scene.id)' looks for the action '\(action)', but "
                            + "\(why); UIKit would find no destination and do nothing.",
                        segue.id
                    ))
            }
        }
        return found
    }

    static func deprecatedKinds(_ storyboard: Storyboard) -> [Found] {
        let replacement = [
            "push": "show", "modal": "presentation (Present Modally)",
            "replace": "showDetail", "popover": "popoverPresentation",
        ]
        return storyboard.allSegues.compactMap { sceneID, segue in
            guard let modern = replacement[segue.spelledKind] else { return nil }
            return (
                .deprecatedSegueKind,
                "Segue '\(segue.id)' of scene '\(sceneID)' uses the kind '\(segue.spelledKind)', deprecated since "
                    + "iOS 8; use \(modern).",
                segue.id
            )
        }
    }
}

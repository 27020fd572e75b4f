import NavigationCore

/// Diagnostics that need nothing but the file itself. Severities follow what Xcode accepts:
/// only configurations Xcode refuses to compile or UIKit can never instantiate are errors
/// (a dangling destination, a duplicate Storyboard ID, a containment cycle); legal-but-odd
/// files get warnings. None of the 64 corpus files yields an error.
enum LocalDiagnostics {
    static func compute(_ storyboard: Storyboard) -> [StoryboardDiagnostic] {
        var diagnostics: [StoryboardDiagnostic] = []
        unknownDestinations(storyboard, into: &diagnostics)
        duplicateIdentifiers(storyboard, into: &diagnostics)
        navigationsWithoutRoot(storyboard, into: &diagnostics)
        diagnostics += relationshipCycles(in: storyboard)
        popoversWithoutAnchor(storyboard, into: &diagnostics)
        unreachableScenes(storyboard, into: &diagnostics)
        return diagnostics
    }

    /// `unknown-destination` (error): the corpus has 0 of 337; ibtool refuses such a file.
    private static func unknownDestinations(_ storyboard: Storyboard, into diagnostics: inout [StoryboardDiagnostic]) {
        if let initial = storyboard.initialViewController, storyboard.scene(id: initial) == nil {
            diagnostics.append(
                .init(
                    severity: .error, code: .unknownDestination,
                    message: "initialViewController '\(initial)' names no scene of storyboard '\(storyboard.name)'.",
                    element: initial))
        }
        for scene in storyboard.scenes {
            for segue in scene.segues {
                let label = "Segue '\(segue.id)' (\(segue.spelledKind)) of scene '\(scene.id)'"
                guard let destination = segue.destination else {
                    diagnostics.append(
                        .init(
                            severity: .error, code: .unknownDestination,
                            message: "\(label) has no destination.", element: segue.id))
                    continue
                }
                let isScene = storyboard.scene(id: destination) != nil
                let isExit = storyboard.isExit(destination)
                if segue.kind == .unwind ? (isExit || isScene) : isScene { continue }
                let why =
                    isExit
                    ? "an exit, which only unwind segues can target"
                    : "not a view controller, storyboard reference or exit of storyboard '\(storyboard.name)'"
                diagnostics.append(
                    .init(
                        severity: .error, code: .unknownDestination,
                        message: "\(label) points at '\(destination)', \(why).", element: segue.id))
            }
        }
    }

    /// `duplicate-storyboard-identifier` (error): `instantiateViewController(withIdentifier:)`
    /// could only ever return one of them; the corpus has none (§3).
    private static func duplicateIdentifiers(_ storyboard: Storyboard, into diagnostics: inout [StoryboardDiagnostic]) {
        var first: [String: String] = [:]
        for scene in storyboard.scenes {
            guard let identifier = scene.storyboardIdentifier else { continue }
            if let earlier = first[identifier] {
                diagnostics.append(
                    .init(
                        severity: .error, code: .duplicateStoryboardIdentifier,
                        message: "Scenes '\(earlier)' and '\(scene.id)' share the Storyboard ID '\(identifier)'; "
                            + "instantiateViewController(withIdentifier:) can return only one of them.",
                        element: scene.id))
            } else {
                first[identifier] = scene.id
            }
        }
    }

    /// `navigation-without-root` (warning): legal, Xcode builds it and code or a custom segue
    /// supplies the root (6 in the corpus: SwiftGen Known Types, CustomTransitions Main).
    private static func navigationsWithoutRoot(_ storyboard: Storyboard, into diagnostics: inout [StoryboardDiagnostic]) {
        for scene in storyboard.scenes where scene.kind == .navigationController {
            guard scene.relationshipDestination("rootViewController") == nil else { continue }
            diagnostics.append(
                .init(
                    severity: .warning, code: .navigationWithoutRoot,
                    message: "Navigation controller '\(scene.id)' has no rootViewController relationship; "
                        + "its stack starts empty unless code sets one.",
                    element: scene.id))
        }
    }

    /// `relationship-cycle` (error): containers that contain themselves through relationship or
    /// embed segues could never finish instantiating (R102: children come with the parent).
    static func relationshipCycles(in storyboard: Storyboard) -> [StoryboardDiagnostic] {
        let nodes = storyboard.scenes.map(\.id)
        let cycles = Cycles.find(nodes: nodes) { id in
            guard let scene = storyboard.scene(id: id) else { return [] }
            return scene.segues.compactMap { segue in
                guard segue.kind == .relationship || segue.kind == .embed,
                    let destination = segue.destination, storyboard.scene(id: destination) != nil
                else { return nil }
                return destination
            }
        }
        return cycles.map { cycle in
            let path = (cycle + [cycle[0]]).map { "'\($0)'" }.joined(separator: " → ")
            return StoryboardDiagnostic(
                severity: .error, code: .relationshipCycle,
                message: "Scenes \(path) contain each other through relationship/embed segues; "
                    + "instantiating '\(cycle[0])' would never finish.",
                element: cycle[0])
        }
    }

    /// `popover-without-anchor` (warning): UIKit raises at presentation time when a popover has
    /// neither a source view nor a bar button item; every corpus popover has an anchor (§8).
    private static func popoversWithoutAnchor(_ storyboard: Storyboard, into diagnostics: inout [StoryboardDiagnostic]) {
        for scene in storyboard.scenes {
            for segue in scene.segues where segue.kind == .popoverPresentation && segue.popoverAnchor == nil {
                diagnostics.append(
                    .init(
                        severity: .warning, code: .popoverWithoutAnchor,
                        message: "Popover segue '\(segue.id)' of scene '\(scene.id)' has no popoverAnchorView or "
                            + "popoverAnchorBarButtonItem; it needs a sourceView or barButtonItem set in code.",
                        element: segue.id))
            }
        }
    }

    /// `unreachable-scene` (warning), Xcode's own rule: a scene is reachable from the entry point
    /// and from every scene with a Storyboard ID (code and other storyboards reach those), then
    /// along relationship, embed and transition segues. What is left can never be instantiated
    /// (6 in the corpus, all in test fixtures; the 55 identifier-only scenes are fine, §3).
    private static func unreachableScenes(_ storyboard: Storyboard, into diagnostics: inout [StoryboardDiagnostic]) {
        var reached = Set<String>()
        var queue: [String] = []
        func visit(_ id: String) {
            if storyboard.scene(id: id) != nil, reached.insert(id).inserted { queue.append(id) }
        }
        if let initial = storyboard.initialViewController { visit(initial) }
        for scene in storyboard.scenes where scene.storyboardIdentifier != nil { visit(scene.id) }
        var cursor = 0
        while cursor < queue.count {
            let id = queue[cursor]
            cursor += 1
            guard let scene = storyboard.scene(id: id) else { continue }
            for segue in scene.segues where segue.kind != .unwind {
                if let destination = segue.destination { visit(destination) }
            }
        }
        for scene in storyboard.scenes where !reached.contains(scene.id) {
            let what = scene.isReference ? "Storyboard reference" : "Scene"
            let why =
                storyboard.initialViewController == nil
                ? "the storyboard has no entry point, no segue leads to it from a scene with a Storyboard ID"
                : "no segue leads to it from the entry point or from a scene with a Storyboard ID"
            diagnostics.append(
                .init(
                    severity: .warning, code: .unreachableScene,
                    message: "\(what) '\(scene.id)' (\(scene.className)) is unreachable: \(why), and it has no "
                        + "Storyboard ID of its own for instantiateViewController(withIdentifier:).",
                    element: scene.id))
        }
    }
}

/// Cycle search over a small directed graph, deterministic in node order.
enum Cycles {
    enum DFSColor { case grey, black }

    /// Every elementary cycle closed by a DFS back edge, once per node set, each rotated so that
    /// it starts where the DFS entered it.
    static func find<Node: Hashable>(nodes: [Node], successors: (Node) -> [Node]) -> [[Node]] {
        var color: [Node: DFSColor] = [:]
        var cycles: [[Node]] = []
        var seenSets = Set<Set<Node>>()
        for start in nodes where color[start] == nil {
            // Iterative DFS: (node, its successors, next successor index).
            var stack: [(node: Node, next: [Node], index: Int)] = [(start, successors(start), 0)]
            var path: [Node] = [start]
            color[start] = .grey
            while !stack.isEmpty {
                let top = stack.count - 1
                if stack[top].index < stack[top].next.count {
                    let successor = stack[top].next[stack[top].index]
                    stack[top].index += 1
                    switch color[successor] {
                    case nil:
                        color[successor] = .grey
                        stack.append((successor, successors(successor), 0))
                        path.append(successor)
                    case .grey:
                        if let from = path.lastIndex(of: successor) {
                            let cycle = Array(path[from...])
                            if seenSets.insert(Set(cycle)).inserted { cycles.append(cycle) }
                        }
                    case .black:
                        break
                    }
                } else {
                    color[stack[top].node] = .black
                    stack.removeLast()
                    path.removeLast()
                }
            }
        }
        return cycles
    }
}

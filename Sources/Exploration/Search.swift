import NavigationCore
import Storyboards

extension Explorer {
    /// A segue by storyboard and element id.
    struct SegueKey: Hashable {
        var storyboard: String
        var id: String
    }

    /// A finding before its path is played: the state it starts from and the action at fault.
    struct Pending {
        var kind: ExploreFinding.Kind
        var node: Int32
        var action: ExploreAction
        var storyboard: String
        var scene: String?
        var segue: String?
        var code: String?
        var message: String
    }

    /// Runs the search (breadth first, so each finding's path is a shortest one) and builds the
    /// report: findings with their paths, the segues performed and not, and a greedy set of paths
    /// that performs every performed segue.
    public func explore() throws(ExploreError) -> ExploreReport {
        let initial = try initialState()
        var parents: [Int32] = [-1]
        var via: [ExploreAction?] = [nil]
        var depths: [Int32] = [0]
        var successors: [[Int32]] = [[]]
        var expandedNodes: [Bool] = [false]
        var inside: [Bool] = [Self.isInside(initial)]
        var seen: [UInt64: Int32] = [Canonical.hash(initial): 0]
        var frontier: [(node: Int32, state: SessionState, hash: UInt64)] = [(0, initial, Canonical.hash(initial))]
        var truncated = false
        var transitions = 0
        var applies = 0
        var performed: [SegueKey] = []
        var firstPerformed: [SegueKey: (node: Int32, action: ExploreAction)] = [:]
        var refusedReason: [SegueKey: String] = [:]
        var pending: [Pending] = []
        var reportedKeys = Set<String>()
        var reachedScenes = Set<SceneAddress>()
        collectScenes(in: initial, into: &reachedScenes)

        func report(_ p: Pending, key: String) {
            if reportedKeys.insert(key).inserted { pending.append(p) }
        }

        var depth = 0
        while !frontier.isEmpty {
            if depth >= maxDepth {
                if frontier.contains(where: { !actions(in: $0.state).isEmpty }) { truncated = true }
                break
            }
            var next: [(node: Int32, state: SessionState, hash: UInt64)] = []
            var start = 0
            var full = false
            // A chunk at a time: its expansions are computed in parallel, then merged in order.
            while start < frontier.count, !full {
                let chunk = Array(frontier[start..<min(start + Self.chunk, frontier.count)])
                start += Self.chunk
                let expanded = parallelMap(chunk.map(\.state)) { state in self.expand(state) }
                for (entry, expansions) in zip(chunk, expanded) {
                    let (node, hash) = (entry.node, entry.hash)
                    expandedNodes[Int(node)] = true
                    for e in expansions {
                        applies += 1
                        let action = e.action
                        var isRace = false
                        var tag = ""
                        if case let .race(first, second) = action {
                            isRace = true
                            tag = "race|\(first.segue?.id ?? first.operation)+\(second.segue?.id ?? second.operation)|"
                        }
                        // A race's findings are its own; its segue's performance is the single tap's.
                        let segueKey = isRace ? nil : action.segue.map { SegueKey(storyboard: $0.storyboard, id: $0.id) }
                        let findingSegue = action.segue?.id
                        let source = (storyboard: e.source.storyboard, scene: e.source.scene)
                        switch e.applied {
                        case let .refused(d):
                            let kind: ExploreFinding.Kind = d.severity == .exception ? .uikitException : .uikitWarning
                            report(
                                Pending(
                                    kind: kind, node: node, action: action, storyboard: source.storyboard, scene: source.scene,
                                    segue: findingSegue, code: d.code ?? d.slug, message: d.message),
                                key: "\(tag)\(kind.rawValue)|\(d.code ?? d.slug)|\(findingSegue ?? action.operation + "@" + (source.scene ?? ""))")
                            if let segueKey { refusedReason[segueKey] = "UIKit refuses it (\(d.code ?? d.slug)): \(d.message)" }
                        case let .notApplied(why):
                            if let segueKey { refusedReason[segueKey] = why }
                        case let .applied(after, result, destination):
                            if let destination { collectScenes(in: destination, into: &reachedScenes) }
                            for w in result.warnings {
                                // An unwind that finds no destination only because the first action of a
                                // race took its source away is timing, not a missing declaration.
                                let kind: ExploreFinding.Kind =
                                    w.slug == "unwind-destination-not-found" && !isRace ? .undeclared : .uikitWarning
                                report(
                                    Pending(
                                        kind: kind, node: node, action: action, storyboard: source.storyboard, scene: source.scene,
                                        segue: findingSegue, code: w.code ?? w.slug, message: w.message),
                                    key: "\(tag)\(kind.rawValue)|\(w.code ?? w.slug)|\(findingSegue ?? action.operation + "@" + (source.scene ?? ""))")
                            }
                            if isRace { continue }
                            if let segueKey, let customClass = undeclaredCustomClass(segueKey, scene: source.scene) {
                                report(
                                    Pending(
                                        kind: .undeclared, node: node, action: action, storyboard: segueKey.storyboard,
                                        scene: source.scene, segue: segueKey.id, code: "custom-segue-undeclared",
                                        message:
                                            "The custom segue class \(customClass) has no declaration of what its perform() does, so navsim presents the destination modally; declare it (PUT /v1/storyboards/\(segueKey.storyboard)/customSegues)."
                                    ), key: "undeclared|\(segueKey.storyboard)/\(segueKey.id)")
                            }
                            let h = e.hash
                            if h == hash {
                                // Back to the same canonical state, but something ran on screen (a
                                // showDetail replacing the detail with a new instance of its scene):
                                // the segue was performed, a loop on this state.
                                if let segueKey, result.transition != nil {
                                    if firstPerformed[segueKey] == nil {
                                        firstPerformed[segueKey] = (node, action)
                                        performed.append(segueKey)
                                    }
                                    continue
                                }
                                if let segueKey, refusedReason[segueKey] == nil {
                                    refusedReason[segueKey] =
                                        result.warnings.first.map { "it changes nothing: \($0.message)" } ?? "it changes nothing on screen"
                                }
                                continue
                            }
                            transitions += 1
                            if let segueKey, firstPerformed[segueKey] == nil {
                                firstPerformed[segueKey] = (node, action)
                                performed.append(segueKey)
                            }
                            if let known = seen[h] {
                                successors[Int(node)].append(known)
                            } else if parents.count >= maxStates {
                                truncated = true
                                full = true
                            } else {
                                let index = Int32(parents.count)
                                parents.append(node)
                                via.append(action)
                                depths.append(Int32(depth + 1))
                                successors.append([])
                                expandedNodes.append(false)
                                inside.append(Self.isInside(after))
                                seen[h] = index
                                successors[Int(node)].append(index)
                                next.append((index, after, h))
                            }
                        }
                    }
                }
            }
            if full { break }
            frontier = next
            depth += 1
        }

        func path(to node: Int32) -> [ExploreAction] {
            var out: [ExploreAction] = []
            var n = node
            while n > 0, let action = via[Int(n)] {
                out.append(action)
                n = parents[Int(n)]
            }
            return out.reversed()
        }

        // Dead ends: states from which no path leads back to the entry, nor to a state the
        // bounds left unexpanded (which might). Reported once, at the action entering them.
        var predecessors = [[Int32]](repeating: [], count: parents.count)
        for (from, list) in successors.enumerated() { for to in list { predecessors[Int(to)].append(Int32(from)) } }
        var good = [Bool](repeating: false, count: parents.count)
        var queue: [Int32] = [0] + expandedNodes.indices.filter { !expandedNodes[$0] }.map { Int32($0) }
        for q in queue { good[Int(q)] = true }
        while let n = queue.popLast() {
            for p in predecessors[Int(n)] where !good[Int(p)] {
                good[Int(p)] = true
                queue.append(p)
            }
        }
        var deadEndKeys = Set<String>()
        // Only a screen inside the app (presented, or deeper than a stack's root) can be a dead
        // end: a root screen with no way back to the entry (a collapsed split popped to its
        // list) is where a user goes home to, not where one is stuck.
        let dead = parents.indices.map { !good[$0] && inside[$0] }
        for n in parents.indices where dead[n] {
            let parent = parents[n]
            guard parent >= 0, !dead[Int(parent)], let action = via[n] else { continue }
            let key = action.segue.map { "\($0.storyboard)/\($0.id)" } ?? action.operation
            guard deadEndKeys.insert(key).inserted else { continue }
            var state = initial
            for a in path(to: parent) { if case let .applied(s, _, _) = apply(a, to: state) { state = s } }
            let source = sourceScene(of: action, in: state)
            var shown = "the screen it leads to"
            if case let .applied(s, _, _) = apply(action, to: state), let v = s.visibleViewController { shown = v }
            pending.append(
                Pending(
                    kind: .deadEnd, node: parent, action: action, storyboard: action.segue?.storyboard ?? source.storyboard,
                    scene: source.scene, segue: action.segue?.id, code: nil,
                    message:
                        "After \(action.summary), \(shown) is a dead end: no segue, unwind, back button or gesture leads back toward the entry."
                ))
        }

        var findings: [ExploreFinding] = pending.map { p in
            ExploreFinding(
                kind: p.kind, storyboard: p.storyboard, scene: p.scene, segue: p.segue, code: p.code, message: p.message,
                path: steps(path(to: p.node) + [p.action], from: initial))
        }

        // Scenes: only a search that saw everything may call a scene unreachable.
        var segueTotal = 0
        var notPerformed: [UnperformedSegue] = []
        let performedSet = Set(performed)
        var reachedSceneIDs = Set<SceneAddress>()
        for address in reachedScenes { reachedSceneIDs.insert(address) }
        // Scenes built with one code can instantiate (its relationships and embeds, transitively):
        // code that instantiates the container makes them too. Each maps to that Storyboard ID.
        var builtByCode: [SceneAddress: String] = [:]
        for name in reported {
            guard let storyboard = instantiation.library[name] else { continue }
            for top in storyboard.scenes {
                guard let identifier = top.storyboardIdentifier else { continue }
                var pending = [top]
                while let container = pending.popLast() {
                    for segue in container.segues where segue.kind == .relationship || segue.kind == .embed {
                        guard let destination = segue.destination, let child = storyboard.scenes.first(where: { $0.id == destination }) else { continue }
                        let address = SceneAddress(storyboard: name, sceneID: child.id)
                        guard builtByCode[address] == nil, child.storyboardIdentifier == nil else { continue }
                        builtByCode[address] = identifier
                        pending.append(child)
                    }
                }
            }
        }
        for name in reported {
            guard let storyboard = instantiation.library[name] else { continue }
            for scene in storyboard.scenes {
                for segue in scene.segues where Self.isTransition(segue) {
                    segueTotal += 1
                    let key = SegueKey(storyboard: name, id: segue.id)
                    guard !performedSet.contains(key) else { continue }
                    let reason: String
                    if let why = refusedReason[key] {
                        reason = why
                    } else if segue.isManual {
                        reason = "a manual segue: only code performs it (performSegue)"
                    } else if segue.destination == nil {
                        reason = "it has no destination"
                    } else if !scene.isReference && !reachedSceneIDs.contains(SceneAddress(storyboard: name, sceneID: scene.id)) {
                        reason = truncated ? "its scene was not reached within the bounds" : "its scene is never reached"
                    } else {
                        reason = truncated ? "its control was not on screen within the bounds" : "its control is never on screen"
                    }
                    notPerformed.append(UnperformedSegue(storyboard: name, segue: segue.id, scene: scene.id, reason: reason))
                }
                guard !truncated, !scene.isReference,
                    !reachedSceneIDs.contains(SceneAddress(storyboard: name, sceneID: scene.id))
                else { continue }
                let container = builtByCode[SceneAddress(storyboard: name, sceneID: scene.id)]
                let message: String
                if let identifier = scene.storyboardIdentifier {
                    message = "No path from the entry reaches scene \(scene.id) (\(scene.className)); its Storyboard ID '\(identifier)' lets code instantiate it."
                } else if let container {
                    message =
                        "No path from the entry reaches scene \(scene.id) (\(scene.className)); it is built with the scene whose Storyboard ID '\(container)' lets code instantiate it."
                } else {
                    message = "No path from the entry reaches scene \(scene.id) (\(scene.className)), and it has no Storyboard ID for code to instantiate it."
                }
                findings.append(
                    ExploreFinding(
                        kind: scene.storyboardIdentifier != nil || container != nil ? .reachableByCodeOnly : .unreachableScene,
                        storyboard: name, scene: scene.id, segue: nil, code: nil, message: message, path: []))
            }
        }

        // Flows: the deepest first performance first, each path from the entry; a segue some
        // earlier path already performs needs no path of its own (greedy cover).
        var covered = Set<SegueKey>()
        var flows: [[ExploreStep]] = []
        let byDepth = performed.enumerated().sorted { a, b in
            let (x, y) = (depths[Int(firstPerformed[a.element]!.node)], depths[Int(firstPerformed[b.element]!.node)])
            return x != y ? x > y : a.offset < b.offset
        }.map(\.element)
        for key in byDepth where !covered.contains(key) {
            let first = firstPerformed[key]!
            let played = steps(path(to: first.node) + [first.action], from: initial)
            for step in played where step.refusal == nil {
                if let s = step.action.segue { covered.insert(SegueKey(storyboard: s.storyboard, id: s.id)) }
            }
            flows.append(played)
        }

        return ExploreReport(
            states: parents.count, transitions: transitions, truncated: truncated, seguesTotal: segueTotal,
            seguesPerformed: performed.count { reported.contains($0.storyboard) },
            performed: performed.map { ($0.storyboard, $0.id) }, notPerformed: notPerformed, findings: findings,
            flows: flows, applies: applies)
    }

    /// True when the screen is inside the app: something is presented, or a navigation
    /// controller on screen shows more than its root.
    static func isInside(_ state: SessionState) -> Bool {
        guard let root = state.rootViewController else { return false }
        if let presented = state.controllers[root]?.presentedID, state.controllers[presented] != nil { return true }
        return state.viewsInWindow.contains { id in
            guard let c = state.controllers[id] else { return false }
            return c.kind == .navigationController && c.viewControllers.count > 1
        }
    }

    /// Frontier states expanded between two merges.
    static let chunk = 256

    /// The class of a custom segue no declaration says anything about; nil for other segues.
    func undeclaredCustomClass(_ key: SegueKey, scene: String?) -> String? {
        guard let segue = instantiation.library[key.storyboard]?.scene(id: scene ?? "")?.segues.first(where: { $0.id == key.id }),
            segue.kind == .custom, let customClass = segue.customClass,
            instantiation.declarations[key.storyboard]?[customClass] == nil
        else { return nil }
        return customClass
    }

    /// The storyboard and scene an action starts from: a segue's own scene, else the receiver's.
    func sourceScene(of action: ExploreAction, in state: SessionState) -> (storyboard: String, scene: String?) {
        if case let .trigger(_, _, storyboard, scene) = action { return (storyboard, scene) }
        if let c = state.controllers[action.receiver], let origin = c.storyboard {
            return (origin.name, scene(of: c)?.id)
        }
        return (entry, nil)
    }

    /// Marks the scenes of every storyboard controller in `state`.
    func collectScenes(in state: SessionState, into set: inout Set<SceneAddress>) {
        for (_, c) in state.controllers {
            if let origin = c.storyboard, let scene = scene(of: c) { set.insert(SceneAddress(storyboard: origin.name, sceneID: scene.id)) }
        }
    }

    /// Marks the scenes a destination spec instantiates, its containment included.
    func collectScenes(in spec: ControllerSpec, into set: inout Set<SceneAddress>) {
        if let origin = spec.storyboard, let storyboard = instantiation.library[origin.name] {
            let scene =
                origin.identifier.flatMap { storyboard.scene(withStoryboardIdentifier: $0) }
                ?? spec.id.flatMap { storyboard.scene(id: String(Canonical.baseID($0))) }
            if let scene { set.insert(SceneAddress(storyboard: origin.name, sceneID: scene.id)) }
        }
        func visit(_ ref: ControllerRef?) {
            if case let .new(child)? = ref { collectScenes(in: child, into: &set) }
        }
        for ref in spec.viewControllers ?? [] { visit(ref) }
        for ref in spec.embedded ?? [] { visit(ref) }
        for ref in spec.children ?? [] { visit(ref) }
        visit(spec.primary)
        visit(spec.supplementary)
        visit(spec.secondary)
    }
}

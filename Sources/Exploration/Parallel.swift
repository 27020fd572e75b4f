import Dispatch
import NavigationCore
import Synchronization

extension Explorer {
    /// One action applied to a frontier state: what the merge needs, computed on any thread.
    struct Expansion: Sendable {
        var action: ExploreAction
        var source: SourceScene
        var applied: Applied
        /// The canonical hash of the state after, when the action applied.
        var hash: UInt64
    }

    /// The storyboard and scene an action starts from.
    struct SourceScene: Sendable {
        var storyboard: String
        var scene: String?
    }

    /// Every action of `state` applied to it.
    func expand(_ state: SessionState) -> [Expansion] {
        let list = actions(in: state)
        var out = list.map { action in
            let source = sourceScene(of: action, in: state)
            let applied = apply(action, to: state)
            var hash: UInt64 = 0
            if case let .applied(after, _, _) = applied { hash = Canonical.hash(after) }
            return Expansion(action: action, source: SourceScene(storyboard: source.storyboard, scene: source.scene), applied: applied, hash: hash)
        }
        guard races else { return out }
        // A double tap: every action that applies, followed in its turn by each action of the
        // same screen (itself included).
        for (index, first) in list.enumerated() {
            guard case .applied = out[index].applied else { continue }
            for (other, second) in list.enumerated() {
                let race = ExploreAction.race(first, second)
                let applied = apply(race, to: state)
                // Only what timing causes: the second action alone would not raise or log it.
                guard !Self.diagnostics(applied).subtracting(Self.diagnostics(out[other].applied)).isEmpty else { continue }
                let source = sourceScene(of: second, in: state)
                out.append(
                    Expansion(action: race, source: SourceScene(storyboard: source.storyboard, scene: source.scene), applied: applied, hash: 0))
            }
        }
        return out
    }

    /// The codes (or slugs) of what UIKit raised or logged.
    static func diagnostics(_ applied: Applied) -> Set<String> {
        switch applied {
        case let .applied(_, result, _): Set(result.warnings.map { $0.code ?? $0.slug })
        case let .refused(d): [d.code ?? d.slug]
        case .notApplied: []
        }
    }

    /// `transform` of each item on up to `workers` threads, the results in the items' order, so
    /// the search merges them as a single thread would and its report does not depend on timing.
    /// The core's `apply` is pure and its values `Sendable`: nothing is shared but the slots.
    func parallelMap<T: Sendable, R: Sendable>(_ items: [T], _ transform: @Sendable (T) -> R) -> [R] {
        let lanes = min(workers, items.count)
        guard lanes > 1 else { return items.map(transform) }
        let slots = Slots<R>(count: items.count)
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            var index = lane
            while index < items.count {
                let result = transform(items[index])
                slots.put(result, at: index)
                index += lanes
            }
        }
        return slots.take()
    }
}

/// Results written by several threads, each slot once.
final class Slots<R: Sendable>: Sendable {
    private let values: Mutex<[R?]>

    init(count: Int) { values = Mutex([R?](repeating: nil, count: count)) }

    func put(_ value: R, at index: Int) { values.withLock { $0[index] = value } }

    /// The values in order; every slot was filled by `parallelMap` before this is called.
    func take() -> [R] { values.withLock { $0.compactMap { $0 } } }
}

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
        actions(in: state).map { action in
            let source = sourceScene(of: action, in: state)
            let applied = apply(action, to: state)
            var hash: UInt64 = 0
            if case let .applied(after, _, _) = applied { hash = Canonical.hash(after) }
            return Expansion(action: action, source: SourceScene(storyboard: source.storyboard, scene: source.scene), applied: applied, hash: hash)
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

import JSONValues
import NavigationCore

// A session encoded once per version, with each controller's range in its bytes, so a reply
// splices what a turn changed into what it did not (the encoders are in Encoding.swift).

/// A session's JSON representation at one version, as bytes (reads are served from
/// bytes). Each controller's piece is a range of ``body``; a new version encodes the controllers
/// and compares each piece with the previous version's, which is how a `Prefer: return=minimal`
/// reply knows which controllers changed.
struct EncodedSession: Sendable {
    /// The version ``body`` shows.
    let version: Int
    /// The whole Session object, byte-identical to `Encode.session(…).bytes`.
    let body: [UInt8]
    /// The controllers in ``body``'s order (the session's order), and where each one's object
    /// lies in ``body``, by position: the next version finds the pieces of a session whose
    /// order it shares by position, without hashing an id per controller.
    let order: [String]
    let ranges: [Range<Int>]
    /// Each id's position in ``order``.
    let index: [String: Int]
    /// The entity tag of this version, quoted (`"3"`), computed once.
    let etag: String
    /// How many controller pieces were copied from the previous version instead of encoded.
    var reusedPieces = 0
    /// Where the members before `controllers` lie in ``body``; nil: not known (the next version encodes them).
    var head: Head? = nil

    /// Encodes `state` as version `version`.
    ///
    /// With `previous` (the encoding of `previousState`), a controller whose piece cannot have
    /// changed keeps its bytes, copied from `previous` rather than encoded again, so a push on a
    /// 500-deep stack encodes the few controllers it touched, not 500. A piece is a
    /// function of the controller itself, of what its parent chain passes down (``Inherited``:
    /// presenter, presented, kind, trait overrides, view in window, parent), of the window's
    /// traits and of the transitions naming it (``Encode/controller(_:in:)`` reads nothing else);
    /// when all of those are equal to the previous version's, so are the bytes. Debug builds
    /// check that against a full encoding.
    /// `changedControllers`, when known (the core's ``Navigator/TurnResult/changedControllers``),
    /// are the only controllers whose own value can differ from `previousState`'s, so the others
    /// are not compared value by value.
    /// - Returns: the encoding and the ids whose object differs byte for byte from the one in
    ///   `previous` (every id when `previous` is nil), in the session's order.
    static func make(
        id: String, version: Int, createdAt: String, state: SessionState,
        previous: EncodedSession?, previousState: SessionState? = nil,
        changedControllers: [String]? = nil
    ) -> (EncodedSession, changed: [String]) {
        // Room for the whole at once: a new version is about the size of the previous one.
        var w = JSONWriter(capacity: (previous?.body.count ?? 0) + 512)
        let head = Head.write(
            id: id, version: version, createdAt: createdAt, state: state, into: &w,
            reusing: previous, previousState: previousState, changed: changedControllers)
        w.key("controllers")
        w.openObject()
        var order: [String] = []
        order.reserveCapacity(state.order.count)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(state.order.count)
        var changed: [String] = []
        var reuse = ReuseCheck(
            old: previous != nil ? previousState : nil, new: state,
            changed: changedControllers.map(Set.init))
        // ``ReuseCheck/affected`` as positions in `previous` when it is short (a push affects
        // three controllers): each controller is then checked by comparing integers, not its id
        // with each affected one. An id and its position in `previous` name each other.
        let affectedAt: [Int]? = previous.flatMap { previous in
            reuse.affected.flatMap { $0.count <= 8 ? $0.compactMap { previous.index[$0] } : nil }
        }
        // How many leading ids `order` shares with `previous.order`, position by position.
        var sharedPrefix = 0
        // Previous positions [from, to) whose pieces are copied, still to be written: neighbours
        // in both orders are copied as one span, the keys and commas between them included.
        var run: Range<Int>? = nil
        func flush() {
            guard let previous, let r = run else { return }
            w.key(previous.order[r.lowerBound])
            let start = w.count
            let span = previous.ranges[r.lowerBound].lowerBound..<previous.ranges[r.upperBound - 1].upperBound
            w.raw(previous.body[span])
            let shift = start - span.lowerBound
            for p in r {
                let old = previous.ranges[p]
                ranges.append((old.lowerBound + shift)..<(old.upperBound + shift))
            }
            run = nil
        }
        var reused = 0
        for cid in state.order {
            // Where `previous` has this controller's piece: at the same position while the
            // orders agree (a push only appends), else by id.
            let position = order.count
            var oldPosition: Int? = nil
            if let previous {
                if sharedPrefix == position, position < previous.order.count, previous.order[position] == cid {
                    sharedPrefix += 1
                    oldPosition = position
                } else {
                    oldPosition = previous.index[cid]
                }
            }
            // Known unaffected (``ReuseCheck/affected``): its bytes are copied without reading
            // the controller, so a retitle, or a push on a deep stack, costs a copy per
            // untouched piece. It is in `state`: `previous` shows it, and the turn
            // did not change it (dropping it would be a change).
            if let p = oldPosition, affectedAt.map({ !$0.contains(p) }) ?? reuse.isUnaffected(cid) {
                order.append(cid)
                reused += 1
                if let r = run, r.upperBound == p {
                    run = r.lowerBound..<(p + 1)
                } else {
                    flush()
                    run = p..<(p + 1)
                }
                continue
            }
            guard let index = state.controllers.index(forKey: cid) else { continue }
            flush()
            let c = state.controllers[index].value
            order.append(cid)
            w.key(c.id)
            let start = w.count
            if let previous, let p = oldPosition, reuse.unchanged(c) {
                w.raw(previous.body[previous.ranges[p]])
                reused += 1
            } else {
                Encode.controller(c, in: state, into: &w)
                if let previous, let p = oldPosition, w.written(from: start, equal: previous.body[previous.ranges[p]]) {
                    // Unchanged: not reported to a minimal reply.
                } else {
                    changed.append(c.id)
                }
            }
            ranges.append(start..<w.count)
        }
        flush()
        w.closeObject()
        w.closeObject()
        let body = w.finish()
        assert(
            previous == nil || body == Encode.session(id: id, version: version, createdAt: createdAt, state: state),
            "a reused controller piece or head differs from its full encoding")
        return (
            EncodedSession(
                version: version, body: body, order: order, ranges: ranges,
                index: Self.index(of: order, sharing: previous, prefix: sharedPrefix),
                etag: "\"\(version)\"", reusedPieces: reused, head: head),
            changed
        )
    }

    /// The positions of `order`'s ids, from `previous`'s when the two orders share all but a
    /// few ids at the end (`prefix` leading ids alike): a push appends one, a pop that releases
    /// drops the last; so a deep stack's ids are not hashed again at every version.
    static func index(of order: [String], sharing previous: EncodedSession?, prefix: Int) -> [String: Int] {
        if let previous, prefix > order.count / 2 || prefix > previous.order.count / 2 {
            var index = previous.index
            for p in prefix..<previous.order.count { index[previous.order[p]] = nil }
            for p in prefix..<order.count { index[order[p]] = p }
            return index
        }
        var index: [String: Int] = [:]
        index.reserveCapacity(order.count)
        for (p, id) in order.enumerated() { index[id] = p }
        return index
    }

    /// Where the Session members before `controllers` lie in ``body`` (``Encode/sessionHead(id:version:createdAt:state:)``),
    /// so the next version copies them and writes only its own number when nothing they show changed.
    struct Head: Sendable {
        let id: String
        let createdAt: String
        /// The digits of `version`.
        let version: Range<Int>
        /// From `{` to the end of the `window` member (no closing brace).
        let end: Int
        /// Whether `reused` came from the previous version's bytes (tests).
        var reused = false

        /// Writes `{"id":…,"version":…,…,"window":{…}` of `state` into `w` (empty): copied from
        /// `previous` but for the version number when the traits, options and window cannot
        /// differ from `previousState`'s, encoded otherwise. Same bytes either way.
        static func write(
            id: String, version: Int, createdAt: String, state: SessionState, into w: inout JSONWriter,
            reusing previous: EncodedSession?, previousState: SessionState?, changed: [String]?
        ) -> Head {
            if let previous, let old = previous.head, let previousState, let changed, old.id == id,
                old.createdAt == createdAt, sameHead(previousState, state, changed: changed)
            {
                w.splice(previous.body[..<old.version.lowerBound], endsWithValue: false)
                let start = w.count
                w.int(version)
                let digits = start..<w.count
                w.splice(previous.body[old.version.upperBound..<old.end], endsWithValue: true)
                return Head(id: id, createdAt: createdAt, version: digits, end: w.count, reused: true)
            }
            w.openObject()
            let digits = Encode.sessionHead(id: id, version: version, createdAt: createdAt, state: state, into: &w)
            return Head(id: id, createdAt: createdAt, version: digits, end: w.count)
        }

        /// Whether the head members (traits, options, window) of `new` equal `old`'s, given the
        /// only controllers whose value can differ (``Navigator/TurnResult/changedControllers``).
        /// The window reads the root and, of each controller, its links, container, appearance
        /// and view flags, and of its client-set `configuration` only the sheet settings and trait
        /// overrides: a turn that changed only other configuration (a PATCH of a title) leaves it
        /// as it was.
        static func sameHead(_ old: SessionState, _ new: SessionState, changed: [String]) -> Bool {
            guard old.traits == new.traits, old.options == new.options, old.rootViewController == new.rootViewController,
                old.controllers.count == new.controllers.count, old.order == new.order
            else { return false }
            for id in changed {
                guard let before = old.controllers[id], var now = new.controllers[id] else { return false }
                // The configuration the window reads: `undimmedViews` (R112) follows the sheet
                // settings and, through the presenter's size classes, trait overrides.
                guard now.sheetPresentationController == before.sheetPresentationController, now.traitOverrides == before.traitOverrides
                else { return false }
                now.configuration = before.configuration
                guard now == before else { return false }
            }
            return true
        }
    }

    /// Whether a controller's piece is the same in `new` as in `old`, from the inputs of
    /// ``Encode/controller(_:in:)``. Answers false whenever it cannot tell (no `old`).
    struct ReuseCheck {
        let old: SessionState?
        let new: SessionState
        /// The window's traits and the running transitions are the same.
        let sameWindow: Bool
        let sameTransitions: Bool
        /// The only controllers whose own value can differ, when the caller knows (nil: compare).
        let changed: Set<String>?
        /// Per id: whether what it passes down to its children differs, or its chain's does.
        private var chainChanged: [String: Bool] = [:]
        /// The only controllers whose piece can differ from `old`'s, when that follows from
        /// `changed` alone: the changed ones and everything below (through `children`) one that
        /// passes something different down (``Inherited``). Every other controller's piece is
        /// what ``unchanged(_:)`` would find unchanged, without reading it. Nil (check each
        /// one) without `old` or `changed`, when the traits or running transitions differ, or
        /// when what is below a changed controller is not all in `children` (a tab bar's).
        let affected: Set<String>?

        init(old: SessionState?, new: SessionState, changed: Set<String>? = nil) {
            self.old = old
            self.new = new
            self.changed = changed
            sameWindow = old?.traits == new.traits
            sameTransitions = old?.transitions == new.transitions
            affected = Self.affected(old: old, new: new, changed: changed, sameWindow: sameWindow, sameTransitions: sameTransitions)
        }

        /// Known unaffected: ``affected`` is known and does not hold `id`.
        func isUnaffected(_ id: String) -> Bool {
            affected.map { !$0.contains(id) } ?? false
        }

        private static func affected(
            old: SessionState?, new: SessionState, changed: Set<String>?,
            sameWindow: Bool, sameTransitions: Bool
        ) -> Set<String>? {
            guard let old, let changed, sameWindow, sameTransitions else { return nil }
            // Everything whose parent is `c`, where `children` is known to list it all: plain
            // controllers and navigation controllers. Other containers have children that
            // `children` omits (a tab bar's More navigation controller), so below one of those
            // each controller is checked instead.
            func below(_ c: Controller) -> [String]? {
                switch c.kind {
                case .viewController, .tableViewController, .collectionViewController, .navigationController: return c.children
                default: return nil
                }
            }
            var affected = changed
            var pending: [String] = []
            for id in changed {
                guard let now = new.controllers[id] else { continue }
                if let before = old.controllers[id], Inherited(before) == Inherited(now) { continue }
                guard let kids = below(now) else { return nil }
                pending.append(contentsOf: kids)
            }
            var visited = Set<String>()
            while let id = pending.popLast() {
                guard visited.insert(id).inserted else { continue }
                affected.insert(id)
                guard let c = new.controllers[id] else { continue }
                guard let kids = below(c) else { return nil }
                pending.append(contentsOf: kids)
            }
            return affected
        }

        /// What a controller's piece reads from an ancestor (or from itself, for its children).
        struct Inherited: Equatable {
            var parent: String?
            var presenting: String?
            var presented: String?
            var kind: ControllerKind
            var traitOverrides: TraitOverrides?
            var viewInWindow: Bool

            init(_ c: Controller) {
                parent = c.parent
                presenting = c.presentation?.presenting
                presented = c.presentedID
                kind = c.kind
                traitOverrides = c.configuration.traitOverrides
                viewInWindow = c.viewInWindow
            }
        }

        mutating func unchanged(_ c: Controller) -> Bool {
            guard let old, sameWindow, let before = old.controllers[c.id], same(c.id, before, c) else { return false }
            if let parent = c.parent, changedChain(parent) { return false }
            if !sameTransitions, old.transitionCoordinator(c.id) != new.transitionCoordinator(c.id) { return false }
            return true
        }

        /// Whether a controller's own value is as before: known for one the turn did not change.
        private func same(_ id: String, _ before: Controller, _ now: Controller) -> Bool {
            untouched(id) || before == now
        }

        /// Known not to have changed (the turn's changed controllers are given and omit it).
        func untouched(_ id: String) -> Bool {
            changed.map { !$0.contains(id) } ?? false
        }

        /// Whether `id` or one of its ancestors passes something different down than before.
        private mutating func changedChain(_ id: String) -> Bool {
            if let known = chainChanged[id] { return known }
            var answer = true
            if let now = new.controllers[id], let before = old?.controllers[id],
                untouched(id) || Inherited(now) == Inherited(before)
            {
                answer = now.parent.map { changedChain($0) } ?? false
            }
            chainChanged[id] = answer
            return answer
        }
    }

    /// The controller `id`'s object, or nil when the session has none of that id.
    func piece(_ id: String) -> ArraySlice<UInt8>? { index[id].map { body[ranges[$0]] } }

    /// The Session of a `Prefer: return=minimal` reply: `id`, `version`, the `window` of
    /// `state` (the state this encoding shows), the `controllers` in `changed` (from this
    /// encoding's bytes) and `removed`, the ids of the controllers that left the session.
    func minimal(id: String, state: SessionState, changed: [String], removed: [String]) -> [UInt8] {
        var w = JSONWriter(capacity: 256 + changed.reduce(0) { $0 + (piece($1)?.count ?? 0) + $1.utf8.count + 4 })
        w.openObject()
        w.member("id", id)
        w.member("version", version)
        w.key("window")
        Encode.window(state, into: &w)
        w.key("controllers")
        w.openObject()
        for cid in changed {
            guard let piece = piece(cid) else { continue }
            w.key(cid)
            w.raw(piece)
        }
        w.closeObject()
        w.member("removed", removed)
        w.closeObject()
        return w.finish()
    }
}

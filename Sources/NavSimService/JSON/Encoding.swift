import NavigationCore

/// The reply shapes of API.md, built from core values.
enum Encode {
    static func controller(_ c: Controller, in s: SessionState) -> JSON {
        var m: [(String, JSON)] = [
            ("id", .string(c.id)), ("kind", .string(c.kind.rawValue)), ("class", .string(c.className)),
        ]
        m += ConfigurationFields.reply(c.configuration, .identity)
        m += [
            ("parent", .from(c.parent)), ("children", .from(c.children)),
            ("presentingViewController", .from(s.presentingViewController(c.id))),
            ("presentedViewController", .from(s.presentedViewController(c.id))),
            ("navigationController", .from(s.nearestAncestor(c.id, kind: .navigationController))),
            ("tabBarController", .from(s.nearestAncestor(c.id, kind: .tabBarController))),
            ("splitViewController", .from(s.nearestAncestor(c.id, kind: .splitViewController))),
        ]
        m += ConfigurationFields.reply(c.configuration, .styles)
        // R26: the presentation (UIKit's presentationController) exists only while presented.
        if let p = c.presentation {
            m.append(("presentation", .object([
                ("style", .string(p.style.rawValue)), ("transitionStyle", .string(p.transitionStyle.rawValue)),
                ("contextViewController", .from(p.contextViewController)),
            ])))
        }
        m += ConfigurationFields.reply(c.configuration, .flags)
        m += [
            ("isViewLoaded", .bool(c.isViewLoaded)), ("appearance", .string(c.appearance.rawValue)),
            ("viewInWindow", .bool(s.isViewInWindow(c.id))),
            ("isBeingPresented", .bool(c.isBeingPresented)), ("isBeingDismissed", .bool(c.isBeingDismissed)),
            ("isMovingToParent", .bool(c.isMovingToParent)), ("isMovingFromParent", .bool(c.isMovingFromParent)),
            ("transitionCoordinator", .from(s.transitionCoordinator(c.id))),
            ("traitCollection", traits(s.traitCollection(c.id))),
        ]
        m += ConfigurationFields.reply(c.configuration, .delegates)
        switch c.kind {
        case .navigationController:
            m.append(("viewControllers", .from(c.viewControllers)))
            m.append(("topViewController", .from(s.topViewController(c.id))))
            m.append(("visibleViewController", .from(s.navigationVisibleViewController(c.id))))
        case .tabBarController:
            m.append(("viewControllers", .from(c.viewControllers)))
            m.append(("selectedIndex", .from(s.selectedIndex(c.id))))
            m.append(("selectedViewController", .from(c.selectedViewController)))
            m.append(("moreNavigationController", .from(c.moreNavigationController)))
        case .splitViewController:
            if let split = c.split {
                m.append(("style", .string(split.style.rawValue)))
                m.append(("isCollapsed", .bool(split.isCollapsed)))
                // What is on screen: every column when expanded (three for tripleColumn).
                let expanded = split.style == .tripleColumn ? "twoBesideSecondary" : "oneBesideSecondary"
                m.append(("displayMode", .string(split.isCollapsed ? "secondaryOnly" : expanded)))
                m.append(("primary", .from(split.primary)))
                m.append(("supplementary", .from(split.supplementary)))
                m.append(("secondary", .from(split.secondary)))
            }
        case .pageViewController:
            m.append(("viewControllers", .from(c.viewControllers)))
            if let page = c.page {
                m.append(("transitionStyle", .string(page.transitionStyle.rawValue)))
                m.append(("spineLocation", .from(page.spineLocation?.rawValue)))
                m.append(("isDoubleSided", .bool(page.isDoubleSided)))
            }
        case .alertController:
            m.append(("preferredStyle", .string((c.preferredStyle ?? .alert).rawValue)))
        default: break
        }
        m += ConfigurationFields.reply(c.configuration, .segues)
        if let sb = c.storyboard {
            m.append(("storyboard", .object([("name", .string(sb.name)), ("identifier", .from(sb.identifier))])))
        }
        return .object(m)
    }

    static func traits(_ t: Traits) -> JSON {
        .object([("userInterfaceIdiom", .string(t.userInterfaceIdiom.rawValue)),
                 ("horizontalSizeClass", .string(t.horizontalSizeClass.rawValue)),
                 ("verticalSizeClass", .string(t.verticalSizeClass.rawValue))])
    }

    static func session(id: String, version: Int, createdAt: String, state s: SessionState) -> JSON {
        .object(sessionHead(id: id, version: version, createdAt: createdAt, state: s)
            + [("controllers", .object(s.order.compactMap { id in s.controllers[id].map { (id, controller($0, in: s)) } }))])
    }

    /// The Session members before `controllers`, in reply order.
    static func sessionHead(id: String, version: Int, createdAt: String, state s: SessionState) -> [(String, JSON)] {
        [
            ("id", .string(id)), ("version", .number(Double(version))), ("createdAt", .string(createdAt)),
            ("traits", traits(s.traits)),
            ("options", .object([("iOS", .string(s.options.iOS.rawValue)), ("transitions", .string(s.options.transitions.rawValue)),
                                 ("navTransitionPolicy", .string(s.options.navTransitionPolicy.rawValue))]
                                // Release.swift: shown only when not the default, so replies of
                                // `manual` sessions keep the bytes earlier releases sent.
                                + (s.options.release == .manual ? [] : [("release", .string(s.options.release.rawValue))]))),
            ("window", window(s)),
        ]
    }

    /// The Session's `window` member.
    static func window(_ s: SessionState) -> JSON {
        .object([
            ("rootViewController", .from(s.rootViewController)),
            ("visibleViewController", .from(s.visibleViewController)),
            ("viewsInWindow", .from(s.viewsInWindow)),
        ])
    }

    /// `{…members, "<key>": <raw>}`: an object whose last member is already-encoded JSON, so a
    /// cached representation is spliced in, not encoded again. Same bytes as encoding the whole.
    static func object(_ members: [(String, JSON)], lastKey: String, raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        // One allocation: the members are small next to `raw` (a whole session, say).
        out.reserveCapacity(raw.count + 256)
        JSON.object(members).write(into: &out)
        out.removeLast()  // "}"
        if !members.isEmpty { out.append(UInt8(ascii: ",")) }
        JSON.writeString(lastKey, into: &out)
        out.append(UInt8(ascii: ":"))
        out.append(contentsOf: raw)
        out.append(UInt8(ascii: "}"))
        return out
    }

    static func event(_ e: Event) -> JSON {
        var m: [(String, JSON)] = [("controller", .string(e.controller)), ("callback", .string(e.callback.rawValue))]
        if let a = e.animated { m.append(("animated", .bool(a))) }
        if e.hasParentArgument { m.append(("parent", .from(e.parent))) }
        if let seg = e.segue {
            m.append(("segue", .object([("identifier", .from(seg.identifier)), ("source", .string(seg.source)),
                                         ("destination", .from(seg.destination))])))
        }
        if let a = e.action { m.append(("action", .string(a))) }
        if let st = e.style { m.append(("style", .string(st.rawValue))) }
        return .object(m)
    }

    static func transition(_ t: TransitionRecord?) -> JSON {
        guard let t else { return .null }
        return .object([
            ("id", .string(t.id)), ("operation", .string(t.operation.rawValue)),
            ("fromViewController", .from(t.fromViewController)), ("toViewController", .from(t.toViewController)),
            ("presentationStyle", .from(t.presentationStyle?.rawValue)), ("transitionStyle", .from(t.transitionStyle?.rawValue)),
            ("animated", .bool(t.animated)), ("duration", .number(t.duration)), ("animator", .from(t.animator)),
            ("containerView", .from(t.containerView)), ("state", .string(t.state.rawValue)),
        ])
    }

    /// A warning UIKit only logs while the call goes on (D21): a problem object without `status`,
    /// since the reply itself is a success (RFC 9457 §3.1.3: status is the response's).
    static func warning(_ d: Diagnostic) -> JSON {
        var p = Problem(d)
        p.title = "UIKit logs a warning"
        // A warning without a code is navsim's own (R76's pushed tab bar controller): UIKit logs
        // nothing, so there is no `uikit` member.
        if d.code == nil {
            p.title = "navsim warns"
            p.uikit = nil
        }
        guard case .object(let members) = p.json else { return p.json }
        return .object(members.filter { $0.0 != "status" })
    }

    /// ActionResult without the session: what history entries and turn results carry.
    static func resultMembers(_ r: ActionResult) -> [(String, JSON)] {
        var m: [(String, JSON)] = [
            ("transition", transition(r.transition)), ("events", .array(r.events.map(event))),
        ]
        if r.returnsValue || r.returned != nil { m.append(("returned", r.returned.map { .from($0) } ?? .null)) }
        if !r.warnings.isEmpty { m.append(("warnings", .array(r.warnings.map(warning)))) }
        return m
    }
}

/// A session's JSON representation at one version, as bytes (issue 11: reads are served from
/// bytes). Each controller's piece is a range of ``body``; a new version encodes the controllers
/// and compares each piece with the previous version's, which is how a `Prefer: return=minimal`
/// reply knows which controllers changed.
struct EncodedSession: Sendable {
    /// The version ``body`` shows.
    let version: Int
    /// The whole Session object, byte-identical to `Encode.session(…).bytes`.
    let body: [UInt8]
    /// Where each controller's object lies in ``body``, by id.
    let pieces: [String: Range<Int>]
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
    /// 500-deep stack encodes the few controllers it touched, not 500 (issue 11). A piece is a
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
    static func make(id: String, version: Int, createdAt: String, state: SessionState,
                     previous: EncodedSession?, previousState: SessionState? = nil,
                     changedControllers: [String]? = nil) -> (EncodedSession, changed: [String]) {
        // Room for the whole at once: a new version is about the size of the previous one.
        var out: [UInt8] = []
        out.reserveCapacity((previous?.body.count ?? 0) + 512)
        let head = Head.write(id: id, version: version, createdAt: createdAt, state: state, into: &out,
                              reusing: previous, previousState: previousState, changed: changedControllers)
        out.append(contentsOf: #","controllers":{"#.utf8)
        var pieces: [String: Range<Int>] = [:]
        pieces.reserveCapacity(state.controllers.count)
        var changed: [String] = []
        var reuse = ReuseCheck(old: previous != nil ? previousState : nil, new: state,
                               changed: changedControllers.map(Set.init))
        var first = true
        var reused = 0
        for cid in state.order {
            guard let index = state.controllers.index(forKey: cid) else { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            // Known unaffected (``ReuseCheck/affected``): its bytes are copied without reading
            // the controller, so a retitle, or a push on a deep stack, costs a copy per
            // untouched piece (issue 11).
            if let previous, let affected = reuse.affected, !affected.contains(cid), let old = previous.pieces[cid] {
                JSON.writeString(cid, into: &out)
                out.append(UInt8(ascii: ":"))
                let start = out.count
                out.append(contentsOf: previous.body[old])
                pieces[cid] = start..<out.count
                reused += 1
                continue
            }
            let c = state.controllers[index].value
            JSON.writeString(c.id, into: &out)
            out.append(UInt8(ascii: ":"))
            let start = out.count
            if let previous, let old = previous.pieces[c.id], reuse.unchanged(c) {
                out.append(contentsOf: previous.body[old])
                reused += 1
            } else {
                Encode.controller(c, in: state).write(into: &out)
                if let previous, let old = previous.pieces[c.id], previous.body[old].elementsEqual(out[start...]) {
                    // Unchanged: not reported to a minimal reply.
                } else {
                    changed.append(c.id)
                }
            }
            pieces[c.id] = start..<out.count
        }
        out.append(contentsOf: "}}".utf8)
        assert(previous == nil || out == Encode.session(id: id, version: version, createdAt: createdAt, state: state).bytes,
               "a reused controller piece or head differs from its full encoding")
        return (EncodedSession(version: version, body: out, pieces: pieces, etag: "\"\(version)\"", reusedPieces: reused,
                               head: head), changed)
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

        /// Writes `{"id":…,"version":…,…,"window":{…}` of `state` into `out` (empty): copied from
        /// `previous` but for the version number when the traits, options and window cannot
        /// differ from `previousState`'s, encoded otherwise. Same bytes either way.
        static func write(id: String, version: Int, createdAt: String, state: SessionState, into out: inout [UInt8],
                          reusing previous: EncodedSession?, previousState: SessionState?, changed: [String]?) -> Head {
            if let previous, let old = previous.head, let previousState, let changed, old.id == id,
               old.createdAt == createdAt, sameHead(previousState, state, changed: changed) {
                out.append(contentsOf: previous.body[..<old.version.lowerBound])
                let start = out.count
                JSON.number(Double(version)).write(into: &out)
                let digits = start..<out.count
                out.append(contentsOf: previous.body[old.version.upperBound..<old.end])
                return Head(id: id, createdAt: createdAt, version: digits, end: out.count, reused: true)
            }
            out.append(UInt8(ascii: "{"))
            var digits = 0..<0
            for (i, (key, value)) in Encode.sessionHead(id: id, version: version, createdAt: createdAt, state: state).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSON.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                let start = out.count
                value.write(into: &out)
                if key == "version" { digits = start..<out.count }
            }
            return Head(id: id, createdAt: createdAt, version: digits, end: out.count)
        }

        /// Whether the head members (traits, options, window) of `new` equal `old`'s, given the
        /// only controllers whose value can differ (``Navigator/TurnResult/changedControllers``).
        /// The window reads the root and, of each controller, its links, container, appearance
        /// and view flags, never its client-set `configuration`: a turn that changed only
        /// configurations (a PATCH of a title) leaves it as it was.
        static func sameHead(_ old: SessionState, _ new: SessionState, changed: [String]) -> Bool {
            guard old.traits == new.traits, old.options == new.options, old.rootViewController == new.rootViewController,
                  old.controllers.count == new.controllers.count, old.order == new.order else { return false }
            for id in changed {
                guard let before = old.controllers[id], var now = new.controllers[id] else { return false }
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

        private static func affected(old: SessionState?, new: SessionState, changed: Set<String>?,
                                     sameWindow: Bool, sameTransitions: Bool) -> Set<String>? {
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
               untouched(id) || Inherited(now) == Inherited(before) {
                answer = now.parent.map { changedChain($0) } ?? false
            }
            chainChanged[id] = answer
            return answer
        }
    }

    /// The controller `id`'s object, or nil when the session has none of that id.
    func piece(_ id: String) -> ArraySlice<UInt8>? { pieces[id].map { body[$0] } }

    /// The Session of a `Prefer: return=minimal` reply: `id`, `version`, `window`, the
    /// `controllers` in `changed` (from this encoding's bytes) and `removed`, the ids of the
    /// controllers that left the session.
    func minimal(id: String, window: JSON, changed: [String], removed: [String]) -> [UInt8] {
        var out = JSON.object([("id", .string(id)), ("version", .number(Double(version))), ("window", window)]).bytes
        out.removeLast()  // "}"
        out.append(contentsOf: #","controllers":{"#.utf8)
        var first = true
        for cid in changed {
            guard let piece = piece(cid) else { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSON.writeString(cid, into: &out)
            out.append(UInt8(ascii: ":"))
            out.append(contentsOf: piece)
        }
        out.append(contentsOf: #"},"removed":"#.utf8)
        JSON.array(removed.map(JSON.string)).write(into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }
}

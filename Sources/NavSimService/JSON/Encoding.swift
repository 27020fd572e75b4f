import JSONValues
import NavigationCore

/// The reply shapes of docs/api.md, written from core values straight to bytes (``JSONWriter``):
/// each shape's members are listed once, here, in reply order.
enum Encode {
    /// A Controller object (docs/api.md), written as one value.
    static func controller(_ c: Controller, in s: SessionState, into w: inout JSONWriter) {
        // One walk up the parent chain for every derived member (R3–R6, R74).
        let r = s.relations(of: c)
        w.openObject()
        w.member("id", c.id)
        w.member("kind", c.kind.rawValue)
        w.member("class", c.className)
        ConfigurationFields.write(c.configuration, .identity, into: &w)
        w.member("parent", c.parent)
        w.member("children", c.children)
        w.member("presentingViewController", r.presentingViewController)
        w.member("presentedViewController", r.presentedViewController)
        w.member("navigationController", r.navigationController)
        w.member("tabBarController", r.tabBarController)
        w.member("splitViewController", r.splitViewController)
        ConfigurationFields.write(c.configuration, .styles, into: &w)
        // R26: the presentation (UIKit's presentationController) exists only while presented.
        if let p = c.presentation {
            w.key("presentation")
            w.openObject()
            w.member("style", p.style.rawValue)
            w.member("transitionStyle", p.transitionStyle.rawValue)
            w.member("contextViewController", p.contextViewController)
            w.closeObject()
        }
        ConfigurationFields.write(c.configuration, .flags, into: &w)
        w.member("isViewLoaded", c.isViewLoaded)
        w.member("appearance", c.appearance.rawValue)
        w.member("viewInWindow", r.isViewInWindow)
        w.member("isBeingPresented", c.isBeingPresented)
        w.member("isBeingDismissed", c.isBeingDismissed)
        w.member("isMovingToParent", c.isMovingToParent)
        w.member("isMovingFromParent", c.isMovingFromParent)
        w.member("transitionCoordinator", s.transitionCoordinator(c.id))
        w.key("traitCollection")
        // The size is the window's (R106), not the controller's: a controller lists its size classes.
        sizeClasses(r.traitCollection, into: &w)
        ConfigurationFields.write(c.configuration, .delegates, into: &w)
        switch c.kind {
        case .navigationController:
            w.member("viewControllers", c.viewControllers)
            w.member("topViewController", s.topViewController(c.id))
            w.member("visibleViewController", s.navigationVisibleViewController(c.id))
        case .tabBarController:
            w.member("viewControllers", c.viewControllers)
            w.member("selectedIndex", s.selectedIndex(c.id))
            w.member("selectedViewController", c.selectedViewController)
            w.member("moreNavigationController", c.moreNavigationController)
        case .splitViewController:
            if let split = c.split {
                w.member("style", split.style.rawValue)
                w.member("isCollapsed", split.isCollapsed)
                // What is on screen: every column when expanded (three for tripleColumn) until
                // showColumn/hideColumn change it (R121).
                w.member("displayMode", split.isCollapsed ? "secondaryOnly" : split.currentDisplayMode.rawValue)
                w.member("primary", split.primary)
                w.member("supplementary", split.supplementary)
                w.member("secondary", split.secondary)
                // R123: only a split with a compact column lists it, so other replies keep their bytes.
                if let compact = split.compact { w.member("compact", compact) }
                // R125: likewise the inspector column, with whether it shows.
                if let inspector = split.inspector {
                    w.member("inspector", inspector)
                    w.member("isShowingInspector", split.isShowingInspector)
                }
            }
        case .pageViewController:
            w.member("viewControllers", c.viewControllers)
            if let page = c.page {
                w.member("transitionStyle", page.transitionStyle.rawValue)
                w.member("spineLocation", page.spineLocation?.rawValue)
                w.member("isDoubleSided", page.isDoubleSided)
            }
        case .alertController:
            w.member("preferredStyle", (c.preferredStyle ?? .alert).rawValue)
        default: break
        }
        ConfigurationFields.write(c.configuration, .segues, into: &w)
        if let sb = c.storyboard {
            w.key("storyboard")
            w.openObject()
            w.member("name", sb.name)
            w.member("identifier", sb.identifier)
            w.closeObject()
        }
        w.closeObject()
    }

    /// A Controller object's bytes.
    static func controller(_ c: Controller, in s: SessionState) -> [UInt8] {
        var w = JSONWriter(capacity: 1024)
        controller(c, in: s, into: &w)
        return w.finish()
    }

    /// A Traits object: `{"userInterfaceIdiom", "horizontalSizeClass", "verticalSizeClass"}`.
    static func traits(_ t: Traits, into w: inout JSONWriter) {
        w.openObject()
        w.member("userInterfaceIdiom", t.userInterfaceIdiom.rawValue)
        w.member("horizontalSizeClass", t.horizontalSizeClass.rawValue)
        w.member("verticalSizeClass", t.verticalSizeClass.rawValue)
        // R106: only when the client gave one, so sessions without a size read as before.
        if let size = t.size { w.key("size"); self.size(size, into: &w) }
        w.closeObject()
    }

    /// `{"width", "height"}` in points.
    static func size(_ s: Traits.Size, into w: inout JSONWriter) {
        w.openObject()
        w.key("width")
        w.number(s.width)
        w.key("height")
        w.number(s.height)
        w.closeObject()
    }

    /// The size classes of a trait collection an event passes (R107, R108).
    static func sizeClasses(_ t: Traits, into w: inout JSONWriter) {
        w.openObject()
        w.member("userInterfaceIdiom", t.userInterfaceIdiom.rawValue)
        w.member("horizontalSizeClass", t.horizontalSizeClass.rawValue)
        w.member("verticalSizeClass", t.verticalSizeClass.rawValue)
        w.closeObject()
    }

    /// A whole Session object (docs/api.md): the head, then every controller in creation order.
    static func session(id: String, version: Int, createdAt: String, state s: SessionState) -> [UInt8] {
        var w = JSONWriter(capacity: 1024 * (s.controllers.count + 1))
        w.openObject()
        sessionMembers(id: id, version: version, createdAt: createdAt, state: s, into: &w)
        w.closeObject()
        return w.finish()
    }

    /// A new session's 201 body: the Session with the `events` of installing its root and, when
    /// its lifecycle code did what UIKit only logs (D7…), the `warnings`.
    static func created(id: String, createdAt: String, state s: SessionState, events: [Event], warnings: [Diagnostic]) -> [UInt8] {
        created(session: session(id: id, version: 0, createdAt: createdAt, state: s), result: createdResult(events: events, warnings: warnings))
    }

    /// The 201 body: the members of `session` (the Session object, as ``EncodedSession/body`` holds
    /// it) followed by those of `result` (``createdResult(events:warnings:)``), so the session's
    /// first version is encoded once for its reply and for the reads and writes that follow.
    static func created(session: [UInt8], result: [UInt8]) -> [UInt8] {
        var w = JSONWriter(capacity: session.count + result.count)
        w.openObject()
        w.rawMembers(ofObject: session)
        w.rawMembers(ofObject: result)
        w.closeObject()
        return w.finish()
    }

    /// What installing a new session's root reported, as an object: `events` and, when its
    /// lifecycle code did what UIKit only logs (D7…), `warnings`. Encoded once per creation:
    /// the 201 body and history entry 0 (`Persistence.creation`) splice the same bytes.
    static func createdResult(events: [Event], warnings: [Diagnostic]) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.openObject()
        w.key("events")
        self.events(events, into: &w)
        if !warnings.isEmpty {
            w.key("warnings")
            self.warnings(warnings, into: &w)
        }
        w.closeObject()
        return w.finish()
    }

    /// The Session's members, into an open object.
    static func sessionMembers(id: String, version: Int, createdAt: String, state s: SessionState, into w: inout JSONWriter) {
        sessionHead(id: id, version: version, createdAt: createdAt, state: s, into: &w)
        w.key("controllers")
        w.openObject()
        for cid in s.order {
            guard let c = s.controllers[cid] else { continue }
            w.key(cid)
            controller(c, in: s, into: &w)
        }
        w.closeObject()
    }

    /// The Session members before `controllers`, in reply order, into an open object.
    /// - Returns: where the digits of `version` lie in the text `w` holds.
    @discardableResult
    static func sessionHead(
        id: String, version: Int, createdAt: String, state s: SessionState,
        into w: inout JSONWriter
    ) -> Range<Int> {
        w.member("id", id)
        w.key("version")
        let start = w.count
        w.int(version)
        let digits = start..<w.count
        w.member("createdAt", createdAt)
        w.key("traits")
        traits(s.traits, into: &w)
        w.key("options")
        w.openObject()
        w.member("iOS", s.options.iOS.rawValue)
        w.member("transitions", s.options.transitions.rawValue)
        w.member("navTransitionPolicy", s.options.navTransitionPolicy.rawValue)
        // Release.swift: shown only when not the default, so replies of `manual` sessions keep
        // the bytes earlier releases sent.
        if s.options.release != .manual { w.member("release", s.options.release.rawValue) }
        // R117: shown only when on, for the same reason.
        if s.options.layoutCallbacks { w.member("layoutCallbacks", true) }
        w.closeObject()
        w.key("window")
        window(s, into: &w)
        return digits
    }

    /// The Session's `window` member: `{"rootViewController", "visibleViewController", "viewsInWindow",
    /// "undimmedViews"?}`.
    static func window(_ s: SessionState, into w: inout JSONWriter) {
        w.openObject()
        w.member("rootViewController", s.rootViewController)
        w.member("visibleViewController", s.visibleViewController)
        let inWindow = s.viewsInWindow
        w.member("viewsInWindow", inWindow)
        // R112: only while a sheet rests at an undimmed detent, so other replies keep their bytes.
        let undimmed = s.undimmedViews(window: inWindow)
        if !undimmed.isEmpty { w.member("undimmedViews", undimmed) }
        w.closeObject()
    }

    /// An Event object.
    static func event(_ e: Event, into w: inout JSONWriter) {
        w.openObject()
        w.member("controller", e.controller)
        w.member("callback", e.callback.rawValue)
        if let a = e.animated { w.member("animated", a) }
        if e.hasParentArgument { w.member("parent", e.parent) }
        if let seg = e.segue {
            w.key("segue")
            w.openObject()
            w.member("identifier", seg.identifier)
            w.member("source", seg.source)
            w.member("destination", seg.destination)
            w.closeObject()
        }
        if let a = e.action { w.member("action", a) }
        if let st = e.style { w.member("style", st.rawValue) }
        if let size = e.size { w.key("size"); self.size(size, into: &w) }
        if let t = e.traitCollection {
            // willTransition(to:with:) passes the new collection, the notifications the previous one.
            w.key(e.callback == .willTransitionToTraitCollection ? "traitCollection" : "previousTraitCollection")
            sizeClasses(t, into: &w)
        }
        if let names = e.changedTraits { w.member("traits", names.map(\.rawValue)) }
        if let op = e.operation { w.member("operation", op.rawValue) }  // R140
        if let t = e.towards { w.member("towards", t) }  // R148
        if let c = e.isCancelled { w.member("isCancelled", c) }  // R144, R145
        // R130–R133: the delegate method's arguments under UIKit's parameter names.
        if let list = e.viewControllers {
            switch e.callback {
            case .pageViewControllerWillTransitionTo: w.member("pendingViewControllers", list)
            case .pageViewControllerDidFinishAnimating:
                w.member("finished", true)
                w.member("previousViewControllers", list)
            default: w.member("viewControllers", list)
            }
        }
        if let c = e.completed {
            if e.callback == .pageViewControllerDidFinishAnimating { w.member("transitionCompleted", c) } else { w.member("changed", c) }
        }
        if let c = e.column { w.member("column", c.rawValue) }
        w.closeObject()
    }

    /// An array of Event objects.
    static func events(_ events: [Event], into w: inout JSONWriter) {
        w.openArray()
        for e in events { event(e, into: &w) }
        w.closeArray()
    }

    /// A Transition object, or `null`.
    static func transition(_ t: TransitionRecord?, into w: inout JSONWriter) {
        guard let t else { return w.null() }
        w.openObject()
        w.member("id", t.id)
        w.member("operation", t.operation.rawValue)
        w.member("fromViewController", t.fromViewController)
        w.member("toViewController", t.toViewController)
        w.member("presentationStyle", t.presentationStyle?.rawValue)
        w.member("transitionStyle", t.transitionStyle?.rawValue)
        w.member("animated", t.animated)
        w.key("duration")
        w.number(t.duration)
        w.member("animator", t.animator)
        w.member("containerView", t.containerView)
        w.member("state", t.state.rawValue)
        w.closeObject()
    }

    /// An array of Transition objects.
    static func transitions(_ records: [TransitionRecord]) -> [UInt8] {
        var w = JSONWriter()
        w.openArray()
        for t in records { transition(t, into: &w) }
        w.closeArray()
        return w.finish()
    }

    /// A warning UIKit only logs while the call goes on (D21): a problem object without `status`,
    /// since the reply itself is a success (RFC 9457 §3.1.3: status is the response's).
    static func warning(_ d: Diagnostic, into w: inout JSONWriter) {
        var p = Problem(d)
        p.title = "UIKit logs a warning"
        // A warning without a code is navsim's own (R76's pushed tab bar controller): UIKit logs
        // nothing, so there is no `uikit` member.
        if d.code == nil {
            p.title = "navsim warns"
            p.uikit = nil
        }
        // Rare (a warning is a client's mistake): the problem's own tree, less its status.
        guard case .object(let members) = p.json else { return w.value(p.json) }
        w.value(.object(members.filter { $0.0 != "status" }))
    }

    /// An array of warnings.
    static func warnings(_ warnings: [Diagnostic], into w: inout JSONWriter) {
        w.openArray()
        for d in warnings { warning(d, into: &w) }
        w.closeArray()
    }

    /// ActionResult without the session, as members of an open object: what history entries
    /// and turn results carry.
    static func resultMembers(_ r: ActionResult, into w: inout JSONWriter) {
        w.key("transition")
        transition(r.transition, into: &w)
        w.key("events")
        events(r.events, into: &w)
        if r.returnsValue || r.returned != nil { w.member("returned", r.returned) }
        if !r.warnings.isEmpty {
            w.key("warnings")
            warnings(r.warnings, into: &w)
        }
    }

    /// What a request's operations report (docs/api.md History `result`): of one operation, its
    /// ActionResult members (or the problem it was refused with) as an object; of a turn
    /// (`turn`), an array of those, one per operation.
    static func results(_ outcomes: [OperationOutcome], turn: Bool) -> [UInt8] {
        var w = JSONWriter(capacity: 128)
        if turn { w.openArray() }
        for outcome in turn ? outcomes[...] : outcomes.prefix(1) {
            switch outcome {
            case .applied(let r):
                w.openObject()
                resultMembers(r, into: &w)
                w.closeObject()
            case .refused(let d): w.value(Problem(d).json)
            case .invalid(let e): w.value(Problem.fromCore(e).json)
            }
        }
        if turn { w.closeArray() } else if outcomes.isEmpty { w.null() }
        return w.finish()
    }

    /// A mutation's 200 body: `{"version", <the result's members> or "results", "released"?,
    /// "session"}`, the session being bytes already encoded (the whole one, or a minimal one).
    /// `results` is ``results(_:turn:)``'s text of the request: a turn's array, or one
    /// operation's object whose members are spliced in.
    static func mutationReply(version: Int, turn: Bool, results: [UInt8], released: [String], session: [UInt8]) -> [UInt8] {
        var w = JSONWriter(capacity: session.count + results.count + 64)
        w.openObject()
        w.key("version")
        w.int(version)
        if turn {
            w.key("results")
            w.raw(results)
        } else {
            w.rawMembers(ofObject: results)
        }
        // What the turn dropped (NavigationCore/Release.swift); in a minimal reply these ids are
        // also among `removed`.
        if !released.isEmpty { w.member("released", released) }
        w.key("session")
        w.raw(session)
        w.closeObject()
        return w.finish()
    }
}

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
        let inWindow = s.orderedControllers.map(\.id).filter(s.isViewInWindow)
        return .object([
            ("id", .string(id)), ("version", .number(Double(version))), ("createdAt", .string(createdAt)),
            ("traits", traits(s.traits)),
            ("options", .object([("iOS", .string(s.options.iOS.rawValue)), ("transitions", .string(s.options.transitions.rawValue)),
                                 ("navTransitionPolicy", .string(s.options.navTransitionPolicy.rawValue))])),
            ("window", .object([
                ("rootViewController", .from(s.rootViewController)),
                ("visibleViewController", .from(s.visibleViewController)),
                ("viewsInWindow", .from(inWindow)),
            ])),
            ("controllers", .object(s.orderedControllers.map { ($0.id, controller($0, in: s)) })),
        ])
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

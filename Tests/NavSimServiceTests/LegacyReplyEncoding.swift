import JSONValues
import NavigationCore
@testable import NavSimService

// The reply encoders as they were at f76b527, before replies were written straight to bytes
// (JSONWriter): a JSON tree per reply, serialised by the tree walk below. Frozen here as the
// reference the byte-identity tests (ReplyBytesTests) hold the new encoders to; not used by the
// product. Only the spelling of names changed (Legacy…).

/// The old `JSON.write(into:)`: the tree's compact text.
enum LegacyJSON {
    static func bytes(_ v: JSON) -> [UInt8] {
        var out: [UInt8] = []
        write(v, into: &out)
        return out
    }

    static func write(_ v: JSON, into out: inout [UInt8]) {
        switch v {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n):
            if n.isFinite, n == n.rounded(), abs(n) < 1e15 {
                out.append(contentsOf: String(Int64(n)).utf8)
            } else if n.isFinite {
                out.append(contentsOf: "\(n)".utf8)
            } else {
                out.append(contentsOf: "null".utf8)
            }
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The old `JSON.writeString`, escaping byte by byte.
    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(92); out.append(34)
            case UInt8(ascii: "\\"): out.append(92); out.append(92)
            case 0x0A: out.append(92); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(92); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(92); out.append(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// The old reply side of ConfigurationFields: each property's member as a tree, by section.
enum LegacyFields {
    typealias Section = ConfigurationField.Section
    static let all: [(name: String, section: Section, reply: @Sendable (ControllerConfiguration) -> JSON?)] = [
        ("title", .identity, { .from($0.title) }),
        ("modalPresentationStyle", .styles, { .string($0.modalPresentationStyle.rawValue) }),
        ("modalTransitionStyle", .styles, { .string($0.modalTransitionStyle.rawValue) }),
        ("definesPresentationContext", .flags, { .bool($0.definesPresentationContext) }),
        ("providesPresentationContextTransitionStyle", .flags, { .bool($0.providesPresentationContextTransitionStyle) }),
        ("isModalInPresentation", .flags, { .bool($0.isModalInPresentation) }),
        ("prefersStatusBarHidden", .flags, { $0.prefersStatusBarHidden ? .bool(true) : nil }),
        (
            "traitOverrides", .delegates,
            { c in
                c.traitOverrides.map {
                    .object([
                        ("horizontalSizeClass", .from($0.horizontalSizeClass?.rawValue)),
                        ("verticalSizeClass", .from($0.verticalSizeClass?.rawValue)),
                    ])
                }
            }
        ),
        (
            "transitioningDelegate", .delegates,
            { c in
                c.transitioningDelegate.map { .object([("name", .string($0.name)), ("duration", .number($0.duration))]) }
            }
        ),
        (
            "presentationDelegate", .delegates,
            { c in
                c.presentationDelegate.map {
                    .object([
                        ("shouldDismiss", .from($0.shouldDismiss)),
                        ("adaptivePresentationStyle", .from($0.adaptivePresentationStyle?.rawValue)),
                    ])
                }
            }
        ),
        ("navigationDelegate", .delegates, { c in c.navigationDelegate.map { _ in .object([]) } }),
        ("tabBarDelegate", .delegates, { c in c.tabBarDelegate.map { .object([("shouldSelect", .from($0.shouldSelect))]) } }),
        ("preferredContentSize", .delegates, { c in c.preferredContentSize.map { .array($0.map { .number($0) }) } }),
        (
            "registersForTraitChanges", .delegates,
            { c in c.registersForTraitChanges.isEmpty ? nil : .from(c.registersForTraitChanges.map(\.rawValue)) }
        ),
        ("unwindActions", .segues, { c in c.unwindActions.isEmpty ? nil : .from(c.unwindActions) }),
        (
            "on", .segues,
            { c in
                c.on.isEmpty
                    ? nil
                    : .object(
                        CallbackCode.Method.allCases.compactMap { m in
                            c.on.calls[m].map { calls in (m.rawValue, .array(calls.map(LegacyEncode.call))) }
                        })
            }
        ),
        (
            "shouldPerformSegue", .segues,
            { c in
                c.shouldPerformSegue.isEmpty ? nil : .object(c.shouldPerformSegue.sorted { $0.key < $1.key }.map { ($0.key, .bool($0.value)) })
            }
        ),
    ]

    static func reply(_ c: ControllerConfiguration, _ section: Section) -> [(String, JSON)] {
        all.filter { $0.section == section }.compactMap { f in f.reply(c).map { (f.name, $0) } }
    }
}

extension LegacyEncode {
    /// The old CallbackEncoding.swift.
    static func call(_ call: CallbackCode.Call) -> JSON {
        let mirror = Mirror(reflecting: call.command)
        let child = mirror.children.first
        var members: [(String, JSON)] = [("operation", .string(child?.label ?? "\(call.command)"))]
        if let value = child?.value {
            let receiver = Mirror(reflecting: value).children.first { $0.label == "receiver" }?.value as? ControllerID
            if let receiver, receiver != CallbackCode.selfReceiver { members.append(("receiver", .string(receiver))) }
        }
        if call.once { members.append(("once", .bool(true))) }
        return .object(members)
    }

    /// The old `Persistence.resultJSON`.
    static func resultJSON(_ outcomes: [OperationOutcome], turn: Bool) -> JSON {
        let items: [JSON] = outcomes.map { outcome in
            switch outcome {
            case .applied(let r): return .object(resultMembers(r))
            case .refused(let d): return Problem(d).json
            case .invalid(let e): return Problem.fromCore(e).json
            }
        }
        return turn ? .array(items) : (items.first ?? .null)
    }

    /// The old `EncodedSession.minimal`.
    static func minimal(id: String, version: Int, window: JSON, pieces: [String: [UInt8]], changed: [String], removed: [String]) -> [UInt8] {
        var out = LegacyJSON.bytes(.object([("id", .string(id)), ("version", .number(Double(version))), ("window", window)]))
        out.removeLast()  // "}"
        out.append(contentsOf: #","controllers":{"#.utf8)
        var first = true
        for cid in changed {
            guard let piece = pieces[cid] else { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            LegacyJSON.writeString(cid, into: &out)
            out.append(UInt8(ascii: ":"))
            out.append(contentsOf: piece)
        }
        out.append(contentsOf: #"},"removed":"#.utf8)
        LegacyJSON.write(.array(removed.map(JSON.string)), into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The old body of `Service.mutationReply` (200): the members, then the session's bytes.
    static func mutationReply(version: Int, turn: Bool, outcomes: [OperationOutcome], released: [String], session: [UInt8]) -> [UInt8] {
        let resultJSON = resultJSON(outcomes, turn: turn)
        var members: [(String, JSON)] = [("version", .number(Double(version)))]
        if turn {
            members.append(("results", resultJSON))
        } else if case .object(let result) = resultJSON {
            members += result
        }
        if !released.isEmpty { members.append(("released", .from(released))) }
        return object(members, lastKey: "session", raw: session)
    }

    /// The old creation reply of `Service.createSession`.
    static func created(id: String, createdAt: String, state: SessionState, events: [Event], warnings: [Diagnostic]) -> [UInt8] {
        var replyJSON = session(id: id, version: 0, createdAt: createdAt, state: state)
        if case .object(var members) = replyJSON {
            members.append(("events", .array(events.map(event))))
            if !warnings.isEmpty { members.append(("warnings", .array(warnings.map(warning)))) }
            replyJSON = .object(members)
        }
        return LegacyJSON.bytes(replyJSON)
    }
}

enum LegacyEncode {
    static func controller(_ c: Controller, in s: SessionState) -> JSON {
        var m: [(String, JSON)] = [
            ("id", .string(c.id)), ("kind", .string(c.kind.rawValue)), ("class", .string(c.className)),
        ]
        m += LegacyFields.reply(c.configuration, .identity)
        m += [
            ("parent", .from(c.parent)), ("children", .from(c.children)),
            ("presentingViewController", .from(s.presentingViewController(c.id))),
            ("presentedViewController", .from(s.presentedViewController(c.id))),
            ("navigationController", .from(s.nearestAncestor(c.id, kind: .navigationController))),
            ("tabBarController", .from(s.nearestAncestor(c.id, kind: .tabBarController))),
            ("splitViewController", .from(s.nearestAncestor(c.id, kind: .splitViewController))),
        ]
        m += LegacyFields.reply(c.configuration, .styles)
        // R26: the presentation (UIKit's presentationController) exists only while presented.
        if let p = c.presentation {
            m.append(
                (
                    "presentation",
                    .object([
                        ("style", .string(p.style.rawValue)), ("transitionStyle", .string(p.transitionStyle.rawValue)),
                        ("contextViewController", .from(p.contextViewController)),
                    ])
                ))
        }
        m += LegacyFields.reply(c.configuration, .flags)
        m += [
            ("isViewLoaded", .bool(c.isViewLoaded)), ("appearance", .string(c.appearance.rawValue)),
            ("viewInWindow", .bool(s.isViewInWindow(c.id))),
            ("isBeingPresented", .bool(c.isBeingPresented)), ("isBeingDismissed", .bool(c.isBeingDismissed)),
            ("isMovingToParent", .bool(c.isMovingToParent)), ("isMovingFromParent", .bool(c.isMovingFromParent)),
            ("transitionCoordinator", .from(s.transitionCoordinator(c.id))),
            ("traitCollection", traits(s.traitCollection(c.id))),
        ]
        m += LegacyFields.reply(c.configuration, .delegates)
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
        m += LegacyFields.reply(c.configuration, .segues)
        if let sb = c.storyboard {
            m.append(("storyboard", .object([("name", .string(sb.name)), ("identifier", .from(sb.identifier))])))
        }
        return .object(m)
    }

    static func size(_ size: Traits.Size) -> JSON {
        .object([("width", .number(size.width)), ("height", .number(size.height))])
    }

    /// The window's traits, with its size when the client gave one (R106).
    static func sessionTraits(_ t: Traits) -> JSON {
        guard case .object(var m) = traits(t) else { return traits(t) }
        if let size = t.size { m.append(("size", self.size(size))) }
        return .object(m)
    }

    static func traits(_ t: Traits) -> JSON {
        .object([
            ("userInterfaceIdiom", .string(t.userInterfaceIdiom.rawValue)),
            ("horizontalSizeClass", .string(t.horizontalSizeClass.rawValue)),
            ("verticalSizeClass", .string(t.verticalSizeClass.rawValue)),
        ])
    }

    static func session(id: String, version: Int, createdAt: String, state s: SessionState) -> JSON {
        .object(
            sessionHead(id: id, version: version, createdAt: createdAt, state: s)
                + [("controllers", .object(s.order.compactMap { id in s.controllers[id].map { (id, controller($0, in: s)) } }))])
    }

    /// The Session members before `controllers`, in reply order.
    static func sessionHead(id: String, version: Int, createdAt: String, state s: SessionState) -> [(String, JSON)] {
        [
            ("id", .string(id)), ("version", .number(Double(version))), ("createdAt", .string(createdAt)),
            ("traits", sessionTraits(s.traits)),
            (
                "options",
                .object(
                    [
                        ("iOS", .string(s.options.iOS.rawValue)), ("transitions", .string(s.options.transitions.rawValue)),
                        ("navTransitionPolicy", .string(s.options.navTransitionPolicy.rawValue)),
                    ]
                        // Release.swift: shown only when not the default, so replies of
                        // `manual` sessions keep the bytes earlier releases sent.
                        + (s.options.release == .manual ? [] : [("release", .string(s.options.release.rawValue))]))
            ),
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
        LegacyJSON.write(.object(members), into: &out)
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
            m.append(
                (
                    "segue",
                    .object([
                        ("identifier", .from(seg.identifier)), ("source", .string(seg.source)),
                        ("destination", .from(seg.destination)),
                    ])
                ))
        }
        if let a = e.action { m.append(("action", .string(a))) }
        if let st = e.style { m.append(("style", .string(st.rawValue))) }
        if let size = e.size { m.append(("size", self.size(size))) }
        if let t = e.traitCollection {
            m.append((e.callback == .willTransitionToTraitCollection ? "traitCollection" : "previousTraitCollection", traits(t)))
        }
        if let names = e.changedTraits { m.append(("traits", .from(names.map(\.rawValue)))) }
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

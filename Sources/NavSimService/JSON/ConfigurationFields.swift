import JSONValues
import NavigationCore

/// The HTTP face of ``ControllerConfiguration``: one entry per client-settable property, read by
/// ControllerSpec decoding, `PATCH …/controllers/{cid}` decoding, the Controller reply
/// (`Encode.controller`) and the OpenAPI test (the schema's `NewController` and `ControllerPatch`
/// properties). Adding a property: the core's type, one entry here, `openapi.yaml`.
enum ConfigurationFields {
    static let all: [ConfigurationField] = [
        .optional("title", \.title, .identity, read: { r, k throws(Problem) in try r.string(k) }, reply: { w, k, c in w.member(k, c.title) }),
        .value(
            "modalPresentationStyle", \.modalPresentationStyle, .styles,
            read: { r, k throws(Problem) in try r.enumValue(k, PresentationStyle.self) },
            reply: { w, k, c in w.member(k, c.modalPresentationStyle.rawValue) }),
        .value(
            "modalTransitionStyle", \.modalTransitionStyle, .styles,
            read: { r, k throws(Problem) in try r.enumValue(k, TransitionStyle.self) },
            reply: { w, k, c in w.member(k, c.modalTransitionStyle.rawValue) }),
        .value(
            "definesPresentationContext", \.definesPresentationContext, .flags,
            read: { r, k throws(Problem) in try r.bool(k) }, reply: { w, k, c in w.member(k, c.definesPresentationContext) }),
        .value(
            "providesPresentationContextTransitionStyle", \.providesPresentationContextTransitionStyle, .flags,
            read: { r, k throws(Problem) in try r.bool(k) }, reply: { w, k, c in w.member(k, c.providesPresentationContextTransitionStyle) }),
        .value(
            "isModalInPresentation", \.isModalInPresentation, .flags,
            read: { r, k throws(Problem) in try r.bool(k) }, reply: { w, k, c in w.member(k, c.isModalInPresentation) }),
        // Listed only when true, so replies of controllers that never set it are unchanged.
        .value(
            "prefersStatusBarHidden", \.prefersStatusBarHidden, .flags,
            read: { r, k throws(Problem) in try r.bool(k) }, reply: { w, k, c in if c.prefersStatusBarHidden { w.member(k, true) } }),
        // Listed only when false (R37), so replies of controllers that never set it are unchanged.
        .value(
            "shouldAutomaticallyForwardAppearanceMethods", \.shouldAutomaticallyForwardAppearanceMethods, .flags,
            read: { r, k throws(Problem) in try r.bool(k) },
            reply: { w, k, c in if !c.shouldAutomaticallyForwardAppearanceMethods { w.member(k, false) } }),
        .optional(
            "traitOverrides", \.traitOverrides, .delegates, read: { r, k throws(Problem) in try r.traitOverrides(k) },
            reply: { w, k, c in
                guard let o = c.traitOverrides else { return }
                w.key(k)
                w.openObject()
                w.member("horizontalSizeClass", o.horizontalSizeClass?.rawValue)
                w.member("verticalSizeClass", o.verticalSizeClass?.rawValue)
                w.closeObject()
            }),
        .optional(
            "transitioningDelegate", \.transitioningDelegate, .delegates,
            read: { r, k throws(Problem) in try r.transitioningDelegate(k) },
            reply: { w, k, c in
                guard let d = c.transitioningDelegate else { return }
                w.key(k)
                w.openObject()
                w.member("name", d.name)
                w.key("duration")
                w.number(d.duration)
                w.closeObject()
            }),
        .optional(
            "presentationDelegate", \.presentationDelegate, .delegates,
            read: { r, k throws(Problem) in try r.presentationDelegate(k) },
            reply: { w, k, c in
                guard let d = c.presentationDelegate else { return }
                w.key(k)
                w.openObject()
                w.member("shouldDismiss", d.shouldDismiss)
                w.member("adaptivePresentationStyle", d.adaptivePresentationStyle?.rawValue)
                // R150, R153: listed only when given, so delegates that never set them reply as before.
                if let v = d.shouldDismissPopover { w.member("shouldDismissPopover", v) }
                if let v = d.viewControllerForAdaptivePresentationStyle { w.member("viewControllerForAdaptivePresentationStyle", v.rawValue) }
                // R161: listed only when given, as above.
                if let v = d.willDismiss { w.member("willDismiss", v) }
                if let v = d.didDismiss { w.member("didDismiss", v) }
                if let v = d.didAttemptToDismiss { w.member("didAttemptToDismiss", v) }
                w.closeObject()
            }),
        .optional(
            "navigationDelegate", \.navigationDelegate, .delegates,
            read: { r, k throws(Problem) in try r.navigationDelegate(k) },
            reply: { w, k, c in
                guard let d = c.navigationDelegate else { return }
                w.key(k)
                w.openObject()
                // R140: the answers are listed only when declared, so earlier replies keep their bytes.
                if let a = d.animationController {
                    w.key("animationController")
                    w.openObject()
                    w.member("name", a.name)
                    w.key("duration")
                    w.number(a.duration)
                    w.closeObject()
                }
                if let i = d.interactionController { w.member("interactionController", i) }
                w.closeObject()
            }),
        .optional(
            "tabBarDelegate", \.tabBarDelegate, .delegates,
            read: { r, k throws(Problem) in try r.tabBarDelegate(k) },
            reply: { w, k, c in
                guard let d = c.tabBarDelegate else { return }
                w.key(k)
                w.openObject()
                w.member("shouldSelect", d.shouldSelect)
                w.closeObject()
            }),
        // R132: listed only when the client set it; absent, every tab is customizable.
        .optional(
            "customizableViewControllers", \.customizableViewControllers, .delegates,
            read: { r, k throws(Problem) in try r.strings(k) },
            reply: { w, k, c in if let list = c.customizableViewControllers { w.member(k, list) } }),
        .optional(
            "pageDataSource", \.pageDataSource, .delegates,
            read: { r, k throws(Problem) in try r.pageDataSource(k) },
            reply: { w, k, c in
                guard let d = c.pageDataSource else { return }
                w.key(k)
                w.openObject()
                w.member("pages", d.pages)
                w.closeObject()
            }),
        .optional(
            "pageDelegate", \.pageDelegate, .delegates,
            read: { r, k throws(Problem) in try r.object(k, allowed: []).map { _ in PageDelegate() } },
            reply: { w, k, c in
                guard c.pageDelegate != nil else { return }
                w.key(k)
                w.openObject()
                w.closeObject()
            }),
        // R110: what code set on `sheetPresentationController`; left out when it set nothing.
        .optional(
            "sheetPresentationController", \.sheetPresentationController, .delegates,
            read: { r, k throws(Problem) in try r.sheetSettings(k) },
            reply: { w, k, c in
                guard let s = c.sheetPresentationController else { return }
                w.key(k)
                w.openObject()
                w.key("detents")
                w.openArray()
                for d in s.detents {
                    w.openObject()
                    w.member("identifier", d.identifier)
                    if let h = d.height {
                        w.key("height")
                        w.number(h)
                    }
                    w.closeObject()
                }
                w.closeArray()
                w.member("selectedDetentIdentifier", s.selectedDetentIdentifier)
                w.member("largestUndimmedDetentIdentifier", s.largestUndimmedDetentIdentifier)
                w.member("prefersGrabberVisible", s.prefersGrabberVisible)
                w.member("prefersScrollingExpandsWhenScrolledToEdge", s.prefersScrollingExpandsWhenScrolledToEdge)
                w.member("hasDelegate", s.hasDelegate)
                w.closeObject()
            }),
        // R152: what code set on `popoverPresentationController`; left out when it set nothing.
        .optional(
            "popoverPresentationController", \.popoverPresentationController, .delegates,
            read: { r, k throws(Problem) in try r.popoverSettings(k) },
            reply: { w, k, c in
                guard let p = c.popoverPresentationController else { return }
                w.key(k)
                w.openObject()
                w.member("passthroughViews", p.passthroughViews)
                w.closeObject()
            }),
        // R124: left out while UIKit's default (nil, `automatic`), so other replies keep their bytes.
        .optional(
            "displayModeButtonVisibility", \.displayModeButtonVisibility, .delegates,
            read: { r, k throws(Problem) in try r.enumValue(k, SplitState.DisplayModeButtonVisibility.self) },
            reply: { w, k, c in if let v = c.displayModeButtonVisibility { w.member(k, v.rawValue) } }),
        // R174: the split's delegate, in a spec or a PATCH (null: none). The core keeps it with the
        // split's columns, so a controller's configuration never holds it and its reply lists it
        // no more than before; this member is written for a configuration that holds one.
        .optional(
            "splitDelegate", \.splitDelegate, .delegates, read: { r, k throws(Problem) in try r.splitDelegate(k) },
            reply: { w, k, c in
                guard let d = c.splitDelegate else { return }
                w.key(k)
                w.openObject()
                if let v = d.collapseSecondaryOntoPrimary { w.member("collapseSecondaryOntoPrimary", v) }
                if let v = d.topColumnForCollapsing { w.member("topColumnForCollapsing", v.rawValue) }
                if let v = d.show { w.member("show", v) }
                if let v = d.showDetail { w.member("showDetail", v) }
                w.closeObject()
            }),
        .optional(
            "preferredContentSize", \.preferredContentSize, .delegates,
            read: { r, k throws(Problem) in try r.size(k) },
            reply: { w, k, c in
                guard let size = c.preferredContentSize else { return }
                w.key(k)
                w.openArray()
                for n in size { w.number(n) }
                w.closeArray()
            }),
        .value(
            "unwindActions", \.unwindActions, .segues,
            read: { r, k throws(Problem) in try r.strings(k) }, reply: { w, k, c in if !c.unwindActions.isEmpty { w.member(k, c.unwindActions) } }),
        // R147, R146: listed only when the class overrides the method.
        .value(
            "canPerformUnwindSegueAction", \.canPerformUnwindSegueAction, .segues, read: { r, k throws(Problem) in try r.boolMap(k) },
            reply: { w, k, c in
                let m = c.canPerformUnwindSegueAction
                guard !m.isEmpty else { return }
                w.key(k)
                w.openObject()
                for (action, answer) in m.sorted(by: { $0.key < $1.key }) {
                    w.key(action)
                    w.bool(answer)
                }
                w.closeObject()
            }),
        .optional(
            "allowedChildrenForUnwinding", \.allowedChildrenForUnwinding, .segues, read: { r, k throws(Problem) in try r.strings(k) },
            reply: { w, k, c in if let ids = c.allowedChildrenForUnwinding { w.member(k, ids) } }),
        // R108: listed only when non-empty, so replies of controllers that never set it are unchanged.
        .value(
            "registersForTraitChanges", \.registersForTraitChanges, .delegates,
            read: { r, k throws(Problem) in
                guard let names = try r.strings(k) else { return nil }
                var out: [Traits.Name] = []
                for n in names {
                    guard let name = Traits.Name(rawValue: n) else {
                        let all = Traits.Name.allCases.map(\.rawValue)
                        throw Problem.invalidField(
                            r.name(k), "'\(n)' is not a trait navsim models. Allowed: \(all.joined(separator: ", ")).", allowed: all)
                    }
                    if !out.contains(name) { out.append(name) }
                }
                return out
            },
            reply: { w, k, c in
                if !c.registersForTraitChanges.isEmpty { w.member(k, c.registersForTraitChanges.map(\.rawValue)) }
            }),
        // Lifecycle code: nested operations, read with the one operation table.
        // The reply lists each method's remaining calls by operation name and receiver.
        ConfigurationField(
            name: "on", section: .segues,
            read: { r, patch, clears, decoder throws(Problem) in
                if let code = try decoder.callbackCode(r, "on") {
                    patch.set(\.on, code)
                } else if clears && r.has("on") {
                    patch.set(\.on, CallbackCode())
                }
            },
            write: { c, w in
                guard !c.on.isEmpty else { return }
                w.key("on")
                w.openObject()
                for m in CallbackCode.Method.allCases {
                    guard let calls = c.on.calls[m] else { continue }
                    w.key(m.rawValue)
                    w.openArray()
                    for call in calls { Encode.call(call, into: &w) }
                    w.closeArray()
                }
                w.closeObject()
            }),
        // An alert's actions, each with its handler's calls listed as `on` lists them.
        ConfigurationField(
            name: "actions", section: .segues,
            read: { r, patch, clears, decoder throws(Problem) in
                if let actions = try decoder.alertActions(r, "actions") {
                    patch.set(\.actions, actions)
                } else if clears && r.has("actions") {
                    patch.set(\.actions, [])
                }
            },
            write: { c, w in
                guard !c.actions.isEmpty else { return }
                w.key("actions")
                w.openArray()
                for a in c.actions {
                    w.openObject()
                    w.member("title", a.title)
                    w.member("style", a.style.rawValue)
                    if !a.handler.isEmpty {
                        w.key("handler")
                        w.openArray()
                        for call in a.handler { Encode.call(call, into: &w) }
                        w.closeArray()
                    }
                    w.closeObject()
                }
                w.closeArray()
            }),
        .value(
            "shouldPerformSegue", \.shouldPerformSegue, .segues, read: { r, k throws(Problem) in try r.boolMap(k) },
            reply: { w, k, c in
                let m = c.shouldPerformSegue
                guard !m.isEmpty else { return }
                w.key(k)
                w.openObject()
                for (identifier, answer) in m.sorted(by: { $0.key < $1.key }) {
                    w.key(identifier)
                    w.bool(answer)
                }
                w.closeObject()
            }),
    ]

    /// The API names, in table order.
    static let names = all.map(\.name)

    /// Is `name` one of ``names``?
    static func isField(_ name: String) -> Bool { position[name] != nil }

    /// Reads every property `r` gives into a patch. `clears`: a PATCH, where null clears an
    /// optional property; in a spec null gives nothing (UIKit's default, or the scene's value).
    /// A property the body does not name sets nothing whichever row reads it, so only the rows of
    /// the members given run (a PATCH of a title reads one, not sixteen).
    static func read(_ r: BodyReader, into patch: inout ControllerPatch, clears: Bool, decoder: Decoder) throws(Problem) {
        // The body's members are looked up in the table, not each row in the body; read in the
        // table's order, so that of several invalid values the same one is reported.
        for i in r.members.compactMap({ position[$0.0] }).sorted() { try all[i].read(r, &patch, clears, decoder) }
    }

    /// Each row's position in ``all``, by name.
    static let position = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1.name, $0) })

    /// Writes the reply members of one section into an open object, in table order; absent
    /// values are left out.
    static func write(_ c: ControllerConfiguration, _ section: ConfigurationField.Section, into w: inout JSONWriter) {
        for f in bySection[section.rawValue] { f.write(c, &w) }
    }

    /// ``all`` split by section once, in table order, indexed by the section's raw value (every
    /// controller reply asks for each section).
    static let bySection: [[ConfigurationField]] = ConfigurationField.Section.allCases.map { section in
        all.filter { $0.section == section }
    }
}

/// One row of ``ConfigurationFields``.
struct ConfigurationField: Sendable {
    /// Where the Controller reply (docs/api.md) lists the property.
    enum Section: Int, Sendable, Hashable, CaseIterable { case identity, styles, flags, delegates, segues }

    let name: String
    let section: Section
    /// Reads the property from the body; the request's decoder reads nested operations (`on`).
    let read: @Sendable (BodyReader, inout ControllerPatch, _ clears: Bool, Decoder) throws(Problem) -> Void
    /// Writes the reply member, name and value, into an open object, or nothing to leave it out.
    let write: @Sendable (ControllerConfiguration, inout JSONWriter) -> Void

    /// Writes a property's reply member under the given name (the field's, encoded once), or
    /// nothing. It reads the property itself (`c.title`), not through the row's key path: a key
    /// path applied at run time (`swift_getAtKeyPath`) cost about 600 instructions a property,
    /// most of a controller's encoding; ConfigurationFieldsTests checks that each
    /// reply shows the property its key path sets.
    typealias Reply = @Sendable (inout JSONWriter, JSONWriter.Key, ControllerConfiguration) -> Void

    /// A property with a non-optional value: absent or null sets nothing.
    static func value<T>(
        _ name: String, _ keyPath: any WritableKeyPath<ControllerConfiguration, T> & Sendable, _ section: Section,
        read: @escaping @Sendable (BodyReader, String) throws(Problem) -> T?,
        reply: @escaping Reply
    ) -> ConfigurationField {
        let key = JSONWriter.Key(name)
        return ConfigurationField(
            name: name, section: section,
            read: { r, patch, _, _ throws(Problem) in
                if let v = try read(r, name) { patch.set(keyPath, v) }
            }, write: { c, w in reply(&w, key, c) })
    }

    /// An optional property: in a PATCH, null clears it.
    static func optional<T>(
        _ name: String, _ keyPath: any WritableKeyPath<ControllerConfiguration, T?> & Sendable, _ section: Section,
        read: @escaping @Sendable (BodyReader, String) throws(Problem) -> T?,
        reply: @escaping Reply
    ) -> ConfigurationField {
        let key = JSONWriter.Key(name)
        return ConfigurationField(
            name: name, section: section,
            read: { r, patch, clears, _ throws(Problem) in
                if clears && r.has(name) {
                    patch.set(keyPath, try read(r, name))
                } else if let v = try read(r, name) {
                    patch.set(keyPath, v)
                }
            }, write: { c, w in reply(&w, key, c) })
    }
}

/// Readers of the configuration's structured values.
extension BodyReader {
    /// `{"name", "duration"?}`: a custom animator; duration in seconds, 0…3600, default 0.3.
    func transitioningDelegate(_ key: String) throws(Problem) -> TransitioningDelegate? {
        guard let d = try object(key, allowed: ["name", "duration"]) else { return nil }
        let duration = try d.number("duration") ?? 0.3
        guard duration >= 0, duration <= 3600 else { throw Problem.invalidField(d.name("duration"), "duration is in seconds, 0…3600.") }
        return TransitioningDelegate(name: try d.requiredString("name"), duration: duration)
    }

    /// `{"shouldDismiss"?, "adaptivePresentationStyle"?, "shouldDismissPopover"?,
    /// "viewControllerForAdaptivePresentationStyle"?, "willDismiss"?, "didDismiss"?,
    /// "didAttemptToDismiss"?}` (R47–R52, R150, R153, R161).
    func presentationDelegate(_ key: String) throws(Problem) -> PresentationDelegate? {
        let members = [
            "shouldDismiss", "adaptivePresentationStyle", "shouldDismissPopover", "viewControllerForAdaptivePresentationStyle",
            "willDismiss", "didDismiss", "didAttemptToDismiss",
        ]
        guard let d = try object(key, allowed: members) else { return nil }
        return PresentationDelegate(
            shouldDismiss: try d.bool("shouldDismiss"),
            adaptivePresentationStyle: try d.enumValue("adaptivePresentationStyle", PresentationStyle.self),
            shouldDismissPopover: try d.bool("shouldDismissPopover"),
            viewControllerForAdaptivePresentationStyle: try d.enumValue("viewControllerForAdaptivePresentationStyle", AdaptiveReplacement.self),
            willDismiss: try d.bool("willDismiss"), didDismiss: try d.bool("didDismiss"),
            didAttemptToDismiss: try d.bool("didAttemptToDismiss"))
    }

    /// `{"passthroughViews"?: [id]}` (R152): the controllers whose views take taps outside the popover.
    func popoverSettings(_ key: String) throws(Problem) -> PopoverSettings? {
        guard let d = try object(key, allowed: ["passthroughViews"]) else { return nil }
        let views = try d.strings("passthroughViews") ?? []
        for id in views where !Names.isControllerID(id) {
            throw Problem.invalidField(d.name("passthroughViews"), Names.controllerIDRefusal(id))
        }
        return PopoverSettings(passthroughViews: views)
    }

    /// `{"animationController"?: {"name", "duration"?}, "interactionController"?: name}`: the
    /// navigation controller has a delegate (R82), with the answers it declares (R140).
    func navigationDelegate(_ key: String) throws(Problem) -> NavigationDelegate? {
        guard let d = try object(key, allowed: ["animationController", "interactionController"]) else { return nil }
        let interaction = try d.string("interactionController")
        if let i = interaction, i.isEmpty {
            throw Problem.invalidField(d.name("interactionController"), "interactionController names the interaction controller; it cannot be empty.")
        }
        return NavigationDelegate(animationController: try d.transitioningDelegate("animationController"), interactionController: interaction)
    }

    /// `{"collapseSecondaryOntoPrimary"?, "topColumnForCollapsing"?, "show"?, "showDetail"?}`: a
    /// split view controller's delegate (R90–R92, R122, R174). Classic splits ask the first and
    /// `show`, `showDetail`; column-style splits the second; neither the other.
    func splitDelegate(_ key: String) throws(Problem) -> SplitDelegate? {
        guard let d = try object(key, allowed: ["collapseSecondaryOntoPrimary", "topColumnForCollapsing", "show", "showDetail"]) else {
            return nil
        }
        var delegate = SplitDelegate(collapseSecondaryOntoPrimary: try d.bool("collapseSecondaryOntoPrimary"))
        if let top = try d.string("topColumnForCollapsing") {
            // R125: the inspector is never the collapsed interface's top column.
            let allowed = ["primary", "supplementary", "secondary"]
            guard allowed.contains(top), let column = SplitState.Column(rawValue: top) else {
                let name = d.name("topColumnForCollapsing")
                throw Problem.invalidField(name, "'\(top)' is not a valid \(name). Allowed: \(allowed.joined(separator: ", ")).", allowed: allowed)
            }
            delegate.topColumnForCollapsing = column
        }
        delegate.show = try d.bool("show")
        delegate.showDetail = try d.bool("showDetail")
        return delegate
    }

    /// `{"shouldSelect"?: bool}` (R87).
    func tabBarDelegate(_ key: String) throws(Problem) -> TabBarDelegate? {
        guard let d = try object(key, allowed: ["shouldSelect"]) else { return nil }
        return TabBarDelegate(shouldSelect: try d.bool("shouldSelect"))
    }

    /// `{"pages": [id, …]}` (R130): the data source's pages in order, each once.
    func pageDataSource(_ key: String) throws(Problem) -> PageDataSource? {
        guard let d = try object(key, allowed: ["pages"]) else { return nil }
        guard let pages = try d.strings("pages") else { throw Problem.invalidField(d.name("pages"), "\(d.name("pages")) is required.") }
        guard Set(pages).count == pages.count else {
            throw Problem.invalidField(d.name("pages"), "\(d.name("pages")) lists a page twice; a data source answers one page before and after each.")
        }
        return PageDataSource(pages: pages)
    }

    /// `{"horizontalSizeClass"?, "verticalSizeClass"?}` (R74).
    func traitOverrides(_ key: String) throws(Problem) -> TraitOverrides? {
        guard let d = try object(key, allowed: ["horizontalSizeClass", "verticalSizeClass"]) else { return nil }
        return TraitOverrides(
            horizontalSizeClass: try d.enumValue("horizontalSizeClass", Traits.SizeClass.self),
            verticalSizeClass: try d.enumValue("verticalSizeClass", Traits.SizeClass.self))
    }

    /// `{"detents"?, "selectedDetentIdentifier"?, "largestUndimmedDetentIdentifier"?,
    /// "prefersGrabberVisible"?, "prefersScrollingExpandsWhenScrolledToEdge"?, "hasDelegate"?}`
    /// (R110); what it leaves out keeps UIKit's default. Settings UIKit cannot take are a 422 (R113).
    func sheetSettings(_ key: String) throws(Problem) -> SheetSettings? {
        let members = [
            "detents", "selectedDetentIdentifier", "largestUndimmedDetentIdentifier", "prefersGrabberVisible",
            "prefersScrollingExpandsWhenScrolledToEdge", "hasDelegate",
        ]
        guard let d = try object(key, allowed: members) else { return nil }
        var s = SheetSettings()
        if let v = d.raw("detents"), !v.isNull {
            guard let items = v.array else {
                throw Problem.invalidField(d.name("detents"), "\(d.name("detents")) is an array of {\"identifier\", \"height\"?} objects, smallest first.")
            }
            s.detents = []
            for (i, item) in items.enumerated() {
                let one = try BodyReader(item, path: "\(d.name("detents"))[\(i)]", allowed: ["identifier", "height"])
                s.detents.append(SheetSettings.Detent(identifier: try one.requiredString("identifier"), height: try one.number("height")))
            }
        }
        s.selectedDetentIdentifier = try d.string("selectedDetentIdentifier")
        s.largestUndimmedDetentIdentifier = try d.string("largestUndimmedDetentIdentifier")
        s.prefersGrabberVisible = try d.bool("prefersGrabberVisible") ?? false
        s.prefersScrollingExpandsWhenScrolledToEdge = try d.bool("prefersScrollingExpandsWhenScrolledToEdge") ?? true
        s.hasDelegate = try d.bool("hasDelegate") ?? false
        if let why = s.invalidity { throw Problem.invalidField(d.name("detents"), "\(name(key)): \(why)") }
        return s
    }

    /// `[width, height]` in points, finite and not negative.
    func size(_ key: String) throws(Problem) -> [Double]? {
        guard let v = raw(key), !v.isNull else { return nil }
        // Finite only: `1e400` parses as infinity, which has no JSON spelling to answer with.
        guard let a = v.array, a.count == 2, let w = a[0].number, let h = a[1].number, w >= 0, h >= 0,
            w.isFinite, h.isFinite
        else {
            throw Problem.invalidField(name(key), "\(name(key)) is [width, height] in points.")
        }
        return [w, h]
    }

    /// `{"identifier": bool, …}`: segue identifiers to `shouldPerformSegue` answers.
    func boolMap(_ key: String) throws(Problem) -> [String: Bool]? {
        guard let v = raw(key), !v.isNull else { return nil }
        guard let o = v.object else { throw Problem.invalidField(name(key), "\(name(key)) maps segue identifiers to true/false.") }
        var out: [String: Bool] = [:]
        for (k, b) in o {
            guard let b = b.bool else { throw Problem.invalidField("\(name(key)).\(k)", "\(name(key)).\(k) must be true or false.") }
            out[k] = b
        }
        return out
    }
}

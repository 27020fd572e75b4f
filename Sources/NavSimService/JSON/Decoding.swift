import JSONValues
import NavigationCore

/// Instantiates storyboard scenes for ControllerSpecs `{"storyboard", "identifier"?}` (R101, R102),
/// counting every scene it builds against `budget` from nesting `depth` on.
/// Returns nil for a storyboard without an entry point (UIKit's nil); throws a 409 D19/D20, or a
/// 422 `limit-exceeded` when the scene tree would exceed the budget.
typealias StoryboardInstantiator = (_ name: String, _ identifier: String?, _ budget: SpecBudget, _ depth: Int) throws(Problem) -> ControllerSpec?

/// Turns request bodies into core values, rejecting unknown fields and enum values with 422.
/// One per request: its `budget` counts the ControllerSpecs the whole request creates (``Limits``).
struct Decoder {
    let instantiate: StoryboardInstantiator
    let budget: SpecBudget

    /// The ControllerSpec fields: its own, then the client-settable properties (``ConfigurationFields``).
    static let specFields =
        ["id", "kind", "class"] + ConfigurationFields.names + [
            "viewControllers", "selectedIndex", "primary", "supplementary", "secondary", "compact", "inspector", "style",
            "transitionStyle", "spineLocation", "isDoubleSided", "children", "preferredStyle",
            "storyboard", "identifier",
        ]

    /// Refuses a field only some kinds take (``KindProperties/all``: UIKit declares those
    /// properties on those classes only) given, not null, to a spec or a PATCH whose kind (the
    /// spec's own, its storyboard scene's, or the patched controller's) has no such property: a
    /// 422, not ignored.
    func checkKindFields(_ r: BodyReader, kind: ControllerKind) throws(Problem) {
        let given = r.members.lazy.filter { !$0.1.isNull }.map(\.0)
        if let (name, row) = KindProperties.firstLacked(given, by: kind) {
            throw Problem.invalidField(r.name(name), row.refusal(r.name(name), on: kind))
        }
    }

    /// A ControllerSpec: null (UIKit's nil), a string id, or an object.
    /// `depth` is how many specs enclose this one (``Limits/specDepth``).
    func ref(_ json: JSON?, path: String, depth: Int = 0) throws(Problem) -> ControllerRef {
        guard let json, !json.isNull else { return .none }
        if let id = json.string { return .existing(id) }
        guard let spec = try spec(json, path: path, depth: depth) else { return .none }
        return .new(spec)
    }

    /// An array of ControllerSpecs, no longer than ``Limits/specWidth`` (checked before any is read).
    func refs(_ json: JSON?, path: String, depth: Int = 0) throws(Problem) -> [ControllerRef]? {
        guard let json, !json.isNull else { return nil }
        guard let items = json.array else { throw Problem.invalidField(path, "\(path) must be an array of ControllerSpecs.") }
        try budget.checkWidth(items.count, path: path)
        var out: [ControllerRef] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() { out.append(try ref(item, path: "\(path)[\(i)]", depth: depth)) }
        return out
    }

    /// Reads a ControllerSpec object; nil when it names a storyboard without an entry point.
    /// Counted against the budget before anything in it is read, so an oversized request stops
    /// at the first spec over the limit.
    func spec(_ json: JSON, path: String, depth: Int = 0) throws(Problem) -> ControllerSpec? {
        let r = try BodyReader(json, path: path, allowed: Self.specFields)
        var spec: ControllerSpec
        if let storyboard = try r.string("storyboard") {
            let identifier = try r.string("identifier")
            // The instantiator counts each scene it builds, this one included.
            guard let s = try instantiate(storyboard, identifier, budget, depth) else { return nil }
            spec = s
        } else {
            try budget.take(depth: depth, path: path)
            if r.has("identifier") { throw Problem.invalidField(r.name("identifier"), "identifier goes with storyboard.") }
            spec = ControllerSpec(kind: try r.enumValue("kind", ControllerKind.self) ?? .viewController)
        }
        if let id = try r.string("id") {
            // Checked here too (the core checks every new id) so the problem names the field's path.
            guard Names.isControllerID(id) else { throw Problem.invalidField(r.name("id"), Names.controllerIDRefusal(id)) }
            spec.id = id
            spec.appendsSuffixWhenTaken = false
        }
        if r.has("kind"), spec.storyboard != nil, let k = try r.enumValue("kind", ControllerKind.self), k != spec.kind {
            throw Problem.invalidField(r.name("kind"), "kind cannot change a storyboard scene's kind (\(spec.kind.rawValue)).")
        }
        if let v = try r.string("class") { spec.className = v }
        try checkKindFields(r, kind: spec.kind)
        try checkEntries(r)
        try ConfigurationFields.read(r, into: &spec.configuration, clears: false, decoder: self)
        if let v = try refs(r.raw("viewControllers"), path: r.name("viewControllers"), depth: depth + 1) { spec.viewControllers = v }
        if let v = try r.int("selectedIndex") { spec.selectedIndex = v }
        if r.has("primary") { spec.primary = try ref(r.raw("primary"), path: r.name("primary"), depth: depth + 1) }
        if r.has("supplementary") { spec.supplementary = try ref(r.raw("supplementary"), path: r.name("supplementary"), depth: depth + 1) }
        if r.has("secondary") { spec.secondary = try ref(r.raw("secondary"), path: r.name("secondary"), depth: depth + 1) }
        if r.has("compact") { spec.compact = try ref(r.raw("compact"), path: r.name("compact"), depth: depth + 1) }
        if r.has("inspector") { spec.inspector = try ref(r.raw("inspector"), path: r.name("inspector"), depth: depth + 1) }
        if let v = try r.enumValue("style", SplitState.Style.self) { spec.splitStyle = v }
        if let v = try r.enumValue("transitionStyle", PageState.Style.self) { spec.pageTransitionStyle = v }
        if let v = try r.enumValue("spineLocation", PageState.SpineLocation.self) { spec.spineLocation = v }
        if let v = try r.bool("isDoubleSided") { spec.isDoubleSided = v }
        if let v = try refs(r.raw("children"), path: r.name("children"), depth: depth + 1) { spec.children = v }
        if let v = try r.string("preferredStyle") {
            guard let style = AlertStyle(rawValue: v) else {
                throw Problem.invalidField(r.name("preferredStyle"), "preferredStyle is alert or actionSheet.", allowed: ["alert", "actionSheet"])
            }
            spec.preferredStyle = style
        }
        return spec
    }

    /// ControllerSpec fields settable at run time (`PATCH …/controllers/{cid}`).
    /// `kind`: the patched controller's, when it exists; a property it lacks is refused as in
    /// a spec (``checkKindFields(_:kind:)``): any value but null, an empty list too.
    func patch(_ json: JSON, kind: ControllerKind?) throws(Problem) -> ControllerPatch {
        let r = try BodyReader(json, allowed: ConfigurationFields.names)
        var p = ControllerPatch()
        if let kind { try checkKindFields(r, kind: kind) }
        try checkEntries(r)
        try ConfigurationFields.read(r, into: &p, clears: true, decoder: self)
        return p
    }

    /// Every list or map a configuration field is given (`unwindActions`, `shouldPerformSegue`),
    /// and every list directly inside such a map, has at most ``Limits/specWidth`` entries: each
    /// is kept with the controller and encoded in every reply, and 1 MiB holds 200,000 of them.
    /// Checked before any is read, on the members the body has rather than by looking up every
    /// field's name (a PATCH sets one or two).
    func checkEntries(_ r: BodyReader) throws(Problem) {
        for (name, value) in r.members where ConfigurationFields.isField(name) {
            if let items = value.array { try budget.checkEntries(items.count, path: r.name(name)) }
            if let members = value.object {
                try budget.checkEntries(members.count, path: r.name(name))
                // A list inside one (`pageDataSource.pages`, `popoverPresentationController.passthroughViews`,
                // a method's calls in `on`) is kept and encoded the same way.
                for (key, member) in members {
                    if let items = member.array { try budget.checkEntries(items.count, path: r.name("\(name).\(key)")) }
                }
            }
        }
    }

    func traits(_ json: JSON?, path: String, base: Traits) throws(Problem) -> Traits {
        guard let json, !json.isNull else { return base }
        let r = try BodyReader(json, path: path, allowed: ["userInterfaceIdiom", "horizontalSizeClass", "verticalSizeClass", "size"])
        var t = base
        if let v = try r.enumValue("userInterfaceIdiom", Traits.Idiom.self) {
            // From the default traits, naming the device gives its window's size classes
            // (Traits.defaults(for:), R19); the size classes given below override them.
            if base == .phonePortrait { t = Traits.defaults(for: v) } else { t.userInterfaceIdiom = v }
        }
        if let size = try windowSize(r, "size") {
            // R107: a size alone gives the size classes UIKit's table has for it on this idiom.
            t.size = size
            (t.horizontalSizeClass, t.verticalSizeClass) = Traits.sizeClasses(idiom: t.userInterfaceIdiom, size: size)
        }
        if let v = try r.enumValue("horizontalSizeClass", Traits.SizeClass.self) { t.horizontalSizeClass = v }
        if let v = try r.enumValue("verticalSizeClass", Traits.SizeClass.self) { t.verticalSizeClass = v }
        return t
    }

    /// R106: `traits.size`, `{"width", "height"}` in points, each above 0 and at most 100,000.
    private func windowSize(_ r: BodyReader, _ key: String) throws(Problem) -> Traits.Size? {
        guard let raw = r.raw(key), !raw.isNull else { return nil }
        let o = try BodyReader(raw, path: r.name(key), allowed: ["width", "height"])
        var sides: [Double] = []
        for side in ["width", "height"] {
            guard let v = o.raw(side)?.number, v > 0, v <= 100_000 else {
                throw Problem.invalidField(o.name(side), "\(o.name(side)) is required: a number of points above 0 and at most 100000.")
            }
            sides.append(v)
        }
        return Traits.Size(width: sides[0], height: sides[1])
    }

    /// One operation's body (docs/api.md, "Operations"); `receiver` is the path's controller.
    /// The fields allowed and the decoding come from the operation's entry in ``Operations``.
    func operation(_ name: String, receiver: ControllerID, body: JSON) throws(Problem) -> Command {
        guard let entry = Operations.byName[name] else { throw Problem.unknownOperation(name) }
        let r = try BodyReader(body, allowed: entry.fields + ["animated"])
        let animated = try r.bool("animated") ?? true
        return try entry.decode(OperationBody(name: name, receiver: receiver, reader: r, decoder: self, animated: animated))
    }

    /// `on`: `{"<method>": [{"operation", "receiver"?, "once"?, …the operation's body}, …]}`,
    /// lifecycle code (``CallbackCode``). Each operation is decoded by its entry in ``Operations``;
    /// `receiver` defaults to the controller itself. A bad nested operation is a 422 whose
    /// `field` points into it (`on.viewDidAppear[0].viewController`). Nil when absent or null.
    /// A nested `performSegue`/`triggerSegue` is kept without its destination: the scene is
    /// instantiated when the method runs (``NestedSegues``), not now.
    func callbackCode(_ r: BodyReader, _ key: String) throws(Problem) -> CallbackCode? {
        guard let v = r.raw(key), !v.isNull else { return nil }
        let path = r.name(key)
        let methods = CallbackCode.Method.allCases.map(\.rawValue)
        guard let members = v.object else {
            throw Problem.invalidField(path, "\(path) maps lifecycle methods to arrays of operations.", allowed: methods)
        }
        var calls: [CallbackCode.Method: [CallbackCode.Call]] = [:]
        for (name, list) in members {
            guard let method = CallbackCode.Method(rawValue: name) else {
                throw Problem.invalidField("\(path).\(name)", "Code runs only in viewDidLoad and the appearance callbacks.", allowed: methods)
            }
            guard let items = list.array else { throw Problem.invalidField("\(path).\(name)", "\(path).\(name) must be an array of operations.") }
            calls[method] = try self.calls(items, path: "\(path).\(name)")
        }
        return CallbackCode(calls)
    }

    /// A list of nested operations (lifecycle code, an alert action's handler): each
    /// `{"operation", "receiver"?, "once"?, …the operation's body}`, decoded by its entry in
    /// ``Operations``; `receiver` defaults to ``CallbackCode/selfReceiver``.
    func calls(_ items: [JSON], path: String) throws(Problem) -> [CallbackCode.Call] {
        try budget.checkEntries(items.count, path: path)
        var out: [CallbackCode.Call] = []
        for (i, item) in items.enumerated() {
            let at = "\(path)[\(i)]"
            guard let body = item.object else { throw Problem.invalidField(at, "\(at) must be an operation object.") }
            guard let op = body.first(where: { $0.0 == "operation" })?.1.string else {
                throw Problem.invalidField("\(at).operation", "\(at).operation is required: an operation's name.", allowed: Operations.all.map(\.name))
            }
            let receiver = body.first(where: { $0.0 == "receiver" })?.1
            if let receiver, receiver.string == nil { throw Problem.invalidField("\(at).receiver", "receiver is a controller id.") }
            let once = body.first(where: { $0.0 == "once" })?.1
            if let once, once.bool == nil { throw Problem.invalidField("\(at).once", "once is true or false.") }
            let rest = JSON.object(body.filter { !["operation", "receiver", "once"].contains($0.0) })
            do {
                let command = try operation(op, receiver: receiver?.string ?? CallbackCode.selfReceiver, body: rest)
                out.append(CallbackCode.Call(command, once: once?.bool ?? false))
            } catch  where error.slug == "unknown-operation" {
                throw Problem.invalidField("\(at).operation", error.detail, allowed: Operations.names)
            } catch {
                var p = error
                p.field = p.field.map { "\(at).\($0)" } ?? at
                throw p
            }
        }
        return out
    }

    /// `actions`: `[{"title"?, "style"?, "handler"?}, …]`, an alert's `UIAlertAction`s in the
    /// order `addAction(_:)` adds them (R103). `handler` is a list of operations run when a user
    /// taps the action, `self` being the controller that presented the alert. Nil when absent
    /// or null.
    func alertActions(_ r: BodyReader, _ key: String) throws(Problem) -> [AlertAction]? {
        guard let v = r.raw(key), !v.isNull else { return nil }
        let path = r.name(key)
        guard let items = v.array else { throw Problem.invalidField(path, "\(path) must be an array of {title, style, handler}.") }
        var out: [AlertAction] = []
        for (i, item) in items.enumerated() {
            let a = try BodyReader(item, path: "\(path)[\(i)]", allowed: ["title", "style", "handler"])
            var action = AlertAction(title: try a.string("title"), style: try a.enumValue("style", AlertAction.Style.self) ?? .default)
            if let h = a.raw("handler"), !h.isNull {
                guard let list = h.array else { throw Problem.invalidField(a.name("handler"), "\(a.name("handler")) must be an array of operations.") }
                action.handler = try calls(list, path: a.name("handler"))
                // A handler runs once per tap by nature; `once` is lifecycle code's.
                if let first = action.handler.firstIndex(where: \.once) {
                    throw Problem.invalidField("\(a.name("handler"))[\(first)].once", "once is for lifecycle code; a handler runs each time its action is tapped.")
                }
            }
            out.append(action)
        }
        return out
    }

    /// `present`'s `popover`: `{"sourceView"?, "barButtonItem"?, "sourceItem"?, "sourceRect"?}`
    /// (`sourceItem` is read as a bar button item when `barButtonItem` is absent).
    func popover(_ r: BodyReader) throws(Problem) -> PopoverAnchor? {
        guard let p = try r.object("popover", allowed: ["sourceView", "barButtonItem", "sourceRect", "sourceItem"]) else { return nil }
        var rect: [Double]?
        if let v = p.raw("sourceRect"), !v.isNull {
            guard let a = v.array, a.count == 4, a.allSatisfy({ $0.number?.isFinite == true }) else {
                throw Problem.invalidField("popover.sourceRect", "sourceRect is [x, y, width, height] in points.")
            }
            rect = a.compactMap(\.number)
        }
        var item = try p.string("barButtonItem")
        if item == nil { item = try p.string("sourceItem") }
        return PopoverAnchor(sourceView: try p.string("sourceView"), barButtonItem: item, sourceRect: rect)
    }
}

/// What an operation's decoding reads: the receiver (the path's or the turn entry's
/// `controller`), the body (its fields already checked against the entry's list) and the
/// request's decoder, with the readings most operations share.
struct OperationBody {
    let name: String
    let receiver: ControllerID
    let reader: BodyReader
    let decoder: Decoder
    /// `animated`, true when absent (docs/api.md); read before anything else, for every operation.
    let animated: Bool

    /// `viewController` as a ControllerSpec reference (null is UIKit's nil).
    func viewController() throws(Problem) -> ControllerRef { try decoder.ref(reader.raw("viewController"), path: "viewController") }
    /// A required controller id.
    func id(_ key: String) throws(Problem) -> ControllerID { try reader.requiredString(key) }
    /// `column` of `showColumn`/`hideColumn`: required, a `UISplitViewController.Column` navsim models.
    func column() throws(Problem) -> SplitState.Column {
        guard let c = try reader.enumValue("column", SplitState.Column.self) else {
            throw Problem.invalidField(reader.name("column"), "\(reader.name("column")) is required.")
        }
        return c
    }
    /// `completes`, true when absent (interactive gestures).
    var completes: Bool { get throws(Problem) { try reader.bool("completes") ?? true } }

    /// `select`/`tapTab`: `index` or `viewController`, at least one.
    func tab() throws(Problem) -> (index: Int?, viewController: ControllerID?) {
        let index = try reader.int("index"), target = try reader.string("viewController")
        if index == nil && target == nil { throw Problem.invalidField("index", "\(name) needs index or viewController.") }
        return (index, target)
    }

    /// `performSegue`/`triggerSegue`: `destination: {"id": …}`, the id the new instance takes
    /// instead of its scene's (docs/api.md). Answers a spec holding only that id (no storyboard), which
    /// the storyboard layer replaces by the destination scene under that id; nil when absent.
    /// An id already in use is refused by the core when the scene is instantiated (422).
    func namedDestination() throws(Problem) -> ControllerSpec? {
        guard let d = try reader.object("destination", allowed: ["id"]) else { return nil }
        let id = try d.requiredString("id")
        guard Names.isControllerID(id) else { throw Problem.invalidField("destination.id", Names.controllerIDRefusal(id)) }
        return ControllerSpec(id: id)
    }

    /// `willMove`/`didMove`: `toParent`, required, null for nil.
    func toParent() throws(Problem) -> ControllerID? {
        guard reader.has("toParent") else { throw Problem.invalidField("toParent", "toParent is required (null for nil).") }
        return try reader.string("toParent")
    }
}

/// One operation of `POST …/controllers/{cid}/{operation}` and of turns: its name, the body
/// fields it takes besides `animated`, its decoding into a core ``Command``, and a one-line
/// summary. Adding an operation is one entry here; docs/architecture.md ("An operation") lists
/// the other places (the core, its stored form, openapi.yaml, docs/api.md).
struct OperationEntry: Sendable {
    let name: String
    let fields: [String]
    let summary: String
    let decode: @Sendable (OperationBody) throws(Problem) -> Command

    init(_ name: String, _ fields: [String], _ summary: String, _ decode: @escaping @Sendable (OperationBody) throws(Problem) -> Command) {
        self.name = name
        self.fields = fields
        self.summary = summary
        self.decode = decode
    }
}

/// The operations of docs/api.md: the one table the decoder, unknown-field checks, the 404
/// `unknown-operation` listing and the OpenAPI test read.
enum Operations {
    static let all: [OperationEntry] = [
        OperationEntry(
            "present", ["viewController", "modalPresentationStyle", "modalTransitionStyle", "popover"],
            "present(_:animated:) with optional style overrides and popover anchor"
        ) { o throws(Problem) in
            let popover = try o.decoder.popover(o.reader)
            if !o.reader.has("viewController") { throw Problem.invalidField("viewController", "viewController is required (null is UIKit's nil).") }
            return .present(
                receiver: o.receiver, viewController: try o.viewController(),
                style: try o.reader.enumValue("modalPresentationStyle", PresentationStyle.self),
                transitionStyle: try o.reader.enumValue("modalTransitionStyle", TransitionStyle.self),
                popover: popover, animated: o.animated)
        },
        OperationEntry("dismiss", [], "dismiss(animated:)") { o throws(Problem) in .dismiss(receiver: o.receiver, animated: o.animated) },
        OperationEntry("show", ["viewController"], "show(_:sender:)") { o throws(Problem) in
            .show(receiver: o.receiver, viewController: try o.viewController(), animated: o.animated)
        },
        OperationEntry("showDetail", ["viewController"], "showDetailViewController(_:sender:)") { o throws(Problem) in
            .showDetail(receiver: o.receiver, viewController: try o.viewController(), animated: o.animated)
        },
        OperationEntry("push", ["viewController"], "pushViewController(_:animated:)") { o throws(Problem) in
            .push(receiver: o.receiver, viewController: try o.viewController(), animated: o.animated)
        },
        OperationEntry("pop", [], "popViewController(animated:)") { o throws(Problem) in .pop(receiver: o.receiver, animated: o.animated) },
        OperationEntry("popToRoot", [], "popToRootViewController(animated:)") { o throws(Problem) in
            .popToRoot(receiver: o.receiver, animated: o.animated)
        },
        OperationEntry("popTo", ["viewController"], "popToViewController(_:animated:)") { o throws(Problem) in
            .popTo(receiver: o.receiver, viewController: try o.id("viewController"), animated: o.animated)
        },
        OperationEntry(
            "setViewControllers", ["viewControllers", "direction"],
            "setViewControllers(_:animated:) of a navigation, tab bar or page view controller"
        ) { o throws(Problem) in
            guard let list = try o.decoder.refs(o.reader.raw("viewControllers"), path: "viewControllers") else {
                throw Problem.invalidField("viewControllers", "viewControllers is required.")
            }
            var direction: PageDirection?
            if let s = try o.reader.string("direction") {
                guard let d = PageDirection(rawValue: s) else {
                    throw Problem.invalidField("direction", "direction must be forward or reverse.")
                }
                direction = d
            }
            return .setViewControllers(
                receiver: o.receiver, viewControllers: list, direction: direction,
                animated: o.animated)
        },
        OperationEntry("select", ["index", "viewController"], "selectedIndex / selectedViewController set in code") { o throws(Problem) in
            let t = try o.tab()
            return .select(receiver: o.receiver, index: t.index, viewController: t.viewController)
        },
        OperationEntry("tapTab", ["index", "viewController"], "a user's tap on a tab (asks the delegate)") { o throws(Problem) in
            let t = try o.tab()
            return .tapTab(receiver: o.receiver, index: t.index, viewController: t.viewController)
        },
        OperationEntry("addChild", ["viewController"], "addChild(_:)") { o throws(Problem) in
            .addChild(receiver: o.receiver, viewController: try o.viewController())
        },
        OperationEntry("removeFromParent", [], "removeFromParent()") { o throws(Problem) in .removeFromParent(receiver: o.receiver) },
        OperationEntry("willMove", ["toParent"], "willMove(toParent:)") { o throws(Problem) in
            .willMove(receiver: o.receiver, toParent: try o.toParent())
        },
        OperationEntry("didMove", ["toParent"], "didMove(toParent:)") { o throws(Problem) in
            .didMove(receiver: o.receiver, toParent: try o.toParent())
        },
        OperationEntry("addSubview", ["viewController"], "the child's view added to the receiver's view") { o throws(Problem) in
            .addSubview(receiver: o.receiver, viewController: try o.id("viewController"), animated: o.animated)
        },
        OperationEntry("removeFromSuperview", [], "the receiver's view removed from its superview") { o throws(Problem) in
            .removeFromSuperview(receiver: o.receiver, animated: o.animated)
        },
        OperationEntry("transitionChild", ["from", "to"], "transition(from:to:duration:options:animations:completion:)") { o throws(Problem) in
            .transitionChild(receiver: o.receiver, from: try o.id("from"), to: try o.id("to"), animated: o.animated)
        },
        OperationEntry("performSegue", ["identifier", "sender", "destination"], "performSegue(withIdentifier:sender:)") { o throws(Problem) in
            .performSegue(receiver: o.receiver, identifier: try o.id("identifier"), destination: try o.namedDestination())
        },
        OperationEntry("triggerSegue", ["segue", "sender", "destination"], "a user's action firing a segue (asks shouldPerformSegue)") { o throws(Problem) in
            .triggerSegue(receiver: o.receiver, identifier: try o.id("segue"), destination: try o.namedDestination())
        },
        OperationEntry("interactiveDismiss", ["completes", "tappedView"], "a swipe-down dismissal or a tap outside a popover, completed or cancelled") {
            o throws(Problem) in
            .interactiveDismiss(receiver: o.receiver, completes: try o.completes, tappedView: try o.reader.string("tappedView"))
        },
        OperationEntry("interactivePop", ["completes", "gesture"], "a user's swipe back (edge, or content on iOS 26), completed or cancelled") {
            o throws(Problem) in
            .interactivePop(
                receiver: o.receiver, completes: try o.completes,
                gesture: try o.reader.enumValue("gesture", PopGesture.self) ?? .edge)
        },
        OperationEntry("beginAppearanceTransition", ["isAppearing"], "beginAppearanceTransition(_:animated:) on a child (R105)") { o throws(Problem) in
            guard let isAppearing = try o.reader.bool("isAppearing") else {
                throw Problem.invalidField("isAppearing", "isAppearing is required: true when the child's view is about to appear, false when it is about to disappear.")
            }
            return .beginAppearanceTransition(receiver: o.receiver, isAppearing: isAppearing, animated: o.animated)
        },
        OperationEntry("endAppearanceTransition", [], "endAppearanceTransition() on a child (R105)") { o throws(Problem) in
            .endAppearanceTransition(receiver: o.receiver)
        },
        OperationEntry("tapAlertAction", ["index", "title"], "a user's tap on an alert's action: the alert dismisses, then the handler runs") {
            o throws(Problem) in
            let index = try o.reader.int("index"), title = try o.reader.string("title")
            if (index == nil) == (title == nil) { throw Problem.invalidField("index", "tapAlertAction takes exactly one of index and title.") }
            return .tapAlertAction(receiver: o.receiver, index: index, title: title, animated: o.animated)
        },
        OperationEntry("dragSheet", ["detent"], "a user dragging the top sheet to one of its detents (R111)") { o throws(Problem) in
            .dragSheet(receiver: o.receiver, detent: try o.id("detent"))
        },
        OperationEntry("setNeedsUpdateProperties", [], "setNeedsUpdateProperties() (iOS 26): updateProperties() at the next layout pass") {
            o throws(Problem) in .setNeedsUpdateProperties(receiver: o.receiver)
        },
        OperationEntry("animateAlongsideTransition", [], "transitionCoordinator?.animate(alongsideTransition:completion:) (R143, R144)") {
            o throws(Problem) in .animateAlongsideTransition(receiver: o.receiver)
        },
        OperationEntry("notifyWhenInteractionChanges", [], "transitionCoordinator?.notifyWhenInteractionChanges(_:) (R145)") {
            o throws(Problem) in .notifyWhenInteractionChanges(receiver: o.receiver)
        },
        OperationEntry("turnPage", ["direction", "completes"], "a user's page turn, its pages from the data source, completed or cancelled (R130)") {
            o throws(Problem) in
            guard let direction = try o.reader.enumValue("direction", PageDirection.self) else {
                throw Problem.invalidField("direction", "direction is required: forward or reverse.", allowed: PageDirection.allCases.map(\.rawValue))
            }
            return .turnPage(receiver: o.receiver, direction: direction, completes: try o.completes)
        },
        OperationEntry("customizeTabs", ["viewControllers"], "a user rearranging the tabs through the More list's Edit button (R133)") {
            o throws(Problem) in
            guard let order = try o.reader.strings("viewControllers") else {
                throw Problem.invalidField("viewControllers", "viewControllers is required: the ids of the tabs in their new order.")
            }
            return .customizeTabs(receiver: o.receiver, viewControllers: order)
        },
        OperationEntry("showColumn", ["column"], "a column-style split's show(_:) of a column (R121)") { o throws(Problem) in
            .showColumn(receiver: o.receiver, column: try o.column())
        },
        OperationEntry("hideColumn", ["column"], "a column-style split's hide(_:) of a column (R121)") { o throws(Problem) in
            .hideColumn(receiver: o.receiver, column: try o.column())
        },
    ]

    /// The entries by name.
    static let byName: [String: OperationEntry] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
    /// The operation names, sorted: what a 404 `unknown-operation` lists in `allowed`.
    static let names = all.map(\.name).sorted()
}

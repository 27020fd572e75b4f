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
    static let specFields = ["id", "kind", "class"] + ConfigurationFields.names + [
        "viewControllers", "selectedIndex", "primary", "supplementary", "secondary", "style",
        "splitDelegate", "transitionStyle", "spineLocation", "isDoubleSided", "children", "preferredStyle",
        "storyboard", "identifier",
    ]

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
            spec.id = id
            spec.appendsSuffixWhenTaken = false
        }
        if r.has("kind"), spec.storyboard != nil, let k = try r.enumValue("kind", ControllerKind.self), k != spec.kind {
            throw Problem.invalidField(r.name("kind"), "kind cannot change a storyboard scene's kind (\(spec.kind.rawValue)).")
        }
        if let v = try r.string("class") { spec.className = v }
        try ConfigurationFields.read(r, into: &spec.configuration, clears: false)
        if let v = try refs(r.raw("viewControllers"), path: r.name("viewControllers"), depth: depth + 1) { spec.viewControllers = v }
        if let v = try r.int("selectedIndex") { spec.selectedIndex = v }
        if r.has("primary") { spec.primary = try ref(r.raw("primary"), path: r.name("primary"), depth: depth + 1) }
        if r.has("supplementary") { spec.supplementary = try ref(r.raw("supplementary"), path: r.name("supplementary"), depth: depth + 1) }
        if r.has("secondary") { spec.secondary = try ref(r.raw("secondary"), path: r.name("secondary"), depth: depth + 1) }
        if let v = try r.enumValue("style", SplitState.Style.self) { spec.splitStyle = v }
        if let d = try r.object("splitDelegate", allowed: ["collapseSecondaryOntoPrimary", "topColumnForCollapsing"]) {
            // R90: classic splits ask the first, column-style splits the second; neither the other.
            spec.collapseSecondaryOntoPrimary = try d.bool("collapseSecondaryOntoPrimary")
            spec.topColumnForCollapsing = try d.enumValue("topColumnForCollapsing", SplitState.Column.self)
            spec.hasSplitDelegate = true
        }
        if let v = try r.enumValue("transitionStyle", PageState.Style.self) { spec.pageTransitionStyle = v }
        if let v = try r.string("spineLocation") { spec.spineLocation = v }
        if let v = try r.bool("isDoubleSided") { spec.isDoubleSided = v }
        if let v = try refs(r.raw("children"), path: r.name("children"), depth: depth + 1) { spec.children = v }
        if let v = try r.string("preferredStyle") {
            guard v == "alert" || v == "actionSheet" else {
                throw Problem.invalidField(r.name("preferredStyle"), "preferredStyle is alert or actionSheet.", allowed: ["alert", "actionSheet"])
            }
            spec.preferredStyle = v
        }
        return spec
    }

    /// ControllerSpec fields settable at run time (`PATCH …/controllers/{cid}`).
    func patch(_ json: JSON) throws(Problem) -> ControllerPatch {
        let r = try BodyReader(json, allowed: ConfigurationFields.names)
        var p = ControllerPatch()
        try ConfigurationFields.read(r, into: &p, clears: true)
        return p
    }

    func traits(_ json: JSON?, path: String, base: Traits) throws(Problem) -> Traits {
        guard let json, !json.isNull else { return base }
        let r = try BodyReader(json, path: path, allowed: ["userInterfaceIdiom", "horizontalSizeClass", "verticalSizeClass"])
        var t = base
        if let v = try r.enumValue("userInterfaceIdiom", Traits.Idiom.self) {
            t.userInterfaceIdiom = v
            if !r.has("horizontalSizeClass") && base == .phonePortrait && v == .pad { t.horizontalSizeClass = .regular }
        }
        if let v = try r.enumValue("horizontalSizeClass", Traits.SizeClass.self) { t.horizontalSizeClass = v }
        if let v = try r.enumValue("verticalSizeClass", Traits.SizeClass.self) { t.verticalSizeClass = v }
        return t
    }

    /// One operation's body (API.md "Operations"); `receiver` is the path's controller.
    func operation(_ name: String, receiver: ControllerID, body: JSON) throws(Problem) -> Command {
        guard let fields = Operations.fields[name] else { throw Problem.unknownOperation(name) }
        let r = try BodyReader(body, allowed: fields + ["animated"])
        let animated = try r.bool("animated") ?? true
        func vc() throws(Problem) -> ControllerRef { try ref(r.raw("viewController"), path: "viewController") }
        func id(_ key: String) throws(Problem) -> ControllerID { try r.requiredString(key) }
        switch name {
        case "present":
            var popover: PopoverAnchor?
            if let p = try r.object("popover", allowed: ["sourceView", "barButtonItem", "sourceRect", "sourceItem"]) {
                var rect: [Double]?
                if let v = p.raw("sourceRect"), !v.isNull {
                    guard let a = v.array, a.count == 4, a.allSatisfy({ $0.number?.isFinite == true }) else {
                        throw Problem.invalidField("popover.sourceRect", "sourceRect is [x, y, width, height] in points.")
                    }
                    rect = a.compactMap(\.number)
                }
                var item = try p.string("barButtonItem")
                if item == nil { item = try p.string("sourceItem") }
                popover = PopoverAnchor(sourceView: try p.string("sourceView"), barButtonItem: item, sourceRect: rect)
            }
            if !r.has("viewController") { throw Problem.invalidField("viewController", "viewController is required (null is UIKit's nil).") }
            return .present(receiver: receiver, viewController: try vc(),
                            style: try r.enumValue("modalPresentationStyle", PresentationStyle.self),
                            transitionStyle: try r.enumValue("modalTransitionStyle", TransitionStyle.self),
                            popover: popover, animated: animated)
        case "dismiss": return .dismiss(receiver: receiver, animated: animated)
        case "show": return .show(receiver: receiver, viewController: try vc(), animated: animated)
        case "showDetail": return .showDetail(receiver: receiver, viewController: try vc(), animated: animated)
        case "push": return .push(receiver: receiver, viewController: try vc(), animated: animated)
        case "pop": return .pop(receiver: receiver, animated: animated)
        case "popToRoot": return .popToRoot(receiver: receiver, animated: animated)
        case "popTo": return .popTo(receiver: receiver, viewController: try id("viewController"), animated: animated)
        case "setViewControllers":
            guard let list = try refs(r.raw("viewControllers"), path: "viewControllers") else {
                throw Problem.invalidField("viewControllers", "viewControllers is required.")
            }
            return .setViewControllers(receiver: receiver, viewControllers: list, direction: try r.string("direction"), animated: animated)
        case "select", "tapTab":
            let index = try r.int("index"), target = try r.string("viewController")
            if index == nil && target == nil { throw Problem.invalidField("index", "\(name) needs index or viewController.") }
            return name == "select" ? .select(receiver: receiver, index: index, viewController: target)
                : .tapTab(receiver: receiver, index: index, viewController: target)
        case "addChild": return .addChild(receiver: receiver, viewController: try vc())
        case "removeFromParent": return .removeFromParent(receiver: receiver)
        case "willMove", "didMove":
            guard r.has("toParent") else { throw Problem.invalidField("toParent", "toParent is required (null for nil).") }
            let parent = try r.string("toParent")
            return name == "willMove" ? .willMove(receiver: receiver, toParent: parent) : .didMove(receiver: receiver, toParent: parent)
        case "addSubview": return .addSubview(receiver: receiver, viewController: try id("viewController"), animated: animated)
        case "removeFromSuperview": return .removeFromSuperview(receiver: receiver, animated: animated)
        case "transitionChild":
            return .transitionChild(receiver: receiver, from: try id("from"), to: try id("to"), animated: animated)
        case "performSegue": return .performSegue(receiver: receiver, identifier: try id("identifier"), destination: nil)
        case "triggerSegue": return .triggerSegue(receiver: receiver, identifier: try id("segue"), destination: nil)
        case "interactiveDismiss":
            return .interactiveDismiss(receiver: receiver, completes: try r.bool("completes") ?? true)
        case "interactivePop":
            return .interactivePop(receiver: receiver, completes: try r.bool("completes") ?? true)
        default: throw Problem.unknownOperation(name)
        }
    }
}

/// The operations of API.md and the body fields each takes (besides `animated`).
enum Operations {
    static let fields: [String: [String]] = [
        "present": ["viewController", "modalPresentationStyle", "modalTransitionStyle", "popover"],
        "dismiss": [], "show": ["viewController"], "showDetail": ["viewController"],
        "push": ["viewController"], "pop": [], "popToRoot": [], "popTo": ["viewController"],
        "setViewControllers": ["viewControllers", "direction"], "select": ["index", "viewController"], "tapTab": ["index", "viewController"],
        "addChild": ["viewController"], "removeFromParent": [], "willMove": ["toParent"], "didMove": ["toParent"],
        "addSubview": ["viewController"], "removeFromSuperview": [], "transitionChild": ["from", "to"],
        "performSegue": ["identifier", "sender"], "triggerSegue": ["segue", "sender"],
        "interactiveDismiss": ["completes"], "interactivePop": ["completes"],
    ]
    static let names = fields.keys.sorted()
}

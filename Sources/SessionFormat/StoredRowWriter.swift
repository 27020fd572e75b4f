import JSONValues
import NavigationCore
import SessionStorage

/// The write path's stored rows written as bytes directly: each stored type of
/// `StoredFormat.swift` that a durable write stores appends its JSON to one buffer, member by
/// member, with no `Encoder`, container box or per-value object between. A controller's
/// configuration is written from the core's field table (``ControllerConfiguration/Field/storedValue``),
/// so each field is still declared once.
///
/// The bytes are exactly those ``StoredCodec/encode(_:)`` writes of the same value through its
/// `Encodable` conformance, which stays the reference: members in declaration order, optionals
/// left out when nil (`encodeIfPresent`), enumerations with payloads as
/// `{"case":{"label":…}}` (`_0`, `_1` for unlabeled payloads), dictionaries with sorted keys.
/// `StoredRowWriterTests` holds the two to the same bytes over the rich sessions and over
/// generated values of every stored type. A member added to a stored type must be added to its
/// `write(to:)` here too (those tests fail until it is). Values of rare shapes (delegates, a
/// running transition's effects…) are written through the reference path in place, so they
/// need no code here.
protocol StoredBytesWritable: Encodable {
    /// Appends this value's JSON to `w`.
    /// - Throws: `EncodingError` for a non-finite `Double` (``StoredCodec/row(_:)`` then asks the
    ///   reference path, which names the member).
    func write(to w: inout StoredBytes) throws
}

/// A stored row's bytes being written. Commas are placed by looking at the last byte: right
/// after `{` or `[` a member or element is the first; no value ends with either.
struct StoredBytes {
    var out: [UInt8]

    init(capacity: Int = 512) {
        out = []
        out.reserveCapacity(capacity)
    }

    /// Starts an object; end it with ``close()``.
    mutating func open() { out.append(UInt8(ascii: "{")) }
    mutating func close() { out.append(UInt8(ascii: "}")) }

    /// Starts the member `name` (a Swift identifier: no escaping needed), after a comma unless first.
    mutating func key(_ name: StaticString) {
        separate(after: UInt8(ascii: "{"))
        out.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
    }

    /// Starts a member whose `"name":` is already encoded.
    mutating func key(bytes: [UInt8]) {
        separate(after: UInt8(ascii: "{"))
        out.append(contentsOf: bytes)
    }

    private mutating func separate(after opening: UInt8) {
        if out.last != opening { out.append(UInt8(ascii: ",")) }
    }

    mutating func string(_ s: String) { JSON.writeString(s, into: &out) }
    // From static strings: an array literal here would be allocated on every call.
    mutating func bool(_ b: Bool) { (b ? "true" as StaticString : "false").withUTF8Buffer { out.append(contentsOf: $0) } }
    mutating func null() { ("null" as StaticString).withUTF8Buffer { out.append(contentsOf: $0) } }

    mutating func int(_ v: Int) {
        if v >= 0 && v < 10 { out.append(UInt8(ascii: "0") + UInt8(v)); return }
        out.append(contentsOf: String(v).utf8)
    }

    /// As ``StoredWriter/writeDouble(_:path:)`` writes it.
    mutating func double(_ d: Double) throws {
        guard d.isFinite else {
            throw EncodingError.invalidValue(d, .init(codingPath: [], debugDescription: "Unable to encode Double.\(d) directly in JSON."))
        }
        if d == d.rounded(), abs(d) < 1e15 {
            int(Int(d))
        } else {
            out.append(contentsOf: "\(d)".utf8)
        }
    }

    mutating func strings(_ list: [String]) {
        out.append(UInt8(ascii: "["))
        for (i, s) in list.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSON.writeString(s, into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    mutating func array<T: StoredBytesWritable>(_ list: [T]) throws {
        out.append(UInt8(ascii: "["))
        for (i, item) in list.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            try item.write(to: &self)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// A `[String: V]` with its keys sorted, as the reference path writes dictionaries.
    mutating func sorted<V: StoredBytesWritable>(_ dictionary: [String: V]) throws {
        out.append(UInt8(ascii: "{"))
        for (i, key) in dictionary.keys.sorted().enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSON.writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
            try dictionary[key]!.write(to: &self)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `value` through the reference path (its `Encodable` conformance), in place: for shapes
    /// too rare to deserve their own code. The configuration's common shapes (`[String]`,
    /// `[String: Bool]`, `[Double]`) are told apart by metatype and written here.
    mutating func encoded<T: Encodable>(_ value: T) throws {
        if T.self == [String].self { return strings(unsafeBitCast(value, to: [String].self)) }
        if T.self == [String: Bool].self {
            let flags = unsafeBitCast(value, to: [String: Bool].self)
            out.append(UInt8(ascii: "{"))
            for (i, key) in flags.keys.sorted().enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSON.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                bool(flags[key]!)
            }
            return out.append(UInt8(ascii: "}"))
        }
        if T.self == [Double].self {
            out.append(UInt8(ascii: "["))
            for (i, d) in unsafeBitCast(value, to: [Double].self).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                try double(d)
            }
            return out.append(UInt8(ascii: "]"))
        }
        let writer = StoredWriter(out: out)
        out = []
        defer { swap(&out, &writer.out) }
        try writer.writeValue(value, level: 0, encoder: nil)
        writer.closeAll()
    }

    // Optional members, left out when nil (`encodeIfPresent`).
    mutating func key(_ name: StaticString, _ value: String?) { if let value { key(name); string(value) } }
    mutating func key(_ name: StaticString, _ value: Bool?) { if let value { key(name); bool(value) } }
    mutating func key(_ name: StaticString, _ value: Int?) { if let value { key(name); int(value) } }
    mutating func key(_ name: StaticString, _ value: [String]?) { if let value { key(name); strings(value) } }
    mutating func key<T: StoredBytesWritable>(_ name: StaticString, _ value: T?) throws { if let value { key(name); try value.write(to: &self) } }
    mutating func key<T: StoredBytesWritable>(_ name: StaticString, _ value: [T]?) throws { if let value { key(name); try array(value) } }
}

extension StoredCodec {
    /// `value`'s JSON bytes by its ``StoredBytesWritable`` writer: the same bytes as
    /// ``encode(_:)``, at a fraction of the cost.
    /// - Throws: what ``encode(_:)`` throws (a non-finite `Double`, with its coding path).
    static func row<T: StoredBytesWritable>(_ value: T) throws -> [UInt8] {
        var w = StoredBytes()
        do {
            try value.write(to: &w)
        } catch {
            return try encode(value)
        }
        return w.out
    }

    /// `value` as JSON text, by ``row(_:)``.
    static func rowText<T: StoredBytesWritable>(_ value: T) throws -> String {
        String(decoding: try row(value), as: UTF8.self)
    }
}

// MARK: - The session shell

extension StoredSessionState: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws {
        w.open()
        w.key("traits"); traits.write(to: &w)
        w.key("options"); options.write(to: &w)
        w.key("rootViewController", rootViewController)
        w.key("controllers"); try w.sorted(controllers)
        w.key("order"); w.strings(order)
        w.key("transitions"); try w.array(transitions)
        w.key("nextControllerNumber"); w.int(nextControllerNumber)
        w.key("nextTransitionNumber"); w.int(nextTransitionNumber)
        w.close()
    }
}

extension StoredTraits: StoredBytesWritable {
    func write(to w: inout StoredBytes) {
        w.open()
        w.key("userInterfaceIdiom"); w.string(userInterfaceIdiom)
        w.key("horizontalSizeClass"); w.string(horizontalSizeClass)
        w.key("verticalSizeClass"); w.string(verticalSizeClass)
        w.close()
    }
}

extension StoredOptions: StoredBytesWritable {
    func write(to w: inout StoredBytes) {
        w.open()
        w.key("iOS"); w.string(iOS)
        w.key("transitions"); w.string(transitions)
        w.key("navTransitionPolicy", navTransitionPolicy)
        w.key("release", release)
        w.close()
    }
}

// MARK: - Controllers

extension StoredController: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws {
        let p = properties
        w.open()
        w.key("id"); w.string(p.id)
        w.key("kind"); w.string(p.kind)
        w.key("className"); w.string(p.className)
        w.key("parent", p.parent)
        w.key("children"); w.strings(p.children)
        try w.key("storyboard", p.storyboard)
        w.key("isViewLoaded"); w.bool(p.isViewLoaded)
        w.key("appearance"); w.string(p.appearance)
        w.key("viewInWindow"); w.bool(p.viewInWindow)
        w.key("isBeingPresented"); w.bool(p.isBeingPresented)
        w.key("isBeingDismissed"); w.bool(p.isBeingDismissed)
        w.key("isMovingToParent"); w.bool(p.isMovingToParent)
        w.key("isMovingFromParent"); w.bool(p.isMovingFromParent)
        try w.key("presentation", p.presentation)
        w.key("presentedID", p.presentedID)
        w.key("viewControllers"); w.strings(p.viewControllers)
        w.key("selectedViewController", p.selectedViewController)
        w.key("moreNavigationController", p.moreNavigationController)
        try w.key("split", p.split)
        try w.key("page", p.page)
        w.key("preferredStyle", p.preferredStyle)
        w.key("viewAddedToParent"); w.bool(p.viewAddedToParent)
        w.key("isMoreNavigationController"); w.bool(p.isMoreNavigationController)
        w.key("segues"); try w.array(p.segues)
        w.key("heldByClient", p.heldByClient)
        try configuration.writeMembers(to: &w, nilAsNull: false)
        w.close()
    }
}

extension StoredConfiguration {
    /// The members ``encode(to:nilAsNull:)`` writes, into the object open in `w`: each field by
    /// its entry of the core's table, in table order, then lifecycle code.
    func writeMembers(to w: inout StoredBytes, nilAsNull: Bool) throws {
        let fields = ControllerConfiguration.fields
        if present.count == Self.everyField.count {
            for i in fields.indices { try Self.write(fields[i].storedValue(values), i, nilAsNull, &w) }
        } else if !present.isEmpty {
            // A patch or spec names a few fields: those, in table order, without a lookup per field.
            for i in present.compactMap({ Self.fieldIndex[$0] }).sorted() { try Self.write(fields[i].storedValue(values), i, nilAsNull, &w) }
        }
        if present.contains("on") && (nilAsNull || !values.on.isEmpty) {
            w.key("on"); try w.sorted(StoredCall.stored(values.on))
        }
    }

    /// Field `i` of the table, whose value is `value`.
    private static func write(_ value: ControllerConfiguration.Field.StoredValue, _ i: Int, _ nilAsNull: Bool,
                              _ w: inout StoredBytes) throws {
        switch value {
        case .unencoded: break
        case .absent: if nilAsNull { w.key(bytes: fieldKeys[i]); w.null() }
        case .string(let s): w.key(bytes: fieldKeys[i]); w.string(s)
        case .bool(let b): w.key(bytes: fieldKeys[i]); w.bool(b)
        case .value(let v): w.key(bytes: fieldKeys[i]); try w.encoded(v)
        }
    }

    /// Each field's position in the core's table, by name.
    static let fieldIndex = Dictionary(uniqueKeysWithValues: ControllerConfiguration.fields.enumerated().map { ($1.name, $0) })
    /// Each field's `"name":`, in table order, encoded once.
    static let fieldKeys: [[UInt8]] = ControllerConfiguration.fields.map { field in
        var out: [UInt8] = []
        JSON.writeString(field.name, into: &out)
        out.append(UInt8(ascii: ":"))
        return out
    }
}

/// A list (`history.command`, a method's calls in `on`), element by element.
extension Array: StoredBytesWritable where Element: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws { try w.array(self) }
}

extension StoredCall: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws {
        w.open()
        w.key("command"); try command.write(to: &w)
        w.key("once", once)
        w.close()
    }
}

extension StoredStoryboardOrigin: StoredBytesWritable {
    func write(to w: inout StoredBytes) {
        w.open()
        w.key("name"); w.string(name)
        w.key("identifier", identifier)
        w.close()
    }
}

extension StoredPresentation: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws {
        w.open()
        w.key("presenting"); w.string(presenting)
        w.key("source"); w.string(source)
        w.key("requestedStyle"); w.string(requestedStyle)
        w.key("style"); w.string(style)
        w.key("transitionStyle"); w.string(transitionStyle)
        w.key("contextViewController", contextViewController)
        w.key("removesPresenterView"); w.bool(removesPresenterView)
        try w.key("popover", popover)
        w.key("state"); w.string(state)
        w.close()
    }
}

extension StoredPopoverAnchor: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws {
        w.open()
        w.key("sourceView", sourceView)
        w.key("barButtonItem", barButtonItem)
        if let sourceRect { w.key("sourceRect"); try w.encoded(sourceRect) }
        w.close()
    }
}

extension StoredSplit: StoredBytesWritable {
    func write(to w: inout StoredBytes) {
        w.open()
        w.key("style"); w.string(style)
        w.key("primary", primary)
        w.key("supplementary", supplementary)
        w.key("secondary", secondary)
        w.key("collapseSecondaryOntoPrimary", collapseSecondaryOntoPrimary)
        w.key("isCollapsed"); w.bool(isCollapsed)
        w.key("primaryNavigation", primaryNavigation)
        w.key("supplementaryNavigation", supplementaryNavigation)
        w.key("secondaryNavigation", secondaryNavigation)
        w.key("topColumnForCollapsing", topColumnForCollapsing)
        w.key("collapsedSupplementary", collapsedSupplementary)
        w.key("collapsedSecondary", collapsedSecondary)
        w.key("hasDelegate", hasDelegate)
        w.close()
    }
}

extension StoredPage: StoredBytesWritable {
    func write(to w: inout StoredBytes) {
        w.open()
        w.key("transitionStyle"); w.string(transitionStyle)
        w.key("spineLocation", spineLocation)
        w.key("isDoubleSided"); w.bool(isDoubleSided)
        w.close()
    }
}

extension StoredSegue: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws {
        w.open()
        w.key("id"); w.string(id)
        w.key("identifier", identifier)
        w.key("kind"); w.string(kind)
        w.key("destinationScene", destinationScene)
        w.key("destinationStoryboard", destinationStoryboard)
        w.key("modalPresentationStyle", modalPresentationStyle)
        w.key("modalTransitionStyle", modalTransitionStyle)
        w.key("animates"); w.bool(animates)
        try w.key("popover", popover)
        w.key("unwindAction", unwindAction)
        w.key("customPerforms", customPerforms)
        w.key("customClass", customClass)
        try w.key("customTransitioningDelegate", customTransitioningDelegate)
        w.close()
    }
}

extension StoredAnimator: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws {
        w.open()
        w.key("name"); w.string(name)
        w.key("duration"); try w.double(duration)
        w.close()
    }
}

// MARK: - Running transitions (manual mode): rare, through the reference path

extension StoredRunningTransition: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws { try w.encoded(self) }
}

// MARK: - History commands

extension StoredTurn: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws {
        w.open()
        w.key("commands"); try w.array(commands)
        w.key("segueDestinations"); try w.array(segueDestinations)
        w.close()
    }
}

extension StoredCommand: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws {
        w.open()
        switch self {
        case .setRoot(let v, let a):
            w.key("setRoot"); w.open()
            w.key("_0"); try v.write(to: &w)
            w.key("animated"); w.bool(a)
        case .createController(let s):
            w.key("createController"); w.open()
            w.key("_0"); try s.write(to: &w)
        case .present(let r, let v, let style, let ts, let pop, let a):
            w.key("present"); w.open()
            w.key("receiver"); w.string(r)
            w.key("viewController"); try v.write(to: &w)
            w.key("style", style)
            w.key("transitionStyle", ts)
            try w.key("popover", pop)
            w.key("animated"); w.bool(a)
        case .dismiss(let r, let a): Self.receiver("dismiss", r, animated: a, &w)
        case .show(let r, let v, let a): try Self.receiver("show", r, v, animated: a, &w)
        case .showDetail(let r, let v, let a): try Self.receiver("showDetail", r, v, animated: a, &w)
        case .push(let r, let v, let a): try Self.receiver("push", r, v, animated: a, &w)
        case .pop(let r, let a): Self.receiver("pop", r, animated: a, &w)
        case .popToRoot(let r, let a): Self.receiver("popToRoot", r, animated: a, &w)
        case .popTo(let r, let v, let a):
            w.key("popTo"); w.open()
            w.key("receiver"); w.string(r)
            w.key("viewController"); w.string(v)
            w.key("animated"); w.bool(a)
        case .setViewControllers(let r, let vs, let d, let a):
            w.key("setViewControllers"); w.open()
            w.key("receiver"); w.string(r)
            w.key("viewControllers"); try w.array(vs)
            w.key("direction", d)
            w.key("animated"); w.bool(a)
        case .select(let r, let i, let v): Self.selection("select", r, i, v, &w)
        case .tapTab(let r, let i, let v): Self.selection("tapTab", r, i, v, &w)
        case .addChild(let r, let v):
            w.key("addChild"); w.open()
            w.key("receiver"); w.string(r)
            w.key("viewController"); try v.write(to: &w)
        case .removeFromParent(let r):
            w.key("removeFromParent"); w.open()
            w.key("receiver"); w.string(r)
        case .willMove(let r, let p): Self.move("willMove", r, p, &w)
        case .didMove(let r, let p): Self.move("didMove", r, p, &w)
        case .addSubview(let r, let v, let a):
            w.key("addSubview"); w.open()
            w.key("receiver"); w.string(r)
            w.key("viewController"); w.string(v)
            w.key("animated"); w.bool(a)
        case .removeFromSuperview(let r, let a): Self.receiver("removeFromSuperview", r, animated: a, &w)
        case .transitionChild(let r, let f, let t, let a):
            w.key("transitionChild"); w.open()
            w.key("receiver"); w.string(r)
            w.key("from"); w.string(f)
            w.key("to"); w.string(t)
            w.key("animated"); w.bool(a)
        case .interactiveDismiss(let r, let c): Self.interactive("interactiveDismiss", r, c, &w)
        case .interactivePop(let r, let c): Self.interactive("interactivePop", r, c, &w)
        case .performSegue(let r, let i, let d, let g): try Self.segue("performSegue", r, i, d, g, &w)
        case .triggerSegue(let r, let i, let d, let g): try Self.segue("triggerSegue", r, i, d, g, &w)
        case .updateController(let id, let p):
            w.key("updateController"); w.open()
            w.key("_0"); w.string(id)
            w.key("_1"); try p.write(to: &w)
        case .setTraits(let t):
            w.key("setTraits"); w.open()
            w.key("_0"); t.write(to: &w)
        case .completeTransition(let id):
            w.key("completeTransition"); w.open()
            w.key("id", id)
        case .cancelTransition(let id):
            w.key("cancelTransition"); w.open()
            w.key("id"); w.string(id)
        case .release(let id):
            w.key("release"); w.open()
            w.key("id"); w.string(id)
        }
        w.close()
        w.close()
    }

    // The payload shapes several cases share; each leaves the payload object open.
    private static func receiver(_ name: StaticString, _ r: String, animated: Bool, _ w: inout StoredBytes) {
        w.key(name); w.open()
        w.key("receiver"); w.string(r)
        w.key("animated"); w.bool(animated)
    }
    private static func receiver(_ name: StaticString, _ r: String, _ v: StoredControllerRef, animated: Bool,
                                 _ w: inout StoredBytes) throws {
        w.key(name); w.open()
        w.key("receiver"); w.string(r)
        w.key("viewController"); try v.write(to: &w)
        w.key("animated"); w.bool(animated)
    }
    private static func selection(_ name: StaticString, _ r: String, _ i: Int?, _ v: String?, _ w: inout StoredBytes) {
        w.key(name); w.open()
        w.key("receiver"); w.string(r)
        w.key("index", i)
        w.key("viewController", v)
    }
    private static func move(_ name: StaticString, _ r: String, _ p: String?, _ w: inout StoredBytes) {
        w.key(name); w.open()
        w.key("receiver"); w.string(r)
        w.key("toParent", p)
    }
    private static func interactive(_ name: StaticString, _ r: String, _ completes: Bool, _ w: inout StoredBytes) {
        w.key(name); w.open()
        w.key("receiver"); w.string(r)
        w.key("completes"); w.bool(completes)
    }
    private static func segue(_ name: StaticString, _ r: String, _ i: String, _ d: StoredControllerSpec?, _ g: StoredSegue?,
                              _ w: inout StoredBytes) throws {
        w.key(name); w.open()
        w.key("receiver"); w.string(r)
        w.key("identifier"); w.string(i)
        try w.key("destination", d)
        try w.key("segue", g)
    }
}

extension StoredControllerRef: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws {
        w.open()
        switch self {
        case .none:
            w.key("none"); w.open()
        case .existing(let id):
            w.key("existing"); w.open()
            w.key("_0"); w.string(id)
        case .new(let spec):
            w.key("new"); w.open()
            w.key("_0"); try spec.write(to: &w)
        }
        w.close()
        w.close()
    }
}

extension StoredControllerSpec: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws {
        let p = properties
        w.open()
        w.key("id", p.id)
        w.key("kind"); w.string(p.kind)
        w.key("className", p.className)
        try w.key("viewControllers", p.viewControllers)
        w.key("selectedIndex", p.selectedIndex)
        try w.key("primary", p.primary)
        try w.key("supplementary", p.supplementary)
        try w.key("secondary", p.secondary)
        w.key("splitStyle", p.splitStyle)
        w.key("collapseSecondaryOntoPrimary", p.collapseSecondaryOntoPrimary)
        w.key("topColumnForCollapsing", p.topColumnForCollapsing)
        w.key("hasSplitDelegate", p.hasSplitDelegate)
        w.key("pageTransitionStyle", p.pageTransitionStyle)
        w.key("spineLocation", p.spineLocation)
        w.key("isDoubleSided", p.isDoubleSided)
        try w.key("children", p.children)
        w.key("preferredStyle", p.preferredStyle)
        try w.key("storyboard", p.storyboard)
        try w.key("segues", p.segues)
        try w.key("embedded", p.embedded)
        w.key("appendsSuffixWhenTaken"); w.bool(p.appendsSuffixWhenTaken)
        w.key("suffixSeparator", p.suffixSeparator)
        try configuration.writeMembers(to: &w, nilAsNull: false)
        w.close()
    }
}

extension StoredPatch: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws {
        w.open()
        try configuration.writeMembers(to: &w, nilAsNull: true)
        w.close()
    }
}

// MARK: - Change-sets

extension StoredChange: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws {
        w.open()
        try w.key("shell", shell)
        w.key("controllers"); try w.array(controllers)
        w.key("removed"); w.strings(removed)
        w.close()
    }
}

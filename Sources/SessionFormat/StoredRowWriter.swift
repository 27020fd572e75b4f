import JSONValues
import NavigationCore
import SessionStorage

/// The stored rows written as bytes directly, the only way they are written: each stored type
/// of `StoredFormat.swift` appends its JSON to one buffer, member by member, with no `Encoder`,
/// container box or per-value object between. The stored types are `Decodable` only, so their
/// declaration is what reads a row back; `StoredFormatTests` and `StoredRowWriterTests` read
/// back what this file writes for the rich sessions and for generated values of every stored
/// type, and fail for a member written under the wrong name or not at all. A controller's
/// configuration is written from the core's field table (``ControllerConfiguration/Field/storedValue``),
/// so each field is still declared once there.
///
/// The shape is version 1's: members in declaration order, optionals left out when nil,
/// enumerations with payloads as `{"case":{"label":…}}` (`_0`, `_1` for unlabeled payloads),
/// dictionaries with sorted keys (equal values give equal bytes).
protocol StoredBytesWritable {
    /// Appends this value's JSON to `w`.
    /// - Throws: `EncodingError` for a non-finite `Double`.
    func write(to w: inout StoredBytes) throws
}

/// A stored row's bytes being written, by the service's one JSON byte writer (``JSONWriter``:
/// its commas, its spelling of strings and numbers), with the stored format's own rules on top:
/// a non-finite `Double` is an error, dictionaries are written with sorted keys.
struct StoredBytes {
    var w: JSONWriter

    /// Room for most controllers' rows (under 1 kB; a row that outgrows it doubles it).
    init(capacity: Int = 1024) {
        w = JSONWriter(capacity: capacity)
    }

    /// The text, with the writer done.
    consuming func finish() -> [UInt8] { w.finish() }

    /// Starts an object; end it with ``close()``.
    mutating func open() { w.openObject() }
    mutating func close() { w.closeObject() }
    /// Starts an array; end it with ``closeArray()``.
    mutating func openArray() { w.openArray() }
    mutating func closeArray() { w.closeArray() }

    /// Starts the member `name` (a Swift identifier: no escaping needed).
    mutating func key(_ name: StaticString) { w.key(name) }

    /// Starts the member `name`, escaped.
    mutating func key(_ name: String) { w.key(name) }

    /// Starts a member whose `"name":` is already encoded.
    mutating func key(_ name: JSONWriter.Key) { w.key(name) }

    mutating func string(_ s: String) { w.string(s) }
    mutating func bool(_ b: Bool) { w.bool(b) }
    mutating func null() { w.null() }
    mutating func int(_ v: Int) { w.int(v) }

    /// As ``StoredWriter/writeDouble(_:path:)`` writes it: ``JSONWriter/number(_:)``'s spelling.
    mutating func double(_ d: Double) throws {
        guard d.isFinite else {
            throw EncodingError.invalidValue(d, .init(codingPath: [], debugDescription: "Unable to encode Double.\(d) directly in JSON."))
        }
        w.number(d)
    }

    mutating func strings(_ list: [String]) { w.strings(list) }

    /// Flags by name, their keys sorted.
    mutating func flags(_ flags: [String: Bool]) {
        w.openObject()
        for key in flags.keys.sorted() {
            w.key(key)
            w.bool(flags[key]!)
        }
        w.closeObject()
    }

    mutating func array<T: StoredBytesWritable>(_ list: [T]) throws {
        w.openArray()
        for item in list { try item.write(to: &self) }
        w.closeArray()
    }

    /// A `[String: V]` with its keys sorted, so equal values give equal bytes.
    mutating func sorted<V: StoredBytesWritable>(_ dictionary: [String: V]) throws {
        w.openObject()
        for key in dictionary.keys.sorted() {
            w.key(key)
            try dictionary[key]!.write(to: &self)
        }
        w.closeObject()
    }

    /// A core value of a configuration field through its `Encodable` conformance (declared in
    /// NavigationCore), by ``StoredCodec``'s encoder. The common shapes (`[String]`,
    /// `[String: Bool]`, `[Double]`) are told apart by metatype and written here directly.
    mutating func encoded<T: Encodable>(_ value: T) throws {
        if T.self == [String].self { return strings(unsafeBitCast(value, to: [String].self)) }
        if T.self == [String: Bool].self { return flags(unsafeBitCast(value, to: [String: Bool].self)) }
        if T.self == [Double].self {
            w.openArray()
            for d in unsafeBitCast(value, to: [Double].self) { try double(d) }
            return w.closeArray()
        }
        let writer = StoredWriter()
        try writer.writeValue(value, level: 0, encoder: nil)
        writer.closeAll()
        w.raw(writer.out)
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
    /// `value`'s JSON bytes by its ``StoredBytesWritable`` writer.
    /// - Throws: `EncodingError` for a non-finite `Double`.
    static func row<T: StoredBytesWritable>(_ value: T) throws -> [UInt8] {
        var w = StoredBytes()
        try value.write(to: &w)
        return w.finish()
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
        w.key("traits"); try traits.write(to: &w)
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
    func write(to w: inout StoredBytes) throws {
        w.open()
        w.key("userInterfaceIdiom"); w.string(userInterfaceIdiom)
        w.key("horizontalSizeClass"); w.string(horizontalSizeClass)
        w.key("verticalSizeClass"); w.string(verticalSizeClass)
        if let size {
            w.key("size"); w.open()
            w.key("width"); try w.double(size.width)
            w.key("height"); try w.double(size.height)
            w.close()
        }
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
        w.key("layoutCallbacks", layoutCallbacks)
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
        w.key("manualAppearanceAnimated", p.manualAppearanceAnimated)
        w.key("propertiesUpToDate", p.propertiesUpToDate)
        try w.key("traitsLastSeen", p.traitsLastSeen)
        try configuration.writeMembers(to: &w, nilAsNull: false)
        w.close()
    }
}

extension StoredConfiguration {
    /// A configuration's members, into the object open in `w` (null for a nil a patch clears): each field by
    /// its entry of the core's table, in table order, then lifecycle code.
    func writeMembers(to w: inout StoredBytes, nilAsNull: Bool) throws {
        let fields = ControllerConfiguration.fields
        // A controller's configuration has every field (its names are not looked up one by one).
        let every = present.count == Self.everyField.count
        if every {
            try values.forEachStoredValue { (i, value) throws in try Self.write(value, i, nilAsNull, &w) }
        } else if !present.isEmpty {
            // A patch or spec names a few fields: those, in table order, without a lookup per field.
            for i in present.compactMap({ ControllerConfiguration.fieldIndex[$0] }).sorted() { try Self.write(fields[i].storedValue(values), i, nilAsNull, &w) }
        }
        if (nilAsNull || !values.on.isEmpty) && (every || present.contains("on")) {
            w.key("on"); try w.sorted(StoredCall.stored(values.on))
        }
        if (nilAsNull || !values.actions.isEmpty) && (every || present.contains("actions")) {
            w.key("actions"); try w.array(values.actions.map(StoredAlertAction.init))
        }
    }

    /// Field `i` of the table, whose value is `value`.
    private static func write(
        _ value: ControllerConfiguration.Field.StoredValue, _ i: Int, _ nilAsNull: Bool,
        _ w: inout StoredBytes
    ) throws {
        switch value {
        case .unencoded: break
        case .absent: if nilAsNull { w.key(fieldKeys[i]); w.null() }
        case .string(let s): w.key(fieldKeys[i]); w.string(s)
        case .bool(let b): w.key(fieldKeys[i]); w.bool(b)
        case .strings(let list): w.key(fieldKeys[i]); w.strings(list)
        case .flags(let flags): w.key(fieldKeys[i]); w.flags(flags)
        case .value(let v): w.key(fieldKeys[i]); try w.encoded(v)
        }
    }

    /// Each field's `"name":`, in table order, encoded once.
    static let fieldKeys: [JSONWriter.Key] = ControllerConfiguration.fields.map { JSONWriter.Key($0.name) }
}

/// A list (`history.command`, a method's calls in `on`), element by element.
extension Array: StoredBytesWritable where Element: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws { try w.array(self) }
}

extension StoredCall: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws {
        w.open()
        w.key("command"); try StoredCommands.write(command, to: &w)
        w.key("once", once)
        w.close()
    }
}

extension StoredAlertAction: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws {
        w.open()
        w.key("title", title)
        w.key("style"); w.string(style)
        try w.key("handler", handler)
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
        w.key("adaptiveOriginal", adaptiveOriginal)
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
        w.key("displayMode", displayMode)
        w.key("delegateShows", delegateShows)
        w.key("delegateShowsDetail", delegateShowsDetail)
        w.key("compact", compact)
        w.key("inspector", inspector)
        w.key("inspectorNavigation", inspectorNavigation)
        w.key("isShowingInspector", isShowingInspector)
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
        if let v = customSheetPresentationController {
            w.key("customSheetPresentationController")
            try w.encoded(v)
        }
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

// MARK: - Running transitions (manual mode)

extension StoredRunningTransition: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws {
        w.open()
        w.key("record"); try record.write(to: &w)
        w.key("order"); order.write(to: &w)
        w.key("appearing"); w.strings(appearing)
        w.key("disappearing"); w.strings(disappearing)
        w.key("preStart"); try w.array(preStart)
        w.key("postFinish"); try w.array(postFinish)
        w.key("effects"); try w.array(effects)
        w.key("cancelEffects"); try w.array(cancelEffects)
        w.key("cancelEvents"); try w.array(cancelEvents)
        w.key("isReported"); w.bool(isReported)
        w.key("started"); w.bool(started)
        w.key("navigation", navigation)
        w.key("silentDidAppearWithin", silentDidAppearWithin)
        w.key("beforeAppearance"); try w.array(beforeAppearance)
        w.key("before", before)
        w.key("after", after)
        try w.key("interactionHandlers", interactionHandlers)
        w.close()
    }
}

extension StoredTransitionRecord: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws {
        w.open()
        w.key("id"); w.string(id)
        w.key("operation"); w.string(operation)
        w.key("fromViewController", fromViewController)
        w.key("toViewController", toViewController)
        w.key("presentationStyle", presentationStyle)
        w.key("transitionStyle", transitionStyle)
        w.key("animated"); w.bool(animated)
        w.key("duration"); try w.double(duration)
        w.key("animator", animator)
        w.key("containerView"); w.strings(containerView)
        w.key("state"); w.string(state)
        w.close()
    }
}

extension StoredAppearanceOrder: StoredBytesWritable {
    func write(to w: inout StoredBytes) {
        w.open()
        w.key("willsAppearFirst"); w.bool(willsAppearFirst)
        w.key("didsAppearFirst"); w.bool(didsAppearFirst)
        w.close()
    }
}

extension StoredEvent: StoredBytesWritable {
    func write(to w: inout StoredBytes) throws {
        w.open()
        w.key("controller"); w.string(controller)
        w.key("callback"); w.string(callback)
        w.key("animated", animated)
        w.key("parent", parent)
        w.key("hasParentArgument"); w.bool(hasParentArgument)
        try w.key("segue", segue)
        w.key("action", action)
        w.key("style", style)
        try w.key("alertAction", alertAction)
        w.key("operation", operation)
        w.key("isCancelled", isCancelled)
        w.key("column", column)
        w.close()
    }
}

extension StoredAlertActionTap: StoredBytesWritable {
    func write(to w: inout StoredBytes) {
        w.open()
        w.key("index"); w.int(index)
        w.key("handlerSelf"); w.string(handlerSelf)
        w.close()
    }
}

extension StoredSegueInfo: StoredBytesWritable {
    func write(to w: inout StoredBytes) {
        w.open()
        w.key("identifier", identifier)
        w.key("source"); w.string(source)
        w.key("destination", destination)
        w.close()
    }
}

extension StoredTransitionEffect: StoredBytesWritable {
    func write(to w: inout StoredBytes) {
        w.open()
        switch self {
        case .settlePresentation(let id): w.key("settlePresentation"); w.open(); w.key("_0"); w.string(id)
        case .removePresentations(let ids): w.key("removePresentations"); w.open(); w.key("_0"); w.strings(ids)
        case .restorePresentation(let id): w.key("restorePresentation"); w.open(); w.key("_0"); w.string(id)
        case .endMovingToParent(let ids): w.key("endMovingToParent"); w.open(); w.key("_0"); w.strings(ids)
        case .detach(let ids): w.key("detach"); w.open(); w.key("_0"); w.strings(ids)
        case .restoreStack(let navigation, let stack, let attach):
            w.key("restoreStack"); w.open()
            w.key("navigation"); w.string(navigation)
            w.key("stack"); w.strings(stack)
            w.key("attach"); w.strings(attach)
        }
        w.close()
        w.close()
    }
}

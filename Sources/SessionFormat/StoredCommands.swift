import NavigationCore

/// The stored form of the core's commands (`history.command`, lifecycle code's calls): each
/// operation's shape, written and read in this one file and nowhere else.
///
/// A command is `{"<operation>":{<arguments>}}`, the shape version 1 has always had (the
/// `Codable` synthesis of an enumeration with payloads, which wrote the rows stored before this
/// file: unlabeled arguments are `_0`, `_1`). Renaming an operation or an argument is a format
/// change (``StoredFormat``).
///
/// Adding an operation: its name in ``StoredOperation``, then the compiler asks for its case in
/// ``write(_:to:)`` (the core's `Command` is switched over exhaustively) and in
/// ``StoredOperation/read(_:)`` (likewise over ``StoredOperation``). `StoredCommandsTests`
/// (Tests/NavSimServiceTests/StoredRowWriterTests.swift) plays
/// every operation through `Persistence`'s public commit and replay.
enum StoredCommands {
    /// Appends `command` as JSON to `w`.
    /// - Throws: `EncodingError` for a non-finite `Double` in an argument.
    static func write(_ command: Command, to w: inout StoredBytes) throws {
        w.open()
        switch command {
        case .setRoot(let v, let a):
            w.begin(.setRoot); try w.ref("_0", v); w.flag("animated", a)
        case .createController(let s):
            w.begin(.createController); w.key("_0"); try StoredControllerSpec(s).write(to: &w)
        case .present(let r, let v, let style, let ts, let pop, let a):
            w.begin(.present); w.receiver(r); try w.ref("viewController", v)
            w.key("style", style?.rawValue)
            w.key("transitionStyle", ts?.rawValue)
            try w.key("popover", pop.map(StoredPopoverAnchor.init))
            w.flag("animated", a)
        case .dismiss(let r, let a): w.begin(.dismiss); w.receiver(r); w.flag("animated", a)
        case .show(let r, let v, let a): w.begin(.show); w.receiver(r); try w.ref("viewController", v); w.flag("animated", a)
        case .showDetail(let r, let v, let a): w.begin(.showDetail); w.receiver(r); try w.ref("viewController", v); w.flag("animated", a)
        case .push(let r, let v, let a): w.begin(.push); w.receiver(r); try w.ref("viewController", v); w.flag("animated", a)
        case .pop(let r, let a): w.begin(.pop); w.receiver(r); w.flag("animated", a)
        case .popToRoot(let r, let a): w.begin(.popToRoot); w.receiver(r); w.flag("animated", a)
        case .popTo(let r, let v, let a): w.begin(.popTo); w.receiver(r); w.text("viewController", v); w.flag("animated", a)
        case .setViewControllers(let r, let vs, let d, let a):
            w.begin(.setViewControllers); w.receiver(r)
            w.key("viewControllers"); try w.array(vs.map(StoredControllerRef.init))
            w.key("direction", d?.rawValue)
            w.flag("animated", a)
        case .select(let r, let i, let v): w.begin(.select); w.receiver(r); w.key("index", i); w.key("viewController", v)
        case .tapTab(let r, let i, let v): w.begin(.tapTab); w.receiver(r); w.key("index", i); w.key("viewController", v)
        case .addChild(let r, let v): w.begin(.addChild); w.receiver(r); try w.ref("viewController", v)
        case .removeFromParent(let r): w.begin(.removeFromParent); w.receiver(r)
        case .willMove(let r, let p): w.begin(.willMove); w.receiver(r); w.key("toParent", p)
        case .didMove(let r, let p): w.begin(.didMove); w.receiver(r); w.key("toParent", p)
        case .addSubview(let r, let v, let a): w.begin(.addSubview); w.receiver(r); w.text("viewController", v); w.flag("animated", a)
        case .removeFromSuperview(let r, let a): w.begin(.removeFromSuperview); w.receiver(r); w.flag("animated", a)
        case .transitionChild(let r, let f, let t, let a):
            w.begin(.transitionChild); w.receiver(r); w.text("from", f); w.text("to", t); w.flag("animated", a)
        case .interactiveDismiss(let r, let c, let t):
            // A swipe names no view, so rows of every dismissal before R152 read the same.
            w.begin(.interactiveDismiss); w.receiver(r); w.flag("completes", c)
            if let t { w.text("tappedView", t) }
        case .interactivePop(let r, let c, let g):
            // The edge gesture is left out, so rows of every pop before R120 read the same.
            w.begin(.interactivePop); w.receiver(r); w.flag("completes", c)
            if g != .edge { w.text("gesture", g.rawValue) }
        case .performSegue(let r, let i, let d, let g): w.begin(.performSegue); try w.segue(r, i, d, g)
        case .triggerSegue(let r, let i, let d, let g): w.begin(.triggerSegue); try w.segue(r, i, d, g)
        case .updateController(let id, let p):
            w.begin(.updateController); w.text("_0", id); w.key("_1"); try StoredPatch(p).write(to: &w)
        case .setTraits(let t): w.begin(.setTraits); w.key("_0"); try StoredTraits(t).write(to: &w)
        case .completeTransition(let id): w.begin(.completeTransition); w.key("id", id)
        case .cancelTransition(let id): w.begin(.cancelTransition); w.text("id", id)
        case .release(let id): w.begin(.release); w.text("id", id)
        case .beginAppearanceTransition(let r, let i, let a):
            w.begin(.beginAppearanceTransition); w.receiver(r); w.flag("isAppearing", i); w.flag("animated", a)
        case .endAppearanceTransition(let r): w.begin(.endAppearanceTransition); w.receiver(r)
        case .tapAlertAction(let r, let i, let t, let a):
            w.begin(.tapAlertAction); w.receiver(r); w.key("index", i); w.key("title", t); w.flag("animated", a)
        case .dragSheet(let r, let d): w.begin(.dragSheet); w.receiver(r); w.text("detent", d)
        case .setNeedsUpdateProperties(let r): w.begin(.setNeedsUpdateProperties); w.receiver(r)
        case .animateAlongsideTransition(let r): w.begin(.animateAlongsideTransition); w.receiver(r)
        case .notifyWhenInteractionChanges(let r): w.begin(.notifyWhenInteractionChanges); w.receiver(r)
        case .turnPage(let r, let d, let c):
            w.begin(.turnPage); w.receiver(r); w.text("direction", d.rawValue); w.flag("completes", c)
        case .customizeTabs(let r, let v): w.begin(.customizeTabs); w.receiver(r); w.key("viewControllers"); w.strings(v)
        case .showColumn(let r, let c): w.begin(.showColumn); w.receiver(r); w.text("column", c.rawValue)
        case .hideColumn(let r, let c): w.begin(.hideColumn); w.receiver(r); w.text("column", c.rawValue)
        }
        w.close()
        w.close()
    }
}

/// An operation's name in the stored format: the key of its command's object.
enum StoredOperation: String, CaseIterable {
    case setRoot, createController, present, dismiss, show, showDetail, push, pop, popToRoot, popTo
    case setViewControllers, select, tapTab, addChild, removeFromParent, willMove, didMove, addSubview
    case removeFromSuperview, transitionChild, interactiveDismiss, interactivePop, performSegue
    case triggerSegue, updateController, setTraits, completeTransition, cancelTransition, release
    case beginAppearanceTransition, endAppearanceTransition, tapAlertAction, dragSheet
    case setNeedsUpdateProperties
    case animateAlongsideTransition
    case notifyWhenInteractionChanges
    case turnPage, customizeTabs
    case showColumn, hideColumn

    /// The command this operation's `arguments` (the object under its name) stand for.
    /// - Throws: `DecodingError` for arguments of the wrong shape, ``StoredFormatError`` for a
    ///   value the core has no case for.
    func read(_ a: StoredArguments) throws -> Command {
        switch self {
        case .setRoot: .setRoot(try a.ref("_0"), animated: try a.flag("animated"))
        case .createController: .createController(try a.decode(StoredControllerSpec.self, "_0").domain())
        case .present:
            .present(
                receiver: try a.receiver(), viewController: try a.ref("viewController"), style: try a.value("style"),
                transitionStyle: try a.value("transitionStyle"),
                popover: try a.decodeIfPresent(StoredPopoverAnchor.self, "popover")?.domain(), animated: try a.flag("animated"))
        case .dismiss: .dismiss(receiver: try a.receiver(), animated: try a.flag("animated"))
        case .show: .show(receiver: try a.receiver(), viewController: try a.ref("viewController"), animated: try a.flag("animated"))
        case .showDetail:
            .showDetail(receiver: try a.receiver(), viewController: try a.ref("viewController"), animated: try a.flag("animated"))
        case .push: .push(receiver: try a.receiver(), viewController: try a.ref("viewController"), animated: try a.flag("animated"))
        case .pop: .pop(receiver: try a.receiver(), animated: try a.flag("animated"))
        case .popToRoot: .popToRoot(receiver: try a.receiver(), animated: try a.flag("animated"))
        case .popTo: .popTo(receiver: try a.receiver(), viewController: try a.text("viewController"), animated: try a.flag("animated"))
        case .setViewControllers:
            .setViewControllers(
                receiver: try a.receiver(),
                viewControllers: try a.decode([StoredControllerRef].self, "viewControllers").map { try $0.domain() },
                direction: a.lenient("direction"), animated: try a.flag("animated"))
        case .select: .select(receiver: try a.receiver(), index: try a.optionalInt("index"), viewController: try a.optionalText("viewController"))
        case .tapTab: .tapTab(receiver: try a.receiver(), index: try a.optionalInt("index"), viewController: try a.optionalText("viewController"))
        case .addChild: .addChild(receiver: try a.receiver(), viewController: try a.ref("viewController"))
        case .removeFromParent: .removeFromParent(receiver: try a.receiver())
        case .willMove: .willMove(receiver: try a.receiver(), toParent: try a.optionalText("toParent"))
        case .didMove: .didMove(receiver: try a.receiver(), toParent: try a.optionalText("toParent"))
        case .addSubview:
            .addSubview(receiver: try a.receiver(), viewController: try a.text("viewController"), animated: try a.flag("animated"))
        case .removeFromSuperview: .removeFromSuperview(receiver: try a.receiver(), animated: try a.flag("animated"))
        case .transitionChild:
            .transitionChild(receiver: try a.receiver(), from: try a.text("from"), to: try a.text("to"), animated: try a.flag("animated"))
        case .interactiveDismiss:
            .interactiveDismiss(receiver: try a.receiver(), completes: try a.flag("completes"), tappedView: try a.optionalText("tappedView"))
        case .interactivePop:
            .interactivePop(receiver: try a.receiver(), completes: try a.flag("completes"), gesture: try a.value("gesture") ?? .edge)
        case .performSegue:
            .performSegue(
                receiver: try a.receiver(), identifier: try a.text("identifier"), destination: try a.destination(),
                segue: try a.segue())
        case .triggerSegue:
            .triggerSegue(
                receiver: try a.receiver(), identifier: try a.text("identifier"), destination: try a.destination(),
                segue: try a.segue())
        case .updateController: .updateController(try a.text("_0"), try a.decode(StoredPatch.self, "_1").domain())
        case .setTraits: .setTraits(try a.decode(StoredTraits.self, "_0").domain())
        case .completeTransition: .completeTransition(id: try a.optionalText("id"))
        case .cancelTransition: .cancelTransition(id: try a.text("id"))
        case .release: .release(try a.text("id"))
        case .beginAppearanceTransition:
            .beginAppearanceTransition(receiver: try a.receiver(), isAppearing: try a.flag("isAppearing"), animated: try a.flag("animated"))
        case .endAppearanceTransition: .endAppearanceTransition(receiver: try a.receiver())
        case .tapAlertAction:
            .tapAlertAction(
                receiver: try a.receiver(), index: try a.optionalInt("index"), title: try a.optionalText("title"),
                animated: try a.flag("animated"))
        case .dragSheet: .dragSheet(receiver: try a.receiver(), detent: try a.text("detent"))
        case .turnPage:
            .turnPage(
                receiver: try a.receiver(), direction: try storedValue(try a.text("direction")), completes: try a.flag("completes"))
        case .customizeTabs: .customizeTabs(receiver: try a.receiver(), viewControllers: try a.decode([String].self, "viewControllers"))
        case .setNeedsUpdateProperties: .setNeedsUpdateProperties(receiver: try a.receiver())
        case .animateAlongsideTransition: .animateAlongsideTransition(receiver: try a.receiver())
        case .notifyWhenInteractionChanges: .notifyWhenInteractionChanges(receiver: try a.receiver())
        case .showColumn: .showColumn(receiver: try a.receiver(), column: try storedValue(try a.text("column")))
        case .hideColumn: .hideColumn(receiver: try a.receiver(), column: try storedValue(try a.text("column")))
        }
    }
}

/// A stored command read back: `Decodable`, so any row reader (the stored codec, Foundation's
/// decoder) reads `history.command` and lifecycle code through it.
struct StoredCommandReading: Decodable {
    var command: Command

    init(from decoder: any Swift.Decoder) throws {
        let outer = try decoder.container(keyedBy: StoredKey.self)
        guard outer.allKeys.count == 1, let key = outer.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "A stored command is an object with one member, its operation."))
        }
        guard let operation = StoredOperation(rawValue: key.stringValue) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath + [key], debugDescription: "'\(key.stringValue)' is not a stored operation."))
        }
        command = try operation.read(StoredArguments(container: try outer.nestedContainer(keyedBy: StoredKey.self, forKey: key)))
    }
}

/// Any member name.
struct StoredKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A stored command's arguments, read by name.
struct StoredArguments {
    let container: KeyedDecodingContainer<StoredKey>

    func decode<T: Decodable>(_ type: T.Type, _ name: String) throws -> T { try container.decode(T.self, forKey: StoredKey(name)) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, _ name: String) throws -> T? {
        try container.decodeIfPresent(T.self, forKey: StoredKey(name))
    }
    func receiver() throws -> ControllerID { try text("receiver") }
    func text(_ name: String) throws -> String { try decode(String.self, name) }
    func optionalText(_ name: String) throws -> String? { try decodeIfPresent(String.self, name) }
    func optionalInt(_ name: String) throws -> Int? { try decodeIfPresent(Int.self, name) }
    func flag(_ name: String) throws -> Bool { try decode(Bool.self, name) }
    func ref(_ name: String) throws -> ControllerRef { try decode(StoredControllerRef.self, name).domain() }
    /// An enumeration's raw value, refused when the core has no case for it.
    func value<T: RawRepresentable>(_ name: String) throws -> T? where T.RawValue == String {
        try storedValue(try optionalText(name))
    }
    /// An enumeration's raw value, read as not given when the core has no case for it
    /// (``lenientValue(_:)``).
    func lenient<T: RawRepresentable>(_ name: String) -> T? where T.RawValue == String {
        lenientValue((try? optionalText(name)) ?? nil)
    }
    func destination() throws -> ControllerSpec? { try decodeIfPresent(StoredControllerSpec.self, "destination")?.domain() }
    func segue() throws -> SegueSpec? { try decodeIfPresent(StoredSegue.self, "segue")?.domain() }
}

extension StoredBytes {
    /// Starts `{"<operation>":{`; ``StoredCommands/write(_:to:)`` closes both.
    fileprivate mutating func begin(_ operation: StoredOperation) {
        key(operation.rawValue)
        open()
    }
    fileprivate mutating func receiver(_ r: ControllerID) { text("receiver", r) }
    fileprivate mutating func text(_ name: StaticString, _ s: String) {
        key(name)
        string(s)
    }
    fileprivate mutating func flag(_ name: StaticString, _ b: Bool) {
        key(name)
        bool(b)
    }
    fileprivate mutating func ref(_ name: StaticString, _ r: ControllerRef) throws {
        key(name)
        try StoredControllerRef(r).write(to: &self)
    }
    fileprivate mutating func segue(_ r: ControllerID, _ i: String, _ d: ControllerSpec?, _ g: SegueSpec?) throws {
        receiver(r)
        text("identifier", i)
        try key("destination", d.map(StoredControllerSpec.init))
        try key("segue", g.map(StoredSegue.init))
    }
}

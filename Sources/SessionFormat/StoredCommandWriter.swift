import JSONValues
import NavigationCore
import SessionStorage

// The history entry's commands and change-sets written straight to bytes, as the rest of the
// stored rows are in StoredRowWriter.swift.

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
        case .tapAlertAction(let r, let i, let t, let a):
            w.key("tapAlertAction"); w.open()
            w.key("receiver"); w.string(r)
            w.key("index", i)
            w.key("title", t)
            w.key("animated"); w.bool(a)
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
    private static func receiver(
        _ name: StaticString, _ r: String, _ v: StoredControllerRef, animated: Bool,
        _ w: inout StoredBytes
    ) throws {
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
    private static func segue(
        _ name: StaticString, _ r: String, _ i: String, _ d: StoredControllerSpec?, _ g: StoredSegue?,
        _ w: inout StoredBytes
    ) throws {
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

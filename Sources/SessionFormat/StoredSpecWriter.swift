import JSONValues
import NavigationCore
import SessionStorage

// The arguments of stored commands (controller references, specs, patches) and history
// change-sets written straight to bytes, as the rest of the stored rows are in
// StoredRowWriter.swift; the commands themselves are in StoredCommands.swift.

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
        w.key("splitDelegateShow", p.splitDelegateShow)
        w.key("splitDelegateShowDetail", p.splitDelegateShowDetail)
        try w.key("compact", p.compact)
        try w.key("inspector", p.inspector)
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

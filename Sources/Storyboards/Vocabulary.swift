/// The storyboard vocabulary that needs translating: controller elements to kinds and UIKit
/// classes, and presentation attribute spellings (storyboard-format.md §3, §4.3, §8).
enum ControllerElement {
    struct Entry {
        var kind: SceneKind
        var uikitClass: String
    }

    /// Every controller element seen in the corpus and the background scan (§3, §10).
    static let table: [String: Entry] = [
        "viewController": Entry(kind: .viewController, uikitClass: "UIViewController"),
        "tableViewController": Entry(kind: .tableViewController, uikitClass: "UITableViewController"),
        "collectionViewController": Entry(kind: .collectionViewController, uikitClass: "UICollectionViewController"),
        "navigationController": Entry(kind: .navigationController, uikitClass: "UINavigationController"),
        "tabBarController": Entry(kind: .tabBarController, uikitClass: "UITabBarController"),
        "splitViewController": Entry(kind: .splitViewController, uikitClass: "UISplitViewController"),
        "pageViewController": Entry(kind: .pageViewController, uikitClass: "UIPageViewController"),
        // Leaves from other frameworks: plain controllers as far as navigation goes (§9 item 19).
        "avPlayerViewController": Entry(kind: .viewController, uikitClass: "AVPlayerViewController"),
        "glkViewController": Entry(kind: .viewController, uikitClass: "GLKViewController"),
        "hostingController": Entry(kind: .viewController, uikitClass: "UIHostingController"),
        // Not a class: the controller comes from the referenced storyboard (§6).
        "viewControllerPlaceholder": Entry(kind: .placeholder, uikitClass: "UIStoryboardReference"),
    ]

    /// True when the element is in ``table`` (the corpus test insists on it).
    static func isKnown(_ element: String) -> Bool { table[element] != nil }

    /// The UIKit class of an element, falling back to the kind's class for unknown elements.
    static func uikitClass(of element: String, kind: SceneKind) -> String {
        if let entry = table[element] { return entry.uikitClass }
        switch kind {
        case .alertController: return "UIAlertController"
        default: return table[kind.defaultElementName]?.uikitClass ?? "UIViewController"
        }
    }
}

/// Presentation attribute values. Interface Builder already writes UIKit's case names
/// (`formSheet`, `overCurrentContext`, `crossDissolve`, …, §4.3); the only rewriting needed is
/// for hand-written Objective-C constant names (`UIModalPresentationFormSheet`). Unknown
/// spellings are kept as written so nothing is silently lost.
enum PresentationSpelling {
    static let presentationStyles: Set<String> = [
        "automatic", "none", "fullScreen", "pageSheet", "formSheet", "currentContext", "custom",
        "overFullScreen", "overCurrentContext", "popover", "blurOverFullScreen",
    ]
    static let transitionStyles: Set<String> = ["coverVertical", "flipHorizontal", "crossDissolve", "partialCurl"]

    static func presentationStyle(_ spelled: String?) -> String? {
        normalise(spelled, known: presentationStyles, objcPrefix: "UIModalPresentation")
    }

    static func transitionStyle(_ spelled: String?) -> String? {
        normalise(spelled, known: transitionStyles, objcPrefix: "UIModalTransitionStyle")
    }

    private static func normalise(_ spelled: String?, known: Set<String>, objcPrefix: String) -> String? {
        guard let spelled, !spelled.isEmpty else { return nil }
        if known.contains(spelled) { return spelled }
        if spelled.hasPrefix(objcPrefix) {
            let rest = spelled.dropFirst(objcPrefix.count)
            if let first = rest.first {
                let swiftName = first.lowercased() + rest.dropFirst()
                if known.contains(swiftName) { return swiftName }
            }
        }
        return spelled
    }
}

/// `YES`/`NO` as Interface Builder writes booleans.
func parseBool(_ value: String?) -> Bool? {
    switch value {
    case "YES", "yes", "true": true
    case "NO", "no", "false": false
    default: nil
    }
}

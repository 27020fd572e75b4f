/// Properties UIKit declares on some view controller classes only (`viewControllers` on
/// UINavigationController, UITabBarController, UIPageViewController and UISplitViewController,
/// `pageDataSource` on UIPageViewController, …), by their API names.
///
/// The one table of them: the service refuses a row's field in a ControllerSpec of another kind
/// (`Decoder.checkKindFields`), the engine one in a PATCH (``Engine/checkContainerProperties(_:kind:)``),
/// the storyboard routes one in a class declaration (`ClassDeclarations.check`), each through
/// ``firstLacked(_:by:)``; and openapi.yaml's `NewController` states the same table.
public struct KindProperties: Sendable {
    /// The API names of the properties.
    public let names: [String]
    /// The kinds whose classes declare them.
    public let kinds: [ControllerKind]

    /// Every property only some kinds have; a name not listed is a property of every kind.
    public static let all: [KindProperties] = [
        KindProperties(["viewControllers"], [.navigationController, .tabBarController, .pageViewController, .splitViewController]),
        KindProperties(["selectedIndex"], [.tabBarController]),
        KindProperties(
            ["primary", "supplementary", "secondary", "compact", "inspector", "style", "splitDelegate", "displayModeButtonVisibility"],
            [.splitViewController]),
        KindProperties(["transitionStyle", "spineLocation", "isDoubleSided"], [.pageViewController]),
        KindProperties(["preferredStyle", "actions"], [.alertController]),
        KindProperties(["pageDataSource", "pageDelegate"], [.pageViewController]),
        KindProperties(["customizableViewControllers"], [.tabBarController]),
        // R82, R87: `delegate` of `UINavigationController` and of `UITabBarController`.
        KindProperties(["navigationDelegate"], [.navigationController]),
        KindProperties(["tabBarDelegate"], [.tabBarController]),
    ]

    /// Each listed name's place in ``all``: its row, then its position in that row's ``names``.
    /// Built once, so a patch looks up only the names it sets.
    public static let places: [String: (row: Int, position: Int)] = Dictionary(
        uniqueKeysWithValues: all.enumerated().flatMap { row, properties in
            properties.names.enumerated().map { position, name in (name, (row, position)) }
        })

    /// Whether `kind`'s class declares the property `name`: true for a name the table does not
    /// list (a property of every kind).
    public static func declares(_ kind: ControllerKind, _ name: String) -> Bool {
        places[name].map { all[$0.row].kinds.contains(kind) } ?? true
    }

    /// Of `names`, the first in the table's order (row, then position in the row) that `kind`
    /// lacks, with its row for ``refusal(_:on:)``; nil when `kind` declares them all. Only the
    /// given names are looked up, so the cost follows the request, not the table.
    public static func firstLacked(_ names: some Sequence<String>, by kind: ControllerKind) -> (name: String, row: KindProperties)? {
        var first: (name: String, row: Int, position: Int)?
        for name in names {
            guard let place = places[name], !all[place.row].kinds.contains(kind) else { continue }
            if let f = first, (f.row, f.position) <= (place.row, place.position) { continue }
            first = (name, place.row, place.position)
        }
        return first.map { ($0.name, all[$0.row]) }
    }

    init(_ names: [String], _ kinds: [ControllerKind]) {
        self.names = names
        self.kinds = kinds
    }

    /// Why `name` (one of ``names``, or its path in a request) cannot be given to a `kind` that is
    /// not one of ``kinds``: "primary is a property of UISplitViewController; a UIViewController has none."
    public func refusal(_ name: String, on kind: ControllerKind) -> String {
        let owners = kinds.map(\.uikitClass)
        let list = owners.count == 1 ? owners[0] : owners.dropLast().joined(separator: ", ") + " and " + owners[owners.count - 1]
        return "\(name) is a property of \(list); a \(kind.uikitClass) has none."
    }
}

/// What a change of the window's size or traits reaches (R106–R108): the controllers UIKit
/// forwards `willTransition(to:with:)` and `viewWillTransition(to:with:)` to, the sizes it
/// passes, and the size classes a window of a given size has.

extension Traits {
    /// A window's size in points (`CGSize`).
    public struct Size: Sendable, Equatable, Codable {
        public var width: Double
        public var height: Double
        public init(width: Double, height: Double) {
            self.width = width
            self.height = height
        }
    }

    /// The traits a controller can register for (`registerForTraitChanges(_:handler:)`, R108),
    /// by their `UITraitCollection` property names.
    public enum Name: String, Sendable, Codable, CaseIterable {
        case userInterfaceIdiom, horizontalSizeClass, verticalSizeClass
    }

    /// The traits whose values differ between `self` and `other` (the size is not a trait).
    public func changedTraits(from other: Traits) -> [Name] {
        var out: [Name] = []
        if userInterfaceIdiom != other.userInterfaceIdiom { out.append(.userInterfaceIdiom) }
        if horizontalSizeClass != other.horizontalSizeClass { out.append(.horizontalSizeClass) }
        if verticalSizeClass != other.verticalSizeClass { out.append(.verticalSizeClass) }
        return out
    }
}

extension Profile {
    /// R108: `registerForTraitChanges(_:handler:)` exists from iOS 17 on; before, a controller
    /// hears of trait changes only through `traitCollectionDidChange(_:)`.
    public var hasTraitChangeRegistrations: Bool { release != .iOS12 }
}

extension SessionState {
    /// R106/R107: the controllers a window size or trait transition reaches, in the order UIKit
    /// forwards it: the window's root, then each container's shown children (a navigation
    /// controller's top, a tab bar controller's selected tab, a split's columns: the views in the
    /// window, parent before child), then each presented controller after the layer that
    /// presents it, as its presentation controller forwards the change. A presenter whose view a
    /// full-screen presentation removed is still reached: it stays in the controller hierarchy.
    var traitTransitionOrder: [ControllerID] {
        guard let root = rootViewController else { return [] }
        var out: [ControllerID] = []
        var seen = Set<ControllerID>()
        var layers = [root]
        // Depth-first over presentation layers without recursion: a layer's presentations follow
        // it, before the next presentation of the layer below.
        while let base = layers.popLast() {
            let tree = onScreenTree(base).filter { seen.insert($0).inserted }
            out += tree
            var presented: [ControllerID] = []
            for n in tree {
                guard let v = controllers[n]?.presentedID, let record = controllers[v]?.presentation,
                    record.state != .dismissing, !seen.contains(v)
                else { continue }
                presented.append(v)
            }
            layers += presented.reversed()
        }
        return out
    }

    /// R106: the size `viewWillTransition(to:with:)` passes to `id`, when navsim knows it: the
    /// window's size for its root and for a full-screen presentation, and a navigation, tab bar
    /// or page view controller's own size for the child it shows (its view fills the container).
    /// Nil for a sheet, a popover, a split's column or a custom container's child: their size is
    /// the presentation's or the container's layout, which navsim does not model.
    func sizeIfKnown(_ id: ControllerID) -> Traits.Size? {
        guard let window = traits.size else { return nil }
        var current = id
        for _ in 0..<10_000 {
            guard let c = controllers[current] else { return nil }
            if current == rootViewController { return window }
            if let p = c.presentation {
                return p.style == .fullScreen || p.style == .overFullScreen ? window : nil
            }
            guard let parent = c.parent, let kind = controllers[parent]?.kind,
                kind == .navigationController || kind == .tabBarController || kind == .pageViewController
            else { return nil }
            current = parent
        }
        return nil
    }
}

/// R107: a full-window size's size classes by idiom, from Apple's size-class table (Human
/// Interface Guidelines, "Layout", device size classes; docs/uikit-behaviours.md R107).
extension Traits {
    /// The size classes of a window of `size` points on `idiom`. iPhone: regular height in
    /// portrait, compact in landscape; compact width except in landscape on the 414-point-wide
    /// and wider models (Plus and Max). iPad: regular height always; regular width from 678
    /// points on (full screen in either orientation, and the halves of Split View on the
    /// 12.9-inch model), compact below (Slide Over, one-third and narrower halves).
    public static func sizeClasses(idiom: Idiom, size: Size) -> (horizontal: SizeClass, vertical: SizeClass) {
        switch idiom {
        case .phone:
            let landscape = size.width > size.height
            guard landscape else { return (.compact, .regular) }
            return (size.height >= 414 ? .regular : .compact, .compact)
        case .pad:
            return (size.width >= 678 ? .regular : .compact, .regular)
        }
    }
}

public import NavigationCore

/// A state's canonical form: the window's hierarchy from the root, each controller named by the
/// scene it came from (its storyboard and id without the `~N` a repeated instance gets), with
/// containers' children in order, a tab bar's selection, a split's collapse and each
/// presentation's style, hashed as it is written (FNV-1a, 64 bits). What the hierarchy does not
/// show (loaded views, generated ids, counters) is left out, so two paths to the same screen
/// meet. A collision would merge two states; at 64 bits and a million states its odds are
/// below one in ten million.
public enum Canonical {
    /// The hash of `state`'s canonical form.
    public static func hash(_ state: SessionState) -> UInt64 {
        var h = Hasher64()
        guard let root = state.rootViewController else { return h.value }
        write(root, state, &h, depth: 0)
        return h.value
    }

    private static func write(_ id: ControllerID, _ state: SessionState, _ h: inout Hasher64, depth: Int) {
        guard depth < 10_000, let c = state.controllers[id] else {
            h.byte(0x3F)
            return
        }
        h.byte(0x28)
        if let origin = c.storyboard {
            h.string(origin.name)
            h.byte(0x2F)
            h.string(baseID(c.id))
        } else {
            h.string(c.kind.rawValue)
            h.byte(0x3A)
            h.string(c.className)
        }
        if let tabs = c.tabState {
            h.byte(0x23)
            h.int(tabs.selectedViewController.flatMap { tabs.viewControllers.firstIndex(of: $0) } ?? -1)
        }
        if let split = c.splitState { h.byte(split.isCollapsed ? 0x63 : 0x65) }
        let listed = c.viewControllers
        for child in listed { write(child, state, &h, depth: depth + 1) }
        for child in c.children where !listed.contains(child) { write(child, state, &h, depth: depth + 1) }
        if let presented = c.presentedID {
            h.byte(0x5E)
            h.string(state.controllers[presented]?.presentation?.style.rawValue ?? "")
            write(presented, state, &h, depth: depth + 1)
        }
        h.byte(0x29)
    }

    /// `id` without the `~N` (or, for histories stored before ids were URL-safe, `#N`) the core
    /// appends to a repeated storyboard id (docs/api.md "Storyboards").
    public static func baseID(_ id: String) -> Substring {
        let utf8 = id.utf8
        var end = utf8.endIndex
        var digits = 0
        while end > utf8.startIndex {
            let before = utf8.index(before: end)
            let byte = utf8[before]
            if byte >= 0x30 && byte <= 0x39 {
                digits += 1
                end = before
                continue
            }
            if (byte == 0x7E || byte == 0x23) && digits > 0 { return Substring(id[..<before]) }
            break
        }
        return Substring(id)
    }
}

/// FNV-1a, 64 bits: deterministic across runs and machines, unlike `Hasher`.
struct Hasher64 {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func byte(_ b: UInt8) {
        value ^= UInt64(b)
        value &*= 0x0000_0100_0000_01B3
    }

    mutating func string<S: StringProtocol>(_ s: S) {
        for b in s.utf8 { byte(b) }
        byte(0)
    }

    mutating func int(_ i: Int) {
        var v = UInt64(bitPattern: Int64(i))
        for _ in 0..<8 {
            byte(UInt8(truncatingIfNeeded: v))
            v >>= 8
        }
    }
}

import NavigationCore

/// R38 as a state machine over one controller's appearance callbacks, fed event by event:
/// `viewWillAppear` only from off screen or disappearing (a cancelled disappearance, a hand-over),
/// `viewIsAppearing` and `viewDidAppear` only while appearing, `viewWillDisappear` only from
/// appeared or appearing (a cancelled appearance, a hand-over), `viewDidDisappear` only while
/// disappearing. So no `viewDidAppear` without a `viewWillAppear` before it, and none twice
/// without a disappearance between.
struct AppearanceBalance {
    private(set) var phase: [ControllerID: Appearance] = [:]

    /// Feeds the events of one call. `before` seeds a controller seen for the first time (a
    /// controller the call creates starts off screen); `released` forgets the dropped ones.
    /// Returns one line per callback the machine does not allow.
    mutating func feed(_ events: [Event], before: SessionState, released: [ControllerID] = []) -> [String] {
        var problems: [String] = []
        for e in events {
            let current = phase[e.controller] ?? before.controllers[e.controller]?.appearance ?? .disappeared
            let next: Appearance?
            switch (e.callback, current) {
            case (.viewWillAppear, .disappeared), (.viewWillAppear, .disappearing): next = .appearing
            case (.viewIsAppearing, .appearing): next = .appearing
            case (.viewDidAppear, .appearing): next = .appeared
            case (.viewWillDisappear, .appeared), (.viewWillDisappear, .appearing): next = .disappearing
            case (.viewDidDisappear, .disappearing): next = .disappeared
            case (.viewWillAppear, _), (.viewIsAppearing, _), (.viewDidAppear, _), (.viewWillDisappear, _), (.viewDidDisappear, _):
                next = nil
            default: continue
            }
            if let next {
                phase[e.controller] = next
            } else {
                problems.append("\(e.controller).\(e.callback.rawValue) while \(current)")
                phase[e.controller] = nil
            }
        }
        for id in released { phase[id] = nil }
        return problems
    }
}

import Testing
@testable import NavigationCore

// The vocabulary of expected changes: what `send { … }` closures use to describe a state after a
// command. Plain controller fields (parent, children, appearance, isViewLoaded, viewInWindow, the
// being/moving flags, presentation, presentedID, configuration) are written directly or through
// `modify`. Fields that belong to one kind of container (the stack, the tabs and selection, the
// split's and the page view controller's state, an alert's style, the More list) are written ONLY
// through the methods in this file, so a change of how `Controller` stores them is a change here.

extension SessionState {
    /// Changes one existing controller; records an issue (and changes nothing) for an unknown id.
    mutating func modify(
        _ id: ControllerID, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (inout Controller) -> Void
    ) {
        guard var c = controllers[id] else {
            Issue.record("the expected change names \(id), which is not in the state", sourceLocation: sourceLocation)
            return
        }
        body(&c)
        controllers[id] = c
    }

    /// A controller the command creates (from a spec): UIKit's defaults for `kind`, appended to
    /// the creation order, then `body` for what differs.
    mutating func create(
        _ id: ControllerID, _ kind: ControllerKind = .viewController, className: String? = nil,
        _ body: (inout Controller) -> Void = { _ in }
    ) {
        var c = Controller(id: id, kind: kind, className: className)
        body(&c)
        controllers[id] = c
        order.append(id)
    }

    /// On screen and appeared: view loaded, `appeared`, view in the window.
    mutating func appeared(_ ids: ControllerID..., sourceLocation: SourceLocation = #_sourceLocation) {
        for id in ids {
            modify(id, sourceLocation: sourceLocation) {
                $0.isViewLoaded = true
                $0.appearance = .appeared
                $0.viewInWindow = true
            }
        }
    }

    /// Off screen: `disappeared`, view out of the window (the view stays loaded).
    mutating func disappeared(_ ids: ControllerID..., sourceLocation: SourceLocation = #_sourceLocation) {
        for id in ids {
            modify(id, sourceLocation: sourceLocation) {
                $0.appearance = .disappeared
                $0.viewInWindow = false
            }
        }
    }

    /// A completed push of a new plain controller `new` onto `nav` (R73, R77): `new` is created as
    /// nav's child and appears, the old top (`stack.last`) disappears, the stack becomes
    /// `stack + [new]`, and one transition number is used.
    mutating func pushedNew(
        _ new: ControllerID, onto nav: ControllerID, over stack: [ControllerID],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        create(new) { $0.parent = nav }
        appeared(new, sourceLocation: sourceLocation)
        if let top = stack.last { disappeared(top, sourceLocation: sourceLocation) }
        modify(nav, sourceLocation: sourceLocation) { $0.children = stack + [new] }
        setStack(nav, stack + [new], sourceLocation: sourceLocation)
        nextTransitionNumber += 1
    }

    // MARK: Container state (write only through these)

    /// A navigation controller's `viewControllers` (bottom first).
    mutating func setStack(_ nav: ControllerID, _ stack: [ControllerID], sourceLocation: SourceLocation = #_sourceLocation) {
        modify(nav, sourceLocation: sourceLocation) { $0.navigationStack?.viewControllers = stack }
    }

    /// A tab bar controller's `viewControllers`.
    mutating func setTabs(_ tabBar: ControllerID, _ tabs: [ControllerID], sourceLocation: SourceLocation = #_sourceLocation) {
        modify(tabBar, sourceLocation: sourceLocation) { $0.tabState?.viewControllers = tabs }
    }

    /// A tab bar controller's `selectedViewController` (`<id>.more` while the More list shows).
    mutating func setSelected(_ tabBar: ControllerID, _ selected: ControllerID?, sourceLocation: SourceLocation = #_sourceLocation) {
        modify(tabBar, sourceLocation: sourceLocation) { $0.tabState?.selectedViewController = selected }
    }

    /// A tab bar controller's `moreNavigationController` (R88).
    mutating func setMoreNavigation(_ tabBar: ControllerID, _ more: ControllerID?, sourceLocation: SourceLocation = #_sourceLocation) {
        modify(tabBar, sourceLocation: sourceLocation) { $0.tabState?.moreNavigationController = more }
    }

    /// Marks a navigation controller as a tab bar's More navigation controller (R88).
    mutating func markMoreNavigation(_ nav: ControllerID, sourceLocation: SourceLocation = #_sourceLocation) {
        modify(nav, sourceLocation: sourceLocation) { $0.navigationStack?.isMoreNavigationController = true }
    }

    /// A split view controller's state (R90–R93).
    mutating func modifySplit(
        _ split: ControllerID, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (inout SplitState) -> Void
    ) {
        modifyState(split, \.splitState, "split", sourceLocation: sourceLocation, body)
    }

    /// A page view controller's current pages (`viewControllers`, R94).
    mutating func setPages(_ pageViewController: ControllerID, _ pages: [ControllerID], sourceLocation: SourceLocation = #_sourceLocation) {
        modify(pageViewController, sourceLocation: sourceLocation) { $0.pageContainer?.viewControllers = pages }
    }

    /// A page view controller's settings (R94, R95).
    mutating func modifyPage(
        _ pageViewController: ControllerID, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (inout PageState) -> Void
    ) {
        modifyState(pageViewController, \.pageContainer, "page", sourceLocation: sourceLocation) { body(&$0.settings) }
    }

    /// Changes the kind-specific state at `state` of `id`; a controller without it is a recorded issue.
    private mutating func modifyState<S>(
        _ id: ControllerID, _ state: WritableKeyPath<Controller, S?>, _ kind: String,
        sourceLocation: SourceLocation, _ body: (inout S) -> Void
    ) {
        modify(id, sourceLocation: sourceLocation) {
            guard var value = $0[keyPath: state] else {
                Issue.record("\(id) has no \(kind) state", sourceLocation: sourceLocation)
                return
            }
            body(&value)
            $0[keyPath: state] = value
        }
    }

    /// An alert controller's `preferredStyle`.
    mutating func setPreferredStyle(_ alert: ControllerID, _ style: AlertStyle?, sourceLocation: SourceLocation = #_sourceLocation) {
        modify(alert, sourceLocation: sourceLocation) { $0.alertState?.preferredStyle = style }
    }

    // MARK: Running transitions (compared by record)

    /// A transition that is still running after the turn (manual mode), as clients see it.
    mutating func startRunning(_ record: TransitionRecord) {
        transitions.append(
            RunningTransition(
                record: record, order: .modal, appearing: [], disappearing: [],
                preStart: [], postFinish: [], effects: [], cancellation: nil,
                isReported: true, started: true))
    }

    /// Changes the record of a running transition.
    mutating func modifyRunning(
        _ id: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (inout TransitionRecord) -> Void
    ) {
        guard let i = transitions.firstIndex(where: { $0.record.id == id }) else {
            Issue.record("no running transition \(id) in the state", sourceLocation: sourceLocation)
            return
        }
        body(&transitions[i].record)
    }

    /// A running transition ends (it leaves `transitions`).
    mutating func finishRunning(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let i = transitions.firstIndex(where: { $0.record.id == id }) else {
            Issue.record("no running transition \(id) in the state", sourceLocation: sourceLocation)
            return
        }
        transitions.remove(at: i)
    }
}

/// A settled presentation record (§0.1): `presenting` presents, `source` received `present`
/// (the presenter unless a context or a container resolved another, R20, R21).
func presentationRecord(
    _ presenting: ControllerID, source: ControllerID? = nil, requested: PresentationStyle,
    style: PresentationStyle? = nil, transitionStyle: TransitionStyle = .coverVertical,
    context: ControllerID? = nil, removesPresenterView: Bool = false,
    popover: PopoverAnchor? = nil, state: Presentation.State = .presented
) -> Presentation {
    Presentation(
        presenting: presenting, source: source ?? presenting, requestedStyle: requested, style: style ?? requested,
        transitionStyle: transitionStyle, contextViewController: context,
        removesPresenterView: removesPresenterView, popover: popover, state: state)
}

extension SessionState {
    /// Controllers the command drops from the session (Release.swift): gone from `controllers`
    /// and from the creation order.
    mutating func released(_ ids: ControllerID..., sourceLocation: SourceLocation = #_sourceLocation) {
        for id in ids {
            guard controllers[id] != nil else {
                Issue.record("the expected release names \(id), which is not in the state", sourceLocation: sourceLocation)
                continue
            }
            controllers[id] = nil
            order.removeAll { $0 == id }
        }
    }
}

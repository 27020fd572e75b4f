/// Alert controllers' actions and a user tapping one (R103, R104; docs/api.md `tapAlertAction`).
///
/// `UIAlertController.addAction(_:)` keeps the actions in order and raises when a second action
/// has the cancel style. A tap on an action makes the alert dismiss itself through its presenting
/// view controller, `dismiss(animated:completion:)`, and the action's handler runs in that
/// dismissal's completion: after the alert's `viewDidDisappear`, so code in the handler finds the
/// presenter free to present again (docs/uikit-behaviours.md R103 gives the evidence).

/// `UIAlertAction`: a button of an alert or action sheet.
public struct AlertAction: Sendable, Equatable {
    /// `UIAlertAction.Style`.
    public enum Style: String, Sendable, CaseIterable, Codable {
        case `default`, cancel, destructive
    }
    /// `title`; UIKit allows nil.
    public var title: String?
    public var style: Style
    /// What the `handler` closure does, as lifecycle code does (``CallbackCode``): calls whose
    /// receiver ``CallbackCode/selfReceiver`` is the controller that presented the alert, where
    /// the closure is written (`self.present(alert, …)`).
    public var handler: [CallbackCode.Call]

    public init(title: String?, style: Style = .default, handler: [CallbackCode.Call] = []) {
        self.title = title
        self.style = style
        self.handler = handler
    }
}

/// Which action's handler an `alertActionHandler` event runs: its index in the alert's actions,
/// and the controller that stands for `self` in it (the one `present` was called on).
public struct AlertActionTap: Sendable, Equatable {
    public var index: Int
    public var handlerSelf: ControllerID
    public init(index: Int, handlerSelf: ControllerID) {
        self.index = index
        self.handlerSelf = handlerSelf
    }
}

extension Diagnostic {
    /// D25 (R104): `-[UIAlertController addAction:]`'s assertion, an
    /// NSInternalInconsistencyException.
    static func secondCancelAction() -> Diagnostic {
        Diagnostic(
            code: "D25", slug: "alert-second-cancel-action", severity: .exception, name: internalInconsistency,
            message: "UIAlertController can only have one action with a style of UIAlertActionStyleCancel")
    }
    /// D26 (R103): a tap on an alert that no controller presents. UIKit's dismissal finds no
    /// presenter, does not run the action, and says so (the first line of its message).
    static func alertNotPresented(_ alert: String) -> Diagnostic {
        Diagnostic(
            code: "D26", slug: "alert-not-presented", severity: .warning, name: nil,
            message: "Attempt to dismiss \(alert) with unknown presenter, action will not be performed.")
    }
}

extension Engine {
    /// R104: only an alert controller has actions (UIKit declares `actions` on UIAlertController
    /// alone), and at most one of them has the cancel style (D25).
    func checkAlertActions(_ actions: [AlertAction], kind: ControllerKind) throws(Refusal) {
        guard !actions.isEmpty else { return }
        guard kind == .alertController else {
            throw .input(.invalid("actions is a property of UIAlertController; a \(kind.uikitClass) has none.", field: "actions"))
        }
        if actions.filter({ $0.style == .cancel }).count > 1 { throw .uikit(.secondCancelAction()) }
    }

    /// R103: a user taps action `index` (or the first titled `title`) of the presented alert `r`.
    /// The alert is dismissed as `presentingViewController.dismiss(animated:completion:)` does it
    /// (R40–R43); the handler runs in its completion (``runAlertActionHandler(after:in:)``).
    mutating func tapAlertAction(_ r: ControllerID, index: Int?, title: String?, animated: Bool) throws(Refusal) {
        let alert = try existing(r)
        guard alert.kind == .alertController else {
            throw .input(.wrongReceiver("\(alert.descriptionForMessages) is not a UIAlertController; only an alert's actions can be tapped."))
        }
        let actions = alert.configuration.actions
        let i: Int
        if let index {
            guard actions.indices.contains(index) else {
                let range = actions.isEmpty ? "it has no actions" : "it has actions 0…\(actions.count - 1)"
                throw .input(.invalid("\(alert.descriptionForMessages) has no action at index \(index); \(range).", field: "index"))
            }
            i = index
        } else if let found = actions.firstIndex(where: { $0.title == title }) {
            i = found
        } else {
            let titles = actions.map { $0.title.map { "'\($0)'" } ?? "nil" }.joined(separator: ", ")
            throw .input(
                .invalid(
                    "\(alert.descriptionForMessages) has no action titled '\(title ?? "")'; its actions: \(titles.isEmpty ? "none" : titles).",
                    field: "title"))
        }
        guard let record = alert.presentation else { throw .uikit(.alertNotPresented(alert.descriptionForMessages)) }
        // R43: the alert's presenter is asked to dismiss while a transition of the chain runs.
        let chain = presentationChain(from: r)
        if chain.contains(where: { state.c($0).presentation?.state != .presented }) {
            throw .uikit(.dismissInProgress(name(record.presenting)))
        }
        // R160: an alert something else is presented over takes no tap.
        guard !state.isCoveredByPresentation(r) else { return }
        var handler = Event(r, .alertActionHandler)
        handler.action = actions[i].title
        handler.alertAction = AlertActionTap(index: i, handlerSelf: record.source)
        try startDismissal(chain: chain, presenter: record.presenting, animated: animated, postFinish: [handler], operation: .dismiss)
    }

    /// Runs the tapped action's handler code, `self` being the controller that presented the alert.
    mutating func runAlertActionHandler(after event: Event, in entry: Journal.Index) {
        guard let tap = event.alertAction, let actions = state.controllers[event.controller]?.configuration.actions,
            actions.indices.contains(tap.index), !actions[tap.index].handler.isEmpty
        else { return }
        run(
            actions[tap.index].handler, as: tap.handlerSelf, in: entry,
            place: "\(name(event.controller)).actions[\(tap.index)].handler", field: "actions[\(tap.index)].handler",
            // What the handler starts is what the tap did: the reply names it (docs/api.md, tapAlertAction).
            reportsTransitions: true)
    }
}

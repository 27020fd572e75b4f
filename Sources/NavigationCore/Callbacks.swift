/// Code a controller's class runs inside its own view lifecycle methods (issue 12 item 8): the
/// UIKit calls written in `viewDidLoad`, `viewWillAppear(_:)`, `viewIsAppearing(_:)`,
/// `viewDidAppear(_:)`, `viewWillDisappear(_:)` and `viewDidDisappear(_:)`, as nested commands.
/// The calls run synchronously each time the method is called, where UIKit calls it: their
/// callbacks follow the method's event in the same command's result (R32 order), their UIKit
/// warnings join its warnings (a refused call changes nothing, R30), and a UIKit exception or an
/// input error inside one makes the whole turn fail and change nothing.
public struct CallbackCode: Sendable, Equatable {
    /// The lifecycle methods that may hold code: view loading and the appearance callbacks (R32).
    public enum Method: String, Sendable, CaseIterable {
        case viewDidLoad, viewWillAppear, viewIsAppearing, viewDidAppear, viewWillDisappear, viewDidDisappear
    }

    /// One UIKit call in a method's body.
    public struct Call: Sendable, Equatable {
        /// The call; a receiver equal to ``CallbackCode/selfReceiver`` is the controller whose
        /// method runs (`self`).
        public var command: Command
        /// Runs the first time the method is called only (`if !didRun { … }`); the call is then
        /// removed from the controller's code.
        public var once: Bool
        public init(_ command: Command, once: Bool = false) {
            self.command = command
            self.once = once
        }
    }

    /// Each method's calls, in the order the body makes them.
    public var calls: [Method: [Call]] = [:]

    public init(_ calls: [Method: [Call]] = [:]) { self.calls = calls.filter { !$0.value.isEmpty } }

    /// No method holds code.
    public var isEmpty: Bool { calls.values.allSatisfy(\.isEmpty) }

    /// The receiver that stands for `self`: a controller id no spec can take (`~` only appears
    /// in suffixes, never first).
    public static let selfReceiver: ControllerID = "~self"
    /// Nested lifecycle code deeper than this (code whose calls make a method with code run, and
    /// so on) fails the turn: a method that triggers itself would otherwise never end.
    public static let maximumDepth = 8
    /// At most this many nested calls run in one turn.
    public static let maximumCallsPerTurn = 256
}

extension Command {
    /// This command with receiver `old` replaced by `new` (a callback's `self`).
    func replacingReceiver(_ old: ControllerID, with new: ControllerID) -> Command {
        func m(_ r: ControllerID) -> ControllerID { r == old ? new : r }
        switch self {
        case .setRoot, .createController, .setTraits, .completeTransition, .cancelTransition: return self
        case .present(let r, let v, let s, let t, let p, let a):
            return .present(receiver: m(r), viewController: v, style: s, transitionStyle: t, popover: p, animated: a)
        case .dismiss(let r, let a): return .dismiss(receiver: m(r), animated: a)
        case .show(let r, let v, let a): return .show(receiver: m(r), viewController: v, animated: a)
        case .showDetail(let r, let v, let a): return .showDetail(receiver: m(r), viewController: v, animated: a)
        case .push(let r, let v, let a): return .push(receiver: m(r), viewController: v, animated: a)
        case .pop(let r, let a): return .pop(receiver: m(r), animated: a)
        case .popToRoot(let r, let a): return .popToRoot(receiver: m(r), animated: a)
        case .popTo(let r, let v, let a): return .popTo(receiver: m(r), viewController: m(v), animated: a)
        case .setViewControllers(let r, let v, let d, let a):
            return .setViewControllers(receiver: m(r), viewControllers: v, direction: d, animated: a)
        case .select(let r, let i, let v): return .select(receiver: m(r), index: i, viewController: v)
        case .tapTab(let r, let i, let v): return .tapTab(receiver: m(r), index: i, viewController: v)
        case .addChild(let r, let v): return .addChild(receiver: m(r), viewController: v)
        case .removeFromParent(let r): return .removeFromParent(receiver: m(r))
        case .release(let r): return .release(m(r))
        case .willMove(let r, let p): return .willMove(receiver: m(r), toParent: p.map(m))
        case .didMove(let r, let p): return .didMove(receiver: m(r), toParent: p.map(m))
        case .addSubview(let r, let v, let a): return .addSubview(receiver: m(r), viewController: m(v), animated: a)
        case .removeFromSuperview(let r, let a): return .removeFromSuperview(receiver: m(r), animated: a)
        case .transitionChild(let r, let f, let t, let a): return .transitionChild(receiver: m(r), from: m(f), to: m(t), animated: a)
        case .interactiveDismiss(let r, let c): return .interactiveDismiss(receiver: m(r), completes: c)
        case .interactivePop(let r, let c): return .interactivePop(receiver: m(r), completes: c)
        case .performSegue(let r, let i, let d, let s): return .performSegue(receiver: m(r), identifier: i, destination: d, segue: s)
        case .triggerSegue(let r, let i, let d, let s): return .triggerSegue(receiver: m(r), identifier: i, destination: d, segue: s)
        case .updateController(let r, let p): return .updateController(m(r), p)
        }
    }
}

/// What lifecycle code has done so far in a turn.
struct CallbackProgress {
    var depth = 0
    var calls = 0
    /// The exception or input error that fails the turn (nothing it did is kept).
    var failure: Refusal?
}

extension Engine {
    /// The one hook: right after `event` is recorded in `entry`, the code of the method it names
    /// runs, as the method's body would (issue 12 item 8). A refused warning (D7 "whose view is
    /// not in the window hierarchy", D6, D8, D9, …) is logged in the entry's warnings and the call
    /// changes nothing (R30); an exception or input error fails the turn (``CallbackProgress``).
    mutating func runCode(after event: Event, in entry: Journal.Index) {
        guard callbacks.failure == nil, let method = CallbackCode.Method(rawValue: event.callback.rawValue),
              let calls = state.controllers[event.controller]?.configuration.on.calls[method], !calls.isEmpty else { return }
        let id = event.controller
        if calls.contains(where: \.once) {
            self[changing: id].configuration.on.calls[method] = calls.filter { !$0.once }
        }
        callbacks.depth += 1
        defer { callbacks.depth -= 1 }
        for call in calls {
            callbacks.calls += 1
            guard callbacks.depth <= CallbackCode.maximumDepth, callbacks.calls <= CallbackCode.maximumCallsPerTurn else {
                callbacks.failure = .input(CommandError(
                    kind: .limitExceeded,
                    message: "Code in \(name(id)).\(method.rawValue) runs too deep (more than \(CallbackCode.maximumDepth) nested lifecycle methods) or makes more than \(CallbackCode.maximumCallsPerTurn) calls in one request; does a method trigger itself?",
                    field: "on.\(method.rawValue)"))
                return
            }
            let saved = journal.focus
            journal.focus = entry
            defer { journal.focus = saved }
            let snapshot = state, pendingCount = pending.count, result = journal[entry].result
            do throws(Refusal) {
                try execute(call.command.replacingReceiver(CallbackCode.selfReceiver, with: id))
                // What the nested call returns or creates is not the outer command's.
                journal[entry].result.returned = result.returned
                journal[entry].result.returnsValue = result.returnsValue
                journal[entry].result.created = result.created
                journal[entry].result.transition = result.transition
            } catch {
                if case .uikit(let d) = error, d.severity == .warning {
                    state = snapshot
                    pending.removeLast(pending.count - pendingCount)
                    journal[entry].result = result
                    journal[entry].result.warnings.append(d)
                } else if callbacks.failure == nil {
                    callbacks.failure = error
                }
            }
            if callbacks.failure != nil { return }
        }
    }
}

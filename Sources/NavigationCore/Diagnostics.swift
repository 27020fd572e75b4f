/// UIKit's refusals and warnings, with UIKit's names and messages (§17; docs/uikit-behaviours.md "Diagnostics" lists them).
/// `<X>` in a template is rendered `<Class: id>`.
extension Diagnostic {
    private static func exception(_ code: String, _ slug: String, _ name: String, _ message: String) -> Diagnostic {
        Diagnostic(code: code, slug: slug, severity: .exception, name: name, message: message)
    }
    private static func warning(_ code: String, _ slug: String, _ message: String) -> Diagnostic {
        Diagnostic(code: code, slug: slug, severity: .warning, name: nil, message: message)
    }
    static let invalidArgument = "NSInvalidArgumentException"
    static let internalInconsistency = "NSInternalInconsistencyException"
    static let generic = "NSGenericException"

    /// D1 (R7).
    static func presentNil(source: String) -> Diagnostic {
        exception(
            "D1", "nil-view-controller", invalidArgument,
            "Application tried to present a nil modal view controller on target \(source).")
    }
    /// D2 (R8).
    static func presentSelf(source: String) -> Diagnostic {
        exception(
            "D2", "present-self", invalidArgument,
            "Application tried to present modal view controller on itself. Presenting controller is \(source).")
    }
    /// D3 (R9); releases ≤ 12 used the D5 wording (§19).
    static func hasParent(_ v: String, parent: String, legacy: Bool) -> Diagnostic {
        if legacy { return activeController(v, code: "D3", slug: "has-parent") }
        return exception(
            "D3", "has-parent", invalidArgument,
            "Application tried to present modally a view controller \(v) that has a parent view controller \(parent).")
    }
    /// D4 (R10).
    static func alreadyPresented(_ v: String, by presenter: String, legacy: Bool) -> Diagnostic {
        if legacy { return activeController(v, code: "D4", slug: "already-presented") }
        return exception(
            "D4", "already-presented", invalidArgument,
            "Application tried to present modally a view controller \(v) that is already being presented by \(presenter).")
    }
    /// D5 (R11).
    static func activeController(_ v: String, code: String = "D5", slug: String = "active-controller") -> Diagnostic {
        exception(code, slug, invalidArgument, "Application tried to present modally an active controller \(v).")
    }
    /// D6 (R12), with the iOS ≤ 12 wording when asked.
    static func alreadyPresenting(_ v: String, on p: String, from s: String, presenting w: String, legacy: Bool) -> Diagnostic {
        warning(
            "D6", "already-presenting",
            legacy
                ? "Warning: Attempt to present \(v) on \(p) which is already presenting \(w)"
                : "Attempt to present \(v) on \(p) (from \(s)) which is already presenting \(w).")
    }
    /// D7 (R13).
    static func notInWindow(_ v: String, on p: String, from s: String, legacy: Bool) -> Diagnostic {
        warning(
            "D7", "not-in-window-hierarchy",
            legacy
                ? "Warning: Attempt to present \(v) on \(p) whose view is not in the window hierarchy!"
                : "Attempt to present \(v) on \(p) (from \(s)) whose view is not in the window hierarchy.")
    }
    /// D8 (R14). From iOS 13 on the console names the source and ends with a period, like D6
    /// and D7: "Attempt to present <V> on <P> (from <S>) while a presentation is in progress."
    /// (quoted in public logs, e.g. react-native-screens and SwiftUI sheet reports); iOS ≤ 12
    /// printed "Warning: Attempt to present <V> on <P> while a presentation is in progress!".
    static func presentationInProgress(_ v: String, on p: String, from s: String, legacy: Bool) -> Diagnostic {
        warning(
            "D8", "presentation-in-progress",
            legacy
                ? "Warning: Attempt to present \(v) on \(p) while a presentation is in progress!"
                : "Attempt to present \(v) on \(p) (from \(s)) while a presentation is in progress.")
    }
    /// D9 (R43).
    static func dismissInProgress(_ d: String) -> Diagnostic {
        warning(
            "D9", "dismiss-in-progress",
            "Attempt to dismiss from view controller \(d) while a presentation or dismiss is in progress!")
    }
    /// D10 (R15). `pc` names the popover presentation controller.
    static func popoverWithoutAnchor(_ pc: String) -> Diagnostic {
        exception(
            "D10", "popover-without-anchor", generic,
            "UIPopoverPresentationController (\(pc)) should have a non-nil sourceView or barButtonItem set before the presentation occurs.")
    }
    /// D10 (R15) for an action sheet shown as a popover (iPad): UIKit's text, as crash logs
    /// quote it; releases up to 12 leave out "from …".
    static func actionSheetWithoutAnchor(
        _ alert: String, presenter presenterClass: String, _ presenter: String,
        legacy: Bool
    ) -> Diagnostic {
        let from = legacy ? "" : " from \(presenterClass) (\(presenter))"
        return exception(
            "D10", "popover-without-anchor", generic,
            "Your application has presented a UIAlertController (\(alert)) of style UIAlertControllerStyleActionSheet\(from). The modalPresentationStyle of a UIAlertController with this style is UIModalPresentationPopover. You must provide location information for this popover through the alert controller's popoverPresentationController. You must provide either a sourceView and sourceRect or a barButtonItem.  If this information is not known when you present the alert controller, you may provide it in the UIPopoverPresentationControllerDelegate method -prepareForPopoverPresentation."
        )
    }
    /// D11 (R16); UIKit's text is unverified (§17), so this one is navsim's wording.
    static func partialCurl(_ v: String) -> Diagnostic {
        exception(
            "D11", "partial-curl", invalidArgument,
            "Application tried to present \(v) with the partialCurl transition style, which requires a full-screen presentation from a controller that covers the screen and cannot present further."
        )
    }
    /// R17: §17 has no entry (no code) and UIKit's text is unverified, so the wording is navsim's.
    static func contextStyleInPopover(_ v: String, style: PresentationStyle, transition: TransitionStyle) -> Diagnostic {
        Diagnostic(
            code: nil, slug: "context-style-in-popover", severity: .exception, name: invalidArgument,
            message:
                "Application tried to present \(v) with the \(style.rawValue) presentation style and the \(transition.rawValue) transition style from inside a popover; only coverVertical is supported there."
        )
    }
    /// D12 (R76).
    static func pushNavigationController() -> Diagnostic {
        exception("D12", "push-navigation-controller", invalidArgument, "Pushing a navigation controller is not supported")
    }
    /// R76: a tab bar controller is pushed, as UIKit does, with this warning of navsim's own
    /// (UIKit logs nothing, so there is no code): the documentation says the pushed controller
    /// "cannot be a tab bar controller".
    static func tabBarControllerPushed(_ v: String, onto nav: String) -> Diagnostic {
        Diagnostic(
            code: nil, slug: "tab-bar-controller-pushed", severity: .warning, name: nil,
            message:
                "\(nav) pushed the tab bar controller \(v). UIKit performs the push, but Apple's documentation of pushViewController(_:animated:) calls pushing a tab bar controller unsupported."
        )
    }
    /// D12's family (R76, R93): UIKit's observed text for a split view controller, as crash
    /// logs quote it.
    static func pushSplitViewController(nav: String) -> Diagnostic {
        exception(
            "D12", "push-navigation-controller", invalidArgument,
            "Split View Controllers cannot be pushed to a Navigation Controller \(nav)")
    }
    /// R99: an unwind whose action no controller implements does nothing in UIKit, silently;
    /// this warning of navsim's own (no code) names the action and the controllers asked.
    static func unwindDestinationNotFound(action: String, source: String, asked: [String]) -> Diagnostic {
        let list = asked.isEmpty ? "no controller (the source has no parent or presenter)" : asked.joined(separator: ", ")
        return Diagnostic(
            code: nil, slug: "unwind-destination-not-found", severity: .warning, name: nil,
            message: "The unwind from \(source) found no destination: none of the controllers asked implements \(action) (asked: \(list)). Nothing happens.")
    }
    /// R173: navsim's own (UIKit logs nothing): Apple's reference for
    /// `UISplitViewController.Column.supplementary` says the column "only takes effect" when the
    /// style is `tripleColumn`, so a double-column split ignores the controller given for it.
    static func supplementaryColumnIgnored(split: String, _ v: String) -> Diagnostic {
        Diagnostic(
            code: nil, slug: "supplementary-column-ignored", severity: .warning, name: nil,
            message:
                "\(split) is doubleColumn: UIKit ignores the controller set for its supplementary column (the column only takes effect in tripleColumn style), so \(v) joins no hierarchy."
        )
    }
    /// D13 (R76).
    static func pushDuplicate(nav: String, _ v: String, legacy: Bool) -> Diagnostic {
        exception(
            "D13", "push-duplicate", invalidArgument,
            legacy
                ? "Pushing the same view controller instance more than once is not supported (\(v))"
                : "\(nav) is pushing the same view controller instance (\(v)) more than once which is not supported and is most likely an error in the application")
    }
    /// D14 (R80).
    static func duplicateViewControllers(_ list: [String]) -> Diagnostic {
        exception(
            "D14", "duplicate-view-controllers", internalInconsistency,
            "All view controllers in a navigation controller must be distinct (\(list.joined(separator: ", ")))")
    }
    /// D15 (R79).
    static func popToUnknown() -> Diagnostic {
        exception("D15", "pop-to-unknown", internalInconsistency, "Tried to pop to a view controller that doesn't exist.")
    }
    /// D16 (R85).
    static func selectNonChild(_ v: String) -> Diagnostic {
        exception(
            "D16", "select-non-child", internalInconsistency,
            "Attempting to select a view controller that isn't a child! \(v)")
    }
    /// D17 (R94).
    static func pageCountMismatch(provided: Int, required: Int) -> Diagnostic {
        exception(
            "D17", "page-count-mismatch", invalidArgument,
            "The number of view controllers provided (\(provided)) doesn't match the number required (\(required)) for the requested transition")
    }
    /// D18 (R97).
    static func unknownSegue(_ receiver: String, _ identifier: String) -> Diagnostic {
        exception("D18", "unknown-segue", invalidArgument, "Receiver (\(receiver)) has no segue with identifier '\(identifier)'")
    }
    /// D19 (R101).
    public static func unknownStoryboardIdentifier(storyboard: String, identifier: String) -> Diagnostic {
        exception(
            "D19", "unknown-storyboard-identifier", invalidArgument,
            "Storyboard (<UIStoryboard: \(storyboard)>) doesn't contain a view controller with identifier '\(identifier)'")
    }
    /// R101: an empty identifier is an assertion failure in UIKit.
    public static func emptyStoryboardIdentifier() -> Diagnostic {
        exception(
            "D19", "unknown-storyboard-identifier", internalInconsistency,
            "Invalid parameter not satisfying: [identifier length] > 0")
    }
    /// D20 (R101).
    public static func unknownStoryboard(_ name: String) -> Diagnostic {
        exception(
            "D20", "unknown-storyboard", invalidArgument,
            "Could not find a storyboard named '\(name)' in bundle NSBundle </navsim> (loaded)")
    }
    /// D21 (R38): logged only.
    static func unbalancedAppearance(_ x: String) -> Diagnostic {
        warning("D21", "unbalanced-appearance", "Unbalanced calls to begin/end appearance transitions for \(x).")
    }
    /// D22 (R81): UIKit's navigation bar logs for a push, a pop, or a stack replaced mid-transition.
    static func nestedNavigationTransition(popping: Bool, settingStack: Bool) -> Diagnostic {
        if settingStack {
            return warning(
                "D22", "nested-navigation-transition",
                "Finishing up a navigation transition in an unexpected state. Navigation Bar subview tree might get corrupted.")
        }
        return warning(
            "D22", "nested-navigation-transition",
            "nested \((popping ? TransitionOperation.pop : .push).rawValue) animation can result in corrupted navigation bar")
    }
    /// D23 (R72); UIKit's text per its header comment.
    static func invalidChildTransition(_ detail: String) -> Diagnostic {
        exception("D23", "invalid-child-transition", invalidArgument, detail)
    }
    /// D24 (R98).
    static func pushSegueWithoutNavigationController() -> Diagnostic {
        exception(
            "D24", "push-segue-without-navigation-controller", generic,
            "Push segues can only be used when the source controller is managed by an instance of UINavigationController.")
    }
}

public import NavigationCore

/// The storyboard vocabulary that needs translating into the core's: controller elements to
/// ``ControllerKind`` and UIKit classes, and attribute spellings to the core's enums
/// (../shared/spec/storyboard-format.md §3, §4.3, §8). The values themselves are the core's types; nothing here
/// lists a case of its own.
public enum ControllerElement {
    struct Entry {
        /// Nil for a storyboard reference: its kind comes from the scene it resolves to (§6).
        var kind: ControllerKind?
        var uikitClass: String
    }

    /// The element Interface Builder writes for a storyboard reference (§6).
    public static let referenceElementName = "viewControllerPlaceholder"

    /// Every controller element seen in the corpus and the background scan (§3, §10).
    static let table: [String: Entry] = {
        var table: [String: Entry] = [:]
        for kind in ControllerKind.allCases where kind != .alertController {
            table[kind.rawValue] = Entry(kind: kind, uikitClass: kind.uikitClass)
        }
        // Leaves from other frameworks: plain controllers as far as navigation goes (§9 item 19).
        table["avPlayerViewController"] = Entry(kind: .viewController, uikitClass: "AVPlayerViewController")
        table["glkViewController"] = Entry(kind: .viewController, uikitClass: "GLKViewController")
        table["hostingController"] = Entry(kind: .viewController, uikitClass: "UIHostingController")
        // Not a class: the controller comes from the referenced storyboard (§6).
        table[referenceElementName] = Entry(kind: nil, uikitClass: "UIStoryboardReference")
        return table
    }()

    /// Controller element names with a known mapping: every one seen in the corpus and the
    /// background scan (../shared/spec/storyboard-format.md §3, §10).
    public static var knownElementNames: Set<String> { Set(table.keys) }

    /// What UIKit builds for a controller element: unknown names that end in `Controller` are
    /// plain view controllers (Xcode adds leaf controller types now and then); a storyboard
    /// reference, and anything else, is nil.
    public static func kind(of element: String) -> ControllerKind? {
        if let known = table[element] { return known.kind }
        return element.hasSuffix("Controller") ? .viewController : nil
    }

    /// The UIKit class of an element, falling back to the kind's class for unknown elements.
    static func uikitClass(of element: String, kind: ControllerKind) -> String {
        table[element]?.uikitClass ?? kind.uikitClass
    }
}

/// An attribute value as the file spells it and the core's value for it; `value` is nil when
/// the core has no case for the spelling (the parser then reports `unsupported-value`).
public struct Spelled<Value: Sendable & Equatable>: Sendable, Equatable {
    /// The spelling, normalised to UIKit's case name where it was an Objective-C constant
    /// (`UIModalPresentationFormSheet` is `formSheet`); otherwise as written.
    public var spelling: String
    /// The core's value, or nil when it has none.
    public var value: Value?

    /// Builds a spelled value.
    public init(spelling: String, value: Value?) {
        self.spelling = spelling
        self.value = value
    }
}

/// Presentation attribute values. Interface Builder already writes UIKit's case names
/// (`formSheet`, `overCurrentContext`, `crossDissolve`, …, §4.3); the only rewriting needed is
/// for hand-written Objective-C constant names (`UIModalPresentationFormSheet`).
enum PresentationSpelling {
    /// UIKit's `UIModalPresentationStyle` cases the core does not model (tvOS only): spelled
    /// like the others, reported as `unsupported-value`.
    static let unmodelledPresentationStyles: Set<String> = ["blurOverFullScreen"]

    static func presentationStyle(_ spelled: String?) -> Spelled<PresentationStyle>? {
        read(spelled, objcPrefix: "UIModalPresentation", unmodelled: unmodelledPresentationStyles)
    }

    static func transitionStyle(_ spelled: String?) -> Spelled<TransitionStyle>? {
        read(spelled, objcPrefix: "UIModalTransitionStyle", unmodelled: [])
    }

    private static func read<E: RawRepresentable & Sendable & Equatable>(
        _ spelled: String?, objcPrefix: String,
        unmodelled: Set<String>
    ) -> Spelled<E>?
    where E.RawValue == String {
        guard let spelled, !spelled.isEmpty else { return nil }
        if let v = E(rawValue: spelled) { return Spelled(spelling: spelled, value: v) }
        if spelled.hasPrefix(objcPrefix), let first = spelled.dropFirst(objcPrefix.count).first {
            let swiftName = first.lowercased() + spelled.dropFirst(objcPrefix.count + 1)
            if let v = E(rawValue: swiftName) { return Spelled(spelling: swiftName, value: v) }
            if unmodelled.contains(swiftName) { return Spelled(spelling: swiftName, value: nil) }
        }
        return Spelled(spelling: spelled, value: nil)
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

import Foundation
import NavigationCore
import Testing

@testable import NavSimService
@testable import SessionFormat

/// The stored row writer writes a configuration from `ControllerConfiguration.fields` by each
/// value's shape (it keeps the stored row cheap). These tests hold it to what the generic walk
/// it replaced wrote: every value through its own `Codable` conformance, under its field name,
/// in table order, a nil left out (or null when clearing). The reference below finds each value
/// by reflection, so it shares no code with the table.
@Suite("Configuration fields encode as their Codable conformances do")
struct ConfigurationEncodingTests {
    /// The replaced walk, rebuilt from reflection: `names` nil means every field.
    struct ReferenceWalk: Encodable {
        var value: ControllerConfiguration
        var names: Set<String>?
        var nilAsNull: Bool

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: ControllerConfiguration.FieldKey.self)
            let members = Dictionary(
                uniqueKeysWithValues: Mirror(reflecting: value).children.compactMap { child in
                    child.label.map { ($0, child.value) }
                })
            for f in ControllerConfiguration.fields where f.isEncoded && (names?.contains(f.name) ?? true) {
                guard let member = members[f.name] else { throw Unencodable(name: f.name) }
                let key = ControllerConfiguration.FieldKey(f.name)
                let mirror = Mirror(reflecting: member)
                if mirror.displayStyle == .optional {
                    if let payload = mirror.children.first?.value {
                        guard let payload = payload as? any Encodable else { throw Unencodable(name: f.name) }
                        try c.encode(payload, forKey: key)
                    } else if nilAsNull {
                        try c.encodeNil(forKey: key)
                    }
                } else {
                    guard let member = member as? any Encodable else { throw Unencodable(name: f.name) }
                    try c.encode(member, forKey: key)
                }
            }
        }
    }

    /// A field the reference cannot find or encode.
    struct Unencodable: Error { var name: String }

    /// The row writer's bytes for the same fields (those the table does not encode, lifecycle
    /// code and alert actions, which the reference leaves out, aside).
    static func table(_ value: ControllerConfiguration, names: Set<String>?, nilAsNull: Bool) throws -> [UInt8] {
        var w = StoredBytes()
        w.open()
        let present = (names ?? StoredConfiguration.everyField).subtracting(ControllerConfiguration.fields.filter { !$0.isEncoded }.map(\.name))
        try StoredConfiguration(values: value, present: present).writeMembers(to: &w, nilAsNull: nilAsNull)
        w.close()
        return w.finish()
    }

    /// Every field away from UIKit's default (checked by ``everyFieldDiffersFromTheDefault()``).
    static var rich: ControllerConfiguration {
        var c = ControllerConfiguration()
        c.title = "Tïtle \"quoted\" \\ \u{1}"
        c.modalPresentationStyle = .popover
        c.modalTransitionStyle = .flipHorizontal
        c.definesPresentationContext = true
        c.providesPresentationContextTransitionStyle = true
        c.isModalInPresentation = true
        c.transitioningDelegate = TransitioningDelegate(name: "Zoom", duration: 0.25)
        c.presentationDelegate = PresentationDelegate(
            shouldDismiss: false, adaptivePresentationStyle: .fullScreen, shouldDismissPopover: true,
            viewControllerForAdaptivePresentationStyle: .navigationController)
        c.popoverPresentationController = PopoverSettings(passthroughViews: ["toolbar", "map"])
        c.navigationDelegate = NavigationDelegate(animationController: TransitioningDelegate(name: "Slide", duration: 0.4), interactionController: "Pan")
        c.tabBarDelegate = TabBarDelegate(shouldSelect: true)
        c.customizableViewControllers = ["inbox", "files"]
        c.pageDataSource = PageDataSource(pages: ["p1", "p2", "p3"])
        c.pageDelegate = PageDelegate()
        c.traitOverrides = TraitOverrides(horizontalSizeClass: .compact, verticalSizeClass: nil)
        c.preferredContentSize = [320, 480.5]
        c.shouldPerformSegue = ["b": false, "a": true]
        c.unwindActions = ["unwindToRoot:", "done:"]
        c.canPerformUnwindSegueAction = ["done:": false]
        c.allowedChildrenForUnwinding = ["b", "a"]
        c.prefersStatusBarHidden = true
        c.displayModeButtonVisibility = .never
        c.splitDelegate = SplitDelegate(collapseSecondaryOntoPrimary: true, topColumnForCollapsing: .primary, show: false, showDetail: true)
        c.shouldAutomaticallyForwardAppearanceMethods = false
        c.registersForTraitChanges = [.verticalSizeClass, .horizontalSizeClass]
        c.sheetPresentationController = SheetSettings(
            detents: [.init(identifier: "peek", height: 120.5), .medium, .large], selectedDetentIdentifier: "medium",
            largestUndimmedDetentIdentifier: "peek", prefersGrabberVisible: true, prefersScrollingExpandsWhenScrolledToEdge: false,
            hasDelegate: true)
        c.on = CallbackCode([.viewDidLoad: [CallbackCode.Call(.dismiss(receiver: CallbackCode.selfReceiver, animated: false), once: true)]])
        c.actions = [
            AlertAction(title: "OK"),
            AlertAction(title: nil, style: .cancel, handler: [CallbackCode.Call(.dismiss(receiver: "home", animated: true))]),
        ]
        return c
    }

    static func bytes<T: Encodable>(_ value: T) throws -> [UInt8] { try StoredCodec.encode(value) }

    static func expectSame(
        _ value: ControllerConfiguration, names: Set<String>?, nilAsNull: Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let reference = ReferenceWalk(value: value, names: names, nilAsNull: nilAsNull)
        #expect(
            try table(value, names: names, nilAsNull: nilAsNull) == bytes(reference), "fields \(names.map { $0.sorted() } ?? ["all"])",
            sourceLocation: sourceLocation)
    }

    @Test("The rich configuration sets every field of the table away from its default")
    func everyFieldDiffersFromTheDefault() throws {
        let defaults = Dictionary(uniqueKeysWithValues: Mirror(reflecting: ControllerConfiguration()).children.map { ($0.label!, "\($0.value)") })
        let rich = Dictionary(uniqueKeysWithValues: Mirror(reflecting: Self.rich).children.map { ($0.label!, "\($0.value)") })
        #expect(Set(defaults.keys) == Set(ControllerConfiguration.fields.map(\.name)), "one table entry per stored property")
        for f in ControllerConfiguration.fields {
            #expect(defaults[f.name] != rich[f.name], "\(f.name) keeps its default in the rich configuration")
        }
    }

    @Test("Every field, all at once and one at a time, defaults and set, nil left out or null: the same bytes as the reflective walk")
    func sameBytesAsTheReflectiveWalk() throws {
        for value in [ControllerConfiguration(), Self.rich] {
            for nilAsNull in [false, true] {
                try Self.expectSame(value, names: nil, nilAsNull: nilAsNull)
                for f in ControllerConfiguration.fields {
                    try Self.expectSame(value, names: [f.name], nilAsNull: nilAsNull)
                }
            }
        }
        // The written bytes name the fields in table order.
        let text = String(decoding: try Self.table(Self.rich, names: nil, nilAsNull: false), as: UTF8.self)
        let positions = ControllerConfiguration.fields.filter(\.isEncoded).map { text.range(of: "\"\($0.name)\":")?.lowerBound }
        #expect(!positions.contains(nil), "\(text)")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "\(text)")
    }

    @Test("A stored configuration reads back to the same values and present fields, through both decoders")
    func readsBack() throws {
        for value in [ControllerConfiguration(), Self.rich] {
            let stored = StoredConfiguration(values: value, present: StoredConfiguration.everyField)
            let controller = StoredController(
                properties: StoredController(Controller(id: "c", kind: .viewController, className: "C")).properties,
                configuration: stored)
            let ours = try StoredCodec.decode(StoredController.self, from: try StoredCodec.row(controller))
            let theirs = try JSONDecoder().decode(StoredController.self, from: Data(try StoredCodec.row(controller)))
            for decoded in [ours, theirs] {
                #expect(decoded.configuration.values == value)
                // A nil optional is not written, so it is not present when read; everything else is.
                let written = Set(
                    ControllerConfiguration.fields.map(\.name).filter { name in
                        let member = Mirror(reflecting: value).children.first { $0.label == name }!.value
                        let m = Mirror(reflecting: member)
                        if name == "on" { return !value.on.isEmpty }
                        if name == "actions" { return !value.actions.isEmpty }
                        return m.displayStyle != .optional || !m.children.isEmpty
                    })
                #expect(decoded.configuration.present == written)
            }
        }
    }

    @Test("A patch of some fields copies exactly those, whether it names few or many")
    func patchesCopyExactlyTheirFields() throws {
        let rich = Self.rich
        func described(_ c: ControllerConfiguration) -> [String: String] {
            Dictionary(uniqueKeysWithValues: Mirror(reflecting: c).children.map { ($0.label!, "\($0.value)") })
        }
        let names = ControllerConfiguration.fields.map(\.name)
        // One field, two, and all but one: the first two take the by-name path, the last the table walk.
        var sets: [Set<String>] = names.map { [$0] }
        sets += zip(names, names.dropFirst()).map { [$0, $1] }
        sets += names.map { Set(names).subtracting([$0]) }
        for set in sets {
            let applied = described(ControllerPatch(values: rich, fields: set).applied(to: ControllerConfiguration()))
            let base = described(ControllerConfiguration()), want = described(rich)
            for name in names {
                #expect(applied[name] == (set.contains(name) ? want[name] : base[name]), "\(name) with patch \(set.sorted())")
            }
        }
    }
}

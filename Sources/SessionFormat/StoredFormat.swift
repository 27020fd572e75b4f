import NavigationCore
import SessionStorage

// The persistence format (its version, `StoredFormat`, is declared in SessionStorage, where the
// rows carry it): the stored types below decide the bytes on disk.

/// A stored row this release cannot turn back into a session.
public enum StoredFormatError: Error, Equatable, CustomStringConvertible {
    /// The row's `format` is newer (or older) than anything this release reads.
    case unsupportedFormat(Int)
    /// A raw value with no case in the domain enumeration (`type` names it).
    case unknownValue(type: String, value: String)
    /// A link names a controller that has no row (the database lost it).
    case missingController(String, linkedFrom: String)

    /// The fault in a sentence, naming the row's value.
    public var description: String {
        switch self {
        case .missingController(let id, let from): "stored controller '\(id)' named by \(from) has no row"
        case .unsupportedFormat(let v):
            "stored format \(v) is not readable by this release (it reads \(StoredFormat.readable))"
        case .unknownValue(let type, let value): "stored value '\(value)' is not a \(type)"
        }
    }
}

// MARK: - The session shell

/// `SessionState` as stored. In the session row `controllers` is empty (each controller has its
/// own row); history entry 0 keeps the whole initial state, controllers included.
struct StoredSessionState: Decodable, Equatable {
    var traits: StoredTraits
    var options: StoredOptions
    var rootViewController: String?
    var controllers: [String: StoredController]
    var order: [String]
    var transitions: [StoredRunningTransition]
    var nextControllerNumber: Int
    var nextTransitionNumber: Int
}

struct StoredTraits: Decodable, Equatable {
    var userInterfaceIdiom: String
    var horizontalSizeClass: String
    var verticalSizeClass: String
    /// R106: absent when the client gave no size (and in sessions written before it existed).
    var size: StoredSize? = nil
}

struct StoredSize: Decodable, Equatable {
    var width: Double
    var height: Double
}

struct StoredOptions: Decodable, Equatable {
    var iOS: String
    var transitions: String
    /// Absent in sessions written before R81's option existed.
    var navTransitionPolicy: String?
    /// `ReleasePolicy`; absent for `manual` (and in sessions written before the option existed).
    var release: String? = nil
    /// R117: `true` when on; absent when off (and in sessions written before the option existed).
    var layoutCallbacks: Bool? = nil
}

// MARK: - Controllers

/// A controller row's body: its own members and, flat beside them, its configuration.
struct StoredController: Equatable {
    var properties: Properties
    var configuration: StoredConfiguration

    struct Properties: Decodable, Equatable {
        var id: String
        var kind: String
        var className: String
        var parent: String?
        var children: [String]
        var storyboard: StoredStoryboardOrigin?
        var isViewLoaded: Bool
        var appearance: String
        var viewInWindow: Bool
        var isBeingPresented: Bool
        var isBeingDismissed: Bool
        var isMovingToParent: Bool
        var isMovingFromParent: Bool
        var presentation: StoredPresentation?
        var presentedID: String?
        var viewControllers: [String]
        var selectedViewController: String?
        var moreNavigationController: String?
        var split: StoredSplit?
        var page: StoredPage?
        var preferredStyle: String?
        var viewAddedToParent: Bool
        var isMoreNavigationController: Bool
        var segues: [StoredSegue]
        /// `Controller.isHeldByClient`; absent when false (and in rows written before it existed).
        var heldByClient: Bool? = nil
        /// `Controller.manualAppearanceAnimated`; absent when false (and in older rows).
        var manualAppearanceAnimated: Bool? = nil
        /// `Controller.propertiesUpToDate`; absent when false (and in older rows).
        var propertiesUpToDate: Bool? = nil
        /// `Controller.traitsLastSeen` (R166); absent when nil (and in older rows).
        var traitsLastSeen: StoredTraits? = nil
    }
}

/// A stored object whose own members and client-settable configuration sit flat side by side
/// in one JSON object (a controller, a spec). The configuration leaves out what it does not give.
protocol FlatWithConfiguration: Decodable {
    associatedtype Properties: Decodable
    var properties: Properties { get }
    var configuration: StoredConfiguration { get }
    init(properties: Properties, configuration: StoredConfiguration)
}

extension FlatWithConfiguration {
    init(from decoder: any Swift.Decoder) throws {
        self.init(properties: try Properties(from: decoder), configuration: try StoredConfiguration(from: decoder))
    }
}

extension StoredController: FlatWithConfiguration {}

/// Client-settable properties, each under its `ControllerConfiguration.fields` name, with the
/// names that were present. The field table is the one list of these properties, so storage
/// reads and writes them through it (their value types keep `Codable` in the core for that).
struct StoredConfiguration: Equatable {
    var values: ControllerConfiguration
    /// The fields written (or read): a stored controller has all of them except those added
    /// after it was written; a spec or patch has the ones it sets.
    var present: Set<String>

    init(values: ControllerConfiguration, present: Set<String>) {
        self.values = values
        self.present = present
    }
    init(from decoder: any Swift.Decoder) throws {
        (values, present) = try ControllerConfiguration.decode(from: decoder, over: ControllerConfiguration())
        let c = try decoder.container(keyedBy: ControllerConfiguration.FieldKey.self)
        // Rows written before lifecycle code existed have no `on`: no code.
        if let on = try c.decodeIfPresent([String: [StoredCall]].self, forKey: Self.onKey) {
            values.on = try StoredCall.domain(on)
            present.insert("on")
        }
        // Rows written before alert actions existed have no `actions`: none.
        if let actions = try c.decodeIfPresent([StoredAlertAction].self, forKey: Self.actionsKey) {
            values.actions = try actions.map { try $0.domain() }
            present.insert("actions")
        }
    }
    static let onKey = ControllerConfiguration.FieldKey("on")
    static let actionsKey = ControllerConfiguration.FieldKey("actions")
    /// Every field's name: what a stored controller has present.
    static let everyField = Set(ControllerConfiguration.fields.map(\.name))
}

/// One call of lifecycle code (`CallbackCode.Call`), under its method's name: its command
/// (``StoredCommands``) and `once` (absent when false).
struct StoredCall: Decodable, Equatable {
    var command: Command
    var once: Bool?

    init(command: Command, once: Bool?) {
        self.command = command
        self.once = once
    }
    init(from decoder: any Swift.Decoder) throws {
        let c = try decoder.container(keyedBy: StoredKey.self)
        command = try c.decode(StoredCommandReading.self, forKey: StoredKey("command")).command
        once = try c.decodeIfPresent(Bool.self, forKey: StoredKey("once"))
    }

    static func stored(_ code: CallbackCode) -> [String: [StoredCall]] {
        Dictionary(
            uniqueKeysWithValues: code.calls.map { method, calls in
                (method.rawValue, calls.map { StoredCall(command: $0.command, once: $0.once ? true : nil) })
            })
    }
    static func domain(_ stored: [String: [StoredCall]]) throws -> CallbackCode {
        var calls: [CallbackCode.Method: [CallbackCode.Call]] = [:]
        for (name, list) in stored {
            guard let method = CallbackCode.Method(rawValue: name) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Unknown lifecycle method '\(name)'."))
            }
            calls[method] = list.map { CallbackCode.Call($0.command, once: $0.once ?? false) }
        }
        return CallbackCode(calls)
    }
}

/// One `UIAlertAction` of an alert's `actions`, its handler as lifecycle calls.
struct StoredAlertAction: Decodable, Equatable {
    var title: String?
    var style: String
    var handler: [StoredCall]?

    init(_ a: AlertAction) {
        title = a.title
        style = a.style.rawValue
        handler = a.handler.isEmpty ? nil : a.handler.map { StoredCall(command: $0.command, once: $0.once ? true : nil) }
    }
    func domain() throws -> AlertAction {
        AlertAction(
            title: title, style: try storedValue(style),
            handler: (handler ?? []).map { CallbackCode.Call($0.command, once: $0.once ?? false) })
    }
}

struct StoredStoryboardOrigin: Decodable, Equatable {
    var name: String
    var identifier: String?
}

struct StoredPresentation: Decodable, Equatable {
    var presenting: String
    var source: String
    var requestedStyle: String
    var style: String
    var transitionStyle: String
    var contextViewController: String?
    var removesPresenterView: Bool
    var popover: StoredPopoverAnchor?
    var state: String
    /// R150; absent from rows written before it.
    var adaptiveOriginal: String?
}

struct StoredPopoverAnchor: Decodable, Equatable {
    var sourceView: String?
    var barButtonItem: String?
    var sourceRect: [Double]?
}

/// `SplitState`; the members after `isCollapsed` came with the column styles and are absent
/// from splits written before them.
struct StoredSplit: Decodable, Equatable {
    var style: String
    var primary: String?
    var supplementary: String?
    var secondary: String?
    var collapseSecondaryOntoPrimary: Bool?
    var isCollapsed: Bool
    var primaryNavigation: String?
    var supplementaryNavigation: String?
    var secondaryNavigation: String?
    var topColumnForCollapsing: String?
    var collapsedSupplementary: [String]?
    var collapsedSecondary: [String]?
    var hasDelegate: Bool?
    /// R121, R122: absent from splits written before them.
    var displayMode: String?
    var delegateShows: Bool?
    var delegateShowsDetail: Bool?
    /// R123: absent from splits written before the compact column.
    var compact: String?
    /// R125: absent from splits written before the inspector column.
    var inspector: String?
    var inspectorNavigation: String?
    var isShowingInspector: Bool?
}

struct StoredPage: Decodable, Equatable {
    var transitionStyle: String
    var spineLocation: String?
    var isDoubleSided: Bool
}

struct StoredSegue: Decodable, Equatable {
    var id: String
    var identifier: String?
    var kind: String
    var destinationScene: String?
    var destinationStoryboard: String?
    var modalPresentationStyle: String?
    var modalTransitionStyle: String?
    var animates: Bool
    var popover: StoredPopoverAnchor?
    var unwindAction: String?
    var customPerforms: String?
    var customClass: String?
    var customTransitioningDelegate: StoredAnimator?
    /// Absent in rows written before sheets had detents.
    var customSheetPresentationController: SheetSettings?
}

struct StoredAnimator: Decodable, Equatable {
    var name: String
    var duration: Double
}

// MARK: - Running transitions (manual mode)

struct StoredRunningTransition: Decodable, Equatable {
    var record: StoredTransitionRecord
    var order: StoredAppearanceOrder
    var appearing: [String]
    var disappearing: [String]
    var preStart: [StoredEvent]
    var postFinish: [StoredEvent]
    var effects: [StoredTransitionEffect]
    var cancelEffects: [StoredTransitionEffect]
    var cancelEvents: [StoredEvent]
    var isReported: Bool
    var started: Bool
    var navigation: String?
    var silentDidAppearWithin: String?
    var beforeAppearance: [StoredEvent]
    var before: [String]?
    var after: [String]?
    /// R145: `notifyWhenInteractionChanges` handlers; absent in older rows.
    var interactionHandlers: [StoredEvent]?
}

struct StoredTransitionRecord: Decodable, Equatable {
    var id: String
    var operation: String
    var fromViewController: String?
    var toViewController: String?
    var presentationStyle: String?
    var transitionStyle: String?
    var animated: Bool
    var duration: Double
    var animator: String?
    var containerView: [String]
    var state: String
}

struct StoredAppearanceOrder: Decodable, Equatable {
    var willsAppearFirst: Bool
    var didsAppearFirst: Bool
}

struct StoredEvent: Decodable, Equatable {
    var controller: String
    var callback: String
    var animated: Bool?
    var parent: String?
    var hasParentArgument: Bool
    var segue: StoredSegueInfo?
    var action: String?
    var style: String?
    /// `alertActionHandler`'s action; absent in older rows.
    var alertAction: StoredAlertActionTap?
    /// R140: the navigation delegate's operation argument; absent in older rows.
    var operation: String?
    /// R144, R145: the coordinator context's `isCancelled`; absent in older rows.
    var isCancelled: Bool?
    /// `splitViewControllerWillShow`/`WillHide`'s column (R121); absent in older rows.
    var column: String?
}

struct StoredAlertActionTap: Decodable, Equatable {
    var index: Int
    var handlerSelf: String
}

struct StoredSegueInfo: Decodable, Equatable {
    var identifier: String?
    var source: String
    var destination: String?
}

enum StoredTransitionEffect: Decodable, Equatable {
    case settlePresentation(String)
    case removePresentations([String])
    case restorePresentation(String)
    case endMovingToParent([String])
    case detach([String])
    case restoreStack(navigation: String, stack: [String], attach: [String])
}

// MARK: - History commands

/// `history.command` of an entry whose lifecycle code performed storyboard segues
/// (``NestedSegues``): the commands, and the nested segues as they were resolved against the catalogue of
/// that request, in the order asked, so that a replay instantiates the same destinations even
/// after the storyboard changed. Entries without nested segues keep the plain array (all rows
/// written before have it), which is what older readers expect.
struct StoredTurn: Decodable {
    var commands: [StoredCommandReading]
    var segueDestinations: [StoredCommandReading]
}

indirect enum StoredControllerRef: Decodable, Equatable {
    case none
    case existing(String)
    case new(StoredControllerSpec)
}

/// A `ControllerSpec`: its own members and, flat beside them, the configuration it gives.
struct StoredControllerSpec: Equatable {
    var properties: Properties
    var configuration: StoredConfiguration

    struct Properties: Decodable, Equatable {
        var id: String?
        var kind: String
        var className: String?
        var viewControllers: [StoredControllerRef]?
        var selectedIndex: Int?
        var primary: StoredControllerRef?
        var supplementary: StoredControllerRef?
        var secondary: StoredControllerRef?
        var splitStyle: String?
        var collapseSecondaryOntoPrimary: Bool?
        var topColumnForCollapsing: String?
        var hasSplitDelegate: Bool?
        var pageTransitionStyle: String?
        var spineLocation: String?
        var isDoubleSided: Bool?
        var children: [StoredControllerRef]?
        var preferredStyle: String?
        var storyboard: StoredStoryboardOrigin?
        var segues: [StoredSegue]?
        var embedded: [StoredControllerRef]?
        var appendsSuffixWhenTaken: Bool
        /// Written only when a suffix is appended; rows from before `~` ids lack it
        /// and keep making `#2` ids on replay.
        var suffixSeparator: String?
        /// The classic split delegate's `show`/`showDetail` answers (R122); absent before them.
        var splitDelegateShow: Bool? = nil
        var splitDelegateShowDetail: Bool? = nil
        var compact: StoredControllerRef? = nil
        var inspector: StoredControllerRef? = nil
    }
}

/// A spec gives values and clears nothing: a nil it names is left out.
extension StoredControllerSpec: FlatWithConfiguration {}

/// A `ControllerPatch`: each property it sets by name, one it clears as null.
struct StoredPatch: Equatable {
    var configuration: StoredConfiguration
}

extension StoredPatch: Decodable {
    init(from decoder: any Swift.Decoder) throws { configuration = try StoredConfiguration(from: decoder) }
}

/// What client code sets on a view controller, in one type: the model's stored values
/// (`Controller.configuration`), what a new controller's spec gives (`ControllerSpec.configuration`),
/// what a run-time `PATCH` changes (`ControllerPatch`) and what a storyboard scene declares.
///
/// Adding a client-settable property: a stored property here with UIKit's default, one entry in
/// ``ControllerConfiguration/fields`` (so patches, specs and storage know it), then the service's
/// field table and `openapi.yaml` (docs/architecture.md "Where to change things").
public struct ControllerConfiguration: Sendable, Equatable {
    /// `title`.
    public var title: String?
    /// `modalPresentationStyle` (R18: `automatic` is resolved when presented).
    public var modalPresentationStyle: PresentationStyle = .automatic
    /// `modalTransitionStyle`.
    public var modalTransitionStyle: TransitionStyle = .coverVertical
    /// R21: `UINavigationController` defines a context by default, see ``Controller/init(id:kind:className:title:)``.
    public var definesPresentationContext: Bool = false
    /// R21: a context's presenter may impose its own transition style.
    public var providesPresentationContextTransitionStyle: Bool = false
    /// R49: refuses user dismissal (swipe, tap outside) without asking the delegate.
    public var isModalInPresentation: Bool = false
    /// R56–R62: a custom animator.
    public var transitioningDelegate: TransitioningDelegate?
    /// R47–R52: the adaptive presentation controller delegate.
    public var presentationDelegate: PresentationDelegate?
    /// Navigation controllers only (R82).
    public var navigationDelegate: NavigationDelegate?
    /// Tab bar controllers only (R87, R89).
    public var tabBarDelegate: TabBarDelegate?
    /// Tab bar controllers only (R132): the tabs the More list's Edit sheet lets a user move.
    /// Nil: the whole of `viewControllers`, which is what UIKit sets it to whenever the tabs are
    /// set; a list the client sets lasts until the tabs are set again.
    public var customizableViewControllers: [ControllerID]?
    /// Page view controllers only (R130): the pages its data source answers before and after a page.
    public var pageDataSource: PageDataSource?
    /// Page view controllers only (R130, R131): told of the user's page turns.
    public var pageDelegate: PageDelegate?
    /// R74: size classes this controller overrides for itself and its descendants.
    public var traitOverrides: TraitOverrides?
    /// `preferredContentSize`, `[width, height]` in points (popovers, form sheets).
    public var preferredContentSize: [Double]?
    /// Answers of the `shouldPerformSegue(withIdentifier:sender:)` override, by identifier (R96).
    public var shouldPerformSegue: [String: Bool] = [:]
    /// Unwind actions (`@IBAction func …(_: UIStoryboardSegue)`) this controller's class implements (R100).
    public var unwindActions: [String] = []
    /// R147: answers of the class's `canPerformUnwindSegueAction(_:from:sender:)` override, by
    /// action; empty when the class does not override it (the default asks `unwindActions`).
    public var canPerformUnwindSegueAction: [String: Bool] = [:]
    /// R146: the children the class's `allowedChildrenForUnwinding(from:)` override returns, in
    /// search order; nil when it does not override it.
    public var allowedChildrenForUnwinding: [ControllerID]?
    /// `prefersStatusBarHidden`: the override's answer. Recorded, not simulated (no status bar).
    public var prefersStatusBarHidden: Bool = false
    /// R37: the override's answer. False on a custom container: its own appearance changes
    /// and the child views it inserts send its children nothing; its code forwards them with
    /// `beginAppearanceTransition(_:animated:)` and `endAppearanceTransition()`.
    public var shouldAutomaticallyForwardAppearanceMethods: Bool = true
    /// R108: the traits the controller registers for with `registerForTraitChanges(_:handler:)`
    /// (iOS 17 and later): its handler runs when one of them changes.
    public var registersForTraitChanges: [Traits.Name] = []
    /// R110: what code sets on `sheetPresentationController` (detents, selection, dimming,
    /// grabber, delegate); nil when it sets nothing (UIKit's defaults).
    public var sheetPresentationController: SheetSettings?
    /// R152: what code sets on `popoverPresentationController` (`passthroughViews`); nil when it
    /// sets nothing.
    public var popoverPresentationController: PopoverSettings?
    /// Split view controllers: `displayModeButtonVisibility` (R124); nil is UIKit's `automatic`.
    /// Recorded, not simulated (navsim draws no navigation bar).
    public var displayModeButtonVisibility: SplitState.DisplayModeButtonVisibility?
    /// Split view controllers: the delegate a spec or a PATCH sets (R174). Applying the spec or
    /// the patch moves it into the split's ``SplitState``, so a controller never holds it here.
    public var splitDelegate: SplitDelegate?
    /// Code the class runs in its view lifecycle methods (``CallbackCode``).
    public var on = CallbackCode()
    /// Alert controllers only: `actions`, each added with `addAction(_:)` (R103, R104).
    public var actions: [AlertAction] = []

    /// UIKit's defaults for an ordinary controller.
    public init() {}

    /// Every client-settable property by its API name, in the order replies and storage know them.
    /// One entry per property: patches, specs and the service's stored format (each value through
    /// its `Codable` conformance) all go through this list.
    public static let fields: [Field] = [
        Field("title", \.title),
        Field("modalPresentationStyle", \.modalPresentationStyle),
        Field("modalTransitionStyle", \.modalTransitionStyle),
        Field("definesPresentationContext", \.definesPresentationContext),
        Field("providesPresentationContextTransitionStyle", \.providesPresentationContextTransitionStyle),
        Field("isModalInPresentation", \.isModalInPresentation),
        Field("transitioningDelegate", \.transitioningDelegate),
        Field("presentationDelegate", \.presentationDelegate),
        Field("navigationDelegate", \.navigationDelegate),
        Field("tabBarDelegate", \.tabBarDelegate),
        Field("customizableViewControllers", \.customizableViewControllers),
        Field("pageDataSource", \.pageDataSource),
        Field("pageDelegate", \.pageDelegate),
        Field("traitOverrides", \.traitOverrides),
        Field("preferredContentSize", \.preferredContentSize),
        Field("shouldPerformSegue", \.shouldPerformSegue),
        Field("unwindActions", \.unwindActions),
        Field("canPerformUnwindSegueAction", \.canPerformUnwindSegueAction),
        Field("allowedChildrenForUnwinding", \.allowedChildrenForUnwinding),
        Field("prefersStatusBarHidden", \.prefersStatusBarHidden),
        Field("shouldAutomaticallyForwardAppearanceMethods", \.shouldAutomaticallyForwardAppearanceMethods),
        Field("registersForTraitChanges", \.registersForTraitChanges),
        Field("sheetPresentationController", \.sheetPresentationController),
        Field("popoverPresentationController", \.popoverPresentationController),
        Field("displayModeButtonVisibility", \.displayModeButtonVisibility),
        Field("splitDelegate", \.splitDelegate),
        Field(unencoded: "on", \.on),
        Field(unencoded: "actions", \.actions),
    ]

    /// Calls `body` with each entry of ``fields``'s index and its value here, in table order;
    /// the configuration is copied once for all of them, where ``Field/storedValue(_:)`` copies it
    /// once a call.
    public func forEachStoredValue<E: Error>(_ body: (Int, Field.StoredValue) throws(E) -> Void) throws(E) {
        try withUnsafePointer(to: self) { (p) throws(E) in
            let address = UnsafeRawPointer(p)
            for i in Self.fields.indices { try body(i, Self.fields[i].storedAt(address)) }
        }
    }

    /// The entry of ``fields`` named `name`, or nil.
    public static func field(named name: String) -> Field? { fieldIndex[name].map { fields[$0] } }

    /// Each field's position in ``fields``, by name.
    public static let fieldIndex = Dictionary(uniqueKeysWithValues: fields.enumerated().map { ($1.name, $0) })

    /// One client-settable property: its API name and how to copy, store and read it.
    ///
    /// Each entry is built by the initializer for its value's shape, chosen at compile time
    /// (an optional string, a `Bool`, an enumeration stored as its `String` raw value, any other
    /// optional, anything else `Codable`), so writing a field calls the container's method for
    /// that type directly: no dynamic cast, no generic encoding of a `String` or a raw value.
    /// The bytes are those of the value's own `Codable` conformance (the generic walk
    /// was most of a stored controller row's encoding time).
    public struct Field: Sendable {
        /// The API and storage name (`modalPresentationStyle`).
        public let name: String
        let keyPath: any PartialKeyPath<ControllerConfiguration> & Sendable
        let copy: @Sendable (inout ControllerConfiguration, ControllerConfiguration) -> Void
        let decode: @Sendable (inout ControllerConfiguration, KeyedDecodingContainer<FieldKey>) throws -> Bool
        /// The field's value by its shape, read from a configuration's address (so that writing
        /// every field copies the configuration once, not once a field).
        let storedAt: @Sendable (UnsafeRawPointer) -> StoredValue
        /// False for a field ``storedValue`` leaves out (``StoredValue/unencoded``).
        public let isEncoded: Bool

        /// The field's value in `configuration` by its shape, for a writer of JSON bytes (the
        /// service's stored rows); ``ControllerConfiguration/forEachStoredValue(_:)`` gives every field's.
        public func storedValue(_ configuration: ControllerConfiguration) -> StoredValue {
            withUnsafePointer(to: configuration) { storedAt(UnsafeRawPointer($0)) }
        }

        /// A field's value by the shape a JSON writer needs.
        public enum StoredValue {
            /// Not written (`on`: its values are not `Codable`; the service stores them itself).
            case unencoded
            /// Nil: left out, or null in a patch that clears.
            case absent
            /// A string, or an enumeration's raw value.
            case string(String)
            /// A flag.
            case bool(Bool)
            /// A list of strings, or of enumerations' raw values: a JSON array of strings.
            case strings([String])
            /// Flags by name: a JSON object, its keys sorted.
            case flags([String: Bool])
            /// Any other value, written as its `Encodable` conformance (declared in this module) says.
            case value(any Encodable)
        }

        private init<T: Sendable>(
            _ name: String, _ keyPath: any WritableKeyPath<ControllerConfiguration, T> & Sendable, isEncoded: Bool,
            decode: @escaping @Sendable (inout ControllerConfiguration, KeyedDecodingContainer<FieldKey>) throws -> Bool,
            stored: @escaping @Sendable (T) -> StoredValue
        ) {
            self.name = name
            self.keyPath = keyPath
            self.isEncoded = isEncoded
            copy = { $0[keyPath: keyPath] = $1[keyPath: keyPath] }
            self.decode = decode
            // Read at the stored property's offset, as `MemoryLayout.offset(of:)` documents, not
            // through `swift_getAtKeyPath`: that walk (and the copy of the configuration it
            // needs) cost more per field than the rest of a stored controller row together.
            // A key path with no fixed offset (none in the table) is applied as a key path.
            if let offset = MemoryLayout<ControllerConfiguration>.offset(of: keyPath) {
                storedAt = { stored($0.advanced(by: offset).assumingMemoryBound(to: T.self).pointee) }
            } else {
                storedAt = { stored($0.assumingMemoryBound(to: ControllerConfiguration.self).pointee[keyPath: keyPath]) }
            }
        }

        /// Reads a field through `T`'s `Decodable` conformance (start-up and history reads).
        private static func decoder<T: Decodable & Sendable>(_ name: String, _ keyPath: any WritableKeyPath<ControllerConfiguration, T> & Sendable)
            -> @Sendable (inout ControllerConfiguration, KeyedDecodingContainer<FieldKey>) throws -> Bool
        {
            let key = FieldKey(name)
            return { value, container in
                guard container.contains(key) else { return false }
                value[keyPath: keyPath] = try container.decode(T.self, forKey: key)
                return true
            }
        }

        /// A field whose values are not `Codable` (nested commands): ``storedValue`` and
        /// ``decode(from:over:)`` skip it and the service stores it itself (`isEncoded` false).
        init<T: Equatable & Sendable>(unencoded name: String, _ keyPath: any WritableKeyPath<ControllerConfiguration, T> & Sendable) {
            self.init(name, keyPath, isEncoded: false, decode: { _, _ in false }, stored: { _ in .unencoded })
        }

        /// An optional string: omitted (or null) when nil.
        init(_ name: String, _ keyPath: any WritableKeyPath<ControllerConfiguration, String?> & Sendable) {
            self.init(
                name, keyPath, isEncoded: true,
                decode: Self.decoder(name, keyPath), stored: { $0.map(StoredValue.string) ?? .absent })
        }

        /// A `Bool`.
        init(_ name: String, _ keyPath: any WritableKeyPath<ControllerConfiguration, Bool> & Sendable) {
            self.init(
                name, keyPath, isEncoded: true,
                decode: Self.decoder(name, keyPath), stored: { .bool($0) })
        }

        /// An enumeration stored as its raw value, as its `Codable` conformance
        /// (`RawRepresentable`'s) writes it.
        init<T: RawRepresentable & Codable & Equatable & Sendable>(_ name: String, _ keyPath: any WritableKeyPath<ControllerConfiguration, T> & Sendable)
        where T.RawValue == String {
            self.init(
                name, keyPath, isEncoded: true,
                decode: Self.decoder(name, keyPath), stored: { .string($0.rawValue) })
        }

        /// A list of strings.
        init(_ name: String, _ keyPath: any WritableKeyPath<ControllerConfiguration, [String]> & Sendable) {
            self.init(name, keyPath, isEncoded: true, decode: Self.decoder(name, keyPath), stored: { .strings($0) })
        }

        /// A list of enumerations stored as their raw values, as their `Codable` conformance writes them.
        init<T: RawRepresentable & Codable & Equatable & Sendable>(_ name: String, _ keyPath: any WritableKeyPath<ControllerConfiguration, [T]> & Sendable)
        where T.RawValue == String {
            self.init(name, keyPath, isEncoded: true, decode: Self.decoder(name, keyPath), stored: { .strings($0.map(\.rawValue)) })
        }

        /// Flags by name.
        init(_ name: String, _ keyPath: any WritableKeyPath<ControllerConfiguration, [String: Bool]> & Sendable) {
            self.init(name, keyPath, isEncoded: true, decode: Self.decoder(name, keyPath), stored: { .flags($0) })
        }

        /// Any other optional: its payload through its `Codable` conformance, omitted (or null) when nil.
        init<T: Codable & Equatable & Sendable>(_ name: String, _ keyPath: any WritableKeyPath<ControllerConfiguration, T?> & Sendable) {
            self.init(
                name, keyPath, isEncoded: true,
                decode: Self.decoder(name, keyPath), stored: { $0.map { StoredValue.value($0) } ?? .absent })
        }

        /// Any other value, through its `Codable` conformance.
        init<T: Codable & Equatable & Sendable>(_ name: String, _ keyPath: any WritableKeyPath<ControllerConfiguration, T> & Sendable) {
            self.init(
                name, keyPath, isEncoded: true,
                decode: Self.decoder(name, keyPath), stored: { .value($0) })
        }
    }

    /// A coding key that is a field's name.
    public struct FieldKey: CodingKey, Sendable {
        public let stringValue: String
        public init(_ s: String) { stringValue = s }
        public init?(stringValue: String) { self.stringValue = stringValue }
        public var intValue: Int? { nil }
        public init?(intValue: Int) { nil }
    }

    /// Reads the fields present in `decoder`'s keyed container over `base`; answers the names read.
    public static func decode(from decoder: any Decoder, over base: ControllerConfiguration) throws -> (ControllerConfiguration, Set<String>) {
        let c = try decoder.container(keyedBy: FieldKey.self)
        var value = base
        var present: Set<String> = []
        for f in fields where try f.decode(&value, c) { present.insert(f.name) }
        return (value, present)
    }
}

/// A set of configuration changes: the properties a run-time `PATCH` sets (null clears an
/// optional one), or the ones a spec gives for a new controller (the rest keep UIKit's defaults).
/// By name, `patch.title` is nil when the patch does not set it, `.some(nil)` when it clears it.
@dynamicMemberLookup
public struct ControllerPatch: Sendable, Equatable {
    /// The new values; only those named in ``fields`` count.
    public private(set) var values = ControllerConfiguration()
    /// Names of the properties this patch sets (``ControllerConfiguration/fields`` names).
    public private(set) var fields: Set<String> = []

    public init() {}

    /// A patch setting `fields` (``ControllerConfiguration/fields`` names) to their values in `values`.
    public init(values: ControllerConfiguration, fields: Set<String>) {
        self.values = values
        self.fields = fields
    }

    /// Sets one property.
    public mutating func set<T>(_ keyPath: WritableKeyPath<ControllerConfiguration, T>, _ value: T) {
        guard let f = ControllerConfiguration.fields.first(where: { $0.keyPath as AnyKeyPath == keyPath as AnyKeyPath }) else {
            preconditionFailure("\(keyPath) is not in ControllerConfiguration.fields")
        }
        values[keyPath: keyPath] = value
        fields.insert(f.name)
    }

    /// Forgets one property (it is no longer set).
    public mutating func unset<T>(_ keyPath: WritableKeyPath<ControllerConfiguration, T>) {
        guard let f = ControllerConfiguration.fields.first(where: { $0.keyPath as AnyKeyPath == keyPath as AnyKeyPath }) else { return }
        values[keyPath: keyPath] = ControllerConfiguration()[keyPath: keyPath]
        fields.remove(f.name)
    }

    /// The value this patch sets for `keyPath`, or nil when it sets none.
    public func value<T>(_ keyPath: WritableKeyPath<ControllerConfiguration, T>) -> T? {
        guard let f = ControllerConfiguration.fields.first(where: { $0.keyPath as AnyKeyPath == keyPath as AnyKeyPath }), fields.contains(f.name) else { return nil }
        return values[keyPath: keyPath]
    }

    /// A property this patch sets, nil when it sets none; assigning nil unsets it.
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<ControllerConfiguration, T>) -> T? {
        get { value(keyPath) }
        set { if let newValue { self.set(keyPath, newValue) } else { self.unset(keyPath) } }
    }

    /// Does this patch set the property named `name`?
    public func sets(_ name: String) -> Bool { fields.contains(name) }

    /// `configuration` with this patch's properties set.
    public func applied(to configuration: ControllerConfiguration) -> ControllerConfiguration {
        var c = configuration
        // Each field is copied on its own, so the order does not matter: a patch of a few
        // fields (a run-time PATCH) looks up just those instead of testing every entry.
        if fields.count * 2 < ControllerConfiguration.fields.count {
            for name in fields {
                if let i = ControllerConfiguration.fieldIndex[name] { ControllerConfiguration.fields[i].copy(&c, values) }
            }
        } else {
            for f in ControllerConfiguration.fields where fields.contains(f.name) { f.copy(&c, values) }
        }
        return c
    }

    public var isEmpty: Bool { fields.isEmpty }

    /// This patch with `other`'s properties set over it (`other` wins where both set one).
    public func merging(_ other: ControllerPatch) -> ControllerPatch {
        var p = self
        p.values = other.applied(to: values)
        p.fields.formUnion(other.fields)
        return p
    }
}

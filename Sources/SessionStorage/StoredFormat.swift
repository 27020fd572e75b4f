/// The persistence format: what the JSON columns of `sessions.state`, `controllers.body`,
/// `history.command` and history entry 0's `history.result` hold. These types, not the core's,
/// decide the bytes on disk, so the model can change without the stored rows changing with it;
/// SessionFormat's `StoredMapping.swift` turns each stored type into its domain type and back.
///
/// Version 1 is the shape every earlier release wrote (the core's own `Codable` output; those
/// releases sorted the keys, this one writes them in encode order with `StoredCodec`, and
/// readers never depend on the order): enumerations as their raw values, optional members left out when nil, enumerations
/// with payloads as Swift's synthesized `{"case":{"label":…}}`, and a controller's (or a spec's)
/// client-settable configuration flat beside its other members under the names of
/// `ControllerConfiguration.fields`. Members that appeared after the first release are optional
/// here, and the mapping gives them the domain's default.
///
/// The version is written in every row (the `format` column of migration 0002), not once per
/// session: a commit rewrites only the controllers that changed and never rewrites history, so a
/// session continued by a newer release holds rows of both formats side by side. A reader meets
/// a version it does not know as an error (SessionFormat's `StoredFormatError.unsupportedFormat`), never
/// as a guess.
public enum StoredFormat {
    /// The version this release writes. Raise it (and add a decoding branch for the old one in
    /// `Persistence`) when a stored type changes shape in a way old readers cannot read.
    public static let current = 1
    /// Every version this release reads.
    public static let readable: ClosedRange<Int> = 1...1
}

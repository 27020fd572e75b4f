public import Foundation
public import Storyboards

/// The severity of a diagnostic or lint finding.
public typealias StoryboardDiagnosticSeverity = StoryboardDiagnostic.Severity

/// `.navsim-lint.json`, found by walking up from a storyboard's folder (the nearest file wins;
/// files are not merged). Every key is optional:
///
/// ```json
/// {"disable": ["unreachable-scene"], "severity": {"deprecated-segue-kind": "error"},
///  "customSegueClasses": ["FadeSegue"]}
/// ```
///
/// - `disable`: rule ids not to report (as `--disable`, which adds to them).
/// - `severity`: rule id → `"error"` or `"warning"`, overriding the rule's own.
/// - `customSegueClasses`: `UIStoryboardSegue` subclasses whose behaviour the app declares to navsim
///   (as `PUT /v1/storyboards/{name}/customSegues` does), so `undeclared-custom-segue` skips them.
public struct LintConfiguration: Sendable, Equatable {
    /// The file name looked for.
    public static let fileName = ".navsim-lint.json"

    /// Rule ids not reported.
    public var disabled: Set<String>
    /// Severity overrides by rule id.
    public var severities: [String: StoryboardDiagnosticSeverity]
    /// Declared custom segue classes.
    public var customSegueClasses: Set<String>
    /// The file it was read from; nil for the empty configuration.
    public var path: String?

    /// Builds a configuration.
    public init(
        disabled: Set<String> = [], severities: [String: StoryboardDiagnosticSeverity] = [:],
        customSegueClasses: Set<String> = [], path: String? = nil
    ) {
        self.disabled = disabled
        self.severities = severities
        self.customSegueClasses = customSegueClasses
        self.path = path
    }

    /// Parses a configuration file's bytes.
    /// - Throws: ``LintError/badConfiguration(path:reason:)`` for invalid JSON, an unknown key,
    ///   an unknown rule id or severity.
    public static func decode(_ data: Data, path: String) throws(LintError) -> LintConfiguration {
        func bad(_ reason: String) -> LintError { .badConfiguration(path: path, reason: reason) }
        guard let object = try? JSONSerialization.jsonObject(with: data), let root = object as? [String: Any] else {
            throw bad("not a JSON object")
        }
        var config = LintConfiguration(path: path)
        for (key, value) in root {
            switch key {
            case "disable":
                guard let ids = value as? [String] else { throw bad("\"disable\" is an array of rule ids") }
                for id in ids where LintRule.named(id) == nil { throw bad("unknown rule '\(id)' in \"disable\"") }
                config.disabled = Set(ids)
            case "severity":
                guard let map = value as? [String: String] else { throw bad("\"severity\" maps rule ids to \"error\" or \"warning\"") }
                for (id, level) in map {
                    guard LintRule.named(id) != nil else { throw bad("unknown rule '\(id)' in \"severity\"") }
                    guard let severity = StoryboardDiagnosticSeverity(rawValue: level) else {
                        throw bad("severity of '\(id)' is \"error\" or \"warning\", not \"\(level)\"")
                    }
                    config.severities[id] = severity
                }
            case "customSegueClasses":
                guard let names = value as? [String] else { throw bad("\"customSegueClasses\" is an array of class names") }
                config.customSegueClasses = Set(names)
            default:
                throw bad("unknown key \"\(key)\" (known: disable, severity, customSegueClasses)")
            }
        }
        return config
    }

    /// The nearest `.navsim-lint.json` in `folder` or above it; the empty configuration when none.
    /// - Throws: ``LintError/badConfiguration(path:reason:)`` when the file found is unreadable or invalid.
    public static func find(from folder: String) throws(LintError) -> LintConfiguration {
        var url = URL(fileURLWithPath: folder).standardizedFileURL
        while true {
            let candidate = url.appendingPathComponent(fileName).path
            if FileManager.default.fileExists(atPath: candidate) {
                guard let data = FileManager.default.contents(atPath: candidate) else {
                    throw .badConfiguration(path: candidate, reason: "cannot be read")
                }
                return try decode(data, path: candidate)
            }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path || url.path == "/" { return LintConfiguration() }
            url = parent
        }
    }
}

/// Why `navsim lint` or `navsim refactor` cannot run at all (exit status 2 for lint).
public enum LintError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A path given on the command line does not exist.
    case noSuchPath(String)
    /// No `.storyboard` file in the paths given.
    case noStoryboards([String])
    /// A `.navsim-lint.json` that is not valid.
    case badConfiguration(path: String, reason: String)
    /// `--disable` names no rule.
    case unknownRule(String)

    /// A readable sentence.
    public var description: String {
        switch self {
        case let .noSuchPath(path): "\(path) does not exist"
        case let .noStoryboards(paths): "no .storyboard files in \(paths.joined(separator: " "))"
        case let .badConfiguration(path, reason): "\(path): \(reason)"
        case let .unknownRule(id): "unknown rule '\(id)'; navsim lint --rules lists them"
        }
    }
}

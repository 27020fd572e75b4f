public import Foundation

/// The project's optional `shared/` folder (spec, acceptance scenarios, storyboard corpus) as the
/// test targets find it. When `$NAVSIM_SHARED` is set, it decides alone: scripts/test.sh sets it
/// from scripts/find-shared.sh, empty when it found none, so the tests use exactly what the script
/// announced. Unset (a plain `swift test`): `shared/` beside the checkout or one of its parents.
/// Nil when there is none.
public enum SharedFolder {
    public static let directory: URL? = {
        let fm = FileManager.default
        func valid(_ path: String) -> Bool { fm.fileExists(atPath: path + "/acceptance/run.py") }
        if let env = ProcessInfo.processInfo.environment["NAVSIM_SHARED"] {
            return !env.isEmpty && valid(env) ? URL(fileURLWithPath: env) : nil
        }
        var directory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<8 {
            let candidate = directory.appendingPathComponent("shared")
            if valid(candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }()
}

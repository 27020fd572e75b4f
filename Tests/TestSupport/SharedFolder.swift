import Foundation

/// The project's `shared/` folder (spec, acceptance scenarios, storyboard corpus) as the test
/// targets find it: `$NAVSIM_SHARED` (scripts/test.sh sets it via scripts/find-shared.sh), else
/// `shared/` beside the checkout or one of its parents. Nil when there is none.
public enum SharedFolder {
    public static let directory: URL? = {
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["NAVSIM_SHARED"], !env.isEmpty,
           fm.fileExists(atPath: env + "/acceptance/run.py") {
            return URL(fileURLWithPath: env)
        }
        var directory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<8 {
            let candidate = directory.appendingPathComponent("shared")
            if fm.fileExists(atPath: candidate.appendingPathComponent("acceptance/run.py").path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }()
}

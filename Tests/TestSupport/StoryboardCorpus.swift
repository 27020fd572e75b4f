import Foundation

/// The real storyboards of `shared/storyboards`, as `INDEX.tsv` lists them, bundled app by app.
/// Both the parser's corpus tests and the service's segue-by-segue corpus test read it.
public enum StoryboardCorpus {
    /// One row of INDEX.tsv.
    public struct Entry: Sendable {
        /// File name inside `shared/storyboards`.
        public var file: String
        public var repository: String
        /// Path inside the repository, e.g. `RxExample/RxExample/iOS/Main.storyboard`.
        public var path: String
        /// What `storyboardName` and `UIStoryboard(name:)` call it.
        public var name: String { String(path.split(separator: "/").last!.dropLast(".storyboard".count)) }
    }

    public struct IndexError: Error, CustomStringConvertible {
        public var description: String
    }

    /// `shared/storyboards`, when it is there.
    public static var folder: URL? {
        guard let shared = SharedFolder.directory else { return nil }
        let folder = shared.appendingPathComponent("storyboards")
        return FileManager.default.fileExists(atPath: folder.appendingPathComponent("INDEX.tsv").path) ? folder : nil
    }

    /// The rows of `INDEX.tsv` in `folder`, in file order.
    public static func entries(in folder: URL) throws -> [Entry] {
        let index = try String(contentsOf: folder.appendingPathComponent("INDEX.tsv"), encoding: .utf8)
        var lines = index.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        guard !lines.isEmpty else { throw IndexError(description: "INDEX.tsv is empty") }
        let header = lines.removeFirst()
        guard let file = header.firstIndex(of: "file"), let repo = header.firstIndex(of: "repo"),
              let path = header.firstIndex(of: "path") else {
            throw IndexError(description: "INDEX.tsv lacks a file, repo or path column: \(header)")
        }
        return lines.map { Entry(file: $0[file], repository: $0[repo], path: $0[path]) }
    }

    /// The bundles to import together: one per repository, split by directory while storyboard
    /// names clash (mattneub, IQKeyboardManager and bqlin hold several apps with a `Main` each).
    public static func apps(_ entries: [Entry]) -> [[Entry]] {
        func split(_ entries: [Entry], depth: Int) -> [[Entry]] {
            if Set(entries.map(\.name)).count == entries.count { return [entries] }
            let groups = Dictionary(grouping: entries) { entry -> String in
                let components = entry.path.split(separator: "/")
                return depth < components.count - 1 ? String(components[depth]) : entry.path
            }
            return groups.keys.sorted().flatMap { split(groups[$0]!, depth: depth + 1) }
        }
        return Dictionary(grouping: entries, by: \.repository).keys.sorted().flatMap { repository in
            split(entries.filter { $0.repository == repository }, depth: 0)
        }
    }
}

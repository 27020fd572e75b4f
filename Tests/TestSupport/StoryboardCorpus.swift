public import Foundation

/// A folder of real-world or hand-written `.storyboard` files with an `INDEX.tsv`, bundled app by
/// app: the in-repository fixtures (`Tests/Fixtures/Storyboards`, always there) and the larger
/// `shared/storyboards` corpus (only when `shared/` is beside the checkout). Both the parser's
/// corpus tests and the service's segue-by-segue corpus tests read them through this type.
public struct StoryboardCorpus: Sendable {
    /// One row of an `INDEX.tsv`.
    public struct Entry: Sendable, Hashable {
        /// Path of the file inside the corpus folder (`real/ReactiveX/RxSwift/…/Main.storyboard`).
        public var file: String
        /// `owner/name` of the repository the file comes from, or `handwritten`.
        public var repository: String
        /// Path inside that repository, e.g. `RxExample/RxExample/iOS/Main.storyboard`; for a
        /// hand-written fixture, ``file`` itself.
        public var path: String
        /// Fixtures only: the full commit the file was copied from (nil for hand-written files).
        public var commit: String?
        /// Fixtures only: `git hash-object` of the file as the index records it.
        public var gitBlobSHA1: String?
        /// Fixtures only: the licence the file is redistributed under (`MIT`), or `navsim` for
        /// files written for this project.
        public var licence: String?
        /// Fixtures only: the name of the group of files uploaded together (one app's storyboards).
        public var bundle: String?
        /// Fixtures only: what the upload should report, as the index spells it: `none`,
        /// `refused:<problem slug>`, or a comma list of `<severity>:<diagnostic code>`.
        public var expect: String?
        /// Fixtures only: a few words on what the file is there to exercise.
        public var covers: String?

        /// What `storyboardName` and `UIStoryboard(name:)` call it.
        public var name: String { String(path.split(separator: "/").last!.dropLast(".storyboard".count)) }

        /// True for a file written for this project rather than copied from a public repository.
        public var isHandwritten: Bool { repository == StoryboardCorpus.handwrittenOrigin }

        /// ``expect`` as a set of `severity:code` strings; empty for `none`, nil for a refusal.
        public var expectedDiagnostics: Set<String>? {
            guard let expect, !expect.hasPrefix("refused:") else { return nil }
            return expect == "none" ? [] : Set(expect.split(separator: ",").map(String.init))
        }

        /// The problem slug of ``expect`` when the upload is to be refused (`refused:<slug>`).
        public var expectedRefusal: String? {
            guard let expect, expect.hasPrefix("refused:") else { return nil }
            return String(expect.dropFirst("refused:".count))
        }

        /// Builds an entry; the fixture-only fields default to nil (as in `shared/storyboards`).
        public init(
            file: String, repository: String, path: String, commit: String? = nil, gitBlobSHA1: String? = nil,
            licence: String? = nil, bundle: String? = nil, expect: String? = nil, covers: String? = nil
        ) {
            self.file = file
            self.repository = repository
            self.path = path
            self.commit = commit
            self.gitBlobSHA1 = gitBlobSHA1
            self.licence = licence
            self.bundle = bundle
            self.expect = expect
            self.covers = covers
        }
    }

    /// An `INDEX.tsv` that cannot be read as this type expects.
    public struct IndexError: Error, CustomStringConvertible {
        /// Which index, and what is wrong with it.
        public var description: String
    }

    /// The `origin` of fixtures written for this project.
    public static let handwrittenOrigin = "handwritten"

    /// How messages name the corpus (`Tests/Fixtures/Storyboards`, `shared/storyboards`).
    public var title: String
    /// The folder holding `INDEX.tsv` and the files.
    public var folder: URL
    /// The rows of `INDEX.tsv`, in file order.
    public var entries: [Entry]
    /// The groups of entries to upload together, each an app whose storyboard names are unique.
    public var apps: [[Entry]]

    /// The bytes of one entry's file.
    public func data(_ entry: Entry) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(entry)))
    }

    /// Where one entry's file is.
    public func url(_ entry: Entry) -> URL {
        folder.appendingPathComponent(entry.file)
    }

    // MARK: The in-repository fixtures

    /// `Tests/Fixtures/Storyboards`, found from this file (`Tests/TestSupport/…`).
    public static let fixturesFolder: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Storyboards")

    /// The in-repository fixtures. Columns of their `INDEX.tsv`: `file`, `origin` (`handwritten`
    /// or `owner/name`), `repo_path`, `commit`, `git_blob_sha1`, `licence`, `bundle`, `expect`,
    /// `covers`; `-` stands for "not applicable". Apps are the index's bundles, in index order.
    public static let fixtures: Result<StoryboardCorpus, IndexError> = Result { () throws(IndexError) in
        let folder = fixturesFolder
        let rows = try table(folder)
        let entries = try rows.map { row throws(IndexError) -> Entry in
            func value(_ column: String) throws(IndexError) -> String {
                guard let value = row[column], !value.isEmpty else {
                    throw IndexError(description: "\(folder.path)/INDEX.tsv: row \(row["file"] ?? "?") has no \(column)")
                }
                return value
            }
            func optional(_ column: String) throws(IndexError) -> String? {
                let text = try value(column)
                return text == "-" ? nil : text
            }
            let file = try value("file")
            let origin = try value("origin")
            return Entry(
                file: file, repository: origin,
                path: origin == handwrittenOrigin ? file : try value("repo_path"),
                commit: try optional("commit"), gitBlobSHA1: try optional("git_blob_sha1"),
                licence: try value("licence"), bundle: try value("bundle"), expect: try value("expect"),
                covers: try value("covers"))
        }
        var order: [String] = []
        var groups: [String: [Entry]] = [:]
        for entry in entries {
            let bundle = entry.bundle ?? entry.file
            if groups[bundle] == nil { order.append(bundle) }
            groups[bundle, default: []].append(entry)
        }
        return StoryboardCorpus(
            title: "Tests/Fixtures/Storyboards", folder: folder, entries: entries,
            apps: order.map { groups[$0]! })
    }

    // MARK: The shared corpus

    /// `shared/storyboards`, when it is there.
    public static var sharedFolder: URL? {
        guard let shared = SharedFolder.directory else { return nil }
        let folder = shared.appendingPathComponent("storyboards")
        return FileManager.default.fileExists(atPath: folder.appendingPathComponent("INDEX.tsv").path) ? folder : nil
    }

    /// True when `shared/storyboards` is beside the checkout (the traits of the tests that need it).
    public static var sharedIsPresent: Bool { sharedFolder != nil }

    /// The corpus of `shared/storyboards`: nil when it is not there, a failure when its index
    /// cannot be read. Apps are found by ``apps(_:)``.
    public static let shared: Result<StoryboardCorpus, IndexError>? = sharedFolder.map { folder in
        Result { () throws(IndexError) in
            let entries = try entries(in: folder)
            return StoryboardCorpus(title: "shared/storyboards", folder: folder, entries: entries, apps: apps(entries))
        }
    }

    /// The rows of a `shared/storyboards`-style `INDEX.tsv` (columns `file`, `repo`, `path`), in file order.
    public static func entries(in folder: URL) throws(IndexError) -> [Entry] {
        try table(folder).map { row throws(IndexError) -> Entry in
            guard let file = row["file"], let repository = row["repo"], let path = row["path"] else {
                throw IndexError(description: "\(folder.path)/INDEX.tsv lacks a file, repo or path column")
            }
            return Entry(file: file, repository: repository, path: path)
        }
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

    /// `INDEX.tsv` of `folder` as one dictionary per row, keyed by the header's column names.
    static func table(_ folder: URL) throws(IndexError) -> [[String: String]] {
        let url = folder.appendingPathComponent("INDEX.tsv")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw IndexError(description: "cannot read \(url.path)")
        }
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        guard !lines.isEmpty else { throw IndexError(description: "\(url.path) is empty") }
        let header = lines.removeFirst()
        guard Set(header).count == header.count else { throw IndexError(description: "\(url.path): a column twice in \(header)") }
        return try lines.map { fields throws(IndexError) -> [String: String] in
            guard fields.count == header.count else {
                throw IndexError(description: "\(url.path): \(fields.count) fields where the header has \(header.count): \(fields.first ?? "")")
            }
            return Dictionary(uniqueKeysWithValues: zip(header, fields))
        }
    }
}

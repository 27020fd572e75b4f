import Foundation
public import Storyboards

/// One problem `navsim lint` reports: a rule, where, and what.
public struct LintFinding: Sendable, Equatable {
    /// The file, as given on the command line or found under a folder given there.
    public var file: String
    /// 1-based line of the element's start tag (the document element for file-wide findings).
    public var line: Int
    /// 1-based column of the element's `<`.
    public var column: Int
    /// The severity after configuration overrides.
    public var severity: StoryboardDiagnosticSeverity
    /// The rule's id.
    public var rule: String
    /// A readable sentence naming the ids involved.
    public var message: String
    /// Id of the element the finding is about; nil for the document.
    public var element: String?

    /// Builds a finding.
    public init(
        file: String, line: Int, column: Int, severity: StoryboardDiagnosticSeverity,
        rule: String, message: String, element: String?
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.severity = severity
        self.rule = rule
        self.message = message
        self.element = element
    }
}

/// What one lint run found.
public struct LintReport: Sendable, Equatable {
    /// Storyboard files read.
    public var files: [String]
    /// Findings, by file (in `files` order) then line and column.
    public var findings: [LintFinding]

    /// Builds a report; `navsim explore` renders its findings in lint's formats with one.
    public init(files: [String], findings: [LintFinding]) {
        self.files = files
        self.findings = findings
    }

    /// Findings that are errors.
    public var errorCount: Int { findings.count { $0.severity == .error } }
    /// Findings that are warnings.
    public var warningCount: Int { findings.count { $0.severity == .warning } }

    /// The exit status: 1 with an error, or with a warning when `strict`; 0 otherwise.
    public func exitStatus(strict: Bool) -> Int32 {
        errorCount > 0 || (strict && warningCount > 0) ? 1 : 0
    }
}

/// `navsim lint` without the command line: reads storyboard files and folders (no server, no
/// database), resolves references among the files of one folder, and reports every upload
/// diagnostic plus the linter's own rules (``LintRule/all``), filtered by `--disable` and by the
/// nearest ``LintConfiguration``.
public struct Linter: Sendable {
    /// Rule ids switched off for every file (`--disable`).
    public var disabled: Set<String>

    /// - Throws: ``LintError/unknownRule(_:)`` for an id that is no rule.
    public init(disabled: Set<String> = []) throws(LintError) {
        for id in disabled where LintRule.named(id) == nil { throw .unknownRule(id) }
        self.disabled = disabled
    }

    /// Every `.storyboard` file named by `paths`: files as given, folders searched recursively
    /// (sorted, hidden entries skipped).
    /// - Throws: ``LintError/noSuchPath(_:)``, ``LintError/noStoryboards(_:)``.
    public static func storyboardFiles(in paths: [String]) throws(LintError) -> [String] {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw .noSuchPath(path) }
            if !isFolder.boolValue { files.append(path); continue }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            let found = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".storyboard") && !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
                .sorted()
            files += found.map { "\(base)/\($0)" }
        }
        guard !files.isEmpty else { throw .noStoryboards(paths) }
        var seen = Set<String>()
        return files.filter { seen.insert($0).inserted }
    }

    /// Lints the storyboards under `paths`.
    /// - Throws: ``LintError`` for a missing path, no storyboards, an invalid configuration file.
    public func lint(paths: [String]) throws(LintError) -> LintReport {
        let files = try Self.storyboardFiles(in: paths)
        var byFolder: [String: [String]] = [:]
        var folders: [String] = []
        for file in files {
            let folder = (file as NSString).deletingLastPathComponent
            if byFolder[folder] == nil { folders.append(folder) }
            byFolder[folder, default: []].append(file)
        }
        var findings: [LintFinding] = []
        for folder in folders {
            let config = try LintConfiguration.find(from: folder.isEmpty ? "." : folder)
            func read(_ file: String) -> (file: String, data: [UInt8]) {
                (file: file, data: FileManager.default.contents(atPath: file).map { Array($0) } ?? [])
            }
            let named = byFolder[folder]!
            let documents = named.map(read)
            // The folder's other storyboards resolve references (a file linted alone still sees
            // the storyboards beside it, as the app bundle would), without being reported on.
            let directory = folder.isEmpty ? "." : folder
            let siblings = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
                .filter { $0.hasSuffix(".storyboard") }.sorted()
                .map { folder.isEmpty ? $0 : (folder as NSString).appendingPathComponent($0) }
                .filter { !named.contains($0) }
            findings += lint(folder: documents, context: siblings.map(read), configuration: config)
        }
        return LintReport(files: files, findings: findings)
    }

    /// Lints the storyboards of one folder, given as (path, bytes); the storyboard's name is its
    /// file name without `.storyboard`, as `storyboardName` references it.
    /// `context`: more storyboards of the folder that references may name, parsed but not reported on.
    public func lint(
        folder documents: [(file: String, data: [UInt8])],
        context: [(file: String, data: [UInt8])] = [],
        configuration: LintConfiguration = LintConfiguration()
    ) -> [LintFinding] {
        var parsed: [(file: String, data: [UInt8], storyboard: Storyboard, positions: [String: SourcePosition])] = []
        var findings: [LintFinding] = []
        let off = disabled.union(configuration.disabled)
        func report(_ rule: LintRule, file: String, position: SourcePosition, message: String, element: String?) {
            guard !off.contains(rule.id) else { return }
            findings.append(
                LintFinding(
                    file: file, line: position.line, column: max(position.column, 1),
                    severity: configuration.severities[rule.id] ?? rule.severity,
                    rule: rule.id, message: message, element: element))
        }
        for document in documents {
            let name = ((document.file as NSString).lastPathComponent as NSString).deletingPathExtension
            do {
                let (storyboard, positions) = try StoryboardParser.parseWithPositions(name: name, data: document.data)
                parsed.append((document.file, document.data, storyboard, positions))
            } catch {
                let rule = if case .unsupportedDocumentType = error { LintRule(upload: .unsupportedDocumentType) } else { LintRule.invalidStoryboard }
                report(rule, file: document.file, position: Self.position(of: error), message: "\(error)", element: nil)
            }
        }
        let others = context.compactMap { document -> Storyboard? in
            let name = ((document.file as NSString).lastPathComponent as NSString).deletingPathExtension
            return try? StoryboardParser.parse(name: name, data: document.data)
        }
        let library = StoryboardLibrary(parsed.map(\.storyboard) + others)
        for entry in parsed {
            let lines = SourceLines(entry.data)
            func at(_ element: String?) -> SourcePosition {
                let position = entry.positions[element ?? ""] ?? entry.positions[""] ?? SourcePosition(line: 1, column: 1)
                return lines.startColumn(of: element, near: position)
            }
            for diagnostic in library.diagnostics(
                for: entry.storyboard.name,
                customSegueClasses: configuration.customSegueClasses)
            {
                report(
                    LintRule(upload: diagnostic.code), file: entry.file, position: at(diagnostic.element),
                    message: diagnostic.message, element: diagnostic.element)
            }
            for found in LintRules.check(entry.storyboard, in: library) {
                report(found.rule, file: entry.file, position: at(found.element), message: found.message, element: found.element)
            }
        }
        let order = Dictionary(documents.enumerated().map { ($1.file, $0) }, uniquingKeysWith: { a, _ in a })
        return findings.enumerated().sorted { a, b in
            let (x, y) = (a.element, b.element)
            return (order[x.file] ?? 0, x.line, x.column, a.offset) < (order[y.file] ?? 0, y.line, y.column, b.offset)
        }.map(\.element)
    }

    /// Where the element `id` starts in a storyboard file's bytes: its line and the column of
    /// its `<`, from the position the parser reported for it (``StoryboardParser/parseWithPositions(name:data:limits:)``).
    public static func startPosition(of id: String, in data: [UInt8], parsed position: SourcePosition) -> SourcePosition {
        self.position(of: id, in: data, positions: [id: position])
    }

    /// Where `element` (nil: the document) starts in a file: its line, and the column of its tag's
    /// `<`, from the positions ``StoryboardParser/parseWithPositions(name:data:limits:)`` gave.
    public static func position(of element: String?, in data: [UInt8], positions: [String: SourcePosition]) -> SourcePosition {
        let position = positions[element ?? ""] ?? positions[""] ?? SourcePosition(line: 1, column: 1)
        let found = SourceLines(data).startColumn(of: element, near: position)
        return SourcePosition(line: found.line, column: max(found.column, 1))
    }

    static func position(of error: StoryboardError) -> SourcePosition {
        switch error {
        case let .malformedXML(line, column, _): SourcePosition(line: line, column: column)
        case let .tooDeeplyNested(_, line, column): SourcePosition(line: line, column: column)
        case let .doctypeNotAllowed(line): SourcePosition(line: line, column: 1)
        case let .limitExceeded(_, _, line, _): SourcePosition(line: line, column: 1)
        case let .contentAfterDocument(_, line, _): SourcePosition(line: line, column: 1)
        default: SourcePosition(line: 1, column: 1)
        }
    }
}

/// The file's lines, to turn the parser's position (just past a start tag) into the column of
/// the tag's `<`.
struct SourceLines {
    let bytes: [UInt8]
    var lineStarts: [Int] = [0]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { lineStarts.append(index + 1) }
    }

    /// On the element's line, the `<` that opens the tag carrying `id="element"`; the position as
    /// given when it cannot be found (a tag over several lines keeps the parser's line).
    func startColumn(of element: String?, near position: SourcePosition) -> SourcePosition {
        guard position.line >= 1, position.line <= lineStarts.count else { return position }
        let start = lineStarts[position.line - 1]
        let end = position.line < lineStarts.count ? lineStarts[position.line] : bytes.count
        let line = bytes[start..<end]
        let needle: [UInt8] = element.map { Array("id=\"\($0)\"".utf8) } ?? Array("<document".utf8)
        guard let hit = firstIndex(of: needle, in: line) else { return position }
        var cursor = hit
        while cursor > start, bytes[cursor] != UInt8(ascii: "<") { cursor -= 1 }
        guard bytes[cursor] == UInt8(ascii: "<") else { return position }
        // Columns count characters; UTF-8 continuation bytes are not characters.
        let column = bytes[start..<cursor].count { $0 & 0xC0 != 0x80 } + 1
        return SourcePosition(line: position.line, column: column)
    }

    private func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        while index + needle.count <= haystack.endIndex {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) {
                // `id=` must not be the tail of another attribute (`storyboardIdentifier=`…, `userLabel`).
                if index == haystack.startIndex || haystack[index - 1] == UInt8(ascii: " ") || needle[0] == UInt8(ascii: "<") {
                    return index
                }
            }
            index += 1
        }
        return nil
    }
}

import Foundation
import NavigationCore
import Testing
import Storyboards
import TestSupport

/// The in-repository fixtures (`Tests/Fixtures/Storyboards`): hand-written files that cover the
/// parser's whole vocabulary and every upload diagnostic, and real files copied byte for byte from
/// projects whose licence allows it (MIT, Apache-2.0, the Unlicense, Apple's sample code licence).
/// These run on every checkout; ``CorpusTests`` adds `shared/storyboards`.
@Suite struct FixtureCorpusTests {
    typealias Entry = StoryboardCorpus.Entry

    static let corpus: Result<ParsedCorpus, any Error> = Result {
        try ParsedCorpus.load(try StoryboardCorpus.fixtures.get())
    }

    /// The library of `entry`'s bundle, as the service would hold it after uploading that app.
    static func library(of entry: Entry, in corpus: ParsedCorpus) throws -> StoryboardLibrary {
        let app = try #require(corpus.apps.first { $0.contains(entry) })
        return StoryboardLibrary(app.compactMap { corpus.storyboards[$0.file] })
    }

    // MARK: The index

    /// The licence of a real file: the most specific `LICENSES/<owner>__<repo>[__<directory>…].txt`
    /// whose directories lead to the file (repositories of Apple samples have one licence per sample).
    static func licenceFile(of entry: Entry, in licenceFiles: Set<String>) -> String? {
        let directories = entry.path.split(separator: "/").dropLast().map(String.init)
        let base = "LICENSES/" + entry.repository.replacingOccurrences(of: "/", with: "__")
        return (0...directories.count).reversed().lazy
            .map { base + directories.prefix($0).map { "__" + $0 }.joined() + ".txt" }
            .first { licenceFiles.contains($0) }
    }

    @Test func indexAndFolderAgree() throws {
        let corpus = try StoryboardCorpus.fixtures.get()
        let folder = corpus.folder.resolvingSymlinksInPath()
        var onDisk: Set<String> = []
        var licenceFiles: Set<String> = []
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        for case let url as URL in enumerator {
            let relative = String(url.resolvingSymlinksInPath().path.dropFirst(folder.path.count + 1))
            if relative.hasSuffix(".storyboard") { onDisk.insert(relative) }
            if relative.hasPrefix("LICENSES/") { licenceFiles.insert(relative) }
        }
        let listed = corpus.entries.map(\.file)
        #expect(Set(listed).count == listed.count, "a file listed twice")
        #expect(onDisk.subtracting(listed).isEmpty, "not in INDEX.tsv: \(onDisk.subtracting(listed).sorted())")
        #expect(Set(listed).subtracting(onDisk).isEmpty, "listed but missing: \(Set(listed).subtracting(onDisk).sorted())")

        var licencesUsed: Set<String> = []
        for entry in corpus.entries {
            #expect(entry.expect != nil && entry.covers != nil && entry.bundle != nil, "\(entry.file)")
            if entry.isHandwritten {
                #expect(entry.file.hasPrefix("handwritten/"), "\(entry.file)")
                #expect(entry.commit == nil && entry.gitBlobSHA1 == nil, "\(entry.file): hand-written files have no origin commit")
                #expect(entry.licence == "navsim", "\(entry.file)")
            } else {
                #expect(entry.file == "real/\(entry.repository)/\(entry.path)", "\(entry.file): real files keep their repository path")
                #expect(entry.commit?.count == 40 && entry.commit?.allSatisfy(\.isHexDigit) == true, "\(entry.file): commit")
                #expect(entry.gitBlobSHA1?.count == 40, "\(entry.file): git_blob_sha1")
                #expect(
                    ["MIT", "BSD-2-Clause", "BSD-3-Clause", "Apache-2.0", "Unlicense", "Apple-Sample-Code"].contains(entry.licence ?? ""),
                    "\(entry.file): licence \(entry.licence ?? "none") is not one that allows redistribution here")
                let licence = try #require(Self.licenceFile(of: entry, in: licenceFiles), "\(entry.file): no LICENSES/ file")
                licencesUsed.insert(licence)
                let text = FileManager.default.contents(atPath: folder.appendingPathComponent(licence).path)
                    .map { String(decoding: $0, as: UTF8.self) }
                switch entry.licence {
                case "Unlicense":
                    // A dedication to the public domain: no copyright notice to keep.
                    #expect(text?.contains("released into the public domain") == true, "\(licence) is not the Unlicense")
                default:
                    #expect(text?.contains("Copyright") == true, "\(entry.file): \(licence) without a copyright notice")
                }
                switch entry.licence {
                case "MIT":
                    #expect(text?.contains("Permission is hereby granted, free of charge") == true, "\(licence) is not the MIT text")
                case "Apache-2.0":
                    #expect(text?.contains("Apache License") == true && text?.contains("Version 2.0") == true, "\(licence) is not the Apache text")
                case "Apple-Sample-Code":
                    #expect(text?.contains("to use, reproduce, modify and redistribute the Apple") == true, "\(licence) is not Apple's sample code licence")
                default:
                    break
                }
            }
        }
        #expect(licenceFiles == licencesUsed, "licence files for repositories no file comes from, or the reverse")
        // Names are unique within a bundle: UIStoryboard(name:) must find exactly one file.
        for app in corpus.apps {
            #expect(Set(app.map(\.name)).count == app.count, "\(app.map(\.file))")
        }
    }

    @Test func realFilesAreByteCopiesOfTheirOrigin() throws {
        let corpus = try StoryboardCorpus.fixtures.get()
        let real = corpus.entries.filter { !$0.isHandwritten }
        #expect(real.count == 60)
        for entry in real {
            #expect(GitBlob.id(of: try corpus.data(entry)) == entry.gitBlobSHA1, "\(entry.file) differs from \(entry.repository)@\(entry.commit ?? "?")")
        }
    }

    @Test func gitBlobIDsAreGits() {
        // `printf '' | git hash-object --stdin` and `printf 'hello\n' | git hash-object --stdin`.
        #expect(GitBlob.id(of: []) == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391")
        #expect(GitBlob.id(of: Array("hello\n".utf8)) == "ce013625030ba8dba906f756967f9e9ca394464a")
        // FIPS 180-4's two-block example ("abc…nopq", 56 bytes, padding spills into a second block).
        let digest = GitBlob.sha1(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        #expect(digest.map { String(format: "%02x", $0) }.joined() == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }

    // MARK: The same checks as the shared corpus

    @Test func everyFileParsesOrIsRefusedAsIndexed() throws {
        let corpus = try Self.corpus.get()
        #expect(corpus.entries.count == 78)
        for entry in corpus.entries {
            if let refusal = entry.expectedRefusal {
                #expect(refusal == "unsupported-document-type", "\(entry.file): only that refusal is expected of a fixture")
                guard case .unsupportedDocumentType = corpus.parseFailures[entry.file] else {
                    Issue.record("\(entry.file) should be refused as not an iOS storyboard: \(String(describing: corpus.parseFailures[entry.file]))")
                    continue
                }
            } else {
                #expect(corpus.parseFailures[entry.file] == nil, "\(entry.file): \(corpus.parseFailures[entry.file]!)")
            }
        }
        #expect(corpus.storyboards.count == 77)
        let scenes = corpus.storyboards.values.reduce(0) { $0 + $1.scenes.count }
        let segues = corpus.storyboards.values.reduce(0) { $0 + $1.allSegues.count }
        #expect(scenes == 485)
        #expect(segues == 456)
        print(
            "storyboard fixtures: \(corpus.storyboards.count) files, \(scenes) scenes, \(segues) segues parsed in "
                + String(format: "%.1f ms", corpus.parseSeconds * 1000))
    }

    /// The service parses uploads on several request threads at once.
    @Test func parsingIsSafeFromConcurrentTasks() async throws {
        let corpus = try Self.corpus.get()
        try await corpus.expectConcurrentParsesAgree(corpus.entries.filter { $0.expectedRefusal == nil })
    }

    @Test func everyControllerElementMapsToAKnownKind() throws {
        let corpus = try Self.corpus.get()
        corpus.expectKnownControllerElements()
        // The hand-written files alone use every element the parser knows.
        let handwritten = corpus.entries.filter(\.isHandwritten).compactMap { corpus.storyboards[$0.file] }
        #expect(Set(handwritten.flatMap { $0.scenes.map(\.elementName) }) == ControllerElement.knownElementNames)
    }

    /// Each file's upload diagnostics, within its bundle, are exactly the codes INDEX.tsv lists.
    @Test func diagnosticsAreThoseTheIndexLists() throws {
        let corpus = try Self.corpus.get()
        var counts: [String: Int] = [:]
        for app in corpus.apps {
            let library = StoryboardLibrary(app.compactMap { corpus.storyboards[$0.file] })
            for entry in app {
                guard let expected = entry.expectedDiagnostics else { continue }
                let diagnostics = library.diagnostics(for: entry.name, customSegueClasses: [])
                for diagnostic in diagnostics { counts[diagnostic.code.rawValue, default: 0] += 1 }
                let found = Set(diagnostics.map { "\($0.severity.rawValue):\($0.code.rawValue)" })
                #expect(found == expected, "\(entry.file): \(diagnostics.map(\.description).joined(separator: "\n"))")
                #expect(diagnostics.allSatisfy { !$0.message.isEmpty && $0.element != nil })
                if !entry.isHandwritten {
                    // Xcode builds every real file: none of them can have an error.
                    #expect(diagnostics.allSatisfy { $0.severity == .warning }, "\(entry.file)")
                }
            }
        }
        print(
            "storyboard fixtures diagnostics by code: "
                + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        // Every diagnostic code is produced by some fixture (unsupported-document-type is a refusal).
        let listed = corpus.entries.flatMap { entry in
            (entry.expectedDiagnostics ?? []).map { String($0.split(separator: ":")[1]) } + [entry.expectedRefusal].compactMap { $0 }
        }
        #expect(Set(listed) == Set(StoryboardDiagnostic.Code.allCases.map(\.rawValue)))
        // The hand-written app, 12 diagnostics bundles, 8 MIT repositories (IQKeyboardManager holds two
        // apps), 12 Apple samples, firebase's database quickstart, MAGE, Kukai, HackingWithSwift and EWOGL.
        #expect(corpus.apps.count == 39)
    }

    @Test func everyDestinationAndReferenceResolves() throws {
        // The diagnostics fixtures are broken on purpose; everything else must hold together.
        let (references, unresolved) = try Self.corpus.get().resolutionTally {
            !($0.first?.file.hasPrefix("handwritten/diagnostics/") ?? true)
        }
        #expect(references == 73)
        // IBDecodable's two tabs into files without an entry point; Kukai's six references into Home
        // and RecoveryPhrase, which are not vendored (INDEX.tsv). Each with the segue that leads there.
        #expect(unresolved.count == 18, "\(unresolved)")
    }

    @Test func documentedRealCasesComeOutRight() throws {
        let corpus = try Self.corpus.get()
        // RxSwift Main: 15 legacy pushes, each to a reference to another file's initial controller.
        let rx = try corpus.storyboard("RxExample/RxExample/iOS/Main.storyboard")
        let pushes = rx.allSegues.filter { $0.segue.kind == .push }.map(\.segue)
        #expect(pushes.count == 15)
        #expect(pushes.allSatisfy { rx.scene(id: $0.destination ?? "")?.placeholder?.referencedIdentifier == nil })
        #expect(pushes.allSatisfy { rx.scene(id: $0.destination ?? "")?.isReference == true })
        // NetNewsWire's split lists the supplementary column and is triple-column (§5).
        let netNewsWire = try corpus.storyboard("iOS/MainWindow/Base.lproj/Main.storyboard")
        #expect(netNewsWire.scenes.first { $0.kind == .splitViewController }?.splitStyle == .tripleColumn)
        // SwiftGen Known Types: a navigation controller without root is a warning, not an error.
        let knownTypes = try corpus.storyboard("Known Types.storyboard")
        #expect(knownTypes.codes(.warning).contains(.navigationWithoutRoot))
        #expect(knownTypes.codes(.error).isEmpty)
        // SwiftGen Message: two container views embed the same scene, each an edge of its own.
        let message = try corpus.storyboard("IB-iOS/Message.storyboard")
        let embeds = message.allSegues.filter { $0.segue.kind == .embed }.map(\.segue)
        #expect(embeds.count == 2)
        #expect(Set(embeds.compactMap(\.destination)).count == 1)
        // IBDecodable StoryboardReferences: tabs that are references, two to files without an entry point.
        let references = try corpus.storyboard("Tests/Resources/StoryboardReferences.storyboard")
        let tabBar = try #require(references.scenes.first { $0.kind == .tabBarController })
        let tabs = tabBar.relationships.compactMap { references.scene(id: $0.destination ?? "") }
        #expect(tabs.count == 3)
        #expect(tabs.allSatisfy { $0.isReference })
        // Apple AVAutoWait: kind="showDetail" with action="showViewController:sender:"; the kind wins.
        let avAutoWait = try corpus.storyboard("AVAutoWait/Base.lproj/Main.storyboard")
        #expect(avAutoWait.allSegues.contains { $0.segue.kind == .showDetail })
        // Apple Accessory: a push fired by the cell's accessory button, not by selecting the row.
        let accessory = try corpus.storyboard("Accessory/Base.lproj/MainStoryboard.storyboard")
        #expect(accessory.allSegues.contains { $0.segue.kind == .push && $0.segue.trigger == "accessoryAction" })
        // Apple PhotoScroller: the entry point is a page view controller.
        let photoScroller = try corpus.storyboard("PhotoScroller/en.lproj/MainStoryboard.storyboard")
        #expect(photoScroller.initialScene?.kind == .pageViewController)
        // Apple AdaptivePresentation: a manual unwind with an identifier, to its own scene's exit.
        let adaptive = try corpus.storyboard("AdaptivePresentation.storyboard")
        #expect(adaptive.allSegues.contains { $0.segue.kind == .unwind && $0.segue.isManual && $0.segue.identifier != nil })
        // Apple AudioTapProcessor: a legacy popover anchored at a view.
        let tap = try corpus.storyboard("AudioTapProcessor/en.lproj/MainStoryboard.storyboard")
        let popover = try #require(tap.allSegues.first { $0.segue.kind == .popoverPresentation }?.segue)
        #expect(popover.spelledKind == "popover")
        #expect(popover.popoverAnchor == PopoverAnchor(sourceView: "6p0-kN-364"))
    }
}

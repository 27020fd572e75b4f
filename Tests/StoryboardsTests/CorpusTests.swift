import Foundation
import NavigationCore
import Testing
import Storyboards
import TestSupport

/// A storyboard corpus (``StoryboardCorpus``) with every file parsed once.
struct ParsedCorpus {
    typealias Entry = StoryboardCorpus.Entry

    var corpus: StoryboardCorpus
    var storyboards: [String: Storyboard]  // by file
    var parseFailures: [String: StoryboardError]
    var parseSeconds: Double

    var entries: [Entry] { corpus.entries }
    /// Each app: the entries that are bundled together.
    var apps: [[Entry]] { corpus.apps }

    static func load(_ corpus: StoryboardCorpus) throws -> ParsedCorpus {
        let documents = try corpus.entries.map { entry in (name: entry.name, data: try corpus.data(entry)) }
        let clock = ContinuousClock()
        let start = clock.now
        let results = StoryboardParser.parseAll(documents)
        let elapsed = clock.now - start
        var storyboards: [String: Storyboard] = [:]
        var failures: [String: StoryboardError] = [:]
        for (entry, result) in zip(corpus.entries, results) {
            switch result {
            case let .success(storyboard): storyboards[entry.file] = storyboard
            case let .failure(error): failures[entry.file] = error
            }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return ParsedCorpus(corpus: corpus, storyboards: storyboards, parseFailures: failures, parseSeconds: seconds)
    }

    /// Follows every segue destination and every storyboard reference of the apps `include`
    /// keeps, checking what must hold in any corpus (unwinds target their own scene's exit,
    /// destinations are scenes of their file, a resolved reference is no reference). Only
    /// IBDecodable's references to storyboards without an entry point (§6) may fail to resolve.
    /// - Returns: the number of references and what did not resolve, for the caller's counts.
    func resolutionTally(include: ([Entry]) -> Bool = { _ in true }) throws -> (references: Int, unresolved: [String]) {
        var unresolved: [String] = []
        var references = 0
        for app in apps where include(app) {
            let library = StoryboardLibrary(app.compactMap { storyboards[$0.file] })
            for entry in app {
                let storyboard = try #require(storyboards[entry.file])
                for (sceneID, segue) in storyboard.allSegues {
                    let destination = try #require(segue.destination, "\(entry.file): segue \(segue.id)")
                    if segue.kind == .unwind {
                        // Every unwind targets the exit of its own scene (§7).
                        #expect(storyboard.scene(containingExit: destination)?.id == sceneID, "\(entry.file): \(segue.id)")
                        continue
                    }
                    #expect(storyboard.scene(id: destination) != nil, "\(entry.file): \(segue.id) → \(destination)")
                    if case let .failure(error) = library.resolveDestination(of: segue, in: storyboard.name) {
                        unresolved.append("\(storyboard.name)/\(destination): \(error)")
                    }
                }
                for scene in storyboard.scenes where scene.placeholder != nil {
                    references += 1
                    let address = SceneAddress(storyboard: storyboard.name, sceneID: scene.id)
                    switch library.resolve(address) {
                    case let .success(target):
                        #expect(!target.scene.isReference)
                    case let .failure(error):
                        // IBDecodable's tabs lead to files without an entry point; Kukai's Main and
                        // Onboarding are vendored without the Home and RecoveryPhrase files they lead to.
                        #expect(
                            error == .noInitialViewController(storyboard: "StoryboardAllViews")
                                || error == .noInitialViewController(storyboard: "StoryboardAsset")
                                || error == .storyboardNotFound("Home") || error == .storyboardNotFound("RecoveryPhrase"),
                            "\(address): \(error)")
                        unresolved.append("\(address): \(error)")
                    }
                }
            }
        }
        return (references, unresolved)
    }

    /// Parses `entries` three times over on concurrent tasks, as the service parses uploads on
    /// several request threads at once, and expects every result to be the serial parse's.
    func expectConcurrentParsesAgree(_ entries: [Entry]) async throws {
        let documents = try entries.map { entry in (file: entry.file, name: entry.name, data: try corpus.data(entry)) }
        let parsed = await withTaskGroup(of: (String, Storyboard?).self) { group in
            for _ in 0..<3 {
                for document in documents {
                    group.addTask { (document.file, try? StoryboardParser.parse(name: document.name, data: document.data)) }
                }
            }
            var results: [(String, Storyboard?)] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(parsed.count == documents.count * 3)
        for (file, storyboard) in parsed {
            #expect(storyboard != nil && storyboard == storyboards[file], "\(file)")
        }
    }

    /// Every scene's element is one the parser knows, of the kind it maps to, with a class name.
    func expectKnownControllerElements() {
        for (file, storyboard) in storyboards {
            for scene in storyboard.scenes {
                #expect(ControllerElement.knownElementNames.contains(scene.elementName), "\(file): <\(scene.elementName)>")
                #expect((ControllerElement.kind(of: scene.elementName) ?? .viewController) == scene.kind)
                #expect(!scene.className.isEmpty)
                #expect(scene.isReference == (scene.elementName == ControllerElement.referenceElementName))
            }
        }
    }

    /// The storyboard whose file name ends with `fileSuffix` (shared/ flattens paths with `__`,
    /// the fixtures keep them, so a suffix names a file in both).
    func storyboard(_ fileSuffix: String) throws -> Storyboard {
        let file = try #require(storyboards.keys.first { $0.hasSuffix(fileSuffix) }, "\(fileSuffix)")
        return try #require(storyboards[file])
    }
}

/// The 64 real storyboards in `shared/storyboards`, imported app by app as INDEX.tsv groups them.
/// Only when `shared/` is beside the checkout; ``FixtureCorpusTests`` runs the same checks over
/// the in-repository fixtures every time.
@Suite(.enabled(if: StoryboardCorpus.sharedIsPresent, "shared/storyboards is not beside the checkout"))
struct CorpusTests {
    typealias Entry = StoryboardCorpus.Entry
    typealias Corpus = ParsedCorpus

    static let corpus: Result<Corpus, any Error> = Result {
        let shared = try #require(StoryboardCorpus.shared, "shared/storyboards not found next to the clone")
        return try ParsedCorpus.load(try shared.get())
    }

    /// IBDecodable's fixtures reference storyboards that have no entry point on purpose (§6).
    static let knownUnresolvable: Set<String> = [
        "StoryboardReferences/KxH-6z-Tzb", "StoryboardReferences/qgJ-S0-8w3", "StoryboardConnections/*",
    ]

    @Test func everyFileParses() throws {
        let corpus = try Self.corpus.get()
        #expect(corpus.entries.count == 64)
        #expect(corpus.parseFailures.isEmpty, "\(corpus.parseFailures)")
        #expect(corpus.storyboards.count == 64)
        let scenes = corpus.storyboards.values.reduce(0) { $0 + $1.scenes.count }
        let segues = corpus.storyboards.values.reduce(0) { $0 + $1.allSegues.count }
        // Counts of elements with sceneMemberID="viewController" and of <segue kind=…> in the files.
        #expect(scenes == 333)
        #expect(segues == 283)
        print(
            "storyboard corpus: 64 files, \(scenes) scenes, \(segues) segues parsed in "
                + String(format: "%.1f ms", corpus.parseSeconds * 1000))
    }

    /// The service parses uploads on several request threads at once.
    @Test func parsingIsSafeFromConcurrentTasks() async throws {
        let corpus = try Self.corpus.get()
        try await corpus.expectConcurrentParsesAgree(corpus.entries)
    }

    @Test func everyControllerElementMapsToAKnownKind() throws {
        let corpus = try Self.corpus.get()
        corpus.expectKnownControllerElements()
        let elements = Set(corpus.storyboards.values.flatMap { $0.scenes.map(\.elementName) })
        #expect(
            elements == [
                "viewController", "tableViewController", "navigationController", "viewControllerPlaceholder",
                "tabBarController", "splitViewController", "avPlayerViewController", "pageViewController",
                "glkViewController", "collectionViewController", "hostingController",
            ])
    }

    @Test func appsHaveNoErrorDiagnostics() throws {
        let corpus = try Self.corpus.get()
        var counts: [String: Int] = [:]
        for app in corpus.apps {
            let library = StoryboardLibrary(app.compactMap { corpus.storyboards[$0.file] })
            #expect(library.storyboards.count == app.count)
            for entry in app {
                let diagnostics = library.diagnostics(for: entry.name, customSegueClasses: [])
                for diagnostic in diagnostics { counts[diagnostic.code.rawValue, default: 0] += 1 }
                let errors = diagnostics.filter { $0.severity == .error }
                #expect(errors.isEmpty, "\(entry.file): \(errors)")
                #expect(diagnostics.allSatisfy { !$0.message.isEmpty && $0.element != nil })
            }
        }
        print(
            "storyboard corpus diagnostics by code: "
                + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        // 19 repositories, some holding several apps (mattneub 10, bqlin 6, 73153 4, …).
        #expect(corpus.apps.count == 35)
    }

    @Test func everyDestinationAndReferenceResolves() throws {
        let (references, unresolved) = try Self.corpus.get().resolutionTally()
        #expect(references == 46)
        // Only IBDecodable's deliberately broken references (2 tabs + 1 presentation) fail,
        // each seen once as a reference and once as a segue destination (the tabs are relationships).
        let brokenReferences = Set(
            unresolved.filter { $0.contains("has no initial view controller") }.map {
                String($0.prefix { $0 != ":" })
            })
        #expect(unresolved.count == 6, "\(unresolved)")
        #expect(brokenReferences.allSatisfy { $0.hasPrefix("StoryboardReferences/") || $0.hasPrefix("StoryboardConnections/") })
    }

    @Test func documentedCasesComeOutRight() throws {
        let corpus = try Self.corpus.get()
        func storyboard(_ fileSuffix: String) throws -> Storyboard { try corpus.storyboard(fileSuffix) }
        // RxSwift Main: 15 legacy pushes to references (§9 item 1).
        let rx = try storyboard("RxSwift__RxExample__RxExample__iOS__Main.storyboard")
        #expect(rx.allSegues.filter { $0.segue.kind == .push }.count == 15)
        // The old and new popover apps share object ids (the popover segues themselves were
        // re-identified): popover maps to popoverPresentation with the same anchors (§4.4).
        let oldPopovers = try storyboard("bk2ch09p481popoverInStoryboard__ch22p751popovers__Main.storyboard")
        let newPopovers = try storyboard("bk2ch09p481popoverInStoryboard2__ch22p751popovers__Main.storyboard")
        let old = oldPopovers.allSegues.filter { $0.segue.kind == .popoverPresentation }.map(\.segue)
        let new = newPopovers.allSegues.filter { $0.segue.kind == .popoverPresentation }.map(\.segue)
        #expect(old.count == 2)
        #expect(old.map(\.spelledKind).allSatisfy { $0 == "popover" })
        #expect(new.map(\.spelledKind).allSatisfy { $0 == "popoverPresentation" })
        #expect(
            Set(old.map { "\($0.destination ?? "") \(String(describing: $0.popoverAnchor))" })
                == Set(new.map { "\($0.destination ?? "") \(String(describing: $0.popoverAnchor))" }))
        #expect(oldPopovers.scenes.map(\.id) == newPopovers.scenes.map(\.id))
        // NetNewsWire's 2020 split lists the supplementary column first and is triple-column (§5).
        let netNewsWire = try storyboard("NetNewsWire__iOS__MainWindow__Base.lproj__Main.storyboard")
        #expect(netNewsWire.scenes.first { $0.kind == .splitViewController }?.splitStyle == .tripleColumn)
        // PopoverPresentingViewController: a manual popover anchored elsewhere; style on the controller (§9 items 8, 16).
        let presenting = try storyboard("bk2ch09p485PopoverPresentingViewController__PopoverPresentingViewController__Base.lproj__Main.storyboard")
        let manualPopover = try #require(presenting.allSegues.first { $0.segue.kind == .popoverPresentation }?.segue)
        #expect(manualPopover.isManual)
        #expect(manualPopover.popoverAnchor != nil)
        #expect(presenting.scenes.contains { $0.modalPresentationStyle == .currentContext })
        // AVAutoWait: kind wins over action (§9 item 11).
        let avAutoWait = try storyboard("AVAutoWait__Base.lproj__Main.storyboard")
        #expect(avAutoWait.allSegues.contains { $0.segue.kind == .showDetail })
        // The legacy UnwindSegues file declares its unwind action in <classes> (§7).
        let unwindSegues = try storyboard("UnwindSegues__en.lproj__MainStoryboard.storyboard")
        #expect(unwindSegues.unwindActionsByClass["PresentedViewController"] == ["unwind:"])
        #expect(unwindSegues.scenes.contains { $0.modalTransitionStyle == .flipHorizontal })
        // SwiftGen Known Types: a navigation controller without root is a warning, not an error.
        let knownTypes = try storyboard("Known Types.storyboard")
        #expect(knownTypes.codes(.warning).contains(.navigationWithoutRoot))
        #expect(knownTypes.codes(.error).isEmpty)
    }
}

import Foundation
import NavigationCore
import Testing
import Storyboards
import TestSupport

/// What the hand-written fixtures (`Tests/Fixtures/Storyboards/handwritten`) are there to cover,
/// checked so that a fixture edited later cannot silently stop covering it, and what the parser
/// must make of them.
@Suite struct HandwrittenFixtureTests {
    static let corpus: Result<ParsedCorpus, any Error> = FixtureCorpusTests.corpus

    /// The four files of the hand-written app, by name.
    static func app() throws -> [String: Storyboard] {
        let corpus = try corpus.get()
        let app = try #require(corpus.apps.first { $0.first?.bundle == "handwritten-app" })
        var byName: [String: Storyboard] = [:]
        for entry in app {
            let storyboard: Storyboard = try #require(corpus.storyboards[entry.file], "\(entry.file)")
            byName[entry.name] = storyboard
        }
        #expect(byName.keys.sorted() == ["Legacy", "Library", "Main", "Settings"])
        return byName
    }

    static func handwritten() throws -> [Storyboard] {
        let corpus = try corpus.get()
        return corpus.entries.filter(\.isHandwritten).compactMap { corpus.storyboards[$0.file] }
    }

    @Test func everySegueKindSourceAndRelationshipIsCovered() throws {
        let segues = try Self.handwritten().flatMap { $0.allSegues.map(\.segue) }
        #expect(Set(segues.map(\.kind)) == Set(SegueSpec.Kind.allCases))
        #expect(
            Set(segues.map(\.spelledKind)).isSuperset(of: [
                "push", "modal", "replace", "popover", "show", "showDetail",
                "presentation", "popoverPresentation", "custom", "embed",
                "unwind", "relationship",
            ]))
        #expect(
            Set(segues.compactMap(\.relationship)) == [
                "rootViewController", "viewControllers", "masterViewController",
                "detailViewController", "supplementaryViewController",
            ])
        #expect(
            Set(segues.map(\.source.element)).isSuperset(of: [
                "tableViewCell", "collectionViewCell", "barButtonItem", "button", "containerView", "swipeGestureRecognizer",
                "viewController", "tableViewController", "navigationController", "tabBarController", "splitViewController",
            ]))
        #expect(segues.contains { $0.popoverAnchor?.sourceView != nil })
        #expect(segues.contains { $0.popoverAnchor?.barButtonItem != nil })
        #expect(segues.contains { $0.isManual && $0.kind == .unwind })
        #expect(segues.contains { $0.trigger == "accessoryAction" })
        #expect(segues.contains { $0.destinationCreationSelector != nil })
        #expect(segues.contains { $0.splitViewControllerTargetIndex == 1 })
        #expect(segues.contains { !$0.animates })
        #expect(segues.contains { $0.customClass != nil && $0.customModule != nil && $0.kind == .custom })
        #expect(segues.contains { $0.customClass != nil && $0.kind == .presentation })
        #expect(Set(segues.compactMap(\.modalPresentationStyle?.spelling)).isSuperset(of: ["formSheet", "pageSheet", "overFullScreen", "fullScreen"]))
        #expect(Set(segues.compactMap(\.modalTransitionStyle?.spelling)) == ["coverVertical", "crossDissolve", "flipHorizontal"])
    }

    @Test func everyControllerAttributeIsCovered() throws {
        let scenes = try Self.handwritten().flatMap(\.scenes)
        #expect(Set(scenes.compactMap(\.splitStyle)) == [.unspecified, .doubleColumn, .tripleColumn])
        #expect(scenes.contains { $0.customModule != nil && $0.customClass != nil })
        #expect(scenes.contains { $0.storyboardIdentifier != nil && $0.title != nil })
        #expect(scenes.contains { $0.navigationItemTitle != nil })
        #expect(scenes.contains { $0.tabBarItemTitle != nil })
        #expect(scenes.contains { $0.modalPresentationStyle != nil && $0.modalTransitionStyle != nil })
        #expect(scenes.contains { $0.definesPresentationContext == true })
        #expect(scenes.contains { $0.providesPresentationContextTransitionStyle == true })
        #expect(scenes.contains { $0.isModalInPresentation == true })
        #expect(Set(scenes.compactMap(\.page?.transitionStyle)) == [.scroll, .pageCurl])
        #expect(Set(scenes.compactMap(\.page?.navigationOrientation)) == ["horizontal", "vertical"])
        #expect(Set(scenes.compactMap(\.page?.isDoubleSided)) == [true, false])
        #expect(scenes.contains { !$0.exitIDs.isEmpty })
        let references = scenes.compactMap(\.placeholder)
        #expect(references.contains { $0.storyboardName != nil && $0.referencedIdentifier != nil })
        #expect(references.contains { $0.storyboardName != nil && $0.referencedIdentifier == nil })
        #expect(references.contains { $0.storyboardName == nil && $0.referencedIdentifier != nil })
    }

    @Test func mainParsesAsWritten() throws {
        let main = try #require(try Self.app()["Main"])
        #expect(main.initialScene?.kind == .tabBarController)
        #expect(main.initialScene?.className == "RootTabBarController")
        #expect(main.scenes.count == 20)
        // The tie-breaker reference and the peek-and-pop children are not segues.
        #expect(main.allSegues.count == 28)
        #expect(!main.allSegues.contains { ["preview-commit", "preview-preview"].contains($0.segue.id) })
        // Tabs in document order; a tab's title comes from the child's (or the reference's) tabBarItem.
        let tabs = try #require(main.initialScene).relationships.compactMap { main.scene(id: $0.destination ?? "") }
        #expect(tabs.map(\.id) == ["inbox-nav", "settings-ref", "library-ref", "gallery"])
        #expect(tabs.map(\.tabBarItemTitle) == ["Inbox", "Settings", "Library", "Gallery"])

        let inbox = try #require(main.scene(id: "inbox"))
        #expect(inbox.kind == .tableViewController && inbox.navigationItemTitle == "All Inboxes" && inbox.title == "Inbox")
        let byID = Dictionary(uniqueKeysWithValues: main.allSegues.map { ($0.segue.id, $0) })
        #expect(byID["cell-accessory"]?.segue.trigger == "accessoryAction")
        #expect(byID["cell-push"]?.segue.kind == .push)
        #expect(byID["filters-popover"]?.segue.popoverAnchor == PopoverAnchor(barButtonItem: "filters-button"))
        #expect(byID["filters-popover"]?.segue.source == SegueSource(element: "barButtonItem", id: "filters-button", key: "leftBarButtonItem"))
        #expect(byID["search-present"]?.segue.animates == false)
        #expect(byID["search-present"]?.segue.modalTransitionStyle?.spelling == "crossDissolve")
        #expect(byID["inbox-manual-show"]?.segue.isManual == true)
        #expect(byID["inbox-manual-show"]?.segue.destinationCreationSelector == "makeMessageViewController:")
        #expect(byID["cell-show"]?.segue.isManual == false)
        // A gesture recognizer beside the controller: its segue belongs to the scene's controller.
        #expect(byID["swipe-show"]?.sceneID == "message")
        #expect(byID["swipe-show"]?.segue.source.element == "swipeGestureRecognizer")
        #expect(byID["flag-popover"]?.segue.popoverAnchor == PopoverAnchor(sourceView: "flag-button"))
        #expect(byID["message-custom"]?.segue.kind == .custom)
        #expect(byID["message-custom"]?.segue.customModule == "MailKit")
        #expect(byID["reply-present"]?.segue.kind == .presentation && byID["reply-present"]?.segue.customClass == "SheetSegue")
        #expect(byID["header-embed"]?.segue.source.element == "containerView")
        #expect(byID["reply-cell-show"]?.segue.source.element == "collectionViewCell")
        #expect(byID["compose-manual-unwind"]?.segue.isManual == true)
        #expect(main.scene(containingExit: "compose-exit")?.id == "compose")
        #expect(main.scene(id: "compose-nav")?.modalPresentationStyle == .formSheet)
        #expect(main.scene(id: "message-info")?.isModalInPresentation == true)
        #expect(main.scene(id: "player")?.className == "AVPlayerViewController")
        #expect(main.scene(id: "gallery")?.className == "GLKViewController")
        #expect(main.scene(id: "preview")?.className == "PreviewHostingController")
        #expect(main.scene(id: "preview")?.kind == .viewController)
        // One identifier on two segues of one controller: both are kept, in document order (UIKit uses the first).
        #expect(main.scene(id: "thread")?.segues(withIdentifier: "showParticipants").map(\.id) == ["participants-popover", "participants-present"])
        #expect(main.scene(id: "folder-ref")?.placeholder == StoryboardReference(storyboardName: nil, referencedIdentifier: "Compose"))
    }

    @Test func libraryAndLegacyParseAsWritten() throws {
        let app = try Self.app()
        let library = try #require(app["Library"])
        #expect(library.scene(id: "library-split")?.splitStyle == .unspecified)
        #expect(library.scene(id: "sidebar-split")?.splitStyle == .doubleColumn)
        #expect(library.scene(id: "columns-split")?.splitStyle == .tripleColumn)
        #expect(library.scene(id: "columns-split")?.relationshipDestination("masterViewController") == "columns-primary")
        #expect(library.scene(id: "styled-split")?.splitStyle == .doubleColumn)
        #expect(
            library.scene(id: "book-pages")?.page
                == PageSettings(
                    transitionStyle: .pageCurl, navigationOrientation: "vertical",
                    spineLocation: .mid, isDoubleSided: true))
        #expect(
            library.scene(id: "carousel")?.page
                == PageSettings(
                    transitionStyle: .scroll, navigationOrientation: "horizontal",
                    spineLocation: PageState.SpineLocation.none, isDoubleSided: nil))

        let legacy = try #require(app["Legacy"])
        #expect(legacy.targetRuntime == "iOS.CocoaTouch.iPad")
        #expect(legacy.initialScene?.kind == .splitViewController)
        let byID = Dictionary(uniqueKeysWithValues: legacy.allSegues.map { ($0.segue.id, $0.segue) })
        #expect(byID["18"]?.kind == .showDetail && byID["18"]?.spelledKind == "replace" && byID["18"]?.splitViewControllerTargetIndex == 1)
        #expect(byID["31"]?.kind == .push)
        #expect(byID["27"]?.kind == .popoverPresentation && byID["27"]?.spelledKind == "popover")
        #expect(byID["27"]?.popoverAnchor == PopoverAnchor(barButtonItem: "26"))
        // Objective-C constant names become UIKit's case names.
        #expect(byID["29"]?.kind == .presentation && byID["29"]?.spelledKind == "modal")
        #expect(byID["29"]?.modalPresentationStyle?.spelling == "formSheet")
        #expect(byID["29"]?.modalTransitionStyle?.spelling == "flipHorizontal")
        #expect(byID["54"]?.kind == .unwind && byID["54"]?.identifier == "done" && byID["54"]?.unwindAction == "unwind:")
        #expect(legacy.unwindActionsByClass == ["DetailViewController": ["unwind:"]])
        #expect(legacy.scene(id: "50")?.isModalInPresentation == true)
        #expect(legacy.scene(id: "57")?.page?.isDoubleSided == false)
        #expect(legacy.scene(id: "20")?.storyboardIdentifier == "Detail")
    }

    /// Every reference of the hand-written app resolves, across files and within one.
    @Test func referencesResolveAcrossTheApp() throws {
        let library = StoryboardLibrary(Array(try Self.app().values))
        func target(_ storyboard: String, _ id: String) -> SceneAddress? {
            try? library.resolve(SceneAddress(storyboard: storyboard, sceneID: id)).get().address
        }
        #expect(target("Main", "settings-ref") == SceneAddress(storyboard: "Settings", sceneID: "settings-nav"))
        #expect(target("Main", "library-ref") == SceneAddress(storyboard: "Library", sceneID: "library-split"))
        #expect(target("Main", "folder-ref") == SceneAddress(storyboard: "Main", sceneID: "compose"))
        #expect(target("Settings", "main-message-ref") == SceneAddress(storyboard: "Main", sceneID: "message"))
        #expect(target("Settings", "legacy-ref") == SceneAddress(storyboard: "Legacy", sceneID: "2"))
        for name in library.names {
            let diagnostics = library.diagnostics(for: name)
            #expect(!diagnostics.contains { $0.code == .unresolvedReference || $0.severity == .error }, "\(name): \(diagnostics)")
        }
        // Declaring the segue classes (the custom segue's, and the presentation's `SheetSegue`,
        // R98) clears Main's only warnings.
        #expect(library.diagnostics(for: "Main", customSegueClasses: ["SlideInSegue"]).map(\.element) == ["reply-present"])
        #expect(library.diagnostics(for: "Main", customSegueClasses: ["SlideInSegue", "SheetSegue"]).isEmpty)
    }

    /// Each diagnostics fixture names what it triggers: the element each diagnostic is about.
    @Test func diagnosticsFixturesPointAtTheirElements() throws {
        let corpus = try Self.corpus.get()
        func diagnostics(_ fileSuffix: String) throws -> [StoryboardDiagnostic] {
            let entry = try #require(corpus.entries.first { $0.file.hasSuffix(fileSuffix) })
            return try FixtureCorpusTests.library(of: entry, in: corpus).diagnostics(for: entry.name)
        }
        #expect(
            try diagnostics("UnknownDestination.storyboard").compactMap(\.element).sorted()
                == ["dangling", "gone", "no-destination", "show-to-exit"])
        #expect(try diagnostics("DuplicateStoryboardIdentifier.storyboard").map(\.element) == ["second"])
        #expect(try diagnostics("NavigationWithoutRoot.storyboard").map(\.element) == ["empty-nav"])
        #expect(try diagnostics("RelationshipCycle.storyboard").map(\.element) == ["outer"])
        #expect(try diagnostics("PopoverWithoutAnchor.storyboard").map(\.element) == ["unanchored"])
        #expect(try diagnostics("UnreachableScene.storyboard").map(\.element) == ["orphan"])
        #expect(try diagnostics("ReferenceCycle.storyboard").map(\.element) == ["loop"])
        #expect(
            try diagnostics("UndeclaredCustomSegue.storyboard").compactMap(\.element).sorted()
                == ["deck-custom-class", "deck-custom-no-class", "deck-unknown-kind"])
        #expect(
            try diagnostics("UnresolvedReference.storyboard").compactMap(\.element).sorted()
                == ["to-missing-file", "to-missing-id", "to-no-entry"])
        #expect(try diagnostics("CycleOuter.storyboard").map(\.element) == ["cycle-outer"])
        #expect(try diagnostics("CycleInner.storyboard").map(\.element) == ["cycle-inner"])
    }
}

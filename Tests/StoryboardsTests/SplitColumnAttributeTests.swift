import NavigationCore
import Storyboards
import Testing

/// What a split view controller scene's attributes and relationships say about its columns:
/// `style`, `displayModeButtonVisibility` (R124) and the `compactViewController` relationship
/// (R123), read into the scene and its instantiated spec; values navsim has no case for are
/// `unsupported-value` warnings.
@Suite("split view controller attributes in storyboards")
struct SplitColumnAttributeTests {
    func split(_ id: String, _ attributes: String, _ relationships: [String]) -> String {
        let segues = relationships.enumerated().map { index, name in
            #"<segue destination="leaf-\#(name)" kind="relationship" relationship="\#(name)" id="\#(id)-\#(index)"/>"#
        }.joined()
        return XML.scene(
            #"<splitViewController id="\#(id)" \#(attributes) sceneMemberID="viewController"><connections>\#(segues)</connections></splitViewController>"#
        )
    }

    @Test func styleButtonVisibilityAndCompactColumn() throws {
        let storyboard = try parse(
            XML.document(
                initial: "compact",
                split("compact", #"displayModeButtonVisibility="never""#, ["masterViewController", "detailViewController", "compactViewController"]),
                split("odd", #"style="quadrupleColumn" displayModeButtonVisibility="sometimes""#, ["masterViewController"]),
                split("declared", #"style="tripleColumn" displayModeButtonVisibility="always""#, ["masterViewController"]),
                XML.viewController("leaf-masterViewController"),
                XML.viewController("leaf-detailViewController"),
                XML.viewController("leaf-compactViewController")))
        // A compact column only exists in column style, so the relationship makes the split one.
        let compact = try #require(storyboard.scene(id: "compact"))
        #expect(compact.splitStyle == .doubleColumn)
        #expect(compact.configuration.displayModeButtonVisibility == .some(.never))
        #expect(storyboard.scene(id: "declared")?.splitStyle == .tripleColumn)
        #expect(storyboard.scene(id: "declared")?.configuration.displayModeButtonVisibility == .some(.always))
        // Values with no case: warned about, then UIKit's defaults.
        let odd = try #require(storyboard.scene(id: "odd"))
        #expect(odd.splitStyle == .unspecified)
        #expect(odd.configuration.displayModeButtonVisibility == nil)
        let warnings = storyboard.diagnostics.filter { $0.code == .unsupportedValue }.map(\.message)
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.contains { $0.contains("style 'quadrupleColumn'") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("displayModeButtonVisibility 'sometimes'") }, "\(warnings)")

        // Instantiated, the compact relationship is the spec's compact column.
        var library = StoryboardLibrary()
        library.insert(storyboard)
        let spec = try SceneInstantiation(library: library).instantiate(
            storyboard: "Main", identifier: nil, budget: { (_: Int, _: String) throws(Failed) in }, failure: Failed.failure)
        #expect(spec?.splitStyle == .doubleColumn)
        guard case .new(let shownWhenCollapsed)? = spec?.compact else {
            Issue.record("no compact column: \(String(describing: spec))")
            return
        }
        #expect(shownWhenCollapsed.id == "leaf-compactViewController")
        #expect(spec?.displayModeButtonVisibility == .some(.never))
    }
}

private enum Failed: Error { case failure(InstantiationFailure) }

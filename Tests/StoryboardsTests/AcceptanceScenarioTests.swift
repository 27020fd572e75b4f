import Foundation
import Testing
import Storyboards
import TestSupport

/// The inline storyboards of the acceptance scenarios (`shared/acceptance/scenarios/10-segues-storyboards.json`).
/// The scenarios exist only in `shared/`; the hand-written fixtures (``HandwrittenFixtureTests``)
/// cover the same shapes on every checkout.
@Suite(.enabled(if: SharedFolder.directory != nil, "the acceptance scenarios live in shared/, which is not beside the checkout"))
struct AcceptanceScenarioTests {
    static func rawDocuments() throws -> [(scenario: String, xml: String)] {
        let shared = try #require(SharedFolder.directory, "shared/ not found next to the clone")
        let url = shared.appendingPathComponent("acceptance/scenarios/10-segues-storyboards.json")
        let scenarios = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
        var found: [(String, String)] = []
        func walk(_ value: Any, scenario: String) {
            if let dictionary = value as? [String: Any] {
                for (key, child) in dictionary {
                    if key == "raw", let xml = child as? String, xml.contains("<document") {
                        found.append((scenario, xml))
                    } else {
                        walk(child, scenario: scenario)
                    }
                }
            } else if let array = value as? [Any] {
                for child in array { walk(child, scenario: scenario) }
            }
        }
        for scenario in scenarios { walk(scenario, scenario: scenario["name"] as? String ?? "?") }
        return found
    }

    @Test func inlineStoryboardsParseWithoutErrors() throws {
        let documents = try Self.rawDocuments()
        #expect(documents.count >= 5)
        for (scenario, xml) in documents {
            let storyboard = try StoryboardParser.parse(name: "sb", xml: xml)
            #expect(!storyboard.scenes.isEmpty, "\(scenario)")
            let errors = StoryboardLibrary([storyboard]).diagnostics(for: "sb").filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(scenario): \(errors)")
        }
    }
}

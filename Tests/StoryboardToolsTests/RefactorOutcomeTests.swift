import Storyboards
import StoryboardTools
import Testing
import TestSupport

// The refactor as the service's route runs it, from the StoryboardTools target's public API:
// both documents parsed under the upload limits, and the classes whose declarations move.
@Suite struct RefactorOutcomeTests {
    let xml = StoryboardXML.document(
        initial: "a",
        scenes: [
            scene("a", body: connections(#"<segue destination="b" kind="show" customClass="FadeSegue" identifier="go" id="s1"/>"#)),
            scene(
                "b", attributes: #"customClass="DetailViewController""#,
                body: connections(#"<segue destination="a" kind="presentation" customClass="SlideSegue" id="s2"/>"#)),
        ])

    @Test func theMovedScenesTakeTheirClassesAlong() throws {
        let outcome = try RefactorOutcome(xml: Array(xml.utf8), name: "Main", scenes: ["b"], into: "Detail", limits: StoryboardParser.Limits())
        #expect(outcome.extracted.name == "Detail" && outcome.source.name == "Main")
        #expect(outcome.controllerClasses == ["DetailViewController"])
        #expect(outcome.segueClasses == ["SlideSegue"], "FadeSegue stays with the scene that stays")
    }

    @Test func refusalsAndLimitsAreTold() {
        #expect {
            _ = try RefactorOutcome(xml: Array(xml.utf8), name: "Main", scenes: ["zz"], into: "Detail", limits: StoryboardParser.Limits())
        } throws: { error in
            guard case .refused(.unknownScene("zz"))? = error as? RefactorFailure else { return false }
            return true
        }
        var tight = StoryboardParser.Limits()
        tight.elements = 3
        #expect {
            _ = try RefactorOutcome(xml: Array(xml.utf8), name: "Main", scenes: ["b"], into: "Detail", limits: tight)
        } throws: { error in
            guard case .unparsable? = error as? RefactorFailure else { return false }
            return true
        }
    }
}

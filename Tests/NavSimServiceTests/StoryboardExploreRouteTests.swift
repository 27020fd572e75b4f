import Foundation
import JSONValues
import Testing

/// `POST /v1/storyboards/{name}/explore` (docs/explore.md "Over HTTP"): the search over an
/// uploaded storyboard with its declarations, bounded, through the service handler.
@Suite("Storyboard explore route")
struct StoryboardExploreRouteTests {
    static let defects = ServiceFiles.root.appendingPathComponent("Tests/Fixtures/Explore/Defects.storyboard").path

    static func upload(_ h: ServiceHarness) throws -> String {
        let xml = try String(contentsOfFile: defects, encoding: .utf8)
        #expect(h.send("PUT", "/v1/storyboards/Defects", xml, contentType: "application/xml").status == 201)
        return xml
    }

    static func line(of id: String, in xml: String) -> Int {
        (xml.components(separatedBy: "\n").firstIndex { $0.contains("id=\"\(id)\"") } ?? -1) + 1
    }

    @Test func findsTheDefectsAtTheirLinesAndItsExceptionReplaysThroughTheHandler() throws {
        let h = try ServiceHarness()
        let xml = try Self.upload(h)
        let reply = h.send("POST", "/v1/storyboards/Defects/explore", "{}")
        #expect(reply.status == 200, "\(reply)")
        let findings = reply["findings"]?.array ?? []
        #expect(Set(findings.compactMap { $0["kind"]?.string }) == ["uikit-exception", "dead-end", "undeclared", "unreachable-scene"])
        let d12 = try #require(findings.first { $0["code"]?.string == "D12" })
        #expect(d12["line"]?.number == Double(Self.line(of: "home-show-settings-nav", in: xml)))
        #expect(reply["truncated"]?.bool == false)
        // The launch step and the path, sent as a flow would send them, answer the exception.
        let launch = try #require(reply["setup"]?.array?.first)
        let body = launch["body"]?.text.replacingOccurrences(of: "${run}", with: "route") ?? "{}"
        #expect(h.send("POST", "/v1/sessions", body).status == 201)
        let path = try #require(d12["path"]?.array)
        for step in path {
            let target = (step["do"]?.string ?? "").replacingOccurrences(of: "${sid}", with: "explore-route")
                .replacingOccurrences(of: "POST ", with: "")
            let answer = h.send("POST", target, step["body"]?.text ?? "{}")
            #expect(answer.status == Int(step["expect"]?["status"]?.number ?? 0), "\(answer)")
        }
        let last = h.send("GET", "/v1/sessions/explore-route")
        #expect(last["window"]?["visibleViewController"]?.string == "home")
    }

    /// Declared unwind actions and custom segue classes are no longer `undeclared`.
    @Test func declarationsApply() throws {
        let h = try ServiceHarness()
        _ = try Self.upload(h)
        #expect(h.send("PUT", "/v1/storyboards/Defects/classes", #"{"HomeViewController": {"unwindActions": ["unwindToHome:"]}}"#).status == 200)
        #expect(h.send("PUT", "/v1/storyboards/Defects/customSegues", #"{"FlipSegue": {"performs": "present"}}"#).status == 200)
        let reply = h.send("POST", "/v1/storyboards/Defects/explore", "")
        #expect(reply.status == 200, "\(reply)")
        #expect(!(reply["findings"]?.array ?? []).contains { $0["kind"]?.string == "undeclared" })
    }

    @Test func boundsAndBadInputAreRefusedAndUnknownIs404() throws {
        let h = try ServiceHarness()
        _ = try Self.upload(h)
        expectProblem(h.send("POST", "/v1/storyboards/Defects/explore", #"{"maxStates": 5001}"#), 422, "invalid-body")
        expectProblem(h.send("POST", "/v1/storyboards/Defects/explore", #"{"maxDepth": -1}"#), 422, "invalid-body")
        expectProblem(h.send("POST", "/v1/storyboards/Defects/explore", #"{"idiom": "watch"}"#), 422, "invalid-body")
        expectProblem(h.send("POST", "/v1/storyboards/Defects/explore", #"{"bogus": 1}"#), 422, "invalid-body")
        expectProblem(h.send("POST", "/v1/storyboards/Nope/explore", "{}"), 404, "unknown-storyboard")
        expectProblem(h.send("POST", "/v1/storyboards/Defects/explore", #"{"races": "yes"}"#), 422, "invalid-body")
        let races = h.send("POST", "/v1/storyboards/Defects/explore", #"{"races": true}"#)
        #expect((races["findings"]?.array ?? []).contains { $0["code"]?.string == "D6" })
        let small = h.send("POST", "/v1/storyboards/Defects/explore", #"{"maxStates": 2}"#)
        #expect(small["states"]?.number == 2)
        #expect(small["truncated"]?.bool == true)
        let noEntry = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0"><scenes><scene sceneID="s"><objects>
            <viewController id="a" storyboardIdentifier="A" sceneMemberID="viewController"/></objects></scene></scenes></document>
            """
        #expect(h.send("PUT", "/v1/storyboards/NoEntry", noEntry, contentType: "application/xml").status == 201)
        expectProblem(h.send("POST", "/v1/storyboards/NoEntry/explore", "{}"), 409, "explore-refused")
    }
}

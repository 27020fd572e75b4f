import Foundation
import HTTPServer
import Testing

@testable import NavSimService

/// Input a new user's trial found accepted or answered in the wrong words (task hostile12).
@Suite("Service: hostile input a trial found")
struct HostileInputTests {
    /// R2: a presented controller cannot become a child, and the refusal names `addChild`, not
    /// D5's `present` text (UIKit raises that for `present` only).
    @Test func addChildOfAPresentedControllerNamesAddChild() throws {
        let h = try ServiceHarness()
        h.makeSession("s1")
        h.ok("POST", "/v1/sessions/s1/controllers/home/present", #"{"viewController": {"id": "p"}}"#)
        h.expectUnchanged("s1") {
            let r = h.send("POST", "/v1/sessions/s1/controllers/home/addChild", #"{"viewController": "p"}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "viewController")
            #expect(r["detail"]?.string == "<UIViewController: p> is presented; addChild cannot also make it a child of <HomeViewController: home>. Dismiss it first (a controller is never both presented and a child).", "\(r)")
            #expect(r["uikit"] == nil)
        }
    }
}

import Foundation
import HTTPServer
import JSONValues
import NavigationCore
import Testing

@testable import NavSimService

/// A new version's bytes copy the previous version's pieces of the controllers that cannot have
/// changed (so that a push costs what it changes). Each step below changes one input a piece
/// reads through its parent chain or the window; after each, the cached bytes must equal a full
/// encoding of the state.
@Suite struct IncrementalEncodingTests {
    func live(_ h: ServiceHarness, _ sid: String) throws -> LiveSession {
        try #require(h.service?.sessions.box(sid)?.inMemory { $0 })
    }

    /// The cached representation is the full encoding of the live state.
    func expectFresh(_ h: ServiceHarness, _ sid: String, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let s = try live(h, sid)
        let cached = try #require(s.encoded, "\(step): nothing cached", sourceLocation: sourceLocation)
        #expect(cached.version == s.version, "\(step)", sourceLocation: sourceLocation)
        #expect(
            cached.body == Encode.session(id: sid, version: s.version, createdAt: s.createdAt, state: s.state),
            "\(step): the spliced bytes differ from a full encoding", sourceLocation: sourceLocation)
    }

    @Test func everyInheritedInputReEncodesWhatItReaches() throws {
        let h = try ServiceHarness()
        h.makeSession("s", options: #"{"transitions": "manual"}"#)
        h.send("GET", "/v1/sessions/s")  // fill the cache
        let steps: [(String, String, String)] = [
            ("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "a"}, "animated": true}"#),
            ("POST", "/v1/sessions/s/transitions/complete", "{}"),
            ("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "b"}, "animated": false}"#),
            // Trait overrides on the navigation controller reach every child's traitCollection.
            ("PATCH", "/v1/sessions/s/controllers/nav", #"{"traitOverrides": {"horizontalSizeClass": "regular"}}"#),
            // The window's traits reach everyone.
            ("PATCH", "/v1/sessions/s", #"{"traits": {"verticalSizeClass": "compact"}}"#),
            // A presentation over the navigation controller: its children's presentedViewController.
            (
                "POST", "/v1/sessions/s/controllers/nav/present",
                #"{"viewController": {"id": "m", "kind": "navigationController", "viewControllers": [{"id": "m1"}]}, "animated": false}"#
            ),
            ("POST", "/v1/sessions/s/controllers/m/push", #"{"viewController": {"id": "m2"}, "animated": false}"#),
            ("POST", "/v1/sessions/s/controllers/m2/dismiss", #"{"animated": false}"#),
            // A new root: everything under the old one leaves the window.
            ("POST", "/v1/sessions/s/controllers", #"{"id": "tabs", "kind": "tabBarController", "viewControllers": [{"id": "t1"}, {"id": "t2"}]}"#),
            ("PUT", "/v1/sessions/s/rootViewController", #"{"viewController": "tabs"}"#),
            ("POST", "/v1/sessions/s/controllers/tabs/select", #"{"index": 1}"#),
            ("PATCH", "/v1/sessions/s/controllers/t1", #"{"title": "One"}"#),
        ]
        for (method, path, body) in steps {
            let reply = h.send(method, path, body)
            #expect((200..<300).contains(reply.status), "\(method) \(path): \(reply)")
            try expectFresh(h, "s", "\(method) \(path)")
        }
    }

    /// A push on a 50-deep stack copies the pieces of the controllers it did not touch.
    @Test func aDeepPushReusesTheUntouchedPieces() throws {
        let h = try ServiceHarness()
        let children = (0..<50).map { #"{"id": "c\#($0)"}"# }.joined(separator: ",")
        h.ok(
            "POST", "/v1/sessions", #"{"id": "d", "root": {"id": "nav", "kind": "navigationController", "viewControllers": [\#(children)]}}"#,
            status: 201)
        h.send("GET", "/v1/sessions/d")
        h.ok("POST", "/v1/sessions/d/controllers/nav/push", #"{"viewController": {"id": "top"}, "animated": false}"#)
        let s = try live(h, "d")
        // Changed: nav (its stack), c49 (no longer on screen), top (new); the other 49 are copies.
        #expect(s.encoded?.reusedPieces == 49, "\(String(describing: s.encoded?.reusedPieces))")
        try expectFresh(h, "d", "push")
    }
    /// A PATCH of one controller's title (the write benchmark's request) copies the session's
    /// head but for its version, and every other controller's piece; a push, which changes the
    /// window, encodes the head again. Either way the bytes are those of a full encoding.
    @Test func aTitlePatchCopiesTheHeadAndTheOtherPieces() throws {
        let h = try ServiceHarness()
        let children = (0..<10).map { #"{"id": "c\#($0)", "title": "Screen \#($0)"}"# }.joined(separator: ",")
        h.ok(
            "POST", "/v1/sessions", #"{"id": "p", "root": {"id": "nav", "kind": "navigationController", "viewControllers": [\#(children)]}}"#,
            status: 201)
        h.send("GET", "/v1/sessions/p")
        for i in 0..<3 {
            let reply = h.send("PATCH", "/v1/sessions/p/controllers/c0", #"{"title": "t\#(i)"}"#)
            #expect(reply.status == 200, "\(reply)")
            let s = try live(h, "p")
            #expect(s.encoded?.head?.reused == true)
            #expect(s.encoded?.reusedPieces == 10, "\(String(describing: s.encoded?.reusedPieces))")
            try expectFresh(h, "p", "PATCH \(i)")
            // The reply's session is the cached version's bytes.
            let session = try #require(JSON.parse(reply.body)["session"])
            #expect(session.bytes == s.encoded?.body)
        }
        h.ok("POST", "/v1/sessions/p/controllers/nav/push", #"{"viewController": {"id": "top"}, "animated": false}"#)
        #expect(try live(h, "p").encoded?.head?.reused == false)
        try expectFresh(h, "p", "push")
        h.ok("PATCH", "/v1/sessions/p/controllers/top", #"{"title": "Top"}"#)
        #expect(try live(h, "p").encoded?.head?.reused == true)
        try expectFresh(h, "p", "PATCH top")
    }
}

import Foundation
import NavigationCore
import Testing

@testable import NavSimService

/// A new version copies the bytes of every controller its turn cannot have reached (so
/// that a push deep in a stack costs what one near the root costs). What a changed controller passes
/// down reaches its whole subtree, grandchildren included; after each step the cached bytes
/// must equal a full encoding, and the count of copied pieces says how many were not encoded.
@Suite struct DeepStackEncodingTests {
    func live(_ h: ServiceHarness, _ sid: String) throws -> LiveSession {
        try #require(h.service?.sessions.box(sid)?.inMemory { $0 })
    }

    func expectFresh(_ h: ServiceHarness, _ sid: String, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let s = try live(h, sid)
        let cached = try #require(s.encoded, "\(step): nothing cached", sourceLocation: sourceLocation)
        #expect(
            cached.body == Encode.session(id: sid, version: s.version, createdAt: s.createdAt, state: s.state),
            "\(step): the spliced bytes differ from a full encoding", sourceLocation: sourceLocation)
    }

    @Test func traitOverridesOnAnOuterContainerReEncodeItsGrandchildren() throws {
        let h = try ServiceHarness()
        let children = (0..<20).map { #"{"id": "c\#($0)"}"# }.joined(separator: ",")
        h.ok(
            "POST", "/v1/sessions",
            #"{"id": "g", "root": {"id": "tabs", "kind": "tabBarController", "viewControllers": [{"id": "nav", "kind": "navigationController", "viewControllers": [\#(children)]}, {"id": "x"}]}}"#,
            status: 201)
        h.send("GET", "/v1/sessions/g")
        // Only the tab bar controller changes; every controller below it reads its overrides.
        h.ok("PATCH", "/v1/sessions/g/controllers/tabs", #"{"traitOverrides": {"horizontalSizeClass": "regular"}}"#)
        try expectFresh(h, "g", "trait overrides on the tab bar controller")
        // nav, c0…c19, x and the tab bar's More navigation controller are all below it.
        #expect(try live(h, "g").encoded?.reusedPieces == 0)
        // A title on the navigation controller passes nothing down: its 20 children are copies.
        h.ok("PATCH", "/v1/sessions/g/controllers/nav", #"{"title": "Stack"}"#)
        try expectFresh(h, "g", "title on the navigation controller")
        let s = try live(h, "g")
        #expect(s.encoded?.reusedPieces == s.state.controllers.count - 1, "everything but nav is a copy")
    }

    @Test func pushesAndPopsOnADeepStackStayFresh() throws {
        let h = try ServiceHarness(limits: Limits(navigationStackDepth: 400, specWidth: 400))
        let children = (0..<300).map { #"{"id": "c\#($0)"}"# }.joined(separator: ",")
        h.ok(
            "POST", "/v1/sessions", #"{"id": "d", "root": {"id": "nav", "kind": "navigationController", "viewControllers": [\#(children)]}}"#,
            status: 201)
        h.send("GET", "/v1/sessions/d")
        for i in 0..<3 {
            h.ok("POST", "/v1/sessions/d/controllers/nav/push", #"{"viewController": {"id": "p\#(i)"}, "animated": false}"#)
            try expectFresh(h, "d", "push \(i)")
            h.ok("POST", "/v1/sessions/d/controllers/nav/pop", #"{"animated": false}"#)
            try expectFresh(h, "d", "pop \(i)")
        }
        // The last pop changed nav, p2 (left the stack) and c299 (on screen again).
        let s = try live(h, "d")
        #expect(s.encoded?.reusedPieces == s.state.controllers.count - 3)
        #expect(s.state.viewsInWindow == ["nav", "c299"] || s.state.viewsInWindow == ["c299", "nav"])
    }

    /// With automatic release a pop drops the popped controller, so each version's order is the
    /// last one's plus or minus its last id: the pieces are found by position and the index is
    /// carried over. Every controller's piece must still be found by id, and equal its encoding.
    @Test func pushPopPairsThatReleaseOnADeepStackKeepEveryPieceFindable() throws {
        let h = try ServiceHarness(limits: Limits(navigationStackDepth: 400, specWidth: 400))
        let children = (0..<300).map { #"{"id": "c\#($0)"}"# }.joined(separator: ",")
        h.ok(
            "POST", "/v1/sessions",
            #"{"id": "a", "options": {"iOS": "17", "release": "automatic"}, "root": {"id": "nav", "kind": "navigationController", "viewControllers": [\#(children)]}}"#,
            status: 201)
        h.send("GET", "/v1/sessions/a")
        for i in 0..<3 {
            h.ok("POST", "/v1/sessions/a/controllers/nav/push", #"{"viewController": {"id": "p\#(i)"}, "animated": false}"#)
            try expectFresh(h, "a", "push \(i)")
            #expect(h.send("GET", "/v1/sessions/a/controllers/p\(i)").status == 200)
            h.ok("POST", "/v1/sessions/a/controllers/nav/pop", #"{"animated": false}"#)
            try expectFresh(h, "a", "pop \(i)")
            #expect(h.send("GET", "/v1/sessions/a/controllers/p\(i)").status == 404, "released by the pop")
        }
        let s = try live(h, "a")
        let encoded = try #require(s.encoded)
        #expect(encoded.order == s.state.order)
        #expect(encoded.index.count == s.state.controllers.count)
        for id in s.state.order {
            let c = try #require(s.state.controllers[id])
            #expect(encoded.piece(id).map(Array.init) == Encode.controller(c, in: s.state), "piece \(id)")
        }
    }

    /// The stack-depth limit still holds when only the changed controllers are checked.
    @Test func aPushPastTheStackLimitOnADeepStackIsRefused() throws {
        let h = try ServiceHarness(limits: Limits(navigationStackDepth: 300, specWidth: 400))
        let children = (0..<300).map { #"{"id": "c\#($0)"}"# }.joined(separator: ",")
        h.ok(
            "POST", "/v1/sessions", #"{"id": "d", "root": {"id": "nav", "kind": "navigationController", "viewControllers": [\#(children)]}}"#,
            status: 201)
        let before = h.snapshot("d")
        let reply = h.send("POST", "/v1/sessions/d/controllers/nav/push", #"{"viewController": {"id": "one-more"}, "animated": false}"#)
        #expect(reply.status == 422)
        #expect(reply.text.contains("navigationStackDepth"), "\(reply.text)")
        #expect(h.snapshot("d") == before, "a refused request changes nothing")
    }
}

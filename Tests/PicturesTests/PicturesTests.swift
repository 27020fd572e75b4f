import Pictures
import Testing

// The Pictures target on its own: no service, no HTTP. Its input is any reply that reads like
// JSON (``PictureReply``); here a small value built in the test.

/// A JSON value with ordered members, as the pictures read one.
private indirect enum Reply: PictureReply, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([Reply])
    case object([(String, Reply)])
    case null

    init(stringLiteral value: String) { self = .string(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }

    subscript(key: String) -> Reply? {
        if case .object(let members) = self { return members.first { $0.0 == key }?.1 }
        return nil
    }
    var string: String? { if case .string(let s) = self { return s }; return nil }
    var number: Double? { if case .number(let n) = self { return n }; return nil }
    var bool: Bool? { if case .bool(let b) = self { return b }; return nil }
    var array: [Reply]? { if case .array(let a) = self { return a }; return nil }
    var object: [(String, Reply)]? { if case .object(let o) = self { return o }; return nil }
}

@Suite("Pictures target")
struct PicturesTargetTests {
    /// A navigation controller with a pushed controller that presents a sheet: the tree, the
    /// presentation under its presenter, the views in the window and a transition under way.
    @Test func aSessionReplyDrawsAsTextAndDOT() {
        let session: Reply = .object([
            ("id", "s"), ("version", .number(3)),
            (
                "window",
                .object([
                    ("rootViewController", "nav"), ("visibleViewController", "sheet"),
                    ("viewsInWindow", .array(["nav", "top", "sheet"])),
                ])
            ),
            (
                "controllers",
                .object([
                    (
                        "nav",
                        .object([
                            ("class", "UINavigationController"), ("kind", "navigationController"),
                            ("children", .array(["top"])), ("topViewController", "top"), ("isViewLoaded", true),
                            ("appearance", "appeared"),
                        ])
                    ),
                    (
                        "top",
                        .object([
                            ("class", "InboxViewController"), ("parent", "nav"), ("presentedViewController", "sheet"),
                            ("isViewLoaded", true), ("appearance", "appeared"),
                        ])
                    ),
                    (
                        "sheet",
                        .object([
                            ("class", "ComposeViewController"), ("presentingViewController", "top"),
                            ("modalPresentationStyle", "pageSheet"), ("isViewLoaded", true), ("appearance", "appearing"),
                        ])
                    ),
                ])
            ),
        ])
        let transitions: Reply = .array([
            .object([
                ("id", "t1"), ("operation", "present"), ("fromViewController", "top"), ("toViewController", "sheet"),
                ("presentationStyle", "pageSheet"), ("animated", true), ("state", "inProgress"),
            ]),
            .object([("id", "t0"), ("operation", "push"), ("state", "completed")]),
        ])
        let picture = SessionPicture(session: session, transitions: transitions)
        #expect(
            picture.text == """
                UIWindow
                └─ nav  UINavigationController
                   └─ top  InboxViewController  ◀ top
                      presents ▸ sheet  ComposeViewController  pageSheet  ◀ visible  [appearing]

                views in window: nav, top, sheet
                transition: t1 present  top → sheet  pageSheet  animated  inProgress

                """)
        let dot = picture.dot
        #expect(dot.hasPrefix("digraph session {"))
        #expect(dot.contains(#""top" -> "sheet" [label="presents · pageSheet", style=dashed"#))
        #expect(dot.hasSuffix("}\n"))
    }

    /// A storyboard reference into another file links to that storyboard's own picture, its name
    /// percent-encoded as one path segment.
    @Test func aReferenceLinksToTheOtherStoryboardsPicture() {
        let reply: Reply = .object([
            ("name", "Main"), ("initialViewController", "a"),
            (
                "scenes",
                .array([
                    .object([
                        ("id", "a"), ("class", "UIViewController"),
                        ("segues", .array([.object([("id", "s1"), ("kind", "show"), ("destination", "r")])])),
                    ]),
                    .object([
                        ("id", "r"), ("class", "UIViewController"), ("segues", .array([])),
                        ("storyboardReference", .object([("storyboardName", "Set tings#2")])),
                    ]),
                ])
            ),
            ("diagnostics", .array([])),
        ])
        let dot = StoryboardPicture.dot(reply)
        #expect(dot.contains(#"URL="/v1/storyboards/Set%20tings%232""#), "\(dot)")
        #expect(dot.contains(#""a" -> "r" [label="show""#))
        #expect(StoryboardPicture.text(reply).hasPrefix("storyboard Main\n├─ a  UIViewController  ◀ initial\n"))
    }

    /// Negotiation is the Pictures target's own decision: highest weight wins, SVG only with Graphviz.
    @Test func negotiationNeedsNoServer() {
        #expect(Representation.negotiate("text/plain;q=0.5, text/vnd.graphviz", svgAvailable: true) == .send(.dot))
        #expect(Representation.negotiate("image/svg+xml", svgAvailable: false) == .needsGraphviz)
        #expect(Representation.negotiate("image/png", svgAvailable: true) == .notAcceptable)
        #expect(Representation.svg.entityTag(4) == "\"4-svg\"")
    }
}

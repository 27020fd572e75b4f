import Foundation
import HTTPServer
import Testing
import TestSupport

@testable import NavSimService
import SQLiteStore

// `/v1/storyboards/…` and storyboard-backed ControllerSpecs and segues, driven through
// `NavSimService.handle` in-process (docs/api.md "Storyboards"; R96–R102, D18–D20, D24).

// MARK: - Harness

/// The repository root, found from this file (`<repo>/Tests/NavSimServiceTests/…`).
private let repositoryRoot = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A service on a database in a fresh temporary directory (removed when the harness goes away,
/// unless another harness reopens the same directory: see ``reopened()``).
private final class Harness {
    let directory: String
    let service: NavSimService
    private let ownsDirectory: Bool

    init(directory: String? = nil) throws {
        let dir = directory ?? (NSTemporaryDirectory() as NSString).appendingPathComponent("StoryboardRoutesTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        self.directory = dir
        ownsDirectory = directory == nil
        service = try NavSimService(store: SessionStore(path: (dir as NSString).appendingPathComponent("navsim.sqlite"),
                                                       migrationsDirectory: repositoryRoot.appendingPathComponent("migrations").path),
                                    openAPI: [])
    }

    /// A second service on the same database, as after a restart.
    func reopened() throws -> Harness { try Harness(directory: directory) }

    deinit { if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) } }

    func send(_ method: String, _ target: String, body: [UInt8] = [], contentType: String? = nil) -> Reply {
        var headers = HTTPHeaders()
        if let contentType { headers.add("Content-Type", contentType) }
        let parts = target.split(separator: "?", maxSplits: 1).map(String.init)
        var query: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                query[kv[0]] = kv.count == 2 ? kv[1] : ""
            }
        }
        let response = service.handle(HTTPRequest(method: method, path: parts[0], query: query, headers: headers, body: body))
        return Reply(status: response.status, headers: response.headers,
                     json: response.body.isEmpty ? .null : (try? JSON.parse(response.body)) ?? .null)
    }

    func send(_ method: String, _ target: String, json: JSON) -> Reply {
        send(method, target, body: json.bytes, contentType: "application/json")
    }

    /// `json` is JSON text.
    func send(_ method: String, _ target: String, _ json: String) -> Reply {
        send(method, target, body: Array(json.utf8), contentType: "application/json")
    }

    func upload(_ name: String, _ xml: String, contentType: String = "application/xml") -> Reply {
        send("PUT", "/v1/storyboards/\(name)", body: Array(xml.utf8), contentType: contentType)
    }

    func upload(_ name: String, data: [UInt8]) -> Reply {
        send("PUT", "/v1/storyboards/\(name)", body: data, contentType: "application/xml")
    }

    /// `POST /v1/sessions` with `root` (and `traits`), transitions immediate.
    func session(root: JSON, traits: JSON? = nil) -> Reply {
        var members: [(String, JSON)] = [("options", .object([("transitions", .string("immediate"))])), ("root", root)]
        if let traits { members.append(("traits", traits)) }
        return send("POST", "/v1/sessions", json: .object(members))
    }
}

private struct Reply {
    var status: Int
    var headers: HTTPHeaders
    var json: JSON

    subscript(_ keys: Key...) -> JSON? { json.at(keys) }
    func string(_ keys: Key...) -> String? { json.at(keys)?.string }
    var slug: String? { json["type"]?.string.map { String($0.dropFirst("/v1/problems/".count)) } }
    var code: String? { json["uikit"]?["code"]?.string }
    var detail: String { json["detail"]?.string ?? "" }
}

/// A path step into a JSON value: a member name or an array index.
private enum Key: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case name(String)
    case index(Int)
    init(stringLiteral value: String) { self = .name(value) }
    init(integerLiteral value: Int) { self = .index(value) }
}

extension JSON {
    fileprivate func at(_ keys: [Key]) -> JSON? {
        var current: JSON? = self
        for key in keys {
            switch key {
            case let .name(n): current = current?[n]
            case let .index(i):
                guard let a = current?.array, a.indices.contains(i) else { return nil }
                current = a[i]
            }
        }
        return current
    }
    fileprivate var strings: [String] { array?.compactMap(\.string) ?? [] }
}

/// A JSON member that is absent or null.
private func isAbsent(_ value: JSON?) -> Bool { (value ?? .null) == .null }

// MARK: - Storyboard XML builders (shaped like Xcode's output)

private enum SB {
    static func document(initial: String? = nil, type: String = StoryboardXML.iOSType, _ scenes: String...) -> String {
        StoryboardXML.document(initial: initial, type: type, scenes: scenes)
    }

    static func scene(_ id: String, _ objects: String) -> String {
        """
                <scene sceneID="\(id)-scene">
                    <objects>
        \(objects)
                        <placeholder placeholderIdentifier="IBFirstResponder" id="\(id)-fr" sceneMemberID="firstResponder"/>
                    </objects>
                </scene>
        """
    }

    static func segue(_ id: String, to destination: String, kind: String, identifier: String? = nil,
                      attributes: String = "") -> String {
        let ident = identifier.map { " identifier=\"\($0)\"" } ?? ""
        return "<segue destination=\"\(destination)\" kind=\"\(kind)\"\(ident) id=\"\(id)\" \(attributes)/>"
    }

    static func relationship(_ id: String, to destination: String, _ name: String) -> String {
        "<segue destination=\"\(destination)\" kind=\"relationship\" relationship=\"\(name)\" id=\"\(id)\"/>"
    }

    /// A leaf controller: `manual` segues on the controller, `button` segues on a button in its
    /// view, `embeds` in container views; `exit` adds the scene's exit object.
    static func controller(_ id: String, element: String = "viewController", storyboardID: String? = nil,
                           customClass: String? = nil, title: String? = nil, attributes: String = "",
                           manual: [String] = [], button: [String] = [], embeds: [String] = [], exit: Bool = false) -> String {
        var attrs = ""
        if let storyboardID { attrs += " storyboardIdentifier=\"\(storyboardID)\"" }
        if let customClass { attrs += " customClass=\"\(customClass)\" customModule=\"App\"" }
        if let title { attrs += " title=\"\(title)\"" }
        var subviews = ""
        if !button.isEmpty {
            subviews += "<button opaque=\"NO\" id=\"\(id)-btn\"><connections>\(button.joined())</connections></button>"
        }
        for (n, embed) in embeds.enumerated() {
            subviews += "<containerView opaque=\"NO\" id=\"\(id)-cv\(n)\"><connections>\(embed)</connections></containerView>"
        }
        let view = "<view key=\"view\" contentMode=\"scaleToFill\" id=\"\(id)-view\">"
            + (subviews.isEmpty ? "" : "<subviews>\(subviews)</subviews>") + "</view>"
        let connections = manual.isEmpty ? "" : "<connections>\(manual.joined())</connections>"
        let exitObject = exit ? "<exit id=\"\(id)-exit\" userLabel=\"Exit\" sceneMemberID=\"exit\"/>" : ""
        return scene(id, """
            <\(element) id="\(id)"\(attrs) \(attributes) sceneMemberID="viewController">\(view)\(connections)</\(element)>
            \(exitObject)
            """)
    }

    static func container(_ id: String, element: String, storyboardID: String? = nil, attributes: String = "",
                          relationships: [String]) -> String {
        let sid = storyboardID.map { " storyboardIdentifier=\"\($0)\"" } ?? ""
        return scene(id, """
            <\(element) id="\(id)"\(sid) \(attributes) sceneMemberID="viewController">\
            <connections>\(relationships.joined())</connections></\(element)>
            """)
    }

    static func navigation(_ id: String, root: String?, storyboardID: String? = nil) -> String {
        container(id, element: "navigationController", storyboardID: storyboardID,
                  relationships: root.map { [relationship("\(id)-root", to: $0, "rootViewController")] } ?? [])
    }

    static func placeholder(_ id: String, storyboardName: String, referencedIdentifier: String? = nil) -> String {
        let ref = referencedIdentifier.map { " referencedIdentifier=\"\($0)\"" } ?? ""
        return scene(id, "<viewControllerPlaceholder storyboardName=\"\(storyboardName)\"\(ref) id=\"\(id)\" sceneMemberID=\"viewController\"/>")
    }
}

/// The storyboard most tests use: A (Storyboard ID "A", initial) with a show "toB", a modal
/// "present" (formSheet, crossDissolve), a legacy push "legacyB" and a custom "customB"; B (ID "B")
/// with a manual unwind "back" to `unwindToA:`; and N, a navigation controller (ID "Nav") whose
/// root is A.
private let mainXML = SB.document(
    initial: "a-vc",
    SB.controller("a-vc", storyboardID: "A", customClass: "AViewController", title: "A",
                  manual: [
                    SB.segue("s-show", to: "b-vc", kind: "show", identifier: "toB"),
                    SB.segue("s-push", to: "b-vc", kind: "push", identifier: "legacyB"),
                    SB.segue("s-custom", to: "b-vc", kind: "custom", identifier: "customB",
                             attributes: "customClass=\"FancySegue\" customModule=\"App\""),
                  ],
                  button: [SB.segue("s-present", to: "b-vc", kind: "presentation", identifier: "present",
                                    attributes: "modalPresentationStyle=\"overFullScreen\" modalTransitionStyle=\"crossDissolve\"")]),
    SB.controller("b-vc", storyboardID: "B", customClass: "BViewController", title: "B",
                  manual: [SB.segue("s-back", to: "b-vc-exit", kind: "unwind", identifier: "back",
                                    attributes: "unwindAction=\"unwindToA:\"")],
                  exit: true),
    SB.navigation("n-nav", root: "a-vc", storyboardID: "Nav"))

// MARK: - Routes

@Suite struct StoryboardRoutesTests {
    @Test func uploadReplaceListGetDelete() throws {
        let h = try Harness()
        let created = h.upload("Main", mainXML)
        #expect(created.status == 201)
        #expect(created.headers["Location"] == "/v1/storyboards/Main")
        #expect(created.string("name") == "Main")
        #expect(created.string("initialViewController") == "a-vc")
        #expect(created["scenes"]?.array?.count == 3)
        #expect(created.string("scenes", 0, "id") == "a-vc")
        #expect(created.string("scenes", 0, "kind") == "viewController")
        #expect(created.string("scenes", 0, "class") == "AViewController")
        #expect(created.string("scenes", 0, "storyboardIdentifier") == "A")
        #expect(created.string("scenes", 0, "title") == "A")
        let segues = created["scenes", 0, "segues"]?.array ?? []
        // Document order: the button in the view comes before the controller's own connections.
        #expect(segues.map { $0["identifier"]?.string } == ["present", "toB", "legacyB", "customB"])
        #expect(segues.map { $0["kind"]?.string } == ["presentation", "show", "push", "custom"])
        #expect(segues.first?["destination"]?.string == "b-vc")
        #expect(segues.first?["modalPresentationStyle"]?.string == "overFullScreen")
        #expect(segues.last?["customClass"]?.string == "FancySegue")
        #expect(created.string("scenes", 2, "kind") == "navigationController")
        #expect(created.string("scenes", 2, "segues", 0, "relationship") == "rootViewController")
        // The undeclared custom segue class is announced.
        let diagnostics = created["diagnostics"]?.array ?? []
        #expect(diagnostics.contains { $0["code"]?.string == "undeclared-custom-segue" && $0["element"]?.string == "s-custom"
                && $0["severity"]?.string == "warning" })

        let replaced = h.upload("Main", mainXML, contentType: "text/xml; charset=utf-8")
        #expect(replaced.status == 200)
        #expect(replaced.headers["Location"] == nil)

        #expect(h.upload("Other", SB.document(SB.controller("x-vc", storyboardID: "X"))).status == 201)
        let list = h.send("GET", "/v1/storyboards")
        #expect(list.status == 200)
        #expect(list["storyboards"]?.array?.compactMap { $0["name"]?.string } == ["Main", "Other"])
        #expect(list["storyboards", 0, "scenes"]?.number == 3)
        #expect(list["storyboards", 0, "diagnostics"]?.number == Double(diagnostics.count))
        #expect(list["storyboards", 1, "initialViewController"] == .null)

        let got = h.send("GET", "/v1/storyboards/Main")
        #expect(got.status == 200)
        #expect(got.json == replaced.json)

        #expect(h.send("DELETE", "/v1/storyboards/Other").status == 204)
        let gone = h.send("GET", "/v1/storyboards/Other")
        #expect(gone.status == 404)
        #expect(gone.slug == "unknown-storyboard")
        #expect(gone.headers["Content-Type"] == "application/problem+json")
        #expect(h.send("DELETE", "/v1/storyboards/Other").status == 404)
        #expect(h.send("GET", "/v1/storyboards")["storyboards"]?.array?.count == 1)

        // Names are file names: spaces are fine (the request path arrives percent-decoded).
        let spaced = h.upload("Known Types", SB.document(SB.controller("k")))
        #expect(spaced.status == 201)
        #expect(spaced.headers["Location"] == "/v1/storyboards/Known%20Types")
        #expect(h.send("GET", "/v1/storyboards/Known Types").string("name") == "Known Types")
    }

    @Test func refusedUploads() throws {
        let h = try Harness()
        let wrongType = h.upload("Main", mainXML, contentType: "application/json")
        #expect(wrongType.status == 415)
        #expect(wrongType.slug == "unsupported-media-type")
        #expect(h.send("PUT", "/v1/storyboards/Main", body: Array(mainXML.utf8)).status == 415)

        let malformed = h.upload("Main", String(mainXML.dropLast(40)))
        #expect(malformed.status == 400)
        #expect(malformed.slug == "invalid-body")
        #expect(malformed.detail.contains("line"))
        #expect(malformed.detail.contains("column"))
        #expect(h.upload("Main", "").status == 400)

        let mac = h.upload("Main", SB.document(type: "com.apple.InterfaceBuilder3.Cocoa.Storyboard.XIB", SB.controller("a")))
        #expect(mac.status == 422)
        #expect(mac.slug == "unsupported-document-type")
        #expect(h.upload("Main", "<?xml version=\"1.0\"?><plist/>").slug == "unsupported-document-type")

        // Nothing of the refused uploads was kept.
        #expect(h.send("GET", "/v1/storyboards/Main").status == 404)
        #expect(h.send("GET", "/v1/storyboards")["storyboards"]?.array?.isEmpty == true)
    }

    @Test func methodsAndPaths() throws {
        let h = try Harness()
        let post = h.send("POST", "/v1/storyboards", "{}")
        #expect(post.status == 405)
        #expect(post.headers["Allow"] == "GET, HEAD")
        let patch = h.send("PATCH", "/v1/storyboards/Main", "{}")
        #expect(patch.status == 405)
        #expect(patch.headers["Allow"] == "GET, HEAD, PUT, DELETE")
        let getCustom = h.send("GET", "/v1/storyboards/Main/customSegues")
        #expect(getCustom.status == 405)
        #expect(getCustom.headers["Allow"] == "PUT")
        #expect(h.send("GET", "/v1/storyboards/Main/other").status == 404)
        #expect(h.send("PUT", "/v1/storyboards/Main/customSegues", "{}").slug == "unknown-storyboard")
    }

    @Test func customSegueDeclarations() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let unknownField = h.send("PUT", "/v1/storyboards/Main/customSegues", #"{"FancySegue": {"performs": "push", "speed": 2}}"#)
        #expect(unknownField.status == 422)
        #expect(unknownField.json["field"]?.string == "FancySegue.speed")
        #expect(h.send("PUT", "/v1/storyboards/Main/customSegues", #"{"FancySegue": {"performs": "teleport"}}"#).status == 422)
        #expect(h.send("PUT", "/v1/storyboards/Main/customSegues", #"{"FancySegue": {}}"#).status == 422)
        #expect(h.send("PUT", "/v1/storyboards/Main/customSegues", #"{"FancySegue": {"performs": "push"}"#).status == 400)
        #expect(h.send("PUT", "/v1/storyboards/Main/customSegues", body: Array("{}".utf8), contentType: "text/plain").status == 415)

        let declared = h.send("PUT", "/v1/storyboards/Main/customSegues", """
            {"FancySegue": {"performs": "present", "modalPresentationStyle": "overFullScreen",
             "transitioningDelegate": {"name": "FadeAnimator", "duration": 0.5}}}
            """)
        #expect(declared.status == 200)
        #expect(declared.string("name") == "Main")
        #expect(declared["diagnostics"]?.array?.contains { $0["code"]?.string == "undeclared-custom-segue" } == false)
        #expect(declared.string("customSegues", "FancySegue", "performs") == "present")

        // The declaration drives the segue: present with the declared style and animator.
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("A"))]))
        let sid = try #require(s.string("id"))
        let r = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "customB"}"#)
        #expect(r.status == 200)
        #expect(r.string("session", "controllers", "A", "presentedViewController") == "B")
        #expect(r.string("session", "controllers", "B", "modalPresentationStyle") == "overFullScreen")
        #expect(r.string("transition", "animator") == "FadeAnimator")

        // Declaring push instead: the same segue pushes inside a navigation controller.
        #expect(h.send("PUT", "/v1/storyboards/Main/customSegues", #"{"FancySegue": {"performs": "push"}}"#).status == 200)
        let n = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))]))
        let nid = try #require(n.string("id"))
        let pushed = h.send("POST", "/v1/sessions/\(nid)/controllers/A/performSegue", #"{"identifier": "customB"}"#)
        #expect(pushed.status == 200)
        #expect(pushed["session", "controllers", "Nav", "viewControllers"]?.strings == ["A", "B"])

        // An empty declaration set brings the warning back.
        let cleared = h.send("PUT", "/v1/storyboards/Main/customSegues", "{}")
        #expect(cleared["diagnostics"]?.array?.contains { $0["code"]?.string == "undeclared-custom-segue" } == true)
    }

    @Test func unresolvedReferenceClearsOnceTheTargetIsUploaded() throws {
        let h = try Harness()
        let main = SB.document(initial: "n-nav", SB.navigation("n-nav", root: "ref"), SB.placeholder("ref", storyboardName: "Second"))
        let first = h.upload("Main", main)
        #expect(first["diagnostics"]?.array?.contains { $0["code"]?.string == "unresolved-reference" && $0["element"]?.string == "ref" } == true)
        // Until Second exists, instantiating Main is D20 (UIKit cannot find the storyboard).
        let early = h.session(root: .object([("storyboard", .string("Main"))]))
        #expect(early.status == 409)
        #expect(early.code == "D20")
        #expect(early.detail.contains("Could not find a storyboard named 'Second'"))

        #expect(h.upload("Second", SB.document(initial: "s-vc", SB.controller("s-vc", customClass: "SecondViewController"))).status == 201)
        let later = h.send("GET", "/v1/storyboards/Main")
        #expect(later["diagnostics"]?.array?.contains { $0["code"]?.string == "unresolved-reference" } == false)
        // The reference scene reports what it resolves to.
        #expect(later.string("scenes", 1, "kind") == "viewController")
        #expect(later.string("scenes", 1, "class") == "SecondViewController")
        #expect(later.string("scenes", 1, "storyboardReference", "storyboardName") == "Second")

        let s = h.session(root: .object([("storyboard", .string("Main"))]))
        #expect(s.status == 201)
        #expect(s["controllers", "n-nav", "viewControllers"]?.strings == ["s-vc"])
        #expect(s.string("controllers", "s-vc", "storyboard", "name") == "Second")
        #expect(s.string("controllers", "s-vc", "class") == "SecondViewController")

        // Deleting the target brings the warning back (computed on read).
        #expect(h.send("DELETE", "/v1/storyboards/Second").status == 204)
        #expect(h.send("GET", "/v1/storyboards")["storyboards", 0, "diagnostics"]?.number == 1)
    }

    @Test func storyboardsSurviveARestart() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        #expect(h.send("PUT", "/v1/storyboards/Main/customSegues", #"{"FancySegue": {"performs": "none"}}"#).status == 200)
        #expect(h.upload("Gone", SB.document(SB.controller("g"))).status == 201)
        #expect(h.send("DELETE", "/v1/storyboards/Gone").status == 204)
        let before = h.send("GET", "/v1/storyboards/Main")

        let restarted = try h.reopened()
        let after = restarted.send("GET", "/v1/storyboards/Main")
        #expect(after.status == 200)
        #expect(after.json == before.json)
        #expect(restarted.send("GET", "/v1/storyboards/Gone").status == 404)
        let s = restarted.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("A"))]))
        let sid = try #require(s.string("id"))
        // The declared "none" survives too: the custom segue prepares and does nothing else.
        let r = restarted.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "customB"}"#)
        #expect(r.status == 200)
        #expect(r.string("events", 0, "callback") == "prepareForSegue")
        #expect(isAbsent(r["session", "controllers", "A", "presentedViewController"]))

        // Replacing the XML keeps the declarations.
        #expect(restarted.upload("Main", mainXML).status == 200)
        #expect(restarted.send("GET", "/v1/storyboards/Main").string("customSegues", "FancySegue", "performs") == "none")
    }
}

// MARK: - Instantiation (R101, R102)

@Suite struct StoryboardInstantiationTests {
    @Test func unknownStoryboardAndIdentifier() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let s = h.session(root: .object([("id", .string("root")), ("class", .string("RootViewController"))]))
        let sid = try #require(s.string("id"))

        let d20 = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Nope"}"#)
        #expect(d20.status == 409)
        #expect(d20.code == "D20")
        #expect(d20.slug == "unknown-storyboard")
        #expect(d20.detail.contains("Could not find a storyboard named 'Nope'"))

        let d19 = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Main", "identifier": "missing"}"#)
        #expect(d19.status == 409)
        #expect(d19.code == "D19")
        #expect(d19.slug == "unknown-storyboard-identifier")
        #expect(d19.detail.contains("doesn't contain a view controller with identifier 'missing'"))

        let empty = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Main", "identifier": ""}"#)
        #expect(empty.status == 409)
        #expect(empty.json["uikit"]?["name"]?.string == "NSInternalInconsistencyException")

        // A root that cannot be instantiated creates no session.
        let noSession = h.send("POST", "/v1/sessions", #"{"id": "never", "root": {"storyboard": "Nope"}}"#)
        #expect(noSession.code == "D20")
        #expect(h.send("GET", "/v1/sessions/never").status == 404)
        // Refusals add no history.
        #expect(h.send("GET", "/v1/sessions/\(sid)").json["version"]?.number == 0)
    }

    @Test func noEntryPointIsNil() throws {
        let h = try Harness()
        #expect(h.upload("Loose", SB.document(SB.controller("x-vc", storyboardID: "X"))).status == 201)
        let s = h.session(root: .object([("id", .string("root")), ("class", .string("RootViewController"))]))
        let sid = try #require(s.string("id"))
        let nilPresent = h.send("POST", "/v1/sessions/\(sid)/controllers/root/present", #"{"viewController": {"storyboard": "Loose"}}"#)
        #expect(nilPresent.code == "D1")
        let x = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Loose", "identifier": "X"}"#)
        #expect(x.status == 201)
        #expect(x.string("id") == "X")
        #expect(x.json["isViewLoaded"]?.bool == false)
        // A session whose root is a storyboard without an entry point has no root.
        let empty = h.session(root: .object([("storyboard", .string("Loose"))]))
        #expect(empty.status == 201)
        #expect(isAbsent(empty["window", "rootViewController"]))
    }

    @Test func idsAreStoryboardIDsThenElementIDsWithSuffixes() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))]))
        #expect(s.status == 201)
        #expect(s.string("window", "rootViewController") == "Nav")
        #expect(s["controllers", "Nav", "viewControllers"]?.strings == ["A"])
        #expect(s.string("controllers", "A", "class") == "AViewController")
        #expect(s.string("controllers", "A", "title") == "A")
        #expect(s.string("controllers", "A", "storyboard", "name") == "Main")
        #expect(s.string("controllers", "A", "storyboard", "identifier") == "A")
        let sid = try #require(s.string("id"))
        let a2 = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Main", "identifier": "A"}"#)
        #expect(a2.string("id") == "A~2")
        // `~` is unreserved in a URL: the Location carries the id as it is.
        #expect(a2.headers["location"] == "/v1/sessions/\(sid)/controllers/A~2")
        let a3 = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Main"}"#)
        #expect(a3.string("id") == "A~3")
        // The spec's own id wins, and is not suffixed.
        let own = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"id": "mine", "storyboard": "Main", "identifier": "B", "title": "Mine"}"#)
        #expect(own.string("id") == "mine")
        #expect(own.string("title") == "Mine")
        #expect(own.string("storyboard", "identifier") == "B")
        #expect(h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"id": "mine", "storyboard": "Main"}"#).status == 409)
        // A scene's kind cannot be changed by the spec.
        #expect(h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Main", "kind": "tabBarController"}"#).status == 422)
        // Segue destinations are fresh instances, suffixed the same way (R102).
        let shown = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toB"}"#)
        #expect(shown.string("events", 0, "segue", "destination") == "B")
        let again = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toB"}"#)
        #expect(again.string("events", 0, "segue", "destination") == "B~2")
        #expect(again["session", "controllers", "Nav", "viewControllers"]?.strings == ["A", "B", "B~2"])
        let b3 = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Main", "identifier": "B"}"#)
        #expect(b3.string("id") == "B~3")
    }

    /// A segue performed inside a turn reaches its storyboard scene as a single operation does
    /// (R96): before, the turn route never looked the destination up and answered 422 in place.
    @Test func segueInsideATurnFindsItsScene() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))]))
        let sid = try #require(s.string("id"))
        let turn = h.send("POST", "/v1/sessions/\(sid)/turns",
                          #"{"operations": [{"controller": "A", "operation": "performSegue", "identifier": "toB"}]}"#)
        #expect(turn.status == 200, "\(turn.json)")
        #expect(turn.string("results", 0, "events", 0, "segue", "destination") == "B", "\(turn.json)")
        #expect(turn["session", "controllers", "Nav", "viewControllers"]?.strings == ["A", "B"])
    }

    @Test func containersInstantiateTheirChildren() throws {
        let h = try Harness()
        let xml = SB.document(
            initial: "tab",
            SB.container("tab", element: "tabBarController", relationships: [
                SB.relationship("t1", to: "nav1", "viewControllers"),
                SB.relationship("t2", to: "split", "viewControllers"),
                SB.relationship("t3", to: "page", "viewControllers"),
            ]),
            SB.navigation("nav1", root: "home"),
            SB.controller("home", storyboardID: "Home", embeds: [
                SB.segue("e1", to: "child", kind: "embed"), SB.segue("e2", to: "child", kind: "embed"),
            ]),
            SB.controller("child", customClass: "ChildViewController"),
            // Relationships listed out of order: resolved by name (storyboard-format.md §5).
            SB.container("split", element: "splitViewController", attributes: "allowDoubleColumnStyle=\"YES\"", relationships: [
                SB.relationship("sp-d", to: "detail", "detailViewController"),
                SB.relationship("sp-s", to: "middle", "supplementaryViewController"),
                SB.relationship("sp-m", to: "master", "masterViewController"),
            ]),
            SB.controller("master"), SB.controller("middle"), SB.controller("detail", element: "tableViewController"),
            SB.scene("page", """
                <pageViewController id="page" transitionStyle="pageCurl" navigationOrientation="horizontal" \
                spineLocation="mid" sceneMemberID="viewController"/>
                """))
        let up = h.upload("Main", xml)
        #expect(up.status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main"))]), traits: .object([("userInterfaceIdiom", .string("pad"))]))
        #expect(s.status == 201)
        let controllers = try #require(s["controllers"])
        #expect(controllers["tab"]?["viewControllers"]?.strings == ["nav1", "split", "page"])
        #expect(controllers["tab"]?["kind"]?.string == "tabBarController")
        #expect(controllers["nav1"]?["viewControllers"]?.strings == ["Home"])
        // Two container views embedding the same scene: two instances, views inserted.
        #expect(controllers["Home"]?["children"]?.strings == ["child", "child~2"])
        #expect(controllers["child~2"]?["parent"]?.string == "Home")
        #expect(controllers["child"]?["class"]?.string == "ChildViewController")
        #expect(controllers["split"]?["primary"]?.string == "master")
        #expect(controllers["split"]?["supplementary"]?.string == "middle")
        #expect(controllers["split"]?["secondary"]?.string == "detail")
        #expect(controllers["split"]?["style"]?.string == "tripleColumn")
        #expect(controllers["detail"]?["kind"]?.string == "tableViewController")
        #expect(controllers["page"]?["kind"]?.string == "pageViewController")
    }

    @Test func relationshipCyclesStopAtTheDepthLimit() throws {
        let h = try Harness()
        let xml = SB.document(
            initial: "n1",
            SB.navigation("n1", root: "t1"),
            SB.container("t1", element: "tabBarController", relationships: [SB.relationship("r", to: "n1", "viewControllers")]))
        let up = h.upload("Loop", xml)
        #expect(up.status == 201)
        #expect(up["diagnostics"]?.array?.contains { $0["code"]?.string == "relationship-cycle" } == true)
        let s = h.session(root: .object([("storyboard", .string("Loop"))]))
        #expect(s.status == 409)
        #expect(s.slug == "relationship-cycle")
    }
}

// MARK: - Segues (R96–R100, D18, D24)

@Suite struct StoryboardSegueTests {
    /// A session whose root is the navigation controller "Nav" with A at its root.
    private func navSession(_ h: Harness) throws -> String {
        #expect(h.upload("Main", mainXML).status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))]))
        return try #require(s.string("id"))
    }

    @Test func showInsideANavigationControllerPushes() throws {
        let h = try Harness()
        let sid = try navSession(h)
        let r = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toB"}"#)
        #expect(r.status == 200)
        #expect(r.string("events", 0, "controller") == "A")
        #expect(r.string("events", 0, "callback") == "prepareForSegue")
        #expect(r.string("events", 0, "segue", "identifier") == "toB")
        #expect(r.string("events", 0, "segue", "destination") == "B")
        #expect(r["events"]?.array?.contains { $0["callback"]?.string == "shouldPerformSegue" } == false)
        #expect(r["session", "controllers", "Nav", "viewControllers"]?.strings == ["A", "B"])
        #expect(r.string("session", "controllers", "B", "storyboard", "identifier") == "B")
        #expect(r.string("transition", "operation") == "push")
        // The recorded command carries the destination: the history replays without storyboards.
        #expect(h.send("DELETE", "/v1/storyboards/Main").status == 204)
        let replayed = h.send("GET", "/v1/sessions/\(sid)?version=1")
        #expect(replayed["controllers", "Nav", "viewControllers"]?.strings == ["A", "B"])
    }

    @Test func showWithoutANavigationControllerPresents() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let sid = try #require(h.session(root: .object([("storyboard", .string("Main"))])).string("id"))
        let r = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toB"}"#)
        #expect(r.status == 200)
        #expect(r.string("session", "controllers", "B", "presentingViewController") == "A")
        #expect(r.string("transition", "operation") == "present")
    }

    @Test func presentationUsesTheSegueStyles() throws {
        let h = try Harness()
        let sid = try navSession(h)
        let r = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "present"}"#)
        #expect(r.status == 200)
        #expect(r.string("session", "controllers", "Nav", "presentedViewController") == "B")
        #expect(r.string("session", "controllers", "B", "modalPresentationStyle") == "overFullScreen")
        #expect(r.string("session", "controllers", "B", "modalTransitionStyle") == "crossDissolve")
        #expect(r.string("session", "controllers", "B", "presentation", "style") == "overFullScreen")
        #expect(r["events"]?.array?.contains { $0["callback"]?.string == "completion" } == false)
    }

    @Test func legacyPushNeedsANavigationController() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let bare = try #require(h.session(root: .object([("storyboard", .string("Main"))])).string("id"))
        let d24 = h.send("POST", "/v1/sessions/\(bare)/controllers/A/performSegue", #"{"identifier": "legacyB"}"#)
        #expect(d24.status == 409)
        #expect(d24.code == "D24")
        #expect(d24.slug == "push-segue-without-navigation-controller")
        #expect(d24.json["uikit"]?["name"]?.string == "NSGenericException")
        let after = h.send("GET", "/v1/sessions/\(bare)")
        #expect(after["version"]?.number == 0)
        #expect(after["controllers"]?.object?.count == 1)

        let nav = try #require(h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))])).string("id"))
        let pushed = h.send("POST", "/v1/sessions/\(nav)/controllers/A/performSegue", #"{"identifier": "legacyB"}"#)
        #expect(pushed.status == 200)
        #expect(pushed["session", "controllers", "Nav", "viewControllers"]?.strings == ["A", "B"])
    }

    @Test func unknownSegueIsD18() throws {
        let h = try Harness()
        let sid = try navSession(h)
        let r = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "nope"}"#)
        #expect(r.code == "D18")
        #expect(r.detail.contains("Receiver (<AViewController: A>) has no segue with identifier 'nope'"))
        // Relationship segues are not performable.
        let rel = h.send("POST", "/v1/sessions/\(sid)/controllers/Nav/performSegue", #"{"identifier": "n-nav-root"}"#)
        #expect(rel.code == "D18")
    }

    @Test func unwindToAnImplementerAndToNobody() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        // A (from code) implements unwindToA:, B is presented over the navigation controller.
        let s = h.session(root: .object([
            ("id", .string("N")), ("kind", .string("navigationController")),
            ("viewControllers", .array([.object([("id", .string("A")), ("class", .string("AViewController")),
                                                 ("unwindActions", .array([.string("unwindToA:")]))])])),
        ]))
        let sid = try #require(s.string("id"))
        #expect(h.send("POST", "/v1/sessions/\(sid)/controllers/A/present", #"{"viewController": {"storyboard": "Main", "identifier": "B"}}"#).status == 200)
        let r = h.send("POST", "/v1/sessions/\(sid)/controllers/B/performSegue", #"{"identifier": "back"}"#)
        #expect(r.status == 200)
        #expect(r.string("events", 0, "callback") == "prepareForSegue")
        #expect(r.string("events", 0, "segue", "destination") == "A")
        #expect(r.string("events", 1, "controller") == "A")
        #expect(r.string("events", 1, "action") == "unwindToA:")
        #expect(isAbsent(r["session", "controllers", "N", "presentedViewController"]))

        let nobody = try #require(h.session(root: .object([("id", .string("X"))])).string("id"))
        #expect(h.send("POST", "/v1/sessions/\(nobody)/controllers/X/present", #"{"viewController": {"storyboard": "Main", "identifier": "B"}}"#).status == 200)
        let none = h.send("POST", "/v1/sessions/\(nobody)/controllers/B/performSegue", #"{"identifier": "back"}"#)
        #expect(none.status == 200)
        #expect(none["events"]?.array?.isEmpty == true)
        #expect(none.string("session", "controllers", "X", "presentedViewController") == "B")
    }

    @Test func triggerSegueAsksFirstAndAcceptsTheSegueID() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("shouldPerformSegue", .object([("present", .bool(false))]))]))
        let sid = try #require(s.string("id"))
        let vetoed = h.send("POST", "/v1/sessions/\(sid)/controllers/A/triggerSegue", #"{"segue": "present"}"#)
        #expect(vetoed.status == 200)
        #expect(vetoed["events"]?.array?.count == 1)
        #expect(vetoed.string("events", 0, "callback") == "shouldPerformSegue")
        #expect(vetoed["session", "controllers"]?.object?.count == 1)
        // By element id: the segue's identifier is what shouldPerformSegue sees ("toB" is allowed).
        let byID = h.send("POST", "/v1/sessions/\(sid)/controllers/A/triggerSegue", #"{"segue": "s-show"}"#)
        #expect(byID.status == 200)
        #expect(byID.string("events", 0, "callback") == "shouldPerformSegue")
        #expect(byID.string("events", 0, "segue", "identifier") == "toB")
        #expect(byID.string("events", 1, "callback") == "prepareForSegue")
        #expect(byID.string("session", "controllers", "A", "presentedViewController") == "B")
    }

    @Test func aControllerFromCodeHasNoSegues() throws {
        let h = try Harness()
        let sid = try #require(h.session(root: .object([("id", .string("A")), ("class", .string("AViewController"))])).string("id"))
        let r = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toB"}"#)
        #expect(r.code == "D18")
    }
}

// MARK: - The real storyboards

/// Every file of a storyboard corpus, bundled app by app (`shared/storyboards` as INDEX.tsv groups
/// them, split by directory until storyboard names are unique, as the Storyboards corpus tests do;
/// the in-repository fixtures by their index's bundles): each initial controller becomes a session
/// root, and every identified segue is performed once from its source in a fresh session, checked
/// against its kind. The fixtures run on every checkout, the shared corpus where it is present.
@Suite struct StoryboardCorpusTests {
    typealias Entry = StoryboardCorpus.Entry

    /// How one segue came out.
    enum Outcome: Hashable, CustomStringConvertible {
        case performed(String), refused(String), unwound, unwindIgnored, unreachable
        var description: String {
            switch self {
            case let .performed(kind): "performed \(kind)"
            case let .refused(slug): "refused \(slug)"
            case .unwound: "unwound"
            case .unwindIgnored: "unwind ignored"
            case .unreachable: "source unreachable"
            }
        }
    }

    /// What a run over some apps found.
    struct Tally {
        var files = 0, roots = 0, segues = 0
        var outcomes: [Outcome: Int] = [:]
        var elapsed: Duration = .zero
        var performed: Int { outcomes.filter { if case .performed = $0.key { true } else { false } }.values.reduce(0, +) }
        var summary: String { outcomes.map { "\($0.key) ×\($0.value)" }.sorted().joined(separator: ", ") }
    }

    @Test(.enabled(if: StoryboardCorpus.sharedIsPresent, "shared/storyboards not found next to the clone"))
    func everyInitialControllerAndIdentifiedSegue() throws {
        let corpus = try #require(StoryboardCorpus.shared).get()
        let tally = try run(corpus, apps: corpus.apps)
        #expect(tally.files == 64)
        #expect(tally.roots == 64)
        #expect(tally.segues == 79)
        // firebase's and RxSwift's apps push a tab bar controller with a show segue: UIKit pushes
        // it (R76, with navsim's warning), so its tabs' segues are reached too.
        #expect(tally.outcomes[.unreachable, default: 0] == 0, "\(tally.outcomes)")
        #expect(!tally.outcomes.keys.contains(.refused("push-navigation-controller")), "\(tally.outcomes)")
        #expect(tally.performed >= 70, "\(tally.outcomes)")
        // Its time is printed, not asserted: speed is measured by scripts/bench-storyboards.py.
        print("corpus: \(tally.roots) storyboards, \(tally.segues) identified segues in \(tally.elapsed): \(tally.summary)")
    }

    /// The in-repository fixtures that Xcode would build (all but the diagnostics ones): the
    /// hand-written app and the real files, with each upload's diagnostics as the index lists them.
    @Test func everyFixtureInitialControllerAndIdentifiedSegue() throws {
        let corpus = try StoryboardCorpus.fixtures.get()
        let apps = corpus.apps.filter { !Self.isDiagnosticsFixture($0) }
        let tally = try run(corpus, apps: apps)
        #expect(tally.files == 64)
        #expect(tally.roots == 64)
        #expect(tally.segues == 164)
        // Every identified segue is reached, firebase's database app included: it pushes its tab bar
        // controller with a show segue, which UIKit performs (R76, with navsim's warning), so the
        // three tabs' segues are reached too. All are performed but Kukai's four into Home and
        // RecoveryPhrase, files that are not vendored: D20, as the upload announced (`perform` checks).
        #expect(tally.outcomes[.unreachable, default: 0] == 0, "\(tally.outcomes)")
        #expect(tally.outcomes[.refused("unknown-storyboard")] == 4, "\(tally.outcomes)")
        #expect(!tally.outcomes.keys.contains { if case let .refused(slug) = $0 { slug != "unknown-storyboard" } else { false } },
                "\(tally.outcomes)")
        #expect(tally.performed >= 130, "\(tally.outcomes)")
        // Legacy's Done finds DetailViewController through the <classes> outline's unwind: (§7).
        #expect(tally.outcomes[.unwound] == 1, "\(tally.outcomes)")
        print("fixtures: \(tally.roots) storyboards, \(tally.segues) identified segues in \(tally.elapsed): \(tally.summary)")
    }

    /// The diagnostics fixtures are broken on purpose: the service refuses the one that is no iOS
    /// storyboard (422), stores the others with the diagnostics the index lists (errors included),
    /// and whatever a client then asks of them is answered with a status, never a server error.
    @Test func brokenFixturesAreReportedAndNeverBreakTheService() throws {
        let corpus = try StoryboardCorpus.fixtures.get()
        let apps = corpus.apps.filter(Self.isDiagnosticsFixture)
        #expect(apps.count == 12)
        let h = try Harness()
        var attempts = 0
        for app in apps {
            var stored: [Entry] = []
            for entry in app {
                let reply = h.upload(entry.name, data: try corpus.data(entry))
                if let refusal = entry.expectedRefusal {
                    #expect(reply.status == 422 && reply.slug == refusal, "\(entry.file): \(reply.json.text)")
                    #expect(h.send("GET", "/v1/storyboards/\(entry.name)").status == 404, "\(entry.file): a refused upload is not stored")
                } else {
                    #expect(reply.status == 201, "\(entry.file): \(reply.json.text)")
                    stored.append(entry)
                }
            }
            for entry in stored {
                let storyboard = h.send("GET", "/v1/storyboards/\(entry.name)")
                Self.expectIndexedDiagnostics(storyboard, entry)
                // Roots: the entry point, then every Storyboard ID; from each, every identified segue.
                var roots: [JSON] = [.object([("storyboard", .string(entry.name))])]
                for scene in storyboard["scenes"]?.array ?? [] {
                    if let sid = scene["storyboardIdentifier"]?.string {
                        roots.append(.object([("storyboard", .string(entry.name)), ("identifier", .string(sid))]))
                    }
                }
                for root in roots {
                    let s = h.session(root: root)
                    attempts += 1
                    #expect((200..<500).contains(s.status), "\(entry.file): \(s.json.text)")
                    guard s.status == 201, let sid = s.string("id") else { continue }
                    for (controller, _) in s["controllers"]?.object ?? [] {
                        for scene in storyboard["scenes"]?.array ?? [] {
                            for segue in scene["segues"]?.array ?? [] {
                                guard let identifier = segue["identifier"]?.string else { continue }
                                let r = h.send("POST", "/v1/sessions/\(sid)/controllers/\(controller)/performSegue",
                                               json: .object([("identifier", .string(identifier))]))
                                attempts += 1
                                #expect((200..<500).contains(r.status), "\(entry.file) \(controller) '\(identifier)': \(r.json.text)")
                            }
                        }
                    }
                    #expect(h.send("DELETE", "/v1/sessions/\(sid)").status == 204)
                }
            }
            for entry in stored { #expect(h.send("DELETE", "/v1/storyboards/\(entry.name)").status == 204) }
        }
        #expect(attempts > 0)
    }

    static func isDiagnosticsFixture(_ app: [Entry]) -> Bool {
        app.contains { $0.file.hasPrefix("handwritten/diagnostics/") }
    }

    /// The reply's diagnostics, as `severity:code`, are the ones the fixture index lists (nothing
    /// to check for the shared corpus, whose index does not list them).
    fileprivate static func expectIndexedDiagnostics(_ reply: Reply, _ entry: Entry) {
        guard let expected = entry.expectedDiagnostics else { return }
        let found = Set((reply["diagnostics"]?.array ?? []).map {
            "\($0["severity"]?.string ?? "?"):\($0["code"]?.string ?? "?")"
        })
        #expect(found == expected, "\(entry.file): \(reply.json.text.prefix(600))")
    }

    /// Uploads each app, starts a session from every initial controller and performs every
    /// identified segue from its source, then deletes the app again.
    fileprivate func run(_ corpus: StoryboardCorpus, apps: [[Entry]]) throws -> Tally {
        let h = try Harness()
        var tally = Tally()
        let started = ContinuousClock.now

        for app in apps {
            var replies: [String: Reply] = [:]
            for entry in app {
                let reply = h.upload(entry.name, data: try corpus.data(entry))
                #expect(reply.status == 201, "\(entry.file): \(reply.json.text)")
                #expect(reply["diagnostics"]?.array?.contains { $0["severity"]?.string == "error" } == false, "\(entry.file)")
                replies[entry.name] = reply
                tally.files += 1
            }
            // Diagnostics are computed on read: references between the app's files resolve now.
            for entry in app {
                replies[entry.name] = h.send("GET", "/v1/storyboards/\(entry.name)")
                Self.expectIndexedDiagnostics(replies[entry.name]!, entry)
            }
            for entry in app {
                let storyboard = try #require(replies[entry.name])
                try checkInitial(h, entry.name, storyboard)
                tally.roots += 1
                for scene in storyboard["scenes"]?.array ?? [] {
                    for segue in scene["segues"]?.array ?? [] {
                        guard segue["identifier"]?.string != nil,
                              !["relationship", "embed"].contains(segue["kind"]?.string ?? "") else { continue }
                        let outcome = try perform(h, storyboard: entry.name, reply: storyboard, scene: scene, segue: segue)
                        tally.outcomes[outcome, default: 0] += 1
                        tally.segues += 1
                    }
                }
            }
            for entry in app { #expect(h.send("DELETE", "/v1/storyboards/\(entry.name)").status == 204) }
        }
        tally.elapsed = ContinuousClock.now - started
        return tally
    }

    /// The initial controller as a session root (R102): nil without an entry point; a reference
    /// that cannot be resolved is refused, as the upload diagnostics announced.
    fileprivate func checkInitial(_ h: Harness, _ name: String, _ storyboard: Reply) throws {
        let s = h.session(root: .object([("storyboard", .string(name))]))
        guard let initial = storyboard.string("initialViewController") else {
            #expect(s.status == 201, "\(name): \(s.json.text)")
            #expect(isAbsent(s["window", "rootViewController"]))
            return
        }
        if s.status == 409 {
            // Only when the upload said some reference cannot be followed.
            let unresolved = storyboard["diagnostics"]?.array?.contains { $0["code"]?.string == "unresolved-reference" } ?? false
            #expect(unresolved, "\(name): \(s.json.text)")
            return
        }
        #expect(s.status == 201, "\(name): \(s.json.text)")
        let root = try #require(s.string("window", "rootViewController"), "\(name)")
        let rootController = try #require(s["controllers", .name(root)])
        #expect(rootController["storyboard"]?["name"]?.string != nil)
        let scene = storyboard["scenes"]?.array?.first { $0["id"]?.string == initial }
        #expect(rootController["kind"]?.string == scene?["kind"]?.string, "\(name)")
        #expect(rootController["appearance"]?.string == "appeared", "\(name)")
        #expect(h.send("DELETE", "/v1/sessions/\(try #require(s.string("id")))").status == 204)
    }

    static func normalised(_ kind: String) -> String {
        switch kind {
        case "modal": "presentation"
        case "replace": "showDetail"
        case "popover": "popoverPresentation"
        default: kind
        }
    }

    /// The segues to trigger from `root`'s tree to reach `target`: breadth first over transition
    /// segues of this storyboard; each destination brings its containment tree (R102).
    static func path(from root: String, to target: String, scenes: [JSON]) -> [(scene: String, segue: String)]? {
        var byID: [String: JSON] = [:]
        for scene in scenes { if let id = scene["id"]?.string { byID[id] = scene } }
        func containment(_ start: String) -> [String] {
            var out = [start], cursor = 0
            while cursor < out.count {
                let here = out[cursor]
                cursor += 1
                for segue in byID[here]?["segues"]?.array ?? [] where ["relationship", "embed"].contains(segue["kind"]?.string ?? "") {
                    if let d = segue["destination"]?.string, byID[d]?["storyboardReference"] == nil, !out.contains(d) { out.append(d) }
                }
            }
            return out
        }
        var reached: [String: [(scene: String, segue: String)]] = [:]
        var queue: [String] = []
        for id in containment(root) where byID[id] != nil { reached[id] = []; queue.append(id) }
        var cursor = 0
        while cursor < queue.count {
            let here = queue[cursor]
            cursor += 1
            if here == target { return reached[here] }
            for segue in byID[here]?["segues"]?.array ?? [] {
                guard !["relationship", "embed", "unwind"].contains(segue["kind"]?.string ?? ""),
                      let id = segue["id"]?.string, let d = segue["destination"]?.string,
                      byID[d] != nil, byID[d]?["storyboardReference"] == nil else { continue }
                for next in containment(d) where reached[next] == nil {
                    reached[next] = reached[here]! + [(here, id)]
                    queue.append(next)
                }
            }
        }
        return reached[target]
    }

    /// The most recent controller instantiated from `scene`: its id is the scene's Storyboard ID
    /// or element id, suffixed `#n` when taken (the highest `n` is the latest).
    fileprivate static func latestInstance(of scene: String, in session: Reply, scenes: [JSON]) -> String? {
        let base = scenes.first { $0["id"]?.string == scene }?["storyboardIdentifier"]?.string ?? scene
        let ids = session["controllers"]?.object?.map(\.0) ?? []
        var best: (String, Int)?
        for id in ids {
            let n: Int
            if id == base { n = 1 } else if id.hasPrefix(base + "#"), let k = Int(id.dropFirst(base.count + 1)) { n = k } else { continue }
            if best == nil || n > best!.1 { best = (id, n) }
        }
        return best?.0
    }

    /// Reaches the segue's source in a fresh session and performs the segue once.
    fileprivate func perform(_ h: Harness, storyboard name: String, reply: Reply, scene: JSON, segue: JSON) throws -> Outcome {
        let sceneID = try #require(scene["id"]?.string)
        let identifier = try #require(segue["identifier"]?.string)
        // Identifiers can repeat within a scene (EmojiArt): UIKit performs the first one.
        let segue = scene["segues"]?.array?.first { $0["identifier"]?.string == identifier } ?? segue
        let kind = Self.normalised(segue["kind"]?.string ?? "")
        let scenes = reply["scenes"]?.array ?? []
        let leaf = ["viewController", "tableViewController", "collectionViewController"].contains(scene["kind"]?.string ?? "")

        // Roots to start from: the source by its Storyboard ID (a leaf inside a navigation
        // controller for push/show, as apps use them), the initial controller, then every other
        // scene with a Storyboard ID. From a root, the source is reached through its containment
        // tree or by triggering a chain of segues (by element id, as a user taps through).
        var roots: [(spec: JSON, scene: String)] = []
        if let sid = scene["storyboardIdentifier"]?.string {
            let direct = JSON.object([("storyboard", .string(name)), ("identifier", .string(sid))])
            roots.append((leaf && ["push", "show", "showDetail"].contains(kind)
                          ? .object([("id", .string("corpus-nav")), ("kind", .string("navigationController")), ("viewControllers", .array([direct]))])
                          : direct, sceneID))
        }
        if let initial = reply.string("initialViewController") { roots.append((.object([("storyboard", .string(name))]), initial)) }
        for other in scenes where other["storyboardIdentifier"]?.string != nil && other["id"]?.string != sceneID {
            roots.append((.object([("storyboard", .string(name)), ("identifier", other["storyboardIdentifier"]!)]), other["id"]?.string ?? ""))
        }
        var found: (sid: String, source: String)?
        for root in roots {
            guard let steps = Self.path(from: root.scene, to: sceneID, scenes: scenes) else { continue }
            let s = h.session(root: root.spec)
            guard s.status == 201, let sid = s.string("id") else { continue }
            var reached = true
            for step in steps {
                guard let receiver = Self.latestInstance(of: step.scene, in: h.send("GET", "/v1/sessions/\(sid)"), scenes: scenes) else {
                    reached = false
                    break
                }
                let t = h.send("POST", "/v1/sessions/\(sid)/controllers/\(receiver)/triggerSegue",
                               json: .object([("segue", .string(step.segue))]))
                if t.status != 200 { reached = false; break }
            }
            if reached, let source = Self.latestInstance(of: sceneID, in: h.send("GET", "/v1/sessions/\(sid)"), scenes: scenes) {
                found = (sid, source)
                break
            }
            _ = h.send("DELETE", "/v1/sessions/\(sid)")
        }
        guard let (sid, sourceID) = found else {
            return .unreachable
        }
        defer { _ = h.send("DELETE", "/v1/sessions/\(sid)") }
        let before = h.send("GET", "/v1/sessions/\(sid)")

        let r = h.send("POST", "/v1/sessions/\(sid)/controllers/\(sourceID)/performSegue",
                       json: .object([("identifier", .string(identifier))]))
        let context = "\(name)/\(sceneID) \(kind) '\(identifier)': \(r.json.text.prefix(400))"
        let source = try #require(before["controllers", .name(sourceID)])
        let navigation = source["navigationController"]?.string

        if kind == "unwind" {
            #expect(r.status == 200, "\(context)")
            let events = r["events"]?.array ?? []
            if events.isEmpty { return .unwindIgnored }
            // Someone implements the action (a legacy <classes> hint): prepare, then its action.
            #expect(r.string("events", 0, "callback") == "prepareForSegue", "\(context)")
            #expect(r.string("events", 1, "callback") == "unwindAction", "\(context)")
            return .unwound
        }

        let destinationScene = scenes.first { $0["id"]?.string == segue["destination"]?.string }
        let destinationKind = destinationScene?["kind"]?.string
        if r.status != 200 {
            #expect(r.status == 409, "\(context)")
            let unresolved = reply["diagnostics"]?.array?.contains {
                $0["code"]?.string == "unresolved-reference" && $0["element"]?.string == segue["destination"]?.string
            } ?? false
            switch r.slug {
            case "push-segue-without-navigation-controller":
                // D24: a legacy push with no navigation controller around the source.
                #expect(kind == "push" && navigation == nil, "\(context)")
            case "push-navigation-controller":
                // D12 (R76, R93): pushing a navigation or split view controller (a tab bar
                // controller is pushed, with a warning).
                #expect(["push", "show", "showDetail"].contains(kind) && navigation != nil, "\(context)")
                #expect(["navigationController", "splitViewController"].contains(destinationKind ?? ""), "\(context)")
            case "unresolved-reference", "unknown-storyboard", "unknown-storyboard-identifier":
                #expect(unresolved, "\(context)")
            default:
                Issue.record("unexpected refusal: \(context)")
            }
            return .refused(r.slug ?? "?")
        }

        #expect(r.string("events", 0, "controller") == sourceID, "\(context)")
        #expect(r.string("events", 0, "callback") == "prepareForSegue", "\(context)")
        #expect(r.string("events", 0, "segue", "identifier") == identifier, "\(context)")
        let destination = try #require(r.string("events", 0, "segue", "destination"), "\(context)")
        let controllers = try #require(r["session", "controllers"])
        let dest = try #require(controllers[destination], "\(context)")
        #expect(dest["storyboard"]?["name"]?.string != nil, "\(context)")
        #expect(dest["kind"]?.string == destinationKind, "\(context)")
        switch kind {
        case "push":
            #expect(controllers[navigation ?? ""]?["viewControllers"]?.strings.last == destination, "\(context)")
        case "show" where navigation != nil:
            #expect(controllers[navigation ?? ""]?["viewControllers"]?.strings.last == destination, "\(context)")
        case "popoverPresentation":
            // A popover, adapted to a sheet in compact width (R19); the segue's own style is ignored.
            #expect(dest["presentingViewController"]?.string != nil, "\(context)")
            #expect(dest["modalPresentationStyle"]?.string == "popover", "\(context)")
        case "presentation", "show", "custom":
            #expect(dest["presentingViewController"]?.string != nil, "\(context)")
            if let style = segue["modalPresentationStyle"]?.string {
                #expect(dest["modalPresentationStyle"]?.string == style, "\(context)")
            }
            if let style = segue["modalTransitionStyle"]?.string {
                #expect(dest["modalTransitionStyle"]?.string == style, "\(context)")
            }
        default: // showDetail: a split's secondary, a push, or a presentation
            #expect(dest["parent"]?.string != nil || dest["presentingViewController"]?.string != nil, "\(context)")
        }
        return .performed(kind)
    }
}

// MARK: - Fidelity, round two

@Suite struct FidelityRoundTwoTests {
    /// A second instance of a scene is `A~2`, then `A~3` (`~` is unreserved in URLs, so a
    /// GET of `…/controllers/A~2` reaches that instance, not `A`).
    @Test func item7_secondInstanceIsTilde2() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))]))
        let sid = try #require(s.string("id"))
        let a2 = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Main", "identifier": "A"}"#)
        #expect(a2.string("id") == "A~2")
        #expect(h.send("GET", "/v1/sessions/\(sid)/controllers/A~2").string("id") == "A~2")
        #expect(h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Main"}"#).string("id") == "A~3")
    }

    /// `performSegue`/`triggerSegue` take `"destination": {"id": …}` for the new instance;
    /// an id in use is 409 `controller-exists` and changes nothing; naming the destination of an unwind is 422.
    @Test func item7_segueDestinationCanBeNamed() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))]))
        let sid = try #require(s.string("id"))
        let named = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toB", "destination": {"id": "first"}}"#)
        #expect(named.status == 200)
        #expect(named.string("events", 0, "segue", "destination") == "first")
        #expect(named["session", "controllers", "Nav", "viewControllers"]?.strings == ["A", "first"])
        #expect(named.string("session", "controllers", "first", "storyboard", "identifier") == "B")
        let clash = h.send("POST", "/v1/sessions/\(sid)/controllers/A/triggerSegue", #"{"segue": "toB", "destination": {"id": "first"}}"#)
        #expect(clash.status == 409 && clash["type"]?.string == "/v1/problems/controller-exists", "\(clash)")
        #expect(clash.detail.contains("first"))
        // The field the client wrote, not the scene's `id`.
        #expect(clash["field"]?.string == "destination.id", "\(clash)")
        #expect(h.send("GET", "/v1/sessions/\(sid)")["version"] == named["version"])
        let other = h.send("POST", "/v1/sessions/\(sid)/controllers/A/triggerSegue", #"{"segue": "toB", "destination": {"id": "second"}}"#)
        #expect(other["session", "controllers", "Nav", "viewControllers"]?.strings == ["A", "first", "second"])
        let unwind = h.send("POST", "/v1/sessions/\(sid)/controllers/second/performSegue", #"{"identifier": "back", "destination": {"id": "x"}}"#)
        #expect(unwind.status == 422)
        #expect(h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toB", "destination": {"name": "x"}}"#).status == 422)
    }

    /// R99: an unwind that finds no destination still answers 200 and changes nothing,
    /// with navsim's warning naming the action and the controllers that were asked.
    @Test func item10_unwindWithoutDestinationWarns() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let sid = try #require(h.session(root: .object([("id", .string("X"))])).string("id"))
        #expect(h.send("POST", "/v1/sessions/\(sid)/controllers/X/present", #"{"viewController": {"storyboard": "Main", "identifier": "B"}}"#).status == 200)
        let none = h.send("POST", "/v1/sessions/\(sid)/controllers/B/performSegue", #"{"identifier": "back"}"#)
        #expect(none.status == 200)
        #expect(none["events"]?.array?.isEmpty == true)
        #expect(none["warnings"]?.array?.count == 1)
        #expect(none.string("warnings", 0, "type") == "/v1/problems/unwind-destination-not-found")
        #expect(isAbsent(none["warnings", 0, "uikit"]))
        let detail = none.string("warnings", 0, "detail") ?? ""
        #expect(detail.contains("unwindToA:"))
        #expect(detail.contains("<UIViewController: X>"))
        #expect(none.string("session", "controllers", "X", "presentedViewController") == "B")
        // History keeps the warning with the entry.
        let history = h.send("GET", "/v1/sessions/\(sid)/history?after=1")
        #expect(history.string("entries", 0, "warnings", 0, "type") == "/v1/problems/unwind-destination-not-found")
    }
}

extension FidelityRoundTwoTests {
    /// A custom segue declaration made after a session exists applies to what that
    /// session performs from then on, like a re-upload; the history replays what was declared.
    @Test func item5_declarationsReachExistingSessions() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))]))
        let sid = try #require(s.string("id"))
        // Undeclared: the custom segue presents modally.
        let before = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "customB"}"#)
        #expect(before.string("session", "controllers", "A", "presentedViewController") == "B")
        #expect(h.send("POST", "/v1/sessions/\(sid)/controllers/B/dismiss", "{}").status == 200)
        // Declared push after the session exists: the same controller A now pushes.
        #expect(h.send("PUT", "/v1/storyboards/Main/customSegues", #"{"FancySegue": {"performs": "push"}}"#).status == 200)
        let after = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "customB"}"#)
        #expect(after.status == 200)
        #expect(after["session", "controllers", "Nav", "viewControllers"]?.strings == ["A", "B~2"])
        #expect(after.string("transition", "operation") == "push")
        let version = try #require(after["version"]?.number)
        // Declarations cleared: the replay still pushes, as the entry recorded.
        #expect(h.send("PUT", "/v1/storyboards/Main/customSegues", "{}").status == 200)
        let replayed = h.send("GET", "/v1/sessions/\(sid)?version=\(Int(version))")
        #expect(replayed["controllers", "Nav", "viewControllers"]?.strings == ["A", "B~2"])
        // ...and the next perform presents again.
        let cleared = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "customB"}"#)
        #expect(cleared.string("transition", "operation") == "present")
    }
}

extension FidelityRoundTwoTests {
    /// `PUT …/classes` declares what a class's code sets; instances of the class made from
    /// then on start with it (an unwind finds its implementer), older instances keep theirs, a
    /// request's own fields win, and the declarations survive a re-upload and a restart.
    @Test func item9_classDeclarationsReachNewInstances() throws {
        let h = try Harness()
        #expect(h.upload("Main", mainXML).status == 201)
        #expect(h.send("PUT", "/v1/storyboards/Main/classes", #"{"AViewController": {"unwindAction": ["x:"]}}"#).status == 422)
        #expect(h.send("PUT", "/v1/storyboards/Main/classes", #"{"AViewController": {"modalPresentationStyle": "sideways"}}"#).status == 422)
        #expect(h.send("PUT", "/v1/storyboards/Nope/classes", "{}").status == 404)
        #expect(h.send("PUT", "/v1/storyboards/Main/classes", body: Array("{}".utf8), contentType: "text/plain").status == 415)
        let old = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("A"))]))
        let oldID = try #require(old.string("id"))

        let declared = h.send("PUT", "/v1/storyboards/Main/classes", """
            {"AViewController": {"unwindActions": ["unwindToA:"], "title": "Home"},
             "BViewController": {"modalPresentationStyle": "fullScreen"}}
            """)
        #expect(declared.status == 200)
        #expect(declared["classes", "AViewController", "unwindActions"]?.strings == ["unwindToA:"])
        #expect(declared["diagnostics"] != nil)
        #expect(h.send("GET", "/v1/storyboards/Main")["classes", "BViewController", "modalPresentationStyle"]?.string == "fullScreen")

        // A new instance of A implements the unwind, so B's unwind reaches it.
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("A"))]))
        let sid = try #require(s.string("id"))
        #expect(s["controllers", "A", "unwindActions"]?.strings == ["unwindToA:"])
        #expect(s.string("controllers", "A", "title") == "Home")
        let shown = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toB"}"#)
        #expect(shown.string("session", "controllers", "B", "modalPresentationStyle") == "fullScreen")
        let back = h.send("POST", "/v1/sessions/\(sid)/controllers/B/performSegue", #"{"identifier": "back"}"#)
        #expect(back.status == 200)
        #expect(back.string("events", 1, "controller") == "A")
        #expect(back.string("events", 1, "action") == "unwindToA:")
        #expect(isAbsent(back["warnings"]))
        // The session made before keeps what its A had.
        #expect(h.send("GET", "/v1/sessions/\(oldID)/controllers/A")["unwindActions"]?.strings ?? [] == [])
        // A request's own fields win over the class's.
        let own = h.send("POST", "/v1/sessions/\(sid)/controllers", #"{"storyboard": "Main", "identifier": "A", "title": "Mine"}"#)
        #expect(own.string("title") == "Mine")
        #expect(own["unwindActions"]?.strings == ["unwindToA:"])

        // A re-upload keeps them; a restart reads them back.
        #expect(h.upload("Main", mainXML).status == 200)
        let again = try h.reopened()
        #expect(again.send("GET", "/v1/storyboards/Main")["classes", "AViewController", "title"]?.string == "Home")
        let after = again.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("A"))]))
        #expect(after.string("controllers", "A", "title") == "Home")
        // `{}` clears them.
        let cleared = again.send("PUT", "/v1/storyboards/Main/classes", "{}")
        #expect(isAbsent(cleared["classes"]))
    }
}

extension FidelityRoundTwoTests {
    /// R1, R32: `POST /v1/sessions` with a root answers the callbacks of
    /// `window.rootViewController = root; makeKeyAndVisible()`, history entry 0 keeps them, and a
    /// session without a root has none.
    @Test func item6_sessionCreationReportsTheRootsCallbacks() throws {
        let h = try Harness()
        let s = h.send("POST", "/v1/sessions", """
            {"id": "launch", "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"id": "home"}]}}
            """)
        #expect(s.status == 201)
        let events = (s["events"]?.array ?? []).map { "\($0["controller"]?.string ?? "").\($0["callback"]?.string ?? "")" }
        #expect(events == [
            "nav.viewDidLoad", "home.viewDidLoad", "nav.viewWillAppear", "nav.viewIsAppearing",
            "home.viewWillAppear", "home.viewIsAppearing", "nav.viewDidAppear", "home.viewDidAppear",
        ], "\(events)")
        let entry0 = h.send("GET", "/v1/sessions/launch/history?after=-1&limit=1")
        #expect(entry0["entries", 0, "version"]?.number == 0)
        #expect(entry0["entries", 0, "events"] == s["events"])
        // The default page still starts at version 1; a replay of version 0 still works.
        #expect(h.send("GET", "/v1/sessions/launch/history")["entries"]?.array?.isEmpty == true)
        #expect(h.send("GET", "/v1/sessions/launch?version=0").string("window", "rootViewController") == "nav")
        // No root: nothing is called.
        let empty = h.send("POST", "/v1/sessions", #"{"id": "empty"}"#)
        #expect(empty["events"]?.array?.isEmpty == true)
    }
}

// MARK: - Segue classes on every kind; performSegue takes identifiers only

/// A navigation controller "Nav" whose root A has a show segue "toTabs" of class
/// `TabStoryboardSegue` to another navigation controller ("Other", root B), and an unnamed show
/// segue `s-unnamed` to B.
private let classedShowXML = SB.document(
    initial: "n-nav",
    SB.navigation("n-nav", root: "a-vc", storyboardID: "Nav"),
    SB.controller("a-vc", storyboardID: "A", title: "A",
                  manual: [SB.segue("s-tabs", to: "m-nav", kind: "show", identifier: "toTabs",
                                    attributes: "customClass=\"TabStoryboardSegue\" customModule=\"App\""),
                           SB.segue("s-unnamed", to: "b-vc", kind: "show")]),
    SB.navigation("m-nav", root: "b-vc", storyboardID: "Other"),
    SB.controller("b-vc", storyboardID: "B", title: "B"))

extension StoryboardRoutesTests {
    @Test func aDeclaredClassWinsOnAShowSegue() throws {
        let h = try Harness()
        let uploaded = h.upload("Main", classedShowXML)
        #expect(uploaded.status == 201)
        // Undeclared, the class is reported and the segue does what a show does: a push of a
        // navigation controller, UIKit's D12.
        let warning = uploaded["diagnostics"]?.array?.first { $0["code"]?.string == "undeclared-custom-segue" }
        #expect(warning?["element"]?.string == "s-tabs")
        #expect(warning?["message"]?.string?.contains("it will do what a 'show' segue does") == true)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))]))
        let sid = try #require(s.string("id"))
        let pushed = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toTabs"}"#)
        #expect(pushed.status == 409)
        #expect(pushed.code == "D12")

        // Declared to present: the class's perform() runs, whatever the segue's kind.
        let declared = h.send("PUT", "/v1/storyboards/Main/customSegues",
                              #"{"TabStoryboardSegue": {"performs": "present", "modalPresentationStyle": "fullScreen"}}"#)
        #expect(declared.status == 200)
        #expect(declared["diagnostics"]?.array?.contains { $0["code"]?.string == "undeclared-custom-segue" } == false)
        let presented = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "toTabs"}"#)
        #expect(presented.status == 200)
        #expect(presented.string("session", "controllers", "Nav", "presentedViewController") == "Other")
        #expect(presented.string("session", "controllers", "Other", "modalPresentationStyle") == "fullScreen")
        #expect(presented["session", "controllers", "Nav", "viewControllers"]?.strings == ["A"])
    }

    @Test func performSegueTakesIdentifiersOnlyTriggerSegueTakesElementIDs() throws {
        let h = try Harness()
        #expect(h.upload("Main", classedShowXML).status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Nav"))]))
        let sid = try #require(s.string("id"))
        let refused = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "s-unnamed"}"#)
        #expect(refused.status == 409)
        #expect(refused.code == "D18")
        #expect(refused.detail.contains("has no segue with identifier 's-unnamed'"))
        #expect(h.send("GET", "/v1/sessions/\(sid)")["version"] == s["version"])
        let tapped = h.send("POST", "/v1/sessions/\(sid)/controllers/A/triggerSegue", #"{"segue": "s-unnamed"}"#)
        #expect(tapped.status == 200)
        #expect(tapped["session", "controllers", "Nav", "viewControllers"]?.strings == ["A", "B"])
    }
}

// MARK: - Errors a new user meets

extension StoryboardRoutesTests {
    @Test func aBinaryUploadSaysItIsNotXML() throws {
        let h = try Harness()
        // A PNG's signature and header: what an app's asset uploaded by mistake starts with.
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52]
        let r = h.upload("Picture", data: png)
        #expect(r.status == 400)
        #expect(r.slug == "invalid-body")
        #expect(r.detail.contains("binary data, not XML"), "\(r.detail)")
        #expect(!r.detail.contains("empty"))
        let text = h.upload("Text", data: Array("just some notes\n".utf8))
        #expect(text.status == 400)
        #expect(text.detail.contains("does not start with markup"), "\(text.detail)")
        #expect(h.send("GET", "/v1/storyboards/Picture").status == 404)
    }

    @Test func conflictsHaveTitlesOfTheirOwnAndAWrongReceiverIsNoBodyField() throws {
        let h = try Harness()
        let xml = SB.document(
            initial: "t-tab",
            SB.container("t-tab", element: "tabBarController", storyboardID: "Tabs",
                         relationships: [SB.relationship("t-rel", to: "a-vc", "viewControllers")]),
            SB.controller("a-vc", storyboardID: "A", manual: [SB.segue("s-lost", to: "nowhere", kind: "show", identifier: "lost")]))
        #expect(h.upload("Main", xml).status == 201)
        let s = h.session(root: .object([("storyboard", .string("Main")), ("identifier", .string("Tabs"))]))
        let sid = try #require(s.string("id"))

        let lost = h.send("POST", "/v1/sessions/\(sid)/controllers/A/performSegue", #"{"identifier": "lost"}"#)
        #expect(lost.status == 409)
        #expect(lost.slug == "unknown-destination")
        #expect(lost.string("title") == "The destination scene does not exist")
        let taken = h.send("POST", "/v1/sessions", json: .object([("id", .string(sid))]))
        #expect(taken.status == 409)
        #expect(taken.string("title") == "A session with that id exists")

        let push = h.send("POST", "/v1/sessions/\(sid)/controllers/Tabs/push", #"{"viewController": {"id": "X"}}"#)
        #expect(push.status == 422)
        #expect(push.slug == "invalid-receiver")
        #expect(push.string("title") == "The receiver does not take this operation")
        #expect(isAbsent(push["field"]))
        #expect(push.detail.contains("is not a navigation controller and has no navigationController"))
        #expect(h.send("GET", "/v1/sessions/\(sid)")["version"] == s["version"])
    }
}

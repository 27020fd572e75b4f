import Foundation
import HTTPServer
import JSONValues
import Pictures
import Testing
import TestSupport

@testable import NavSimService
import SQLiteStore

// Text, DOT and SVG pictures of sessions and storyboards, content negotiation, caching, and
// `GET /inspector` (docs/pictures.md), driven through `NavSimService.handle` in-process.

/// A service with a chosen renderer (Graphviz or none) on a fresh database.
private final class PictureHarness {
    let directory: String
    let service: NavSimService
    let pictures: Pictures

    init(graphviz: Graphviz = .system, cache: PictureCache = PictureCache()) throws {
        directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("PicturesTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        pictures = Pictures(graphviz: graphviz, cache: cache)
        service = try NavSimService(
            store: SessionStore(
                path: (directory as NSString).appendingPathComponent("navsim.sqlite"),
                migrationsDirectory: ServiceFiles.migrations),
            openAPI: [], pictures: pictures)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func send(
        _ method: String, _ target: String, _ body: String? = nil, accept: String? = nil,
        contentType: String = "application/json"
    ) -> HTTPResponse {
        var path = target
        var query: [String: String] = [:]
        if let q = target.firstIndex(of: "?") {
            path = String(target[..<q])
            for pair in target[target.index(after: q)...].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                query[kv[0]] = kv.count > 1 ? kv[1] : ""
            }
        }
        var headers = HTTPHeaders()
        if let accept { headers.add("Accept", accept) }
        if body != nil { headers.add("Content-Type", contentType) }
        return service.handle(
            HTTPRequest(
                method: method, path: path, query: query, headers: headers,
                body: body.map { Array($0.utf8) } ?? []))
    }

    func text(_ target: String, accept: String) -> String {
        String(decoding: send("GET", target, accept: accept).body, as: UTF8.self)
    }

    /// The mail app of the issue: a tab bar of a navigation controller and a settings tab, a
    /// message pushed, then a compose sheet presented from it. Versions 0 (created), 1 (push), 2 (present).
    func mailSession() {
        let created = send(
            "POST", "/v1/sessions",
            #"""
            {"id": "mail", "root": {"id": "tabs", "kind": "tabBarController", "viewControllers": [
              {"id": "inboxNav", "kind": "navigationController", "viewControllers": [{"id": "inbox", "class": "InboxViewController"}]},
              {"id": "settings", "class": "SettingsViewController"}]}}
            """#)
        precondition(created.status == 201, String(decoding: created.body, as: UTF8.self))
        let pushed = send(
            "POST", "/v1/sessions/mail/controllers/inboxNav/push",
            #"{"viewController": {"id": "message", "class": "MessageViewController"}, "animated": false}"#)
        precondition(pushed.status == 200, String(decoding: pushed.body, as: UTF8.self))
        let presented = send(
            "POST", "/v1/sessions/mail/controllers/message/present",
            #"""
            {"viewController": {"id": "composeNav", "kind": "navigationController", "modalPresentationStyle": "pageSheet",
              "viewControllers": [{"id": "compose", "class": "ComposeViewController"}]}, "animated": true}
            """#)
        precondition(presented.status == 200, String(decoding: presented.body, as: UTF8.self))
    }
}

/// Runs `dot -Tsvg` on `text`; nil when it parses, else what dot said.
private func dotRejects(_ text: String) -> String? {
    do {
        let svg = try Graphviz.system.svg(text)
        return String(decoding: svg, as: UTF8.self).contains("<svg") ? nil : "no <svg> in the output"
    } catch {
        return "\(error)"
    }
}

private let dotInstalled = Graphviz.system.isAvailable

@Suite("Pictures: negotiation")
struct NegotiationTests {
    @Test func acceptFieldsChooseARepresentation() {
        func pick(_ accept: String?, svg: Bool = true) -> Representation.Choice { Representation.negotiate(accept, svgAvailable: svg) }
        #expect(pick(nil) == .send(.json))
        #expect(pick("") == .send(.json))
        #expect(pick("*/*") == .send(.json))
        #expect(pick("text/plain") == .send(.text))
        #expect(pick("TEXT/Plain; charset=utf-8") == .send(.text))
        #expect(pick("text/*") == .send(.text))
        #expect(pick("text/vnd.graphviz") == .send(.dot))
        #expect(pick("image/svg+xml") == .send(.svg))
        #expect(pick("image/*") == .send(.svg))
        // Weights: the highest wins; the most specific range decides a type's weight.
        #expect(pick("text/plain;q=0.5, text/vnd.graphviz") == .send(.dot))
        #expect(pick("application/json;q=0.1, text/*;q=0.2, text/plain;q=0") == .send(.dot))
        #expect(pick("*/*;q=0.3, image/svg+xml") == .send(.svg))
        #expect(pick("image/svg+xml, text/plain;q=0.4", svg: false) == .send(.text))
        // Nothing acceptable, or only SVG without Graphviz.
        #expect(pick("application/xml") == .notAcceptable)
        #expect(pick("application/json;q=0") == .notAcceptable)
        #expect(pick("image/svg+xml", svg: false) == .needsGraphviz)
        #expect(pick("image/png") == .notAcceptable)
        // A malformed element is skipped, not fatal.
        #expect(pick("garbage, text/plain") == .send(.text))
        #expect(pick("text/plain;q=2, text/vnd.graphviz;q=0.1") == .send(.dot))
    }

    @Test func notAcceptableIs406ProblemJSON() throws {
        let h = try PictureHarness()
        h.mailSession()
        let r = h.send("GET", "/v1/sessions/mail", accept: "application/xml")
        #expect(r.status == 406)
        #expect(r.headers["content-type"] == "application/problem+json")
        #expect(String(decoding: r.body, as: UTF8.self).contains("text/plain"))
        #expect(h.send("GET", "/v1/storyboards/none", accept: "text/plain").status == 404)
    }

    @Test func svgWithoutGraphvizIs406NamingThePackage() throws {
        let h = try PictureHarness(graphviz: Graphviz(executable: nil))
        h.mailSession()
        let r = h.send("GET", "/v1/sessions/mail", accept: "image/svg+xml")
        #expect(r.status == 406)
        let detail = (try JSON.parse(r.body))["detail"]?.string ?? ""
        #expect(detail.contains("apt-get install graphviz"))
        #expect((try JSON.parse(r.body))["type"]?.string == "/v1/problems/graphviz-not-installed")
        // The other pictures do not need it.
        #expect(h.send("GET", "/v1/sessions/mail", accept: "text/vnd.graphviz").status == 200)
        #expect(h.send("GET", "/v1/sessions/mail", accept: "image/svg+xml, text/plain;q=0.5").headers["content-type"]?.hasPrefix("text/plain") == true)
    }

    @Test func everyRepresentationVariesOnAccept() throws {
        let h = try PictureHarness()
        h.mailSession()
        for accept in [nil, "text/plain", "text/vnd.graphviz"] {
            let r = h.send("GET", "/v1/sessions/mail", accept: accept)
            #expect(r.status == 200)
            #expect(r.headers["vary"] == "Accept")
        }
        #expect(h.send("GET", "/v1/sessions/mail").headers["etag"] == "\"2\"")
        #expect(h.send("GET", "/v1/sessions/mail", accept: "text/plain").headers["etag"] == "\"2-text\"")
        #expect(h.send("GET", "/v1/sessions/mail?version=1", accept: "text/vnd.graphviz").headers["etag"] == "\"1-dot\"")
        #expect(h.send("GET", "/v1/sessions/mail", accept: "text/vnd.graphviz").headers["content-type"] == "text/vnd.graphviz; charset=utf-8")
    }
}

@Suite("Pictures: sessions")
struct SessionPictureTests {
    @Test func theTextTreeOfTheMailSession() throws {
        let h = try PictureHarness()
        h.mailSession()
        let text = h.text("/v1/sessions/mail", accept: "text/plain")
        #expect(text == EXPECTED_TREE)
    }

    @Test func anEarlierVersionIsDrawnFromTheHistory() throws {
        let h = try PictureHarness()
        h.mailSession()
        let v1 = h.text("/v1/sessions/mail?version=1", accept: "text/plain")
        #expect(v1 == EXPECTED_V1)
        let v0dot = h.text("/v1/sessions/mail?version=0", accept: "text/vnd.graphviz")
        #expect(!v0dot.contains("message"))
        #expect(h.send("GET", "/v1/sessions/mail?version=9", accept: "text/plain").status == 404)
    }

    /// With manual transitions an animated present stays in progress: the tree names it and
    /// shows the appearance states changing.
    @Test func aTransitionInProgressIsShown() throws {
        let h = try PictureHarness()
        #expect(
            h.send(
                "POST", "/v1/sessions",
                #"""
                {"id": "slow", "options": {"transitions": "manual"}, "root": {"id": "home", "class": "HomeViewController"}}
                """#
            ).status == 201)
        let r = h.send(
            "POST", "/v1/sessions/slow/controllers/home/present",
            #"{"viewController": {"id": "sheet", "class": "SheetViewController", "modalPresentationStyle": "fullScreen"}, "animated": true}"#)
        #expect(r.status == 200)
        let text = h.text("/v1/sessions/slow", accept: "text/plain")
        #expect(text.contains("presents ▸ sheet  SheetViewController  fullScreen  ◀ visible  [appearing]"), "\(text)")
        #expect(text.contains("home  HomeViewController  [disappearing]"), "\(text)")
        #expect(text.contains("present  home → sheet  fullScreen  animated  inProgress"), "\(text)")
        #expect(!text.contains("transition: none"))
    }

    @Test func theDOTMarksWindowVisibleAndPresentation() throws {
        let h = try PictureHarness()
        h.mailSession()
        let dot = h.text("/v1/sessions/mail", accept: "text/vnd.graphviz")
        #expect(dot.hasPrefix("digraph session {"))
        #expect(dot.contains("\"inboxNav\" -> \"message\";"))
        #expect(dot.contains("presents · pageSheet"))
        #expect(dot.contains("style=dashed"))
        // compose is visible: bold blue outline; settings' view is not loaded: dotted, not in the window.
        let compose = dot.split(separator: "\n").first { $0.hasPrefix("  \"compose\" [") } ?? ""
        #expect(compose.contains("penwidth=3") && compose.contains("#dff0d8"))
        let settings = dot.split(separator: "\n").first { $0.hasPrefix("  \"settings\" [") } ?? ""
        #expect(settings.contains("dotted") && settings.contains("#ffffff"))
        if dotInstalled { #expect(dotRejects(dot) == nil) }
    }

    @Test(.enabled(if: dotInstalled, "Graphviz dot is not installed"))
    func svgIsRenderedAndCachedPerVersion() throws {
        let cache = PictureCache()
        let h = try PictureHarness(cache: cache)
        h.mailSession()
        let first = h.send("GET", "/v1/sessions/mail", accept: "image/svg+xml")
        #expect(first.status == 200)
        #expect(first.headers["content-type"] == "image/svg+xml")
        #expect(String(decoding: first.body, as: UTF8.self).contains("ComposeViewController"))
        let misses = cache.statistics.misses
        let again = h.send("GET", "/v1/sessions/mail", accept: "image/svg+xml")
        #expect(again.body == first.body)
        #expect(cache.statistics.misses == misses, "the second request is served from the cache")
        // A new version is a new picture.
        _ = h.send("POST", "/v1/sessions/mail/controllers/composeNav/dismiss", #"{"animated": false}"#)
        let after = h.send("GET", "/v1/sessions/mail", accept: "image/svg+xml")
        #expect(cache.statistics.misses == misses + 1)
        #expect(!String(decoding: after.body, as: UTF8.self).contains("presents"))
    }

    @Test func theCacheIsBounded() {
        let cache = PictureCache(maxEntries: 2, maxBytes: 10)
        for i in 0..<5 {
            _ = cache.value(PictureCache.Key(resource: "r", version: "\(i)", representation: .text)) { [UInt8](repeating: 1, count: 4) }
        }
        #expect(cache.statistics.entries == 2)
        #expect(cache.statistics.bytes <= 10)
        _ = cache.value(PictureCache.Key(resource: "r", version: "big", representation: .text)) { [UInt8](repeating: 1, count: 11) }
        #expect(cache.statistics.bytes <= 10, "a value larger than the bound is not kept")
    }

    @Test func aDeletedAndRecreatedSessionIsNotServedFromTheCache() throws {
        let h = try PictureHarness()
        h.mailSession()
        _ = h.text("/v1/sessions/mail?version=0", accept: "text/plain")
        #expect(h.send("DELETE", "/v1/sessions/mail").status == 204)
        #expect(h.send("POST", "/v1/sessions", #"{"id": "mail", "root": {"id": "solo", "class": "SoloViewController"}}"#).status == 201)
        #expect(h.text("/v1/sessions/mail?version=0", accept: "text/plain").contains("solo  SoloViewController"))
    }

    @Test(.enabled(if: dotInstalled, "Graphviz dot is not installed"))
    func dotRunsAreBoundedInTime() throws {
        var slow = Graphviz.system
        slow.timeout = 0.000_001
        #expect(throws: Graphviz.Failure.timedOut(0.000_001)) { try slow.svg("digraph { a -> b }") }
        var small = Graphviz.system
        small.maxInputBytes = 4
        #expect(throws: Graphviz.Failure.inputTooLarge(4)) { try small.svg("digraph { a -> b }") }
    }

    /// DOT that `dot` rejects: the failure carries dot's exit status and the first line it wrote
    /// to standard error.
    @Test(.enabled(if: dotInstalled, "Graphviz dot is not installed"))
    func aRejectedGraphReportsDotsStatusAndMessage() {
        #expect {
            _ = try Graphviz.system.svg("digraph { a -> }")
        } throws: { error in
            guard case .failed(let status, let message)? = error as? Graphviz.Failure else { return false }
            return status == 1 && message.contains("syntax error in line 1")
        }
    }
}

@Suite("Pictures: storyboards")
struct StoryboardPictureTests {
    /// Every fixture, and every file of shared/storyboards when it is there, uploaded one app at
    /// a time: its DOT parses with `dot -Tsvg`, and its text names every scene.
    @Test func everyStoryboardsFlowParsesWithDot() throws {
        var corpora = [try StoryboardCorpus.fixtures.get()]
        if let shared = StoryboardCorpus.shared { corpora.append(try shared.get()) }
        var problems: [String] = []
        var drawn = 0
        for corpus in corpora {
            let before = drawn
            defer { if drawn - before < corpus.entries.count / 2 { problems.append("\(corpus.title): drew only \(drawn - before) of \(corpus.entries.count)") } }
            for app in corpus.apps {
                let h = try PictureHarness()
                for entry in app {
                    let put = h.send(
                        "PUT", "/v1/storyboards/\(entry.name.percentEncodedPathSegment)",
                        String(decoding: try corpus.data(entry), as: UTF8.self), contentType: "application/xml")
                    if put.status >= 300 { continue }  // refused on purpose (INDEX.tsv says so); nothing to draw
                }
                for entry in app {
                    let target = "/v1/storyboards/\(entry.name.percentEncodedPathSegment)"
                    let reply = h.send("GET", target)
                    guard reply.status == 200 else { continue }
                    let dot = h.text(target, accept: "text/vnd.graphviz")
                    guard dot.hasPrefix("digraph storyboard {") else { problems.append("\(entry.file): \(dot.prefix(80))"); continue }
                    let text = h.text(target, accept: "text/plain")
                    for scene in (try JSON.parse(reply.body))["scenes"]?.array ?? [] {
                        if let id = scene["id"]?.string, !text.contains(id) { problems.append("\(entry.file): \(id) missing from the text") }
                    }
                    if dotInstalled, let why = dotRejects(dot) { problems.append("\(entry.file): \(why)") }
                    drawn += 1
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(drawn > 20, "drew \(drawn) storyboards from \(corpora.map(\.title))")
    }

    @Test func theFlowShowsScenesSeguesReferencesAndDiagnostics() throws {
        let h = try PictureHarness()
        let xml = #"""
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="21701" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES" initialViewController="nav-1">
              <scenes>
                <scene sceneID="s1"><objects>
                  <navigationController id="nav-1" storyboardIdentifier="Root" sceneMemberID="viewController">
                    <connections><segue destination="list-1" kind="relationship" relationship="rootViewController" id="r1"/></connections>
                  </navigationController>
                </objects></scene>
                <scene sceneID="s2"><objects>
                  <viewController id="list-1" customClass="ListViewController" sceneMemberID="viewController">
                    <connections>
                      <segue destination="ref-1" kind="show" identifier="showSettings" id="g1"/>
                      <segue destination="gone-1" kind="presentation" identifier="broken" id="g2"/>
                    </connections>
                  </viewController>
                </objects></scene>
                <scene sceneID="s3"><objects>
                  <viewControllerPlaceholder storyboardName="Settings" referencedIdentifier="Prefs" id="ref-1" sceneMemberID="viewController"/>
                </objects></scene>
              </scenes>
            </document>
            """#
        let put = h.send("PUT", "/v1/storyboards/Main", xml, contentType: "application/xml")
        #expect(put.status == 201, "\(String(decoding: put.body, as: UTF8.self))")
        let dot = h.text("/v1/storyboards/Main", accept: "text/vnd.graphviz")
        #expect(dot.contains("\"nav-1\" -> \"list-1\" [label=\"rootViewController\""))
        #expect(dot.contains("label=\"show · showSettings\""))
        #expect(dot.contains("reference ▸ Settings"))
        #expect(dot.contains("\"ref-1\" -> \"storyboard:Settings\" [style=dashed"))
        #expect(dot.contains("Storyboard ID: Root"))
        #expect(dot.contains("⚠ "), "diagnostics are marked on their scenes")
        #expect(dot.contains("\"storyboard:entry\" -> \"nav-1\""))
        if dotInstalled { #expect(dotRejects(dot) == nil) }
        let text = h.text("/v1/storyboards/Main", accept: "text/plain")
        #expect(text.contains("nav-1  UINavigationController  Storyboard ID: Root  ◀ initial"))
        #expect(text.contains("relationship rootViewController ▸ list-1"))
        #expect(text.contains("show \"showSettings\" ▸ ref-1"))
        // JSON stays the default, with Vary.
        let json = h.send("GET", "/v1/storyboards/Main")
        #expect(json.headers["content-type"] == "application/json" && json.headers["vary"] == "Accept")
    }

    /// An unwind segue leads to its scene's exit, not to a scene: it is listed inside the scene,
    /// never drawn as a missing destination.
    @Test func unwindSeguesAreListedInsideTheirScene() throws {
        let h = try PictureHarness()
        let xml = #"""
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="21701" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES" initialViewController="a-1">
              <scenes>
                <scene sceneID="s1"><objects>
                  <viewController id="a-1" customClass="AViewController" sceneMemberID="viewController">
                    <connections><segue destination="a-exit" kind="unwind" identifier="back" unwindAction="unwindToStart:" id="u1"/></connections>
                  </viewController>
                  <exit id="a-exit" userLabel="Exit" sceneMemberID="exit"/>
                </objects></scene>
              </scenes>
            </document>
            """#
        #expect(h.send("PUT", "/v1/storyboards/Unwind", xml, contentType: "application/xml").status == 201)
        let dot = h.text("/v1/storyboards/Unwind", accept: "text/vnd.graphviz")
        #expect(!dot.contains("missing:"), "\(dot)")
        #expect(!dot.contains("-> \"a-exit\""), "\(dot)")
        #expect(dot.contains("unwind unwindToStart: · back"), "\(dot)")
        if dotInstalled { #expect(dotRejects(dot) == nil) }
    }

    @Test func aStoryboardPictureFollowsUploads() throws {
        let cache = PictureCache()
        let h = try PictureHarness(cache: cache)
        func upload(_ className: String) {
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="21701" targetRuntime="iOS.CocoaTouch" initialViewController="a"><scenes>
                <scene sceneID="s"><objects><viewController id="a" customClass="\(className)" sceneMemberID="viewController"/></objects></scene>
                </scenes></document>
                """
            #expect(h.send("PUT", "/v1/storyboards/One", xml, contentType: "application/xml").status < 300)
        }
        upload("FirstViewController")
        #expect(h.text("/v1/storyboards/One", accept: "text/vnd.graphviz").contains("FirstViewController"))
        upload("SecondViewController")
        #expect(h.text("/v1/storyboards/One", accept: "text/vnd.graphviz").contains("SecondViewController"))
    }
}

@Suite("Pictures: inspector")
struct InspectorTests {
    @Test func theInspectorIsOneSelfContainedPage() throws {
        let h = try PictureHarness()
        let r = h.send("GET", "/inspector")
        #expect(r.status == 200)
        #expect(r.headers["content-type"] == "text/html; charset=utf-8")
        let page = String(decoding: r.body, as: UTF8.self)
        #expect(page.contains("<style>") && page.contains("<script>"))
        // Nothing fetched from elsewhere: no external scripts, styles or absolute URLs.
        #expect(!page.contains("src=\"http") && !page.contains("href=\"http") && !page.contains("//cdn"))
        #expect(page.contains("/v1/sessions") && page.contains("Authorization"))
        #expect(h.send("POST", "/inspector").status == 405)
    }

    @Test func theInspectorNeedsNoTokenButTheAPIStillDoes() throws {
        let dir = (NSTemporaryDirectory() as NSString).appendingPathComponent("PicturesTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let service = try NavSimService(
            store: SessionStore(path: dir + "/navsim.sqlite", migrationsDirectory: ServiceFiles.migrations),
            openAPI: [], tokens: BearerTokens(["secret"]))
        #expect(service.handle(HTTPRequest(method: "GET", path: "/inspector")).status == 200)
        #expect(service.handle(HTTPRequest(method: "GET", path: "/v1/sessions")).status == 401)
    }

    /// The transition panel reads members of a history entry's `transition` (`t.…` in the page's
    /// `renderEntry`); each one it reads must be there in what the history route answers, or the
    /// panel shows `undefined`. scripts/inspector-test.py checks the same in a browser.
    @Test func theTransitionPanelReadsMembersTheHistoryCarries() throws {
        let h = try PictureHarness()
        h.mailSession()
        let page = String(decoding: h.send("GET", "/inspector").body, as: UTF8.self)
        let start = try #require(page.range(of: "function renderEntry("))
        let end = page.range(of: "\nasync function ", range: start.upperBound..<page.endIndex)?.lowerBound ?? page.endIndex
        let reads = Set(page[start.lowerBound..<end].matches(of: /\bt\.([A-Za-z]+(?:\.[A-Za-z]+)*)/).map { String($0.1) })
        #expect(reads.contains("operation"), "the panel does not read the transition's operation: \(reads.sorted())")

        let history = try JSON.parse(h.send("GET", "/v1/sessions/mail/history?after=-1").body)
        let entries = try #require(history["entries"]?.array)
        #expect(entries.compactMap { $0["version"]?.number } == [0, 1, 2], "the creation is entry 0")
        let presented = try #require(entries.last?["transition"])
        #expect(presented["operation"]?.string == "present")
        for path in reads.sorted() {
            var value: JSON? = presented
            for key in path.split(separator: ".") { value = value?[String(key)] }
            #expect(value != nil, "the page reads transition.\(path), which a history entry's transition does not carry")
        }
    }
}

/// The mail session at its newest version: the sheet's presenting view controller is the
/// window's root (no controller defines a presentation context), so it hangs under `tabs`.
private let EXPECTED_TREE = """
    UIWindow
    └─ tabs  UITabBarController  selected: inboxNav
       ├─ inboxNav  UINavigationController
       │  ├─ inbox  InboxViewController
       │  └─ message  MessageViewController  ◀ top
       └─ settings  SettingsViewController  (view not loaded)
       presents ▸ composeNav  UINavigationController  pageSheet
          └─ compose  ComposeViewController  ◀ top  ◀ visible

    views in window: tabs, inboxNav, message, composeNav, compose
    transition: none in progress

    """

/// Version 1: the message pushed, nothing presented yet.
private let EXPECTED_V1 = """
    UIWindow
    └─ tabs  UITabBarController  selected: inboxNav
       ├─ inboxNav  UINavigationController
       │  ├─ inbox  InboxViewController
       │  └─ message  MessageViewController  ◀ top  ◀ visible
       └─ settings  SettingsViewController  (view not loaded)

    views in window: tabs, inboxNav, message
    transition: none in progress

    """

import Foundation
import HTTPServer
import JSONValues
import Testing
import TestSupport

import NavSimService
import SQLiteStore

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
        case performed(String)
        case refused(String)
        case unwound, unwindIgnored, unreachable
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
        #expect(
            !tally.outcomes.keys.contains { if case let .refused(slug) = $0 { slug != "unknown-storyboard" } else { false } },
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
                                let r = h.send(
                                    "POST", "/v1/sessions/\(sid)/controllers/\(controller)/performSegue",
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
        let found = Set(
            (reply["diagnostics"]?.array ?? []).map {
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
                            !["relationship", "embed"].contains(segue["kind"]?.string ?? "")
                        else { continue }
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
                    byID[d] != nil, byID[d]?["storyboardReference"] == nil
                else { continue }
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
            roots.append(
                (
                    leaf && ["push", "show", "showDetail"].contains(kind)
                        ? .object([("id", .string("corpus-nav")), ("kind", .string("navigationController")), ("viewControllers", .array([direct]))])
                        : direct, sceneID
                ))
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
                let t = h.send(
                    "POST", "/v1/sessions/\(sid)/controllers/\(receiver)/triggerSegue",
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

        let r = h.send(
            "POST", "/v1/sessions/\(sid)/controllers/\(sourceID)/performSegue",
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
            let unresolved =
                reply["diagnostics"]?.array?.contains {
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
        default:  // showDetail: a split's secondary, a push, or a presentation
            #expect(dest["parent"]?.string != nil || dest["presentingViewController"]?.string != nil, "\(context)")
        }
        return .performed(kind)
    }
}

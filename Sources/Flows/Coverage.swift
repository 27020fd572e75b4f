import Foundation
import HTTPServer
import JSONValues
import NavigationCore
import Storyboards
import Synchronization

/// What `navsim test --coverage` records (docs/flows.md "Coverage"): for each storyboard the flows
/// uploaded, which of its segues were performed, the presentation styles its controllers were
/// presented with and the operations its containers ran.
///
/// Everything comes from what the flows sent and what the replies said (the uploaded XML, the
/// `prepareForSegue` events, each controller's `storyboard` origin, the transitions), never from
/// the service's internals, so a suite played in-process and the same suite played against a
/// server with `--base` give the same coverage.
public final class CoverageRecorder: FlowObserver {
    private let state = Mutex(CoverageState())

    /// A recorder with nothing recorded; `--coverage` gives one to the runner.
    public init() {}

    public func observe(_ exchange: FlowExchange) {
        state.withLock { $0.observe(exchange) }
    }

    /// What was recorded so far, storyboards in the order the flows first uploaded them.
    public func report() -> CoverageReport {
        state.withLock { $0.report() }
    }
}

/// A storyboard document the flows uploaded: where its lines are, and its segues.
struct CoveredFile: Sendable {
    /// The `.storyboard` path (relative to the working directory when it lies below it), or
    /// for XML written inline in a flow, `FLOW#NAME` with the name as the flow writes it.
    var key: String
    var inline: Bool
    var storyboard: Storyboard
    var positions: [String: SourcePosition]
    var data: [UInt8]
}

/// The recorder's state, behind its lock.
struct CoverageState: Sendable {
    var files: [String: CoveredFile] = [:]
    var order: [String] = []
    /// Storyboard name on the server → file key, and the uploads parsed under the server's names
    /// (so that references and Storyboard IDs resolve as the server resolves them).
    var uploads: [String: String] = [:]
    var library = StoryboardLibrary()
    /// File key → segue id → times performed.
    var performed: [String: [String: Int]] = [:]
    /// File key → presentation style → presentations of its controllers.
    var styles: [String: [String: Int]] = [:]
    /// File key → container scene id → operation → count.
    var operations: [String: [String: [String: Int]]] = [:]
    /// Session → controller → its scene, as far as the replies tell.
    var scenes: [String: [String: SceneAddress]] = [:]
    /// Session → controller → its last reported Controller object.
    var controllers: [String: [String: JSON]] = [:]

    mutating func observe(_ e: FlowExchange) {
        guard (200..<300).contains(e.reply.status) else { return }
        let path = e.request.path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            String($0).removingPercentEncoding ?? String($0)
        }
        guard segments.count >= 2, segments[0] == "v1" else { return }
        switch (e.request.method, segments[1], segments.count) {
        case ("PUT", "storyboards", 3): upload(named: segments[2], e)
        case ("DELETE", "storyboards", 3):
            uploads[segments[2]] = nil
            _ = library.remove(named: segments[2])
        case ("POST", "sessions", 2):
            guard let doc = e.document, let sid = doc["id"]?.string else { return }
            scenes[sid] = [:]
            controllers[sid] = [:]
            session(sid, doc, request: nil)
        case (let method, "sessions", 3...) where method != "GET" && method != "HEAD":
            guard let doc = e.document else { return }
            session(segments[2], doc, request: (Array(segments.dropFirst(3)), e.request))
        default: return
        }
    }

    /// `PUT /v1/storyboards/NAME` with the XML a step sent: the file is the step's `xmlFile`, or
    /// the flow itself for XML written inline.
    mutating func upload(named name: String, _ e: FlowExchange) {
        let key: String
        switch e.step.body {
        case .xmlFile(_, let resolved): key = Self.displayPath(resolved)
        case .xml:
            let written = e.step.path.split(separator: "/").last.map(String.init) ?? name
            key = "\(e.file)#\(written.removingPercentEncoding ?? written)"
        default: return
        }
        guard let parsed = try? StoryboardParser.parseWithPositions(name: name, data: e.request.body) else { return }
        _ = library.insert(parsed.storyboard)
        uploads[name] = key
        if files[key] == nil {
            let inline = if case .xml = e.step.body { true } else { false }
            files[key] = CoveredFile(
                key: key, inline: inline, storyboard: parsed.storyboard, positions: parsed.positions, data: e.request.body)
            order.append(key)
        }
    }

    /// A path below the working directory relative to it, as CI coverage viewers match files
    /// against the repository's paths; any other path absolute.
    static func displayPath(_ path: String) -> String {
        let standard = URL(fileURLWithPath: path).standardizedFileURL.path
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return standard.hasPrefix(prefix) ? String(standard.dropFirst(prefix.count)) : standard
    }

    /// A reply about session `sid`: learn its controllers' scenes, then count what its events and
    /// transitions did. `request` is the operation's path below the session and the request.
    mutating func session(_ sid: String, _ doc: JSON, request: ([String], HTTPRequest)?) {
        var listed: [(String, JSON)] = (doc["session"]?["controllers"] ?? doc["controllers"])?.object ?? []
        // `POST …/controllers` answers with the one controller it made.
        if request?.0 == ["controllers"], let id = doc["id"]?.string { listed = [(id, doc)] }
        for (id, controller) in listed {
            controllers[sid, default: [:]][id] = controller
            if scenes[sid]?[id] == nil, let address = scene(of: id, controller) { scenes[sid, default: [:]][id] = address }
        }
        // What each result answers: the operation of the path, or a turn's `operations[i]`.
        var asked: [Operation] = []
        if let request, let body = try? JSON.parse(request.1.body) {
            let rest = request.0
            if rest == ["turns"] {
                asked = (body["operations"]?.array ?? []).map {
                    Operation(receiver: $0["controller"]?.string ?? "", name: $0["operation"]?.string ?? "", body: $0)
                }
            } else if rest.count == 3, rest[0] == "controllers" {
                asked = [Operation(receiver: rest[1], name: rest[2], body: body)]
            }
        }
        let results = doc["results"]?.array ?? [doc]
        for (i, result) in results.enumerated() {
            for event in result["events"]?.array ?? [] where event["callback"]?.string == "prepareForSegue" {
                segue(event, in: sid, asked: i < asked.count ? asked[i] : nil)
            }
            if let transition = result["transition"], transition.object != nil { self.transition(transition, in: sid) }
        }
    }

    /// The scene a controller was instantiated from, from its `storyboard` origin: the scene with
    /// its Storyboard ID, else the scene whose element id its id is (`~2` suffixes dropped), else
    /// the entry point (a spec that named its own `id`). Segue destinations are corrected by
    /// ``segue(_:in:asked:)``, which knows the scene for certain.
    func scene(of id: String, _ controller: JSON) -> SceneAddress? {
        guard let origin = controller["storyboard"], let name = origin["name"]?.string, let storyboard = library[name] else { return nil }
        func address(_ resolved: Result<ResolvedScene, ResolutionError>) -> SceneAddress? {
            guard case .success(let r) = resolved else { return nil }
            return SceneAddress(storyboard: r.storyboard, sceneID: r.scene.id)
        }
        if let identifier = origin["identifier"]?.string {
            return address(library.resolve(identifier: identifier, in: name))
        }
        let base = id.split(separator: "~").first.map(String.init) ?? id
        if let scene = storyboard.scene(id: base), !scene.isReference { return SceneAddress(storyboard: name, sceneID: scene.id) }
        return address(library.resolveInitial(of: name))
    }

    /// A `prepareForSegue` event: the segue of the source's scene it names, counted once.
    /// An operation a request asked for: its receiver, its name and its body.
    struct Operation {
        var receiver: String
        var name: String
        var body: JSON
    }

    mutating func segue(_ event: JSON, in sid: String, asked: Operation?) {
        guard let info = event["segue"], let source = info["source"]?.string,
            let address = scenes[sid]?[source], let storyboard = library[address.storyboard],
            let scene = storyboard.scene(id: address.sceneID), let key = uploads[address.storyboard]
        else { return }
        let identifier = info["identifier"]?.string
        let performable = scene.segues.filter { $0.kind != .relationship && $0.kind != .embed }
        var found: Segue?
        // The request that performed it names it by identifier or (triggerSegue) element id.
        if let asked, asked.receiver == source {
            if asked.name == "performSegue", let name = asked.body["identifier"]?.string {
                found = performable.first { $0.identifier == name }
            } else if asked.name == "triggerSegue", let name = asked.body["segue"]?.string {
                found = performable.first { $0.identifier == name } ?? performable.first { $0.id == name }
            }
            if found?.identifier != identifier { found = nil }
        }
        if found == nil {
            let named = performable.filter { $0.identifier == identifier }
            if identifier != nil || named.count == 1 {
                found = named.first
            } else if let destination = info["destination"]?.string, let target = scenes[sid]?[destination] {
                // Segues without an identifier: the one whose destination the new controller is.
                let leading = named.filter { segue in
                    guard case .success(let r) = library.resolveDestination(of: segue, in: address.storyboard) else { return false }
                    return SceneAddress(storyboard: r.storyboard, sceneID: r.scene.id) == target
                }
                if leading.count == 1 { found = leading.first }
            }
        }
        guard let segue = found else { return }
        performed[key, default: [:]][segue.id, default: 0] += 1
        if segue.kind != .unwind, let destination = info["destination"]?.string,
            case .success(let r) = library.resolveDestination(of: segue, in: address.storyboard)
        {
            scenes[sid, default: [:]][destination] = SceneAddress(storyboard: r.storyboard, sceneID: r.scene.id)
        }
    }

    /// Operations that a container runs on its children, by the container member that names it.
    static let containerOperations: [String: String] = [
        "push": "navigationController", "pop": "navigationController", "popTo": "navigationController",
        "popToRoot": "navigationController", "interactivePop": "navigationController",
        "setViewControllers": "navigationController", "select": "tabBarController",
        "showDetail": "splitViewController", "show": "parent", "addSubview": "parent",
        "removeFromSuperview": "parent", "transitionChild": "parent", "removeFromParent": "parent",
    ]

    /// A reply's transition: a presentation counts its style for the presented controller's
    /// storyboard, a container operation counts for the container's scene.
    mutating func transition(_ t: JSON, in sid: String) {
        guard let operation = t["operation"]?.string else { return }
        let to = t["toViewController"]?.string
        let from = t["fromViewController"]?.string
        if operation == "present" {
            guard let to, let style = t["presentationStyle"]?.string, let address = scenes[sid]?[to],
                let key = uploads[address.storyboard]
            else { return }
            styles[key, default: [:]][style, default: 0] += 1
            return
        }
        guard let member = Self.containerOperations[operation] else { return }
        let known = controllers[sid] ?? [:]
        func container(_ id: String?) -> String? {
            guard let id, let c = known[id] else { return nil }
            return c[member]?.string ?? (member == "parent" ? nil : c["parent"]?.string)
        }
        // After a pop the popped controller has left, and the one shown names the container.
        guard let id = container(to) ?? container(from), let address = scenes[sid]?[id],
            let key = uploads[address.storyboard]
        else { return }
        operations[key, default: [:]][address.sceneID, default: [:]][operation, default: 0] += 1
    }

    func report() -> CoverageReport {
        CoverageReport(
            storyboards: order.compactMap { key in
                guard let file = files[key] else { return nil }
                return CoverageReport.Storyboard(
                    file: file, performed: performed[key] ?? [:], styles: styles[key] ?? [:],
                    operations: operations[key] ?? [:])
            })
    }
}

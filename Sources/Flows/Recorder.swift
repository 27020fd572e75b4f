import Foundation
import HTTPServer
public import JSONValues
import NavSimService
import NavigationCore

/// `navsim record`: turns a session's history into a flow that replays it and expects what each
/// request answered then (docs/flows.md "Recording").
///
/// What history keeps decides what is expected. Each entry keeps the request (method, path, JSON
/// body) and its outcome (events, transition, returned value, warnings) but not the reply's status
/// or headers, so those are derived: 201 for `POST …/controllers`, 200 otherwise, and the ETag of
/// the entry's version. The session's creation (version 0) is sent again with the body entry 0
/// kept (the session id made unique per run); an entry 0 stored before bodies were kept has none,
/// and then the flow rebuilds the body from the initial state (id, traits, options and the root
/// hierarchy; a classic split from its primary and secondary, since collapsed it nests the
/// secondary in the primary; a root's `on` code cannot be rebuilt, replies list it only as
/// operation, receiver and `once`). Either way the step expects the created window, controllers,
/// events and warnings to equal the recorded ones, so a creation that does not reproduce fails at
/// step 1 instead of passing wrongly.
public struct Recorder: Sendable {
    /// Sent as `Authorization: Bearer TOKEN` when set.
    public var token: String?

    /// A recorder that reads with `token`, if any.
    public init(token: String? = nil) { self.token = token }

    /// Why a flow could not be recorded (no such session, the server refused a read…).
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The reply to `GET path` asking for `accept`, whatever its status.
    func read(_ path: String, accept: String, on target: any FlowTarget) throws(Failure) -> HTTPResponse {
        var headers = HTTPHeaders([("Accept", accept)])
        if let token { headers["Authorization"] = "Bearer \(token)" }
        do { return try target.send(HTTPRequest(method: "GET", path: path, headers: headers)) } catch {
            throw Failure(message: error.message)
        }
    }

    func get(_ path: String, on target: any FlowTarget) throws(Failure) -> JSON {
        let reply = try read(path, accept: "application/json", on: target)
        let doc = try? JSON.parse(reply.body)
        guard reply.status == 200, let doc else { throw Self.refused(path, reply, doc) }
        return doc
    }

    static func refused(_ path: String, _ reply: HTTPResponse, _ doc: JSON?) -> Failure {
        let detail = doc?["detail"]?.string ?? String(decoding: reply.body.prefix(200), as: UTF8.self)
        return Failure(message: "GET \(path): \(reply.status) \(detail)")
    }

    /// `text` as a path segment.
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? text
    }

    /// The flow for session `sid`, as JSON ready to be written out.
    /// - Throws: `Failure` when the session or its history cannot be read.
    public func record(session sid: String, on target: any FlowTarget) throws(Failure) -> JSON {
        let encoded = Self.segment(sid)
        let initial = try get("/v1/sessions/\(encoded)?version=0", on: target)
        var entries: [JSON] = []
        var after = 0
        while true {
            let page = try get("/v1/sessions/\(encoded)/history?after=\(after)&limit=1000", on: target)
            entries += page["entries"]?.array ?? []
            // `next` is the last version of the page; anything else would loop or trap.
            guard let next = page["next"]?.number, let n = Int(exactly: next), n > after else { break }
            after = n
        }
        // Entry 0, the creation: its events (the root appearing) are expected again; entries
        // stored before they were kept have none, and then none are expected.
        let creation = try get("/v1/sessions/\(encoded)/history?after=-1&limit=1", on: target)["entries"]?.array?.first
        // The storyboards the session named, in its state then and now and in every request.
        let current = try get("/v1/sessions/\(encoded)", on: target)
        var named = Self.storyboardNames(inState: initial) + Self.storyboardNames(inState: current)
        for body in [creation?["request"]?["body"]] + entries.map({ $0["request"]?["body"] }) {
            if let body { named += Self.storyboardNames(inBody: body) }
        }
        let (uploads, missing) = try storyboardSteps(named, on: target)
        var steps = uploads
        steps.append(
            creationStep(
                sid: sid, initial: initial, events: creation?["events"]?.array ?? [],
                warnings: creation?["warnings"]?.array ?? [], sent: creation?["request"]?["body"]))
        for entry in entries { steps.append(step(for: entry, sid: sid)) }
        var about = "Made by navsim record: replays the session's \(entries.count) recorded requests in a new session and expects what each one answered then."
        if !uploads.isEmpty {
            about += " First uploads the storyboards it used, with their class and custom segue declarations, as the server had them when recorded."
        }
        if !missing.isEmpty {
            about += " The server no longer had storyboard(s) \(missing.joined(separator: ", ")): upload them before replaying."
        }
        return .object([
            ("name", .string("session \(sid) as recorded")),
            ("about", .string(about)),
            ("steps", .array(steps)),
        ])
    }

    /// Storyboard names of the controllers of a session reply (`controllers.*.storyboard.name`).
    static func storyboardNames(inState state: JSON) -> [String] {
        (state["controllers"]?.object ?? []).compactMap { $0.1["storyboard"]?["name"]?.string }
    }

    /// Storyboard names a request body gives: every string member `storyboard` at any depth
    /// (a ControllerSpec's, in `on` code too).
    static func storyboardNames(inBody body: JSON) -> [String] {
        switch body {
        case .object(let members):
            return members.flatMap { key, value in
                (key == "storyboard" ? value.string.map { [$0] } ?? [] : []) + storyboardNames(inBody: value)
            }
        case .array(let items): return items.flatMap(storyboardNames(inBody:))
        default: return []
        }
    }

    /// Steps that upload storyboards `names` and those their references name, as the server
    /// has them now: the document as uploaded (`Accept: application/xml`), then its class and
    /// custom segue declarations when it has any. Uploads keep their names, since
    /// ControllerSpecs, the recorded replies and other storyboards' references name them. A name
    /// the server no longer has is returned in `missing`.
    func storyboardSteps(_ names: [String], on target: any FlowTarget) throws(Failure) -> (steps: [JSON], missing: [String]) {
        var pending = names, seen = Set<String>(), steps: [JSON] = [], missing: [String] = []
        while !pending.isEmpty {
            let name = pending.removeFirst()
            guard seen.insert(name).inserted else { continue }
            let path = "/v1/storyboards/\(Self.segment(name))"
            let reply = try read(path, accept: "application/json", on: target)
            let doc = try? JSON.parse(reply.body)
            if reply.status == 404 { missing.append(name); continue }
            guard reply.status == 200, let doc else { throw Self.refused(path, reply, doc) }
            for scene in doc["scenes"]?.array ?? [] {
                if let other = scene["storyboardReference"]?["storyboardName"]?.string { pending.append(other) }
            }
            let document = try read(path, accept: "application/xml", on: target)
            guard document.status == 200, document.headers["Content-Type"]?.hasPrefix("application/xml") == true else {
                throw Failure(
                    message:
                        "GET \(path) as application/xml: \(document.status) \(String(decoding: document.body.prefix(200), as: UTF8.self)) (a navsim server older than navsim record?)"
                )
            }
            // The flow's strings are read with placeholders: a literal `${` is written `$${`.
            let step = "PUT " + Self.escaped(path)
            steps.append(
                .object([
                    ("name", .string("upload storyboard \(name)")),
                    ("do", .string(step)),
                    ("xml", .string(Self.escaped(String(decoding: document.body, as: UTF8.self)))),
                    ("expect", .object([("status", .object([("$oneOf", .array([.number(200), .number(201)]))]))])),
                ]))
            for (member, route) in [("classes", "classes"), ("customSegues", "customSegues")] {
                guard let declared = doc[member], !declared.isNull else { continue }
                steps.append(
                    .object([
                        ("name", .string("declare storyboard \(name)'s \(member)")),
                        ("do", .string("\(step)/\(route)")),
                        ("body", Self.escaped(declared)),
                        ("expect", .object([("status", .number(200)), ("json", .object([(member, Self.escaped(declared))]))])),
                    ]))
            }
        }
        return (steps, missing)
    }

    /// `text` with each `${` written `$${`, so a flow reads it back as it is.
    static func escaped(_ text: String) -> String { text.replacingOccurrences(of: "${", with: "$${") }

    /// `json` with every string and member name ``escaped(_:)``.
    static func escaped(_ json: JSON) -> JSON {
        switch json {
        case .string(let s): return .string(escaped(s))
        case .array(let items): return .array(items.map(escaped))
        case .object(let members): return .object(members.map { (escaped($0.0), escaped($0.1)) })
        default: return json
        }
    }

    /// `members` of a kept creation body with `options.iOS` set to `release` when the body left it
    /// to the default: the flow then replays on the release the session was recorded on, whatever
    /// `IOSRelease.default` is when it is played (docs/ios-profiles.md).
    static func namingRelease(_ members: [(String, JSON)], _ release: JSON?) -> [(String, JSON)] {
        guard let release, !release.isNull else { return members }
        var members = members
        let at = members.firstIndex { $0.0 == "options" }
        var options = at.flatMap { members[$0].1.object } ?? []
        if let given = options.first(where: { $0.0 == "iOS" }), !given.1.isNull { return members }
        options.removeAll { $0.0 == "iOS" }
        options.insert(("iOS", release), at: 0)
        if let at { members[at].1 = .object(options) } else { members.insert(("options", .object(options)), at: 0) }
        return members
    }

    /// Step 1: the creation, expecting the recorded window, controllers, events and — when the
    /// root's lifecycle code warned (D7…) — the same warnings. `sent` is the body entry 0 kept:
    /// sent again with its `id` replaced; without one the body is rebuilt from `initial`.
    func creationStep(sid: String, initial: JSON, events: [JSON] = [], warnings: [JSON] = [], sent: JSON? = nil) -> JSON {
        let id: (String, JSON) = ("id", .string("\(sid)-${run}"))
        var body: [(String, JSON)] = [id]
        let controllers = initial["controllers"] ?? .object([])
        if let sent = sent?.object {
            body += Self.namingRelease(sent.filter { $0.0 != "id" }, initial["options"]?["iOS"])
        } else {
            if let t = initial["traits"] { body.append(("traits", t)) }
            if let o = initial["options"] { body.append(("options", o)) }
            if let root = initial["window"]?["rootViewController"]?.string {
                body.append(("root", spec(root, in: controllers)))
            }
        }
        return .object([
            ("name", .string("create the session")),
            ("do", .string("POST /v1/sessions")),
            ("body", .object(body)),
            (
                "expect",
                .object([
                    ("status", .number(201)),
                    (
                        "json",
                        .object(
                            [("window", initial["window"] ?? .null), ("controllers", controllers)]
                                + (events.isEmpty ? [] : [("events", .array(events))])
                                + (warnings.isEmpty ? [] : [("warnings", .array(warnings))]))
                    ),
                ])
            ),
            ("save", .object([("sid", .string("id"))])),
        ])
    }

    /// A ControllerSpec that builds controller `id` and what it contains as the state shows it,
    /// leaving out the controllers in `omitted` (a collapsed split's secondary, which the
    /// collapse put inside the primary's stack: the rebuilt split collapses it there again).
    func spec(_ id: String, in controllers: JSON, omitting omitted: Set<String> = []) -> JSON {
        guard let c = controllers[id] else { return .object([("id", .string(id))]) }
        let spec = { (child: String) in self.spec(child, in: controllers, omitting: omitted) }
        if let sb = c["storyboard"], let name = sb["name"]?.string {
            var m: [(String, JSON)] = [("storyboard", .string(name))]
            if let ident = sb["identifier"]?.string { m.append(("identifier", .string(ident))) }
            m.append(("id", .string(id)))
            return .object(m)
        }
        let kind = c["kind"]?.string ?? "viewController"
        var m: [(String, JSON)] = [("id", .string(id))]
        if kind != "viewController" { m.append(("kind", .string(kind))) }
        if let cls = c["class"]?.string { m.append(("class", .string(cls))) }
        if let t = c["title"]?.string { m.append(("title", .string(t))) }
        if let s = c["modalPresentationStyle"]?.string, s != "automatic" { m.append(("modalPresentationStyle", .string(s))) }
        if let s = c["modalTransitionStyle"]?.string, s != "coverVertical" { m.append(("modalTransitionStyle", .string(s))) }
        // Every flag of the core's field table (false by default) that the reply shows set.
        for field in ControllerConfiguration.fields where c[field.name]?.bool == true {
            guard case .bool = field.storedValue(ControllerConfiguration()) else { continue }
            m.append((field.name, .bool(true)))
        }
        for key in [
            "traitOverrides", "transitioningDelegate", "presentationDelegate", "navigationDelegate", "tabBarDelegate",
            "sheetPresentationController", "pageDataSource", "pageDelegate",
        ] {
            if let o = c[key]?.object { m.append((key, .object(o.filter { !$0.1.isNull }))) }
        }
        for key in ["preferredContentSize", "shouldPerformSegue", "unwindActions", "customizableViewControllers"] {
            if let v = c[key], !v.isNull { m.append((key, v)) }
        }
        var contained: [String] = []
        switch kind {
        case "navigationController", "tabBarController", "pageViewController":
            contained = (c["viewControllers"]?.array ?? []).compactMap(\.string)
            m.append(("viewControllers", .array(contained.filter { !omitted.contains($0) }.map(spec))))
            if kind == "tabBarController", let i = c["selectedIndex"]?.number { m.append(("selectedIndex", .number(i))) }
            if kind == "pageViewController" {
                for key in ["transitionStyle", "spineLocation", "isDoubleSided"] {
                    if let v = c[key], !v.isNull { m.append((key, v)) }
                }
            }
        case "splitViewController":
            if let style = c["style"]?.string { m.append(("style", .string(style))) }
            if c["style"]?.string == "unspecified" {
                // A classic split is built from [primary, secondary]. Collapsed, its children
                // are the primary alone, the secondary pushed onto (or nested in) the primary's
                // stack: rebuilt from the children it would nest the secondary in the primary
                // and lose it on expanding, so the split's own primary and secondary are used.
                if let primary = c["primary"]?.string {
                    let secondary = c["secondary"]?.string.flatMap { $0 == primary ? nil : $0 }
                    contained = [primary] + (secondary.map { [$0] } ?? [])
                    let inner = omitted.union(secondary.map { [$0] } ?? [])
                    m.append(
                        (
                            "viewControllers",
                            .array(
                                [self.spec(primary, in: controllers, omitting: inner)] + (secondary.map { [spec($0)] } ?? []))
                        ))
                } else {
                    contained = (c["children"]?.array ?? []).compactMap(\.string)
                    m.append(("viewControllers", .array(contained.map(spec))))
                }
            } else {
                for column in ["primary", "supplementary", "secondary"] {
                    if let child = c[column]?.string {
                        contained.append(child)
                        m.append((column, spec(child)))
                    }
                }
            }
        default: break
        }
        let others = (c["children"]?.array ?? []).compactMap(\.string).filter { !contained.contains($0) && !omitted.contains($0) }
        if !others.isEmpty { m.append(("children", .array(others.map(spec)))) }
        return .object(m)
    }

    func step(for entry: JSON, sid: String) -> JSON {
        let version = entry["version"]?.number.flatMap { Int(exactly: $0) } ?? 0
        let method = entry["request"]?["method"]?.string ?? "POST"
        var path = entry["request"]?["path"]?.string ?? "/"
        let prefix = "/v1/sessions/\(sid)"
        if path == prefix || path.hasPrefix(prefix + "/") { path = "/v1/sessions/${sid}" + path.dropFirst(prefix.count) }
        let creates = method == "POST" && path.hasSuffix("/controllers")
        let turn = method == "POST" && path.hasSuffix("/turns")
        var json: [(String, JSON)] = []
        var expect: [(String, JSON)] = [
            ("status", .number(creates ? 201 : 200)),
            ("headers", .object([("ETag", .string("\"\(version)\""))])),
        ]
        if turn {
            json.append(("version", .number(Double(version))))
            let events = (entry["events"]?.array ?? []).map { e in
                JSON.string("\(e["controller"]?.string ?? "null").\(e["callback"]?.string ?? "null")")
            }
            expect.append(("json", .object(json)))
            expect.append(("events", .array(events)))
        } else if !creates {
            json.append(("version", .number(Double(version))))
            json.append(("transition", entry["transition"] ?? .null))
            json.append(("events", entry["events"] ?? .array([])))
            if let r = entry["returned"] { json.append(("returned", r)) }
            json.append(("warnings", entry["warnings"] ?? .object([("$absent", .bool(true))])))
            expect.append(("json", .object(json)))
        }
        var step: [(String, JSON)] = [("name", .string("version \(version)")), ("do", .string("\(method) \(path)"))]
        if let body = entry["request"]?["body"], !body.isNull { step.append(("body", body)) }
        step.append(("expect", .object(expect)))
        return .object(step)
    }
}

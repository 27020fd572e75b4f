import Foundation
public import JSONValues
import NavSimService

/// One flow: a named list of steps played in order against one navsim (docs/flows.md).
///
/// A flow file holds one flow object, or a JSON array of them.
public struct Flow: Sendable {
    /// Shown on the result line and as the JUnit test case name; `nil` shows the file alone.
    public var name: String?
    /// Free text for readers; never checked.
    public var about: String?
    /// Played in order; the flow stops at the first step whose reply differs.
    public var steps: [Step]
    /// The file the flow came from (relative paths in `xmlFile` resolve against its folder).
    public var file: String

    /// A flow as code builds it; files go through `load(file:)`.
    public init(name: String?, about: String? = nil, steps: [Step], file: String) {
        self.name = name
        self.about = about
        self.steps = steps
        self.file = file
    }
}

/// One request and what its reply must look like.
public struct Step: Sendable {
    /// Shown in failure lines; defaults to the request line (`POST /v1/sessions`).
    public var name: String?
    /// The HTTP method, e.g. `"POST"`.
    public var method: String
    /// Path and query, with `${name}` placeholders, e.g. `/v1/sessions/${sid}/history?after=0`.
    public var path: String
    /// What the request carries.
    public var body: Body
    /// Extra request header fields (placeholders allowed in values).
    public var headers: [(String, String)]
    /// What the reply must satisfy; empty means any 2xx.
    public var expect: ReplyExpectation
    /// Variables to set from the reply: variable name → JSON path (`id`, `$.session.version`).
    public var save: [(String, JSONPath)]

    /// What `name` or the request line says, for messages.
    public var label: String { name ?? "\(method) \(path)" }
}

/// A step's request body.
public enum Body: Sendable {
    case none
    /// Sent as `application/json` (placeholders substituted in every string).
    case json(JSON)
    /// Sent as-is, with no Content-Type unless the step's headers give one (placeholders substituted).
    case raw(String)
    /// Sent as `application/xml` (placeholders substituted).
    case xml(String)
    /// A file's bytes, sent as `application/xml`, unchanged: the path as written and resolved.
    case xmlFile(written: String, resolved: String)
}

/// What a reply must satisfy. Every part is optional.
public struct ReplyExpectation: Sendable {
    /// A number or a matcher object for the status code; `nil` means any 2xx.
    public var status: JSON?
    /// Header field name → a string the value must start with, or a matcher object.
    public var headers: [(String, JSON)] = []
    /// JSON path → a value (compared exactly) or a matcher object.
    public var json: [(JSONPath, JSON)] = []
    /// The reply's events, exactly and in this order.
    public var events: [EventPattern]?
    /// These events, in this order, other events allowed between them.
    public var eventsInclude: [EventPattern]?
    /// None of these events may occur.
    public var eventsExclude: [EventPattern] = []

    /// Expects nothing but a 2xx status.
    public init() {}
}

/// An expected event: a controller id and a callback name (`"B.viewDidLoad"` or `["B", "viewDidLoad"]`).
public struct EventPattern: Sendable, Equatable, CustomStringConvertible {
    /// The controller id, as events name it.
    public var controller: String
    /// The callback name, e.g. `viewWillAppear`.
    public var callback: String
    /// A pattern for `callback` on `controller`.
    public init(controller: String, callback: String) {
        self.controller = controller
        self.callback = callback
    }
    public var description: String { "\(controller).\(callback)" }
}

/// Why a flow file cannot be read: the file and what is wrong, with the JSON path of the key.
public struct FlowFormatError: Error, Sendable, CustomStringConvertible {
    /// The flow file.
    public var file: String
    /// Where in the file (a JSON path) and what is wrong.
    public var message: String
    public var description: String { "\(file): \(message)" }
    /// An error about `file`.
    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }
}

// MARK: - Reading flow files

extension Flow {
    /// Reads every flow in `file` (one object, or an array of objects).
    /// - Throws: `FlowFormatError` naming the key that is wrong; nothing is played then.
    public static func load(file: String) throws(FlowFormatError) -> [Flow] {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw FlowFormatError(file: file, message: "cannot read the file")
        }
        let json: JSON
        do { json = try JSON.parse(Array(data)) } catch {
            throw FlowFormatError(file: file, message: error.description)
        }
        return try decode(json, file: file)
    }

    /// Decodes flows from parsed JSON; `file` is used for messages and to resolve `xmlFile`.
    public static func decode(_ json: JSON, file: String) throws(FlowFormatError) -> [Flow] {
        var reader = FlowReader(file: file)
        if let items = json.array {
            var flows: [Flow] = []
            for (i, item) in items.enumerated() { flows.append(try reader.flow(item, at: "$[\(i)]")) }
            return flows
        }
        return [try reader.flow(json, at: "$")]
    }

    /// The `.json` files a list of files and folders names: folders are searched recursively,
    /// each folder's files in name order; a file given by name is taken whatever its extension.
    public static func files(in paths: [String]) -> [String] {
        var out: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else { out.append(path); continue }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            let found = (fm.enumerator(atPath: base)?.compactMap { $0 as? String } ?? [])
                .filter { $0.hasSuffix(".json") }.sorted()
            out += found.map { base + "/" + $0 }
        }
        return out
    }
}

/// Decodes the flow format; unknown keys are errors, so a misspelt expectation cannot pass silently.
struct FlowReader {
    let file: String

    func fail(_ at: String, _ message: String) -> FlowFormatError {
        FlowFormatError(file: file, message: "\(at): \(message)")
    }

    func members(_ json: JSON, at: String, allowed: [String]) throws(FlowFormatError) -> [(String, JSON)] {
        guard let m = json.object else { throw fail(at, "expected an object") }
        for (key, _) in m where !allowed.contains(key) {
            throw fail(at, "unknown key '\(key)' (allowed: \(allowed.joined(separator: ", ")))")
        }
        return m
    }

    func string(_ json: JSON?, at: String) throws(FlowFormatError) -> String? {
        guard let json else { return nil }
        guard let s = json.string else { throw fail(at, "expected a string") }
        return s
    }

    mutating func flow(_ json: JSON, at: String) throws(FlowFormatError) -> Flow {
        _ = try members(json, at: at, allowed: ["name", "about", "rules", "steps"])
        guard let steps = json["steps"]?.array else { throw fail(at, "a flow needs \"steps\": [...]") }
        var out: [Step] = []
        for (i, s) in steps.enumerated() { out.append(try step(s, at: "\(at).steps[\(i)]")) }
        return Flow(
            name: try string(json["name"], at: at + ".name"), about: try string(json["about"], at: at + ".about"),
            steps: out, file: file)
    }

    func step(_ json: JSON, at: String) throws(FlowFormatError) -> Step {
        _ = try members(json, at: at, allowed: ["name", "do", "body", "raw", "xml", "xmlFile", "headers", "expect", "save"])
        guard let line = json["do"]?.string else { throw fail(at, "a step needs \"do\": \"METHOD /path\"") }
        let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[1].hasPrefix("/") else { throw fail(at + ".do", "expected \"METHOD /path\", got \"\(line)\"") }
        let bodies = ["body", "raw", "xml", "xmlFile"].filter { json[$0] != nil }
        guard bodies.count <= 1 else { throw fail(at, "give one of body, raw, xml, xmlFile; got \(bodies.joined(separator: " and "))") }
        var body = Body.none
        if let b = json["body"] { body = .json(b) }
        if let r = try string(json["raw"], at: at + ".raw") { body = .raw(r) }
        if let x = try string(json["xml"], at: at + ".xml") { body = .xml(x) }
        if let f = try string(json["xmlFile"], at: at + ".xmlFile") {
            let resolved = f.hasPrefix("/") ? f : URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(f).path
            body = .xmlFile(written: f, resolved: resolved)
        }
        var headers: [(String, String)] = []
        if let h = json["headers"] {
            for (k, v) in try members(h, at: at + ".headers", allowed: h.object?.map(\.0) ?? []) {
                guard let s = v.string else { throw fail("\(at).headers.\(k)", "a header value is a string") }
                headers.append((k, s))
            }
        }
        var save: [(String, JSONPath)] = []
        if let s = json["save"] {
            for (k, v) in try members(s, at: at + ".save", allowed: s.object?.map(\.0) ?? []) {
                guard let p = v.string else { throw fail("\(at).save.\(k)", "a JSON path string, e.g. \"id\"") }
                save.append((k, try path(p, at: "\(at).save.\(k)")))
            }
        }
        let expect = try json["expect"].map { e throws(FlowFormatError) in try expectation(e, at: at + ".expect") } ?? ReplyExpectation()
        return Step(
            name: try string(json["name"], at: at + ".name"), method: String(parts[0]), path: String(parts[1]),
            body: body, headers: headers, expect: expect, save: save)
    }

    func path(_ text: String, at: String) throws(FlowFormatError) -> JSONPath {
        do { return try JSONPath(text) } catch { throw fail(at, error.message) }
    }

    func expectation(_ json: JSON, at: String) throws(FlowFormatError) -> ReplyExpectation {
        _ = try members(json, at: at, allowed: ["status", "headers", "json", "events", "eventsInclude", "eventsExclude"])
        var e = ReplyExpectation()
        if let s = json["status"] {
            guard s.number != nil || Matcher.isMatcher(s) else { throw fail(at + ".status", "a status code or a matcher object") }
            try checkMatchers(s, at: at + ".status")
            e.status = s
        }
        if let h = json["headers"] {
            for (k, v) in try members(h, at: at + ".headers", allowed: h.object?.map(\.0) ?? []) {
                guard v.string != nil || Matcher.isMatcher(v) else { throw fail("\(at).headers.\(k)", "a string prefix or a matcher object") }
                try checkMatchers(v, at: "\(at).headers.\(k)")
                e.headers.append((k, v))
            }
        }
        if let j = json["json"] {
            for (k, v) in try members(j, at: at + ".json", allowed: j.object?.map(\.0) ?? []) {
                try checkMatchers(v, at: "\(at).json[\"\(k)\"]")
                e.json.append((try path(k, at: "\(at).json[\"\(k)\"]"), v))
            }
        }
        e.events = try json["events"].map { v throws(FlowFormatError) in try events(v, at: at + ".events") }
        e.eventsInclude = try json["eventsInclude"].map { v throws(FlowFormatError) in try events(v, at: at + ".eventsInclude") }
        e.eventsExclude = try json["eventsExclude"].map { v throws(FlowFormatError) in try events(v, at: at + ".eventsExclude") } ?? []
        return e
    }

    /// Every `{"$…": …}` object inside an expected value must be a known matcher.
    func checkMatchers(_ json: JSON, at: String) throws(FlowFormatError) {
        if let problem = Matcher.validate(json) { throw fail(at, problem) }
    }

    func events(_ json: JSON, at: String) throws(FlowFormatError) -> [EventPattern] {
        guard let items = json.array else { throw fail(at, "a list of events, e.g. [\"A.viewDidLoad\"]") }
        var out: [EventPattern] = []
        for (i, item) in items.enumerated() {
            if let s = item.string, let dot = s.lastIndex(of: "."), dot != s.startIndex, s.index(after: dot) != s.endIndex {
                out.append(EventPattern(controller: String(s[..<dot]), callback: String(s[s.index(after: dot)...])))
            } else if let pair = item.array, pair.count == 2, let c = pair[0].string, let cb = pair[1].string {
                out.append(EventPattern(controller: c, callback: cb))
            } else {
                throw fail("\(at)[\(i)]", "an event is \"controller.callback\" or [\"controller\", \"callback\"]")
            }
        }
        return out
    }
}

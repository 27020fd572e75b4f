import Foundation
public import HTTPServer
public import JSONValues
import NavSimService

/// Why a flow failed: the step (1-based, with its label) and what differed.
public struct FlowFailure: Error, Sendable, CustomStringConvertible {
    /// 1-based; 0 when the flow file itself could not be read.
    public var step: Int
    public var label: String
    /// The first difference, or what else went wrong (no reply, unknown variable…).
    public var message: String
    public var description: String { step == 0 ? message : "step \(step) \"\(label)\": \(message)" }

    /// A failure at `step` (1-based; 0 for the file itself).
    public init(step: Int, label: String, message: String) {
        self.step = step
        self.label = label
        self.message = message
    }
}

/// One flow's outcome.
public struct FlowResult: Sendable {
    /// The flow file.
    public var file: String
    /// The flow's name, if it has one.
    public var name: String?
    /// `nil` when every step passed.
    public var failure: FlowFailure?
    /// Wall-clock seconds the flow took (reported in JUnit only).
    public var seconds: Double
    public var passed: Bool { failure == nil }

    /// A result as the runner builds it (tests build them for the JUnit writer).
    public init(file: String, name: String?, failure: FlowFailure?, seconds: Double) {
        self.file = file
        self.name = name
        self.failure = failure
        self.seconds = seconds
    }

    /// `file :: name`, or the file alone for a flow without a name.
    public var title: String { name.map { "\(file) :: \($0)" } ?? file }

    /// The result line `navsim test` prints: `ok   TITLE` or `FAIL TITLE: step N "label": …`.
    public var line: String { failure.map { "FAIL \(title): \($0)" } ?? "ok   \(title)" }
}

/// One request a step sent and the reply it got, as a ``FlowObserver`` sees them.
public struct FlowExchange: Sendable {
    /// The flow file the step belongs to.
    public var file: String
    /// The step as written (its `xmlFile` path resolved).
    public var step: Step
    /// The request as sent, placeholders filled in.
    public var request: HTTPRequest
    /// The reply, and its body parsed when it is JSON.
    public var reply: HTTPResponse
    public var document: JSON?
}

/// Sees every reply a flow gets, whether or not it meets the step's expectation: what the flows
/// exercised is what the server did, not what they asserted (`navsim test --coverage`).
public protocol FlowObserver: Sendable {
    func observe(_ exchange: FlowExchange)
}

/// Plays flows against a target (docs/flows.md).
public struct FlowRunner: Sendable {
    /// Sent as `Authorization: Bearer TOKEN` on every request when set (a server started with a token).
    public var token: String?
    /// Told of every request and reply, in order.
    public var observer: (any FlowObserver)?

    /// A runner that authenticates with `token`, if any, and tells `observer` of every exchange.
    public init(token: String? = nil, observer: (any FlowObserver)? = nil) {
        self.token = token
        self.observer = observer
    }

    /// Plays every step of `flow` in order on `target` and stops at the first step whose reply
    /// differs from its expectation. Each play gets a fresh `${run}`: ten hex digits unique to it.
    public func play(_ flow: Flow, on target: any FlowTarget) -> FlowResult {
        let clock = ContinuousClock()
        let start = clock.now
        var vars = Variables(["run": .string(String(UUID().uuidString.lowercased().filter(\.isHexDigit).prefix(10)))])
        var failure: FlowFailure?
        for (i, step) in flow.steps.enumerated() {
            do {
                try play(step, of: flow.file, on: target, vars: &vars)
            } catch {
                failure = FlowFailure(step: i + 1, label: step.label, message: error.message)
                break
            }
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return FlowResult(file: flow.file, name: flow.name, failure: failure, seconds: seconds)
    }

    struct StepError: Error {
        var message: String
        init(_ message: String) { self.message = message }
        init(_ m: Mismatch) { message = m.description }
    }

    /// The request a step sends once its placeholders are filled in.
    func request(for step: Step, vars: Variables) throws(StepError) -> HTTPRequest {
        do {
            var headers = HTTPHeaders([("Accept", "application/json")])
            if let token { headers["Authorization"] = "Bearer \(token)" }
            var body: [UInt8] = []
            switch step.body {
            case .none: break
            case .json(let j):
                body = try vars.json(j).bytes
                headers["Content-Type"] = "application/json"
            case .raw(let s): body = Array(try vars.text(s).utf8)
            case .xml(let s):
                body = Array(try vars.text(s).utf8)
                headers["Content-Type"] = "application/xml"
            case .xmlFile(let written, let resolved):
                guard let data = FileManager.default.contents(atPath: resolved) else {
                    throw StepError("cannot read xmlFile \(written) (\(resolved))")
                }
                body = Array(data)
                headers["Content-Type"] = "application/xml"
            }
            for (k, v) in step.headers { headers[k] = try vars.text(v) }
            return HTTPRequest(method: step.method, path: try vars.text(step.path), headers: headers, body: body)
        } catch let e as StepError {
            throw e
        } catch let e as Variables.Unknown {
            throw StepError("unknown variable ${\(e.name)} (no earlier step saved it)")
        } catch {
            throw StepError("\(error)")
        }
    }

    func play(_ step: Step, of file: String, on target: any FlowTarget, vars: inout Variables) throws(StepError) {
        let request = try request(for: step, vars: vars)
        let reply: HTTPResponse
        do { reply = try target.send(request) } catch { throw StepError(error.message) }
        let doc: JSON? = reply.body.isEmpty ? nil : try? JSON.parse(reply.body)
        observer?.observe(FlowExchange(file: file, step: step, request: request, reply: reply, document: doc))
        let expect: ReplyExpectation
        do { expect = try Self.substituted(step.expect, vars) } catch {
            throw StepError("unknown variable ${\(error.name)} (no earlier step saved it)")
        }
        if let m = Self.check(expect, reply: reply, doc: doc) {
            throw StepError(m.description + (Self.warnings(in: doc).map { "; the reply warned: \($0)" } ?? ""))
        }
        for (name, path) in step.save {
            guard let doc, let value = path.lookup(in: doc) else {
                throw StepError("cannot save \(name): the reply has no \(path)")
            }
            vars[name] = value
        }
    }

    static func substituted(_ e: ReplyExpectation, _ vars: Variables) throws(Variables.Unknown) -> ReplyExpectation {
        var out = e
        if let s = e.status { out.status = try vars.json(s) }
        out.headers = []
        for (k, v) in e.headers { out.headers.append((k, try vars.json(v))) }
        out.json = []
        for (p, v) in e.json { out.json.append((p, try vars.json(v))) }
        func fill(_ list: [EventPattern]) throws(Variables.Unknown) -> [EventPattern] {
            var filled: [EventPattern] = []
            for p in list { filled.append(EventPattern(controller: try vars.text(p.controller), callback: try vars.text(p.callback))) }
            return filled
        }
        if let list = e.events { out.events = try fill(list) }
        if let list = e.eventsInclude { out.eventsInclude = try fill(list) }
        out.eventsExclude = try fill(e.eventsExclude)
        return out
    }

    /// The reply's warnings as one line (`slug: detail`, with UIKit's code first when it has
    /// one), from its `warnings` or, for a turn, each `results[i].warnings`; nil when none. A
    /// failing step shows them: a warning such as `unwind-destination-not-found` often says why
    /// the events or the state differ, which the first differing path alone does not.
    static func warnings(in doc: JSON?) -> String? {
        guard let doc else { return nil }
        let items = (doc["warnings"]?.array ?? []) + (doc["results"]?.array ?? []).flatMap { $0["warnings"]?.array ?? [] }
        let lines: [String] = items.map { w in
            let slug = w["type"]?.string.map { String($0.split(separator: "/").last ?? "") } ?? "warning"
            let code = w["uikit"]?["code"]?.string.map { "\($0) " } ?? ""
            return "\(code)\(slug)" + (w["detail"]?.string.map { ": \($0)" } ?? "")
        }
        return lines.isEmpty ? nil : lines.joined(separator: "; ")
    }

    /// The reply's events as patterns: its `events`, or for a turn every `results[i].events` in order.
    static func events(in doc: JSON?) -> (label: String, events: [EventPattern])? {
        guard let doc else { return nil }
        func patterns(_ items: [JSON]) -> [EventPattern] {
            items.map { EventPattern(controller: $0["controller"]?.string ?? "null", callback: $0["callback"]?.string ?? "null") }
        }
        if let e = doc["events"]?.array { return ("$.events", patterns(e)) }
        if let results = doc["results"]?.array {
            return ("events of $.results", patterns(results.flatMap { $0["events"]?.array ?? [] }))
        }
        return nil
    }

    /// The first way `reply` differs from `expect`, checked in this order: status, headers, JSON
    /// paths, exact events, included events, excluded events.
    public static func check(_ expect: ReplyExpectation, reply: HTTPResponse, doc: JSON?) -> Mismatch? {
        let excerpt = String(decoding: reply.body.prefix(300), as: UTF8.self)
        if let want = expect.status {
            if Matcher.check(want, .number(Double(reply.status)), at: JSONPath([])) != nil {
                return Mismatch(path: "status", expected: Matcher.show(want), actual: "\(reply.status) \(excerpt)")
            }
        } else if !(200..<300).contains(reply.status) {
            return Mismatch(path: "status", expected: "2xx", actual: "\(reply.status) \(excerpt)")
        }
        for (name, want) in expect.headers {
            let got = reply.headers[name]
            if let prefix = want.string {
                if got?.hasPrefix(prefix) != true {
                    return Mismatch(path: "header \(name)", expected: "\"\(prefix)…\"", actual: got.map { "\"\($0)\"" } ?? "nothing")
                }
            } else if let m = Matcher.check(want, got.map(JSON.string), at: JSONPath([])) {
                return Mismatch(path: "header \(name)", expected: m.expected, actual: m.actual)
            }
        }
        if !expect.json.isEmpty {
            guard let doc else { return Mismatch(path: "$", expected: "a JSON reply", actual: excerpt.isEmpty ? "an empty body" : excerpt) }
            for (path, want) in expect.json {
                if let m = Matcher.check(want, path.lookup(in: doc), at: path) { return m }
            }
        }
        // A reply without events (a refusal, a read) has fired none: exclusions hold, others cannot.
        guard let (label, got) = events(in: doc) else {
            guard expect.events == nil && expect.eventsInclude == nil else {
                return Mismatch(path: "$.events", expected: "events", actual: "a reply without events")
            }
            return nil
        }
        func show(_ list: [EventPattern]) -> String { "[" + list.map(\.description).joined(separator: ", ") + "]" }
        if let want = expect.events {
            for i in 0..<max(want.count, got.count) where i >= want.count || i >= got.count || want[i] != got[i] {
                return Mismatch(
                    path: "\(label)[\(i)]", expected: i < want.count ? "\"\(want[i])\"" : "nothing (\(want.count) events)",
                    actual: (i < got.count ? "\"\(got[i])\"" : "nothing (\(got.count) events)") + " in \(show(got))")
            }
        }
        if let want = expect.eventsInclude {
            var rest = got[...]
            for (n, w) in want.enumerated() {
                guard let at = rest.firstIndex(of: w) else {
                    let after = n == 0 ? "" : " after \"\(want[n - 1])\""
                    return Mismatch(path: label, expected: "\"\(w)\"\(after)", actual: show(got))
                }
                rest = rest[(at + 1)...]
            }
        }
        for unwanted in expect.eventsExclude {
            if let at = got.firstIndex(of: unwanted) {
                return Mismatch(path: "\(label)[\(at)]", expected: "no \"\(unwanted)\"", actual: "\"\(unwanted)\" in \(show(got))")
            }
        }
        return nil
    }
}

/// Finds, reads and plays flow files: what `navsim test` does, minus the printing.
public struct FlowSuite: Sendable {
    /// Plays each flow.
    public var runner: FlowRunner
    /// Makes the target each flow plays on: a fresh in-process service, or the same server each time.
    public var makeTarget: @Sendable () throws -> any FlowTarget

    /// A suite that plays with `runner` on a target from `makeTarget`, called once per flow.
    public init(runner: FlowRunner, makeTarget: @escaping @Sendable () throws -> any FlowTarget) {
        self.runner = runner
        self.makeTarget = makeTarget
    }

    /// Plays every flow of every file under `paths`, calling `report` with each result as it is
    /// known. A file that cannot be read counts as one failed flow (step 0) and plays nothing.
    public func run(_ paths: [String], report: (FlowResult) -> Void = { _ in }) -> [FlowResult] {
        var results: [FlowResult] = []
        for file in Flow.files(in: paths) {
            let flows: [Flow]
            do { flows = try Flow.load(file: file) } catch {
                let r = FlowResult(file: file, name: nil, failure: FlowFailure(step: 0, label: "", message: "invalid flow: \(error.message)"), seconds: 0)
                report(r)
                results.append(r)
                continue
            }
            for flow in flows {
                let r: FlowResult
                do {
                    let target = try makeTarget()
                    r = runner.play(flow, on: target)
                } catch {
                    r = FlowResult(file: file, name: flow.name, failure: FlowFailure(step: 0, label: "", message: "no target: \(error)"), seconds: 0)
                }
                report(r)
                results.append(r)
            }
        }
        return results
    }

    /// The last line of `navsim test`: `N passed, N failed`.
    public static func summary(_ results: [FlowResult]) -> String {
        let failed = results.filter { !$0.passed }.count
        return "\(results.count - failed) passed, \(failed) failed"
    }
}

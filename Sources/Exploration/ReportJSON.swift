public import JSONValues
import NavigationCore

/// Explore's report and paths as JSON, shared by the command line and the route.
public enum ExploreJSON {
    /// The report as `navsim explore --format json` and `POST /v1/storyboards/{name}/explore` give
    /// it (docs/explore.md "JSON"): `locate` places a storyboard's element (the file when known),
    /// `setup` is the steps a path follows.
    public static func report(
        _ report: ExploreReport, locate: (String, String?) -> (file: String?, line: Int, column: Int), setup: [JSON]
    ) -> JSON {
        let findings: [JSON] = report.findings.map { f in
            let at = locate(f.storyboard, f.element)
            return .object([
                ("kind", .string(f.kind.rawValue)), ("severity", .string(f.isError ? "error" : "warning")),
                ("storyboard", .string(f.storyboard)), ("scene", .from(f.scene)), ("segue", .from(f.segue)),
                ("code", .from(f.code)), ("message", .string(f.message)), ("file", .from(at.file)),
                ("line", .number(Double(at.line))), ("column", .number(Double(at.column))),
                ("path", .array(f.path.map { flowStep($0) })),
            ])
        }
        let notPerformed: [JSON] = report.notPerformed.map { s in
            let at = locate(s.storyboard, s.segue)
            return .object([
                ("segue", .string(s.segue)), ("scene", .string(s.scene)), ("storyboard", .string(s.storyboard)),
                ("reason", .string(s.reason)), ("file", .from(at.file)), ("line", .number(Double(at.line))),
            ])
        }
        return .object([
            ("states", .number(Double(report.states))), ("transitions", .number(Double(report.transitions))),
            ("truncated", .bool(report.truncated)),
            (
                "segues",
                .object([
                    ("total", .number(Double(report.seguesTotal))), ("performed", .number(Double(report.seguesPerformed))),
                    ("notPerformed", .array(notPerformed)),
                    (
                        "performedSegues",
                        .array(
                            report.performed.map { .object([("storyboard", .string($0.storyboard)), ("segue", .string($0.segue))]) })
                    ),
                ])
            ),
            ("findings", .array(findings)),
            ("setup", .array(setup)),
        ])
    }

    /// A step as a flow step (docs/flows.md): the request, and what the reply must show.
    /// A step's request body as JSON.
    static func body(_ members: [(String, ExploreStep.BodyValue)]) -> [(String, JSON)] {
        members.map { name, value in
            switch value {
            case let .string(s): (name, .string(s))
            case let .int(i): (name, .number(Double(i)))
            case let .bool(b): (name, .bool(b))
            }
        }
    }

    /// A double tap as a turn (docs/api.md "Turns"): both operations, the second's result checked.
    static func raceStep(_ step: ExploreStep, first: ExploreAction, second: ExploreAction) -> JSON {
        let operations: [JSON] = [first, second].map { action in
            .object(
                [("controller", .string(action.receiver)), ("operation", .string(action.operation))] + body(action.body))
        }
        var json: [(String, JSON)] = []
        if let code = step.refusal?.code {
            json.append(("results[1].uikit.code", .string(code)))
        } else if let refusal = step.refusal {
            json.append(("results[1].detail", .string(refusal.message)))
        }
        return .object([
            ("name", .string(step.action.summary)),
            ("do", .string("POST /v1/sessions/${sid}/turns")),
            ("body", .object([("operations", .array(operations))])),
            ("expect", .object([("status", .number(200))] + (json.isEmpty ? [] : [("json", .object(json))]))),
        ])
    }

    public static func flowStep(_ step: ExploreStep) -> JSON {
        if case let .race(first, second) = step.action { return raceStep(step, first: first, second: second) }
        let cid = percentEncoded(step.action.receiver)
        var body: [(String, JSON)] = []
        for (name, value) in step.body {
            switch value {
            case let .string(s): body.append((name, .string(s)))
            case let .int(i): body.append((name, .number(Double(i))))
            case let .bool(b): body.append((name, .bool(b)))
            }
        }
        var expect: [(String, JSON)] = []
        if let refusal = step.refusal {
            expect.append(("status", .number(409)))
            if let code = refusal.code { expect.append(("json", .object([("uikit.code", .string(code))]))) }
        } else {
            expect.append(("status", .number(200)))
            expect.append(
                (
                    "json",
                    .object([
                        ("session.window.rootViewController", .from(step.rootViewController)),
                        ("session.window.visibleViewController", .from(step.visibleViewController)),
                    ])
                ))
            expect.append(("events", .array(step.events.map { .string($0) })))
        }
        return .object([
            ("name", .string(step.action.summary)),
            ("do", .string("POST /v1/sessions/${sid}/controllers/\(cid)/\(step.action.operation)")),
            ("body", .object(body)), ("expect", .object(expect)),
        ])
    }

    /// A path segment with everything but RFC 3986's unreserved characters percent-encoded.
    static func percentEncoded(_ s: String) -> String {
        var out = ""
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return out
    }
}

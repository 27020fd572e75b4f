import Foundation
import Storyboards

/// The output formats of `navsim lint --format` (docs/lint.md has an example of each).
public enum LintFormat: String, Sendable, CaseIterable {
    /// Xcode/clang style, one line per finding: `file:line:column: warning: message [rule-id]`.
    case text
    /// One JSON object: `{"files", "errors", "warnings", "findings": [{file, line, column,
    /// severity, rule, message, element}]}`.
    case json
    /// SARIF 2.1.0 (OASIS): one run, `tool.driver` with every rule, one result per finding.
    case sarif
    /// GitHub Actions workflow commands: `::warning file=…,line=…,col=…,title=rule::message`.
    case github

    /// The report in this format, ending with a newline (text: the findings then a summary line).
    public func render(_ report: LintReport) -> String {
        switch self {
        case .text: Self.text(report)
        case .json: Self.json(report)
        case .sarif: Self.sarif(report)
        case .github: Self.github(report)
        }
    }

    /// The report of another tool in this format (`navsim explore`): SARIF names `tool` and
    /// lists `rules`; the other formats read the findings alone.
    public func render(_ report: LintReport, tool: String, rules: [LintRule]) -> String {
        self == .sarif ? Self.sarif(report, tool: tool, rules: rules) : render(report)
    }

    static func text(_ report: LintReport) -> String {
        var out = ""
        for f in report.findings {
            out += "\(f.file):\(f.line):\(f.column): \(f.severity.rawValue): \(f.message) [\(f.rule)]\n"
        }
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        out +=
            "\(plural(report.files.count, "storyboard")): \(plural(report.errorCount, "error")), "
            + "\(plural(report.warningCount, "warning"))\n"
        return out
    }

    static func encode(_ object: Any) -> String {
        let data =
            (try? JSONSerialization.data(
                withJSONObject: object,
                options: [
                    .prettyPrinted, .sortedKeys,
                    .withoutEscapingSlashes,
                ])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func json(_ report: LintReport) -> String {
        let findings: [[String: Any]] = report.findings.map { f in
            var object: [String: Any] = [
                "file": f.file, "line": f.line, "column": f.column,
                "severity": f.severity.rawValue, "rule": f.rule, "message": f.message,
            ]
            object["element"] = f.element ?? NSNull()
            return object
        }
        return encode([
            "files": report.files, "errors": report.errorCount, "warnings": report.warningCount,
            "findings": findings,
        ])
    }

    /// SARIF 2.1.0 §3.13 (run), §3.19 (toolComponent), §3.27 (result), §3.30 (physicalLocation).
    static func sarif(_ report: LintReport, tool: String = "navsim lint", rules: [LintRule] = LintRule.all) -> String {
        sarif(findings: report.findings, files: report.files, tool: tool, rules: rules)
    }

    /// A SARIF 2.1.0 log of one run of `tool`, whose `rules` the findings name by id: lint's
    /// writer, shared with the other commands that report places in storyboard files
    /// (`navsim test --coverage-sarif`).
    public static func sarif(findings: [LintFinding], files: [String], tool: String, rules: [LintRule]) -> String {
        let index = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        let driver: [String: Any] = [
            "name": tool,
            "rules": rules.map { rule -> [String: Any] in
                [
                    "id": rule.id, "shortDescription": ["text": rule.summary],
                    "defaultConfiguration": ["level": rule.severity.rawValue],
                ]
            },
        ]
        let results: [[String: Any]] = findings.map { f in
            var result: [String: Any] = [
                "ruleId": f.rule,
                "level": f.severity.rawValue,
                "message": ["text": f.message],
                "locations": [
                    [
                        "physicalLocation": [
                            "artifactLocation": ["uri": uri(f.file)],
                            "region": ["startLine": f.line, "startColumn": f.column],
                        ]
                    ]
                ],
            ]
            if let i = index[f.rule] { result["ruleIndex"] = i }
            return result
        }
        return encode([
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [
                [
                    "tool": ["driver": driver], "results": results,
                    "artifacts": files.map { ["location": ["uri": uri($0)]] },
                ]
            ],
        ])
    }

    /// A URI for a path (RFC 3986, spaces and the like percent-encoded): relative paths stay relative
    /// references, absolute ones become `file://` URIs (RFC 8089).
    static func uri(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":")
        let trimmed = normalised(path)
        let encoded = trimmed.addingPercentEncoding(withAllowedCharacters: allowed) ?? trimmed
        return trimmed.hasPrefix("/") ? "file://" + encoded : encoded
    }

    /// A path as the formats for machines write it: without leading `./` (GitHub matches an
    /// annotation's `file` against the repository's paths, which have none), as SARIF's URIs are.
    static func normalised(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.hasPrefix("./") { trimmed = trimmed.dropFirst(2).drop { $0 == "/" } }
        return String(trimmed)
    }

    /// Workflow command escaping: data escapes `%`, CR, LF; properties also `:` and `,`.
    static func github(_ report: LintReport) -> String {
        func data(_ s: String) -> String {
            s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
                .replacingOccurrences(of: "\n", with: "%0A")
        }
        func property(_ s: String) -> String {
            data(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
        }
        return report.findings.map { f in
            "::\(f.severity.rawValue) file=\(property(normalised(f.file))),line=\(f.line),col=\(f.column),"
                + "title=\(property(f.rule))::\(data(f.message))\n"
        }.joined()
    }
}

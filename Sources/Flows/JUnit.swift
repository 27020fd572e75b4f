/// JUnit XML, the report format CI systems read (the `testsuites`/`testsuite`/`testcase` schema
/// that Jenkins, GitLab and GitHub test reporters accept).
///
/// One `<testsuite>` per flow file and one `<testcase>` per flow (`classname` is the file, `name`
/// the flow's name or the file); a failed flow has one `<failure>` whose `message` is the step
/// and the first difference. `time` is in seconds.
public enum JUnit {
    /// The whole report for `results`, in their order; `suiteName` names the `<testsuites>` root.
    public static func xml(_ results: [FlowResult], suiteName: String = "navsim flows") -> String {
        var files: [String] = []
        for r in results where !files.contains(r.file) { files.append(r.file) }
        let failed = results.filter { !$0.passed }.count
        let total = results.reduce(0) { $0 + $1.seconds }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(escape(suiteName))\" tests=\"\(results.count)\" failures=\"\(failed)\" errors=\"0\" time=\"\(seconds(total))\">\n"
        for file in files {
            let mine = results.filter { $0.file == file }
            let f = mine.filter { !$0.passed }.count
            out +=
                "  <testsuite name=\"\(escape(file))\" tests=\"\(mine.count)\" failures=\"\(f)\" errors=\"0\" skipped=\"0\" time=\"\(seconds(mine.reduce(0) { $0 + $1.seconds }))\">\n"
            for r in mine {
                let open = "    <testcase classname=\"\(escape(file))\" name=\"\(escape(r.name ?? file))\" time=\"\(seconds(r.seconds))\""
                if let failure = r.failure {
                    out += open + ">\n"
                    out += "      <failure message=\"\(escape(failure.description))\" type=\"\(failure.step == 0 ? "invalid-flow" : "mismatch")\">\(escape(r.line))</failure>\n"
                    out += "    </testcase>\n"
                } else {
                    out += open + "/>\n"
                }
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    static func seconds(_ s: Double) -> String {
        let ms = Int((s * 1000).rounded())
        let frac = String(ms % 1000)
        return "\(ms / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
    }

    /// Text safe in XML 1.0 content and double-quoted attributes: the five markup characters as
    /// entities, tab/newline/return as character references (so attributes keep them), and the
    /// characters XML 1.0 cannot carry at all (other C0 controls, U+FFFE, U+FFFF) as U+FFFD.
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default:
                if u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF { out += "\u{FFFD}" } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }
}

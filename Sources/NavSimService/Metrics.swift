import Synchronization

/// Prometheus histograms (text exposition format 0.0.4) for `/metrics`, one series per label set.
///
/// Each series keeps a count per bucket, the sum and the count of observations; the exposition
/// writes the buckets cumulatively (`_bucket{le="…"}`, ending with `le="+Inf"`), then `_sum` and
/// `_count`, as Prometheus expects. Observing takes one lock and no allocation once a label set
/// has been seen. Label sets must come from a bounded set (route templates, status codes), never
/// from raw client input.
final class HistogramFamily: Sendable {
    /// Metric name without suffixes, e.g. `navsim_http_request_duration_seconds`.
    let name: String
    let help: String
    /// Upper bounds of the buckets, ascending, in the metric's unit; `+Inf` is implied.
    let bounds: [Double]
    private let boundLabels: [String]
    private let series = Mutex<[String: Series]>([:])

    private struct Series {
        var buckets: [Int]
        var sum = 0.0
        var count = 0
    }

    init(name: String, help: String, bounds: [Double]) {
        self.name = name
        self.help = help
        self.bounds = bounds
        boundLabels = bounds.map { Self.number($0) }
    }

    /// Durations from 100 µs to 10 s, in seconds.
    static let secondsBounds: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    /// Records `value` in the series named by `labels`, already rendered (`method="GET",route="/"`;
    /// empty for none).
    func observe(_ value: Double, labels: String = "") {
        var index = bounds.count
        for (i, bound) in bounds.enumerated() where value <= bound {
            index = i
            break
        }
        let width = bounds.count + 1
        series.withLock { all in
            // One hash of the label set per observation, not one per field.
            Self.record(&all[labels, default: Series(buckets: Array(repeating: 0, count: width))], index, value)
        }
    }

    private static func record(_ series: inout Series, _ index: Int, _ value: Double) {
        series.buckets[index] += 1
        series.sum += value
        series.count += 1
    }

    /// `# HELP`, `# TYPE … histogram` and every series' lines, label sets in sorted order.
    func write(into out: inout String) {
        let snapshot = series.withLock { $0 }
        out += "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
        for labels in snapshot.keys.sorted() {
            guard let s = snapshot[labels] else { continue }
            let prefix = labels.isEmpty ? "" : labels + ","
            var cumulative = 0
            for (i, count) in s.buckets.enumerated() {
                cumulative += count
                let le = i < boundLabels.count ? boundLabels[i] : "+Inf"
                out += "\(name)_bucket{\(prefix)le=\"\(le)\"} \(cumulative)\n"
            }
            let braces = labels.isEmpty ? "" : "{\(labels)}"
            out += "\(name)_sum\(braces) \(Self.number(s.sum))\n\(name)_count\(braces) \(s.count)\n"
        }
    }

    /// A label value quoted for the exposition format: `\`, `"` and newlines escaped.
    static func quoted(_ value: String) -> String {
        var out = "\""
        for c in value {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out + "\""
    }

    /// A sample value: integers without a fraction, others as Swift prints a Double.
    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
    }
}

/// The histograms of one service (docs/api.md, `GET /metrics`).
struct ServiceMetrics: Sendable {
    /// Time from the handler's start to its reply, by route template, method and status.
    let requestDuration = HistogramFamily(
        name: "navsim_http_request_duration_seconds",
        help: "Time to answer a request, by route template (\"unmatched\" when no route ran), method and status.",
        bounds: HistogramFamily.secondsBounds)
    /// Time one caller waits in `SessionStore.commit`: its queue wait plus the synced transaction.
    let commitDuration = HistogramFamily(
        name: "navsim_store_commit_duration_seconds",
        help: "Time a durable commit took as its request saw it (group-commit wait and sync included).",
        bounds: HistogramFamily.secondsBounds)
    /// Commits per SQLite transaction (group commit).
    let batchSize = HistogramFamily(
        name: "navsim_store_batch_size",
        help: "Commits written by one SQLite transaction (group commit batch size).",
        bounds: [1, 2, 4, 8, 16, 32, 64, 128, 256])

    /// Seconds in a `Duration`.
    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}

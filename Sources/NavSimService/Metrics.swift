import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Prometheus histograms (text exposition format 0.0.4) for `/metrics`, one series per label set.
///
/// Each series keeps a count per bucket, the sum and the count of observations; the exposition
/// writes the buckets cumulatively (`_bucket{le="…"}`, ending with `le="+Inf"`), then `_sum` and
/// `_count`, as Prometheus expects. Observing takes one lock and no allocation once a label set
/// has been seen; the lock is one of ``shardCount``, picked by the observing thread
/// (``ThreadNumber``), so pool threads recording at once do not wait on each other (one
/// lock for every request made concurrent GETs spin on it), and the exposition adds the shards up. Label sets must come from a bounded set (route templates, status codes), never
/// from raw client input.
final class HistogramFamily: Sendable {
    /// Metric name without suffixes, e.g. `navsim_http_request_duration_seconds`.
    let name: String
    let help: String
    /// Upper bounds of the buckets, ascending, in the metric's unit; `+Inf` is implied.
    let bounds: [Double]
    private let boundLabels: [String]
    /// The observations, split by observing thread (``ThreadNumber``): a thread always records in
    /// the same shard, so a shard's lock is almost never contended.
    private let shards: [Shard]
    /// Shards per family: more than the HTTP server's default pool of 8 threads.
    static let shardCount = 16

    private final class Shard: Sendable {
        let state = Mutex(State())
    }

    /// Runs `body` on the calling thread's shard, under its lock.
    private func withState<T>(_ body: (inout State) -> T) -> T {
        shards[ThreadNumber.current % Self.shardCount].state.withLock { body(&$0) }
    }

    private struct Series {
        /// The rendered label set, e.g. `method="GET",route="/"`; empty for none.
        let labels: String
        var buckets: [Int]
        var sum = 0.0
        var count = 0
    }

    /// The series in the order they were first seen, found by their label text or by a
    /// caller's interned ``SeriesKey``.
    private struct State {
        var series: [Series] = []
        var byLabels: [String: Int] = [:]
        var byKey: [SeriesKey: Int] = [:]
    }

    /// A caller's compact name for one label set (for the request histogram: the route's index
    /// in the router, HEAD or not, and the status), so a request observes without rendering or
    /// hashing label text (`/healthz` and `GET` allocation-light). Two keys must not
    /// stand for different label sets.
    struct SeriesKey: Hashable, Sendable {
        var a: Int
        var b: Int
    }

    init(name: String, help: String, bounds: [Double]) {
        self.name = name
        self.help = help
        self.bounds = bounds
        boundLabels = bounds.map { Self.number($0) }
        shards = (0..<Self.shardCount).map { _ in Shard() }
    }

    /// Durations from 100 µs to 10 s, in seconds.
    static let secondsBounds: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    /// Records `value` in the series named by `labels`, already rendered (`method="GET",route="/"`;
    /// empty for none).
    func observe(_ value: Double, labels: String = "") {
        let index = bucket(value)
        withState { state in
            // One hash of the label set per observation, not one per field.
            let at = state.byLabels[labels] ?? Self.add(labels, to: &state, width: bounds.count + 1)
            Self.record(&state.series[at], index, value)
        }
    }

    /// Records `value` in the series `key` stands for; `labels` renders that series' label set
    /// the first time the key is seen (the exposition is the same as from ``observe(_:labels:)``
    /// with that text).
    func observe(_ value: Double, key: SeriesKey, labels: () -> String) {
        let index = bucket(value)
        withState { state in
            let at: Int
            if let known = state.byKey[key] {
                at = known
            } else {
                let text = labels()
                at = state.byLabels[text] ?? Self.add(text, to: &state, width: bounds.count + 1)
                state.byKey[key] = at
            }
            Self.record(&state.series[at], index, value)
        }
    }

    /// The index of the first bucket whose bound is at least `value`; `bounds.count` for `+Inf`.
    private func bucket(_ value: Double) -> Int {
        for (i, bound) in bounds.enumerated() where value <= bound { return i }
        return bounds.count
    }

    private static func add(_ labels: String, to state: inout State, width: Int) -> Int {
        state.series.append(Series(labels: labels, buckets: Array(repeating: 0, count: width)))
        state.byLabels[labels] = state.series.count - 1
        return state.series.count - 1
    }

    private static func record(_ series: inout Series, _ index: Int, _ value: Double) {
        series.buckets[index] += 1
        series.sum += value
        series.count += 1
    }

    /// `# HELP`, `# TYPE … histogram` and every series' lines, label sets in sorted order.
    func write(into out: inout String) {
        // The shards' series added up by label set.
        var merged: [String: Series] = [:]
        for shard in shards {
            for s in shard.state.withLock({ $0.series }) {
                guard var sum = merged[s.labels] else { merged[s.labels] = s; continue }
                for i in sum.buckets.indices { sum.buckets[i] += s.buckets[i] }
                sum.sum += s.sum
                sum.count += s.count
                merged[s.labels] = sum
            }
        }
        out += "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
        for s in merged.values.sorted(by: { $0.labels < $1.labels }) {
            let labels = s.labels
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

/// `navsim_store_up`: 1 while the store's database answered its last operation (or probe), 0
/// while it is unreachable; what `/readyz` answers (``SessionStoring/checkReachability()``).
/// Always 1 with SQLite. Prometheus's own `up` names a scrape target that answers; this one, the
/// store behind a target that does.
enum StoreUpGauge {
    static func text(reachable: Bool) -> String {
        """
        # HELP navsim_store_up Whether the store's database answered its last operation (1) or is unreachable (0).
        # TYPE navsim_store_up gauge
        navsim_store_up \(reachable ? 1 : 0)

        """
    }
}

/// A small number for the calling thread: 0 for the first thread that asks, 1 for the next, and
/// so on, kept in a `pthread` key (no allocation, and no lock after a thread's first call). Used to
/// spread per-request records over shards.
enum ThreadNumber {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
    private static let next = Atomic<Int>(0)

    /// The calling thread's number.
    static var current: Int {
        if let stored = pthread_getspecific(key) { return Int(bitPattern: stored) - 1 }
        let number = next.wrappingAdd(1, ordering: .relaxed).oldValue & Int(Int32.max)
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: number + 1))
        return number
    }
}

/// The service's counters, shared by the pieces that count (``RequestMetrics``,
/// ``ProblemResponses``, the write runtime) and `/metrics`, which reads them.
final class ServiceCounters: Sendable {
    /// `navsim_requests_total`.
    let requests = Atomic<Int>(0)
    /// `navsim_uikit_refusals_total`.
    let refusals = Atomic<Int>(0)
}

import Foundation
import HTTPServer
import Testing

@testable import NavSimService

/// `/metrics` in Prometheus' text format: counters, gauges and histograms.
@Suite struct MetricsTests {
    /// One sample line: name, labels, value.
    struct Sample: Equatable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    /// Parses the exposition; records an issue for any line that is neither a comment nor a sample.
    func parse(_ text: String) -> (samples: [Sample], types: [String: String]) {
        var samples: [Sample] = []
        var types: [String: String] = [:]
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                if parts.count == 4 { types[String(parts[2])] = String(parts[3]) }
                continue
            }
            if line.hasPrefix("#") { continue }
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                Issue.record("not a sample: \(line)")
                continue
            }
            let head = line[..<space]
            var labels: [String: String] = [:]
            var name = String(head)
            if let open = head.firstIndex(of: "{"), head.last == "}" {
                name = String(head[..<open])
                let inner = head[head.index(after: open)..<head.index(before: head.endIndex)]
                // Values here hold no commas or escaped quotes, except route templates' braces.
                for pair in inner.split(separator: ",") {
                    let kv = pair.split(separator: "=", maxSplits: 1)
                    guard kv.count == 2, kv[1].hasPrefix("\""), kv[1].hasSuffix("\"") else {
                        Issue.record("bad label in \(line)")
                        continue
                    }
                    labels[String(kv[0])] = String(kv[1].dropFirst().dropLast())
                }
            }
            samples.append(Sample(name: name, labels: labels, value: value))
        }
        return (samples, types)
    }

    @Test func histogramsByRouteAndStatusBesideTheOldMetrics() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.ok("GET", "/v1/sessions/s")
        h.ok("GET", "/v1/sessions/s")
        h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "a"}, "animated": false}"#)
        #expect(h.send("GET", "/v1/sessions/nope").status == 404)
        #expect(h.send("GET", "/no/such/path").status == 404)
        let reply = h.ok("GET", "/metrics")
        #expect(reply.headers["content-type"] == "text/plain; version=0.0.4")
        let (samples, types) = parse(reply.text)
        for name in [
            "navsim_requests_total", "navsim_uikit_refusals_total", "navsim_sessions", "navsim_store_commits_total",
            "navsim_store_transactions_total", "navsim_sessions_loaded", "navsim_session_cache_bytes",
        ] {
            #expect(samples.contains { $0.name == name }, "\(name)")
        }
        #expect(types["navsim_http_request_duration_seconds"] == "histogram")
        #expect(types["navsim_store_commit_duration_seconds"] == "histogram")
        #expect(types["navsim_store_batch_size"] == "histogram")
        #expect(types["navsim_session_cache_bytes"] == "gauge")
        #expect(samples.first { $0.name == "navsim_sessions_loaded" }?.value == 1)
        #expect((samples.first { $0.name == "navsim_session_cache_bytes" }?.value ?? 0) > 0)

        func count(_ name: String, _ labels: [String: String]) -> Double? {
            samples.first { $0.name == name + "_count" && $0.labels == labels }?.value
        }
        // Labelled by the template, not the raw path; the unknown session's 404 is the same route.
        let session = ["method": "GET", "route": "/v1/sessions/{sid}", "status": "200"]
        #expect(count("navsim_http_request_duration_seconds", session) == 2)
        #expect(count("navsim_http_request_duration_seconds", session.merging(["status": "404"]) { $1 }) == 1)
        #expect(count("navsim_http_request_duration_seconds", ["method": "other", "route": "unmatched", "status": "404"]) == 1)
        #expect(
            count(
                "navsim_http_request_duration_seconds",
                ["method": "POST", "route": "/v1/sessions/{sid}/controllers/{cid}/{operation}", "status": "200"]) == 1)
        #expect(!samples.contains { $0.labels["route"]?.contains("/v1/sessions/s") == true })
        // Two commits (the creation and the push), each its own transaction here.
        #expect(count("navsim_store_commit_duration_seconds", [:]) == 2)
        #expect(count("navsim_store_batch_size", [:]) == 2)

        // Buckets are cumulative and end in +Inf == _count.
        let series = Dictionary(grouping: samples.filter { $0.name.hasSuffix("_bucket") }) { s -> String in
            s.name + s.labels.filter { $0.key != "le" }.sorted { $0.key < $1.key }.description
        }
        #expect(!series.isEmpty)
        for (_, buckets) in series {
            let values = buckets.map(\.value)
            #expect(values == values.sorted(), "\(buckets)")
            #expect(buckets.last?.labels["le"] == "+Inf")
            let base = String(buckets[0].name.dropLast("_bucket".count))
            var labels = buckets[0].labels
            labels["le"] = nil
            #expect(count(base, labels) == buckets.last?.value)
        }
    }

    /// A series named by a ``HistogramFamily/SeriesKey`` is the one its label text names: the
    /// text is rendered once, and observations by key or by text add up in one series.
    @Test func keyedSeriesAreTheSeriesOfTheirLabels() {
        let family = HistogramFamily(name: "x_seconds", help: "h", bounds: [1])
        var rendered = 0
        for value in [0.5, 3] {
            family.observe(value, key: .init(a: 1, b: 200)) {
                rendered += 1
                return #"route="/",status="200""#
            }
        }
        family.observe(0.25, labels: #"route="/",status="200""#)
        family.observe(0.5, key: .init(a: 0, b: 200)) { #"route="/a",status="200""# }
        #expect(rendered == 1)
        var out = ""
        family.write(into: &out)
        #expect(
            out == """
                # HELP x_seconds h
                # TYPE x_seconds histogram
                x_seconds_bucket{route="/",status="200",le="1"} 2
                x_seconds_bucket{route="/",status="200",le="+Inf"} 3
                x_seconds_sum{route="/",status="200"} 3.75
                x_seconds_count{route="/",status="200"} 3
                x_seconds_bucket{route="/a",status="200",le="1"} 1
                x_seconds_bucket{route="/a",status="200",le="+Inf"} 1
                x_seconds_sum{route="/a",status="200"} 0.5
                x_seconds_count{route="/a",status="200"} 1

                """)
    }

    /// HEAD runs the GET handler but is its own series; each status is its own series.
    @Test func headAndStatusesAreSeriesOfTheirOwn() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        #expect(h.send("HEAD", "/v1/sessions/s").status == 200)
        #expect(h.send("GET", "/v1/sessions/s").status == 200)
        #expect(h.send("HEAD", "/v1/sessions/zz").status == 404)
        #expect(h.send("HEAD", "/healthz").status == 200)
        let text = h.ok("GET", "/metrics").text
        for labels in [
            #"method="HEAD",route="/v1/sessions/{sid}",status="200""#,
            #"method="GET",route="/v1/sessions/{sid}",status="200""#,
            #"method="HEAD",route="/v1/sessions/{sid}",status="404""#,
            #"method="HEAD",route="/healthz",status="200""#,
        ] {
            #expect(text.contains("navsim_http_request_duration_seconds_count{\(labels)} 1\n"), "\(labels)")
        }
    }

    @Test func labelValuesAreEscaped() {
        #expect(HistogramFamily.quoted(#"a"b\c"#) == #""a\"b\\c""#)
        let family = HistogramFamily(name: "x_seconds", help: "h", bounds: [1, 2])
        family.observe(0.5)
        family.observe(2)
        family.observe(7)
        var out = ""
        family.write(into: &out)
        #expect(
            out == """
                # HELP x_seconds h
                # TYPE x_seconds histogram
                x_seconds_bucket{le="1"} 1
                x_seconds_bucket{le="2"} 2
                x_seconds_bucket{le="+Inf"} 3
                x_seconds_sum 9.5
                x_seconds_count 3

                """)
    }

    /// The value of the one sample `name` (no labels) in a fresh scrape of `h`.
    func sample(_ h: ServiceHarness, _ name: String) -> Double? {
        parse(h.ok("GET", "/metrics").text).samples.first { $0.name == name && $0.labels.isEmpty }?.value
    }

    /// `navsim_uikit_refusals_total` counts what UIKit refuses: a refused operation's 409 and a
    /// turn's operation refused in place inside its 200; navsim's own 409s (`session-exists`) are not.
    @Test func uikitRefusalsCountUIKitsRefusalsOnly() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        #expect(sample(h, "navsim_uikit_refusals_total") == 0)
        #expect(h.send("POST", "/v1/sessions", #"{"id": "s"}"#).status == 409)
        #expect(sample(h, "navsim_uikit_refusals_total") == 0, "session-exists is navsim's, not UIKit's")

        h.ok("POST", "/v1/sessions/s/controllers/home/present", #"{"viewController": {"id": "m1"}, "animated": false}"#)
        let refused = h.send("POST", "/v1/sessions/s/controllers/home/present", #"{"viewController": {"id": "m2"}, "animated": false}"#)
        #expect(refused.status == 409)
        #expect(refused.text.contains(#""uikit""#))
        #expect(sample(h, "navsim_uikit_refusals_total") == 1)

        // Two refused in one turn, answered in place with the turn's 200.
        let turn = h.ok(
            "POST", "/v1/sessions/s/turns",
            """
            {"operations": [{"controller": "home", "operation": "present", "viewController": {"id": "m3"}},
                            {"controller": "home", "operation": "present", "viewController": {"id": "m4"}}]}
            """)
        #expect(turn.text.components(separatedBy: #""uikit""#).count - 1 == 2, "\(turn.text)")
        #expect(sample(h, "navsim_uikit_refusals_total") == 3)
    }

    /// The process metrics under Prometheus' standard names, with values this process can check.
    @Test func processMetricsUnderTheirStandardNames() throws {
        let h = try ServiceHarness()
        let (samples, types) = parse(h.ok("GET", "/metrics").text)
        func value(_ name: String) -> Double? { samples.first { $0.name == name }?.value }
        #expect(types["process_cpu_seconds_total"] == "counter")
        for name in [
            "process_resident_memory_bytes", "process_virtual_memory_bytes", "process_open_fds",
            "process_max_fds", "process_start_time_seconds",
        ] {
            #expect(types[name] == "gauge", "\(name)")
        }
        #expect((value("process_cpu_seconds_total") ?? 0) > 0)
        let resident = try #require(value("process_resident_memory_bytes"))
        let virtual = try #require(value("process_virtual_memory_bytes"))
        #expect(resident > Double(1 << 20) && virtual >= resident)
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        #expect(value("process_max_fds") == Double(limit.rlim_cur))
        // 256 more descriptors show: far more than the tests running beside this one open or
        // close between two scrapes.
        let before = try #require(value("process_open_fds"))
        #expect(before >= 3 && before <= Double(limit.rlim_cur))
        let extra = (0..<256).map { _ in dup(2) }
        defer { for fd in extra where fd >= 0 { close(fd) } }
        #expect(extra.allSatisfy { $0 >= 0 })
        let after = parse(h.ok("GET", "/metrics").text).samples.first { $0.name == "process_open_fds" }?.value ?? 0
        #expect(after - before > 128, "\(before) then \(after)")
        // Started before this test, and not before the machine booted a year ago.
        let start = try #require(value("process_start_time_seconds"))
        let now = Date().timeIntervalSince1970
        #expect(start <= now + 1 && start > now - 366 * 86_400)
        #expect(ProcessInfo.processInfo.systemUptime > now - start - 2)
    }
}

extension SharedStoreServiceTests {
    /// With several instances on one PostgreSQL database, `navsim_sessions` is the database's
    /// count, the same on every instance: not the sessions one instance happened to register.
    @Test("navsim_sessions counts the shared database's sessions on every instance")
    func sessionsGaugeCountsTheSharedDatabase() throws {
        let db = try SharedDatabase()
        let a = try db.instance(), b = try db.instance()
        func sessions(_ service: NavSimService) -> String? {
            String(decoding: call(service, "GET", "/metrics").body, as: UTF8.self)
                .split(separator: "\n").first { $0.hasPrefix("navsim_sessions ") }.map(String.init)
        }
        #expect(sessions(b) == "navsim_sessions 0")
        #expect(createSession(a, "one").status == 201)
        #expect(createSession(a, "two").status == 201)
        #expect(sessions(a) == "navsim_sessions 2")
        #expect(sessions(b) == "navsim_sessions 2", "b created none, but the database holds two")
        #expect(call(b, "DELETE", "/v1/sessions/one").status == 204)
        #expect(sessions(a) == "navsim_sessions 1")
        #expect(sessions(b) == "navsim_sessions 1")
    }
}

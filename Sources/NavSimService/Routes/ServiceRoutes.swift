import Synchronization
import SessionStorage
import Foundation
import HTTPServer
import JSONValues
import NavigationCore

/// The routes about the server itself: `/`, `/healthz`, `/readyz` and `/metrics` (Prometheus
/// text format 0.0.4).
extension NavSimService {
    /// `GET /healthz`'s reply, built once: nothing in it changes (no per-request work
    /// that can be done once).
    static let healthz = json(200, .object([("status", .string("ok"))]))
    /// `GET /readyz`'s reply while the store is unreachable (``SessionStoring/checkReachability()``),
    /// built once: 503 `store-unreachable` with `Retry-After`. `/healthz` (liveness) is 200 then:
    /// instances share the database, so taking them out would not route around its outage.
    static let readyzStoreUnreachable = problem(Problem.notReady)
    /// `GET /`'s reply, built once.
    static let indexResponse = json(200, index)

    /// `GET /`: what this server is and where to start (links relative to the server).
    static let index = JSON.object([
        ("name", .string("navsim")),
        ("version", .string(NavSimVersion.current)),
        ("description", .string("UIKit view-controller navigation as a headless HTTP service")),
        (
            "links",
            .object([
                ("openapi", .string("/openapi.yaml")),
                ("health", .string("/healthz")),
                ("metrics", .string("/metrics")),
                ("sessions", .string("/v1/sessions")),
                ("storyboards", .string("/v1/storyboards")),
            ])
        ),
    ])

    /// `navsim_sessions`: the sessions in the store, loaded or not. SQLite has one owner, this
    /// instance, whose registry lists them all; a PostgreSQL database is shared, and only its own
    /// count includes the sessions other instances created or deleted. When the database cannot
    /// answer, the sample is left out (Prometheus then sees no value, not a wrong one).
    func sessionsGauge(into text: inout String) {
        let count: Int?
        if store.isShared {
            count = try? store.sessionCount()
        } else {
            count = sessions.count
        }
        text += "# HELP navsim_sessions Sessions in the store, loaded in memory or not (with --store: every instance's).\n"
        text += "# TYPE navsim_sessions gauge\n"
        if let count { text += "navsim_sessions \(count)\n" }
    }

    func metrics() -> HTTPResponse {
        let stats = store.statistics
        var text = """
            # HELP navsim_requests_total HTTP requests answered.
            # TYPE navsim_requests_total counter
            navsim_requests_total \(counters.requests.load(ordering: .relaxed))
            # HELP navsim_uikit_refusals_total Operations UIKit refused (409).
            # TYPE navsim_uikit_refusals_total counter
            navsim_uikit_refusals_total \(counters.refusals.load(ordering: .relaxed))
            # HELP navsim_store_commits_total Durable commits.
            # TYPE navsim_store_commits_total counter
            navsim_store_commits_total \(stats.commits)
            # HELP navsim_store_transactions_total Store transactions, SQLite or PostgreSQL (group commit batches).
            # TYPE navsim_store_transactions_total counter
            navsim_store_transactions_total \(stats.batches)
            # HELP navsim_sessions_loaded Sessions whose state is in memory (at most --max-loaded-sessions, once idle).
            # TYPE navsim_sessions_loaded gauge
            navsim_sessions_loaded \(sessions.resident.load(ordering: .relaxed))
            # HELP navsim_session_cache_bytes Bytes of encoded session representations kept for reads.
            # TYPE navsim_session_cache_bytes gauge
            navsim_session_cache_bytes \(sessions.cachedBytes.load(ordering: .relaxed))

            """
        sessionsGauge(into: &text)
        text += StoreUpGauge.text(reachable: store.checkReachability())
        ProcessMetrics.write(into: &text)
        histograms.requestDuration.write(into: &text)
        histograms.commitDuration.write(into: &text)
        histograms.batchSize.write(into: &text)
        return HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "text/plain; version=0.0.4")]), body: Array(text.utf8))
    }
}

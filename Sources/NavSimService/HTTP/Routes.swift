import SessionStorage
import Foundation
import HTTPServer
import NavigationCore
import Pictures

/// The route table: every route of the HTTP contract, each handed to its resource's handler in
/// Routes/. The pieces around it (HTTP/Middleware.swift) run first.
extension NavSimService {
    // MARK: - Routing

    /// Every route of the HTTP contract (`openapi.yaml`, docs/api.md), registered once: the router
    /// derives 404 `not-found`, 405 with `Allow` and HEAD from this table, the bearer-token screen
    /// reads `requiresToken` from it, and the OpenAPI tests compare it with the spec.
    static let router = Router<NavSimService>(
        [
            Route("GET", "/") { _, _, _ throws(Problem) in indexResponse },
            Route("GET", "/healthz", requiresToken: false) { _, _, _ throws(Problem) in healthz },
            Route("GET", "/readyz", requiresToken: false) { s, _, _ throws(Problem) in
                s.store.checkReachability() ? healthz : readyzStoreUnreachable
            },
            Route("GET", "/openapi.yaml") { s, _, _ throws(Problem) in
                HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/yaml")]), body: s.openAPI)
            },
            Route("GET", "/metrics") { s, _, _ throws(Problem) in s.metrics() },
            // A static page holding no data; the API calls it makes carry the token.
            Route("GET", "/inspector", requiresToken: false) { _, _, _ throws(Problem) in Inspector.response },
            Route("GET", "/v1/sessions") { s, req, _ throws(Problem) in try s.listSessions(req) },
            Route("POST", "/v1/sessions") { s, req, _ throws(Problem) in try s.createSession(req) },
            Route("GET", "/v1/sessions/{sid}") { s, req, p throws(Problem) in try s.getSession(req, p["sid"]) },
            Route("PATCH", "/v1/sessions/{sid}") { s, req, p throws(Problem) in try s.setTraits(req, p["sid"]) },
            Route("DELETE", "/v1/sessions/{sid}") { s, req, p throws(Problem) in try s.deleteSession(req, p["sid"]) },
            Route("PUT", "/v1/sessions/{sid}/rootViewController") { s, req, p throws(Problem) in try s.setRoot(req, p["sid"]) },
            Route("POST", "/v1/sessions/{sid}/controllers") { s, req, p throws(Problem) in try s.createController(req, p["sid"]) },
            Route("GET", "/v1/sessions/{sid}/controllers/{cid}") { s, req, p throws(Problem) in try s.getController(req, p["sid"], p["cid"]) },
            Route("PATCH", "/v1/sessions/{sid}/controllers/{cid}") { s, req, p throws(Problem) in
                try s.updateController(req, p["sid"], p["cid"])
            },
            Route("DELETE", "/v1/sessions/{sid}/controllers/{cid}") { s, req, p throws(Problem) in
                try s.releaseController(req, p["sid"], p["cid"])
            },
            Route("POST", "/v1/sessions/{sid}/controllers/{cid}/{operation}") { s, req, p throws(Problem) in
                try s.perform(req, p["sid"], p["cid"], p["operation"])
            },
            Route("POST", "/v1/sessions/{sid}/turns") { s, req, p throws(Problem) in try s.runTurn(req, p["sid"]) },
            Route("GET", "/v1/sessions/{sid}/history") { s, req, p throws(Problem) in try s.history(req, p["sid"]) },
            Route("GET", "/v1/sessions/{sid}/transitions") { s, _, p throws(Problem) in try s.transitions(p["sid"]) },
            Route("POST", "/v1/sessions/{sid}/transitions/complete") { s, req, p throws(Problem) in
                try s.finishTransition(req, p["sid"], .completeTransition(id: nil))
            },
            Route("POST", "/v1/sessions/{sid}/transitions/{tid}/complete") { s, req, p throws(Problem) in
                try s.finishTransition(req, p["sid"], .completeTransition(id: p["tid"]))
            },
            Route("POST", "/v1/sessions/{sid}/transitions/{tid}/cancel") { s, req, p throws(Problem) in
                try s.finishTransition(req, p["sid"], .cancelTransition(id: p["tid"]))
            },
        ] + StoryboardCatalog.routes { $0.storyboards })
}

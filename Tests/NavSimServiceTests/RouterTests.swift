import Foundation
import HTTPServer
import Testing

@testable import NavSimService

/// The router's segment tree gives the answers of trying every template in registration order,
/// the way it routed before the tree. The reference scan lives here, in the test;
/// the cases are generated from the one route table.
@Suite struct RouterTests {
    typealias R = Router<NavSimService>

    /// What the router answered before the tree: every template tried in order; the matching
    /// ones' methods form `Allow`; of those registered for the method the most literal wins, the
    /// first on a tie.
    static func scan(_ routes: [Route<NavSimService>], method: String, path: [String]) -> String {
        let lookup = method == "HEAD" ? "GET" : method
        var allow: [String] = []
        var best: (route: Route<NavSimService>, parameters: PathParameters)?
        for route in routes {
            guard let parameters = route.template.match(path) else { continue }
            if !allow.contains(route.method) { allow.append(route.method) }
            if route.method == lookup, best.map({ route.template.literalCount > $0.route.template.literalCount }) ?? true {
                best = (route, parameters)
            }
        }
        if let best { return "route \(best.route.method) \(best.route.template) \(render(best.parameters))" }
        return allow.isEmpty ? "404" : "405 Allow: \(allow.joined(separator: ", "))"
    }

    static func describe(_ resolution: R.Resolution) -> String {
        switch resolution {
        case let .route(route, parameters): "route \(route.method) \(route.template) \(render(parameters))"
        case let .methodNotAllowed(allow): "405 Allow: \(allow.joined(separator: ", "))"
        case .notFound: "404"
        }
    }

    static func render(_ p: PathParameters) -> String {
        p.values.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// Raw request paths (escapes as sent) built from every template: each parameter filled with
    /// values that collide with literals, contain escapes (`%2F`, a lone `%`, `%zz`, UTF-8), or
    /// are empty; the template one segment shorter and longer; doubled and trailing slashes.
    static var paths: [String] {
        let literals = Set(
            NavSimService.router.routes.flatMap { route in
                route.template.segments.compactMap { if case let .literal(text) = $0 { text } else { nil } }
            })
        let fills = ["x", "a%2Fb", "%", "%zz", "caf%C3%A9", "%7Bsid%7D", "a%20b", ""] + literals.sorted()
        var out: Set<String> = ["/", "", "//", "/v1", "/v1/", "/nope", "/v1/sessions//", "//v1//sessions/"]
        for route in NavSimService.router.routes {
            let segments = route.template.segments
            for fill in fills {
                let filled = segments.map { segment -> String in
                    switch segment {
                    case let .literal(text): text
                    case .parameter: fill
                    }
                }
                let path = "/" + filled.joined(separator: "/")
                out.insert(path)
                out.insert(path + "/")
                out.insert(path + "/extra")
                out.insert("/" + filled.dropLast().joined(separator: "/"))
                out.insert(path.replacingOccurrences(of: "/", with: "//"))
            }
        }
        return out.sorted()
    }

    static let methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "get", "CONNECT"]

    @Test func treeAnswersWhatTheScanDid() {
        let router = NavSimService.router
        var compared = 0
        for raw in Self.paths {
            let segments = HTTPRequest(method: "GET", path: raw).pathSegments
            for method in Self.methods {
                let tree = Self.describe(router.resolve(method: method, path: segments))
                let scan = Self.scan(router.routes, method: method, path: segments)
                #expect(tree == scan, "\(method) \(raw)")
                compared += 1
            }
            let scanRequires = router.routes.filter { $0.template.match(segments) != nil }
            let expected = scanRequires.isEmpty || scanRequires.contains { $0.requiresToken }
            #expect(router.requiresToken(path: segments) == expected, "requiresToken \(raw)")
        }
        #expect(compared > 1000, "the generated cases cover the table (\(compared))")
    }

    /// Every template reaches its own route with its own method, HEAD reaches GET's, and an
    /// unregistered method is 405 listing the template's methods.
    @Test func everyTemplateRoutes() {
        let router = NavSimService.router
        for route in router.routes {
            let path = route.template.segments.map { segment -> String in
                if case let .literal(text) = segment { return text }
                return "v"
            }
            let answer = router.resolve(method: route.method, path: path)
            guard case let .route(found, _) = answer else {
                Issue.record("\(route.method) \(route.template) resolved to \(Self.describe(answer))")
                continue
            }
            // Another template may be more literal for these values (e.g. `{operation}` = a literal).
            #expect(found.method == route.method, "\(route.template)")
            if route.method == "GET" {
                #expect(Self.describe(router.resolve(method: "HEAD", path: path)) == Self.describe(answer))
            }
            guard case let .methodNotAllowed(allow) = router.resolve(method: "OPTIONS", path: path) else {
                Issue.record("OPTIONS \(route.template) is not 405")
                continue
            }
            #expect(allow.contains(route.method), "\(route.template): \(allow)")
        }
    }

    /// Percent-decoding happens per segment after the split: `%2F` is inside one parameter.
    @Test func decodedSegments() {
        let router = NavSimService.router
        let segments = HTTPRequest(method: "GET", path: "/v1/sessions/a%2Fb/controllers/c%25d").pathSegments
        #expect(
            Self.describe(router.resolve(method: "GET", path: segments))
                == "route GET /v1/sessions/{sid}/controllers/{cid} cid=c%d&sid=a/b")
        #expect(
            Self.describe(router.resolve(method: "PUT", path: ["v1", "sessions", "s"]))
                == "405 Allow: GET, PATCH, DELETE")
        #expect(Self.describe(router.resolve(method: "GET", path: ["v1", "nothing"])) == "404")
    }
}

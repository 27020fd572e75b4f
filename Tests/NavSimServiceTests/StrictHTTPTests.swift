import Foundation
import HTTPServer
import JSONValues
import Testing

import NavSimService

@Suite("Service: strict HTTP")
struct StrictHTTPTests {
    /// Paths are split first, then decoded: an id with `/` is addressable as `%2F`.
    @Test func aControllerIdWithASlashIsAddressable() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.ok("POST", "/v1/sessions/s/controllers", #"{"id": "a/b", "class": "SlashViewController"}"#, status: 201)
        let got = h.send("GET", "/v1/sessions/s/controllers/a%2Fb")
        #expect(got.status == 200, "\(got)")
        #expect(got["id"]?.string == "a/b")
        h.ok("PATCH", "/v1/sessions/s/controllers/a%2Fb", #"{"title": "Slashed"}"#)
        #expect(h.send("GET", "/v1/sessions/s/controllers/a%2Fb")["title"]?.string == "Slashed")
        // The undecoded form is another path entirely.
        #expect(h.send("GET", "/v1/sessions/s/controllers/a/b").status == 405)
    }

    @Test func storyboardUploadsTakeXMLOnly() throws {
        let h = try ServiceHarness()
        for type in ["application/xmlx", "text/html", "application/json", "application/atom+xml"] {
            expectProblem(h.send("PUT", "/v1/storyboards/Probe", probeStoryboard, contentType: type), 415, "unsupported-media-type")
        }
        #expect(h.send("GET", "/v1/storyboards/Probe").status == 404)
        #expect(h.send("PUT", "/v1/storyboards/Probe", probeStoryboard, contentType: "text/xml; charset=utf-8").status == 201)
        #expect(h.send("PUT", "/v1/storyboards/Probe", probeStoryboard, contentType: "Application/XML").status == 200)
    }

    /// The 413 names the limit that applied to the request's media type.
    @Test func payloadTooLargeNamesTheLimit() throws {
        let h = try ServiceHarness()
        let request = HTTPRequest(
            method: "PUT", path: "/v1/storyboards/Big", headers: ["Content-Type": "application/xml"],
            bodyTooLarge: true, bodyLimit: 16 << 20)
        let r = h.service!.handle(request)
        #expect(r.status == 413)
        #expect(String(decoding: r.body, as: UTF8.self).contains("\(16 << 20)"))
    }

    /// A name the server could never store is 422 on every method, as openapi.yaml says.
    @Test func aStoryboardNameOver200CharactersIs422OnEveryMethod() throws {
        let h = try ServiceHarness()
        let long = String(repeating: "n", count: 201)
        expectProblem(h.send("GET", "/v1/storyboards/\(long)"), 422, "invalid-path")
        expectProblem(h.send("DELETE", "/v1/storyboards/\(long)"), 422, "invalid-path")
        expectProblem(h.send("PUT", "/v1/storyboards/\(long)", probeStoryboard, contentType: "application/xml"), 422, "invalid-path")
        expectProblem(h.send("PUT", "/v1/storyboards/\(long)/customSegues", "{}"), 422, "invalid-path")
        let spec = try String(contentsOfFile: ServiceFiles.openAPI, encoding: .utf8)
        #expect(spec.contains("maxLength: 200"))
    }

    /// openapi.yaml says the body of POST /v1/sessions is optional, and it is.
    @Test func creatingASessionWithoutABodyUsesTheDefaults() throws {
        let h = try ServiceHarness()
        let r = h.send("POST", "/v1/sessions", nil, contentType: nil)
        #expect(r.status == 201, "\(r)")
        #expect(r.headers["location"]?.hasPrefix("/v1/sessions/") == true)
    }
}

@Suite("Service: bearer-token authentication")
struct AuthenticationTests {
    /// Every documented route and method but /healthz and /readyz answers 401 without the token, and with a
    /// wrong one; with the token none answers 401.
    @Test func noRouteButHealthzAnswersWithoutTheToken() throws {
        let spec = try OpenAPITests.loadSpec()
        let h = try ServiceHarness(tokens: ["right-token", "second-token"])
        var problems: [String] = []
        for (n, pair) in spec.pairs.enumerated() {
            let sid = "auth-\(n)"
            h.bearer = "right-token"
            OpenAPITests.prepare(h, sid: sid)
            let path = try OpenAPITests.concrete(pair.template, sid: sid)
            let (body, type) = OpenAPITests.body(pair.method, pair.template)
            let before = h.snapshot(sid)

            h.bearer = nil
            let none = h.send(pair.method, path, body, contentType: type)
            let wrong = h.send(pair.method, path, body, contentType: type, headers: [("Authorization", "Bearer wrong-token")])
            let basic = h.send(pair.method, path, body, contentType: type, headers: [("Authorization", "Basic cmlnaHQtdG9rZW4=")])
            h.bearer = "right-token"
            if h.snapshot(sid) != before { problems.append("\(pair.method) \(pair.template) changed the session without a token") }
            // /healthz, /readyz and the static /inspector page (no data; its API calls carry the token).
            if pair.template == "/healthz" || pair.template == "/readyz" || pair.template == "/inspector" {
                if none.status != 200 { problems.append("\(pair.template) answers \(none.status) without a token") }
                continue
            }
            for (label, r) in [("no token", none), ("Basic", basic)] {
                if r.status != 401 || r.slug != "unauthorized" || r.headers["www-authenticate"] != #"Bearer realm="navsim""# {
                    problems.append("\(pair.method) \(pair.template) with \(label): \(r.status) \(r.headers["www-authenticate"] ?? "-")")
                }
            }
            if wrong.status != 401 || wrong.headers["www-authenticate"] != #"Bearer realm="navsim", error="invalid_token""# {
                problems.append("\(pair.method) \(pair.template) with a wrong token: \(wrong.status) \(wrong.headers["www-authenticate"] ?? "-")")
            }
            let authorized = h.send(
                pair.method, path, body, contentType: type,
                headers: [("Authorization", "Bearer second-token")])
            if authorized.status == 401 { problems.append("\(pair.method) \(pair.template) refuses the second token") }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(spec.pairs.count > 20, "the walk covered \(spec.pairs.count) routes")

        // Paths no route serves, and HEAD, are no way around it either.
        h.bearer = nil
        #expect(h.send("GET", "/nope").status == 401)
        #expect(h.send("HEAD", "/v1/sessions").status == 401)
        #expect(h.send("HEAD", "/healthz").status == 200)
        #expect(h.send("GET", "/readyz").status == 200)
    }

    @Test func theScreenRefusesBeforeTheBody() throws {
        let h = try ServiceHarness(tokens: ["t"])
        let head = HTTPRequest(method: "PUT", path: "/v1/storyboards/Big", headers: ["Content-Type": "application/xml"])
        #expect(h.service!.screen(head)?.status == 401)
        #expect(h.service!.screen(HTTPRequest(method: "GET", path: "/healthz")) == nil)
        var authorized = head
        authorized.headers.add("Authorization", "Bearer t")
        #expect(h.service!.screen(authorized) == nil)
        // Without tokens nothing is screened.
        #expect(try ServiceHarness().service!.screen(head) == nil)
    }

    /// The spec documents the scheme, 401 on every operation, and none on /healthz, /readyz and /inspector.
    @Test func theSpecDocumentsTheScheme() throws {
        let text = try String(contentsOfFile: ServiceFiles.openAPI, encoding: .utf8)
        #expect(text.contains("securitySchemes:\n    bearer:\n      type: http\n      scheme: bearer"))
        let spec = try OpenAPITests.loadSpec()
        let operations = spec.writtenPairCount
        let documented401 = text.components(separatedBy: "$ref: '#/components/responses/Unauthorized'").count - 1
        #expect(documented401 == operations - 3, "401 documented on \(documented401) of \(operations) operations (all but /healthz, /readyz and /inspector)")
    }
}

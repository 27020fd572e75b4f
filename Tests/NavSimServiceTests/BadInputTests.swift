import Foundation
import HTTPServer
import JSONValues
import Testing

import NavSimService
import SQLiteStore

/// The style names of docs/api.md, in its order.
private let presentationStyles = [
    "automatic", "fullScreen", "pageSheet", "formSheet", "currentContext", "custom",
    "overFullScreen", "overCurrentContext", "popover", "none",
]
private let transitionStyles = ["coverVertical", "flipHorizontal", "crossDissolve", "partialCurl"]

// MARK: - Bad input: a clear problem, nothing changed

@Suite("Service: bad input is refused and changes nothing")
struct BadInputTests {
    @Test func malformedJSONIs400InvalidBody() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p1"}}"#)
        h.expectUnchanged("s") {
            let r = h.send("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p2""#)
            expectProblem(r, 400, "invalid-body")
            #expect(r["detail"]?.string?.contains("byte") == true, "the detail says where: \(r)")
            expectProblem(h.send("POST", "/v1/sessions/s/turns", #"{"operations": [,]}"#), 400, "invalid-body")
            expectProblem(h.send("PATCH", "/v1/sessions/s/controllers/home", "{title: 'x'}"), 400, "invalid-body")
            expectProblem(h.send("PATCH", "/v1/sessions/s", #"{"traits": {}} trailing"#), 400, "invalid-body")
            expectProblem(h.send("POST", "/v1/sessions", #"{"id": "other""#), 400, "invalid-body")
            // Well-formed JSON that is not an object is invalid, not malformed.
            expectProblem(h.send("POST", "/v1/sessions/s/controllers/nav/push", "[1, 2]"), 422, "invalid-body")
        }
        #expect(h.send("GET", "/v1/sessions/other").status == 404)
    }

    @Test func unknownFieldIs422NamingTheFieldAndTheAllowedNames() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.expectUnchanged("s") {
            // A typo next to the operation's own fields.
            var r = h.send(
                "POST", "/v1/sessions/s/controllers/nav/present",
                #"{"viewController": {"id": "m"}, "modalPresentatonStyle": "formSheet"}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "modalPresentatonStyle", "\(r)")
            #expect(r["detail"]?.string?.contains("modalPresentatonStyle") == true, "\(r)")
            #expect(
                strings(r["allowed"]) == ["viewController", "modalPresentationStyle", "modalTransitionStyle", "popover", "animated"],
                "\(r)")
            #expect(r["detail"]?.string?.contains("modalPresentationStyle") == true, "the detail lists the allowed names: \(r)")

            // The same typo inside a ControllerSpec names the nested field.
            r = h.send("POST", "/v1/sessions/s/controllers/nav/present", #"{"viewController": {"id": "m", "modalPresentatonStyle": "formSheet"}}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "viewController.modalPresentatonStyle", "\(r)")
            #expect(strings(r["allowed"]).contains("modalPresentationStyle"), "\(r)")
            #expect(strings(r["allowed"]).contains("transitioningDelegate"), "\(r)")

            // Setting a property at run time.
            r = h.send("PATCH", "/v1/sessions/s/controllers/home", #"{"modalPresentatonStyle": "formSheet"}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "modalPresentatonStyle", "\(r)")
            #expect(strings(r["allowed"]).contains("modalPresentationStyle"), "\(r)")

            // Inside a turn, the whole turn is refused before anything runs, and the field is
            // named from the turn's body: which entry, then where in it.
            r = h.send(
                "POST", "/v1/sessions/s/turns",
                """
                {"operations": [{"controller": "nav", "operation": "push", "viewController": {"id": "p1"}},
                                {"controller": "nav", "operation": "present", "viewController": {"id": "m"}, "modalPresentatonStyle": "formSheet"}]}
                """)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "operations[1].modalPresentatonStyle", "\(r)")
            r = h.send(
                "POST", "/v1/sessions/s/turns",
                """
                {"operations": [{"controller": "nav", "operation": "push", "viewController": {"id": "p2", "title": 3}}]}
                """)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "operations[0].viewController.title", "\(r)")
            #expect(h.ok("GET", "/v1/sessions/s")["controllers"]?["p1"] == nil)

            r = h.send("PATCH", "/v1/sessions/s", #"{"trait": {"horizontalSizeClass": "regular"}}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "trait" && strings(r["allowed"]) == ["traits"], "\(r)")
        }
        let r = h.send("POST", "/v1/sessions", #"{"id": "t", "option": {}}"#)
        expectProblem(r, 422, "invalid-body")
        #expect(r["field"]?.string == "option" && strings(r["allowed"]).contains("options"), "\(r)")
        #expect(h.send("GET", "/v1/sessions/t").status == 404)
    }

    @Test func unknownEnumValueIs422WithTheAllowedValues() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.expectUnchanged("s") {
            var r = h.send(
                "POST", "/v1/sessions/s/controllers/nav/present",
                #"{"viewController": {"id": "m"}, "modalPresentationStyle": "sideways"}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "modalPresentationStyle", "\(r)")
            #expect(strings(r["allowed"]) == presentationStyles, "\(r)")
            #expect(r["detail"]?.string?.contains("sideways") == true, "\(r)")

            r = h.send("POST", "/v1/sessions/s/controllers/nav/present", #"{"viewController": {"id": "m", "modalTransitionStyle": "spin"}}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "viewController.modalTransitionStyle", "\(r)")
            #expect(strings(r["allowed"]) == transitionStyles, "\(r)")

            r = h.send("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "x", "kind": "tableView"}}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(strings(r["allowed"]).contains("tableViewController"), "\(r)")

            r = h.send("PATCH", "/v1/sessions/s/controllers/home", #"{"modalTransitionStyle": "spin"}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(strings(r["allowed"]) == transitionStyles, "\(r)")

            r = h.send("PATCH", "/v1/sessions/s", #"{"traits": {"horizontalSizeClass": "large"}}"#)
            expectProblem(r, 422, "invalid-body")
            #expect(r["field"]?.string == "traits.horizontalSizeClass", "\(r)")
            #expect(strings(r["allowed"]) == ["compact", "regular"], "\(r)")
        }
        var r = h.send("POST", "/v1/sessions", #"{"id": "t", "options": {"transitions": "slow"}}"#)
        expectProblem(r, 422, "invalid-body")
        #expect(r["field"]?.string == "options.transitions" && strings(r["allowed"]) == ["immediate", "manual"], "\(r)")
        r = h.send("POST", "/v1/sessions", #"{"id": "t", "traits": {"userInterfaceIdiom": "watch"}}"#)
        expectProblem(r, 422, "invalid-body")
        #expect(Set(strings(r["allowed"])).isSuperset(of: ["phone", "pad"]), "\(r)")
        #expect(h.send("GET", "/v1/sessions/t").status == 404)
    }

    @Test func bodyOverOneMebibyteIs413() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        #expect(NavSimService.maxBodyBytes == 1 << 20)
        h.expectUnchanged("s") {
            expectProblem(h.send("POST", "/v1/sessions/s/controllers/nav/push", nil, bodyTooLarge: true), 413, "payload-too-large")
            expectProblem(h.send("POST", "/v1/sessions/s/turns", nil, bodyTooLarge: true), 413, "payload-too-large")
            expectProblem(h.send("PATCH", "/v1/sessions/s/controllers/home", nil, bodyTooLarge: true), 413, "payload-too-large")
            expectProblem(h.send("POST", "/v1/sessions", nil, bodyTooLarge: true), 413, "payload-too-large")
        }
    }

    @Test func wrongContentTypeIs415() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        let body = #"{"viewController": {"id": "p1"}}"#
        h.expectUnchanged("s") {
            let r = h.send("POST", "/v1/sessions/s/controllers/nav/push", body, contentType: "text/plain")
            expectProblem(r, 415, "unsupported-media-type")
            #expect(r["detail"]?.string?.contains("application/json") == true, "the detail names the expected type: \(r)")
            expectProblem(h.send("POST", "/v1/sessions/s/controllers/nav/push", body, contentType: nil), 415, "unsupported-media-type")
            expectProblem(
                h.send("POST", "/v1/sessions/s/controllers/nav/push", body, contentType: "application/xml"),
                415, "unsupported-media-type")
            expectProblem(
                h.send("PATCH", "/v1/sessions/s", #"{"traits": {}}"#, contentType: "application/x-www-form-urlencoded"),
                415, "unsupported-media-type")
            expectProblem(h.send("POST", "/v1/sessions", #"{"id": "t"}"#, contentType: "text/plain"), 415, "unsupported-media-type")
        }
        // Only application/json and application/problem+json, any case, with parameters.
        h.expectUnchanged("s") {
            for type in ["application/vnd.api+json", "application/jsonx", "text/json", "application/merge-patch+json"] {
                expectProblem(h.send("POST", "/v1/sessions/s/controllers/nav/push", body, contentType: type), 415, "unsupported-media-type")
            }
        }
        #expect(h.send("POST", "/v1/sessions/s/controllers/nav/push", body, contentType: "application/json; charset=utf-8").status == 200)
        #expect(
            h.send(
                "POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p2"}}"#,
                contentType: "Application/Problem+JSON"
            ).status == 200)
    }

    @Test func unknownSessionIs404() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.expectUnchanged("s") {
            expectProblem(h.send("GET", "/v1/sessions/nope"), 404, "unknown-session")
            expectProblem(h.send("GET", "/v1/sessions/nope?version=0"), 404, "unknown-session")
            expectProblem(h.send("PATCH", "/v1/sessions/nope", #"{"traits": {}}"#), 404, "unknown-session")
            expectProblem(h.send("DELETE", "/v1/sessions/nope"), 404, "unknown-session")
            expectProblem(h.send("GET", "/v1/sessions/nope/history"), 404, "unknown-session")
            expectProblem(h.send("GET", "/v1/sessions/nope/transitions"), 404, "unknown-session")
            expectProblem(h.send("POST", "/v1/sessions/nope/transitions/complete", "{}"), 404, "unknown-session")
            expectProblem(h.send("POST", "/v1/sessions/nope/controllers", #"{"id": "x"}"#), 404, "unknown-session")
            expectProblem(h.send("GET", "/v1/sessions/nope/controllers/nav"), 404, "unknown-session")
            expectProblem(
                h.send("POST", "/v1/sessions/nope/controllers/nav/push", #"{"viewController": {"id": "x"}}"#),
                404, "unknown-session")
            expectProblem(h.send("POST", "/v1/sessions/nope/turns", #"{"operations": []}"#), 404, "unknown-session")
            expectProblem(
                h.send("PUT", "/v1/sessions/nope/rootViewController", #"{"viewController": {"id": "x"}}"#),
                404, "unknown-session")
        }
    }

    @Test func unknownControllerIs404() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.expectUnchanged("s") {
            var r = h.send("GET", "/v1/sessions/s/controllers/ghost")
            expectProblem(r, 404, "unknown-controller")
            #expect(r["detail"]?.string?.contains("ghost") == true, "\(r)")
            // As the receiver, as the argument, as a PATCH target, inside a container spec.
            r = h.send("POST", "/v1/sessions/s/controllers/ghost/present", #"{"viewController": {"id": "m"}}"#)
            expectProblem(r, 404, "unknown-controller")
            #expect(r["detail"]?.string?.contains("ghost") == true, "\(r)")
            expectProblem(h.send("POST", "/v1/sessions/s/controllers/nav/present", #"{"viewController": "ghost"}"#), 404, "unknown-controller")
            expectProblem(h.send("POST", "/v1/sessions/s/controllers/nav/popTo", #"{"viewController": "ghost"}"#), 404, "unknown-controller")
            expectProblem(h.send("PATCH", "/v1/sessions/s/controllers/ghost", #"{"title": "x"}"#), 404, "unknown-controller")
            expectProblem(h.send("PUT", "/v1/sessions/s/rootViewController", #"{"viewController": "ghost"}"#), 404, "unknown-controller")
        }
    }

    @Test func unknownOperationIs404ListingTheOperations() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.expectUnchanged("s") {
            let r = h.send("POST", "/v1/sessions/s/controllers/nav/presnt", #"{"viewController": {"id": "m"}}"#)
            expectProblem(r, 404, "unknown-operation")
            #expect(strings(r["allowed"]).contains("present"), "\(r)")
            expectProblem(
                h.send("POST", "/v1/sessions/s/turns", #"{"operations": [{"controller": "nav", "operation": "presnt"}]}"#),
                404, "unknown-operation")
        }
    }

    @Test func wrongMethodIs405WithAllow() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        let cases: [(String, String, Set<String>)] = [
            ("PUT", "/v1/sessions", ["GET", "HEAD", "POST"]),
            ("DELETE", "/v1/sessions", ["GET", "HEAD", "POST"]),
            ("POST", "/v1/sessions/s", ["GET", "HEAD", "PATCH", "DELETE"]),
            ("PUT", "/v1/sessions/s", ["GET", "HEAD", "PATCH", "DELETE"]),
            ("GET", "/v1/sessions/s/rootViewController", ["PUT"]),
            ("GET", "/v1/sessions/s/controllers", ["POST"]),
            ("PUT", "/v1/sessions/s/controllers/nav", ["GET", "HEAD", "PATCH", "DELETE"]),
            ("GET", "/v1/sessions/s/controllers/nav/push", ["POST"]),
            ("GET", "/v1/sessions/s/turns", ["POST"]),
            ("DELETE", "/v1/sessions/s/history", ["GET", "HEAD"]),
            ("POST", "/v1/sessions/s/history", ["GET", "HEAD"]),
            ("POST", "/v1/sessions/s/transitions", ["GET", "HEAD"]),
            ("GET", "/v1/sessions/s/transitions/complete", ["POST"]),
            ("GET", "/v1/sessions/s/transitions/t1/cancel", ["POST"]),
            ("DELETE", "/healthz", ["GET", "HEAD"]),
            ("POST", "/metrics", ["GET", "HEAD"]),
            ("PUT", "/openapi.yaml", ["GET", "HEAD"]),
        ]
        h.expectUnchanged("s") {
            for (method, path, allow) in cases {
                let r = h.send(method, path, method == "GET" || method == "DELETE" ? nil : "{}")
                expectProblem(r, 405, "method-not-allowed")
                #expect(r.allow == allow, "\(method) \(path): Allow \(r.headers["allow"] ?? "none")")
            }
        }
        // RFC 9110 §9.3.2: HEAD answers as GET does (the server leaves the content out).
        let head = h.send("HEAD", "/v1/sessions/s")
        #expect(head.status == 200 && head.headers["etag"] == h.send("GET", "/v1/sessions/s").headers["etag"])
    }

    @Test func ifMatchMismatchIs412() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p1"}}"#)
        h.expectUnchanged("s") {
            for stale in [#""0""#, #""2""#, #"W/"7""#, #"W/"1""#, #""0", "2""#] {
                let r = h.send(
                    "POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p2"}}"#,
                    headers: [("If-Match", stale)])
                expectProblem(r, 412, "version-mismatch")
                #expect(r["detail"]?.string?.contains("1") == true, "the detail gives the current version: \(r)")
            }
            expectProblem(
                h.send("POST", "/v1/sessions/s/turns", #"{"operations": []}"#, headers: [("If-Match", #""0""#)]),
                412, "version-mismatch")
            expectProblem(
                h.send("PATCH", "/v1/sessions/s/controllers/home", #"{"title": "Home"}"#, headers: [("If-Match", #""0""#)]),
                412, "version-mismatch")
            expectProblem(
                h.send("PATCH", "/v1/sessions/s", #"{"traits": {}}"#, headers: [("If-Match", #""5""#)]),
                412, "version-mismatch")
            expectProblem(
                h.send("POST", "/v1/sessions/s/controllers", #"{"id": "loose"}"#, headers: [("If-Match", #""0""#)]),
                412, "version-mismatch")
            expectProblem(h.send("DELETE", "/v1/sessions/s", nil, headers: [("If-Match", #""0""#)]), 412, "version-mismatch")
            // RFC 9110 §8.8.3: not `*` and not entity tags is a malformed header (400), not a stale version.
            for malformed in ["1", #""1"#, "W/1", #""1" "2""#, ",", ""] {
                let r = h.send(
                    "POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p2"}}"#,
                    headers: [("If-Match", malformed)])
                expectProblem(r, 400, "invalid-header")
                #expect(r["field"]?.string == "If-Match", "\(r)")
            }
            expectProblem(h.send("DELETE", "/v1/sessions/s", nil, headers: [("If-Match", "1")]), 400, "invalid-header")
        }

        // RFC 9110 §13.1.1: a list matches when one of its strong tags does.
        let r = h.send(
            "POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p2"}}"#,
            headers: [("If-Match", #""0", "1""#)])
        #expect(r.status == 200, "\(r)")
        #expect(r["version"]?.number == 2)
        #expect(r.headers["etag"] == #""2""#)
        // Two If-Match lines are one list (RFC 9110 §5.3).
        #expect(
            h.send(
                "POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p3"}}"#,
                headers: [("If-Match", #""7""#), ("If-Match", #""2""#)]
            ).status == 200)
        #expect(h.send("DELETE", "/v1/sessions/s", nil, headers: [("If-Match", #""3""#)]).status == 204)
    }

    /// Bodies that say nothing a route takes are refused, not recorded (found by schemathesis).
    @Test func bodiesARouteDoesNotTakeAre422() throws {
        let h = try ServiceHarness()
        h.makeSession("s", options: #"{"transitions": "manual"}"#)
        h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "b"}}"#)
        h.expectUnchanged("s") {
            for path in ["/v1/sessions/s/transitions/complete", "/v1/sessions/s/transitions/t2/complete", "/v1/sessions/s/transitions/t2/cancel"] {
                expectProblem(h.send("POST", path, #"{"junk": 1}"#), 422, "invalid-body")
                expectProblem(h.send("POST", path, "[1, 2]"), 422, "invalid-body")
            }
            expectProblem(h.send("PATCH", "/v1/sessions/s", "{}"), 422, "invalid-body")
            expectProblem(h.send("PATCH", "/v1/sessions/s", nil), 422, "invalid-body")
        }
        expectProblem(h.send("POST", "/v1/sessions", #"{"id": "r", "root": "home"}"#), 422, "invalid-body")
        #expect(h.send("GET", "/v1/sessions/r").status == 404)
        #expect(h.send("POST", "/v1/sessions/s/transitions/complete", "{}").status == 200, "an empty object is fine")
    }

    /// `after` and `limit` that are not integers in range are 422, not silently replaced.
    @Test func badPagingIs422() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        for query in ["after=abc", "after=-2", "limit=0", "limit=-5", "limit=1001", "limit=x"] {
            expectProblem(h.send("GET", "/v1/sessions/s/history?\(query)"), 422, "invalid-query")
        }
        expectProblem(h.send("GET", "/v1/sessions?limit=0"), 422, "invalid-query")
        #expect(h.send("GET", "/v1/sessions/s/history?after=0&limit=1000").status == 200)
    }

    @Test func uikitRefusalIs409AndChangesNothing() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.ok("POST", "/v1/sessions/s/controllers/nav/present", #"{"viewController": {"id": "m1"}}"#)
        h.expectUnchanged("s") {
            let r = h.send("POST", "/v1/sessions/s/controllers/nav/present", #"{"viewController": {"id": "m2"}}"#)
            expectProblem(r, 409, "already-presenting")
            #expect(r["uikit"]?["code"]?.string == "D6", "\(r)")
            #expect(r["detail"]?.string?.contains("<UINavigationController: nav>") == true, "\(r)")
        }
        #expect(h.send("GET", "/v1/sessions/s/controllers/m2").status == 404)
    }

    /// R81 over HTTP: `options.navTransitionPolicy` decides between a queued transition and D22.
    @Test func navTransitionPolicyOption() throws {
        let h = try ServiceHarness()
        h.makeSession("q", options: #"{"transitions": "manual"}"#)
        #expect(h.ok("GET", "/v1/sessions/q")["options"]?["navTransitionPolicy"]?.string == "queue")
        let first = h.ok("POST", "/v1/sessions/q/controllers/nav/push", #"{"viewController": {"id": "b"}}"#)
        var r = h.ok("POST", "/v1/sessions/q/controllers/nav/push", #"{"viewController": {"id": "c"}}"#)
        #expect(r["transition"]?["state"]?.string == "queued", "\(r)")
        #expect(r["session"]?["controllers"]?["b"]?["transitionCoordinator"] == first["transition"]?["id"], "R62: \(r)")
        #expect(r["session"]?["controllers"]?["c"]?["transitionCoordinator"] == .null, "queued, not running: \(r)")
        r = h.ok("GET", "/v1/sessions/q/transitions")
        #expect(r["transitions"]?.array?.compactMap { $0["state"]?.string } == ["inProgress", "queued"], "\(r)")

        h.makeSession("d", options: #"{"transitions": "manual", "navTransitionPolicy": "warnAndDrop"}"#)
        h.ok("POST", "/v1/sessions/d/controllers/nav/push", #"{"viewController": {"id": "b"}}"#)
        h.expectUnchanged("d") {
            let r = h.send("POST", "/v1/sessions/d/controllers/nav/pop", "{}")
            expectProblem(r, 409, "nested-navigation-transition")
            #expect(r["uikit"]?["code"]?.string == "D22" && r["uikit"]?["severity"]?.string == "warning", "\(r)")
            #expect(r["detail"]?.string == "nested pop animation can result in corrupted navigation bar", "\(r)")
        }
        expectProblem(h.send("POST", "/v1/sessions", #"{"options": {"navTransitionPolicy": "drop"}}"#), 422, "invalid-body")

        // A queued transition cannot be completed by id (409), an unknown one is 404; neither changes anything.
        let queued = try #require(r["transitions"]?.array?.last?["id"]?.string)
        h.expectUnchanged("q") {
            expectProblem(h.send("POST", "/v1/sessions/q/transitions/\(queued)/complete"), 409, "transition-conflict")
            expectProblem(h.send("POST", "/v1/sessions/q/transitions/\(queued)/cancel"), 409, "transition-conflict")
            expectProblem(h.send("POST", "/v1/sessions/q/transitions/t999/complete"), 404, "unknown-transition")
        }
    }

    /// docs/api.md: "Where UIKit returns nil (`pop` at the root), `returned` is null."
    @Test func popAtRootReturnsNull() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        let r = h.ok("POST", "/v1/sessions/s/controllers/nav/pop", "{}")
        #expect(r["returned"] == .null, "\(r)")
        #expect(h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "b"}}"#)["returned"] == nil)
    }

    /// D21 comes back in `warnings` of an accepted operation (docs/api.md), R17 as a 409 without a §17 code.
    @Test func loggedWarningsAndUncataloguedRefusals() throws {
        let h = try ServiceHarness()
        h.makeSession("s", options: #"{"transitions": "manual"}"#)
        h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "b"}}"#)
        let r = h.ok("POST", "/v1/sessions/s/controllers/b/present", #"{"viewController": {"id": "x"}, "modalPresentationStyle": "fullScreen"}"#)
        let warning = r["warnings"]?.array?.first
        #expect(warning?["type"]?.string == "/v1/problems/unbalanced-appearance", "\(r)")
        #expect(warning?["uikit"]?["code"]?.string == "D21", "\(r)")
        #expect(warning?["status"] == nil && warning?["title"]?.string == "UIKit logs a warning", "the call went on: \(r)")
        let history = h.ok("GET", "/v1/sessions/s/history?after=0&limit=100")
        #expect(history["entries"]?.array?.last?["warnings"]?.array?.first?["uikit"]?["code"]?.string == "D21", "\(history)")

        _ = h.send(
            "POST", "/v1/sessions",
            #"{"id": "p", "traits": {"userInterfaceIdiom": "pad", "horizontalSizeClass": "regular", "verticalSizeClass": "regular"}, "root": {"id": "root"}}"#)
        h.ok(
            "POST", "/v1/sessions/p/controllers/root/present",
            #"{"viewController": {"id": "pop"}, "modalPresentationStyle": "popover", "popover": {"sourceView": "button"}}"#)
        h.expectUnchanged("p") {
            let r = h.send(
                "POST", "/v1/sessions/p/controllers/pop/present",
                #"{"viewController": {"id": "x"}, "modalPresentationStyle": "overCurrentContext", "modalTransitionStyle": "crossDissolve"}"#)
            expectProblem(r, 409, "context-style-in-popover")
            #expect(r["uikit"]?["code"] == nil && r["uikit"]?["name"]?.string == "NSInvalidArgumentException", "\(r)")
        }
    }

    /// R82, R87, R89 over HTTP: delegates in the ControllerSpec, `tapTab` as a user's tap.
    @Test func delegatesAndTapTab() throws {
        let h = try ServiceHarness()
        let created = h.send(
            "POST", "/v1/sessions",
            """
            {"id": "t", "root": {"id": "tabs", "kind": "tabBarController", "tabBarDelegate": {},
             "viewControllers": [{"id": "n", "kind": "navigationController", "navigationDelegate": {},
                                  "viewControllers": [{"id": "a"}]}, {"id": "c"}]}}
            """)
        #expect(created.status == 201, "\(created)")
        #expect(created["controllers"]?["n"]?["navigationDelegate"] != nil, "\(created)")
        var r = h.ok("POST", "/v1/sessions/t/controllers/n/push", #"{"viewController": {"id": "b"}, "animated": false}"#)
        let callbacks = { (r: ServiceReply) in r["events"]?.array?.compactMap { $0["callback"]?.string } ?? [] }
        #expect(callbacks(r).first(where: { $0.hasPrefix("navigationController") }) == "navigationControllerWillShow", "\(r)")
        #expect(callbacks(r).last == "navigationControllerDidShow", "\(r)")
        r = h.ok("POST", "/v1/sessions/t/controllers/tabs/tapTab", #"{"index": 0}"#)
        // R161: `tabBarDelegate: {}` gives no shouldSelect answer, so the delegate is not asked.
        #expect(!callbacks(r).contains("tabBarControllerShouldSelect") && callbacks(r).contains("tabBarControllerDidSelect"), "\(r)")
        #expect(r["transition"]?["operation"]?.string == "popToRoot", "\(r)")
        #expect(r["session"]?["controllers"]?["n"]?["viewControllers"]?.array?.count == 1, "R89: \(r)")
        h.ok("PATCH", "/v1/sessions/t/controllers/tabs", #"{"tabBarDelegate": {"shouldSelect": false}}"#)
        r = h.ok("POST", "/v1/sessions/t/controllers/tabs/tapTab", #"{"viewController": "c"}"#)
        #expect(callbacks(r) == ["tabBarControllerShouldSelect"] && r["session"]?["controllers"]?["tabs"]?["selectedIndex"]?.number == 0, "\(r)")
    }
}

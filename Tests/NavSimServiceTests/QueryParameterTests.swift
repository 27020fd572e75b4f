import HTTPServer
import NavigationCore
import NavSimService
import JSONValues
import Testing

/// Query parameters are `invalid-query`, not `invalid-body` (a GET has no body); one wording per
/// problem (docs/api.md "Problem types").
@Suite("Service: query parameters and problem wording")
struct QueryParameterTests {
    @Test func badQueryValuesAreInvalidQueryNamingTheParameter() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        for (target, field) in [
            ("/v1/sessions?limit=0", "limit"), ("/v1/sessions?limit=x", "limit"),
            ("/v1/sessions/s?version=-1", "version"), ("/v1/sessions/s?version=abc", "version"),
            ("/v1/sessions/s?replay=yes", "replay"), ("/v1/sessions/s/history?after=x", "after"),
            ("/v1/sessions/s/history?limit=1001", "limit"),
        ] {
            let r = h.send("GET", target)
            expectProblem(r, 422, "invalid-query")
            #expect(r["field"]?.string == field, "\(target): \(r)")
            #expect(r["title"]?.string == "A query parameter is invalid", "\(target): \(r)")
        }
    }

    @Test func aNumberBeyondSixtyFourBitsIsOutOfRangeNotAWrongKindOfNumber() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        let r = h.send("GET", "/v1/sessions/s?version=99999999999999999999")
        expectProblem(r, 422, "invalid-query")
        let detail = r["detail"]?.string ?? ""
        #expect(detail.contains("out of range"), "\(r)")
        #expect(!detail.contains("whole number"), "\(r)")
        #expect(h.send("GET", "/v1/sessions/s/history?limit=5000")["detail"]?.string?.contains("out of range") == true)
        #expect(h.send("GET", "/v1/sessions/s?version=abc")["detail"]?.string?.contains("'abc'") == true)
    }

    @Test func aRepeatedSingleValuedParameterIsRefused() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        #expect(h.send("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "two"}}"#).status == 200)  // version 1
        for target in [
            "/v1/sessions/s?version=0&version=1", "/v1/sessions/s?version=1&version=1",
            "/v1/sessions/s?replay=true&replay=false", "/v1/sessions?limit=5&limit=6",
            "/v1/sessions?after=a&after=b", "/v1/sessions/s/history?after=0&after=1",
        ] {
            let r = h.send("GET", target)
            expectProblem(r, 422, "invalid-query")
            #expect(r["detail"]?.string?.contains("more than once") == true, "\(target): \(r)")
        }
        #expect(h.send("GET", "/v1/sessions/s?version=1").status == 200)
    }

    @Test func anUnknownControllerHasOneWordingOnEveryRoute() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        let read = h.send("GET", "/v1/sessions/s/controllers/C")
        let operation = h.send("POST", "/v1/sessions/s/controllers/C/dismiss", "{}")
        expectProblem(read, 404, "unknown-controller")
        expectProblem(operation, 404, "unknown-controller")
        #expect(read["detail"]?.string == CommandError.unknown("C").message)
        #expect(operation["detail"]?.string == read["detail"]?.string)
    }

    @Test func aBodyThatTakesNoFieldsSaysSo() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        let r = h.send("POST", "/v1/sessions/s/transitions/complete", #"{"x": 1}"#)
        expectProblem(r, 422, "invalid-body")
        #expect(r["detail"]?.string == "Unknown field 'x'. The body takes no fields.", "\(r)")
        #expect(r["allowed"]?.array?.isEmpty == true, "\(r)")
    }
}

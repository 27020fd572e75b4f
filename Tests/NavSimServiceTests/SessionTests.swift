import Foundation
import HTTPServer
import JSONValues
import Testing

import NavSimService
import SQLiteStore

private func versions(_ reply: ServiceReply) -> [Int] {
    (reply["entries"]?.array ?? []).compactMap { $0["version"]?.number.map { Int($0) } }
}

// MARK: - Headers, creation, history, versions, turns, restart

@Suite("Service: sessions, history and replay")
struct SessionTests {
    @Test func getAnswersWithETagOfTheVersion() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        var r = h.ok("GET", "/v1/sessions/s")
        #expect(r.headers["etag"] == #""0""#)
        #expect(r.headers["content-type"] == "application/json")
        r = h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p1"}}"#)
        #expect(r.headers["etag"] == #""1""#, "a mutation answers with the new version's ETag")
        r = h.ok("GET", "/v1/sessions/s")
        #expect(r.headers["etag"] == #""1""#)
        #expect(r["version"]?.number == 1)
        r = h.ok("GET", "/v1/sessions/s/controllers/p1")
        #expect(r.headers["etag"] == #""1""#)
        #expect(h.ok("GET", "/v1/sessions/s/history").headers["etag"] == #""1""#)
        #expect(h.ok("GET", "/v1/sessions/s/transitions").headers["etag"] == #""1""#)
        #expect(h.ok("GET", "/v1/sessions/s?version=0").headers["etag"] == #""0""#)
    }

    @Test func createAnswers201WithLocation() throws {
        let h = try ServiceHarness()
        var r = h.makeSession("s")
        #expect(r.headers["location"] == "/v1/sessions/s")
        #expect(r.headers["etag"] == #""0""#)
        #expect(r["id"]?.string == "s" && r["version"]?.number == 0)
        #expect(r["window"]?["rootViewController"]?.string == "nav")
        #expect(r["window"]?["visibleViewController"]?.string == "home")
        let fetched = h.ok("GET", r.headers["location"] ?? "-")
        // The 201 also carries the creation's `events` (the root appearing).
        var created = r.json
        if case .object(let members) = created { created = .object(members.filter { $0.0 != "events" }) }
        #expect(fetched.json == created, "GET at Location answers the session the 201 carried")
        #expect(r["events"]?.array?.isEmpty == false)

        // Without an id, one is made up; Location names it.
        r = h.ok("POST", "/v1/sessions", "{}", status: 201)
        let id = try #require(r["id"]?.string)
        #expect(!id.isEmpty)
        #expect(r.headers["location"] == "/v1/sessions/\(id)")
        #expect(r["traits"]?["userInterfaceIdiom"]?.string == "phone")
        #expect(r["options"]?["iOS"]?.string == "26" && r["options"]?["transitions"]?.string == "immediate", "the default release")
        #expect(h.send("POST", "/v1/sessions").status == 201, "an empty body is an empty object")

        // A controller outside any hierarchy.
        r = h.ok("POST", "/v1/sessions/s/controllers", #"{"id": "loose", "class": "LooseViewController"}"#, status: 201)
        #expect(r.headers["location"] == "/v1/sessions/s/controllers/loose")
        #expect(r.headers["etag"] == #""1""#)
        #expect(r["id"]?.string == "loose" && r["parent"] == .null)
        #expect(h.ok("GET", "/v1/sessions/s/controllers/loose").text == r.text)
        #expect(h.version("s") == 1, "POST …/controllers appends one history entry")

        // The id is taken now.
        h.expectUnchanged("s") {
            expectProblem(h.send("POST", "/v1/sessions", #"{"id": "s"}"#), 409, "session-exists")
        }
    }

    @Test func listPagesAndDelete() throws {
        let h = try ServiceHarness()
        for id in ["d", "b", "e", "a", "c"] { h.makeSession(id) }
        func ids(_ r: ServiceReply) -> [String] { (r["sessions"]?.array ?? []).compactMap { $0["id"]?.string } }
        func walk(limit: Int) -> [String] {
            var seen: [String] = []
            var after: String?
            for _ in 0..<10 {
                let r = h.ok("GET", "/v1/sessions?limit=\(limit)" + (after.map { "&after=\($0)" } ?? ""))
                seen += ids(r)
                #expect((r["sessions"]?.array ?? []).allSatisfy { $0["version"]?.number != nil && $0["createdAt"]?.string != nil })
                guard let next = r["next"]?.string else { break }
                after = next
            }
            return seen
        }
        let all = ids(h.ok("GET", "/v1/sessions"))
        #expect(Set(all) == ["a", "b", "c", "d", "e"] && all.count == 5)
        #expect(walk(limit: 2) == all, "following next visits every session once, in the list's order")
        #expect(walk(limit: 1) == all)

        let r = h.send("DELETE", "/v1/sessions/c")
        #expect(r.status == 204 && r.body.isEmpty)
        expectProblem(h.send("GET", "/v1/sessions/c"), 404, "unknown-session")
        expectProblem(h.send("GET", "/v1/sessions/c/history"), 404, "unknown-session")
        #expect(ids(h.ok("GET", "/v1/sessions")) == all.filter { $0 != "c" })

        // The cursor's own session deleted between two pages: the next page still follows it.
        let first = h.ok("GET", "/v1/sessions?limit=2")
        let cursor = try #require(first["next"]?.string)
        #expect(h.send("DELETE", "/v1/sessions/\(cursor)").status == 204)
        let second = h.ok("GET", "/v1/sessions?limit=10&after=\(cursor)")
        #expect(ids(first) + ids(second) == all.filter { $0 != "c" }, "pages after a deleted cursor: \(second)")

        // The order is the same after a restart.
        let before = h.ok("GET", "/v1/sessions").text
        try h.restart()
        #expect(h.ok("GET", "/v1/sessions").text == before)
    }

    @Test func historyPages() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        for i in 1...7 {
            let r = h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p\#(i)"}, "animated": \#(i % 2 == 0)}"#)
            #expect(r["version"]?.number == Double(i))
        }
        var r = h.ok("GET", "/v1/sessions/s/history?limit=3")
        #expect(versions(r) == [1, 2, 3])
        #expect(r["next"]?.number == 3)
        r = h.ok("GET", "/v1/sessions/s/history?after=3&limit=3")
        #expect(versions(r) == [4, 5, 6])
        #expect(r["next"]?.number == 6)
        r = h.ok("GET", "/v1/sessions/s/history?after=6&limit=3")
        #expect(versions(r) == [7])
        #expect(r["next"] == nil, "the last page has no next: \(r)")
        r = h.ok("GET", "/v1/sessions/s/history?after=7")
        #expect(versions(r) == [] && r["next"] == nil)

        // Following `next` visits every entry once; the version is the number of entries.
        var all: [JSON] = []
        var after: Int?
        for _ in 0..<20 {
            let page = h.ok("GET", "/v1/sessions/s/history?limit=2" + (after.map { "&after=\($0)" } ?? ""))
            all += page["entries"]?.array ?? []
            guard let next = page["next"]?.number else { break }
            after = Int(next)
        }
        #expect(all.compactMap { $0["version"]?.number } == (1...7).map(Double.init))
        #expect(versions(h.ok("GET", "/v1/sessions/s/history")) == Array(1...7))

        // Each entry records the request and what UIKit did.
        for (i, entry) in all.enumerated() {
            let n = i + 1
            #expect(entry["request"]?["method"]?.string == "POST")
            #expect(entry["request"]?["path"]?.string == "/v1/sessions/s/controllers/nav/push")
            #expect(
                entry["request"]?["body"]
                    == .object([
                        ("viewController", .object([("id", .string("p\(n)"))])),
                        ("animated", .bool(n % 2 == 0)),
                    ]))
            #expect(entry["transition"]?["operation"]?.string == "push")
            #expect(entry["transition"]?["toViewController"]?.string == "p\(n)")
            #expect(entry["transition"]?["animated"]?.bool == (n % 2 == 0))
            #expect(entry["events"]?.array?.isEmpty == false)
            #expect(entry["at"]?.string != nil)
        }
    }

    /// Records the session's JSON after every accepted request, then asks for each version.
    @Test func versionQueryReplaysToTheSameJSON() throws {
        let h = try ServiceHarness()
        var recorded: [String: [Int: String]] = [:]
        func record(_ sid: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let r = h.send("GET", "/v1/sessions/\(sid)")
            let v = Int(r["version"]?.number ?? -1)
            #expect(recorded[sid]?[v] == nil, "version \(v) recorded twice", sourceLocation: sourceLocation)
            recorded[sid, default: [:]][v] = r.text
        }
        func op(
            _ sid: String, _ method: String, _ path: String, _ body: String, status: Int = 200,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            h.ok(method, "/v1/sessions/\(sid)\(path)", body, status: status, sourceLocation: sourceLocation)
            record(sid, sourceLocation: sourceLocation)
        }

        h.makeSession("s")
        record("s")
        op("s", "POST", "/controllers/nav/push", #"{"viewController": {"id": "p1", "title": "One"}}"#)
        op(
            "s", "POST", "/controllers/p1/present",
            #"{"viewController": {"id": "m1", "kind": "navigationController", "viewControllers": [{"id": "m1root"}]}, "modalPresentationStyle": "formSheet"}"#)
        #expect(h.send("POST", "/v1/sessions/s/controllers/p1/present", #"{"viewController": {"id": "m2"}}"#).status == 409)
        op("s", "POST", "/controllers/m1/push", #"{"viewController": {"id": "m1detail"}, "animated": false}"#)
        op("s", "PATCH", "/controllers/home", #"{"title": "Home", "modalPresentationStyle": "overFullScreen", "definesPresentationContext": true}"#)
        op("s", "PATCH", "", #"{"traits": {"horizontalSizeClass": "regular", "userInterfaceIdiom": "pad"}}"#)
        op(
            "s", "POST", "/turns",
            """
            {"operations": [{"controller": "m1", "operation": "dismiss"},
                            {"controller": "nav", "operation": "present", "viewController": {"id": "m3"}},
                            {"controller": "nav", "operation": "pop", "animated": false}]}
            """)
        op(
            "s", "POST", "/controllers", #"{"id": "loose", "kind": "tabBarController", "viewControllers": [{"id": "t1"}, {"id": "t2"}]}"#,
            status: 201)
        op("s", "POST", "/controllers/loose/select", #"{"index": 1}"#)
        op("s", "PUT", "/rootViewController", #"{"viewController": "loose"}"#)
        op("s", "POST", "/controllers/t2/present", #"{"viewController": {"id": "sheet", "transitioningDelegate": {"name": "Fade", "duration": 0.2}}}"#)
        op("s", "POST", "/controllers/sheet/dismiss", #"{"animated": false}"#)

        // Manual transitions: in flight, then finished by ticks.
        h.makeSession("m", options: #"{"transitions": "manual", "iOS": "18"}"#)
        record("m")
        op("m", "POST", "/controllers/nav/present", #"{"viewController": {"id": "a"}}"#)
        let inFlight = h.ok("GET", "/v1/sessions/m/transitions")["transitions"]?.array ?? []
        #expect(inFlight.count == 1 && inFlight.first?["state"]?.string == "inProgress", "\(inFlight)")
        let tid = try #require(inFlight.first?["id"]?.string)
        op("m", "POST", "/transitions/\(tid)/complete", "{}")
        op("m", "POST", "/controllers/nav/push", #"{"viewController": {"id": "b"}}"#)
        op("m", "POST", "/transitions/complete", "{}")
        op("m", "POST", "/controllers/a/dismiss", "{}")

        for (sid, byVersion) in recorded {
            let current = try #require(h.version(sid))
            #expect(Set(byVersion.keys) == Set(0...current), "\(sid): one recording per version")
            for (v, text) in byVersion.sorted(by: { $0.key < $1.key }) {
                let r = h.send("GET", "/v1/sessions/\(sid)?version=\(v)")
                #expect(r.status == 200, "\(sid)?version=\(v): \(r)")
                #expect(r.headers["etag"] == "\"\(v)\"")
                #expect(r.text == text, "\(sid)?version=\(v) replays to different JSON")
            }
            expectProblem(h.send("GET", "/v1/sessions/\(sid)?version=\(current + 1)"), 404, "unknown-version")
            expectProblem(h.send("GET", "/v1/sessions/\(sid)?version=one"), 422, "invalid-query")
        }
    }

    @Test func turnReportsARefusalInItsPlaceAndAppendsOneEntry() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.ok("POST", "/v1/sessions/s/controllers/nav/push", #"{"viewController": {"id": "p1"}}"#)
        let r = h.ok(
            "POST", "/v1/sessions/s/turns",
            """
            {"operations": [{"controller": "nav", "operation": "present", "viewController": {"id": "m1"}},
                            {"controller": "nav", "operation": "present", "viewController": {"id": "m2"}},
                            {"controller": "nav", "operation": "pop", "animated": false}]}
            """)
        #expect(r["version"]?.number == 2)
        #expect(r.headers["etag"] == #""2""#)
        let results = r["results"]?.array ?? []
        try #require(results.count == 3, "\(r)")
        #expect(results[0]["transition"]?["operation"]?.string == "present", "\(results[0])")
        #expect(results[0]["session"] == nil, "results carry no session")
        // The second present meets the first one's links: UIKit's warning, reported in its place.
        #expect(results[1]["status"]?.number == 409, "\(results[1])")
        #expect(results[1]["type"]?.string?.hasPrefix("/v1/problems/") == true, "\(results[1])")
        #expect(results[1]["uikit"]?["code"]?.string != nil, "\(results[1])")
        #expect(results[1]["detail"]?.string?.contains("m2") == true, "\(results[1])")
        // The others still ran.
        #expect(results[2]["transition"]?["operation"]?.string == "pop", "\(results[2])")
        #expect(strings(results[2]["returned"]) == ["p1"], "\(results[2])")

        let session = h.ok("GET", "/v1/sessions/s")
        #expect(r["session"] == session.json, "the turn's session is the session now")
        #expect(session["controllers"]?["m1"]?["presentingViewController"]?.string == "nav")
        #expect(session["controllers"]?["m2"] == nil, "the refused present created nothing")
        #expect(session["controllers"]?["nav"]?["viewControllers"].map(strings) == ["home"])

        let entries = h.ok("GET", "/v1/sessions/s/history?after=1")["entries"]?.array ?? []
        #expect(entries.count == 1, "the turn appends exactly one entry")
        #expect(entries.first?["version"]?.number == 2)
        #expect(entries.first?["request"]?["path"]?.string == "/v1/sessions/s/turns")

        // A turn whose every operation is refused is still one accepted request.
        let refused = h.ok(
            "POST", "/v1/sessions/s/turns",
            #"{"operations": [{"controller": "nav", "operation": "present", "viewController": {"id": "m3"}}]}"#)
        #expect(refused["version"]?.number == 3)
        #expect((refused["results"]?.array ?? []).first?["status"]?.number == 409, "\(refused)")
        #expect(versions(h.ok("GET", "/v1/sessions/s/history")) == [1, 2, 3])
        #expect(h.ok("GET", "/v1/sessions/s")["controllers"]?["m3"] == nil)
    }

    @Test func restartLoadsEverySessionUnchanged() throws {
        let h = try ServiceHarness()
        // Created out of id order, so that the session list's order is tested too.
        h.ok(
            "POST", "/v1/sessions",
            #"{"id": "c", "traits": {"userInterfaceIdiom": "pad"}, "root": {"id": "split", "kind": "splitViewController", "style": "doubleColumn", "primary": {"id": "list"}, "secondary": {"id": "detail"}}}"#,
            status: 201)
        h.makeSession("gone")
        h.makeSession("b", options: #"{"transitions": "manual"}"#)
        h.makeSession("a")
        for i in 1...4 { h.ok("POST", "/v1/sessions/a/controllers/nav/push", #"{"viewController": {"id": "a\#(i)"}}"#) }
        h.ok("POST", "/v1/sessions/a/controllers/nav/pop", "{}")
        h.ok("POST", "/v1/sessions/a/controllers/a3/present", #"{"viewController": {"id": "sheet"}, "modalPresentationStyle": "pageSheet"}"#)
        h.ok("PATCH", "/v1/sessions/a/controllers/sheet", #"{"isModalInPresentation": true, "presentationDelegate": {"shouldDismiss": false}}"#)
        h.ok("POST", "/v1/sessions/a/controllers/sheet/interactiveDismiss", #"{"completes": true}"#)
        h.ok("POST", "/v1/sessions/b/controllers/nav/present", #"{"viewController": {"id": "inflight"}}"#)  // left in progress
        h.ok("POST", "/v1/sessions/c/controllers/list/showDetail", #"{"viewController": {"id": "detail2"}}"#)
        h.ok("PATCH", "/v1/sessions/c", #"{"traits": {"horizontalSizeClass": "compact"}}"#)
        h.ok("POST", "/v1/sessions/c/controllers", #"{"id": "orphan"}"#, status: 201)
        #expect(h.send("DELETE", "/v1/sessions/gone").status == 204)
        #expect(h.send("POST", "/v1/sessions/a/controllers/a3/present", #"{"viewController": {"id": "x"}}"#).status == 409)

        let ids = ["a", "b", "c"]
        let before = Dictionary(uniqueKeysWithValues: ids.map { ($0, h.snapshot($0)) })
        let replays = Dictionary(
            uniqueKeysWithValues: ids.map { id in
                (id, (0...(h.version(id) ?? 0)).map { h.send("GET", "/v1/sessions/\(id)?version=\($0)").text })
            })
        let list = h.ok("GET", "/v1/sessions").text
        let transitions = h.ok("GET", "/v1/sessions/b/transitions").text
        #expect(transitions.contains("inProgress"))

        try h.restart()

        for id in ids {
            let after = h.snapshot(id)
            #expect(after.status == 200)
            #expect(after.session == before[id]?.session, "session \(id) differs after the restart")
            #expect(after.etag == before[id]?.etag)
            #expect(after.history == before[id]?.history, "history of \(id) differs after the restart")
            for (v, text) in (replays[id] ?? []).enumerated() {
                #expect(h.send("GET", "/v1/sessions/\(id)?version=\(v)").text == text, "\(id)?version=\(v) after the restart")
            }
        }
        #expect(h.ok("GET", "/v1/sessions").text == list)
        #expect(h.ok("GET", "/v1/sessions/b/transitions").text == transitions)
        expectProblem(h.send("GET", "/v1/sessions/gone"), 404, "unknown-session")

        // The restarted service carries on where the old one stopped.
        let r = h.ok("POST", "/v1/sessions/b/transitions/complete", "{}")
        #expect(r["version"]?.number == 2, "\(r)")
        #expect(h.ok("POST", "/v1/sessions/a/controllers/nav/popToRoot", "{}")["version"]?.number == 9)
        try h.restart()
        #expect(h.version("a") == 9 && h.version("b") == 2)
        #expect(versions(h.ok("GET", "/v1/sessions/a/history")) == Array(1...9))
    }

    /// R90/R91 over HTTP: a doubleColumn split's columns are wrapped in `<split id>.<column>`
    /// navigation controllers; `splitDelegate.topColumnForCollapsing` is decoded; both survive a restart.
    @Test func doubleColumnSplitAnswersItsWrappers() throws {
        let h = try ServiceHarness()
        let r = h.ok(
            "POST", "/v1/sessions",
            """
            {"id": "s", "traits": {"userInterfaceIdiom": "pad", "horizontalSizeClass": "regular", "verticalSizeClass": "regular"},
             "root": {"id": "split", "kind": "splitViewController", "style": "doubleColumn",
                      "primary": {"id": "list", "class": "ListViewController"},
                      "secondary": {"id": "detail", "class": "DetailViewController"}}}
            """, status: 201)
        func controller(_ id: String) -> JSON? { r["controllers"]?[id] }
        #expect(strings(controller("split")?["children"]) == ["split.primary", "split.secondary"], "\(r)")
        #expect(controller("split")?["style"]?.string == "doubleColumn")
        #expect(controller("split")?["isCollapsed"]?.bool == false)
        #expect(controller("split")?["displayMode"]?.string == "oneBesideSecondary")
        #expect(controller("split")?["primary"]?.string == "list" && controller("split")?["secondary"]?.string == "detail")
        #expect(controller("split")?["supplementary"] == .null)
        for (wrapper, content) in [("split.primary", "list"), ("split.secondary", "detail")] {
            #expect(controller(wrapper)?["kind"]?.string == "navigationController", "\(r)")
            #expect(controller(wrapper)?["class"]?.string == "UINavigationController")
            #expect(controller(wrapper)?["parent"]?.string == "split")
            #expect(strings(controller(wrapper)?["viewControllers"]) == [content])
            #expect(controller(content)?["parent"]?.string == wrapper)
            #expect(controller(content)?["navigationController"]?.string == wrapper)
            #expect(controller(content)?["splitViewController"]?.string == "split")
        }
        #expect(strings(r["window"]?["viewsInWindow"]) == ["split", "split.primary", "list", "split.secondary", "detail"])
        #expect(r["window"]?["visibleViewController"]?.string == "detail")

        // Compact width: the secondary is merged onto the primary column's stack (proposed .secondary).
        h.ok("PATCH", "/v1/sessions/s", #"{"traits": {"horizontalSizeClass": "compact"}}"#)
        let session = h.ok("GET", "/v1/sessions/s")
        #expect(session["controllers"]?["split"]?["isCollapsed"]?.bool == true, "\(session)")
        #expect(session["controllers"]?["split"]?["displayMode"]?.string == "secondaryOnly")
        #expect(strings(session["controllers"]?["split.primary"]?["viewControllers"]) == ["list", "detail"])
        #expect(session["controllers"]?["detail"]?["navigationController"]?.string == "split.primary")
        #expect(strings(session["window"]?["viewsInWindow"]) == ["split", "split.primary", "detail"])

        // The column-style delegate answer; an unknown column is a 422 naming the allowed ones.
        let t = h.ok(
            "POST", "/v1/sessions",
            """
            {"id": "t", "root": {"id": "split", "kind": "splitViewController", "style": "doubleColumn",
             "splitDelegate": {"topColumnForCollapsing": "primary"},
             "primary": {"id": "list"}, "secondary": {"id": "detail"}}}
            """, status: 201)
        #expect(strings(t["controllers"]?["split.primary"]?["viewControllers"]) == ["list"], "\(t)")
        let triple = h.ok(
            "POST", "/v1/sessions",
            """
            {"id": "triple", "traits": {"userInterfaceIdiom": "pad", "horizontalSizeClass": "regular", "verticalSizeClass": "regular"},
             "root": {"id": "split", "kind": "splitViewController", "style": "tripleColumn",
             "primary": {"id": "a"}, "supplementary": {"id": "b"}, "secondary": {"id": "c"}}}
            """, status: 201)
        #expect(triple["controllers"]?["split"]?["displayMode"]?.string == "twoBesideSecondary", "three columns on screen: \(triple)")
        #expect(strings(t["controllers"]?["split.secondary"]?["viewControllers"]) == ["detail"])
        #expect(t["window"]?["visibleViewController"]?.string == "list")
        let bad = h.send(
            "POST", "/v1/sessions",
            """
            {"id": "u", "root": {"kind": "splitViewController", "style": "doubleColumn", "splitDelegate": {"topColumnForCollapsing": "compact"}}}
            """)
        expectProblem(bad, 422, "invalid-body")
        #expect(bad["field"]?.string == "root.splitDelegate.topColumnForCollapsing", "\(bad)")
        #expect(strings(bad["allowed"]) == ["primary", "supplementary", "secondary"], "\(bad)")

        let before = (h.snapshot("s"), h.snapshot("t"))
        try h.restart()
        #expect(h.snapshot("s") == before.0 && h.snapshot("t") == before.1, "persisted and reloaded unchanged")
    }

    @Test func metaEndpoints() throws {
        let h = try ServiceHarness()
        var r = h.ok("GET", "/healthz")
        #expect(r.json == .object([("status", .string("ok"))]))
        r = h.ok("GET", "/openapi.yaml")
        #expect(r.body == FileManager.default.contents(atPath: ServiceFiles.openAPI).map { Array($0) })
        r = h.ok("GET", "/metrics")
        #expect(r.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(r.text.contains("navsim_requests_total"))
        expectProblem(h.send("GET", "/nothing"), 404, "not-found")
        expectProblem(h.send("GET", "/v1/sessions/s/nothing"), 404, "not-found")
    }

    /// A session id is its bytes, as the database keys it: `é` and `e` with a combining accent
    /// (one string to Swift's `==`) name two sessions, whichever part of the registry their
    /// bytes fall in; one never answers for the other, before or after a restart.
    @Test func canonicallyEquivalentSessionIdsAreTwoSessions() throws {
        let h = try ServiceHarness()
        let prefixes = (0..<16).map { "r" + String(UnicodeScalar(UInt8(65 + $0))) }
        for p in prefixes {
            #expect(h.send("POST", "/v1/sessions", #"{"id": "\#(p)\u00e9", "root": {"id": "one"}}"#).status == 201)
            expectProblem(h.send("GET", "/v1/sessions/\(p)e\u{301}"), 404, "unknown-session")
            #expect(h.send("POST", "/v1/sessions", #"{"id": "\#(p)e\u0301", "root": {"id": "two"}}"#).status == 201)
        }
        for round in 0..<2 {
            for p in prefixes {
                let composed = h.ok("GET", "/v1/sessions/\(p)\u{e9}")
                let decomposed = h.ok("GET", "/v1/sessions/\(p)e\u{301}")
                #expect(composed["id"]?.string.map { Array($0.utf8) } == Array("\(p)\u{e9}".utf8), "\(p)")
                #expect(composed["controllers"]?["one"] != nil && composed["controllers"]?["two"] == nil, "\(p)")
                #expect(decomposed["id"]?.string.map { Array($0.utf8) } == Array("\(p)e\u{301}".utf8), "\(p)")
                #expect(decomposed["controllers"]?["two"] != nil && decomposed["controllers"]?["one"] == nil, "\(p)")
            }
            if round == 0 { try h.restart() }
        }
    }
}

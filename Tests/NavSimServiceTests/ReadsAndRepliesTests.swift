import Foundation
import HTTPServer
import JSONValues
import NavigationCore
import Synchronization
import Testing

@testable import NavSimService
@testable import SessionFormat
import SessionStorage

/// Reads from cached bytes, conditional GET (RFC 9110 §13.1.2),
/// `Prefer: return=minimal` (RFC 7240 §4.2) and keyset paging of the session list.
@Suite struct ReadsAndRepliesTests {
    /// The live session's state and version, read under its lock.
    func live(_ h: ServiceHarness, _ sid: String) -> LiveSession? {
        try? h.service?.sessions.box(sid)?.withLock { .success($0) }.get()
    }

    func push(_ h: ServiceHarness, _ sid: String, _ id: String, headers: [(String, String)] = []) -> ServiceReply {
        h.send(
            "POST", "/v1/sessions/\(sid)/controllers/nav/push", #"{"viewController": {"id": "\#(id)"}, "animated": false}"#,
            headers: headers)
    }

    @Test func aCachedReadIsTheSessionEncodedAfresh() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        for id in ["a", "b", "c"] { #expect(push(h, "s", id).status == 200) }
        h.ok("POST", "/v1/sessions/s/controllers/nav/pop", #"{"animated": false}"#)
        h.ok("PATCH", "/v1/sessions/s/controllers/home", #"{"title": "Home"}"#)
        for _ in 0..<2 {  // the second read is served from the cache the first one filled
            let reply = h.send("GET", "/v1/sessions/s")
            let s = try #require(live(h, "s"))
            #expect(reply.status == 200)
            #expect(reply.body == Encode.session(id: "s", version: s.version, createdAt: s.createdAt, state: s.state))
            #expect(reply.headers["etag"] == "\"\(s.version)\"")
            #expect(reply.headers["vary"] == "Accept")
        }
        let controller = h.send("GET", "/v1/sessions/s/controllers/b")
        let s = try #require(live(h, "s"))
        #expect(controller.body == Encode.controller(try #require(s.state.controllers["b"]), in: s.state))
        #expect((h.service?.sessions.cachedBytes.load(ordering: .relaxed) ?? 0) > 0)
        try h.restart()
        let after = h.send("GET", "/v1/sessions/s")
        let reloaded = try #require(live(h, "s"))
        #expect(
            after.body
                == Encode.session(
                    id: "s", version: reloaded.version, createdAt: reloaded.createdAt,
                    state: reloaded.state))
    }

    @Test func theCacheKeepsToItsBudget() throws {
        let h = try ServiceHarness()
        h.makeSession("a")
        h.makeSession("b")
        // A creation keeps the bytes of version 0 its reply spliced, counted in the gauge.
        var a = try #require(live(h, "a")), b = try #require(live(h, "b"))
        let one = Encode.session(id: "a", version: 0, createdAt: a.createdAt, state: a.state).count
        #expect(a.encoded?.body == Encode.session(id: "a", version: 0, createdAt: a.createdAt, state: a.state))
        #expect(b.encoded?.version == 0)
        #expect(h.service?.sessions.cachedBytes.load(ordering: .relaxed) == one + (b.encoded?.body.count ?? 0))
        // Copies without bytes, under a budget of their own.
        a.replaceEncoding(nil, in: nil)
        b.replaceEncoding(nil, in: nil)
        let registry = SessionRegistry(cacheBudget: one + one / 2)
        #expect(a.encoding(in: registry).body.count == one)
        #expect(registry.cachedBytes.load(ordering: .relaxed) == one)
        // No room for b's bytes: answered, not kept.
        #expect(b.encoding(in: registry).body.count == one)
        #expect(b.encoded?.version == nil)
        #expect(registry.cachedBytes.load(ordering: .relaxed) == one)
        a.replaceEncoding(nil, in: registry)
        #expect(registry.cachedBytes.load(ordering: .relaxed) == 0)
    }

    @Test func deletingASessionGivesBackItsCachedBytes() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        h.ok("GET", "/v1/sessions/s")
        #expect((h.service?.sessions.cachedBytes.load(ordering: .relaxed) ?? 0) > 0)
        h.ok("DELETE", "/v1/sessions/s", status: 204)
        #expect(h.service?.sessions.cachedBytes.load(ordering: .relaxed) == 0)
    }

    @Test(arguments: [
        (#""1""#, 304), (#"W/"1""#, 304), ("*", 304), (#""0", "1""#, 304), (#" "7" , W/"1" "#, 304),
        (#""0""#, 200), (#"W/"0""#, 200), (#""10""#, 200),
    ])
    func conditionalGet(ifNoneMatch: String, status: Int) throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        #expect(push(h, "s", "a").status == 200)  // version 1
        for method in ["GET", "HEAD"] {
            let reply = h.send(method, "/v1/sessions/s", headers: [("If-None-Match", ifNoneMatch)])
            #expect(reply.status == status, "\(method) If-None-Match: \(ifNoneMatch): \(reply)")
            #expect(reply.headers["etag"] == #""1""#)
            #expect(reply.headers["vary"] == "Accept")
            if status == 304 { #expect(reply.body.isEmpty) }
        }
        let controller = h.send("GET", "/v1/sessions/s/controllers/a", headers: [("If-None-Match", ifNoneMatch)])
        #expect(controller.status == status, "controller: \(controller)")
    }

    @Test func conditionalGetOfAnOlderVersionAndBrokenFields() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        #expect(push(h, "s", "a").status == 200)
        #expect(h.send("GET", "/v1/sessions/s?version=0", headers: [("If-None-Match", #""0""#)]).status == 304)
        #expect(h.send("GET", "/v1/sessions/s?version=0", headers: [("If-None-Match", #""1""#)]).status == 200)
        // A picture has its own tag: the JSON's does not validate it, and the other way round.
        let text = [("Accept", "text/plain")]
        #expect(h.send("GET", "/v1/sessions/s", headers: text + [("If-None-Match", #""1-text""#)]).status == 304)
        #expect(h.send("GET", "/v1/sessions/s", headers: text + [("If-None-Match", #""1""#)]).status == 200)
        #expect(h.send("GET", "/v1/sessions/s", headers: [("If-None-Match", #""1-text""#)]).status == 200)
        // Two field lines are one list (RFC 9110 §5.3).
        #expect(h.send("GET", "/v1/sessions/s", headers: [("If-None-Match", #""5""#), ("If-None-Match", #""1""#)]).status == 304)
        expectProblem(h.send("GET", "/v1/sessions/s", headers: [("If-None-Match", "1")]), 400, "invalid-header")
        // An unknown version is 404 whatever the condition says.
        expectProblem(h.send("GET", "/v1/sessions/s?version=9", headers: [("If-None-Match", "*")]), 404, "unknown-version")
        expectProblem(h.send("GET", "/v1/sessions/nope", headers: [("If-None-Match", "*")]), 404, "unknown-session")
    }

    /// RFC 9110 §13.2.2 on every read with a tag: If-Match first (412 when false), then
    /// If-None-Match (304); the session's sub-resources answer like the session.
    @Test func everyReadEvaluatesBothConditions() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        #expect(push(h, "s", "a").status == 200)  // version 1
        for path in [
            "/v1/sessions/s", "/v1/sessions/s/controllers/a", "/v1/sessions/s/transitions",
            "/v1/sessions/s/history", "/v1/sessions/s?version=0",
        ] {
            let tag = try #require(h.send("GET", path).headers["etag"], "\(path)")
            #expect(h.send("GET", path, headers: [("If-None-Match", tag)]).status == 304, "\(path)")
            #expect(h.send("GET", path, headers: [("If-Match", tag)]).status == 200, "\(path)")
            #expect(h.send("GET", path, headers: [("If-Match", "*")]).status == 200, "\(path)")
            expectProblem(h.send("GET", path, headers: [("If-Match", #""999""#)]), 412, "version-mismatch")
            expectProblem(h.send("GET", path, headers: [("If-Match", "W/" + tag)]), 412, "version-mismatch")
            // If-Match is decided first: a false one is 412 even where If-None-Match would give 304.
            expectProblem(h.send("GET", path, headers: [("If-Match", #""999""#), ("If-None-Match", tag)]), 412, "version-mismatch")
            expectProblem(h.send("HEAD", path, headers: [("If-Match", #""999""#)]), 412, "version-mismatch")
        }
        // A replay's answer has no tag: `*` holds, a list never matches.
        #expect(h.send("GET", "/v1/sessions/s?replay=true", headers: [("If-Match", "*")]).status == 200)
        expectProblem(h.send("GET", "/v1/sessions/s?replay=true", headers: [("If-Match", #""1""#)]), 412, "version-mismatch")
        // Answers without a validator take no preconditions (nor do their writes): /healthz, the
        // session list, storyboards.
        for path in ["/healthz", "/v1/sessions", "/v1/storyboards"] {
            #expect(h.send("GET", path, headers: [("If-None-Match", "*")]).status == 200, "\(path)")
            #expect(h.send("GET", path, headers: [("If-Match", #""7""#)]).status == 200, "\(path)")
        }
        // A read that fails without the conditions fails the same with them (§13.2.1).
        expectProblem(h.send("GET", "/v1/sessions/s/controllers/zz", headers: [("If-Match", #""999""#)]), 404, "unknown-controller")
    }

    /// RFC 9110 §13.1.2: If-None-Match on a change is 412 when it matches (`*`: the session
    /// exists), and nothing is applied.
    @Test func aChangeWithAMatchingIfNoneMatchIsRefused() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        #expect(push(h, "s", "a").status == 200)  // version 1
        for value in ["*", #""1""#, #"W/"1""#, #""0", "1""#] {
            expectProblem(
                h.send("PATCH", "/v1/sessions/s/controllers/a", #"{"title": "x"}"#, headers: [("If-None-Match", value)]),
                412, "version-mismatch")
            expectProblem(h.send("DELETE", "/v1/sessions/s", headers: [("If-None-Match", value)]), 412, "version-mismatch")
        }
        #expect(h.send("GET", "/v1/sessions/s")["version"] == .number(1))
        expectProblem(
            h.send("PATCH", "/v1/sessions/s/controllers/a", #"{"title": "x"}"#, headers: [("If-None-Match", "1")]),
            400, "invalid-header")
        // A tag of another version does not match: the change goes ahead.
        #expect(h.send("PATCH", "/v1/sessions/s/controllers/a", #"{"title": "x"}"#, headers: [("If-None-Match", #""0""#)]).status == 200)
        #expect(h.send("GET", "/v1/sessions/s")["version"] == .number(2))
    }

    @Test func theFullReplyStaysTheDefault() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        let reply = push(h, "s", "a")
        let s = try #require(live(h, "s"))
        // The bytes the reply had before it was spliced from cached pieces: one JSON value encoded whole.
        guard case .object(let members) = reply.json else { Issue.record("not an object: \(reply)"); return }
        let expected = JSON.object(
            members.filter { $0.0 != "session" }
                + [("session", try JSON.parse(Encode.session(id: "s", version: s.version, createdAt: s.createdAt, state: s.state)))]
        ).bytes
        #expect(reply.body == expected)
        #expect(members.last?.0 == "session")
        #expect(reply.headers["preference-applied"] == nil)
        #expect(reply.headers["vary"] == "Prefer")
        // A preference the server does not know, or another return value, leaves it full.
        for prefer in ["respond-async", "return=representation", "return=minimalist"] {
            let other = push(h, "s", "x\(prefer.count)", headers: [("Prefer", prefer)])
            #expect(other.headers["preference-applied"] == nil, "\(prefer)")
            #expect(other["session"]?["controllers"]?["home"] != nil, "\(prefer)")
        }
    }

    @Test func aMinimalReplyCarriesWhatChanged() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        for id in ["a", "b", "c"] { #expect(push(h, "s", id).status == 200) }
        let reply = push(h, "s", "d", headers: [("Prefer", "return=minimal")])
        #expect(reply.status == 200, "\(reply)")
        #expect(reply.headers["preference-applied"] == "return=minimal")
        #expect(reply.headers["vary"] == "Prefer")
        #expect(reply.headers["etag"] == #""4""#)
        #expect(reply["version"]?.number == 4)
        #expect(reply["transition"]?["operation"]?.string == "push")
        #expect(reply["events"]?.array?.isEmpty == false)
        let session = try #require(reply["session"])
        guard case .object(let members) = session else { Issue.record("session: \(session)"); return }
        #expect(members.map(\.0) == ["id", "version", "window", "controllers", "removed"])
        #expect(session["window"]?["visibleViewController"]?.string == "d")
        // The new top and the one it covers changed (appearance, viewInWindow), and the
        // navigation controller (its stack); "home", "a" and "b" did not.
        guard case .object(let controllers)? = session["controllers"] else { Issue.record("controllers"); return }
        #expect(Set(controllers.map(\.0)) == ["nav", "c", "d"])
        #expect(session["removed"]?.array?.isEmpty == true)
        // Each piece is what a read of that controller answers now.
        let full = h.send("GET", "/v1/sessions/s")
        for (id, value) in controllers { #expect(full["controllers"]?[id] == value, "\(id)") }
        // Spellings RFC 7240 allows: parameters, case, quotes, several preferences in one line.
        for prefer in [#"return="minimal""#, "RETURN=Minimal; foo=bar", "respond-async, return=minimal", " return = minimal "] {
            let again = h.send("POST", "/v1/sessions/s/controllers/nav/pop", #"{"animated": false}"#, headers: [("Prefer", prefer)])
            #expect(again.headers["preference-applied"] == "return=minimal", "\(prefer): \(again)")
        }
    }

    @Test func aMinimalReplyIsTheSameSizeWhateverTheSessionHolds() throws {
        let h = try ServiceHarness()
        h.makeSession("small")
        h.makeSession("large")
        for i in 0..<40 { #expect(push(h, "large", "l\(i)").status == 200) }
        #expect(push(h, "small", "l0").status == 200)
        // Same operation, same ids in the reply (the top "l40" covers "l39" / "l0"'s slot differs in name only).
        let small = h.send(
            "POST", "/v1/sessions/small/controllers/nav/push", #"{"viewController": {"id": "top"}, "animated": false}"#,
            headers: [("Prefer", "return=minimal")])
        let large = h.send(
            "POST", "/v1/sessions/large/controllers/nav/push", #"{"viewController": {"id": "top"}, "animated": false}"#,
            headers: [("Prefer", "return=minimal")])
        guard case .object(let a)? = small["session"]?["controllers"], case .object(let b)? = large["session"]?["controllers"] else {
            Issue.record("controllers: \(small) \(large)"); return
        }
        #expect(a.count == b.count)
        let full = h.send("POST", "/v1/sessions/large/controllers/nav/pop", #"{"animated": false}"#)
        #expect(large.body.count * 5 < full.body.count, "minimal \(large.body.count) B, full \(full.body.count) B")
    }

    @Test func aMinimalTurnReply() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        let reply = h.send(
            "POST", "/v1/sessions/s/turns",
            #"""
            {"operations": [{"controller": "nav", "operation": "push", "viewController": {"id": "a"}, "animated": false},
                            {"controller": "nav", "operation": "pop", "animated": false}]}
            """#, headers: [("Prefer", "return=minimal")])
        #expect(reply.headers["preference-applied"] == "return=minimal", "\(reply)")
        #expect(reply["results"]?.array?.count == 2)
        #expect(reply["session"]?["controllers"]?["a"] != nil)
        #expect(reply["session"]?["removed"] != nil)
    }

    @Test func controllersThatLeaveAreListedAsRemoved() throws {
        // No operation deletes a controller yet; advance the encoding of one session's state
        // to another's to see the list a release would produce.
        let h = try ServiceHarness()
        h.makeSession("three")
        #expect(push(h, "three", "gone").status == 200)
        h.makeSession("two")
        let registry = try #require(h.service?.sessions)
        var three = try #require(live(h, "three"))
        let two = try #require(live(h, "two"))
        // The commit finds what left by the controller count, the encoding what changed by bytes.
        let (commit, _) = try Persistence.commit(
            TurnRecord(
                session: "three", createdAt: three.createdAt, version: three.version + 1, old: three.state, shell: nil,
                new: two.state, changed: [], at: "now", request: HTTPRequest(method: "POST", path: "/"), body: .object([]),
                commands: [], result: Array("null".utf8)))
        let removed = commit.deletedControllers
        #expect(removed == ["gone"])
        let (encoded, changed) = EncodedSession.make(
            id: "three", version: three.version + 1, createdAt: three.createdAt,
            state: two.state, previous: three.encoding(in: registry))
        let minimal = try JSON.parse(encoded.minimal(id: "three", state: two.state, changed: changed, removed: removed))
        #expect(minimal["removed"] == .array([.string("gone")]))
        #expect(minimal["controllers"]?["gone"] == nil)
    }

    @Test(arguments: [
        ("return=minimal", true), ("return=representation", false), ("", false), ("return", false),
        ("handling=lenient, return=minimal;x=1", true), ("Return=\"MINIMAL\"", true), ("minimal", false),
        // RFC 7240 §2: only the first instance of a preference counts.
        ("return=representation, return=minimal", false), ("return=minimal, return=representation", true),
    ])
    func preferParsing(value: String, minimal: Bool) {
        let request = HTTPRequest(method: "POST", path: "/", headers: HTTPHeaders([("Prefer", value)]))
        #expect(NavSimService.prefersMinimal(request) == minimal)
    }

    @Test func listingPagesByKeyset() throws {
        let h = try ServiceHarness()
        let ids = (0..<23).map { String(format: "s%02d", ($0 * 7) % 23) }  // created out of order
        for id in ids { h.makeSession(id) }
        func page(_ query: String) -> (ids: [String], next: String?) {
            let r = h.ok("GET", "/v1/sessions" + query)
            return (r["sessions"]?.array?.compactMap { $0["id"]?.string } ?? [], r["next"]?.string)
        }
        var seen: [String] = []
        var cursor: String?
        repeat {
            let p = page("?limit=10" + (cursor.map { "&after=\($0)" } ?? ""))
            seen += p.ids
            cursor = p.next
            if let next = p.next { #expect(next == p.ids.last) }
        } while cursor != nil
        #expect(seen == ids.sorted())
        #expect(page("?limit=23").next == nil)
        #expect(page("?limit=22").next == "s21")
        #expect(page("?after=s22").ids.isEmpty)
        #expect(page("?after=").ids.count == 23)
        // A cursor whose session was deleted still pages on, from the next id.
        h.ok("DELETE", "/v1/sessions/s05", status: 204)
        #expect(page("?limit=2&after=s04").ids == ["s06", "s07"])
        #expect(page("?after=s04x&limit=1").ids == ["s06"])
        h.makeSession("s05")
        #expect(page("?limit=2&after=s04").ids == ["s05", "s06"])
        try h.restart()
        #expect(page("?limit=100").ids == ids.sorted())
    }
}

extension ReadsAndRepliesTests {
    /// A GET of the current JSON reads the bytes the session's box publishes, not under the
    /// session's lock (otherwise the pool's readers of one session spin on that lock): with the
    /// lock held by another thread it is still answered, with the committed version's bytes; a
    /// write then republishes them, a deletion withdraws them.
    @Test func aReadOfTheCurrentVersionDoesNotWaitForTheSessionsLock() throws {
        let h = try ServiceHarness()
        h.makeSession("s")
        #expect(push(h, "s", "a").status == 200)
        let first = h.send("GET", "/v1/sessions/s")  // encodes and caches version 1
        let box = try #require(h.service?.sessions.box("s"))
        #expect(box.publishedEncoding()?.version == 1 && box.publishedEncoding()?.body == first.body)

        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), answered = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = box.withLock { _ -> Result<Int, Problem> in
                holding.signal()
                release.wait()
                return .success(0)
            }
        }
        holding.wait()
        let service = try #require(h.service)
        let reply = Mutex<HTTPResponse?>(nil)
        Thread.detachNewThread {
            let response = service.handle(HTTPRequest(method: "GET", path: "/v1/sessions/s"))
            reply.withLock { $0 = response }
            answered.signal()
        }
        let inTime = answered.wait(timeout: .now() + 10) == .success
        release.signal()
        if !inTime { _ = answered.wait(timeout: .now() + 10) }
        #expect(inTime, "the GET waited for the session's lock")
        let got = try #require(reply.withLock { $0 })
        #expect(got.status == 200 && got.body == first.body && got.headers["etag"] == "\"1\"")

        // A write's durable version is published once its commit is: the next read shows it.
        #expect(push(h, "s", "b").status == 200)
        let second = h.send("GET", "/v1/sessions/s")
        let s = try #require(live(h, "s"))
        #expect(s.version == 2 && second.headers["etag"] == "\"2\"")
        #expect(second.body == Encode.session(id: "s", version: 2, createdAt: s.createdAt, state: s.state))
        #expect(box.publishedEncoding()?.body == second.body)
        // 304 from the published tag as from the locked path.
        #expect(h.send("GET", "/v1/sessions/s", headers: [("If-None-Match", "\"2\"")]).status == 304)

        #expect(h.send("DELETE", "/v1/sessions/s").status == 204)
        #expect(box.publishedEncoding() == nil)
        #expect(h.send("GET", "/v1/sessions/s").status == 404)
    }
}

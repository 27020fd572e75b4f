import Foundation
import HTTPServer
import JSONValues
import NavigationCore
import SessionFormat
import SessionStorage

/// The routes of `/v1/sessions` and `/v1/sessions/{sid}` but its reads (Routes/HistoryRoutes.swift),
/// and the session lookups every session route goes through.
extension NavSimService {
    /// `PATCH /v1/sessions/{sid}`: `{"traits": …}` changes the window's traits.
    func setTraits(_ req: HTTPRequest, _ sid: String) throws(Problem) -> HTTPResponse {
        try mutate(req, sid) { body, state, decoder throws(Problem) in
            let r = try BodyReader(body, allowed: ["traits"])
            guard r.has("traits") else { throw Problem.invalidField("traits", "traits is required.") }
            let traits = try decoder.traits(r.raw("traits"), path: "traits", base: state.traits)
            return [.setTraits(traits)]
        }
    }

    func createSession(_ req: HTTPRequest) throws(Problem) -> HTTPResponse {
        let body = try parseBody(req)
        let r = try BodyReader(body, allowed: ["id", "traits", "root", "options"])
        let decoder = self.decoder(existing: 0)
        let traits = try decoder.traits(r.raw("traits"), path: "traits", base: .phonePortrait)
        var options = Options()
        if let o = try r.object("options", allowed: ["iOS", "transitions", "navTransitionPolicy", "release", "layoutCallbacks"]) {
            if let v = try o.enumValue("release", ReleasePolicy.self) { options.release = v }
            if let v = try o.bool("layoutCallbacks") { options.layoutCallbacks = v }
            if let v = try o.enumValue("iOS", IOSRelease.self) { options.iOS = v }
            if let v = try o.enumValue("transitions", TransitionMode.self) { options.transitions = v }
            if let v = try o.enumValue("navTransitionPolicy", NavigationTransitionPolicy.self) { options.navTransitionPolicy = v }
        }
        let id = try r.string("id") ?? UUID().uuidString.lowercased()
        guard Names.isKey(id) else { throw Problem.invalidField("id", "A session id is \(Names.keyRule).") }
        if let existing = try sessions.find(id), !forgetIfDeletedElsewhere(existing) {
            throw Problem.conflict("session-exists", "A session with id '\(id)' already exists.")
        }
        if r.raw("root")?.string != nil {
            throw Problem.invalidField("root", "A new session has no controllers yet: root is a ControllerSpec object, not an id.")
        }
        let root = r.has("root") ? try decoder.ref(r.raw("root"), path: "root") : nil
        let state: SessionState
        let created: ActionResult
        let nested = NestedSegues(storyboards.snapshot, budget: decoder.budget)
        let made = Navigator.makeSessionReporting(traits: traits, options: options, root: root, segues: nested.destinations)
        // A segue the catalogue could not give fails the creation with its own problem.
        if case .failure = made, let problem = nested.problem { throw problem }
        switch made {
        case .success(let s): (state, created) = s
        case .failure(.uikit(let d)): throw Problem(d)
        case .failure(.input(let e)): throw Problem.fromCore(e)
        }
        try limits.check(state)
        let live = LiveSession(id: id, createdAt: Self.now(), version: 0, state: state)
        // Encoded once: the reply and history entry 0 splice the same bytes.
        let reported = Encode.createdResult(events: created.events, warnings: created.warnings)
        let commit: SessionCommit
        do {
            commit = try Persistence.creation(live, body: req.body.isEmpty ? nil : body, reported: reported)
        } catch {
            throw Problem.storage(error, "The session could not be stored")
        }
        // The root's callbacks, as `makeKeyAndVisible()` fires them.
        // What the root's lifecycle code did that UIKit only logs (D7…) is in it, as any reply has it.
        // Version 0 encoded once: the reply splices its bytes, and the session keeps them, so its
        // first read or write does not encode the whole session again.
        let (encoded, _) = EncodedSession.make(id: id, version: 0, createdAt: live.createdAt, state: state, previous: nil)
        let reply = Self.json(
            201, bytes: Encode.created(session: encoded.body, result: reported),
            etag: "\"0\"", location: "/v1/sessions/\(id.percentEncodedPathSegment)")
        // Everything above writes nothing; from here the id is taken until the commit's outcome.
        let deferred = DeferredResponse()
        try sessionWrites.admit(deferred)
        let taken = Problem.conflict("session-exists", "A session with id '\(id)' already exists.")
        let reserved = writer.create(live, encoded: encoded, commit: commit) { outcome in
            switch outcome {
            case .success: deferred.complete(reply)
            case .failure(.conflict): deferred.complete(Self.problem(taken))
            case .failure(.storage(let error)), .failure(.preparation(let error)):
                deferred.complete(Self.problem(Problem.storage(error, "The session could not be stored")))
            }
        }
        guard reserved else {
            deferred.complete(Self.problem(taken))
            throw taken
        }
        return HTTPResponse(deferred: deferred)
    }

    func listSessions(_ req: HTTPRequest) throws(Problem) -> HTTPResponse {
        let limit = try QueryParameters.int(req, "limit", default: 100, range: 1...1000)
        let after = try QueryParameters.single(req, "after")
        // In id order: the same before and after a restart, and an `after` whose session was
        // deleted still pages on. Keyset paging on the store's primary key (`WHERE id > ?
        // ORDER BY id LIMIT ?`), one more row than asked telling whether more follow; the
        // versions are the committed ones, no session is loaded for it.
        let rows: [(id: String, version: Int, createdAt: String)]
        do { rows = try store.sessionPage(after: after, limit: limit + 1) } catch {
            throw Problem.storage(error, "Sessions could not be listed", access: .read)
        }
        let page = rows.prefix(limit)
        let items: [JSON] = page.map { s in
            .object([("id", .string(s.id)), ("version", .number(Double(s.version))), ("createdAt", .string(s.createdAt))])
        }
        var members: [(String, JSON)] = [("sessions", .array(items))]
        if rows.count > limit, let last = page.last { members.append(("next", .string(last.id))) }
        return Self.json(200, .object(members))
    }

    /// On a store other instances write (``SessionStoring/isShared``): whether `box` is of a
    /// session another instance has deleted (the database has no row, and this instance has no
    /// write of it pending); the box is then forgotten, so the id can be created again here.
    func forgetIfDeletedElsewhere(_ box: SessionBox) -> Bool {
        guard store.isShared, case .some(.none) = try? store.sessionVersion(box.id),
            box.inMemory({ slot in slot?.isIdle ?? true })
        else { return false }
        sessions.remove(box.id)
        return true
    }

    /// On a store other instances write (``SessionStoring/isShared``): compares the copy in
    /// memory with the session's version in the database (one read on the primary key) and
    /// drops it when the database is ahead, has no such session, or has another session under
    /// the id (deleted and created again elsewhere: another creation time), so the read that follows
    /// loads it again. A read on any instance thus never shows a version older than the newest
    /// acknowledged one (docs/deployment.md, "Reads"). A copy with writes pending is kept: this
    /// instance is writing it, and its commits are checked against the database.
    /// - Throws: 500 `storage-failure` when the database cannot be read.
    func refreshIfBehind(_ box: SessionBox) throws(Problem) {
        guard store.isShared else { return }
        let stored: (version: Int, createdAt: String)?
        do { stored = try store.sessionVersion(box.id) } catch { throw Problem.storage(error, "The session could not be read", access: .read) }
        box.inMemory { slot, reload in
            // Known deleted here: the database may hold a session created since under the id.
            guard let live = slot else { reload = stored != nil; return }
            guard live.isIdle else { return }
            // The same session (not one deleted and created again elsewhere), no newer version.
            if let stored, stored.createdAt == live.createdAt, stored.version <= live.version { return }
            reload = true
        }
    }

    /// Runs `body` on the session under its lock, letting it update what the session caches.
    func withSessionMutating<T>(_ sid: String, _ body: (inout LiveSession) throws(Problem) -> T) throws(Problem) -> T {
        guard let box = try sessions.find(sid) else { throw Problem.unknownSession(sid) }
        try refreshIfBehind(box)
        // In place: a copy would hold a second reference to every buffer of the session while
        // `body` runs, so its first write to one would copy it.
        return try box.withSession(body)
    }

    /// Runs `body` on the session under its lock (a read: the copy is checked as by ``refreshIfBehind(_:)``).
    func withSession<T>(_ sid: String, _ body: (LiveSession) throws(Problem) -> T) throws(Problem) -> T {
        guard let box = try sessions.find(sid) else { throw Problem.unknownSession(sid) }
        try refreshIfBehind(box)
        let result: Result<T, Problem> = box.withLock { live in
            guard let live else { return .failure(Problem.unknownSession(sid)) }
            do throws(Problem) { return .success(try body(live)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// `DELETE /v1/sessions/{sid}`: 204 once the session row is gone, durably (its history and
    /// controllers go afterwards in chunks, `SessionStore.deleteSession`). The work runs on
    /// ``deletions``, not on the handler thread: the reply is deferred until the delete is durable.
    func deleteSession(_ req: HTTPRequest, _ sid: String) throws(Problem) -> HTTPResponse {
        guard let box = try sessions.find(sid) else { throw Problem.unknownSession(sid) }
        let (ifMatch, ifNoneMatch) = (Preconditions.field(req, "If-Match"), Preconditions.field(req, "If-None-Match"))
        let deferred = DeferredResponse()
        try sessionWrites.admit(deferred)
        Self.deletions.async { [self] in deferred.complete(delete(box, sid, ifMatch: ifMatch, ifNoneMatch: ifNoneMatch)) }
        return HTTPResponse(deferred: deferred)
    }

    /// Where deletes wait for the session's commits and write: one at a time (they are rare, and
    /// every write goes through the one writer connection anyway).
    static let deletions = DispatchQueue(label: "navsim.sessions.delete")

    /// The delete itself: after the session's queued commits (which would otherwise write its
    /// rows again), `If-Match` and `If-None-Match` against the committed version, the durable
    /// delete, then the box goes.
    func delete(_ box: SessionBox, _ sid: String, ifMatch: String?, ifNoneMatch: String?) -> HTTPResponse {
        Self.waitForCommits(box)
        let result: Result<Void, Problem> = box.withLock { live in
            guard let current = live else { return .failure(Problem.unknownSession(sid)) }
            guard current.isIdle else {
                return .failure(Problem.conflict("writes-pending", "Session '\(sid)' is still being written; try again."))
            }
            do throws(Problem) { try Preconditions.write(ifMatch: ifMatch, ifNoneMatch: ifNoneMatch, version: current.version) } catch {
                return .failure(error)
            }
            do { try store.deleteSession(sid) } catch {
                return .failure(Problem.storage(error, "Delete failed"))
            }
            live?.replaceEncoding(nil, in: sessions)
            live = nil
            return .success(())
        }
        if case .failure(let problem) = result { return Self.problem(problem) }
        sessions.remove(sid)
        return HTTPResponse(status: 204)
    }

    /// Waits, polling for at most 10 s, until the session has no commit in flight (a delete's
    /// precondition; deletes are rare, commits take milliseconds).
    static func waitForCommits(_ box: SessionBox) {
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while box.inMemory({ $0.map { !$0.isIdle } ?? false }), ContinuousClock.now < deadline {
            usleep(500)
        }
    }

}

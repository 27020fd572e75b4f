import SessionStorage
import Foundation
import HTTPServer
import JSONValues
import NavigationCore
import SessionFormat

// The HTTP side of a session write: what a mutating route hands the runtime
// (Runtime/SessionWriter.swift), and how the runtime's outcome becomes the reply.

/// The reply a durable write sends (``WritePipeline``'s `Reply`).
typealias WriteReply = HTTPResponse

/// Every session's write pipeline, with this layer's work, reply and client.
typealias SessionWrites = WritePipeline<PendingWork, WriteReply, WriteWaiter>

/// What preparing an applied version needs (``NavSimService/prepareVersion(_:)``): the request
/// and the turn's outcome, from which its rows, representation and reply are built. A class:
/// the pipeline hands it from state to state, and each hand-over is then one retain.
final class PendingWork: Sendable {
    let request: HTTPRequest
    let body: JSON
    let created: Bool
    let turn: Bool
    let commands: [Command]
    let outcome: Navigator.TurnResult
    /// When it was applied (`history.at`).
    let at: String

    init(
        request: HTTPRequest, body: JSON, created: Bool, turn: Bool, commands: [Command],
        outcome: Navigator.TurnResult, at: String
    ) {
        self.request = request
        self.body = body
        self.created = created
        self.turn = turn
        self.commands = commands
        self.outcome = outcome
        self.at = at
    }
}

/// A write's client: the deferred reply of its request, answered with the reply or a problem.
struct WriteWaiter: WriteClient {
    let sid: String
    let deferred: DeferredResponse
    /// Runs the request again on the session reloaded from the store, answering `deferred`,
    /// when the store refuses its commit as stale (a shared store); nil on SQLite and for a rerun.
    let rerun: (@Sendable () -> Void)?

    func answer(_ outcome: Result<HTTPResponse, WriteFailure>) {
        switch outcome {
        case .success(let reply): deferred.complete(reply)
        case .failure(let failure): deferred.complete(NavSimService.problem(Self.problem(failure, sid: sid)))
        }
    }

    /// The problem a failed write answers.
    static func problem(_ failure: WriteFailure, sid: String) -> Problem {
        switch failure {
        case .storage(let error): Problem.storage(error, "The operation could not be stored")
        case .preparation(let error as Problem): error
        case .preparation(let error): Problem.storage(error, "The operation could not be stored")
        case .conflict: Problem.writeConflict(sid)
        }
    }
}

extension NavSimService {
    /// Runs the commands a request decodes to as one turn on the session's applied head, under
    /// its lock; queues the history entry and changed rows for commit and releases the lock, so
    /// the session's next write can apply on top while this one syncs. The reply is
    /// deferred (``DeferredResponse``): built now, sent by ``SessionWriter`` (Runtime/SessionWriter.swift)
    /// once the commit is durable, in version order, never before; if the commit fails, this
    /// request and those applied on top of it fail and the session is back at its last durable
    /// version. Refused single operations change nothing and add no entry.
    ///
    /// On a store other instances write (PostgreSQL), the commit may be refused as stale: the
    /// session was written elsewhere since this copy was loaded. The request is then run once
    /// more on the session reloaded from the store, `If-Match` checked against the fresh
    /// version, and that run's reply is the client's; stale again, it is 409 `write-conflict`.
    func mutate(
        _ req: HTTPRequest, _ sid: String, created: Bool = false, turn: Bool = false,
        _ decode: @escaping @Sendable (JSON, SessionState, Decoder) throws(Problem) -> [Command]
    ) throws(Problem) -> HTTPResponse {
        let body = try parseBody(req)
        let deferred = DeferredResponse()
        // Admitted before anything is applied: at stop it is answered with its outcome, or refused unapplied.
        try sessionWrites.admit(deferred)
        do {
            try apply(
                Mutation(request: req, sid: sid, body: body, created: created, turn: turn, decode: decode),
                answering: deferred, retried: false)
        } catch {
            // Refused before anything was applied; completing `deferred` counts it answered.
            deferred.complete(Self.problem(error))
            throw error
        }
        return HTTPResponse(deferred: deferred)
    }

    /// One mutating request, decoded enough to be run again on a reloaded session.
    struct Mutation: Sendable {
        let request: HTTPRequest
        let sid: String
        let body: JSON
        let created: Bool
        let turn: Bool
        let decode: @Sendable (JSON, SessionState, Decoder) throws(Problem) -> [Command]
    }

    /// Applies `m` on the session's head through the runtime (``SessionWriter/apply(_:client:decide:)``),
    /// which prepares and queues its commit; `deferred` gets the reply once the commit is
    /// durable. `retried`: this is the run after a stale commit (no third run).
    ///
    /// Under the session's lock only what decides the version runs: `If-Match`, the decoding,
    /// the core's turn and the limits.
    /// - Throws: the request's problem when it is refused before anything is applied.
    func apply(_ m: Mutation, answering deferred: DeferredResponse, retried: Bool) throws(Problem) {
        let (req, sid, body, created, turn) = (m.request, m.sid, m.body, m.created, m.turn)
        guard let box = try sessions.find(sid) else { throw Problem.unknownSession(sid) }
        // A stale commit's rerun: the same request, answering the same client.
        var rerun: (@Sendable () -> Void)? = nil
        if !retried, store.isShared {
            rerun = { @Sendable [self] in
                do throws(Problem) { try apply(m, answering: deferred, retried: true) } catch {
                    ProblemResponses(counters: counters).count(error)
                    deferred.complete(Self.problem(error))
                }
            }
        }
        let client = WriteWaiter(sid: sid, deferred: deferred, rerun: rerun)
        try writer.apply(box, client: client) { headVersion, head throws(Problem) in
            // `If-Match` names the version the client last saw, which may still be pending.
            try Preconditions.write(req, version: headVersion)
            // One decoder per request: its budget counts every spec the request creates.
            let requestDecoder = self.decoder(existing: head.controllers.count)
            let commands = try m.decode(body, head, requestDecoder)
            // Segues performed inside lifecycle code find their destinations in the
            // catalogue as of this request, counted against the same budget.
            let nested = NestedSegues(storyboards.snapshot, budget: requestDecoder.budget)
            let outcome = Navigator.run(commands, on: head, segues: nested.destinations)
            if outcome.failure != nil, let p = nested.problem { throw p }
            // An exception inside lifecycle code fails the whole request (CallbackCode).
            switch outcome.failure {
            case .uikit(let d)?: throw Problem(d)
            case .input(let e)?: throw Problem.fromCore(e)
            case nil: break
            }
            // A single refused operation changes nothing and adds no entry; a turn reports it in place.
            if !turn {
                switch outcome.outcomes[0] {
                case .refused(let d): throw Problem(d)
                case .invalid(let e): throw Problem.fromCore(e)
                case .applied: break
                }
            }
            // Stack depth and tabs grow by operations on existing controllers too; checked
            // on the outcome, before anything is applied, so an over-limit request changes nothing.
            try limits.check(outcome.state, changed: outcome.changedControllers)
            return (
                outcome.state,
                PendingWork(
                    request: req, body: body, created: created, turn: turn,
                    commands: commands, outcome: outcome, at: Self.now())
            )
        }
    }

    /// Builds one applied version outside the session's lock (the runtime's preparer calls it):
    /// the commit, with only the changed controllers' rows (`Persistence.commit`); the
    /// representation, from the previous version's pieces (`EncodedSession.make`); and the reply.
    static func prepareVersion(_ p: PrepareJob) throws -> PreparedVersion {
        let (sid, version, work) = (p.sid, p.job.number, p.job.work)
        let outcome = work.outcome
        let results = Encode.results(outcome.outcomes, turn: work.turn)
        // Only what the turn changed is converted, encoded and written.
        var (commit, shell) = try Persistence.commit(
            TurnRecord(
                session: sid, createdAt: p.createdAt, version: version, old: p.previousState, shell: p.job.shell,
                new: outcome.state, changed: outcome.changedControllers, at: work.at, request: work.request,
                body: work.body, commands: work.commands, resolvedSegues: outcome.resolvedSegues, result: results,
                keepsCheckpoint: p.job.checkpointNow))
        commit.followsPending = p.job.followsPending
        // The new version is encoded once, from the previous version's pieces; the reply
        // splices its bytes (full) or the changed pieces (return=minimal).
        let (encoded, changed) = EncodedSession.make(
            id: sid, version: version, createdAt: p.createdAt, state: outcome.state,
            previous: p.previousEncoding, previousState: p.previousState,
            changedControllers: outcome.changedControllers)
        let reply = try mutationReply(
            work.request, sid: sid, created: work.created, turn: work.turn,
            outcome: outcome, results: results, encoded: encoded,
            changed: changed, removed: commit.deletedControllers)
        // A turn's operations UIKit refused, counted once the turn is durable (a stale
        // commit's rerun is prepared again and counts its own).
        let refused = outcome.outcomes.reduce(0) { n, o in if case .refused = o { n + 1 } else { n } }
        return PreparedVersion(commit: commit, shell: shell, encoded: encoded, reply: reply, refusals: refused)
    }

    /// A mutation's 200 (or 201 for a created controller): the result members and the session,
    /// whole or, with `Prefer: return=minimal`, only what changed.
    static func mutationReply(
        _ req: HTTPRequest, sid: String, created: Bool, turn: Bool, outcome: Navigator.TurnResult,
        results: [UInt8], encoded: EncodedSession, changed: [String],
        removed: [String]
    ) throws(Problem) -> HTTPResponse {
        if created, case .applied(let r) = outcome.outcomes[0], let cid = r.created, let piece = encoded.piece(cid) {
            return json(
                201, bytes: Array(piece), etag: encoded.etag,
                location: "/v1/sessions/\(sid.percentEncodedPathSegment)/controllers/\(cid.percentEncodedPathSegment)")
        }
        let minimal = prefersMinimal(req)
        let session =
            minimal
            ? encoded.minimal(id: sid, state: outcome.state, changed: changed, removed: removed)
            : encoded.body
        // `results` is the history entry's text, reused: not encoded a second time.
        let body = Encode.mutationReply(
            version: encoded.version, turn: turn, results: results,
            released: outcome.released, session: session)
        var response = json(200, bytes: body, etag: encoded.etag, vary: "Prefer")
        if minimal { response.headers.add("Preference-Applied", "return=minimal") }
        return response
    }
}

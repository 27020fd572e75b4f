import SessionStorage
import Foundation
import HTTPServer
import JSONValues
import NavigationCore
import Pictures
import SessionFormat

/// Reads of a session: its current or a past version (`GET /v1/sessions/{sid}`, `?version=N`,
/// pictures) and its history (`GET /v1/sessions/{sid}/history`).
extension NavSimService {
    /// `GET /v1/sessions/{sid}` (`?version=N` replays the history): JSON, or the text tree,
    /// DOT or SVG picture the `Accept` field asks for (docs/pictures.md).
    func getSession(_ req: HTTPRequest, _ sid: String) throws(Problem) -> HTTPResponse {
        let representation = try pictures.choose(req)
        let requested: Int? =
            try QueryParameters.single(req, "version") == nil
            ? nil
            : QueryParameters.int(req, "version", default: 0, range: 0...Int.max)
        // `replay=true`: the version as the current rules give it, by running its commands again.
        let replaying = try QueryParameters.bool(req, "replay")
        // The current version's JSON, cached: served from the bytes the session's box publishes,
        // without the session's lock (``SessionBox/publishedEncoding()``). When none are cached the
        // locked path below encodes them (on a shared store it checks the stored version once more).
        if requested == nil, !replaying, representation == .json, let box = try sessions.find(sid) {
            try refreshIfBehind(box)
            if let encoded = box.publishedEncoding() {
                return Self.json(200, bytes: encoded.body, etag: encoded.etag, vary: "Accept")
            }
        }
        // The current version's JSON is served from its cached bytes: the lock is held only to
        // take a reference to them, and the reply is built after it (every GET of one
        // session takes this lock, so what it holds it for is what concurrent readers spin on).
        // Only a read that goes on past the lock takes a copy of the session (the cached reply
        // costs no copy of the session's fields).
        enum Current {
            case reply(HTTPResponse)
            case encoded(EncodedSession)
            case snapshot(LiveSession)
        }
        let current: Current = try withSessionMutating(sid) { live throws(Problem) in
            if let n = requested, n > live.version {
                throw Problem(
                    status: 404, slug: "unknown-version", title: "Unknown version",
                    detail: "Session '\(sid)' has versions 0…\(live.version).")
            }
            let version = requested ?? live.version
            // Each representation has its own tag (`"3"`, `"3-text"`, …), compared as the 200 would send it,
            // here before a past version is rebuilt. A replay's answer has no tag, but the fields are
            // evaluated all the same (RFC 9110 §13.2.1).
            if let notModified = try Preconditions.read(req, etag: replaying ? nil : representation.entityTag(version), vary: "Accept") {
                return .reply(notModified)
            }
            guard representation == .json, version == live.version, !replaying else { return .snapshot(live) }
            return .encoded(live.encoding(in: sessions))
        }
        let snapshot: LiveSession
        switch current {
        case let .reply(reply): return reply
        case let .encoded(encoded): return Self.json(200, bytes: encoded.body, etag: encoded.etag, vary: "Accept")
        case let .snapshot(live): snapshot = live
        }
        let version = requested ?? snapshot.version
        // A past version's JSON: from its checkpoint's kept pieces (SessionHistory.past).
        var past: (state: SessionState, encoded: EncodedSession)?
        if !replaying, version != snapshot.version {
            do {
                past = try SessionHistory.past(
                    sid, createdAt: snapshot.createdAt, version: version, store: store, kept: pastVersions,
                    backfill: { [self] at, state in
                        backfillCheckpoint(sid, createdAt: snapshot.createdAt, version: at, state: state)
                    })
            } catch {
                throw Problem.storage(error, "History could not be read", access: .read)
            }
            if let past, representation == .json {
                return Self.json(200, bytes: past.encoded.body, etag: past.encoded.etag, vary: "Accept")
            }
        }
        let state: SessionState
        if let past {
            state = past.state
        } else {
            state =
                replaying
                ? try replay(sid, to: version)
                : version == snapshot.version ? snapshot.state : try stateAt(sid, version: version)
        }
        let session = Encode.session(id: sid, version: version, createdAt: snapshot.createdAt, state: state)
        guard representation != .json else {
            // A replay's answer is not the version's representation: no tag a cache could confuse with it.
            return Self.json(200, bytes: session, etag: replaying ? nil : "\"\(version)\"", vary: "Accept")
        }
        // The pictures read the JSON as a tree.
        let tree: JSON, transitions: JSON
        do throws(JSONParseError) {
            tree = try JSON.parse(session)
            transitions = try JSON.parse(Encode.transitions(state.transitions.map(\.record)))
        } catch {
            // Unreachable: the encoder writes JSON the parser reads.
            throw Problem(status: 500, slug: "internal-invariant", title: "Internal error", detail: error.description)
        }
        return try pictures.response(
            representation, resource: "session \(sid) \(snapshot.createdAt)", version: "\(version)",
            etag: version, json: tree,
            text: { SessionPicture(session: $0, transitions: transitions).text },
            dot: { SessionPicture(session: $0, transitions: transitions).dot })
    }

    /// The stored state of `version` as it was reported then: rebuilt from the nearest checkpoint
    /// at or below it plus the entries' stored changes, whatever the current rules are
    /// (docs/history.md). Entries written before change-sets were stored fall back to ``replay(_:to:)``.
    func stateAt(_ sid: String, version: Int) throws(Problem) -> SessionState {
        do {
            var first = SessionHistory.firstRow(for: version)
            while true {
                let rows = try store.history(session: sid, after: first - 1, limit: version - first + 1)
                if let state = try SessionHistory.rebuild(rows, to: version) { return state }
                // A checkpoint not stored yet (``SessionWriter/checkpointLater(_:version:createdAt:state:)``): from the one before it.
                guard first > 0, let row = rows.first, row.version == first, row.checkpoint == nil,
                    rows.allSatisfy({ $0.changes != nil })
                else { break }
                first = SessionHistory.firstRow(for: first - 1)
            }
        } catch let p as Problem {
            throw p
        } catch {
            throw Problem.storage(error, "History could not be read", access: .read)
        }
        return try replay(sid, to: version)
    }

    /// `version` as the current rules give it: the history's commands run again from the initial
    /// state (`?version=N&replay=true`, and old entries that stored no change).
    func replay(_ sid: String, to version: Int) throws(Problem) -> SessionState {
        do {
            let rows = try store.history(session: sid, after: -1, limit: version + 1)
            guard let first = rows.first, first.version == 0 else { throw Problem.unknownSession(sid) }
            var state = try Persistence.decodeInitial(first)
            for row in rows.dropFirst() where row.version <= version {
                let turn = try Persistence.decodeTurn(row)
                state = Navigator.run(turn.commands, on: state, segues: SegueDestinations(recorded: turn.segues)).state
            }
            return state
        } catch let p as Problem {
            throw p
        } catch {
            throw Problem.storage(error, "History could not be read", access: .read)
        }
    }

    func history(_ req: HTTPRequest, _ sid: String) throws(Problem) -> HTTPResponse {
        let version = try withSession(sid) { $0.version }
        // `after=-1` includes entry 0, the creation, with the root's callbacks.
        let after = try QueryParameters.int(req, "after", default: 0, range: -1...Int.max)
        let limit = try QueryParameters.int(req, "limit", default: 100, range: 1...1000)
        do {
            // Up to the version the ETag names, even if an operation commits meanwhile.
            let rows = try store.history(session: sid, after: after, limit: limit + 1, checkpoints: false).filter { $0.version <= version }
            let page = rows.prefix(limit)
            var members: [(String, JSON)] = [("entries", .array(page.map(Persistence.historyJSON)))]
            if rows.count > limit, let last = page.last { members.append(("next", .number(Double(last.version)))) }
            return Self.json(200, .object(members), etag: version)
        } catch {
            throw Problem.storage(error, "History could not be read", access: .read)
        }
    }

    /// Stores the checkpoint of `version`, found missing from its durable entry by a read
    /// (``SessionHistory/past(_:createdAt:version:store:kept:from:backfill:)``): its late commit
    /// was lost (a crash, a stop past the wait, a store error), and without it every read of the
    /// block would start from the checkpoint before, for ever. `state` is that version rebuilt
    /// from the stored changes, the state the lost checkpoint held. Nothing when it is on its way.
    func backfillCheckpoint(_ sid: String, createdAt: String, version: Int, state: SessionState) {
        writer.checkpoints.store(sid, createdAt: createdAt, version: version, state: state) {}
    }
}

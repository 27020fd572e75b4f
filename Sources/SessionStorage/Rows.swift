import Synchronization

// The rows a store keeps: each is what one table row holds, and the store writes them as given,
// never reading their JSON (the stored format is the service's).

/// A row of `controllers`: one live view controller of a session.
public struct ControllerRow: Sendable, Equatable {
    /// The controller's id, unique within its session.
    public var id: String
    /// The containment parent's id (navigation, tab bar, split, page or custom container).
    public var parent: String?
    /// The id of the controller that presented this one.
    public var presenting: String?
    /// The id of the controller this one presents.
    public var presented: String?
    /// JSON of the controller (a `StoredController`).
    public var body: String
    /// The persistence format `body` is written in (``StoredFormat``).
    public var format: Int

    public init(
        id: String, parent: String? = nil, presenting: String? = nil, presented: String? = nil, body: String,
        format: Int = StoredFormat.current
    ) {
        self.id = id
        self.parent = parent
        self.presenting = presenting
        self.presented = presented
        self.body = body
        self.format = format
    }
}

/// A row of `history`: one accepted operation of a session.
public struct HistoryRow: Sendable, Equatable {
    /// The session version this operation produced; unique per session.
    public var version: Int
    /// When it was accepted (ISO 8601).
    public var at: String
    /// The request method and path, as received.
    public var method: String
    public var path: String
    /// The request body, if there was one.
    public var body: String?
    /// JSON of the command(s) used to replay the operation (SessionFormat's `StoredCommands.swift`).
    public var command: String
    /// JSON of the events/transition as reported to the client; for entry 0 (session creation)
    /// the initial state, the replay base (a `StoredSessionState`).
    public var result: String
    /// The persistence format of `command`, `changes`, `checkpoint` (and of entry 0's `result`), ``StoredFormat``.
    public var format: Int
    /// JSON of what the entry changed (a `StoredChange`); nil in entries written before
    /// migration 0004, which are read by replaying `command`.
    public var changes: String?
    /// JSON of the whole state after the entry (a `StoredSessionState` with controllers) on every
    /// `SessionHistory.checkpointInterval`-th entry; nil on the others.
    public var checkpoint: String?
    /// The ``RulesVersion`` that produced the entry; nil in entries written before it was recorded.
    public var rulesVersion: Int?

    public init(
        version: Int, at: String, method: String, path: String, body: String? = nil,
        command: String, result: String, format: Int = StoredFormat.current,
        changes: String? = nil, checkpoint: String? = nil, rulesVersion: Int? = nil
    ) {
        self.format = format
        self.changes = changes
        self.checkpoint = checkpoint
        self.rulesVersion = rulesVersion
        self.version = version
        self.at = at
        self.method = method
        self.path = path
        self.body = body
        self.command = command
        self.result = result
    }
}

/// A row of `sessions`.
public struct SessionRow: Sendable, Equatable {
    public var id: String
    /// The number of operations accepted so far.
    public var version: Int
    /// When the session was created (ISO 8601).
    public var createdAt: String
    /// JSON of the session minus its controllers (a `StoredSessionState`).
    public var state: String
    /// The persistence format `state` is written in (``StoredFormat``).
    public var format: Int

    public init(id: String, version: Int, createdAt: String, state: String, format: Int = StoredFormat.current) {
        self.format = format
        self.id = id
        self.version = version
        self.createdAt = createdAt
        self.state = state
    }
}

/// One accepted operation (or session creation): everything that must be durable before the reply.
///
/// Applied in this order, all or nothing: the session row is upserted, `deletedControllers` are
/// deleted, `upsertedControllers` are upserted (so an id in both lists ends up present), and
/// `history` is inserted.
public struct SessionCommit: Sendable {
    /// Inserted, or replacing the stored row of the same id.
    public var session: SessionRow
    /// Inserted, or replacing the stored row of the same (session, id).
    public var upsertedControllers: [ControllerRow]
    /// Ids of controllers to delete; unknown ids are ignored.
    public var deletedControllers: [String]
    /// The operation's history entry; `nil` for session creation. Its version must be new for
    /// the session, or the commit fails with a `SQLITE_CONSTRAINT_PRIMARYKEY` `SQLiteError` (SQLiteStore).
    public var history: HistoryRow?
    /// Made on top of a commit of the same session that was queued and not yet durable (a
    /// pipelined write): if that one fails, this one fails unwritten
    /// (``SessionStoring/enqueue(_:then:)``).
    public var followsPending: Bool
    /// Ids among `upsertedControllers` whose stored row already has the same `parent`,
    /// `presenting` and `presented`: the store rewrites only their `body` and `format`, which
    /// leaves the two link indexes (`controllers_by_parent`, `controllers_by_presenting`) and
    /// their pages untouched; an upsert would rewrite both index entries and dirty their pages
    /// for every write. A row found missing is upserted all the same.
    public var linksUnchanged: Set<String>
    /// Set by ``checkpoint(session:createdAt:version:text:)``: the commit writes only that
    /// checkpoint, into an entry already stored, and no other row.
    public private(set) var laterCheckpoint: (version: Int, text: String)?

    public init(
        session: SessionRow, upsertedControllers: [ControllerRow] = [], deletedControllers: [String] = [],
        history: HistoryRow? = nil, followsPending: Bool = false, linksUnchanged: Set<String> = []
    ) {
        self.session = session
        self.upsertedControllers = upsertedControllers
        self.deletedControllers = deletedControllers
        self.history = history
        self.followsPending = followsPending
        self.linksUnchanged = linksUnchanged
    }

    /// The checkpoint of entry `version` of session `session` (created at `createdAt`), stored
    /// after the entry itself: the service encodes it off the handler threads once the entry
    /// is durable, since encoding a large session is too slow for a handler thread. Written into the entry's `checkpoint`
    /// column only when the entry has none and the session is still the one created at
    /// `createdAt` (not one deleted and created again under the id); otherwise, and for an
    /// entry not stored, it writes nothing. Never a follower (``followsPending``) nor followed:
    /// its failure fails no other commit. Until it is stored, readers start from the checkpoint
    /// before it (`SessionHistory.past`).
    public static func checkpoint(session: String, createdAt: String, version: Int, text: String) -> SessionCommit {
        var commit = SessionCommit(session: SessionRow(id: session, version: version, createdAt: createdAt, state: ""))
        commit.laterCheckpoint = (version, text)
        return commit
    }
}

/// A session as stored: what start-up rebuilds the in-memory state from.
public struct StoredSession: Sendable, Equatable {
    public var session: SessionRow
    /// The session's controllers, ordered by id (the order carries no meaning: the structure is
    /// in `parent`, `presenting` and `presented`).
    public var controllers: [ControllerRow]

    public init(session: SessionRow, controllers: [ControllerRow]) {
        self.session = session
        self.controllers = controllers
    }
}

/// A row of `storyboards`.
public struct StoredStoryboard: Sendable, Equatable {
    public var name: String
    /// The document exactly as uploaded.
    public var xml: [UInt8]
    /// JSON of the declared custom segue classes, if any.
    public var customSegues: String?
    /// JSON of the declared view controller classes (`PUT …/classes`), if any.
    public var classes: String?
    /// When it was last uploaded (ISO 8601).
    public var updatedAt: String

    public init(name: String, xml: [UInt8], customSegues: String? = nil, classes: String? = nil, updatedAt: String) {
        self.name = name
        self.xml = xml
        self.customSegues = customSegues
        self.classes = classes
        self.updatedAt = updatedAt
    }
}

/// A stored value that does not have the type the schema gives its column. The STRICT tables
/// make this unreachable short of someone editing the file by hand.
public enum SessionStoreError: Error, CustomStringConvertible, Sendable, Equatable {
    case unexpectedValue(column: String)
    /// The commit was queued on top of the session's commit at `version`, which failed: it is
    /// not written (see ``SessionStoring/enqueue(_:then:)``).
    case predecessorFailed(session: String, version: Int)

    public var description: String {
        switch self {
        case .unexpectedValue(let column):
            "the database holds a value of the wrong type (or NULL) in column \(column)"
        case .predecessorFailed(let session, let version):
            "session \(session)'s commit of version \(version) failed, and this one was made on top of it"
        }
    }
}

/// Who hears each transaction's commit count (``SessionStoring/batchObserver``).
public final class BatchObserver: Sendable {
    package let observe: @Sendable (Int) -> Void

    /// `observe` is called on the store's writer once per transaction, with its commit count.
    public init(_ observe: @escaping @Sendable (Int) -> Void) { self.observe = observe }
}

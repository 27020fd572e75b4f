import SQLite
public import SessionStorage
import Synchronization

extension SessionStore {
    // MARK: Reading

    /// Every session with its controllers, ordered by session id: what start-up rebuilds the
    /// in-memory state from. Read in one transaction, so sessions and controllers agree.
    public func loadSessions() throws -> [StoredSession] {
        try read { db in
            let sessions = try db.query("SELECT id, version, created_at, state, format FROM sessions ORDER BY id")
            var controllers: [String: [ControllerRow]] = [:]
            for row in try db.query(
                "SELECT session_id, id, parent, presenting, presented, body, format FROM controllers ORDER BY session_id, id")
            {
                controllers[try row.required("session_id"), default: []].append(try ControllerRow(row: row))
            }
            return try sessions.map { row in
                let session = try SessionRow(row: row)
                return StoredSession(session: session, controllers: controllers[session.id] ?? [])
            }
        }
    }

    /// One session with its controllers (ordered by id, as ``loadSessions()``), read in one
    /// transaction; nil when no session has the id. What a session's first use after start-up
    /// (or after its eviction from memory) loads.
    public func loadSession(_ id: String) throws -> StoredSession? {
        try read { db in try db.readSession(id) }
    }

    /// Every session id, ascending (the primary key's order): what start-up registers, without
    /// reading any session's state.
    public func sessionIDs() throws -> [String] {
        try read { db in try db.readSessionIDs() }
    }

    /// Up to `limit` sessions (id, version, creation time) whose id sorts after `after` (all when
    /// nil), ascending, read from the primary key's index (keyset paging: `WHERE id > ? ORDER BY
    /// id LIMIT ?`). Ids compare as SQLite's BINARY collation does: byte by byte in UTF-8, which is
    /// Unicode scalar order.
    public func sessionPage(after: String?, limit: Int) throws -> [(id: String, version: Int, createdAt: String)] {
        try read { db in try db.readSessionPage(after: after, limit: limit) }
    }

    /// A page of a session's history: entries with `version > after`, ascending, at most `limit`.
    /// Empty for an unknown session. Without `checkpoints` the rows' `checkpoint` is nil and the
    /// column (a whole state every 64th entry) is not read: history pages and rebuilds that
    /// start from a kept checkpoint do not use it.
    public func history(session: String, after: Int, limit: Int, checkpoints: Bool = true) throws -> [HistoryRow] {
        try read { db in try db.readHistory(session: session, after: after, limit: limit, checkpoints: checkpoints) }
    }

    /// The number of history entries of a session; 0 for an unknown session.
    public func historyCount(session: String) throws -> Int {
        try read { db in try db.readHistoryCount(session: session) }
    }

    /// Every storyboard, ordered by name.
    public func loadStoryboards() throws -> [StoredStoryboard] {
        try read { db in try db.readStoryboards() }
    }

    /// nil: one SQLite file is written by one navsim process, so no storyboard changes behind
    /// its catalog and the catalog never checks (the file's `storyboard_revision` still counts).
    public func storyboardRevision() throws -> Int? { nil }

    /// Runs `body` on a free reader of the pool inside one read transaction, so that several
    /// queries see the same snapshot of the database. Takes the first reader that is free,
    /// starting round robin; when all are busy, waits for one.
    ///
    /// `BEGIN` (DEFERRED), not ``Connection/transaction(_:)``: that one starts `BEGIN IMMEDIATE`,
    /// which asks for the write lock a read-only connection cannot take.
    func read<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        let start = nextReader.wrappingAdd(1, ordering: .relaxed).oldValue & Int.max
        if let value = try readIfAvailable(startingAt: start, body) { return value.value }
        return try readers[start % readers.count].connection.withLock { db in
            try db.execute("BEGIN")
            do {
                let value = try body(db)
                try db.execute("COMMIT")
                return value
            } catch {
                if db.isInTransaction { try? db.execute("ROLLBACK") }
                throw error
            }
        }
    }

    /// As ``read(_:)`` when a reader is free; nil, without waiting, when every reader is busy
    /// (the pool's test hook: a read inside a read proves two are in flight at once).
    func readIfAvailable<T: Sendable>(startingAt start: Int = 0, _ body: (Connection) throws -> T) throws -> Box<T>? {
        for i in 0..<readers.count {
            let found = try readers[(start + i) % readers.count].connection.withLockIfAvailable { db -> Box<T> in
                try db.execute("BEGIN")
                do {
                    let value = try body(db)
                    try db.execute("COMMIT")
                    return Box(value)
                } catch {
                    if db.isInTransaction { try? db.execute("ROLLBACK") }
                    throw error
                }
            }
            if let found { return found }
        }
        return nil
    }

    /// A value returned through `withLockIfAvailable`, whose own nil means "busy".
    struct Box<T: Sendable>: Sendable {
        let value: T
        init(_ value: T) { self.value = value }
    }
}

extension SessionStore: SessionStoring {
    /// One process owns the SQLite file (it takes the writer): no other instance writes it.
    public var isShared: Bool { false }

    /// A local file is always reachable; a failing disk shows in the writes' own errors.
    public func checkReachability() -> Bool { true }

    /// The session's version and creation time as stored, nil when there is none (one read on
    /// the primary key).
    public func sessionVersion(_ id: String) throws -> (version: Int, createdAt: String)? {
        try read { db in
            guard let row = try db.query("SELECT version, created_at FROM sessions WHERE id = ?", [.text(id)]).first,
                let version = row.int("version"), let createdAt = row.text("created_at")
            else { return nil }
            return (Int(version), createdAt)
        }
    }

    /// How many sessions the file holds (one count of the primary key).
    public func sessionCount() throws -> Int {
        try read { db in Int(try db.query("SELECT count(*) AS n FROM sessions").first?.int("n") ?? 0) }
    }
}

// The one home of what both stores do the same way: the statements that read and write the
// rows of `sessions`, `controllers`, `history` and `storyboards` (in either dialect), how a
// result row becomes a stored type, and how a stored type becomes parameters. `SessionStore`
// (SQLite) and `PostgresSessionStore` call these; what differs between them (the session row's
// version check, transactions, connections, deletion) stays in each store.

/// A value a statement is given for one parameter, in either database's wrapper. The enum cases
/// of `SQLiteValue` and `PostgresValue` satisfy the requirements of the same name (SE-0280).
@usableFromInline package protocol StoreValue {
    static var null: Self { get }
    static func integer(_ value: Int64) -> Self
    static func text(_ value: String) -> Self
    /// Raw bytes (SQLite `BLOB`, PostgreSQL `bytea`).
    static func bytes(_ value: [UInt8]) -> Self
}

extension StoreValue {
    /// `.text(value)`, or `.null` for nil.
    @inlinable package static func optionalText(_ value: String?) -> Self { value.map { .text($0) } ?? .null }
    /// `.integer(value)`, or `.null` for nil.
    @inlinable package static func optionalInteger(_ value: Int?) -> Self { value.map { .integer(Int64($0)) } ?? .null }
}

/// One result row, read by column name, in either database's wrapper.
@usableFromInline package protocol StoreRow {
    func text(_ column: String) -> String?
    /// The column as an integer; nil for NULL or a value of another type.
    func integer(_ column: String) -> Int64?
    /// The column as raw bytes; nil for NULL or a value of another type.
    func bytes(_ column: String) -> [UInt8]?
}

extension StoreRow {
    /// The column's text; throws ``SessionStoreError/unexpectedValue(column:)`` for NULL or another type.
    package func required(_ column: String) throws -> String {
        guard let value = text(column) else { throw SessionStoreError.unexpectedValue(column: column) }
        return value
    }

    /// The column as an `Int`; throws ``SessionStoreError/unexpectedValue(column:)`` for NULL or another type.
    package func requiredInt(_ column: String) throws -> Int {
        guard let value = integer(column) else { throw SessionStoreError.unexpectedValue(column: column) }
        return Int(value)
    }
}

/// A connection either store reads and writes rows through: statements with numbered
/// parameters, rows copied out.
@usableFromInline package protocol StoreConnection: AnyObject {
    associatedtype Value: StoreValue
    associatedtype ResultRow: StoreRow
    /// The shared statements, in this database's dialect (built once per dialect).
    static var statements: StoreStatements { get }
    /// Runs one statement and returns its rows.
    func query(_ sql: String, _ bindings: [Value]) throws -> [ResultRow]
    /// Runs one statement, discarding its rows and row count.
    func write(_ sql: String, _ bindings: [Value]) throws
    /// Runs one statement and returns how many rows it inserted, updated or deleted.
    func writeCountingRows(_ sql: String, _ bindings: [Value]) throws -> Int
}

/// What the two SQL dialects spell differently in the shared statements.
package enum StoreDialect: Sendable {
    case sqlite, postgres

    /// Parameter `n` (1-based): SQLite `?n`, PostgreSQL `$n`.
    package func parameter(_ n: Int) -> String {
        switch self {
        case .sqlite: "?\(n)"
        case .postgres: "$\(n)"
        }
    }

    /// Appended to an `ORDER BY` of ids so that they sort byte by byte (Unicode scalar order):
    /// SQLite's default BINARY collation does; PostgreSQL needs `"C"` (controller ids carry
    /// the database's default collation).
    package var byteOrder: String {
        switch self {
        case .sqlite: ""
        case .postgres: #" COLLATE "C""#
        }
    }
}

/// The statements both stores run unchanged apart from their dialect, built once per dialect
/// (SQLite's statement cache is keyed by the text, so the text must not be rebuilt per call).
/// A class, so that handing the set to a write retains one object, not each of its strings.
@usableFromInline package final class StoreStatements: Sendable {
    @usableFromInline package let upsertController: String
    /// A controller row's `body` and `format` only (``SessionCommit/linksUnchanged``).
    @usableFromInline package let updateControllerBody: String
    @usableFromInline package let deleteController: String
    @usableFromInline package let insertHistory: String
    /// An entry's checkpoint, written after the entry (``SessionCommit/checkpoint(session:createdAt:version:text:)``):
    /// never over one, and only while the session is the one created at the given time.
    @usableFromInline package let updateCheckpoint: String
    package let upsertStoryboard: String
    package let deleteStoryboard: String
    /// Adds one to `storyboard_revision` (migration 0006), in every storyboard-changing transaction.
    package let bumpStoryboardRevision: String
    package let storyboardRevision: String
    package let selectSession: String
    package let selectControllers: String
    package let sessionIDs: String
    package let sessionPage: String
    package let historyWithCheckpoints: String
    package let historyWithoutCheckpoints: String
    package let historyCount: String
    package let selectStoryboards: String

    package init(dialect: StoreDialect) {
        func p(_ n: Int) -> String { dialect.parameter(n) }
        func list(_ count: Int) -> String { (1...count).map(p).joined(separator: ", ") }
        upsertController = """
            INSERT INTO controllers (session_id, id, parent, presenting, presented, body, format)
            VALUES (\(list(7)))
            ON CONFLICT (session_id, id) DO UPDATE SET
                parent = excluded.parent, presenting = excluded.presenting,
                presented = excluded.presented, body = excluded.body, format = excluded.format
            """
        updateControllerBody = "UPDATE controllers SET body = \(p(3)), format = \(p(4)) WHERE session_id = \(p(1)) AND id = \(p(2))"
        deleteController = "DELETE FROM controllers WHERE session_id = \(p(1)) AND id = \(p(2))"
        insertHistory = """
            INSERT INTO history (session_id, version, at, method, path, body, command, result, format,
                                 changes, checkpoint, rules_version)
            VALUES (\(list(12)))
            """
        updateCheckpoint = """
            UPDATE history SET checkpoint = \(p(3))
            WHERE session_id = \(p(1)) AND version = \(p(2)) AND checkpoint IS NULL
              AND EXISTS (SELECT 1 FROM sessions WHERE id = \(p(1)) AND created_at = \(p(4)))
            """
        upsertStoryboard = """
            INSERT INTO storyboards (name, xml, custom_segues, classes, updated_at) VALUES (\(list(5)))
            ON CONFLICT (name) DO UPDATE SET
                xml = excluded.xml, custom_segues = excluded.custom_segues, classes = excluded.classes,
                updated_at = excluded.updated_at
            """
        deleteStoryboard = "DELETE FROM storyboards WHERE name = \(p(1))"
        bumpStoryboardRevision = "UPDATE storyboard_revision SET revision = revision + 1 WHERE id = 1"
        storyboardRevision = "SELECT revision FROM storyboard_revision WHERE id = 1"
        selectSession = "SELECT id, version, created_at, state, format FROM sessions WHERE id = \(p(1))"
        selectControllers = """
            SELECT id, parent, presenting, presented, body, format FROM controllers
            WHERE session_id = \(p(1)) ORDER BY id\(dialect.byteOrder)
            """
        sessionIDs = "SELECT id FROM sessions ORDER BY id"
        sessionPage = "SELECT id, version, created_at FROM sessions WHERE id > \(p(1)) ORDER BY id LIMIT \(p(2))"
        func history(_ checkpoint: String) -> String {
            """
            SELECT version, at, method, path, body, command, result, format, changes, \(checkpoint), rules_version
            FROM history WHERE session_id = \(p(1)) AND version > \(p(2)) ORDER BY version LIMIT \(p(3))
            """
        }
        historyWithCheckpoints = history("checkpoint")
        historyWithoutCheckpoints = history("NULL AS checkpoint")
        historyCount = "SELECT count(*) AS count FROM history WHERE session_id = \(p(1))"
        selectStoryboards = "SELECT name, xml, custom_segues, classes, updated_at FROM storyboards ORDER BY name"
    }
}

// MARK: - Rows into stored types

extension SessionRow {
    /// A `sessions` row (`id, version, created_at, state, format`).
    package init(row: some StoreRow) throws {
        self.init(
            id: try row.required("id"), version: try row.requiredInt("version"),
            createdAt: try row.required("created_at"), state: try row.required("state"),
            format: try row.requiredInt("format"))
    }

    /// `id, version, created_at, state, format`: the parameters of each store's own session
    /// upsert (its version check differs), in this order.
    @inlinable package func parameters<V: StoreValue>() -> [V] {
        [.text(id), .integer(Int64(version)), .text(createdAt), .text(state), .integer(Int64(format))]
    }
}

extension ControllerRow {
    /// A `controllers` row (`id, parent, presenting, presented, body, format`).
    package init(row: some StoreRow) throws {
        self.init(
            id: try row.required("id"), parent: row.text("parent"), presenting: row.text("presenting"),
            presented: row.text("presented"), body: try row.required("body"), format: try row.requiredInt("format"))
    }

    /// The parameters of ``StoreStatements/upsertController`` for this controller of `session`.
    @inlinable package func parameters<V: StoreValue>(session: String) -> [V] {
        [
            .text(session), .text(id), .optionalText(parent), .optionalText(presenting), .optionalText(presented),
            .text(body), .integer(Int64(format)),
        ]
    }

    /// The parameters of ``StoreStatements/updateControllerBody`` for this controller of `session`.
    @inlinable package func bodyParameters<V: StoreValue>(session: String) -> [V] {
        [.text(session), .text(id), .text(body), .integer(Int64(format))]
    }
}

extension HistoryRow {
    /// A `history` row as ``StoreStatements/historyWithCheckpoints`` reads it.
    package init(row: some StoreRow) throws {
        self.init(
            version: try row.requiredInt("version"), at: try row.required("at"),
            method: try row.required("method"), path: try row.required("path"), body: row.text("body"),
            command: try row.required("command"), result: try row.required("result"),
            format: try row.requiredInt("format"), changes: row.text("changes"),
            checkpoint: row.text("checkpoint"), rulesVersion: row.integer("rules_version").map { Int($0) })
    }

    /// The parameters of ``StoreStatements/insertHistory`` for this entry of `session`.
    @inlinable package func parameters<V: StoreValue>(session: String) -> [V] {
        [
            .text(session), .integer(Int64(version)), .text(at), .text(method), .text(path), .optionalText(body),
            .text(command), .text(result), .integer(Int64(format)), .optionalText(changes), .optionalText(checkpoint),
            .optionalInteger(rulesVersion),
        ]
    }
}

extension StoredStoryboard {
    /// A `storyboards` row (`name, xml, custom_segues, classes, updated_at`).
    package init(row: some StoreRow) throws {
        guard let xml = row.bytes("xml") else { throw SessionStoreError.unexpectedValue(column: "xml") }
        self.init(
            name: try row.required("name"), xml: xml, customSegues: row.text("custom_segues"),
            classes: row.text("classes"), updatedAt: try row.required("updated_at"))
    }

    /// The parameters of ``StoreStatements/upsertStoryboard``.
    @inlinable package func parameters<V: StoreValue>() -> [V] {
        [.text(name), .bytes(xml), .optionalText(customSegues), .optionalText(classes), .text(updatedAt)]
    }
}

// MARK: - Shared reads and writes

extension StoreConnection {
    /// Deletes `commit.deletedControllers`, upserts `commit.upsertedControllers` and inserts
    /// `commit.history`, in that order (``SessionCommit``); the session row is the store's own.
    /// A controller in `commit.linksUnchanged` has its body updated in place, and is upserted
    /// only if no row was there to update.
    @inlinable package func writeChildren(of commit: SessionCommit) throws {
        let id = commit.session.id, sql = Self.statements
        for controller in commit.deletedControllers {
            try write(sql.deleteController, [.text(id), .text(controller)])
        }
        for controller in commit.upsertedControllers {
            if !commit.linksUnchanged.isEmpty, commit.linksUnchanged.contains(controller.id),
                try writeCountingRows(sql.updateControllerBody, controller.bodyParameters(session: id)) == 1
            {
                continue
            }
            try write(sql.upsertController, controller.parameters(session: id))
        }
        if let entry = commit.history {
            try write(sql.insertHistory, entry.parameters(session: id))
        }
    }

    /// Writes ``SessionCommit/laterCheckpoint`` into its entry (``StoreStatements/updateCheckpoint``).
    @inlinable package func writeLaterCheckpoint(of commit: SessionCommit) throws {
        guard let later = commit.laterCheckpoint else { return }
        try write(
            Self.statements.updateCheckpoint,
            [
                .text(commit.session.id), .integer(Int64(later.version)),
                .text(later.text), .text(commit.session.createdAt),
            ])
    }

    /// Stores `storyboards`, each replacing one of the same name, and adds one to the storyboard
    /// revision; call inside the transaction that is to hold them.
    package func upsert(_ storyboards: [StoredStoryboard]) throws {
        for storyboard in storyboards { try write(Self.statements.upsertStoryboard, storyboard.parameters()) }
        try bumpStoryboardRevision()
    }

    /// Adds one to the storyboard revision (migration 0006); call inside the changing transaction.
    package func bumpStoryboardRevision() throws {
        try write(Self.statements.bumpStoryboardRevision, [])
    }

    /// The storyboard revision: how many transactions have changed the storyboards.
    package func readStoryboardRevision() throws -> Int {
        guard let row = try query(Self.statements.storyboardRevision, []).first else {
            throw SessionStoreError.unexpectedValue(column: "revision")
        }
        return try row.requiredInt("revision")
    }

    /// One session with its controllers (ordered by id, byte order); nil for an unknown id.
    /// Call inside one read transaction so that both queries see the same snapshot.
    package func readSession(_ id: String) throws -> StoredSession? {
        guard let row = try query(Self.statements.selectSession, [.text(id)]).first else { return nil }
        let controllers = try query(Self.statements.selectControllers, [.text(id)]).map { try ControllerRow(row: $0) }
        return StoredSession(session: try SessionRow(row: row), controllers: controllers)
    }

    /// Every session id, ascending in byte order.
    package func readSessionIDs() throws -> [String] {
        try query(Self.statements.sessionIDs, []).map { try $0.required("id") }
    }

    /// Up to `limit` sessions whose id sorts after `after` (all when nil): one range of the primary key.
    package func readSessionPage(after: String?, limit: Int) throws -> [(id: String, version: Int, createdAt: String)] {
        try query(Self.statements.sessionPage, [.text(after ?? ""), .integer(Int64(max(limit, 0)))]).map {
            (try $0.required("id"), try $0.requiredInt("version"), try $0.required("created_at"))
        }
    }

    /// A page of history, `version > after`, ascending, at most `limit`; without `checkpoints`
    /// the column is not read and every `checkpoint` is nil.
    package func readHistory(session: String, after: Int, limit: Int, checkpoints: Bool) throws -> [HistoryRow] {
        let sql = checkpoints ? Self.statements.historyWithCheckpoints : Self.statements.historyWithoutCheckpoints
        return try query(sql, [.text(session), .integer(Int64(after)), .integer(Int64(max(limit, 0)))])
            .map { try HistoryRow(row: $0) }
    }

    /// The number of history entries of `session`; 0 for an unknown one.
    package func readHistoryCount(session: String) throws -> Int {
        Int(try query(Self.statements.historyCount, [.text(session)]).first?.integer("count") ?? 0)
    }

    /// Every storyboard, ordered by name.
    package func readStoryboards() throws -> [StoredStoryboard] {
        try query(Self.statements.selectStoryboards, []).map { try StoredStoryboard(row: $0) }
    }
}

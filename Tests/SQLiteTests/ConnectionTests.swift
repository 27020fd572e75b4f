import Foundation
import SQLite
import Synchronization
import Testing

@Suite struct ConnectionTests {
    @Test func openingTurnsOnWALForeignKeysBusyTimeoutAndFullSync() throws {
        try withDatabase { db, _ throws in
            #expect(try db.scalar("PRAGMA journal_mode") == .text("wal"))
            #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
            #expect(try db.scalar("PRAGMA busy_timeout") == .integer(5000))
            #expect(try db.scalar("PRAGMA synchronous") == .integer(2))  // FULL
        }
    }

    @Test func normalDurabilitySetsSynchronousNormal() throws {
        try withTemporaryDirectory { directory throws in
            let db = try Connection(path: directory + "/n.sqlite", durability: .normal)
            #expect(try db.scalar("PRAGMA synchronous") == .integer(1))  // NORMAL
        }
    }

    @Test func inMemoryDatabaseOpensWithoutWAL() throws {
        let db = try Connection(path: ":memory:")
        #expect(try db.scalar("PRAGMA journal_mode") == .text("memory"))  // WAL needs a file
        #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
    }

    @Test func openingInMissingDirectoryFailsNamingThePath() throws {
        let path = "/nonexistent-\(UUID().uuidString)/db.sqlite"
        let error = #expect(throws: SQLiteError.self) { try Connection(path: path) }
        #expect(error?.primaryCode == 14)  // SQLITE_CANTOPEN
        #expect(error?.message.contains(path) == true)
    }

    static let values: [SQLiteValue] = [
        .null,
        .integer(0), .integer(Int64.min), .integer(Int64.max),
        .real(3.141_592_653_589_793), .real(-1e-300), .real(.greatestFiniteMagnitude),
        .text(""), .text("Ünïcödé 🌍 日本語 e\u{301}"), .text("nul\u{0}inside"),
        .blob([]), .blob([0x00, 0xFF, 0x00]), .blob(Array(0...255)),
    ]

    @Test(arguments: values)
    func valueRoundTripsThroughRunAndQuery(_ value: SQLiteValue) throws {
        try withDatabase { db, _ throws in
            try db.execute("CREATE TABLE v(x)")  // no declared type: no affinity conversion
            try db.run("INSERT INTO v(x) VALUES (?)", [value])
            #expect(try db.scalar("SELECT x FROM v") == value)
            #expect(try db.scalar("SELECT count(*) FROM v WHERE x IS ?", [value]) == .integer(1))
        }
    }

    /// Text and blobs are bound without SQLite's copy (`SQLITE_STATIC`), each inside the closure
    /// that lends its bytes: every one of several must still be intact when the statement runs,
    /// small strings (stored inside the `String`) and large ones alike, also when the cached
    /// statement runs again with other values.
    @Test func severalTextAndBlobBindingsArriveIntactWhenTheStatementRuns() throws {
        try withDatabase { db, _ throws in
            try db.execute("CREATE TABLE v(a, b, c, d, e)")
            for round in 0..<3 {
                let large = String(repeating: "large text \(round) ", count: 200)
                let values: [SQLiteValue] = [
                    .text("s\(round)"), .blob(Array(repeating: UInt8(round), count: 3000)), .text(large),
                    .integer(Int64(round)), .text(""),
                ]
                try db.run("INSERT INTO v(a, b, c, d, e) VALUES (?, ?, ?, ?, ?)", values)
                let row = try #require(try db.query("SELECT a, b, c, d, e FROM v WHERE d = ?", [.integer(Int64(round))]).first)
                #expect((0..<5).map { row[$0] } == values)
            }
        }
    }

    @Test func emptyTextAndBlobAreNotStoredAsNull() throws {
        try withDatabase { db, _ throws in
            #expect(try db.scalar("SELECT typeof(?)", [.text("")]) == .text("text"))
            #expect(try db.scalar("SELECT typeof(?)", [.blob([])]) == .text("blob"))
        }
    }

    @Test func rowGivesValuesByIndexAndCaseInsensitiveName() throws {
        try withDatabase { db, _ throws in
            let row = try #require(try db.query("SELECT 7 AS Id, 'x' AS name, 2.5 AS r, NULL AS n").first)
            #expect(row.columnNames == ["Id", "name", "r", "n"])
            #expect(row.int(0) == 7)
            #expect(row.int("id") == 7)
            #expect(row.text("NAME") == "x")
            #expect(row.double("r") == 2.5)
            #expect(row.double("id") == 7)  // INTEGER widens to Double
            #expect(row["n"] == .null)
            #expect(row["missing"] == nil)
            #expect(row.text("id") == nil)  // no conversion between storage classes
            #expect(row.int("n") == nil)
        }
    }

    @Test func lastInsertRowIDAndChangesReportTheLastStatement() throws {
        try withDatabase { db, _ throws in
            try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, x)")
            try db.run("INSERT INTO t(x) VALUES (?)", ["a"])
            try db.run("INSERT INTO t(x) VALUES (?)", ["b"])
            #expect(db.lastInsertRowID == 2)
            try db.run("UPDATE t SET x = 'c'")
            #expect(db.changes == 2)
        }
    }

    @Test func foreignKeyViolationThrowsExtendedCodeAndSQL() throws {
        try withDatabase { db, _ throws in
            try db.execute(
                """
                CREATE TABLE parent(id INTEGER PRIMARY KEY);
                CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent(id));
                """)
            let sql = "INSERT INTO child(parent_id) VALUES (?)"
            let error = #expect(throws: SQLiteError.self) { try db.run(sql, [42]) }
            #expect(error?.code == 787)  // SQLITE_CONSTRAINT_FOREIGNKEY
            #expect(error?.primaryCode == 19)  // SQLITE_CONSTRAINT
            #expect(error?.sql == sql)
            #expect(error?.message == "FOREIGN KEY constraint failed")
        }
    }

    @Test func syntaxErrorCarriesSQLiteMessageAndSQL() throws {
        try withDatabase { db, _ throws in
            let error = #expect(throws: SQLiteError.self) { try db.query("SELEC 1") }
            #expect(error?.code == 1)  // SQLITE_ERROR
            #expect(error?.sql == "SELEC 1")
            #expect(error?.message.contains("syntax error") == true)
            #expect(error?.description.contains("SELEC 1") == true)
        }
    }

    @Test func wrongNumberOfBindingsIsMisuse() throws {
        try withDatabase { db, _ throws in
            let error = #expect(throws: SQLiteError.self) { try db.query("SELECT ?, ?", [1]) }
            #expect(error?.code == 21)  // SQLITE_MISUSE
            #expect(error?.sql == "SELECT ?, ?")
        }
    }

    @Test func runRejectsASecondStatementButAllowsTrailingComments() throws {
        try withDatabase { db, _ throws in
            try db.execute("CREATE TABLE t(x)")
            let error = #expect(throws: SQLiteError.self) {
                try db.run("INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)")
            }
            #expect(error?.code == 21)
            #expect(try db.scalar("SELECT count(*) FROM t") == .integer(0))
            try db.run("INSERT INTO t VALUES (1); -- trailing comment")
            #expect(try db.scalar("SELECT count(*) FROM t") == .integer(1))
        }
    }

    @Test func executeRunsSeveralStatements() throws {
        try withDatabase { db, _ throws in
            try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1); INSERT INTO t VALUES (2);")
            #expect(try db.scalar("SELECT sum(x) FROM t") == .integer(3))
        }
    }

    @Test func doubleQuotedStringLiteralsAreRejected() throws {
        try withDatabase { db, _ throws in
            let error = #expect(throws: SQLiteError.self) { try db.query(#"SELECT "not a column""#) }
            #expect(error?.message.contains("no such column") == true)
        }
    }

    @Test func cachedStatementSeesSchemaChanges() throws {
        try withDatabase { db, _ throws in
            try db.execute("CREATE TABLE t(a); INSERT INTO t VALUES (1)")
            #expect(try db.query("SELECT * FROM t").first?.count == 1)
            try db.execute("ALTER TABLE t ADD COLUMN b DEFAULT 2")
            #expect(try db.query("SELECT * FROM t").first?.values == [.integer(1), .integer(2)])
        }
    }

    @Test func statementCacheKeepsWorkingPastItsCapacity() throws {
        try withDatabase { db, _ throws in
            for n in 0..<300 {  // more distinct SQL texts than the cache holds
                #expect(try db.scalar("SELECT \(n)") == .integer(Int64(n)))
            }
            #expect(try db.scalar("SELECT 0") == .integer(0))
        }
    }

    /// The intended ownership: one `Connection` inside a `Mutex`, shared by threads.
    private final class Store: Sendable {
        let connection: Mutex<Connection>
        init(_ connection: sending Connection) { self.connection = Mutex(connection) }
    }

    @Test func connectionOwnedByAMutexServesSeveralThreads() throws {
        try withTemporaryDirectory { directory throws in
            let db = try Connection(path: directory + "/m.sqlite")
            try db.execute("CREATE TABLE t(x)")
            let store = Store(db)
            DispatchQueue.concurrentPerform(iterations: 2) { worker in
                for n in 0..<50 {
                    store.connection.withLock { db in
                        #expect(throws: Never.self) {
                            try db.transaction {
                                try db.run("INSERT INTO t VALUES (?)", [.integer(Int64(worker * 100 + n))])
                            }
                        }
                    }
                }
            }
            let count = try store.connection.withLock { db in try db.scalar("SELECT count(*) FROM t") }
            #expect(count == .integer(100))
        }
    }

    @Test func dataCommittedByOneConnectionIsReadByAnother() throws {
        try withDatabase { writer, path throws in
            try writer.execute("CREATE TABLE t(x)")
            try writer.transaction { try writer.run("INSERT INTO t VALUES (?)", ["hello"]) }
            let reader = try Connection(path: path, readOnly: true)
            #expect(try reader.scalar("SELECT x FROM t") == .text("hello"))
        }
    }

    @Test func readOnlyConnectionRefusesWrites() throws {
        try withDatabase { writer, path throws in
            try writer.execute("CREATE TABLE t(x)")
            let reader = try Connection(path: path, readOnly: true)
            let error = #expect(throws: SQLiteError.self) { try reader.run("INSERT INTO t VALUES (1)") }
            #expect(error?.primaryCode == 8)  // SQLITE_READONLY
        }
    }

    @Test func checkpointEmptiesTheWAL() throws {
        try withDatabase { db, path throws in
            try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
            let wal = path + "-wal"
            let size = { (try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? -1 }
            #expect(try size() > 0)
            try db.checkpoint()
            #expect(try size() == 0)
            #expect(try db.scalar("SELECT x FROM t") == .integer(1))
        }
    }
}

@Suite("Connection.checkWritable")
struct WritabilityTests {
    @Test func readOnlyConnectionsAndReadOnlyFilesAreNotWritable() throws {
        let path = NSTemporaryDirectory() + "writable-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let writer = try Connection(path: path)
        try writer.checkWritable()
        let reader = try Connection(path: path, readOnly: true)
        #expect(throws: SQLiteError.self) { try reader.checkWritable() }
        // Asked for read-write, given read-only (as SQLite does for a file it may not write).
        do {
            _ = try Connection(path: "file:\(path)?mode=ro")
            Issue.record("a read-only database opened for writing")
        } catch let error as SQLiteError {
            #expect(error.primaryCode == 8)
            #expect(error.message.contains(path))
        }
    }
}

import Foundation
import SQLite
import Testing
import SQLiteStore
import SessionStorage

@Suite struct MigratorTests {
    static let initial = "CREATE TABLE session(id TEXT PRIMARY KEY, version INTEGER NOT NULL);"
    static let second = """
        CREATE TABLE history(session_id TEXT NOT NULL REFERENCES session(id), entry TEXT NOT NULL);
        INSERT INTO session(id, version) VALUES ('seed', 1);
        """

    /// A directory holding `files`, a fresh database, and the migrator loaded from it.
    private func withMigrations<T>(
        _ files: [String: String], _ body: (Migrator, Connection) throws -> T
    ) throws -> T {
        try withTemporaryDirectory { directory throws in
            let migrations = (directory as NSString).appendingPathComponent("migrations")
            try FileManager.default.createDirectory(atPath: migrations, withIntermediateDirectories: false)
            try write(files, into: migrations)
            let db = try Connection(path: (directory as NSString).appendingPathComponent("db.sqlite"))
            return try body(try Migrator(directory: migrations), db)
        }
    }

    @Test func appliesFilesInNumberOrderAndSetsUserVersion() throws {
        // 0002 needs 0001's table, so running them out of order would fail.
        try withMigrations(["0002_history.sql": Self.second, "0001_initial.sql": Self.initial]) { migrator, db throws in
            #expect(migrator.migrations.map(\.name) == ["initial", "history"])
            #expect(try migrator.migrate(db) == 2)
            #expect(try db.userVersion == 2)
            #expect(try db.tableNames() == ["history", "session"])
        }
    }

    @Test func rerunningIsANoOp() throws {
        try withMigrations(["0001_initial.sql": Self.initial, "0002_history.sql": Self.second]) { migrator, db throws in
            #expect(try migrator.migrate(db) == 2)
            #expect(try migrator.migrate(db) == 2)
            // 0002 inserts a row; a second application would have failed on the primary key.
            #expect(try db.scalar("SELECT count(*) FROM session") == .integer(1))
        }
    }

    @Test func appliesOnlyPendingSteps() throws {
        let first = try Migrator(migrations: [Migration(version: 1, name: "initial", sql: Self.initial)])
        let both = try Migrator(migrations: [
            Migration(version: 1, name: "initial", sql: Self.initial),
            Migration(version: 2, name: "history", sql: Self.second),
        ])
        try withDatabase { db, _ throws in
            #expect(try first.migrate(db) == 1)
            #expect(try both.migrate(db) == 2)
            #expect(try db.tableNames() == ["history", "session"])
        }
    }

    @Test func refusesDatabaseFromANewerBuild() throws {
        try withMigrations(["0001_initial.sql": Self.initial, "0002_history.sql": Self.second]) { migrator, db throws in
            try db.execute("PRAGMA user_version = 3")
            #expect(throws: MigrationError.databaseTooNew(userVersion: 3, latestKnown: 2)) {
                try migrator.migrate(db)
            }
            #expect(try db.userVersion == 3)
            #expect(try db.tableNames() == [])
        }
    }

    @Test func failingStepRollsBackEntirely() throws {
        let broken = "CREATE TABLE history(entry TEXT); INSERT INTO no_such_table VALUES (1);"
        try withMigrations(["0001_initial.sql": Self.initial, "0002_broken.sql": broken]) { migrator, db throws in
            let error = #expect(throws: MigrationError.self) { try migrator.migrate(db) }
            guard case .stepFailed(let version, let name, let sqliteError) = error else {
                Issue.record("expected stepFailed, got \(String(describing: error))")
                return
            }
            #expect(version == 2)
            #expect(name == "broken")
            #expect(sqliteError.message.contains("no_such_table"))
            // One line naming the file and SQLite's reason, not the whole script.
            let text = error?.description ?? ""
            #expect(text.hasPrefix("migration 0002_broken.sql failed and was rolled back: SQLite error 1 "), "\(text)")
            #expect(text.contains("no such table: no_such_table"))
            #expect(!text.contains("CREATE TABLE"), "the message quotes the SQL: \(text)")
            #expect(try db.userVersion == 1)
            #expect(try db.tableNames() == ["session"])  // no half-made `history`
            #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
        }
    }

    @Test func tableRebuildKeepsReferencingRowsAndForeignKeysComeBackOn() throws {
        // SQLite's 12-step ALTER recipe: dropping `parent` with foreign keys on would cascade.
        let initial = """
            CREATE TABLE parent(id INTEGER PRIMARY KEY);
            CREATE TABLE child(parent_id INTEGER REFERENCES parent(id) ON DELETE CASCADE);
            INSERT INTO parent VALUES (1); INSERT INTO child VALUES (1);
            """
        let rebuild = """
            CREATE TABLE parent_new(id INTEGER PRIMARY KEY, label TEXT NOT NULL DEFAULT '');
            INSERT INTO parent_new(id) SELECT id FROM parent;
            DROP TABLE parent;
            ALTER TABLE parent_new RENAME TO parent;
            """
        try withMigrations(["0001_initial.sql": initial, "0002_rebuild.sql": rebuild]) { migrator, db throws in
            #expect(try migrator.migrate(db) == 2)
            #expect(try db.scalar("SELECT count(*) FROM child") == .integer(1))
            #expect(try db.scalar("PRAGMA foreign_keys") == .integer(1))
        }
    }

    @Test func stepLeavingForeignKeyViolationsIsRolledBack() throws {
        let orphan = "INSERT INTO history(session_id, entry) VALUES ('nobody', 'x');"
        try withMigrations([
            "0001_initial.sql": Self.initial, "0002_history.sql": Self.second, "0003_orphan.sql": orphan,
        ]) { migrator, db throws in
            let error = #expect(throws: MigrationError.self) { try migrator.migrate(db) }
            guard case .stepFailed(3, _, let sqliteError) = error else {
                Issue.record("expected stepFailed(3), got \(String(describing: error))")
                return
            }
            #expect(sqliteError.code == 787)
            #expect(try db.userVersion == 2)
            #expect(try db.scalar("SELECT count(*) FROM history") == .integer(0))
        }
    }

    @Test func refusesToRunInsideATransaction() throws {
        let migrator = try Migrator(migrations: [Migration(version: 1, name: "initial", sql: Self.initial)])
        try withDatabase { db, _ throws in
            try db.transaction {
                #expect(throws: MigrationError.transactionOpen) { try migrator.migrate(db) }
            }
        }
    }

    @Test func gapInFileNumbersIsAnErrorNamingTheFile() throws {
        try withTemporaryDirectory { directory throws in
            try write(["0001_initial.sql": Self.initial, "0003_later.sql": ""], into: directory)
            let error = #expect(throws: MigrationError.self) { try Migrator(directory: directory) }
            #expect(error?.description.contains("0003_later.sql") == true)
        }
    }

    @Test func duplicateNumberIsAnErrorNamingBothFiles() throws {
        try withTemporaryDirectory { directory throws in
            try write(["0001_a.sql": "", "0001_b.sql": ""], into: directory)
            let error = #expect(throws: MigrationError.self) { try Migrator(directory: directory) }
            #expect(error?.description.contains("0001_a.sql") == true)
            #expect(error?.description.contains("0001_b.sql") == true)
        }
    }

    @Test func badSQLFileNameIsAnErrorButOtherFilesAreIgnored() throws {
        try withTemporaryDirectory { directory throws in
            try write(["0001_initial.sql": Self.initial, "README.md": "notes"], into: directory)
            #expect(try Migrator(directory: directory).latestVersion == 1)
            try write(["2_second.sql": ""], into: directory)
            let error = #expect(throws: MigrationError.self) { try Migrator(directory: directory) }
            #expect(error?.description.contains("2_second.sql") == true)
        }
    }

    @Test func missingDirectoryIsUnreadable() throws {
        let path = "/nonexistent-\(UUID().uuidString)"
        let error = #expect(throws: MigrationError.self) { try Migrator(directory: path) }
        guard case .unreadable(let reported, _) = error else {
            Issue.record("expected unreadable, got \(String(describing: error))")
            return
        }
        #expect(reported == path)
    }

    @Test func migrationListMustNumberOneToN() throws {
        #expect(throws: MigrationError.self) {
            try Migrator(migrations: [Migration(version: 1, name: "a", sql: ""), Migration(version: 3, name: "c", sql: "")])
        }
        #expect(throws: MigrationError.self) {
            try Migrator(migrations: [Migration(version: 0, name: "zero", sql: "")])
        }
        let sorted = try Migrator(migrations: [Migration(version: 2, name: "b", sql: ""), Migration(version: 1, name: "a", sql: "")])
        #expect(sorted.migrations.map(\.version) == [1, 2])
    }
}

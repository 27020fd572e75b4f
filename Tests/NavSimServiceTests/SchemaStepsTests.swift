import Foundation
import PostgreSQL
import SQLite
import Testing

import NavSimService
import SessionStorage
import SQLiteStore
import PostgresStore

/// The steps each store declares it needs (`schemaSteps`) are the steps its migrations folder
/// ships, and a folder that stops short is refused before a database is touched.
@Suite struct SchemaStepsTests {
    static func stepFiles(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: ServiceFiles.root.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".sql") }.sorted()
    }

    /// A new step in `migrations/` or `migrations-postgres/` goes into the store's declaration too.
    @Test func eachStoreDeclaresExactlyTheStepsOfItsFolder() throws {
        #expect(SessionStore.schemaSteps == (try Self.stepFiles("migrations")))
        #expect(PostgresSessionStore.schemaSteps == (try Self.stepFiles("migrations-postgres")))
    }

    /// A copy of `folder` with only its first `count` steps, in a fresh directory.
    static func truncatedCopy(of folder: String, keeping count: Int) throws -> String {
        let target = (NSTemporaryDirectory() as NSString).appendingPathComponent("SchemaStepsTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        for file in try stepFiles(folder).prefix(count) {
            try FileManager.default.copyItem(
                atPath: ServiceFiles.root.appendingPathComponent(folder).appendingPathComponent(file).path,
                toPath: (target as NSString).appendingPathComponent(file))
        }
        return target
    }

    /// Four of seven steps: refused naming 0005, and the database file is not created.
    @Test func anOlderSQLiteFolderIsRefusedBeforeTheFileIsCreated() throws {
        let folder = try Self.truncatedCopy(of: "migrations", keeping: 4)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = (folder as NSString).appendingPathComponent("navsim.sqlite")
        do {
            _ = try SessionStore(path: path, migrationsDirectory: folder)
            Issue.record("a migrations folder without steps 5-7 was accepted")
        } catch {
            #expect(
                error as? MigrationError
                    == .missingSteps(
                        directory: folder, missing: "0005_pending_deletions.sql",
                        found: 4, needed: SessionStore.schemaSteps.count), "\(error)")
            #expect("\(error)".contains("0005_pending_deletions.sql") && "\(error)".contains(folder), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: path), "the database was created")
    }

    /// A step of another name at a number the code needs is another schema: refused, naming both.
    @Test func aStepOfAnotherNameIsRefused() throws {
        let folder = try Self.truncatedCopy(of: "migrations", keeping: 7)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.moveItem(
            atPath: (folder as NSString).appendingPathComponent("0006_storyboard_revision.sql"),
            toPath: (folder as NSString).appendingPathComponent("0006_something_else.sql"))
        let path = (folder as NSString).appendingPathComponent("navsim.sqlite")
        #expect { _ = try SessionStore(path: path, migrationsDirectory: folder) } throws: { error in
            "\(error)".contains("0006_something_else.sql") && "\(error)".contains("0006_storyboard_revision.sql")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}

extension SchemaStepsTests {
    /// A later build's folder (one step more) is refused before the file is created: applying the
    /// step would leave a database this build then refuses as too new.
    @Test func aLaterBuildsFolderIsRefused() throws {
        let folder = try Self.truncatedCopy(of: "migrations", keeping: SessionStore.schemaSteps.count)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("CREATE TABLE extra (x INTEGER);\n".utf8).write(
            to: URL(fileURLWithPath: folder).appendingPathComponent(String(format: "%04d_extra.sql", SessionStore.schemaSteps.count + 1)))
        let path = (folder as NSString).appendingPathComponent("navsim.sqlite")
        #expect { _ = try SessionStore(path: path, migrationsDirectory: folder) } throws: { error in
            "\(error)".contains("_extra.sql") && "\(error)".contains("does not know")
        }
        #expect(!FileManager.default.fileExists(atPath: path), "the database was created")
    }
}

/// On a real PostgreSQL server (NAVSIM_TEST_POSTGRES; scripts/pg-store-suite.sh): an older
/// `migrations-postgres/` is refused before the store connects, so the schema stays empty.
extension SharedStoreServiceTests {
    @Test func anOlderPostgresFolderIsRefusedAndTheSchemaStaysEmpty() throws {
        let db = try SharedDatabase()
        let folder = try SchemaStepsTests.truncatedCopy(of: "migrations-postgres", keeping: 4)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect { _ = try PostgresSessionStore(url: db.url, migrationsDirectory: folder, schema: db.schema) } throws: { error in
            error as? MigrationError
                == .missingSteps(
                    directory: folder, missing: "0005_pending_deletions.sql",
                    found: 4, needed: PostgresSessionStore.schemaSteps.count)
        }
        let admin = try PostgreSQL.Connection(url: db.url)
        let schemas = try admin.query("SELECT count(*) AS n FROM information_schema.schemata WHERE schema_name = $1", [.text(db.schema)])
        #expect(schemas.first?.int("n") == 0, "the store created its schema before refusing the folder")
    }
}

import Foundation

/// One schema step: the SQL that takes a database from `version - 1` to `version`.
///
/// Migrations are immutable once shipped: a database records only the number it reached
/// (`PRAGMA user_version`), so editing an applied step never re-runs it. Add a new one instead.
public struct Migration: Sendable, Equatable {
    /// The version this step produces, counting from 1.
    public let version: Int
    /// A short name for messages, e.g. `initial` from `0001_initial.sql`.
    public let name: String
    /// One or more statements, run with ``Connection/execute(_:)`` inside the step's
    /// transaction. Must not contain `BEGIN`/`COMMIT`/`ROLLBACK`; `PRAGMA foreign_keys` has no
    /// effect there (SQLite ignores it inside a transaction), which is why ``Migrator`` turns
    /// foreign keys off around the steps itself.
    public let sql: String

    /// The file a step is read from: `0001_initial.sql` for version 1 named `initial`.
    public static func fileName(version: Int, name: String) -> String {
        let digits = String(version)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "_" + name + ".sql"
    }

    /// Creates a step.
    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}

/// Why the migrations could not be loaded or applied.
public enum MigrationError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The steps do not number 1…n: a gap, a duplicate, a bad file name. The message names the
    /// offending file or migration.
    case invalidMigrations(String)
    /// The migrations directory, or a file in it, could not be read.
    case unreadable(path: String, reason: String)
    /// The database's `user_version` is past the last known step: it was written by a newer
    /// build, whose schema this one does not understand. Nothing was changed.
    case databaseTooNew(userVersion: Int, latestKnown: Int)
    /// The migrations folder stops before the schema this build's code needs: `missing` is the
    /// first step it lacks (`0005_pending_deletions.sql`), `needed` the version the code needs.
    /// Refused before any database is opened: the code would fail on tables it expects.
    case missingSteps(directory: String, missing: String, found: Int, needed: Int)
    /// `Migrator.migrate(_:)` (SQLiteStore) was called inside an open transaction, where each step could
    /// not commit on its own.
    case transactionOpen
    /// A step failed; its transaction was rolled back, so the database is at `version - 1`
    /// with none of the step's changes.
    case stepFailed(version: Int, name: String, error: MigrationStepFailure)

    /// A one-line explanation naming the file, step or versions involved.
    public var description: String {
        switch self {
        case .invalidMigrations(let message):
            "invalid migrations: \(message)"
        case .unreadable(let path, let reason):
            "cannot read migrations at \(path): \(reason)"
        case .databaseTooNew(let userVersion, let latestKnown):
            "database is at schema version \(userVersion) but this build knows migrations only up to "
                + "\(latestKnown); it was written by a newer navsim, refusing to touch it"
        case .missingSteps(let directory, let missing, let found, let needed):
            "the migrations in \(directory) lack \(missing): they end at schema version \(found), but this build "
                + "needs version \(needed); use the migrations folder shipped with this build"
        case .transactionOpen:
            "migrate must run outside a transaction: every step commits in its own transaction"
        case .stepFailed(let version, let name, let error):
            "migration \(Migration.fileName(version: version, name: name)) failed and was rolled back: "
                + error.description
        }
    }
}

/// What the database said when a migration step failed: its result code and message, without
/// the step's SQL (a whole script would drown the reason).
public struct MigrationStepFailure: Error, CustomStringConvertible, Sendable, Equatable {
    /// The database's result code (SQLite's extended code, e.g. 787 for a foreign-key violation).
    public let code: Int32
    /// The database's message.
    public let message: String
    /// One line: the code and the message, as the database's wrapper words them.
    public let description: String

    /// A failure with the wrapper's `code`, `message` and one-line `description`.
    public init(code: Int32, message: String, description: String) {
        self.code = code
        self.message = message
        self.description = description
    }
}

/// Brings a database schema up to date by numbered steps, recording progress in
/// `PRAGMA user_version` (`migrate(_:)`, in SQLiteStore) or in a table (PostgresStore).
///
/// ```swift
/// let migrator = try Migrator(directory: "migrations")   // 0001_initial.sql, 0002_…
/// let version = try migrator.migrate(connection)          // e.g. 2
/// ```
///
/// `user_version` is an integer in the database header of which "SQLite makes no use … itself"
/// (<https://sqlite.org/pragma.html#pragma_user_version>), so it is read without any table
/// and written in the same transaction as the step it counts: DDL is transactional in
/// SQLite, so a step and its number commit or roll back together. A single number (rather than
/// GRDB's table of applied names) suits one linear history in one repository.
public struct Migrator: Sendable {
    /// The steps, sorted, numbered 1…n.
    public let migrations: [Migration]

    /// The version a fully migrated database has: the last step's, or 0 with no steps.
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Validates and sorts `migrations`.
    /// - Throws: ``MigrationError/invalidMigrations(_:)`` unless the versions are exactly
    ///   1…n in some order (no gap, no duplicate), naming the offending migration.
    public init(migrations: [Migration]) throws {
        self.migrations = try Self.validated(migrations.map { ($0, "migration \($0.version) (\($0.name))") })
    }

    /// Loads every `NNNN_name.sql` file of `directory`, in number order.
    ///
    /// `NNNN` is exactly four digits and `name` uses letters, digits, `_` and `-`
    /// (`0001_initial.sql`). Files not ending in `.sql` are ignored (READMEs); any other `.sql`
    /// name is an error rather than a silently skipped step.
    /// - Throws: ``MigrationError/invalidMigrations(_:)`` for a bad name, a gap or a duplicate
    ///   number, naming the file; ``MigrationError/unreadable(path:reason:)`` if the directory
    ///   or a file cannot be read as UTF-8.
    public init(directory: String) throws {
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw MigrationError.unreadable(path: directory, reason: error.localizedDescription)
        }
        var loaded: [(Migration, String)] = []
        for file in files.sorted() where file.hasSuffix(".sql") {
            guard let (version, name) = Self.parse(fileName: file) else {
                throw MigrationError.invalidMigrations(
                    "\(file): name must be NNNN_name.sql with four digits, e.g. 0001_initial.sql")
            }
            let path = (directory as NSString).appendingPathComponent(file)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw MigrationError.unreadable(path: path, reason: "the file cannot be read")
            }
            guard let sql = String(data: data, encoding: .utf8) else {
                throw MigrationError.unreadable(path: path, reason: "the file is not UTF-8")
            }
            loaded.append((Migration(version: version, name: name, sql: sql), file))
        }
        self.migrations = try Self.validated(loaded)
    }

    /// Checks that these steps are the ones `required` names (file names such as
    /// `0001_initial.sql`, in order), the schema the caller's code was written against.
    /// A step past them is refused too: this build would apply it and leave a database that it,
    /// and every build like it, then refuses as too new (``migrate(_:)``).
    /// - Throws: ``MigrationError/missingSteps(directory:missing:found:needed:)`` naming the first
    ///   step the folder lacks; ``MigrationError/invalidMigrations(_:)`` when a step has another name
    ///   than the one required at its number (a folder of some other schema) or when the folder
    ///   holds a step past them (a later build's folder).
    public func check(provides required: [String], directory: String) throws {
        for (index, name) in required.enumerated() {
            guard index < migrations.count else {
                throw MigrationError.missingSteps(directory: directory, missing: name, found: latestVersion, needed: required.count)
            }
            let step = migrations[index]
            let file = Migration.fileName(version: step.version, name: step.name)
            guard file == name else {
                throw MigrationError.invalidMigrations(
                    "\((directory as NSString).appendingPathComponent(file)): this build needs \(name) at version \(step.version)")
            }
        }
        if migrations.count > required.count {
            let step = migrations[required.count]
            let file = Migration.fileName(version: step.version, name: step.name)
            throw MigrationError.invalidMigrations(
                "\((directory as NSString).appendingPathComponent(file)): a step this build does not know (it ends at "
                    + "\(required.last ?? "no step")); give it the migrations that came with this build")
        }
    }

    /// Sorts by version and requires exactly 1…n; `label` names a step in messages.
    private static func validated(_ steps: [(Migration, String)]) throws -> [Migration] {
        let sorted = steps.sorted { $0.0.version < $1.0.version }
        for (offset, (migration, label)) in sorted.enumerated() {
            let expected = offset + 1
            if migration.version == expected { continue }
            if offset > 0, sorted[offset - 1].0.version == migration.version {
                throw MigrationError.invalidMigrations(
                    "\(label): version \(migration.version) is also used by \(sorted[offset - 1].1)")
            }
            throw MigrationError.invalidMigrations(
                "\(label): expected version \(expected) next; versions must run 1, 2, 3… without gaps")
        }
        return sorted.map(\.0)
    }

    /// `0001_initial.sql` → `(1, "initial")`; `nil` for any other shape.
    private static func parse(fileName: String) -> (Int, String)? {
        guard fileName.hasSuffix(".sql") else { return nil }
        let stem = fileName.dropLast(".sql".count)
        let digits = stem.prefix(4)
        guard digits.count == 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let version = Int(digits)
        else { return nil }
        let rest = stem.dropFirst(4)
        guard rest.first == "_" else { return nil }
        let name = rest.dropFirst()
        let allowed = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == "-") }
        guard !name.isEmpty, name.allSatisfy(allowed) else { return nil }
        return (version, String(name))
    }
}

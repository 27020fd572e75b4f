import CSQLite
public import SQLite
public import SessionStorage

extension Migrator {
    /// Applies the pending steps and returns the version reached.
    ///
    /// Each step runs in its own `BEGIN IMMEDIATE` transaction together with
    /// `PRAGMA user_version = N`, so a failure leaves the database at the last good step with no
    /// trace of the failed one. The version is re-read once the write lock is held, so two
    /// processes migrating at once apply each step once. Running again is a no-op.
    ///
    /// Foreign keys are switched off around the steps and checked with
    /// `PRAGMA foreign_key_check` before each commit: SQLite's recipe for schema changes that
    /// rebuild a table (<https://sqlite.org/lang_altertable.html#otheralter>), since dropping
    /// the old table would otherwise fire `ON DELETE` actions. They are switched back on after.
    ///
    /// - Returns: The database's version afterwards (``latestVersion`` unless it was already
    ///   there).
    /// - Throws: ``MigrationError/databaseTooNew(userVersion:latestKnown:)`` without touching
    ///   a database from a newer build; ``MigrationError/stepFailed(version:name:error:)``
    ///   (rolled back) when a step's SQL fails or leaves foreign-key violations;
    ///   ``MigrationError/transactionOpen``; ``SQLiteError`` when reading the version fails.
    public func migrate(_ connection: Connection) throws -> Int {
        guard !connection.isInTransaction else { throw MigrationError.transactionOpen }
        let current = try connection.userVersion
        guard current <= latestVersion else {
            throw MigrationError.databaseTooNew(userVersion: current, latestKnown: latestVersion)
        }
        let pending = migrations.filter { $0.version > current }
        if pending.isEmpty { return current }

        let foreignKeys = try connection.query("PRAGMA foreign_keys").first?.int(0) == 1
        if foreignKeys { try connection.execute("PRAGMA foreign_keys = OFF") }
        do {
            for migration in pending { try apply(migration, to: connection) }
        } catch {
            if foreignKeys { try? connection.execute("PRAGMA foreign_keys = ON") }
            throw error
        }
        if foreignKeys { try connection.execute("PRAGMA foreign_keys = ON") }
        return try connection.userVersion
    }

    private func apply(_ migration: Migration, to connection: Connection) throws {
        do {
            try connection.transaction {
                // Another process may have applied this step between our first read and the
                // write lock BEGIN IMMEDIATE just took.
                guard try connection.userVersion < migration.version else { return }
                try connection.execute(migration.sql)
                let violations = try connection.query("PRAGMA foreign_key_check")
                if !violations.isEmpty {
                    let tables = Set(violations.compactMap { $0.text("table") }).sorted()
                    throw SQLiteError(
                        code: SQLITE_CONSTRAINT | (3 << 8),  // SQLITE_CONSTRAINT_FOREIGNKEY; Swift skips macros with shifts
                        message: "\(violations.count) row(s) violate foreign keys in "
                            + tables.joined(separator: ", "),
                        sql: "PRAGMA foreign_key_check")
                }
                // PRAGMA takes no bound parameters; the version is an Int, so this is safe.
                try connection.execute("PRAGMA user_version = \(migration.version)")
            }
        } catch let error as SQLiteError {
            throw MigrationError.stepFailed(
                version: migration.version, name: migration.name,
                error: MigrationStepFailure(
                    code: error.code, message: error.message, description: error.descriptionWithoutSQL))
        }
    }

}

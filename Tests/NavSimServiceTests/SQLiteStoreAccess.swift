import SQLite
@testable import NavSimService
@testable import SessionStorage
@testable import SQLiteStore

extension NavSimService {
    /// The SQLite store the tests' services run on, for what the `SessionStoring` protocol does
    /// not carry (`loadSessions`, `pendingDeletionIDs`, `childRowCount`). Every service these
    /// tests open is built on a database path, so the cast holds.
    var sqlite: SessionStore { store as! SessionStore }
}

/// A fault put into an SQLite database from outside the store: a trigger that aborts the
/// store's own statement on `table` when `condition` holds, inside the store's transaction, as a
/// constraint or an I/O error there would. ``remove()`` takes it out again.
struct SQLiteFault {
    let path: String
    let name: String

    init(_ path: String, before operation: String = "INSERT", on table: String, when condition: String) throws {
        self.path = path
        name = "test_fault_\(table)"
        try SQLite.Connection(path: path).execute(
            "CREATE TRIGGER \(name) BEFORE \(operation) ON \(table) WHEN \(condition) BEGIN SELECT RAISE(ABORT, 'a fault the test put in the database'); END")
    }

    func remove() throws {
        try SQLite.Connection(path: path).execute("DROP TRIGGER \(name)")
    }
}

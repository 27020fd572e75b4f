@testable import NavSimService
@testable import SessionStorage
@testable import SQLiteStore

extension NavSimService {
    /// The SQLite store the tests' services run on, for its test hooks (`holdWrites`,
    /// `capPages`, `loadSessions`) that the `SessionStoring` protocol does not carry. Every
    /// service these tests open is built on a database path, so the cast holds.
    var sqlite: SessionStore { store as! SessionStore }
}

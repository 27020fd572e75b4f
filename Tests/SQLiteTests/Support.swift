import Foundation
import SQLite

/// Runs `body` with a fresh directory that is removed afterwards.
///
/// A closure rather than an object with `deinit`: Swift may release a local right after its
/// last use, which could delete the directory under a still-open connection.
@discardableResult
func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let path = (NSTemporaryDirectory() as NSString)
        .appendingPathComponent("SQLiteTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// Runs `body` with a connection to a new database file in a temporary directory.
@discardableResult
func withDatabase<T>(_ body: (Connection, String) throws -> T) throws -> T {
    try withTemporaryDirectory { directory in
        let path = (directory as NSString).appendingPathComponent("test.sqlite")
        return try body(try Connection(path: path), path)
    }
}

/// Writes `files` (name → contents) into `directory`.
func write(_ files: [String: String], into directory: String) throws {
    for (name, contents) in files {
        try contents.write(
            toFile: (directory as NSString).appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
}

extension Connection {
    /// The single value of a one-row, one-column query.
    func scalar(_ sql: String, _ bindings: [SQLiteValue] = []) throws -> SQLiteValue? {
        try query(sql, bindings).first?[0]
    }

    /// Names of the user tables, sorted.
    func tableNames() throws -> [String] {
        try query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").compactMap { $0.text(0) }
    }
}

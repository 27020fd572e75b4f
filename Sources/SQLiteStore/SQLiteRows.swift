public import SQLite
public import SessionStorage

// SQLite's wrapper as the connection, rows and values the shared statements of SessionStorage
// (`StoreRows.swift`) read and write through.

extension SQLiteValue: StoreValue {
    @usableFromInline package static func bytes(_ value: [UInt8]) -> SQLiteValue { .blob(value) }
}

extension SQLite.Row: StoreRow {
    @usableFromInline package func integer(_ column: String) -> Int64? { int(column) }
    @usableFromInline package func bytes(_ column: String) -> [UInt8]? { blob(column) }
}

extension SQLite.Connection: StoreConnection {
    @usableFromInline package static let statements = StoreStatements(dialect: .sqlite)
    @usableFromInline package func write(_ sql: String, _ bindings: [SQLiteValue]) throws { try run(sql, bindings) }
    @usableFromInline package func writeCountingRows(_ sql: String, _ bindings: [SQLiteValue]) throws -> Int {
        try run(sql, bindings)
        return changes
    }
}

extension SQLiteError: StoreFault {
    /// `SQLITE_FULL`: the file reached its size limit or the disk is full.
    public var isStorageFull: Bool { isFull }
    /// The extended result code.
    public var storeCode: StoreCode? { .resultCode(code) }
}

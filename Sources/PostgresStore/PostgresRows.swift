public import PostgreSQL
public import SessionStorage

// PostgreSQL's wrapper as the connection, rows and values the shared statements of
// SessionStorage (`StoreRows.swift`) read and write through.

extension PostgresValue: StoreValue {}

extension PostgreSQL.Row: StoreRow {
    @usableFromInline package func integer(_ column: String) -> Int64? { int(column) }
}

extension PostgreSQL.Connection: StoreConnection {
    @usableFromInline package static let statements = StoreStatements(dialect: .postgres)
    @usableFromInline package func write(_ sql: String, _ bindings: [PostgresValue]) throws { try run(sql, bindings) }
    @usableFromInline package func writeCountingRows(_ sql: String, _ bindings: [PostgresValue]) throws -> Int { try run(sql, bindings) }
}

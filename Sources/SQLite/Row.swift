/// One result row of ``Connection/query(_:_:)``: the values in column order, with the names.
///
/// Values are copied out of SQLite when the row is read, so a `Row` is a plain value that
/// outlives the statement and may cross threads.
///
/// ```swift
/// for row in try db.query("SELECT id, name FROM item WHERE id > ?", [.integer(0)]) {
///     let id = row.int("id")      // Int64?
///     let name = row.text(1)      // String?
/// }
/// ```
///
/// The typed helpers (`int`, `double`, `text`, `blob`) return `nil` for NULL and for a value of
/// another storage class; they never convert text to numbers the way SQLite's `CAST` would, so
/// a schema mistake shows up as `nil` rather than as a silently invented value. The one
/// exception is `double`, which widens an INTEGER, because SQLite itself stores
/// integral REAL-affinity values compactly and numeric expressions mix the two classes freely.
public struct Row: Sendable, Equatable {
    /// The result column names, as `sqlite3_column_name` reports them (the `AS` alias if any).
    public let columnNames: [String]
    /// The values in column order.
    public let values: [SQLiteValue]

    /// Creates a row; `columnNames` and `values` must have the same count.
    public init(columnNames: [String], values: [SQLiteValue]) {
        precondition(columnNames.count == values.count, "one name per value")
        self.columnNames = columnNames
        self.values = values
    }

    /// The number of columns.
    public var count: Int { values.count }

    /// The value at a zero-based column index. Traps when out of range, like an array.
    public subscript(_ index: Int) -> SQLiteValue { values[index] }

    /// The value of the first column with this name, or `nil` if there is no such column.
    ///
    /// An exact match wins; otherwise the match is ASCII case-insensitive, because SQL
    /// identifiers are (`SELECT Id` and `row["id"]` name the same column).
    public subscript(_ name: String) -> SQLiteValue? {
        index(of: name).map { values[$0] }
    }

    /// The index of the first column with this name (see `subscript(_: String)`).
    public func index(of name: String) -> Int? {
        if let exact = columnNames.firstIndex(of: name) { return exact }
        let folded = name.lowercased()
        return columnNames.firstIndex { $0.lowercased() == folded }
    }

    /// The INTEGER at `index`, or `nil` for NULL or another storage class.
    public func int(_ index: Int) -> Int64? { Self.int(self[index]) }
    /// The REAL (or INTEGER, widened) at `index`, or `nil` for NULL or another storage class.
    public func double(_ index: Int) -> Double? { Self.double(self[index]) }
    /// The TEXT at `index`, or `nil` for NULL or another storage class.
    public func text(_ index: Int) -> String? { Self.text(self[index]) }
    /// The BLOB at `index`, or `nil` for NULL or another storage class.
    public func blob(_ index: Int) -> [UInt8]? { Self.blob(self[index]) }

    /// The INTEGER in column `name`, or `nil` for NULL, another storage class or no such column.
    public func int(_ name: String) -> Int64? { self[name].flatMap(Self.int) }
    /// The REAL (or INTEGER, widened) in column `name`, or `nil` (see `int(_: String)`).
    public func double(_ name: String) -> Double? { self[name].flatMap(Self.double) }
    /// The TEXT in column `name`, or `nil` (see `int(_: String)`).
    public func text(_ name: String) -> String? { self[name].flatMap(Self.text) }
    /// The BLOB in column `name`, or `nil` (see `int(_: String)`).
    public func blob(_ name: String) -> [UInt8]? { self[name].flatMap(Self.blob) }

    private static func int(_ value: SQLiteValue) -> Int64? {
        if case .integer(let v) = value { return v }
        return nil
    }

    private static func double(_ value: SQLiteValue) -> Double? {
        switch value {
        case .real(let v): v
        case .integer(let v): Double(v)
        default: nil
        }
    }

    private static func text(_ value: SQLiteValue) -> String? {
        if case .text(let v) = value { return v }
        return nil
    }

    private static func blob(_ value: SQLiteValue) -> [UInt8]? {
        if case .blob(let v) = value { return v }
        return nil
    }
}

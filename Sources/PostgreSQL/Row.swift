/// One result row of ``Connection/query(_:_:)``, copied out of libpq: a plain value that
/// outlives the result and may cross threads.
///
/// Values are the server's text format (`nil` for NULL). The typed helpers parse that text and
/// return nil for NULL or for text that is not of the asked type, never a guessed value.
public struct Row: Sendable, Equatable {
    /// The result column names (the `AS` alias if any), as `PQfname` reports them.
    public let columnNames: [String]
    /// The values in column order, in text format; nil for NULL.
    public let values: [String?]

    /// Creates a row; `columnNames` and `values` must have the same count.
    public init(columnNames: [String], values: [String?]) {
        precondition(columnNames.count == values.count, "one name per value")
        self.columnNames = columnNames
        self.values = values
    }

    /// The index of the first column with this name (exact match).
    public func index(of name: String) -> Int? { columnNames.firstIndex(of: name) }

    /// The text of the column at `index`, nil for NULL.
    public func text(_ index: Int) -> String? { values[index] }
    /// The text of the named column, nil for NULL or no such column.
    public func text(_ name: String) -> String? { index(of: name).flatMap { values[$0] } }

    /// The column as an integer (`int2`/`int4`/`int8` text), nil for NULL or non-integer text.
    public func int(_ index: Int) -> Int64? { values[index].flatMap { Int64($0) } }
    /// The named column as an integer.
    public func int(_ name: String) -> Int64? { index(of: name).flatMap { int($0) } }

    /// The column as `bool` (`t`/`f` in text format).
    public func bool(_ name: String) -> Bool? {
        switch text(name) {
        case "t": true
        case "f": false
        default: nil
        }
    }

    /// A `bytea` column in the hex text format (`\x0a1b…`, the default since PostgreSQL 9.0,
    /// <https://www.postgresql.org/docs/15/datatype-binary.html>); nil for NULL or other text.
    public func bytes(_ name: String) -> [UInt8]? {
        guard let text = text(name) else { return nil }
        let digits = Array(text.utf8)
        guard digits.count >= 2, digits[0] == UInt8(ascii: "\\"), digits[1] == UInt8(ascii: "x"),
            digits.count % 2 == 0
        else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity((digits.count - 2) / 2)
        var i = 2
        while i < digits.count {
            guard let high = Self.nibble(digits[i]), let low = Self.nibble(digits[i + 1]) else { return nil }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

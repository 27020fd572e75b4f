import HTTPServer

/// The query parameters a `GET` takes (`limit`, `after`, `version`, `replay`; docs/api.md
/// "Query parameters"), read and checked in one place. Each is single-valued: one given twice
/// (`?version=2&version=3`) is refused, not settled by taking the last. A bad value is
/// 422 `invalid-query` naming the parameter in `field` (``Problem/invalidQuery(_:_:)``).
enum QueryParameters {
    /// The value of `name`, or `nil` when absent; 422 when it is given more than once.
    static func single(_ req: HTTPRequest, _ name: String) throws(Problem) -> String? {
        if req.repeatedQueryNames.contains(name) {
            throw Problem.invalidQuery(name, "\(name) is given more than once; it takes one value.")
        }
        return req.query[name]
    }

    /// An integer in `range`, `value` when absent. The detail says whether the value is not an
    /// integer or an integer out of the range (one too large for 64 bits included).
    static func int(_ req: HTTPRequest, _ name: String, default value: Int, range: ClosedRange<Int>) throws(Problem) -> Int {
        guard let raw = try single(req, name) else { return value }
        let bounds = "\(range.lowerBound)…\(range.upperBound)"
        if let n = Int(raw) {
            guard range.contains(n) else { throw Problem.invalidQuery(name, "\(name) \(n) is out of range \(bounds).") }
            return n
        }
        let digits = raw.utf8.drop { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }
        if raw.utf8.count - digits.count <= 1, !digits.isEmpty,
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        {
            throw Problem.invalidQuery(name, "\(name) \(raw) is out of range \(bounds).")
        }
        throw Problem.invalidQuery(name, "\(name) is an integer in \(bounds); got '\(raw)'.")
    }

    /// `true` or `false`, `false` when absent.
    static func bool(_ req: HTTPRequest, _ name: String) throws(Problem) -> Bool {
        switch try single(req, name) {
        case nil, "false": return false
        case "true": return true
        case let raw?: throw Problem.invalidQuery(name, "\(name) is true or false; got '\(raw)'.")
        }
    }
}

import JSONValues
import NavigationCore

/// Reads a JSON object field by field and rejects what it does not know: a typo such as
/// `modalPresentatonStyle` is a 422 naming the field and the allowed names (docs/api.md).
struct BodyReader {
    let members: [(String, JSON)]
    let path: String
    let allowed: [String]

    init(_ json: JSON, path: String = "", allowed: [String]) throws(Problem) {
        guard case .object(let m) = json else {
            throw Problem.invalidField(path.isEmpty ? "body" : path, "\(path.isEmpty ? "The body" : path) must be a JSON object.")
        }
        self.members = m
        self.path = path
        self.allowed = allowed
        for (key, _) in m where !allowed.contains(key) {
            let takes =
                allowed.isEmpty
                ? "\(path.isEmpty ? "The body" : path) takes no fields."
                : "Allowed: \(allowed.joined(separator: ", "))."
            throw Problem.invalidField(name(key), "Unknown field '\(name(key))'. \(takes)", allowed: allowed)
        }
    }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
    func has(_ key: String) -> Bool { members.contains { $0.0 == key } }
    func raw(_ key: String) -> JSON? { members.first { $0.0 == key }?.1 }

    func string(_ key: String) throws(Problem) -> String? {
        guard let v = raw(key), !v.isNull else { return nil }
        guard let s = v.string else { throw Problem.invalidField(name(key), "\(name(key)) must be a string.") }
        return s
    }
    func requiredString(_ key: String) throws(Problem) -> String {
        guard let s = try string(key) else { throw Problem.invalidField(name(key), "\(name(key)) is required.") }
        return s
    }
    func bool(_ key: String) throws(Problem) -> Bool? {
        guard let v = raw(key), !v.isNull else { return nil }
        guard let b = v.bool else { throw Problem.invalidField(name(key), "\(name(key)) must be true or false.") }
        return b
    }
    func number(_ key: String) throws(Problem) -> Double? {
        guard let v = raw(key), !v.isNull else { return nil }
        guard let n = v.number else { throw Problem.invalidField(name(key), "\(name(key)) must be a number.") }
        // `1e400` parses as infinity: refused here, where the field's name is known.
        guard n.isFinite else { throw Problem.invalidField(name(key), "\(name(key)) must be a finite number.") }
        return n
    }
    func int(_ key: String) throws(Problem) -> Int? {
        guard let n = try number(key) else { return nil }
        guard n == n.rounded(), abs(n) < 1e9 else { throw Problem.invalidField(name(key), "\(name(key)) must be an integer.") }
        return Int(n)
    }
    func enumValue<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type) throws(Problem) -> E? where E.RawValue == String {
        guard let s = try string(key) else { return nil }
        guard let e = E(rawValue: s) else {
            let all = E.allCases.map(\.rawValue)
            throw Problem.invalidField(name(key), "'\(s)' is not a valid \(name(key)). Allowed: \(all.joined(separator: ", ")).", allowed: all)
        }
        return e
    }
    func strings(_ key: String) throws(Problem) -> [String]? {
        guard let v = raw(key), !v.isNull else { return nil }
        guard let a = v.array else { throw Problem.invalidField(name(key), "\(name(key)) must be an array of strings.") }
        var out: [String] = []
        for item in a {
            guard let s = item.string else { throw Problem.invalidField(name(key), "\(name(key)) must be an array of strings.") }
            out.append(s)
        }
        return out
    }
    func object(_ key: String, allowed: [String]) throws(Problem) -> BodyReader? {
        guard let v = raw(key), !v.isNull else { return nil }
        return try BodyReader(v, path: name(key), allowed: allowed)
    }
}

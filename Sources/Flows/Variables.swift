import Foundation
public import JSONValues
import NavSimService

/// The values `${name}` placeholders stand for while a flow plays (docs/flows.md "Variables").
///
/// A string that is exactly one placeholder becomes the variable's value with its JSON type
/// (`"${v}"` can be the number 3); a placeholder inside a longer string becomes text (a string
/// as is, anything else as compact JSON). `$${` writes a literal `${`.
public struct Variables: Sendable {
    public private(set) var values: [String: JSON] = [:]

    /// Variables with these values (`run` is added by the runner).
    public init(_ values: [String: JSON] = [:]) { self.values = values }

    /// A variable's value; setting `nil` removes it.
    public subscript(name: String) -> JSON? {
        get { values[name] }
        set { values[name] = newValue }
    }

    /// A placeholder names a variable no step has saved.
    public struct Unknown: Error, Sendable {
        public var name: String
    }

    /// `text` with every placeholder replaced by text.
    public func text(_ text: String) throws(Unknown) -> String {
        guard text.contains("${") else { return text }
        var out = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            if start.lowerBound > rest.startIndex, rest[rest.index(before: start.lowerBound)] == "$" {
                out += rest[..<rest.index(before: start.lowerBound)] + "${"
                rest = rest[start.upperBound...]
                continue
            }
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else { break }
            out += rest[..<start.lowerBound]
            let name = String(rest[start.upperBound..<end])
            guard let value = values[name] else { throw Unknown(name: name) }
            out += value.string ?? value.text
            rest = rest[rest.index(after: end)...]
        }
        return out + rest
    }

    /// `json` with placeholders replaced in every string (member names included).
    public func json(_ json: JSON) throws(Unknown) -> JSON {
        switch json {
        case .string(let s):
            if s.hasPrefix("${"), s.hasSuffix("}"), s.dropFirst(2).dropLast().allSatisfy({ $0 != "}" && $0 != "{" && $0 != "$" }) {
                let name = String(s.dropFirst(2).dropLast())
                guard let value = values[name] else { throw Unknown(name: name) }
                return value
            }
            return .string(try text(s))
        case .array(let items):
            var out: [JSON] = []
            for item in items { out.append(try self.json(item)) }
            return .array(out)
        case .object(let members):
            var out: [(String, JSON)] = []
            for (k, v) in members { out.append((try text(k), try self.json(v))) }
            return .object(out)
        default:
            return json
        }
    }
}

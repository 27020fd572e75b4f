public import JSONValues
import NavSimService

/// A path into a JSON reply: member names joined by `.`, array indexes in brackets, an optional
/// leading `$` or `$.`: `transition.state`, `$.events[2].callback`, `controllers.A.appearance`.
/// A member name that holds a `.` or `[` is written quoted in brackets: `controllers["nav.root"]`.
public struct JSONPath: Sendable, Equatable, CustomStringConvertible {
    /// One step down: a member of an object, or an item of an array (0-based).
    public enum Component: Sendable, Equatable {
        case member(String)
        case index(Int)
    }

    public var components: [Component]

    /// A path from its components; `[]` is the whole document.
    public init(_ components: [Component]) { self.components = components }

    /// Why a path string is not a path.
    public struct SyntaxError: Error, Sendable {
        public var message: String
    }

    /// Parses `text`.
    /// - Throws: `SyntaxError` on an empty name, an unclosed bracket or a bracket that is neither a
    ///   whole number nor a quoted name.
    public init(_ text: String) throws(SyntaxError) {
        var s = Substring(text)
        if s.hasPrefix("$") { s = s.dropFirst(); if s.hasPrefix(".") { s = s.dropFirst() } }
        var out: [Component] = []
        var name = ""
        var afterBracket = false
        func flush() throws(SyntaxError) {
            if name.isEmpty && !afterBracket { throw SyntaxError(message: "empty member name in path '\(text)'") }
            if !name.isEmpty { out.append(.member(name)) }
            name = ""
        }
        while let c = s.first {
            s = s.dropFirst()
            switch c {
            case ".":
                try flush()
                afterBracket = false
            case "[":
                if !name.isEmpty { out.append(.member(name)); name = "" }
                guard let close = s.firstIndex(of: "]") else { throw SyntaxError(message: "unclosed '[' in path '\(text)'") }
                let inside = s[..<close]
                s = s[s.index(after: close)...]
                if let i = Int(inside), i >= 0 {
                    out.append(.index(i))
                } else if inside.count >= 2, inside.first == "\"", inside.last == "\"" {
                    out.append(.member(String(inside.dropFirst().dropLast())))
                } else {
                    throw SyntaxError(message: "'[\(inside)]' in path '\(text)' is neither an index nor a quoted name")
                }
                afterBracket = true
            default:
                if afterBracket && name.isEmpty && !out.isEmpty {
                    throw SyntaxError(message: "expected '.' or '[' after ']' in path '\(text)'")
                }
                name.append(c)
            }
        }
        if !name.isEmpty {
            out.append(.member(name))
        } else if !afterBracket && !out.isEmpty {
            throw SyntaxError(message: "path '\(text)' ends with '.'")
        }
        components = out
    }

    /// `$`, `$.a.b[2]`, `$["x.y"]`: how failure messages write a path.
    public var description: String {
        var s = "$"
        for c in components {
            switch c {
            case .member(let m):
                if m.isEmpty || m.contains(where: { $0 == "." || $0 == "[" || $0 == "]" || $0 == "\"" }) { s += "[\"\(m)\"]" } else { s += "." + m }
            case .index(let i): s += "[\(i)]"
            }
        }
        return s
    }

    /// This path one component deeper.
    public func appending(_ c: Component) -> JSONPath { JSONPath(components + [c]) }

    /// The value at this path, or `nil` when a member or index is missing (JSON `null` is a value).
    public func lookup(in json: JSON) -> JSON? {
        var current = json
        for c in components {
            switch c {
            case .member(let m):
                guard let next = current[m] else { return nil }
                current = next
            case .index(let i):
                guard let a = current.array, i < a.count else { return nil }
                current = a[i]
            }
        }
        return current
    }
}

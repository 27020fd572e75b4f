public import JSONValues
import NavSimService

/// The first place where a reply differs from what a step expects.
public struct Mismatch: Sendable, Equatable, CustomStringConvertible {
    /// Where: a JSON path (`$.events[2].callback`), `status`, `header ETag` or `events[3]`.
    public var path: String
    /// What the flow expected, as shown to people (JSON, or a matcher in words).
    public var expected: String
    /// What the reply had there (`nothing (missing)` when the path is absent).
    public var actual: String
    public var description: String { "\(path) expected \(expected), got \(actual)" }
}

/// Expected values and matcher objects (docs/flows.md "Matchers").
///
/// A plain JSON value is compared exactly: numbers by value, objects by their members whatever
/// their order (a member the reply has and the expectation lacks is a difference), arrays item by
/// item. An object with one member whose name starts with `$` is a matcher:
/// - `{"$absent": true}`: the path is missing or `null`; `{"$absent": false}`: it is there and not `null`.
/// - `{"$length": N}`: an array, object or string with N items, members or characters.
/// - `{"$contains": X}`: an array with an item equal to X, a string with X in it, an object with a member X.
/// - `{"$oneOf": [A, B]}`: equal to one of them.
/// - `{"$not": X}`: present and not equal to X.
/// Matchers may sit anywhere inside an expected value, e.g. `{"state": "completed", "id": {"$absent": false}}`.
public enum Matcher {
    static let names = ["$absent", "$length", "$contains", "$oneOf", "$not"]

    /// Whether `json` is a one-member object whose member name starts with `$`.
    public static func isMatcher(_ json: JSON) -> Bool {
        guard let m = json.object, m.count == 1 else { return false }
        return m[0].0.hasPrefix("$")
    }

    /// A message when `json` holds an unknown matcher or a matcher with the wrong argument; else `nil`.
    static func validate(_ json: JSON) -> String? {
        if isMatcher(json), let (name, arg) = json.object?.first {
            switch name {
            case "$absent": return arg.bool == nil ? "$absent takes true or false" : nil
            case "$length": return arg.number.map { $0 >= 0 && $0 == $0.rounded() } == true ? nil : "$length takes a whole number"
            case "$oneOf": return arg.array == nil ? "$oneOf takes a list of values" : arg.array!.lazy.compactMap(validate).first
            case "$contains", "$not": return validate(arg)
            default: return "unknown matcher '\(name)' (known: \(names.joined(separator: ", ")))"
            }
        }
        switch json {
        case .array(let items): return items.lazy.compactMap(validate).first
        case .object(let members): return members.lazy.compactMap { validate($0.1) }.first
        default: return nil
        }
    }

    /// Compares `actual` (nil: missing) with `expected` at `path`; the first difference, or nil.
    public static func check(_ expected: JSON, _ actual: JSON?, at path: JSONPath) -> Mismatch? {
        if isMatcher(expected), let (name, arg) = expected.object?.first {
            return matcher(name, arg, actual, at: path)
        }
        guard let actual else { return Mismatch(path: path.description, expected: show(expected), actual: "nothing (missing)") }
        switch (expected, actual) {
        case let (.object(want), .object(got)):
            for (key, value) in want {
                if let m = check(value, got.first(where: { $0.0 == key })?.1, at: path.appending(.member(key))) { return m }
            }
            if let extra = got.first(where: { g in !want.contains { $0.0 == g.0 } }) {
                return Mismatch(path: path.appending(.member(extra.0)).description, expected: "nothing", actual: show(extra.1))
            }
            return nil
        case let (.array(want), .array(got)):
            for (i, value) in want.enumerated() {
                guard i < got.count else {
                    return Mismatch(path: path.description, expected: "\(want.count) items", actual: "\(got.count): \(show(actual))")
                }
                if let m = check(value, got[i], at: path.appending(.index(i))) { return m }
            }
            if got.count > want.count {
                return Mismatch(
                    path: path.appending(.index(want.count)).description, expected: "nothing (\(want.count) items)",
                    actual: show(got[want.count]))
            }
            return nil
        default:
            return expected == actual ? nil : Mismatch(path: path.description, expected: show(expected), actual: show(actual))
        }
    }

    static func matcher(_ name: String, _ arg: JSON, _ actual: JSON?, at path: JSONPath) -> Mismatch? {
        let here = path.description
        if name == "$absent" {
            let absent = actual == nil || actual!.isNull
            if absent == (arg.bool ?? true) { return nil }
            return Mismatch(path: here, expected: absent ? "a value" : "nothing", actual: actual.map(show) ?? "nothing")
        }
        guard let actual else { return Mismatch(path: here, expected: describe(name, arg), actual: "nothing (missing)") }
        let ok: Bool
        switch name {
        case "$length":
            let count: Int? = actual.array?.count ?? actual.object?.count ?? actual.string?.count
            ok = count.map { Double($0) == arg.number } ?? false
        case "$contains":
            switch actual {
            case .array(let items): ok = items.contains { check(arg, $0, at: path) == nil }
            case .string(let s): ok = arg.string.map { s.contains($0) } ?? false
            case .object(let members): ok = arg.string.map { k in members.contains { $0.0 == k } } ?? false
            default: ok = false
            }
        case "$oneOf": ok = (arg.array ?? []).contains { check($0, actual, at: path) == nil }
        case "$not": ok = check(arg, actual, at: path) != nil
        default: ok = false
        }
        return ok ? nil : Mismatch(path: here, expected: describe(name, arg), actual: show(actual))
    }

    static func describe(_ name: String, _ arg: JSON) -> String {
        switch name {
        case "$length": return "length \(show(arg))"
        case "$contains": return "something containing \(show(arg))"
        case "$oneOf": return "one of \(show(arg))"
        case "$not": return "anything but \(show(arg))"
        default: return "\(name) \(show(arg))"
        }
    }

    /// Compact JSON, cut at 200 characters.
    public static func show(_ json: JSON) -> String {
        let text = json.text
        return text.count <= 200 ? text : String(text.prefix(200)) + "…"
    }
}

import Testing
import NavigationCore

// Exhaustive state assertions, in the manner of TCA's `TestStore`: a test sends a command to a
// `Window` and describes, by mutating a copy of the state as it was before, everything the
// command changes. The helper runs the command through `Navigator.run` and compares the state it
// expects with the one the core produced, field by field. Every path that differs is reported at
// the test's own line, so a rule that changes more than the test says (a flag flipped on an
// unrelated controller) fails as surely as one that changes less.
//
// The comparison walks both values with `Mirror`: structs by stored property, dictionaries by key
// (sorted), arrays by index (arrays of plain values are shown whole), enums by case and payload.
// A running transition is compared by its `record` (what clients see); the rest of it is the
// engine's plan for the transition's end, which the tests check through the events it produces.
// Writes to container fields go through `ExpectedChanges.swift`, never directly.

// MARK: - The comparison

/// Every path at which `actual` differs from `expected`, rendered as
/// `controllers["N"].children: ["A"] → ["A", "B"]` (expected on the left). Empty when they agree.
func stateDifferences(expected: SessionState, actual: SessionState) -> [String] {
    var out: [String] = []
    walk(expected, actual, path: "", into: &out)
    return out
}

/// Records one issue listing every differing path when the two states differ.
func expectSameState(
    _ expected: SessionState, _ actual: SessionState, _ what: String,
    sourceLocation: SourceLocation
) {
    let differences = stateDifferences(expected: expected, actual: actual)
    guard !differences.isEmpty else { return }
    let list = differences.map { "  " + $0 }.joined(separator: "\n")
    Issue.record(
        Comment(rawValue: "\(what) (expected → actual, \(differences.count) path(s)):\n\(list)"),
        sourceLocation: sourceLocation)
}

private func isPlain(_ value: Any) -> Bool {
    value is String || value is Bool || value is Int || value is Double || value is Substring
}

private func payloadless(_ mirror: Mirror) -> Bool {
    mirror.displayStyle == .enum && mirror.children.isEmpty
}

/// A value as a failure message shows it: strings quoted, nil as `nil`, structs as
/// `Type(field: value, …)`, dictionaries with sorted keys.
func describeValue(_ value: Any) -> String {
    if let s = value as? String { return String(reflecting: s) }
    if isPlain(value) { return String(describing: value) }
    let m = Mirror(reflecting: value)
    switch m.displayStyle {
    case .optional:
        return m.children.first.map { describeValue($0.value) } ?? "nil"
    case .collection, .set:
        var items = m.children.map { describeValue($0.value) }
        if m.displayStyle == .set { items.sort() }
        return "[" + items.joined(separator: ", ") + "]"
    case .dictionary:
        let items = dictionaryEntries(m).map { "\($0.key): \(describeValue($0.value))" }
        return items.isEmpty ? "[:]" : "[" + items.joined(separator: ", ") + "]"
    case .enum:
        guard let payload = m.children.first else { return String(describing: value) }
        return ".\(payload.label ?? "?")(\(describeValue(payload.value)))"
    case .struct, .class, .tuple:
        let fields = m.children.map { ($0.label.map { "\($0): " } ?? "") + describeValue($0.value) }
        let name = m.displayStyle == .tuple ? "" : String(describing: type(of: value))
        return name + "(" + fields.joined(separator: ", ") + ")"
    default:
        return String(describing: value)
    }
}

/// A dictionary's entries, keyed by the key's description and sorted, so output is stable.
private func dictionaryEntries(_ m: Mirror) -> [(key: String, value: Any)] {
    m.children.map { entry -> (key: String, value: Any) in
        let pair = Mirror(reflecting: entry.value).children.map(\.value)
        return (describeValue(pair[0]), pair[1])
    }.sorted { $0.key < $1.key }
}

private func walk(_ expected: Any, _ actual: Any, path: String, into out: inout [String]) {
    func differ() {
        let e = describeValue(expected), a = describeValue(actual)
        if e != a { out.append("\(path.isEmpty ? "state" : path): \(e) → \(a)") }
    }
    // The client-visible part of a running transition (see the header).
    if let e = expected as? RunningTransition, let a = actual as? RunningTransition {
        walk(e.record, a.record, path: path + ".record", into: &out)
        return
    }
    if isPlain(expected) || isPlain(actual) || type(of: expected) != type(of: actual) { return differ() }
    let me = Mirror(reflecting: expected), ma = Mirror(reflecting: actual)
    switch me.displayStyle {
    case .optional:
        switch (me.children.first, ma.children.first) {
        case (nil, nil): return
        case (let e?, let a?): walk(e.value, a.value, path: path, into: &out)
        default: differ()
        }
    case .dictionary:
        let e = dictionaryEntries(me), a = dictionaryEntries(ma)
        let ek = Dictionary(e, uniquingKeysWith: { x, _ in x }), ak = Dictionary(a, uniquingKeysWith: { x, _ in x })
        for key in Set(ek.keys).union(ak.keys).sorted() {
            let p = "\(path)[\(key)]"
            switch (ek[key], ak[key]) {
            case (let x?, let y?): walk(x, y, path: p, into: &out)
            case (let x?, nil): out.append("\(p): \(describeValue(x)) → (absent)")
            case (nil, let y?): out.append("\(p): (absent) → \(describeValue(y))")
            default: break
            }
        }
    case .collection:
        let e = me.children.map(\.value), a = ma.children.map(\.value)
        // Arrays of plain values (ids, strings) read best whole.
        if (e + a).allSatisfy({ isPlain($0) || payloadless(Mirror(reflecting: $0)) }) { return differ() }
        if e.count != a.count { out.append("\(path).count: \(e.count) → \(a.count)") }
        for i in 0..<max(e.count, a.count) {
            let p = "\(path)[\(i)]"
            if i < e.count && i < a.count {
                walk(e[i], a[i], path: p, into: &out)
            } else if i < e.count {
                out.append("\(p): \(describeValue(e[i])) → (absent)")
            } else {
                out.append("\(p): (absent) → \(describeValue(a[i]))")
            }
        }
    case .set:
        differ()
    case .enum:
        let ec = me.children.first, ac = ma.children.first
        if let ec, let ac, ec.label == ac.label {
            walk(ec.value, ac.value, path: "\(path).\(ec.label ?? "?")", into: &out)
        } else {
            differ()
        }
    default:
        let e = Array(me.children), a = Array(ma.children)
        if e.isEmpty && a.isEmpty { return differ() }
        for (x, y) in zip(e, a) {
            let label = x.label ?? "?"
            walk(x.value, y.value, path: path.isEmpty ? label : "\(path).\(label)", into: &out)
        }
    }
}

// MARK: - Sending commands exhaustively

/// The turn's ``Navigator/TurnResult/changedControllers`` must be exactly the controllers whose
/// value differs between `before` and the result (or that are new), in the session's order: the
/// service stores and re-encodes only those, so one missed by the engine's tracking would be
/// lost from the database. Every helper below checks it, so every core test does.
func expectChangedControllersExact(
    _ before: SessionState, _ r: Navigator.TurnResult,
    sourceLocation: SourceLocation
) {
    let diffed = r.state.order.filter { before.controllers[$0] != r.state.controllers[$0] }
    #expect(
        r.changedControllers == diffed, "changedControllers disagrees with a full comparison",
        sourceLocation: sourceLocation)
}

extension Window {
    /// Sends `command` as one turn. It must apply; `change` mutates a copy of the state before it
    /// into the state the test expects after it, and every path where the core's state differs is
    /// one failure line. `events`, when given, are the command's events in ``render(_:)`` notation
    /// (checked exactly, in order). Returns the command's result for further checks.
    @discardableResult
    mutating func send(
        _ command: Command, events: [String]? = nil, segues: SegueDestinations = .none,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ change: (inout SessionState) -> Void
    ) -> ActionResult {
        let outcomes = sendTurn([command], segues: segues, sourceLocation: sourceLocation, change)
        guard case .applied(let result) = outcomes[0] else {
            Issue.record("expected \(command) to apply, got \(outcomes[0])", sourceLocation: sourceLocation)
            return ActionResult()
        }
        if let events { #expect(names(result) == events, sourceLocation: sourceLocation) }
        return result
    }

    /// Sends `commands` as one run-loop turn and checks the whole state change as ``send(_:events:sourceLocation:_:)``
    /// does. Outcomes are returned unchecked: a test states which apply and which are refused.
    @discardableResult
    /// `segues` answers storyboard segues performed inside lifecycle code (``SegueDestinations``).
    mutating func sendTurn(
        _ commands: [Command], segues: SegueDestinations = .none, sourceLocation: SourceLocation = #_sourceLocation,
        _ change: (inout SessionState) -> Void
    ) -> [OperationOutcome] {
        var expected = state
        change(&expected)
        let r = Navigator.run(commands, on: state, segues: segues)
        expectChangedControllersExact(state, r, sourceLocation: sourceLocation)
        expectSameState(
            expected, r.state, "the state after \(commands.count == 1 ? "the command" : "the turn") is not the one the test states",
            sourceLocation: sourceLocation)
        state = r.state
        return r.outcomes
    }

    /// Sends a command UIKit refuses: asserts the refusal, its diagnostic (`code`, `slug`, and
    /// `message` when given), and that the state is exactly unchanged (R30), listing any path
    /// that moved. Returns the diagnostic.
    @discardableResult
    mutating func sendRefused(
        _ command: Command, code: String?, slug: String, message: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Diagnostic? {
        let r = Navigator.run([command], on: state)
        expectChangedControllersExact(state, r, sourceLocation: sourceLocation)
        expectSameState(state, r.state, "a refused command changed the state (R30)", sourceLocation: sourceLocation)
        guard case .refused(let d) = r.outcomes[0] else {
            Issue.record("expected \(command) to be refused (\(slug)), got \(r.outcomes[0])", sourceLocation: sourceLocation)
            state = r.state
            return nil
        }
        #expect(d.code == code, sourceLocation: sourceLocation)
        #expect(d.slug == slug, sourceLocation: sourceLocation)
        if let message { #expect(d.message == message, sourceLocation: sourceLocation) }
        return d
    }

    /// Sends a command that is not a valid call (unknown id, wrong receiver): it is `invalid` and
    /// the state is exactly unchanged.
    @discardableResult
    mutating func sendInvalid(_ command: Command, sourceLocation: SourceLocation = #_sourceLocation) -> CommandError? {
        let r = Navigator.run([command], on: state)
        expectChangedControllersExact(state, r, sourceLocation: sourceLocation)
        expectSameState(state, r.state, "an invalid command changed the state", sourceLocation: sourceLocation)
        guard case .invalid(let e) = r.outcomes[0] else {
            Issue.record("expected \(command) to be invalid, got \(r.outcomes[0])", sourceLocation: sourceLocation)
            state = r.state
            return nil
        }
        return e
    }
}

/// What the engine records during a turn, one entry per command, in command order. Rules write
/// into the entry of the command being executed (``Journal/current``); a transition queued by a
/// command writes its callbacks into that command's entry when the turn ends (``Pending/entry``).
struct Journal {
    /// A position in ``entries``.
    typealias Index = Int

    /// One command's record.
    struct Entry {
        /// How the command ended.
        enum Verdict {
            /// Accepted: ``Entry/result`` holds its events, transition, return value, warnings.
            case applied
            /// Refused by UIKit (R30): the entry holds no events.
            case refused(Diagnostic)
            /// Not a valid call: the entry holds no events.
            case invalid(CommandError)
        }
        var verdict: Verdict = .applied
        /// Events, transition, `returned`, warnings and the created controller.
        var result = ActionResult()
        /// Controllers the engine wrote to that the session does not have (an engine bug, see
        /// `Engine[changing:]`).
        var invariantFailures: [ControllerID] = []

        /// The outcome the turn reports for this command.
        var outcome: OperationOutcome {
            if case .applied = verdict, let missing = invariantFailures.first {
                return .invalid(.invariantViolation(missing))
            }
            switch verdict {
            case .applied: return .applied(result)
            case .refused(let d): return .refused(d)
            case .invalid(let e): return .invalid(e)
            }
        }
    }

    private(set) var entries: [Entry] = []

    /// The entry of the command being executed: the last one opened, or the one whose callback
    /// runs lifecycle code (``CallbackCode``) while it runs.
    var current: Index { focus ?? entries.count - 1 }
    var focus: Index?

    /// Opens the entry of the next command and answers its index.
    mutating func open() -> Index {
        entries.append(Entry())
        return current
    }

    subscript(_ index: Index) -> Entry {
        get { entries[index] }
        // In place: with a setter, `journal[i].result.events.append(e)` copied the entry and then
        // its whole event list (every event retained again) once per event.
        _modify { yield &entries[index] }
    }

    /// R30: a refused or invalid command keeps only its verdict: no events, no transition.
    mutating func reject(_ index: Index, _ refusal: Refusal) {
        switch refusal {
        case .uikit(let d): entries[index] = Entry(verdict: .refused(d))
        case .input(let e): entries[index] = Entry(verdict: .invalid(e))
        }
    }

    /// Each command's outcome, in command order.
    var outcomes: [OperationOutcome] { entries.map(\.outcome) }
}

public import JSONValues
import NavSimService

/// Indented JSON for files people read and edit (what `navsim record` writes). Short arrays and
/// objects of plain values stay on one line, so an event list reads one event per line.
public enum PrettyJSON {
    /// `json` indented by two spaces per level from `indent`; a value whose one-line form fits in
    /// `width` characters (indentation included) stays on one line.
    public static func text(_ json: JSON, indent: String = "", width: Int = 100) -> String {
        let flat = spaced(json)
        if flat.count + indent.count <= width || isLeaf(json) { return flat }
        let inner = indent + "  "
        switch json {
        case .array(let items):
            return "[\n" + items.map { inner + text($0, indent: inner, width: width) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .object(let members):
            return "{\n"
                + members.map { inner + JSON.string($0.0).text + ": " + text($0.1, indent: inner, width: width) }
                .joined(separator: ",\n") + "\n" + indent + "}"
        default:
            return flat
        }
    }

    /// One line, with a space after each `,` and `:` as people write it.
    static func spaced(_ json: JSON) -> String {
        switch json {
        case .array(let items): return "[" + items.map(spaced).joined(separator: ", ") + "]"
        case .object(let members): return "{" + members.map { JSON.string($0.0).text + ": " + spaced($0.1) }.joined(separator: ", ") + "}"
        default: return json.text
        }
    }

    static func isLeaf(_ json: JSON) -> Bool {
        switch json {
        case .array(let a): return a.isEmpty
        case .object(let o): return o.isEmpty
        default: return true
        }
    }
}

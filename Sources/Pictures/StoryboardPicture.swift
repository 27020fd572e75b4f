import Foundation

/// The flow of a storyboard as a DOT digraph, drawn from the storyboard reply JSON
/// (`GET /v1/storyboards/{name}`'s JSON): what that route answers is what the
/// picture shows (docs/pictures.md).
///
/// A node per scene (id, class, Storyboard ID); relationship and embed segues as containment
/// edges (solid, grey); every other segue as a coloured edge labelled with its kind and
/// identifier; storyboard references as dashed nodes with an edge into a folder node for the
/// storyboard they point into (a link to its own picture in SVG); scenes a diagnostic names, or
/// whose segue it names, outlined red (errors) or orange (warnings) with the codes listed.
public enum StoryboardPicture {
    /// The DOT text for a storyboard reply; ends with a newline. Missing fields read as absent.
    public static func dot<Reply: PictureReply>(_ reply: Reply) -> String {
        let name = reply["name"]?.string ?? "?"
        let scenes = reply["scenes"]?.array ?? []
        var sceneOfElement: [String: String] = [:]
        for scene in scenes {
            guard let id = scene["id"]?.string else { continue }
            sceneOfElement[id] = id
            for segue in scene["segues"]?.array ?? [] { if let s = segue["id"]?.string { sceneOfElement[s] = id } }
        }
        // Diagnostics per scene; those naming no scene go in the graph's label.
        var marks: [String: [(severity: String, code: String)]] = [:]
        var unplaced: [String] = []
        for d in reply["diagnostics"]?.array ?? [] {
            let severity = d["severity"]?.string ?? "warning", code = d["code"]?.string ?? "?"
            if let element = d["element"]?.string, let scene = sceneOfElement[element] {
                marks[scene, default: []].append((severity, code))
            } else {
                unplaced.append("\(severity): \(code)")
            }
        }
        let title = (["storyboard \(name)"] + unplaced).joined(separator: "\n")
        var out = [
            "digraph storyboard {",
            "  graph [rankdir=LR, fontname=\"Helvetica\", label=\(DOT.quote(title)), labelloc=t, fontsize=12];",
            "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica\", fontsize=11];",
            "  edge [fontname=\"Helvetica\", fontsize=9];",
        ]
        var ids = Set<String>()
        var folders = Set<String>()
        for scene in scenes {
            guard let id = scene["id"]?.string else { continue }
            ids.insert(id)
            var lines = [scene["class"]?.string ?? "?"]
            if let sid = scene["storyboardIdentifier"]?.string { lines.append("Storyboard ID: \(sid)") }
            lines.append("id: \(id)")
            // Unwind segues lead to the scene's own exit, not to a scene: listed inside it.
            for segue in scene["segues"]?.array ?? [] where segue["destination"]?.string == nil || segue["kind"]?.string == "unwind" {
                let action = segue["unwindAction"]?.string.map { " \($0)" } ?? ""
                lines.append("\(segue["kind"]?.string ?? "segue")\(action)\(segue["identifier"]?.string.map { " · \($0)" } ?? "")")
            }
            var attributes: [String] = []
            var styles = ["rounded", "filled"]
            if let reference = scene["storyboardReference"] {
                let target = reference["storyboardName"]?.string ?? name
                let ident = reference["referencedIdentifier"]?.string ?? "initial view controller"
                lines = ["reference ▸ \(target)", ident, "id: \(id)"]
                styles.append("dashed")
                attributes.append("fillcolor=\"#f4f4f4\"")
                if target != name {
                    let folder = "storyboard:" + target
                    if folders.insert(folder).inserted {
                        out.append(
                            "  \(DOT.quote(folder)) [label=\(DOT.quote(target + ".storyboard")), shape=folder, style=\"dashed\", URL=\(DOT.quote("/v1/storyboards/" + pathSegment(target)))];"
                        )
                    }
                    out.append("  \(DOT.quote(id)) -> \(DOT.quote(folder)) [style=dashed, arrowhead=open];")
                }
            }
            if let found = marks[id] {
                let error = found.contains { $0.severity == "error" }
                attributes.append("color=\"\(error ? "#c62828" : "#ef6c00")\"")
                attributes.append("penwidth=2")
                lines.append("⚠ " + found.map(\.code).joined(separator: ", "))
            }
            attributes.insert("label=\(DOT.quote(lines.joined(separator: "\n")))", at: 0)
            attributes.append("style=\(DOT.quote(styles.joined(separator: ",")))")
            out.append("  \(DOT.quote(id)) [\(attributes.joined(separator: ", "))];")
        }
        if let initial = reply["initialViewController"]?.string, ids.contains(initial) {
            out.append("  \"storyboard:entry\" [label=\"\", shape=circle, width=0.2, style=filled, fillcolor=\"#333333\"];")
            out.append("  \"storyboard:entry\" -> \(DOT.quote(initial)) [label=\"initial\"];")
        }
        for scene in scenes {
            guard let id = scene["id"]?.string else { continue }
            for segue in scene["segues"]?.array ?? [] where segue["kind"]?.string != "unwind" {
                guard let destination = segue["destination"]?.string else { continue }
                if !ids.contains(destination) {
                    // A destination that names no scene (reported as a diagnostic): drawn as a missing node.
                    if ids.insert(destination).inserted {
                        out.append("  \(DOT.quote(destination)) [label=\(DOT.quote("missing: \(destination)")), style=\"dashed\", color=\"#c62828\"];")
                    }
                }
                let kind = segue["kind"]?.string ?? "segue"
                if kind == "relationship" || kind == "embed" {
                    let label = segue["relationship"]?.string ?? kind
                    out.append("  \(DOT.quote(id)) -> \(DOT.quote(destination)) [label=\(DOT.quote(label)), color=\"#555555\", penwidth=1.5, arrowhead=diamond];")
                } else {
                    let label = segue["identifier"]?.string.map { "\(kind) · \($0)" } ?? kind
                    out.append("  \(DOT.quote(id)) -> \(DOT.quote(destination)) [label=\(DOT.quote(label)), color=\"#1f6fd1\", fontcolor=\"#1f6fd1\"];")
                }
            }
        }
        out.append("}")
        return out.joined(separator: "\n") + "\n"
    }
}

extension StoryboardPicture {
    /// The storyboard as text: one line per scene (`id  Class  Storyboard ID: …`, ▶ for the
    /// initial one, the target of a reference), its segues under it (`kind identifier ▸
    /// destination`), then the diagnostics. Ends with a newline.
    public static func text<Reply: PictureReply>(_ reply: Reply) -> String {
        let initial = reply["initialViewController"]?.string
        var lines = ["storyboard \(reply["name"]?.string ?? "?")"]
        let scenes = reply["scenes"]?.array ?? []
        for (i, scene) in scenes.enumerated() {
            let last = i == scenes.count - 1
            let id = scene["id"]?.string ?? "?"
            var parts = ["\(id)  \(scene["class"]?.string ?? "?")"]
            if let sid = scene["storyboardIdentifier"]?.string { parts.append("Storyboard ID: \(sid)") }
            if let reference = scene["storyboardReference"] {
                parts.append("reference ▸ \(reference["storyboardName"]?.string ?? "?")" + (reference["referencedIdentifier"]?.string.map { " / \($0)" } ?? ""))
            }
            if id == initial { parts.append("◀ initial") }
            lines.append((last ? "└─ " : "├─ ") + parts.joined(separator: "  "))
            let segues = scene["segues"]?.array ?? []
            for (j, segue) in segues.enumerated() {
                var s = segue["relationship"]?.string.map { "relationship \($0)" } ?? (segue["kind"]?.string ?? "segue")
                if let identifier = segue["identifier"]?.string { s += " \"\(identifier)\"" }
                if let action = segue["unwindAction"]?.string { s += " \(action)" }
                if let destination = segue["destination"]?.string { s += " ▸ \(destination)" }
                lines.append((last ? "   " : "│  ") + (j == segues.count - 1 ? "└─ " : "├─ ") + s)
            }
        }
        let diagnostics = reply["diagnostics"]?.array ?? []
        lines.append("")
        lines.append(diagnostics.isEmpty ? "diagnostics: none" : "diagnostics:")
        for d in diagnostics {
            lines.append("  \(d["severity"]?.string ?? "?") \(d["code"]?.string ?? "?")" + (d["element"]?.string.map { " at \($0)" } ?? "") + ": \(d["message"]?.string ?? "")")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `name` as one path segment of a URL (RFC 3986 `segment`): `/`, `?`, `#`, `%` and anything
/// outside `pchar` percent-encoded, as the service writes a storyboard's `Location`.
private func pathSegment(_ name: String) -> String {
    name.addingPercentEncoding(withAllowedCharacters: pathSegmentAllowed) ?? name
}

private let pathSegmentAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))

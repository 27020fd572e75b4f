/// Pictures of a session's hierarchy, drawn from the session reply (`GET /v1/sessions/{sid}`) and
/// the transitions list, never from core values: the picture says what the JSON says
/// (docs/pictures.md).
///
/// Containment follows each controller's `children` (UIKit's `children`, R-ids in the core);
/// a presentation hangs under its `presentingViewController`; `window.visibleViewController`,
/// navigation controllers' `topViewController`, `window.viewsInWindow`, `isViewLoaded` and
/// `appearance` are read as the JSON reports them.
public struct SessionPicture: Sendable {
    /// One controller of the reply, with the fields the pictures use.
    struct Node: Sendable {
        var id: String
        var className: String
        var kind: String
        var parent: String?
        var children: [String]
        var presenting: String?
        var presented: String?
        var style: String?
        var isViewLoaded: Bool
        var appearance: String
        var selected: String?
        var top: String?
    }

    var nodes: [String: Node] = [:]
    /// Controllers in the reply's order.
    var order: [String] = []
    var root: String?
    var visible: String?
    var inWindow: [String] = []
    /// Transitions not yet `completed` (`inProgress`, `queued`), as the transitions list has them.
    var pending: [Transition] = []
    var sessionID: String
    var version: Int

    /// One transition of the transitions list, with the fields the text shows.
    struct Transition: Sendable {
        var id: String?
        var operation: String?
        var from: String?
        var to: String?
        var presentationStyle: String?
        var animated: Bool
        var state: String?

        init<Reply: PictureReply>(_ t: Reply) {
            id = t["id"]?.string
            operation = t["operation"]?.string
            from = t["fromViewController"]?.string
            to = t["toViewController"]?.string
            presentationStyle = t["presentationStyle"]?.string
            animated = t["animated"]?.bool == true
            state = t["state"]?.string
        }
    }

    /// Reads a session reply and (optionally) the `transitions` array of
    /// `GET /v1/sessions/{sid}/transitions`. Unknown or missing fields read as absent; nothing
    /// is refused.
    public init<Reply: PictureReply>(session: Reply, transitions: Reply? = nil) {
        sessionID = session["id"]?.string ?? ""
        version = Int(session["version"]?.number ?? 0)
        root = session["window"]?["rootViewController"]?.string
        visible = session["window"]?["visibleViewController"]?.string
        inWindow = session["window"]?["viewsInWindow"]?.array?.compactMap(\.string) ?? []
        for (id, c) in session["controllers"]?.object ?? [] {
            order.append(id)
            nodes[id] = Node(
                id: id, className: c["class"]?.string ?? "?", kind: c["kind"]?.string ?? "viewController",
                parent: c["parent"]?.string, children: c["children"]?.array?.compactMap(\.string) ?? [],
                presenting: c["presentingViewController"]?.string, presented: c["presentedViewController"]?.string,
                style: c["presentation"]?["style"]?.string ?? c["modalPresentationStyle"]?.string,
                isViewLoaded: c["isViewLoaded"]?.bool ?? false, appearance: c["appearance"]?.string ?? "disappeared",
                selected: c["selectedViewController"]?.string, top: c["topViewController"]?.string)
        }
        pending = (transitions?.array ?? []).filter { ($0["state"]?.string ?? "completed") != "completed" }.map { Transition($0) }
    }

    /// The controller `id` presents (a presentation child that is not the presenter's own child).
    func presentation(of id: String) -> String? {
        guard let p = nodes[id]?.presented, let node = nodes[p], node.presenting == id else { return nil }
        return p
    }

    /// Controllers that are in no tree the window reaches: never added, removed, or dismissed.
    var detached: [String] {
        var reached = Set<String>()
        func walk(_ id: String) {
            guard reached.insert(id).inserted, let n = nodes[id] else { return }
            n.children.forEach(walk)
            if let p = presentation(of: id) { walk(p) }
        }
        if let root { walk(root) }
        return order.filter { !reached.contains($0) && nodes[$0]?.parent == nil && nodes[$0]?.presenting == nil }
    }

    /// Every controller the pictures draw: those the window reaches through `children` and
    /// presentations, and the ``detached`` ones with what they contain and present.
    var drawn: Set<String> {
        var reached = Set<String>()
        func walk(_ id: String) {
            guard reached.insert(id).inserted, let n = nodes[id] else { return }
            n.children.forEach(walk)
            if let p = presentation(of: id) { walk(p) }
        }
        if let root { walk(root) }
        detached.forEach(walk)
        return reached
    }

    /// Whether `id` is its navigation controller's top view controller.
    func isTop(_ id: String) -> Bool {
        guard let parent = nodes[id]?.parent, let p = nodes[parent], p.kind == "navigationController" else { return false }
        return p.top == id
    }

    // MARK: - Text

    /// The one-line label of a controller: `id  Class` and its markers.
    /// `style`: the presentation style, for a presented controller (right after the class).
    func label(_ id: String, style: String? = nil) -> String {
        guard let n = nodes[id] else { return id }
        var parts = ["\(n.id)  \(n.className)"]
        if let style { parts.append(style) }
        if let s = n.selected { parts.append("selected: \(s)") }
        if isTop(id) { parts.append("◀ top") }
        if visible == id { parts.append("◀ visible") }
        if !n.isViewLoaded { parts.append("(view not loaded)") }
        // Settled states are implied by "views in window"; only a change in progress is shown.
        if n.appearance == "appearing" || n.appearance == "disappearing" { parts.append("[\(n.appearance)]") }
        return parts.joined(separator: "  ")
    }

    /// The text tree: the window, containment drawn with `├─`/`└─`, each presentation as
    /// `presents ▸ id Class style` under its presenter, then which views are in the window,
    /// controllers outside the window's tree, and the transitions in progress. Ends with a newline.
    public var text: String {
        var lines = ["UIWindow"]
        var seen = Set<String>()
        func subtree(_ id: String, prefix: String) {
            guard seen.insert(id).inserted, let n = nodes[id] else { return }
            let kids = n.children.filter { nodes[$0] != nil }
            for (i, child) in kids.enumerated() {
                let last = i == kids.count - 1
                lines.append(prefix + (last ? "└─ " : "├─ ") + label(child))
                subtree(child, prefix: prefix + (last ? "   " : "│  "))
            }
            if let p = presentation(of: id), !seen.contains(p) {
                lines.append(prefix + "presents ▸ " + label(p, style: nodes[p]?.style ?? "automatic"))
                subtree(p, prefix: prefix + "   ")
            }
        }
        if let root {
            lines.append("└─ " + label(root))
            subtree(root, prefix: "   ")
        } else {
            lines.append("└─ (no rootViewController)")
        }
        lines.append("")
        lines.append("views in window: " + (inWindow.isEmpty ? "none" : inWindow.joined(separator: ", ")))
        let outside = detached
        if !outside.isEmpty {
            lines.append("not in the window's hierarchy:")
            for id in outside {
                lines.append("  " + label(id))
                seen.remove(id)
                subtree(id, prefix: "    ")
            }
        }
        if pending.isEmpty {
            lines.append("transition: none in progress")
        } else {
            for t in pending { lines.append("transition: " + Self.describe(t)) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `id operation from → to  style  animated  state`.
    static func describe(_ t: Transition) -> String {
        var parts = ["\(t.id ?? "?") \(t.operation ?? "?")"]
        parts.append("\(t.from ?? "–") → \(t.to ?? "–")")
        if let s = t.presentationStyle { parts.append(s) }
        if t.animated { parts.append("animated") }
        parts.append(t.state ?? "?")
        return parts.joined(separator: "  ")
    }

    // MARK: - DOT

    /// A Graphviz digraph (graphviz.org/doc/info/lang.html), ending with a newline: a node per controller (class under the id), solid containment edges,
    /// presentation edges labelled with the style (dashed for sheets and popovers, which leave
    /// the presenter's view in the window; bold for styles that cover it), views in the window
    /// filled, the visible controller outlined in bold blue, views not loaded dotted.
    public var dot: String {
        var out = [
            "digraph session {",
            "  graph [rankdir=TB, fontname=\"Helvetica\", label=\(DOT.quote("session \(sessionID) · version \(version)")), labelloc=t, fontsize=12];",
            "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica\", fontsize=11];",
            "  edge [fontname=\"Helvetica\", fontsize=9];",
            "  window [label=\"UIWindow\", shape=box, style=\"filled\", fillcolor=\"#e8e8e8\"];",
        ]
        let window = Set(inWindow)
        // The controllers the text tree shows: the window's trees and the detached ones (a tab bar
        // controller's moreNavigationController, which is in no children list, is left out of both).
        let drawn = self.drawn
        for id in order where drawn.contains(id) {
            guard let n = nodes[id] else { continue }
            var markers: [String] = []
            if let s = n.selected { markers.append("selected: \(s)") }
            if isTop(id) { markers.append("top") }
            if !n.isViewLoaded { markers.append("view not loaded") }
            if n.appearance == "appearing" || n.appearance == "disappearing" { markers.append(n.appearance) }
            let text = ([n.id, n.className] + (markers.isEmpty ? [] : [markers.joined(separator: ", ")])).joined(separator: "\n")
            var attributes = ["label=\(DOT.quote(text))"]
            var styles = ["rounded", "filled"]
            if !n.isViewLoaded { styles.append("dotted") }
            attributes.append("fillcolor=\"\(window.contains(id) ? "#dff0d8" : "#ffffff")\"")
            if visible == id {
                styles.append("bold")
                attributes.append("color=\"#1f6fd1\"")
                attributes.append("penwidth=3")
            }
            attributes.append("style=\(DOT.quote(styles.joined(separator: ",")))")
            out.append("  \(DOT.quote(id)) [\(attributes.joined(separator: ", "))];")
        }
        if let root { out.append("  window -> \(DOT.quote(root)) [label=\"rootViewController\"];") }
        for id in order where drawn.contains(id) {
            guard let n = nodes[id] else { continue }
            for child in n.children where nodes[child] != nil {
                out.append("  \(DOT.quote(id)) -> \(DOT.quote(child));")
            }
            if let p = presentation(of: id) {
                let style = nodes[p]?.style ?? "automatic"
                let line = Self.coversPresenter(style) ? "bold" : "dashed"
                out.append("  \(DOT.quote(id)) -> \(DOT.quote(p)) [label=\(DOT.quote("presents · " + style)), style=\(line), color=\"#b35900\", fontcolor=\"#b35900\"];")
            }
        }
        out.append("}")
        return out.joined(separator: "\n") + "\n"
    }

    /// Styles after which UIKit removes the presenter's views from the window (R-ids in the core's
    /// presentation rules); the rest (sheets, popovers, `over…`) leave them showing.
    static func coversPresenter(_ style: String) -> Bool {
        ["fullScreen", "currentContext"].contains(style)
    }
}

/// DOT syntax helpers (graphviz.org/doc/info/lang.html).
enum DOT {
    /// A double-quoted ID: `"` and `\` escaped, line breaks as `\n`.
    static func quote(_ s: String) -> String {
        var out = "\""
        for ch in s {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": break
            default: out.append(ch)
            }
        }
        return out + "\""
    }
}

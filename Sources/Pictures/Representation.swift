import Foundation

/// The representations `GET /v1/sessions/{sid}` and `GET /v1/storyboards/{name}` can answer in
/// (docs/pictures.md), chosen from the request's `Accept` field (RFC 9110 §12.5.1). The service
/// reads the field and answers 406 itself; this type only decides.
public enum Representation: String, Sendable, CaseIterable {
    /// `application/json`: the reply docs/api.md describes; the default.
    case json
    /// `text/plain; charset=utf-8`: the hierarchy as an indented tree.
    case text
    /// `text/vnd.graphviz`: a Graphviz DOT digraph.
    case dot
    /// `image/svg+xml`: the DOT graph laid out by Graphviz `dot` (only when it is installed).
    case svg

    /// The media type this representation answers with (`Content-Type`).
    public var contentType: String {
        switch self {
        case .json: "application/json"
        case .text: "text/plain; charset=utf-8"
        case .dot: "text/vnd.graphviz; charset=utf-8"
        case .svg: "image/svg+xml"
        }
    }

    /// The bare media type, as matched against `Accept` ranges.
    public var mediaType: String {
        switch self {
        case .json: "application/json"
        case .text: "text/plain"
        case .dot: "text/vnd.graphviz"
        case .svg: "image/svg+xml"
        }
    }

    /// A suffix that tells this representation's entity tag apart from the others' (RFC 9110
    /// §8.8.3: a strong validator differs between representations of one resource). JSON keeps
    /// the bare version, which `If-Match` compares against.
    public func entityTag(_ version: Int) -> String {
        self == .json ? "\"\(version)\"" : "\"\(version)-\(rawValue)\""
    }

    /// The outcome of negotiation: the representation to send, or why none can be sent.
    public enum Choice: Equatable, Sendable {
        case send(Representation)
        /// Nothing the client accepts can be produced: 406 (RFC 9110 §15.5.7).
        case notAcceptable
        /// The client accepts only SVG, and Graphviz `dot` is not installed: 406 naming the package.
        case needsGraphviz
    }

    /// Picks a representation for an `Accept` field value (all field lines joined; `nil` when absent).
    ///
    /// RFC 9110 §12.5.1: each media range carries a weight `q` (0…1, default 1; `q=0` means "not
    /// acceptable"); the most specific range matching a type gives its weight (`text/plain` over
    /// `text/*` over `*/*`). The highest weight wins; on a tie the server's order
    /// json, text, dot, svg. No field, or an empty one, means JSON. A malformed element is
    /// ignored, as the RFC lets a server do with what it cannot parse.
    /// - Parameter svgAvailable: whether `dot` can render SVG here; asked only when the field
    ///   accepts SVG, since answering may search `PATH` (``Graphviz/Locator``).
    public static func negotiate(_ accept: String?, svgAvailable: @autoclosure () -> Bool) -> Choice {
        guard let accept, accept.contains(where: { !$0.isWhitespace && $0 != "," }) else { return .send(.json) }
        let ranges = MediaRange.parseList(accept)
        if ranges.isEmpty { return .send(.json) }
        var best: (Representation, Double)?
        var svgWanted = false
        for candidate in Representation.allCases {
            let q = MediaRange.weight(of: candidate.mediaType, in: ranges)
            guard q > 0 else { continue }
            if candidate == .svg && !svgAvailable() { svgWanted = true; continue }
            if best == nil || q > best!.1 { best = (candidate, q) }
        }
        if let best { return .send(best.0) }
        return svgWanted ? .needsGraphviz : .notAcceptable
    }
}

extension Representation {
    /// Whether an `Accept` field value (nil: absent) prefers a storyboard's document as it was
    /// uploaded (`application/xml` or `text/xml`) to every other representation: its weight
    /// is above all of theirs, so `*/*` alone still means JSON. `navsim record` asks for it to
    /// copy a session's storyboards into a flow (docs/flows.md "Recording").
    public static func prefersDocument(_ accept: String?) -> Bool {
        guard let accept else { return false }
        let ranges = MediaRange.parseList(accept)
        let document = max(MediaRange.weight(of: "application/xml", in: ranges), MediaRange.weight(of: "text/xml", in: ranges))
        return document > 0 && allCases.allSatisfy { MediaRange.weight(of: $0.mediaType, in: ranges) < document }
    }
}

/// One element of an `Accept` list: `type/subtype` (either may be `*`) with its weight.
struct MediaRange: Equatable {
    var type: String
    var subtype: String
    var q: Double

    /// The elements of a comma-separated list; malformed ones are skipped. Parameters other than
    /// `q` are ignored (navsim's representations take none the client could choose between).
    static func parseList(_ value: String) -> [MediaRange] {
        value.split(separator: ",").compactMap { element in
            let parts = element.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let range = parts.first, !range.isEmpty else { return nil }
            let typeParts = range.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard typeParts.count == 2, !typeParts[0].isEmpty, !typeParts[1].isEmpty,
                !(typeParts[0] == "*" && typeParts[1] != "*")
            else { return nil }
            var q = 1.0
            for parameter in parts.dropFirst() {
                let kv = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard kv.count == 2, kv[0] == "q" else { continue }
                // RFC 9110 §12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )
                guard let v = Double(kv[1]), v >= 0, v <= 1, kv[1].count <= 5 else { return nil }
                q = v
            }
            return MediaRange(type: typeParts[0], subtype: typeParts[1], q: q)
        }
    }

    /// The weight the most specific matching range gives `mediaType` (`type/subtype`); 0 when none matches.
    static func weight(of mediaType: String, in ranges: [MediaRange]) -> Double {
        let parts = mediaType.split(separator: "/").map(String.init)
        var best: (specificity: Int, q: Double)?
        for r in ranges {
            let specificity: Int
            if r.type == parts[0] && r.subtype == parts[1] {
                specificity = 2
            } else if r.type == parts[0] && r.subtype == "*" {
                specificity = 1
            } else if r.type == "*" && r.subtype == "*" {
                specificity = 0
            } else {
                continue
            }
            if best == nil || specificity > best!.specificity || (specificity == best!.specificity && r.q > best!.q) {
                best = (specificity, r.q)
            }
        }
        return best?.q ?? 0
    }
}

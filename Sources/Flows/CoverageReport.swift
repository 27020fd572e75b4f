import Foundation
public import JSONValues
import NavigationCore
import Storyboards
public import StoryboardTools

/// What a suite of flows exercised, per storyboard file (docs/flows.md "Coverage"), and its three
/// renderings: JSON, Cobertura XML and SARIF.
public struct CoverageReport: Sendable {
    /// One segue element: where it is and how often the flows performed it.
    public struct Segue: Sendable, Equatable {
        public var id: String
        public var identifier: String?
        /// `kind` as the file spells it.
        public var kind: String
        /// Element id of the scene the segue starts in.
        public var scene: String
        public var line: Int
        public var column: Int
        public var performed: Int
    }

    /// A container scene and the operations it ran.
    public struct Container: Sendable, Equatable {
        public var scene: String
        public var kind: String
        public var line: Int
        /// Operation (`push`, `select`, …, as a transition names it) → times.
        public var operations: [String: Int]
    }

    /// One storyboard file.
    public struct Storyboard: Sendable {
        /// The `.storyboard` path, or `FLOW#NAME` for XML written inline in a flow.
        public var file: String
        public var inline: Bool
        /// Every segue that is performed (not the containment of relationship and embed
        /// segues), unwinds included, in document order.
        public var segues: [Segue]
        /// Presentation style (as the transition reports it) → presentations of this file's controllers.
        public var presentationStyles: [String: Int]
        /// Every navigation, tab bar, split and page controller scene, and any other scene whose
        /// controller ran a container operation.
        public var containers: [Container]

        public var unwinds: [Segue] { segues.filter { $0.kind == "unwind" } }

        init(file: CoveredFile, performed: [String: Int], styles: [String: Int], operations: [String: [String: Int]]) {
            self.file = file.key
            inline = file.inline
            func position(_ id: String) -> SourcePosition {
                let parsed = file.positions[id] ?? SourcePosition(line: 1, column: 1)
                return Linter.startPosition(of: id, in: file.data, parsed: parsed)
            }
            segues = file.storyboard.scenes.flatMap { scene in
                scene.segues.filter { $0.kind != .relationship && $0.kind != .embed }.map { segue in
                    let at = position(segue.id)
                    return Segue(
                        id: segue.id, identifier: segue.identifier, kind: segue.spelledKind, scene: scene.id,
                        line: at.line, column: max(at.column, 1), performed: performed[segue.id] ?? 0)
                }
            }
            presentationStyles = styles
            let containerKinds: Set<ControllerKind> = [.navigationController, .tabBarController, .splitViewController, .pageViewController]
            containers = file.storyboard.scenes.compactMap { scene in
                guard containerKinds.contains(scene.kind) || operations[scene.id] != nil else { return nil }
                return Container(
                    scene: scene.id, kind: scene.kind.rawValue, line: position(scene.id).line,
                    operations: operations[scene.id] ?? [:])
            }
        }
    }

    /// Storyboards in the order the flows first uploaded them.
    public var storyboards: [Storyboard]

    /// Segues performed and segues in all, over every storyboard.
    public var totals: (performed: Int, total: Int) {
        let all = storyboards.flatMap(\.segues)
        return (all.count { $0.performed > 0 }, all.count)
    }

    /// `coverage: 4 of 7 segues performed (57.1 %) in 1 storyboard`, the line `navsim test` prints.
    public var summary: String {
        let (performed, total) = totals
        let percent = total == 0 ? "" : " (\(Self.percent(performed, total)) %)"
        let n = storyboards.count
        return "coverage: \(performed) of \(total) segues performed\(percent) in \(n) storyboard\(n == 1 ? "" : "s")"
    }

    static func percent(_ part: Int, _ whole: Int) -> String {
        String(format: "%.1f", whole == 0 ? 100 : Double(part) * 100 / Double(whole))
    }

    // MARK: JSON

    /// `{"storyboards": [{"file", "segues": {"total", "performed", "uncovered", "covered"},
    /// "unwinds", "presentationStyles", "containerOperations"}], "segues": {"total", "performed"}}`.
    public var json: JSON {
        func segue(_ s: Segue) -> JSON {
            .object([
                ("id", .string(s.id)), ("identifier", .from(s.identifier)), ("kind", .string(s.kind)),
                ("scene", .string(s.scene)), ("line", .from(s.line)), ("column", .from(s.column)),
                ("performed", .from(s.performed)),
            ])
        }
        func tally(_ list: [Segue]) -> JSON {
            .object([
                ("total", .from(list.count)), ("performed", .from(list.count { $0.performed > 0 })),
                ("uncovered", .array(list.filter { $0.performed == 0 }.map(segue))),
                ("covered", .array(list.filter { $0.performed > 0 }.map(segue))),
            ])
        }
        func counts(_ d: [String: Int]) -> JSON {
            .object(d.sorted { $0.key < $1.key }.map { (key, value) -> (String, JSON) in (key, JSON.from(value)) })
        }
        func container(_ c: Container) -> JSON {
            .object([
                ("scene", .string(c.scene)), ("kind", .string(c.kind)), ("line", .from(c.line)),
                ("operations", counts(c.operations)),
            ])
        }
        func storyboard(_ s: Storyboard) -> JSON {
            let members: [(String, JSON)] = [
                ("file", .string(s.file)), ("inline", .bool(s.inline)),
                ("segues", tally(s.segues)), ("unwinds", tally(s.unwinds)),
                ("presentationStyles", counts(s.presentationStyles)),
                ("containerOperations", .array(s.containers.map(container))),
            ]
            return .object(members)
        }
        let (performed, total) = totals
        return .object([
            ("storyboards", .array(storyboards.map(storyboard))),
            ("segues", .object([("total", .from(total)), ("performed", .from(performed))])),
        ])
    }

    // MARK: Cobertura

    /// Cobertura XML (coverage-04.dtd): one `<class>` per storyboard file whose `<line>`s are the
    /// lines of its segues, `hits` the times they were performed. A line holding several segues
    /// is a branch line whose `condition-coverage` counts them. Inline storyboards have no file of
    /// their own to mark, so they are left out. `timestamp` is milliseconds since 1970.
    public func cobertura(timestamp: Int? = nil, version: String = "") -> String {
        let timestamp = timestamp ?? Int(Date().timeIntervalSince1970 * 1000)
        let files = storyboards.filter { !$0.inline }
        struct Line { var number: Int; var hits: Int; var segues: Int; var covered: Int }
        func lines(_ s: Storyboard) -> [Line] {
            var byLine: [Int: Line] = [:]
            for segue in s.segues {
                var line = byLine[segue.line] ?? Line(number: segue.line, hits: 0, segues: 0, covered: 0)
                line.hits += segue.performed
                line.segues += 1
                if segue.performed > 0 { line.covered += 1 }
                byLine[segue.line] = line
            }
            return byLine.values.sorted { $0.number < $1.number }
        }
        // Nothing to cover is all of it covered, as for a file without branches.
        func rate(_ covered: Int, _ valid: Int) -> String {
            let value: Double = valid == 0 ? 1 : Double(covered) / Double(valid)
            return String(format: "%.4f", value)
        }
        func counts(_ list: [Line]) -> (lines: Int, covered: Int, branches: Int, branchesCovered: Int) {
            let branchy = list.filter { $0.segues > 1 }
            return (
                list.count, list.count { $0.hits > 0 }, branchy.reduce(0) { $0 + $1.segues },
                branchy.reduce(0) { $0 + $1.covered }
            )
        }
        let all = files.flatMap(lines)
        let total = counts(all)
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<!DOCTYPE coverage SYSTEM \"http://cobertura.sourceforge.net/xml/coverage-04.dtd\">\n"
        out +=
            "<coverage line-rate=\"\(rate(total.covered, total.lines))\" branch-rate=\"\(rate(total.branchesCovered, total.branches))\" "
            + "lines-covered=\"\(total.covered)\" lines-valid=\"\(total.lines)\" branches-covered=\"\(total.branchesCovered)\" "
            + "branches-valid=\"\(total.branches)\" complexity=\"0\" version=\"\(JUnit.escape(version))\" timestamp=\"\(timestamp)\">\n"
        out += "  <sources>\n    <source>\(JUnit.escape(FileManager.default.currentDirectoryPath))</source>\n  </sources>\n"
        out += "  <packages>\n"
        var folders: [String] = []
        for s in files {
            let folder = (s.file as NSString).deletingLastPathComponent
            if !folders.contains(folder) { folders.append(folder) }
        }
        for folder in folders {
            let mine = files.filter { ($0.file as NSString).deletingLastPathComponent == folder }
            let c = counts(mine.flatMap(lines))
            out +=
                "    <package name=\"\(JUnit.escape(folder.isEmpty ? "." : folder))\" line-rate=\"\(rate(c.covered, c.lines))\" "
                + "branch-rate=\"\(rate(c.branchesCovered, c.branches))\" complexity=\"0\">\n      <classes>\n"
            for s in mine {
                let list = lines(s)
                let k = counts(list)
                let name = ((s.file as NSString).lastPathComponent as NSString).deletingPathExtension
                out +=
                    "        <class name=\"\(JUnit.escape(name))\" filename=\"\(JUnit.escape(s.file))\" line-rate=\"\(rate(k.covered, k.lines))\" "
                    + "branch-rate=\"\(rate(k.branchesCovered, k.branches))\" complexity=\"0\">\n"
                out += "          <methods/>\n          <lines>\n"
                for line in list {
                    out += "            <line number=\"\(line.number)\" hits=\"\(line.hits)\""
                    if line.segues > 1 {
                        let percent = line.covered * 100 / line.segues
                        out += " branch=\"true\" condition-coverage=\"\(percent)% (\(line.covered)/\(line.segues))\"/>\n"
                    } else {
                        out += " branch=\"false\"/>\n"
                    }
                }
                out += "          </lines>\n        </class>\n"
            }
            out += "      </classes>\n    </package>\n"
        }
        out += "  </packages>\n</coverage>\n"
        return out
    }

    // MARK: SARIF

    /// The rule `--coverage-sarif` reports: a segue no flow performed.
    public static let uncoveredSegue = LintRule(
        id: "uncovered-segue", severity: .warning, summary: "No flow of the suite performed this segue.")

    /// SARIF 2.1.0, written by lint's writer: one `uncovered-segue` result per segue no flow
    /// performed, at the segue's line and column. Inline storyboards are left out, as in Cobertura.
    public var sarif: String {
        let files = storyboards.filter { !$0.inline }
        let findings = files.flatMap { s in
            s.segues.filter { $0.performed == 0 }.map { segue in
                let named = segue.identifier.map { " (identifier '\($0)')" } ?? ""
                return LintFinding(
                    file: s.file, line: segue.line, column: segue.column, severity: Self.uncoveredSegue.severity,
                    rule: Self.uncoveredSegue.id,
                    message: "No flow performed the \(segue.kind) segue '\(segue.id)'\(named) of scene '\(segue.scene)'.",
                    element: segue.id)
            }
        }
        return LintFormat.sarif(findings: findings, files: files.map(\.file), tool: "navsim test --coverage", rules: [Self.uncoveredSegue])
    }
}

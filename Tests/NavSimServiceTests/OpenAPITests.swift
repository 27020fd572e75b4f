import Foundation
import JSONValues
import Testing
import TestSupport

@testable import NavSimService
import HTTPServer

/// The parts of `openapi.yaml` the routes must agree with.
///
/// Not a YAML parser: it reads the layout the file keeps (so that a test fails when a
/// route and the spec disagree): under the top-level `paths:`, each path is a key at 2 spaces,
/// each method a key at 4 spaces; `components.schemas.OperationName` is an `enum:` list.
/// The spec gives each UIKit operation a route of its own (`…/controllers/{cid}/present`, so that
/// each has its body schema); the router serves them as one, `…/controllers/{cid}/{operation}`,
/// and `paths` folds them into that template (their names in `operationRoutes`).
struct OpenAPISpec {
    /// Path template → its methods, upper-case, in file order.
    var paths: [(template: String, methods: [String])] = []
    var operationNames: [String] = []
    /// The operations that have a route of their own, in file order.
    var operationRoutes: [String] = []
    /// (path, method) pairs as the file writes them, before the operation routes fold.
    var writtenPairCount = 0

    static let operationTemplate = "/v1/sessions/{sid}/controllers/{cid}/{operation}"

    /// The operation a literal `…/controllers/{cid}/<name>` path names, or nil.
    static func operationName(inRoute template: String) -> String? {
        let prefix = "/v1/sessions/{sid}/controllers/{cid}/"
        guard template.hasPrefix(prefix) else { return nil }
        let name = template.dropFirst(prefix.count)
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        return String(name)
    }

    static let methodKeys: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    init(_ text: String) throws {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line.hasSuffix("\r") ? line.dropLast() : line)
        }
        func indent(_ line: String) -> Int { line.prefix { $0 == " " }.count }
        func isBlankOrComment(_ line: String) -> Bool {
            let t = line.trimmingCharacters(in: .whitespaces)
            return t.isEmpty || t.hasPrefix("#")
        }
        func key(_ line: String) -> String? {
            let t = line.trimmingCharacters(in: .whitespaces)
            guard t.hasSuffix(":") else { return nil }
            var k = String(t.dropLast())
            if k.count >= 2, let f = k.first, f == k.last, f == "'" || f == "\"" { k = String(k.dropFirst().dropLast()) }
            return k
        }

        // paths
        guard let start = lines.firstIndex(of: "paths:") else { throw SpecError("no top-level paths:") }
        var i = start + 1
        var current: Int?
        while i < lines.count {
            let line = lines[i]
            defer { i += 1 }
            if isBlankOrComment(line) { continue }
            let n = indent(line)
            if n == 0 { break }
            if n == 2 {
                guard let k = key(line), k.hasPrefix("/") else { throw SpecError("line \(i + 1): expected a path key: \(line)") }
                if let name = Self.operationName(inRoute: k) {
                    operationRoutes.append(name)
                    if let folded = paths.firstIndex(where: { $0.template == Self.operationTemplate }) {
                        current = folded
                        continue
                    }
                    paths.append((Self.operationTemplate, []))
                } else {
                    paths.append((k, []))
                }
                current = paths.count - 1
            } else if n == 4, let k = key(line), Self.methodKeys.contains(k) {
                guard let at = current else { throw SpecError("line \(i + 1): a method outside a path") }
                writtenPairCount += 1
                if !paths[at].methods.contains(k.uppercased()) { paths[at].methods.append(k.uppercased()) }
            } else if n == 4, line.trimmingCharacters(in: .whitespaces).hasPrefix("$ref") {
                throw SpecError("line \(i + 1): a path item $ref is not supported by this test; inline it")
            }
        }

        // components.schemas.OperationName.enum
        guard let schema = lines.firstIndex(where: { $0.hasPrefix("    OperationName:") }) else {
            throw SpecError("no components.schemas.OperationName")
        }
        let schemaIndent = indent(lines[schema])
        var j = schema + 1
        var enumIndent: Int?
        while j < lines.count {
            let line = lines[j]
            defer { j += 1 }
            if isBlankOrComment(line) { continue }
            let n = indent(line)
            if n <= schemaIndent { break }
            let t = line.trimmingCharacters(in: .whitespaces)
            if let e = enumIndent {
                if n <= e && !t.hasPrefix("- ") { break }
                if t.hasPrefix("- ") { operationNames.append(Self.scalar(t.dropFirst(2))) }
            } else if t == "enum:" {
                enumIndent = n
            } else if t.hasPrefix("enum: [") && t.hasSuffix("]") {
                operationNames = t.dropFirst("enum: [".count).dropLast().split(separator: ",").map { Self.scalar($0) }
                break
            }
        }
    }

    static func scalar(_ s: Substring) -> String {
        var v = s.trimmingCharacters(in: .whitespaces)
        if v.count >= 2, let f = v.first, f == v.last, f == "'" || f == "\"" { v = String(v.dropFirst().dropLast()) }
        return v
    }

    var pairs: [(method: String, template: String)] {
        paths.flatMap { p in p.methods.map { ($0, p.template) } }
    }
}

struct SpecError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The operations table of the design's shared/design/API.md ("## Operations"), as of this writing.
private let apiMarkdownOperations = [
    "present", "dismiss", "show", "showDetail", "push", "pop", "popToRoot", "popTo", "setViewControllers", "select",
    "addChild", "removeFromParent", "willMove", "didMove", "addSubview", "removeFromSuperview", "transitionChild",
    "performSegue", "triggerSegue", "interactiveDismiss", "interactivePop",
]

/// A storyboard small enough to upload anywhere a `{name}` route needs one.
let probeStoryboard = StoryboardXML.home()

@Suite("openapi.yaml agrees with the routes")
struct OpenAPITests {
    static func loadSpec() throws -> OpenAPISpec {
        let data = try #require(FileManager.default.contents(atPath: ServiceFiles.openAPI), "cannot read \(ServiceFiles.openAPI)")
        return try OpenAPISpec(String(decoding: data, as: UTF8.self))
    }

    /// Fills a path template with ids that exist in `sid`'s session (`nav` holds `home`).
    static func concrete(_ template: String, sid: String) throws -> String {
        var path = template
        let values = ["{sid}": sid, "{cid}": "nav", "{operation}": "push", "{tid}": "t-none", "{name}": "Probe"]
        for (k, v) in values { path = path.replacingOccurrences(of: k, with: v) }
        guard !path.contains("{") else { throw SpecError("\(template): a path parameter this test does not know; teach concrete(_:sid:)") }
        return path
    }

    /// A body each documented request accepts (or at worst answers with a domain error).
    static func body(_ method: String, _ template: String) -> (String?, String?) {
        switch (method, template) {
        case ("GET", _), ("DELETE", _): return (nil, nil)
        case ("PUT", "/v1/storyboards/{name}"): return (probeStoryboard, "application/xml")
        case ("POST", "/v1/sessions"): return ("{}", "application/json")
        case ("PATCH", "/v1/sessions/{sid}"): return (#"{"traits": {"horizontalSizeClass": "regular"}}"#, "application/json")
        case ("PUT", "/v1/sessions/{sid}/rootViewController"): return (#"{"viewController": {"id": "newRoot"}}"#, "application/json")
        case ("POST", "/v1/sessions/{sid}/controllers"): return (#"{"id": "fresh"}"#, "application/json")
        case ("PATCH", "/v1/sessions/{sid}/controllers/{cid}"): return (#"{"title": "Probe"}"#, "application/json")
        case ("POST", "/v1/sessions/{sid}/controllers/{cid}/{operation}"): return (#"{"viewController": {"id": "pushed"}}"#, "application/json")
        case ("POST", "/v1/sessions/{sid}/turns"): return (#"{"operations": []}"#, "application/json")
        default: return ("{}", "application/json")
        }
    }

    @Test func specParsesIntoRoutes() throws {
        let spec = try Self.loadSpec()
        let pairs = Set(spec.pairs.map { "\($0.method) \($0.template)" })
        // The parse found the file's shape, not nothing.
        #expect(
            pairs.isSuperset(of: [
                "GET /healthz", "POST /v1/sessions", "GET /v1/sessions/{sid}",
                "POST /v1/sessions/{sid}/controllers/{cid}/{operation}",
            ]), "\(pairs.sorted())")
        #expect(spec.paths.allSatisfy { !$0.methods.isEmpty }, "a path without methods: \(spec.paths.filter { $0.methods.isEmpty })")
        #expect(Set(spec.paths.map(\.template)).count == spec.paths.count, "a path listed twice")
    }

    /// What every concrete path needs: the session `sid` (with `nav` holding `home`) and the
    /// storyboard `Probe`.
    static func prepare(_ h: ServiceHarness, sid: String) {
        h.makeSession(sid)
        _ = h.send("PUT", "/v1/storyboards/Probe", probeStoryboard, contentType: "application/xml")
    }

    /// Documented (method, path) pairs the router does not serve: a 404 `not-found` or a 405.
    static func unservedRoutes(_ spec: OpenAPISpec) throws -> [String] {
        let h = try ServiceHarness()
        var problems: [String] = []
        for (n, pair) in spec.pairs.enumerated() {
            let sid = "probe-\(n)"
            prepare(h, sid: sid)
            let path = try concrete(pair.template, sid: sid)
            let (body, type) = body(pair.method, pair.template)
            let r = h.send(pair.method, path, body, contentType: type)
            if r.status == 405 {
                problems.append("\(pair.method) \(pair.template) is documented but answers 405 (Allow: \(r.headers["allow"] ?? "-"))")
            } else if r.status == 404 && r.slug == "not-found" {
                problems.append("\(pair.method) \(pair.template) is documented but the router does not know \(path)")
            } else if r.status >= 500 {
                problems.append("\(pair.method) \(path): \(r)")
            }
        }
        return problems
    }

    /// Methods a documented path does not list that do not answer 405 with `Allow` naming exactly
    /// the documented ones.
    static func methodDisagreements(_ spec: OpenAPISpec) throws -> [String] {
        let h = try ServiceHarness()
        h.makeSession("s")
        _ = h.send("PUT", "/v1/storyboards/Probe", probeStoryboard, contentType: "application/xml")
        var problems: [String] = []
        for (template, methods) in spec.paths {
            let path = try concrete(template, sid: "s")
            for method in ["GET", "PUT", "POST", "DELETE", "PATCH"] where !methods.contains(method) {
                let r = h.send(method, path, method == "GET" || method == "DELETE" ? nil : "{}")
                if r.status != 405 {
                    problems.append("\(method) \(template) is not documented but answers \(r.status) \(r.slug ?? "")")
                } else if r.allow != Set(methods).union(methods.contains("GET") ? ["HEAD"] : []) {
                    // HEAD goes with GET (RFC 9110 §9.3.2), documented or not.
                    problems.append("\(method) \(template): Allow \(r.headers["allow"] ?? "-"), documented \(methods)")
                }
            }
        }
        return problems
    }

    /// Names in the spec's `OperationName` the service does not know, and names it serves that
    /// the spec does not list.
    /// `servedOnlyIfListed`: also a problem when the service serves a name the list lacks.
    static func operationDisagreements(_ spec: OpenAPISpec, servedOnlyIfListed: Bool = true) throws -> [String] {
        let h = try ServiceHarness()
        h.makeSession("s")
        var problems: [String] = []
        for name in spec.operationNames {
            var r = h.send("POST", "/v1/sessions/s/controllers/nav/\(name)", "{}")
            if (r.status == 404 && (r.slug == "unknown-operation" || r.slug == "not-found")) || r.status == 405 {
                problems.append("\(name) is documented but the service does not know it: \(r)")
            }
            r = h.send("POST", "/v1/sessions/s/turns", #"{"operations": [{"controller": "nav", "operation": "\#(name)"}]}"#)
            if r.slug == "unknown-operation" { problems.append("\(name) is documented but a turn does not know it") }
        }
        // The service's own list, as an unknown operation's problem gives it.
        let r = h.send("POST", "/v1/sessions/s/controllers/nav/frobnicate", "{}")
        guard r.status == 404, r.slug == "unknown-operation", let allowed = r["allowed"]?.array?.compactMap(\.string) else {
            return problems + ["an unknown operation does not answer 404 unknown-operation with allowed: \(r)"]
        }
        for name in Set(allowed).subtracting(spec.operationNames).sorted() where servedOnlyIfListed {
            problems.append("\(name) is served but not in OperationName")
        }
        return problems
    }

    /// The router's registrations are the spec's paths and methods, one for one: a route added
    /// without documenting it (or documented without registering it) fails here by name.
    @Test func registrationsAreTheSpec() throws {
        let spec = try Self.loadSpec()
        let documented = Set(spec.pairs.map { "\($0.method) \($0.template)" })
        let registered = NavSimService.router.registrations.map { "\($0.method) \($0.template)" }
        #expect(Set(registered).count == registered.count, "a route registered twice: \(registered)")
        #expect(Set(registered).subtracting(documented).isEmpty, "registered, not in openapi.yaml: \(Set(registered).subtracting(documented).sorted())")
        #expect(documented.subtracting(registered).isEmpty, "in openapi.yaml, not registered: \(documented.subtracting(registered).sorted())")
    }

    /// The operation table has each name once, a summary for each, and no field twice.
    @Test func operationTableIsWellFormed() {
        #expect(Set(Operations.names).count == Operations.all.count)
        for entry in Operations.all {
            #expect(!entry.summary.isEmpty, "\(entry.name) has no summary")
            #expect(Set(entry.fields).count == entry.fields.count && !entry.fields.contains("animated"), "\(entry.name): \(entry.fields)")
        }
    }

    /// Every documented (path, method) reaches a handler: no 404 `not-found` and no 405 from the router.
    @Test func everyDocumentedRouteIsServed() throws {
        let problems = try Self.unservedRoutes(try Self.loadSpec())
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The methods a documented path does not list answer 405 with `Allow` naming exactly the
    /// documented ones: a route the spec leaves out is caught.
    @Test func undocumentedMethodsOnDocumentedPathsAre405() throws {
        let problems = try Self.methodDisagreements(try Self.loadSpec())
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The checks above do fail when the spec and the routes disagree.
    @Test func disagreementsAreFound() throws {
        let spec = try OpenAPISpec(
            """
            openapi: 3.1.0
            paths:
              /healthz:
                get:
                  summary: served
                post:
                  summary: documented, not served
              '/v1/sessions/{sid}/bogus':
                get:
                  summary: documented, not served
              /v1/sessions:
                # POST is served but left out here
                get:
                  summary: served
            components:
              schemas:
                OperationName:
                  type: string
                  enum:
                    - present
                    - teleport
                Kind:
                  enum: [viewController]
            """)
        #expect(spec.paths.map(\.template) == ["/healthz", "/v1/sessions/{sid}/bogus", "/v1/sessions"])
        #expect(spec.operationNames == ["present", "teleport"])
        let unserved = try Self.unservedRoutes(spec)
        #expect(unserved.count == 2, "\(unserved)")
        #expect(unserved.contains { $0.hasPrefix("POST /healthz ") } && unserved.contains { $0.hasPrefix("GET /v1/sessions/{sid}/bogus ") })
        let methods = try Self.methodDisagreements(spec)
        #expect(methods.contains { $0.hasPrefix("POST /v1/sessions is not documented") }, "\(methods)")
        #expect(methods.contains { $0.hasPrefix("GET /healthz") } == false)
        let operations = try Self.operationDisagreements(spec)
        #expect(operations.contains { $0.hasPrefix("teleport is documented") }, "\(operations)")
        #expect(operations.contains { $0.hasPrefix("dismiss is served") }, "\(operations)")
        #expect(!operations.contains { $0.hasPrefix("present ") }, "\(operations)")
    }

    /// Literal operation routes fold into the router's one template, with their names; other
    /// paths under a controller stay as written.
    @Test func operationRoutesFold() throws {
        let spec = try OpenAPISpec(
            """
            openapi: 3.1.0
            paths:
              /v1/sessions/{sid}/controllers/{cid}/present:
                post:
                  summary: one
              /v1/sessions/{sid}/controllers/{cid}:
                get:
                  summary: a controller
              /v1/sessions/{sid}/controllers/{cid}/dismiss:
                post:
                  summary: two
              /v1/sessions/{sid}/controllers/{cid}/{operation}/again:
                post:
                  summary: not an operation route
            components:
              schemas:
                OperationName:
                  enum: [present, dismiss]
            """)
        #expect(
            spec.paths.map(\.template) == [
                OpenAPISpec.operationTemplate, "/v1/sessions/{sid}/controllers/{cid}",
                "/v1/sessions/{sid}/controllers/{cid}/{operation}/again",
            ])
        #expect(spec.paths.first?.methods == ["POST"])
        #expect(spec.operationRoutes == ["present", "dismiss"])
        #expect(spec.writtenPairCount == 4 && spec.pairs.count == 3)
    }

    /// Paths and methods the spec does not describe are not served.
    @Test func undocumentedProbesAre404Or405() throws {
        let spec = try Self.loadSpec()
        let documented = Set(spec.pairs.map { "\($0.method) \($0.template)" })
        let probes: [(String, String)] = [
            ("PUT", "/v1/sessions"), ("DELETE", "/v1/sessions"), ("PATCH", "/v1/sessions"),
            ("DELETE", "/healthz"), ("POST", "/healthz"), ("POST", "/metrics"), ("PUT", "/openapi.yaml"),
            ("POST", "/v1/sessions/{sid}"), ("PUT", "/v1/sessions/{sid}"),
            ("GET", "/v1/sessions/{sid}/controllers"), ("PUT", "/v1/sessions/{sid}/controllers/{cid}"),
            ("GET", "/v1/sessions/{sid}/controllers/{cid}/{operation}"), ("GET", "/v1/sessions/{sid}/turns"),
            ("POST", "/v1/sessions/{sid}/history"), ("POST", "/v1/sessions/{sid}/transitions"),
            ("GET", "/v1/sessions/{sid}/transitions/complete"), ("GET", "/v1/sessions/{sid}/transitions/{tid}/cancel"),
            ("POST", "/v1/storyboards"), ("PATCH", "/v1/storyboards/{name}"), ("GET", "/v1/storyboards/{name}/customSegues"),
            ("GET", "/v1"), ("GET", "/v2/sessions"), ("GET", "/v1/things"), ("GET", "/healthz/deep"),
            ("GET", "/v1/sessions/{sid}/nothing"), ("GET", "/v1/sessions/{sid}/transitions/{tid}"),
            ("POST", "/v1/sessions/{sid}/transitions/{tid}/finish"),
            ("POST", "/v1/sessions/{sid}/controllers/{cid}/{operation}/again"),
            ("GET", "/v1/sessions/{sid}/history/1"), ("GET", "/v1/storyboards/{name}/customSegues/x"),
        ]
        let h = try ServiceHarness()
        h.makeSession("s")
        _ = h.send("PUT", "/v1/storyboards/Probe", probeStoryboard, contentType: "application/xml")
        for (method, template) in probes {
            #expect(!documented.contains("\(method) \(template)"), "the probe \(method) \(template) is documented now; drop it")
            let r = h.send(method, try Self.concrete(template, sid: "s"), method == "GET" || method == "DELETE" ? nil : "{}")
            #expect(r.status == 404 || r.status == 405, "\(method) \(template) is not in openapi.yaml but answers \(r)")
            if r.status == 404 { #expect(r.slug == "not-found", "\(method) \(template): \(r)") }
        }
    }

    /// The spec's `OperationName` enum, its operation routes and the service's operation table are one list, and it keeps
    /// every name of shared/design/API.md's table (navsim may add operations; it may not rename one).
    @Test func operationNamesAgree() throws {
        let spec = try Self.loadSpec()
        #expect(Set(spec.operationNames).count == spec.operationNames.count, "a name twice in OperationName")
        let expected = apiMarkdownOperations
        let renamed = Set(expected).subtracting(spec.operationNames)
        #expect(renamed.isEmpty, "API.md's operations missing from OperationName: \(renamed.sorted())")

        var problems = try Self.operationDisagreements(spec)
        // shared/design/API.md's names sent to the service too, not only through the spec.
        var fromMarkdown = spec
        fromMarkdown.operationNames = expected
        problems += try Self.operationDisagreements(fromMarkdown, servedOnlyIfListed: false).map { "API.md: \($0)" }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(Set(Operations.names) == Set(spec.operationNames))
        // Each operation has its route (and so its body schema), once, and no other name has one.
        #expect(spec.operationRoutes.sorted() == Operations.names.sorted(), "operation routes: \(spec.operationRoutes)")
    }

    /// Every operation appears where openapi.yaml lists operations besides its route: a branch in
    /// `OnCall` (lifecycle code) and in `TurnOperation` (turns), each `{const: name}`, and the four
    /// links that let a client reach it from a reply (docs/architecture.md, "An operation", step 4),
    /// each defined and used. A missing one is a part of the document a client cannot rely on.
    @Test func everyOperationIsInTheLinksAndBranches() throws {
        let text = String(decoding: try #require(FileManager.default.contents(atPath: ServiceFiles.openAPI)), as: UTF8.self)
        for name in Operations.names {
            let branches = text.components(separatedBy: "operation: {const: \(name)}").count - 1
            #expect(branches == 2, "\(name): \(branches) branches with operation {const: \(name)}, want OnCall's and TurnOperation's")
            for link in ["OperateOnRootFromBody", "OperateFromBody", "OperateOnVisibleFromBody", "OperateOnVisibleFromSession"] {
                #expect(text.contains("\n    \(link).\(name):\n"), "\(name): no components.links \(link).\(name)")
                #expect(text.contains("'#/components/links/\(link).\(name)'"), "\(name): \(link).\(name) is defined but nothing links to it")
            }
        }
    }

    /// shared/design/API.md's table is the list above. It is outside the repository, so this runs only where
    /// shared/ is beside the checkout (CI); ``operationsTableIsRead`` keeps the reader honest everywhere.
    @Test(.enabled(if: SharedFolder.directory != nil, "shared/design/API.md is not beside the checkout"))
    func apiMarkdownTableIsTheList() throws {
        let apiMarkdown = try #require(SharedFolder.directory?.appendingPathComponent("design/API.md").path)
        let data = try #require(FileManager.default.contents(atPath: apiMarkdown), "cannot read \(apiMarkdown)")
        let table = Self.operationsTable(String(decoding: data, as: UTF8.self))
        #expect(Set(table) == Set(apiMarkdownOperations), "API.md's operations table changed: \(table)")
    }

    /// The table reader on a document shaped like shared/design/API.md: only the first column of the
    /// "## Operations" table counts, every backticked name in it, nothing from other sections.
    @Test func operationsTableIsRead() {
        let markdown = """
            # API
            ## Sessions
            | `notAnOperation` | a table in another section |
            ## Operations
            Text before the table mentions `neither`.
            | operation | body | rule |
            |---|---|---|
            | `present` | `{"controller": …}` | R18 |
            | `pop` / `popToRoot` | `{}` | R77 |
            | `interactiveDismiss` | `{"progress": 0.5}` | R45 |
            ## Fine print
            | `alsoNot` | |
            """
        #expect(Self.operationsTable(markdown) == ["present", "pop", "popToRoot", "interactiveDismiss"])
        #expect(Self.operationsTable("# nothing here").isEmpty)
    }

    /// The backticked names in the first column of shared/design/API.md's "## Operations" table.
    static func operationsTable(_ markdown: String) -> [String] {
        var names: [String] = []
        var inSection = false
        for line in markdown.split(separator: "\n") {
            if line.hasPrefix("## ") { inSection = line.hasPrefix("## Operations"); continue }
            guard inSection, line.hasPrefix("| `") else { continue }
            let cell = line.dropFirst().prefix { $0 != "|" }
            let parts = cell.split(separator: "`", omittingEmptySubsequences: false)
            names += stride(from: 1, to: parts.count, by: 2).map { String(parts[$0]) }
        }
        return names
    }
}

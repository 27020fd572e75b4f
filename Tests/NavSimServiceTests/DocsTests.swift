import Foundation
import Testing

@testable import NavSimService

/// The user documentation in `docs/` covers the API that `openapi.yaml` describes.
///
/// Conventions the docs keep (docs/api.md, "How to read this reference"):
/// - every route and method of `openapi.yaml`'s `paths:` has a section headed
///   `### <METHOD> <path template>`, e.g. `### POST /v1/sessions/{sid}/turns`;
/// - every name of `components.schemas.OperationName` has a subsection headed
///   `#### \`<name>\``, e.g. `#### \`present\``.
///
/// The spec is read with `OpenAPISpec` (OpenAPITests.swift), the same reader the route tests use.
@Suite("docs/ documents every route of openapi.yaml")
struct DocsTests {
    static let docsDirectory = ServiceFiles.root.appendingPathComponent("docs")

    /// Every `docs/*.md` file (not recursive), by file name.
    static func loadDocs() throws -> [(name: String, text: String)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: docsDirectory.path)
            .filter { $0.hasSuffix(".md") }
            .sorted()
        return try names.map { name in
            let path = docsDirectory.appendingPathComponent(name).path
            let data = try #require(FileManager.default.contents(atPath: path), "cannot read \(path)")
            return (name, String(decoding: data, as: UTF8.self))
        }
    }

    /// The ATX headings of `level` (`###` for 3) in a Markdown text, trimmed; lines inside fenced
    /// code blocks are not headings. LF and CRLF line ends both work.
    static func headings(_ markdown: String, level: Int) -> Set<String> {
        let marker = String(repeating: "#", count: level) + " "
        var inFence = false
        var found = Set<String>()
        // `isNewline` splits CRLF too: "\r\n" is one Character, which a split on "\n" never meets.
        for raw in markdown.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = String(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                inFence.toggle()
                continue
            }
            guard !inFence, line.hasPrefix(marker) else { continue }
            found.insert(line.dropFirst(marker.count).trimmingCharacters(in: .whitespaces))
        }
        return found
    }

    /// `METHOD template` for each route and method of the spec that no `### METHOD template`
    /// heading documents.
    static func undocumentedRoutes(_ spec: OpenAPISpec, docs: [String]) -> [String] {
        let documented = docs.reduce(into: Set<String>()) { $0.formUnion(headings($1, level: 3)) }
        return spec.pairs.map { "\($0.method) \($0.template)" }.filter { !documented.contains($0) }
    }

    /// Names of `OperationName` that no ``#### `name` `` heading documents.
    static func undocumentedOperations(_ spec: OpenAPISpec, docs: [String]) -> [String] {
        let documented = docs.reduce(into: Set<String>()) { $0.formUnion(headings($1, level: 4)) }
        return spec.operationNames.filter { !documented.contains("`\($0)`") }
    }

    @Test func everyRouteHasASection() throws {
        let spec = try OpenAPITests.loadSpec()
        let docs = try Self.loadDocs()
        #expect(!docs.isEmpty, "no docs/*.md under \(Self.docsDirectory.path)")
        let missing = Self.undocumentedRoutes(spec, docs: docs.map(\.text))
        #expect(missing.isEmpty, "routes of openapi.yaml without a '### METHOD /path' section in docs/: \(missing.joined(separator: "; "))")
    }

    @Test func everyOperationHasASubsection() throws {
        let spec = try OpenAPITests.loadSpec()
        let missing = Self.undocumentedOperations(spec, docs: try Self.loadDocs().map(\.text))
        #expect(missing.isEmpty, "operations of OperationName without a '#### `name`' subsection in docs/: \(missing.joined(separator: ", "))")
    }

    /// The same checks against what the service serves: the router's registrations and the
    /// operation table (a route or operation added to the code alone is caught here too).
    @Test func everyRegistrationIsDocumented() throws {
        var served = try OpenAPITests.loadSpec()
        served.paths = NavSimService.router.registrations.map { ($0.template, [$0.method]) }
        served.operationNames = Operations.names
        let docs = try Self.loadDocs().map(\.text)
        #expect(Self.undocumentedRoutes(served, docs: docs).isEmpty, "\(Self.undocumentedRoutes(served, docs: docs))")
        #expect(Self.undocumentedOperations(served, docs: docs).isEmpty, "\(Self.undocumentedOperations(served, docs: docs))")
    }

    /// The text of the section headed `heading` (any level), up to the next heading.
    static func section(_ heading: String, in markdown: String) -> String? {
        let lines = markdown.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("#") && $0.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces) == heading })
        else { return nil }
        let rest = lines[(start + 1)...]
        return rest.prefix(while: { !$0.hasPrefix("#") }).joined(separator: "\n")
    }

    /// `PATCH …/controllers/{cid}` lists, in backticks, every field the PATCH decoder accepts
    /// (the table `Decoder.patch` reads with); `on` was missing.
    @Test func controllerPatchSectionListsEveryAcceptedField() throws {
        let api = try #require(Self.loadDocs().first { $0.name == "api.md" }).text
        let text = try #require(Self.section("PATCH /v1/sessions/{sid}/controllers/{cid}", in: api))
        let missing = ConfigurationFields.names.filter { !text.contains("`\($0)`") }
        #expect(missing.isEmpty, "fields PATCH …/controllers/{cid} accepts that docs/api.md does not list there: \(missing)")
    }

    /// The checks above name what is missing, and only that: headings in code fences and at other
    /// levels do not count.
    @Test func missingSectionsAreNamed() throws {
        let spec = try OpenAPISpec(
            """
            openapi: 3.1.0
            paths:
              /healthz:
                get:
                  summary: documented
              '/v1/sessions/{sid}':
                get:
                  summary: documented
                delete:
                  summary: only inside a code fence
                patch:
                  summary: only at level 2
            components:
              schemas:
                OperationName:
                  type: string
                  enum:
                    - present
                    - dismiss
            """)
        let docs = """
            ## PATCH /v1/sessions/{sid}
            ### GET /healthz
            ###   GET /v1/sessions/{sid}  \r
            ```
            ### DELETE /v1/sessions/{sid}
            #### `dismiss`
            ```
            #### `present`
            """
        #expect(Self.undocumentedRoutes(spec, docs: [docs]) == ["DELETE /v1/sessions/{sid}", "PATCH /v1/sessions/{sid}"])
        #expect(Self.undocumentedOperations(spec, docs: [docs]) == ["dismiss"])
        #expect(Self.undocumentedRoutes(spec, docs: [docs, "### DELETE /v1/sessions/{sid}\n### PATCH /v1/sessions/{sid}"]).isEmpty)
    }
}

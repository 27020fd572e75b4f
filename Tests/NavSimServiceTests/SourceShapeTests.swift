import Foundation
import Testing

/// The shape of the service's HTTP layer and session runtime, read from their files: a small
/// composition root, a runtime with no HTTP in it, and comments that point only at what a reader can open.
@Suite struct SourceShapeTests {
    static let service = ServiceFiles.root.appendingPathComponent("Sources/NavSimService")
    /// The HTTP contract, the JSON it speaks and the session runtime.
    static let folders = ["HTTP", "JSON", "Routes", "Runtime", "Sessions"]
    static let files = [
        "Service.swift", "Limits.swift", "Metrics.swift", "ProcessMetrics.swift", "RFC3339.swift",
        "Version.swift",
    ]

    /// Every Swift file of ``folders`` and ``files``, by path relative to Sources/NavSimService.
    static func sources() throws -> [(path: String, text: String)] {
        var paths = files
        for folder in folders {
            let names = try FileManager.default.contentsOfDirectory(atPath: service.appendingPathComponent(folder).path)
            paths += names.filter { $0.hasSuffix(".swift") }.map { "\(folder)/\($0)" }
        }
        return try paths.sorted().map { path in
            let url = service.appendingPathComponent(path)
            let data = try #require(FileManager.default.contents(atPath: url.path), "cannot read \(path)")
            return (path, String(decoding: data, as: UTF8.self))
        }
    }

    /// The 600-line limit for every file, and the 30 % limit for every target, are
    /// scripts/lint-shape.sh's (CI's lint step); this keeps only what is particular to the service.
    @Test("Service.swift is the composition root only")
    func compositionRoot() throws {
        let sources = try Self.sources()
        #expect(sources.count > Self.files.count)
        let text = try #require(sources.first { $0.path == "Service.swift" }?.text)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        #expect(lines <= 250, "Service.swift has \(lines) lines")
    }

    @Test("The write runtime names no HTTP type and renders no problem+json")
    func runtimeHasNoHTTP() throws {
        for (path, text) in try Self.sources() where path.hasPrefix("Runtime/") {
            for word in ["import HTTPServer", "HTTPRequest", "HTTPResponse", "DeferredResponse", "problem+json", ".problem("] {
                #expect(!text.contains(word), "\(path) names \(word)")
            }
        }
    }

    @Test("Comments cite no issue or item number and no file the repository lacks")
    func comments() throws {
        let forbidden = [
            #"\b[Ii]ssues? #?\d"#, #"\b[Ii]tems? \d"#, #"ENGINEERING\.md"#, #"(?<![\w/])API\.md"#,
            #"ARCHITECTURE(\.md)?"#,
        ]
        for (path, text) in try Self.sources() {
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let at = line.range(of: "//") else { continue }
                let comment = String(line[at.lowerBound...])
                for pattern in forbidden {
                    #expect(comment.range(of: pattern, options: .regularExpression) == nil, "\(path):\(n + 1): \(comment)")
                }
            }
        }
    }
}

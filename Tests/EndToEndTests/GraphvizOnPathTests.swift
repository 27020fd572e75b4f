import Foundation
import NavSimService
import JSONValues
import Testing
import TestSupport

/// The real Graphviz `dot`, for a test that puts it on the server's `PATH` while it runs.
private let installedDot = ["/usr/bin/dot", "/usr/local/bin/dot"].first { FileManager.default.isExecutableFile(atPath: $0) }

@Suite("Graphviz found while the server runs")
struct GraphvizOnPathTests {
    /// docs/pictures.md: `dot` is looked for when a request wants SVG, not once at start, so a
    /// server started before Graphviz was installed renders SVG as soon as `dot` is on its
    /// `PATH`. Until then the 406 says what to install. The server's `PATH` is one folder that
    /// does not exist at start; a link to the real `dot` appears in it, with no restart.
    @Test(.enabled(if: installedDot != nil, "Graphviz dot is not installed (scripts/install-inspector-prereqs.sh)"))
    func svgWorksOnceDotIsOnPathWithoutARestart() throws {
        let scratch = try Scratch()
        let bin = scratch.file("bin")
        let server = try Server(
            databasePath: scratch.file("navsim.sqlite"), logPath: scratch.file("navsim.log"),
            environment: ["PATH": bin])
        #expect(try server.request("POST", "/v1/sessions", #"{"id": "s", "root": {"id": "home"}}"#).status == 201)
        let svg = [("Accept", "image/svg+xml")]

        let before = try server.request("GET", "/v1/sessions/s", headers: svg)
        #expect(before.status == 406, "\(before)")
        #expect(before["type"]?.string == "/v1/problems/graphviz-not-installed")
        #expect(before["detail"]?.string?.contains("install Graphviz (Debian: apt-get install graphviz)") == true, "\(before)")
        // Asked twice: a miss is not remembered, but it is not turned into a success either.
        #expect(try server.request("GET", "/v1/sessions/s", headers: svg).status == 406)

        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: (bin as NSString).appendingPathComponent("dot"), withDestinationPath: try #require(installedDot))

        let after = try server.request("GET", "/v1/sessions/s", headers: svg)
        #expect(after.status == 200, "\(after)\n\(server.log)")
        #expect(after.header("Content-Type") == "image/svg+xml")
        #expect(after.text.contains("<svg"))
        // The same for a storyboard's picture: one renderer serves both routes.
        let upload = try server.request(
            "PUT", "/v1/storyboards/Main", StoryboardXML.home(),
            headers: [("Content-Type", "application/xml")])
        #expect(upload.status == 201, "\(upload)")
        #expect(try server.request("GET", "/v1/storyboards/Main", headers: svg).status == 200)
    }
}

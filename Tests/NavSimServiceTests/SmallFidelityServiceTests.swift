import Foundation
import JSONValues
import Testing

import NavSimService

/// Over the service: `popover.sourceItem` is documented and anchors a popover.
struct SmallFidelityServiceTests {
    @Test("item11_sourceItem: popover.sourceItem anchors an iPad popover; without an anchor it is D10")
    func item11_sourceItemAnchors() throws {
        let h = try ServiceHarness()
        var r = h.send(
            "POST", "/v1/sessions",
            """
            {"id": "pad", "options": {"transitions": "immediate"},
             "traits": {"userInterfaceIdiom": "pad", "horizontalSizeClass": "regular", "verticalSizeClass": "regular"},
             "root": {"id": "A", "class": "AViewController"}}
            """)
        #expect(r.status == 201, "\(r)")
        r = h.send(
            "POST", "/v1/sessions/pad/controllers/A/present",
            #"{"viewController": {"id": "P", "modalPresentationStyle": "popover"}}"#)
        #expect(r.status == 409 && r.slug == "popover-without-anchor", "\(r)")
        r = h.send(
            "POST", "/v1/sessions/pad/controllers/A/present",
            #"{"viewController": {"id": "P", "modalPresentationStyle": "popover"}, "popover": {"sourceItem": "share"}}"#)
        #expect(r.status == 200, "\(r)")
        #expect(r["session"]?["controllers"]?["P"]?["presentingViewController"]?.string == "A", "\(r)")
    }

    @Test("item11_sourceItem: openapi.yaml's Popover schema and api.md's present list sourceItem")
    func item11_sourceItemDocumented() throws {
        let spec = try String(contentsOfFile: ServiceFiles.openAPI, encoding: .utf8)
        guard let start = spec.range(of: "\n    Popover:\n") else {
            Issue.record("openapi.yaml has no components.schemas.Popover")
            return
        }
        // The schema's lines: everything indented deeper than its name, up to the next schema.
        let lines = spec[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
        let body = lines.prefix { $0.hasPrefix("      ") || $0.isEmpty }
        #expect(body.contains { $0.trimmingCharacters(in: .whitespaces) == "sourceItem:" })
        let api = try String(contentsOfFile: ServiceFiles.root.appendingPathComponent("docs/api.md").path, encoding: .utf8)
        #expect(api.contains(#""sourceItem"?"#))
    }
}

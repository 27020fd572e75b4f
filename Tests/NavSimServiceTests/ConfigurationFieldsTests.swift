import Foundation
import JSONValues
import NavigationCore
import Testing

@testable import NavSimService
@testable import SessionFormat

/// The property names one schema of `openapi.yaml` lists (`components.schemas.<name>.properties`),
/// read from the layout the file keeps: schemas at 4 spaces, `properties:` at 6, names at 8.
func openAPIProperties(of schema: String) throws -> [String] {
    let data = try #require(FileManager.default.contents(atPath: ServiceFiles.openAPI), "cannot read \(ServiceFiles.openAPI)")
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let start = try #require(lines.firstIndex(of: "    \(schema):"), "no components.schemas.\(schema)")
    var names: [String] = []
    var inProperties = false
    for line in lines[(start + 1)...] {
        let indent = line.prefix { $0 == " " }.count
        let text = line.trimmingCharacters(in: .whitespaces)
        if text.isEmpty || text.hasPrefix("#") { continue }
        if indent <= 4 { break }
        if indent == 6 { inProperties = text == "properties:"; continue }
        // A key YAML 1.1 would read as a boolean (`on`) is quoted in the file.
        if inProperties, indent == 8, text.hasSuffix(":") {
            names.append(String(text.dropLast()).trimmingCharacters(in: CharacterSet(charactersIn: "\"'")))
        }
    }
    return names
}

@Suite("One field table for the client-settable properties")
struct ConfigurationFieldsTests {
    @Test func theServiceTableAndTheCoreTypeNameTheSameProperties() {
        #expect(Set(ConfigurationFields.names) == Set(ControllerConfiguration.fields.map(\.name)))
        #expect(Set(ConfigurationFields.names).count == ConfigurationFields.names.count, "a property is listed twice")
    }

    @Test func openAPIPatchSchemaListsExactlyTheTable() throws {
        let patch = try openAPIProperties(of: "ControllerPatch")
        #expect(
            Set(patch) == Set(ConfigurationFields.names),
            "only in openapi: \(Set(patch).subtracting(ConfigurationFields.names)); only in the table: \(Set(ConfigurationFields.names).subtracting(patch))")
    }

    @Test func openAPISpecSchemaListsExactlyTheAcceptedSpecFields() throws {
        let spec = try openAPIProperties(of: "NewController")
        #expect(
            Set(spec) == Set(Decoder.specFields),
            "only in openapi: \(Set(spec).subtracting(Decoder.specFields)); only accepted: \(Set(Decoder.specFields).subtracting(spec))")
        #expect(Set(ConfigurationFields.names).isSubset(of: spec))
    }

    @Test func openAPIControllerReplyListsEveryProperty() throws {
        let reply = try openAPIProperties(of: "Controller")
        #expect(Set(ConfigurationFields.names).isSubset(of: reply), "missing: \(Set(ConfigurationFields.names).subtracting(reply))")
    }

    /// A spec gives values and clears nothing; a PATCH's null clears an optional property.
    @Test func nullClearsInAPatchButNotInASpec() throws {
        let decoder = Decoder(instantiate: { _, _, _, _ throws(Problem) in nil }, budget: SpecBudget(Limits(), existing: 0))
        let body = try JSON.parse(Array(#"{"title": null, "preferredContentSize": [1, 2]}"#.utf8))
        let patch = try decoder.patch(body, kind: .viewController)
        #expect(patch.sets("title") && patch.title == .some(nil))
        #expect(patch.preferredContentSize == .some([1, 2]))
        #expect(!patch.sets("isModalInPresentation"))
        let spec = try #require(try decoder.spec(body, path: "root"))
        #expect(!spec.configuration.sets("title"))
        #expect(spec.configuration.sets("preferredContentSize"))
    }

    /// Storage keeps the flat shape it had before the table: each property under its own name.
    @Test func storedShapeIsFlat() throws {
        var c = Controller(id: "a", kind: .navigationController)
        c.title = "A"
        c.isModalInPresentation = true
        let text = try Persistence.text(StoredController(c))
        #expect(text.contains(#""title":"A""#) && text.contains(#""isModalInPresentation":true"#) && !text.contains("configuration"))
        let back = try JSONDecoder().decode(StoredController.self, from: Data(text.utf8)).domain()
        #expect(back == c)
        var p = ControllerPatch()
        p.title = .some(nil)
        p.modalPresentationStyle = .popover
        let stored = try Persistence.text(StoredPatch(p))
        // Member order is the codec's; the members are what count.
        let members = try #require(try JSON.parse(Array(stored.utf8)).object)
        #expect(members.map(\.0).sorted() == ["modalPresentationStyle", "title"])
        #expect(members.first { $0.0 == "title" }?.1 == .null && members.first { $0.0 == "modalPresentationStyle" }?.1 == .string("popover"))
        #expect(try JSONDecoder().decode(StoredPatch.self, from: Data(stored.utf8)).domain() == p)
    }
}

/// `prefersStatusBarHidden`, added through the table alone (the configuration type, the table,
/// openapi.yaml): specs set it, PATCH changes it, the reply lists it when true, storage keeps it.
@Suite("prefersStatusBarHidden")
struct PrefersStatusBarHiddenTests {
    @Test func specPatchReplyAndRestart() throws {
        let h = try ServiceHarness()
        let created = h.send("POST", "/v1/sessions", #"{"id": "s", "root": {"id": "a", "prefersStatusBarHidden": true}}"#)
        #expect(created.status == 201, "\(created)")
        #expect(created["controllers"]?["a"]?["prefersStatusBarHidden"]?.bool == true, "\(created)")
        let bad = h.send("PATCH", "/v1/sessions/s/controllers/a", #"{"prefersStatusBarHidden": "yes"}"#)
        #expect(bad.status == 422 && bad["field"]?.string == "prefersStatusBarHidden", "\(bad)")
        try h.restart()
        #expect(h.send("GET", "/v1/sessions/s/controllers/a")["prefersStatusBarHidden"]?.bool == true)
        let patched = h.send("PATCH", "/v1/sessions/s/controllers/a", #"{"prefersStatusBarHidden": false}"#)
        #expect(patched.status == 200, "\(patched)")
        // false is UIKit's default: not listed, as for controllers that never set it.
        #expect(h.send("GET", "/v1/sessions/s/controllers/a")["prefersStatusBarHidden"] == nil)
        #expect(h.send("GET", "/v1/sessions/s?version=0")["controllers"]?["a"]?["prefersStatusBarHidden"]?.bool == true)
    }

    /// The members of one configuration's reply (every section, in table order) by name.
    static func replyMembers(_ c: ControllerConfiguration) throws -> [(String, JSON)] {
        var w = JSONWriter()
        w.openObject()
        for section in ConfigurationField.Section.allCases { ConfigurationFields.write(c, section, into: &w) }
        w.closeObject()
        return try #require(try JSON.parse(w.bytes).object)
    }

    /// A row's reply reads the property itself, its read sets it through the row's key path: the
    /// two must name the same property. Each row's member of the rich configuration's reply,
    /// read back through the row alone into a default configuration, must reply as that member
    /// again, with every other member as the default's.
    @Test func eachReplyShowsThePropertyItsRowSets() throws {
        let decoder = Decoder(instantiate: { _, _, _, _ throws(Problem) in nil }, budget: SpecBudget(Limits(), existing: 0))
        let rich = try Self.replyMembers(ConfigurationEncodingTests.rich)
        let defaults = try Self.replyMembers(ControllerConfiguration())
        for f in ConfigurationFields.all {
            let value = try #require(rich.first { $0.0 == f.name }?.1, "\(f.name): not in the rich configuration's reply")
            var patch = ControllerPatch()
            try f.read(try BodyReader(.object([(f.name, value)]), allowed: ConfigurationFields.names), &patch, true, decoder)
            let one = try Self.replyMembers(patch.applied(to: ControllerConfiguration()))
            #expect(one.first { $0.0 == f.name }?.1 == value, "\(f.name): the reply does not show what the row read")
            let others = one.filter { $0.0 != f.name }, defaultOthers = defaults.filter { $0.0 != f.name }
            #expect(
                others.map(\.0) == defaultOthers.map(\.0) && zip(others, defaultOthers).allSatisfy { $0.1 == $1.1 },
                "\(f.name): setting it changed another member of the reply")
        }
    }
}

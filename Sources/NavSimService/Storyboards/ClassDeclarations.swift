import JSONValues
import NavigationCore
import Storyboards

/// What a storyboard's view controller classes do, as a client declares it with
/// `PUT /v1/storyboards/{name}/classes` (docs/storyboards.md "Class declarations"): per `customClass`, the
/// ControllerSpec configuration fields its code sets (``ConfigurationFields``: `unwindActions`,
/// `shouldPerformSegue`, `modalPresentationStyle`, …). Every instance of that class the storyboard
/// instantiates from then on starts with them: over the scene's own attributes (the class's code
/// runs after the storyboard is decoded), under what a request's spec gives.
struct ClassDeclarations: Sendable {
    /// The configuration each class sets.
    var byClass: [String: ControllerPatch] = [:]
    /// The declarations as given, by class: the reply's `classes` and the stored column.
    var given: [String: JSON] = [:]

    subscript(customClass: String) -> ControllerPatch? { byClass[customClass] }

    /// `{"<Class>": {...}}`, classes sorted.
    var json: JSON { .object(given.keys.sorted().map { ($0, given[$0]!) }) }
    /// What the `classes` column holds; nil when nothing is declared.
    var storedText: String? { given.isEmpty ? nil : json.text }

    /// Reads a request body: an object of class names to configuration objects. An unknown field
    /// or enum value is 422 `invalid-body` naming it (`LoginViewController.unwindAction`); lists
    /// and maps are bounded as in a spec (``Limits/specWidth``).
    static func decode(_ json: JSON, limits: Limits) throws(Problem) -> ClassDeclarations {
        guard case .object(let members) = json else {
            throw Problem.invalidField("body", "The body maps view controller class names to their configuration ({\"unwindActions\": […], …}).")
        }
        // A spec's reader, for its bound on lists and maps; it instantiates nothing here.
        let decoder = Decoder(instantiate: { _, _, _, _ throws(Problem) in nil }, budget: SpecBudget(limits, existing: 0))
        var out = ClassDeclarations()
        for (customClass, value) in members {
            guard !customClass.isEmpty else { throw Problem.invalidField("body", "A class name cannot be empty.") }
            let r = try BodyReader(value, path: customClass, allowed: ConfigurationFields.names)
            try decoder.checkEntries(r)
            // Interface Builder has no alert controller scene (Storyboards/Vocabulary.swift), so
            // no class a storyboard instantiates has actions.
            if let v = r.raw("actions"), !v.isNull {
                throw Problem.invalidField(r.name("actions"), "actions is a property of UIAlertController; no storyboard scene is one.")
            }
            var patch = ControllerPatch()
            try ConfigurationFields.read(r, into: &patch, clears: false, decoder: decoder)
            out.byClass[customClass] = patch
            out.given[customClass] = value
        }
        return out
    }

    /// Refuses a declared property that a scene of the class in `storyboard` cannot have: one only
    /// other kinds have (``KindProperties/all``), as a spec of that scene's kind would be refused.
    /// - Throws: 422 `invalid-body` naming `<Class>.<field>` and the scene.
    func check(against storyboard: Storyboard) throws(Problem) {
        for scene in storyboard.scenes {
            guard let customClass = scene.customClass, let declared = byClass[customClass] else { continue }
            guard let (field, row) = KindProperties.firstLacked(declared.fields, by: scene.kind) else { continue }
            let refusal = row.refusal(field, on: scene.kind)
            throw Problem.invalidField("\(customClass).\(field)", "\(refusal) Scene \(scene.id) is of class \(customClass).")
        }
    }

    /// Reads the stored column back.
    static func decode(stored text: String, limits: Limits) throws -> ClassDeclarations {
        try decode(try JSON.parse(Array(text.utf8)), limits: limits)
    }
}

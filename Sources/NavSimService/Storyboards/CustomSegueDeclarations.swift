import JSONValues
import NavigationCore
import Storyboards

// Custom segue declarations (values in the Storyboards target) as the API spells them: the
// `PUT /v1/storyboards/{name}/customSegues` body, the reply's `customSegues` and the stored column.

extension CustomSegueDeclaration {
    var json: JSON {
        var members: [(String, JSON)] = [("performs", .string(performs.rawValue))]
        if let v = modalPresentationStyle { members.append(("modalPresentationStyle", .string(v.rawValue))) }
        if let v = modalTransitionStyle { members.append(("modalTransitionStyle", .string(v.rawValue))) }
        if let d = transitioningDelegate {
            members.append(("transitioningDelegate", .object([("name", .string(d.name)), ("duration", .number(d.duration))])))
        }
        if let v = animated { members.append(("animated", .bool(v))) }
        if let v = sheetPresentationController { members.append(("sheetPresentationController", v.json)) }
        return .object(members)
    }
}

extension SheetSettings {
    /// The members the Controller reply writes for `sheetPresentationController`, as a value.
    var json: JSON {
        let detents = detents.map { d -> JSON in
            var members: [(String, JSON)] = [("identifier", .string(d.identifier))]
            if let h = d.height { members.append(("height", .number(h))) }
            return .object(members)
        }
        return .object([
            ("detents", .array(detents)),
            ("selectedDetentIdentifier", selectedDetentIdentifier.map(JSON.string) ?? .null),
            ("largestUndimmedDetentIdentifier", largestUndimmedDetentIdentifier.map(JSON.string) ?? .null),
            ("prefersGrabberVisible", .bool(prefersGrabberVisible)),
            ("prefersScrollingExpandsWhenScrolledToEdge", .bool(prefersScrollingExpandsWhenScrolledToEdge)),
            ("hasDelegate", .bool(hasDelegate)),
        ])
    }
}

extension CustomSegueDeclarations {
    /// `{"<Class>": {...}}`, classes sorted: the reply's `customSegues` and the stored column.
    var json: JSON { .object(byClass.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) }) }
    /// What the `custom_segues` column holds; nil when nothing is declared.
    var storedText: String? { byClass.isEmpty ? nil : json.text }

    /// Reads a request body; unknown fields and enum values are 422 naming the field.
    static func decode(_ json: JSON) throws(Problem) -> CustomSegueDeclarations {
        guard case .object(let members) = json else {
            throw Problem.invalidField("body", "The body maps custom segue class names to {\"performs\", …}.")
        }
        var out = CustomSegueDeclarations()
        for (customClass, value) in members {
            guard !customClass.isEmpty else { throw Problem.invalidField("body", "A custom segue class name cannot be empty.") }
            let r = try BodyReader(
                value, path: customClass,
                allowed: [
                    "performs", "modalPresentationStyle", "modalTransitionStyle", "transitioningDelegate", "animated",
                    "sheetPresentationController",
                ])
            guard let performs = try r.enumValue("performs", CustomSegueDeclaration.Performs.self) else {
                throw Problem.invalidField(
                    r.name("performs"), "\(r.name("performs")) is required.",
                    allowed: CustomSegueDeclaration.Performs.allCases.map(\.rawValue))
            }
            var declaration = CustomSegueDeclaration(performs: performs)
            declaration.modalPresentationStyle = try r.enumValue("modalPresentationStyle", PresentationStyle.self)
            declaration.modalTransitionStyle = try r.enumValue("modalTransitionStyle", TransitionStyle.self)
            declaration.animated = try r.bool("animated")
            declaration.sheetPresentationController = try r.sheetSettings("sheetPresentationController")
            if let d = try r.object("transitioningDelegate", allowed: ["name", "duration"]) {
                let duration = try d.number("duration") ?? 0.3
                guard duration >= 0, duration <= 3600 else {
                    throw Problem.invalidField(d.name("duration"), "duration is in seconds, 0…3600.")
                }
                declaration.transitioningDelegate = TransitioningDelegate(name: try d.requiredString("name"), duration: duration)
            }
            out.byClass[customClass] = declaration
        }
        return out
    }

    /// Reads the stored column back.
    static func decode(stored text: String) throws -> CustomSegueDeclarations {
        try decode(try JSON.parse(Array(text.utf8)))
    }
}

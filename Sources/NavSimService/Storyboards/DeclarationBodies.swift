public import JSONValues
public import NavigationCore
public import Storyboards

/// The bodies of `PUT /v1/storyboards/{name}/classes` and `…/customSegues`, read as those routes
/// read them, for `navsim explore --classes FILE` and `--custom-segues FILE` (docs/explore.md).
public enum DeclarationBodies {
    /// A `classes` body: per view controller class, the configuration its code sets.
    /// - Throws: the route's 422 problem, naming the field.
    public static func classes(_ json: JSON) throws(Problem) -> [String: ControllerPatch] {
        try ClassDeclarations.decode(json, limits: .defaults).byClass
    }

    /// A `customSegues` body: per custom segue class, what its `perform()` does.
    /// - Throws: the route's 422 problem, naming the field.
    public static func customSegues(_ json: JSON) throws(Problem) -> CustomSegueDeclarations {
        try CustomSegueDeclarations.decode(json)
    }
}

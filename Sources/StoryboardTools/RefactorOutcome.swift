public import Storyboards

/// Refactor to Storyboard as `POST /v1/storyboards/{name}/refactor` runs it (docs/refactor.md):
/// the rewrite, both documents parsed again under the upload limits, and the classes the new
/// storyboard uses, whose declarations go with its scenes.
public struct RefactorOutcome: Sendable {
    /// The rewritten source and the new document, as bytes to store.
    public var result: RefactorResult
    /// The rewritten source, parsed.
    public var source: Storyboard
    /// The new storyboard, parsed.
    public var extracted: Storyboard
    /// The `customClass` of every segue in the new storyboard: their custom segue declarations
    /// move with them, so an unwind to a moved controller still finds its declared action.
    public var segueClasses: Set<String>
    /// The `customClass` of every scene in the new storyboard: their class declarations move with them.
    public var controllerClasses: Set<String>

    /// Moves `scenes` of storyboard `name` (its document `xml`) into a new storyboard `into` and
    /// parses both results under `limits`.
    /// - Throws: ``RefactorFailure/refused(_:)`` when the refactor cannot be made (an unknown
    ///   scene, a container split from its children, `into` the source's own name),
    ///   ``RefactorFailure/unparsable(_:)`` when a result goes past an upload limit.
    public init(xml: [UInt8], name: String, scenes: [String], into: String, limits: StoryboardParser.Limits) throws(RefactorFailure) {
        do {
            result = try StoryboardRefactor.refactor(xml: xml, name: name, scenes: scenes, into: into)
        } catch {
            throw .refused(error)
        }
        do {
            source = try StoryboardParser.parse(name: name, data: result.original, limits: limits)
            extracted = try StoryboardParser.parse(name: into, data: result.extracted, limits: limits)
        } catch {
            throw .unparsable(error)
        }
        segueClasses = Set(extracted.allSegues.compactMap(\.segue.customClass))
        controllerClasses = Set(extracted.scenes.compactMap(\.customClass))
    }
}

/// Why ``RefactorOutcome`` could not be made.
public enum RefactorFailure: Error, Sendable {
    /// The refactor itself refused the request.
    case refused(RefactorError)
    /// A rewritten document does not parse under the limits given.
    case unparsable(StoryboardError)
}

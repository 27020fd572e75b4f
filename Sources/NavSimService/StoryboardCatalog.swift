import HTTPServer
import NavigationCore

/// Uploaded storyboards, and what the core needs from them: scene instantiation (R101, R102) and
/// segue destinations (R96–R98). Placeholder until the Storyboards target is wired in.
final class StoryboardCatalog: Sendable {
    func route(_ req: HTTPRequest, _ rest: [String]) throws(Problem) -> HTTPResponse {
        throw Problem.notFound(req.path)
    }

    let store: SessionStore
    init(store: SessionStore) throws { self.store = store }

    var instantiator: StoryboardInstantiator {
        { name, _ throws(Problem) in throw Problem(Diagnostic.unknownStoryboard(name)) }
    }

    /// Fills in the destination scene of a `performSegue`/`triggerSegue` from the receiver's scene.
    func resolveSegue(_ command: Command, in state: SessionState) throws(Problem) -> Command { command }
}

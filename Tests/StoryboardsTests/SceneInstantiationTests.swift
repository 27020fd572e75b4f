import NavigationCore
import Storyboards
import Testing

// Instantiation and segue resolution without a server: the Storyboards target's
// `SceneInstantiation`, its budget and its failures in the caller's own error type.

/// The caller's error: a refused budget or an instantiation failure.
private enum Refused: Error {
    case budget(path: String)
    case failure(InstantiationFailure)
}

private func library(_ storyboards: Storyboard...) -> StoryboardLibrary {
    var library = StoryboardLibrary()
    for storyboard in storyboards { library.insert(storyboard) }
    return library
}

@Suite("Scene instantiation (Storyboards target)")
struct SceneInstantiationTests {
    /// A navigation controller with its root (R102), and the root's custom segue taking what its
    /// class is declared to do (R98) and the class declaration over the scene's attributes.
    @Test func theInitialSceneComesWithItsRootAndDeclarations() throws {
        let main = try parse(
            XML.document(
                initial: "nav",
                XML.navigation("nav", root: "home"),
                XML.viewController(
                    "home", attributes: #"customClass="HomeViewController" modalPresentationStyle="formSheet""#,
                    connections: #"<segue destination="next" kind="show" customClass="FadeSegue" identifier="go" id="s1"/>"#),
                XML.viewController("next")))
        var declared = ControllerPatch()
        declared.modalPresentationStyle = .pageSheet
        let scenes = SceneInstantiation(
            library: library(main),
            declarations: ["Main": CustomSegueDeclarations(byClass: ["FadeSegue": CustomSegueDeclaration(performs: .present, modalPresentationStyle: .overFullScreen)])],
            classes: ["Main": ["HomeViewController": declared]])
        var counted: [String] = []
        let spec = try scenes.instantiate(
            storyboard: "Main", identifier: nil,
            budget: { (_: Int, path: String) throws(Refused) in counted.append(path) },
            failure: Refused.failure)
        #expect(spec?.kind == .navigationController)
        guard case .new(let root)? = spec?.viewControllers?.first else { Issue.record("no root: \(String(describing: spec))"); return }
        #expect(root.id == "home")
        #expect(root.modalPresentationStyle == .pageSheet, "the class's declaration wins over the scene's attribute")
        #expect(root.segues?.first?.customPerforms == .present)
        #expect(root.segues?.first?.modalPresentationStyle == .overFullScreen)
        #expect(counted == ["storyboard scene 'Main/nav'", "storyboard scene 'Main/home'"])
    }

    /// Failures reach the caller as its own error: UIKit's D20, a containment cycle, and the
    /// budget's refusal, which stops instantiation at once.
    @Test func failuresAndTheBudgetAreTheCallersErrors() throws {
        let looping = try parse(XML.document(initial: "a", XML.navigation("a", root: "b"), XML.navigation("b", root: "a")))
        let scenes = SceneInstantiation(library: library(looping))
        let noBudget = { (_: Int, _: String) throws(Refused) in }
        do {
            _ = try scenes.instantiate(storyboard: "Settings", identifier: nil, budget: noBudget, failure: Refused.failure)
            Issue.record("an unknown storyboard instantiated")
        } catch {
            guard case .failure(.uikit(let d)) = error else { Issue.record("\(error)"); return }
            #expect(d.code == "D20")
        }
        do {
            _ = try scenes.instantiate(storyboard: "Main", identifier: nil, budget: noBudget, failure: Refused.failure)
            Issue.record("a containment cycle instantiated")
        } catch {
            guard case .failure(.relationshipCycle(let path)) = error else { Issue.record("\(error)"); return }
            #expect(path.map(\.sceneID) == ["a", "b", "a"])
        }
        do {
            _ = try scenes.instantiate(
                storyboard: "Main", identifier: nil,
                budget: { (depth: Int, path: String) throws(Refused) in if depth > 0 { throw .budget(path: path) } },
                failure: Refused.failure)
            Issue.record("the budget was not asked")
        } catch {
            guard case .budget(let path) = error else { Issue.record("\(error)"); return }
            #expect(path == "storyboard scene 'Main/b'")
        }
    }
}

import Testing
@testable import NavigationCore

/// Code in a controller's lifecycle methods (`on`, ``CallbackCode``).
@Suite("lifecycle code")
struct CallbackCodeTests {
    let me = CallbackCode.selfReceiver

    func code(_ method: CallbackCode.Method, _ commands: Command..., once: Bool = false) -> CallbackCode {
        CallbackCode([method: commands.map { CallbackCode.Call($0, once: once) }])
    }

    /// A login shown from `viewDidAppear`: the home appears, then (same request) the login is
    /// presented over it, its callbacks right after the home's `viewDidAppear` turn.
    @Test func item8_loginPresentedInViewDidAppear() {
        var w = Window(root: vc("A"))
        let login = code(.viewDidAppear, Op.present(me, vc("Login"), .fullScreen, animated: false))
        let r = w.send(Op.present("A", vc("Home") { $0.on = login }, .fullScreen, animated: false)) {
            $0.create("Home") {
                $0.configuration.on = login
                $0.modalPresentationStyle = .fullScreen
                $0.presentation = presentationRecord("A", requested: .fullScreen, removesPresenterView: true)
                $0.presentedID = "Login"
                $0.isViewLoaded = true
            }
            $0.create("Login") {
                $0.modalPresentationStyle = .fullScreen
                $0.presentation = presentationRecord("Home", requested: .fullScreen, removesPresenterView: true)
            }
            $0.appeared("Login")
            $0.disappeared("A", "Home")
            $0.modify("A") { $0.presentedID = "Home" }
            $0.nextTransitionNumber += 2
        }
        let events = names(r)
        let didAppear = events.firstIndex(of: "Home.viewDidAppear") ?? -1
        #expect(didAppear >= 0 && events.firstIndex(of: "Login.viewDidLoad").map { $0 > didAppear } == true, "\(events)")
        #expect(events.last == "Home.viewDidDisappear" || events.contains("Login.viewDidAppear"), "\(events)")
        #expect(r.warnings.isEmpty)
        #expect(r.transition?.toViewController == "Home", "the command reports its own transition")
    }

    /// A root whose `viewDidLoad` presents warns D7 at the session's creation
    /// exactly as through `setRoot`: ``Navigator/makeSessionReporting`` hands back the warning
    /// with the state an exhaustive `setRoot` on an empty window gives.
    @Test func creationKeepsTheRootsLifecycleWarnings() throws {
        let early = code(.viewDidLoad, Op.present(me, vc("x"), .fullScreen, animated: false))
        let root = vc("home") { $0.on = early }
        var w = Window(root: nil)
        let r = w.send(.setRoot(root, animated: false)) {
            $0.create("home") { $0.configuration.on = early }
            $0.appeared("home")
            $0.rootViewController = "home"
            $0.nextTransitionNumber += 1
        }
        #expect(r.warnings.map(\.code) == ["D7"])
        let made = try Navigator.makeSessionReporting(traits: .phonePortrait, options: Options(iOS: .iOS17), root: root).get()
        #expect(made.result.warnings == r.warnings)
        #expect(made.result.events == r.events)
        expectSameState(w.state, made.state, "creation and setRoot differ", sourceLocation: #_sourceLocation)
    }

    /// R13/D7 from `viewDidLoad`: the view is not in the window yet, so UIKit logs "whose view is
    /// not in the window hierarchy" and presents nothing; the outer presentation goes on.
    @Test func item8_presentInViewDidLoadWarnsNotInWindowHierarchy() throws {
        var w = Window(root: vc("A"))
        let early = code(.viewDidLoad, Op.present(me, vc("Login"), .fullScreen, animated: false))
        let r = w.send(Op.present("A", vc("Home") { $0.on = early }, .fullScreen, animated: false)) {
            $0.create("Home") {
                $0.configuration.on = early
                $0.modalPresentationStyle = .fullScreen
                $0.presentation = presentationRecord("A", requested: .fullScreen, removesPresenterView: true)
            }
            $0.appeared("Home")
            $0.disappeared("A")
            $0.modify("A") { $0.presentedID = "Home" }
            $0.nextTransitionNumber += 1
        }
        let warning = try #require(r.warnings.first)
        #expect(warning.code == "D7")
        #expect(warning.slug == "not-in-window-hierarchy")
        #expect(warning.message.contains("whose view is not in the window hierarchy"))
        #expect(!names(r).contains { $0.hasPrefix("Login.") })
    }

    /// `once`: the call runs the first time the method is called and is then gone.
    @Test func item8_onceRunsTheFirstTimeOnly() {
        let first = code(.viewDidAppear, Op.push(me, vc("Intro"), animated: false), once: true)
        var w = Window(root: nav("N", vc("A") { $0.on = first }))
        #expect(w.stack("N") == ["A", "Intro"])
        #expect(w.state.c("A").configuration.on.isEmpty)
        w.perform(Op.pop("N", animated: false))
        #expect(w.stack("N") == ["A"])
    }

    /// A UIKit exception inside a callback (D5: presenting the window's root, an active
    /// controller) fails the whole turn: nothing changes, the presentation that ran the code included.
    @Test func item8_exceptionInsideCallbackRollsBackEverything() {
        var w = Window(root: vc("A"))
        let bad = code(.viewDidAppear, Op.present(me, .existing("A"), animated: false))
        let d = w.sendRefused(
            Op.present("A", vc("Home") { $0.on = bad }, .fullScreen, animated: false),
            code: "D5", slug: "active-controller")
        #expect(d?.severity == .exception)
        let r = Navigator.run([Op.present("A", vc("Home") { $0.on = bad }, animated: false)], on: w.state)
        #expect(r.failure != nil)
    }

    /// A callback that triggers itself (two tabs selecting each other in `viewDidAppear`) stops
    /// at ``CallbackCode/maximumCallsPerTurn``: `limitExceeded`, nothing changes.
    @Test func item8_selfTriggeringCodeHitsTheLimit() throws {
        var w = Window(root: vc("Root"))
        var tabs = ControllerSpec(id: "T", kind: .tabBarController)
        tabs.viewControllers = [
            vc("A") { $0.on = CallbackCode([.viewDidAppear: [.init(.select(receiver: "T", index: 1, viewController: nil))]]) },
            vc("B") { $0.on = CallbackCode([.viewDidAppear: [.init(.select(receiver: "T", index: 0, viewController: nil))]]) },
        ]
        let invalid = w.sendInvalid(Op.present("Root", .new(tabs), .fullScreen, animated: false))
        let e = try #require(invalid)
        #expect(e.kind == .limitExceeded)
        #expect(e.field == "on.viewDidAppear")
    }

    /// The method whose code runs after an event is the one of the callback's name, for every
    /// callback: a method added to ``CallbackCode/Method`` without its case in the mapping fails here.
    @Test("R32: each method's code runs after the callback of its name")
    func eachMethodFollowsTheCallbackOfItsName() {
        for callback in Event.Callback.allCases {
            #expect(CallbackCode.Method(callback) == CallbackCode.Method(rawValue: callback.rawValue), "\(callback)")
        }
        for method in CallbackCode.Method.allCases {
            #expect(Event.Callback(rawValue: method.rawValue).flatMap(CallbackCode.Method.init) == method, "\(method)")
        }
    }
}

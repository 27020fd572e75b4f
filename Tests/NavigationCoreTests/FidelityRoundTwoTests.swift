import Testing
import NavigationCore

/// Fidelity, round two: rule changes that live in the core.
@Suite("fidelity, round two")
struct FidelityRoundTwoCoreTests {
    /// Storyboard ids take `~2`, `~3` when taken; a spec whose separator is `#` (what
    /// specs stored before `~` decode to, see StoredFormatTests) still makes `#2`, so a replayed
    /// history reproduces its ids.
    @Test func item7_suffixIsTildeAndStoredSpecsKeepTheHash() throws {
        var spec = ControllerSpec(id: "B")
        spec.appendsSuffixWhenTaken = true
        var w = Window(root: vc("B"))
        #expect(w.perform(.createController(spec)).created == "B~2")
        #expect(w.perform(.createController(spec)).created == "B~3")
        var old = spec
        old.suffixSeparator = "#"
        #expect(w.perform(.createController(old)).created == "B#2")
    }

    /// R99: no implementer: nothing happens, and the warning names the action and
    /// every controller asked, the source excepted.
    @Test func R99_unwindWithoutDestinationNamesTheControllersAsked() throws {
        var w = Window(root: nav("N", vc("A")))
        var spec = ControllerSpec(id: "B")
        spec.storyboard = StoryboardOrigin(name: "Main", identifier: "B")
        spec.segues = [SegueSpec(id: "s", identifier: "back", kind: .unwind, destinationScene: nil, unwindAction: "done:")]
        w.perform(Op.push("N", .new(spec), animated: false))
        let r = w.perform(.performSegue(receiver: "B", identifier: "back", destination: nil))
        #expect(r.events.isEmpty)
        #expect(w.stack("N") == ["A", "B"])
        let warning = try #require(r.warnings.first)
        #expect(warning.slug == "unwind-destination-not-found")
        #expect(warning.code == nil)
        #expect(warning.message.contains("done:"))
        #expect(warning.message.contains("(asked: \(desc("A")), \(desc("N", .navigationController)))"), "\(warning.message)")
    }
}

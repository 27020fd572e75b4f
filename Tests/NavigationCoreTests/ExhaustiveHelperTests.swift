import Testing
import NavigationCore

/// The exhaustive-state helper itself: it must see a change the test did not state, a change the
/// test stated that did not happen, and name each path.
@Suite("exhaustive state helper")
struct ExhaustiveHelperTests {
    /// `A` presents `B`: the reference turn these tests distort.
    static func presented() -> (before: SessionState, after: SessionState) {
        let w = Window(root: vc("A"))
        let r = Navigator.run([Op.present("A", vc("B"), .fullScreen)], on: w.state)
        return (w.state, r.state)
    }

    @Test("equal states have no differences")
    func equalStates() {
        let (_, after) = Self.presented()
        #expect(stateDifferences(expected: after, actual: after).isEmpty)
    }

    @Test("a flag flipped on an unrelated controller is an unstated change, named by its path")
    func unstatedChangeOnUnrelatedController() {
        var w = Window(root: nav("N", vc("A")))
        let before = w.state
        w.perform(Op.present("A", vc("B"), .overFullScreen))
        // What a faulty rule would produce: the right change, plus one flag on the navigation controller.
        var faulty = w.state
        faulty.controllers["N"]!.isMovingFromParent = true
        #expect(
            stateDifferences(expected: w.state, actual: faulty)
                == [#"controllers["N"].isMovingFromParent: false → true"#])
        #expect(before != w.state)
    }

    @Test("a stated change that did not happen is a missing change")
    func missingChange() {
        let (_, after) = Self.presented()
        var expected = after
        expected.controllers["A"]!.viewInWindow = true
        expected.controllers["B"]!.isBeingPresented = true
        #expect(
            stateDifferences(expected: expected, actual: after) == [
                #"controllers["A"].viewInWindow: true → false"#,
                #"controllers["B"].isBeingPresented: true → false"#,
            ])
    }

    @Test("paths: arrays of ids whole, counts of other arrays, absent dictionary entries, nested optionals")
    func pathShapes() {
        let (before, after) = Self.presented()
        let d = stateDifferences(expected: before, actual: after)
        #expect(d.contains(#"order: ["A"] → ["A", "B"]"#))
        #expect(d.contains { $0.hasPrefix(#"controllers["B"]: (absent) → Controller(id: "B""#) })
        #expect(d.contains(#"controllers["A"].presentedID: nil → "B""#))
        #expect(d.contains(#"controllers["A"].appearance: appeared → disappeared"#))

        var two = after
        two.transitions = []
        var three = two
        three.startRunning(
            TransitionRecord(
                id: "t9", operation: .present, fromViewController: "A", toViewController: "B",
                presentationStyle: .fullScreen, transitionStyle: .coverVertical, animated: true,
                duration: 0.5, animator: nil, containerView: ["A", "B"], state: .inProgress))
        #expect(stateDifferences(expected: two, actual: three).first == "transitions.count: 0 → 1")
        var four = three
        four.modifyRunning("t9") { $0.containerView = ["B"] }
        #expect(stateDifferences(expected: three, actual: four) == [#"transitions[0].record.containerView: ["A", "B"] → ["B"]"#])
    }

    @Test("send records one issue listing the unstated change, at the test's line")
    func sendReportsUnstatedChange() {
        var w = Window(root: vc("A"))
        withKnownIssue {
            // Everything present(.overFullScreen) does except B's loaded view: the helper must object.
            w.send(Op.present("A", vc("B"), .overFullScreen)) {
                $0.create("B") {
                    $0.appearance = .appeared; $0.viewInWindow = true
                }
                $0.modify("A") { $0.presentedID = "B" }
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains(#"controllers["B"].isViewLoaded: false → true"#) }
        }
    }

    @Test("sendRefused records an issue when the command is not refused")
    func sendRefusedNeedsARefusal() {
        var w = Window(root: vc("A"))
        withKnownIssue {
            w.sendRefused(Op.present("A", vc("B")), code: "D1", slug: "already-presenting")
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("a refused command changed the state") || $0.rawValue.contains("to be refused")
            }
        }
    }
}

import NavigationCore
import Testing

@testable import NavSimService
@testable import SessionFormat

/// The write pipeline's state machine (Runtime/WritePipeline.swift) as a value: each event's
/// transition and the action it returns, with strings for the work, the reply and the client.
@Suite struct WritePipelineTests {
    typealias Machine = WritePipeline<String, String, String>

    static let encoded = EncodedSession.make(id: "s", version: 0, createdAt: "t", state: SessionState(), previous: nil).0

    static func shell() throws -> Persistence.Shell { try Persistence.Shell(SessionState()) }

    /// A state named by its case and its pending versions (number and stage).
    static func describe(_ machine: Machine) -> String {
        func versions(_ pending: [Machine.Version]) -> String {
            pending.map { v in
                switch v.stage {
                case .applied(let work): "\(v.number):applied(\(work))"
                case .prepared(_, let reply, let later): "\(v.number):prepared(\(reply)\(later ? ",later" : ""))"
                }
            }.joined(separator: " ")
        }
        switch machine.state {
        case .idle: return "idle"
        case .preparing(let pending, _): return "preparing[\(versions(pending))]"
        case .committing(let pending): return "committing[\(versions(pending))]"
        }
    }

    static func describe(_ action: Machine.CommitAction) -> String {
        switch action {
        case .durable(let number, _, _, let reply, let client, let checkpoint):
            "durable(\(number), \(reply) to \(client)\(checkpoint ? ", checkpoint" : ""))"
        case .failed(let clients): "failed(\(clients.joined(separator: ",")))"
        case .stale(let clients): "stale(\(clients.joined(separator: ",")))"
        case .none: "none"
        }
    }

    /// The machine in a box, so the events can be sent from inside `#expect`.
    final class Harness {
        var machine = Machine()

        var state: String { WritePipelineTests.describe(machine) }
        var isIdle: Bool { machine.isIdle }
        var shell: Persistence.Shell? { machine.shell }
        var checkpointing: Bool { machine.checkpointing }
        func headVersion(committed: Int) -> Int { machine.headVersion(committed: committed) }

        /// Applies a version whose state is the empty session; the job when this write becomes the preparer.
        func apply(_ name: String, committed: Int = 0) -> (Machine.Job, CommitToken)? {
            switch machine.apply(SessionState(), work: "w-\(name)", client: "c-\(name)", committedVersion: committed) {
            case .prepare(let job, let preparer): (job, preparer)
            case .none: nil
            }
        }

        /// `.commit(laterCheckpoint)` as its flag, `.none` as nil.
        func prepared(_ job: Machine.Job, _ reply: String) throws -> Bool? {
            switch machine.prepared(job, encoded: WritePipelineTests.encoded, reply: reply, shell: try WritePipelineTests.shell()) {
            case .commit(let later): later
            case .none: nil
            }
        }

        func nextJob(for preparer: CommitToken) -> Machine.Job? { machine.nextJob(for: preparer) }
        func preparationFailed(_ job: Machine.Job) -> [String] { machine.preparationFailed(job) }
        func committed(_ job: Machine.Job, later: Bool = false, _ outcome: Machine.CommitOutcome) -> String {
            WritePipelineTests.describe(machine.committed(job.token, laterCheckpoint: later, outcome: outcome))
        }
        func checkpointStored() { machine.checkpointStored() }
    }

    @Test("A write on an idle session becomes the preparer and gets its own version's job")
    func applyOnIdle() throws {
        let m = Harness()
        #expect(m.isIdle && m.headVersion(committed: 7) == 7)
        let (job, _) = try #require(m.apply("a", committed: 7))
        #expect(job.number == 8 && job.work == "w-a")
        #expect(job.previous == nil, "built on the committed view")
        #expect(!job.followsPending && !job.checkpointNow && job.shell == nil)
        #expect(m.state == "preparing[8:applied(w-a)]")
        #expect(m.headVersion(committed: 7) == 8 && !m.isIdle)
    }

    @Test("A write applied while another prepares gets no job; the preparer takes it next, built on the one before")
    func applyWhilePreparing() throws {
        let m = Harness()
        let (a, preparer) = try #require(m.apply("a"))
        #expect(m.apply("b") == nil)
        #expect(m.state == "preparing[1:applied(w-a) 2:applied(w-b)]")
        #expect(try m.prepared(a, "r-a") == false)
        #expect(m.shell != nil)
        let b = try #require(m.nextJob(for: preparer))
        #expect(b.number == 2 && b.work == "w-b" && b.followsPending)
        #expect(b.previous?.encoded.version == Self.encoded.version)
        #expect(try m.prepared(b, "r-b") == false)
        #expect(m.nextJob(for: preparer) == nil)
        #expect(m.state == "committing[1:prepared(r-a) 2:prepared(r-b)]")
        // A preparer that is not the session's any more takes nothing.
        #expect(m.nextJob(for: CommitToken()) == nil)
    }

    @Test("A write applied while the commits are queued becomes the preparer again")
    func applyWhileCommitting() throws {
        let m = Harness()
        let (a, preparer) = try #require(m.apply("a"))
        _ = try m.prepared(a, "r-a")
        #expect(m.nextJob(for: preparer) == nil)
        let (b, second) = try #require(m.apply("b"))
        #expect(second !== preparer)
        #expect(b.number == 2 && b.followsPending && b.previous != nil)
        #expect(m.state == "preparing[1:prepared(r-a) 2:applied(w-b)]")
    }

    @Test("Durable commits make the oldest version committed, in order; an answer out of order changes nothing")
    func durableInOrder() throws {
        let m = Harness()
        let (a, preparer) = try #require(m.apply("a"))
        _ = m.apply("b")
        _ = try m.prepared(a, "r-a")
        let b = try #require(m.nextJob(for: preparer))
        _ = try m.prepared(b, "r-b")
        _ = m.nextJob(for: preparer)
        #expect(m.committed(b, later: false, .durable) == "none")
        #expect(m.committed(a, later: false, .durable) == "durable(1, r-a to c-a)")
        #expect(m.state == "committing[2:prepared(r-b)]")
        #expect(m.committed(b, later: false, .durable) == "durable(2, r-b to c-b)")
        #expect(m.state == "idle" && m.isIdle)
        #expect(m.headVersion(committed: 2) == 2)
    }

    @Test(
        "A failed commit drops its version and every one on top; their own answers then change nothing",
        arguments: [Machine.CommitOutcome.failed, .stale])
    func failedCommit(outcome: Machine.CommitOutcome) throws {
        let m = Harness()
        let (a, preparer) = try #require(m.apply("a"))
        _ = m.apply("b")
        _ = try m.prepared(a, "r-a")
        let b = try #require(m.nextJob(for: preparer))
        _ = try m.prepared(b, "r-b")
        _ = m.nextJob(for: preparer)
        let verb = outcome == .stale ? "stale" : "failed"
        #expect(m.committed(a, later: false, outcome) == "\(verb)(c-a,c-b)")
        #expect(m.state == "idle" && m.shell == nil)
        #expect(m.committed(b, later: false, .failed) == "none")
        #expect(m.committed(b, later: false, .durable) == "none")
    }

    @Test("Commits answered while the preparer works leave its next job the oldest applied version")
    func answersWhilePreparing() throws {
        let m = Harness()
        let (a, preparer) = try #require(m.apply("a"))
        _ = m.apply("b")
        _ = m.apply("c")
        _ = try m.prepared(a, "r-a")
        let b = try #require(m.nextJob(for: preparer))
        // 1 is durable while 2 is prepared: 3 is still the next job.
        #expect(m.committed(a, .durable) == "durable(1, r-a to c-a)")
        #expect(try m.prepared(b, "r-b") == false)
        let c = try #require(m.nextJob(for: preparer))
        #expect(c.number == 3 && c.work == "w-c" && c.followsPending && c.previous != nil)
        // 2's commit fails while 3 is prepared: 3 goes with it, and its late result queues nothing.
        #expect(m.committed(b, .failed) == "failed(c-b,c-c)")
        #expect(try m.prepared(c, "late") == nil)
        #expect(m.state == "preparing[]")
        // The next write is built on the committed version 1.
        #expect(m.apply("d", committed: 1) == nil)
        let d = try #require(m.nextJob(for: preparer))
        #expect(d.number == 2 && d.work == "w-d" && !d.followsPending && d.previous == nil)
        _ = try m.prepared(d, "r-d")
        #expect(m.nextJob(for: preparer) == nil)
        #expect(m.state == "committing[2:prepared(r-d)]")
    }

    @Test("A version that cannot be prepared fails with those on top; the preparer keeps its role until it asks for more")
    func preparationFailed() throws {
        let m = Harness()
        let (a, preparer) = try #require(m.apply("a"))
        _ = m.apply("b")
        #expect(m.preparationFailed(a) == ["c-a", "c-b"])
        #expect(m.state == "preparing[]" && m.isIdle)
        #expect(try m.prepared(a, "late") == nil, "dropped meanwhile: its commit is not queued")
        // Applied while the preparer still holds the role: it is the preparer's next job.
        #expect(m.apply("c") == nil)
        let c = try #require(m.nextJob(for: preparer))
        #expect(c.number == 1 && !c.followsPending)
        _ = try m.prepared(c, "r-c")
        #expect(m.nextJob(for: preparer) == nil)
        #expect(m.state == "committing[1:prepared(r-c)]")
    }

    @Test("A checkpoint goes off the handler threads unless the session's previous one is still on its way")
    func checkpoints() throws {
        let m = Harness()
        let (first, preparer) = try #require(m.apply("a", committed: 63))
        #expect(first.number == 64 && !first.checkpointNow)
        #expect(try m.prepared(first, "r-a") == true, "stored later")
        #expect(m.checkpointing)
        _ = m.nextJob(for: preparer)
        #expect(
            m.committed(first, later: true, .durable)
                == "durable(64, r-a to c-a, checkpoint)")
        #expect(m.checkpointing, "its checkpoint is being encoded now")
        let (second, _) = try #require(m.apply("b", committed: 127))
        #expect(second.number == 128 && second.checkpointNow, "encoded with its entry")
        #expect(try m.prepared(second, "r-b") == false)
        m.checkpointStored()
        #expect(!m.checkpointing)
    }

    @Test("A dropped version's answer still clears the checkpoint it left out")
    func droppedCheckpoint() throws {
        let m = Harness()
        let (a, _) = try #require(m.apply("a", committed: 63))
        _ = try m.prepared(a, "r-a")
        #expect(m.checkpointing)
        _ = m.committed(a, later: true, .failed)
        #expect(!m.checkpointing)
    }

    /// Two writers and a failure, every event and action in order: the whole action list.
    @Test func actionList() throws {
        let m = Harness()
        var log: [String] = []
        let (a, preparer) = try #require(m.apply("a"))
        log.append("apply a: prepare \(a.number)")
        log.append("apply b: \(m.apply("b") == nil ? "none" : "prepare")")
        log.append("prepared a: \(try m.prepared(a, "r-a").map { "commit(\($0))" } ?? "none")")
        let b = try #require(m.nextJob(for: preparer))
        log.append("next: \(b.number)")
        log.append("prepared b: \(try m.prepared(b, "r-b").map { "commit(\($0))" } ?? "none")")
        log.append("next: \(m.nextJob(for: preparer).map { "\($0.number)" } ?? "none")")
        log.append("commit a: " + m.committed(a, later: false, .durable))
        log.append("apply c: \(m.apply("c", committed: 1).map { "prepare \($0.0.number)" } ?? "none")")
        log.append("commit b: " + m.committed(b, later: false, .failed))
        log.append("state: " + m.state)
        #expect(
            log == [
                "apply a: prepare 1",
                "apply b: none",
                "prepared a: commit(false)",
                "next: 2",
                "prepared b: commit(false)",
                "next: none",
                "commit a: durable(1, r-a to c-a)",
                "apply c: prepare 3",
                "commit b: failed(c-b,c-c)",
                "state: preparing[]",
            ])
    }
}

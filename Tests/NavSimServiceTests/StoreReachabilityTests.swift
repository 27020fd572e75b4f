import JSONValues
import PostgreSQL
import Testing
@testable import NavSimService
@testable import SessionStorage

/// The rules behind `/readyz`'s 503, `navsim_store_up` and the outage's log lines (``StoreReachability``), with times given, not waited for.
@Suite("Store reachability")
struct StoreReachabilityTests {
    @Test("the last outcome reported wins: one failure makes the store unreachable, one success after it reachable again")
    func lastOutcomeWins() {
        let r = StoreReachability(probeIntervalMillis: 1_000)
        #expect(r.check(at: 0).reachable)
        r.attempted(reached: false, at: 10)
        #expect(!r.check(at: 20).reachable)
        r.attempted(reached: true, at: 30)
        #expect(r.check(at: 40).reachable)
    }

    @Test("a probe is asked for only once the last outcome is an interval old, and never two at a time")
    func probesAtMostOncePerInterval() {
        let r = StoreReachability(probeIntervalMillis: 1_000)
        #expect(r.check(at: 0).probe)  // nothing known yet
        #expect(!r.check(at: 1).probe)  // that probe is still running
        r.probeFinished(reached: false, at: 5)
        #expect(r.check(at: 500) == (reachable: false, probe: false))
        #expect(r.check(at: 1_005) == (reachable: false, probe: true))
        #expect(!r.check(at: 5_000).probe)
        r.probeFinished(reached: true, at: 5_010)
        // Traffic reports outcomes, so no probe is due while it flows.
        r.attempted(reached: true, at: 5_900)
        #expect(r.check(at: 6_100) == (reachable: true, probe: false))
    }

    private struct Refused: Error, CustomStringConvertible {
        var description: String { "connection refused" }
    }

    @Test(
        "an outage is two changes, whatever fails in it: unreachable with the first failure, then reachable again with how long and the reads and writes that failed (a probe's failure not counted)"
    )
    func outageIsTwoChanges() throws {
        let r = StoreReachability(probeIntervalMillis: 1_000)
        #expect(r.attempted(reached: true, at: 0) == nil)
        let down = try #require(r.attempted(reached: false, failed: .read, error: Refused(), at: 100))
        if case .unreachable(let error) = down { #expect("\(error)" == "connection refused") } else { Issue.record("\(down)") }
        #expect(r.attempted(reached: false, failed: .writes(8), error: Refused(), at: 200) == nil)
        #expect(r.attempted(reached: false, failed: .read, error: Refused(), at: 300) == nil)
        #expect(r.probeFinished(reached: false, error: Refused(), at: 400) == nil)
        let back = try #require(r.attempted(reached: true, at: 2_600))
        if case .reachableAgain(let millis, let reads, let writes) = back {
            #expect(millis == 2_500 && reads == 2 && writes == 8)
        } else {
            Issue.record("\(back)")
        }
        #expect(r.attempted(reached: true, at: 2_700) == nil)
        // The next outage counts from zero; a probe alone can show it, and its end.
        #expect(r.probeFinished(reached: false, at: 5_000) != nil)
        let again = try #require(r.probeFinished(reached: true, at: 5_250))
        if case .reachableAgain(let millis, let reads, let writes) = again {
            #expect(millis == 250 && reads == 0 && writes == 0)
        } else {
            Issue.record("\(again)")
        }
    }

    @Test("the log lines of the two changes: error 'store unreachable' with the driver's error and SQLSTATE, info 'store reachable again' with the counts")
    func changeLines() {
        let cause = PostgresError(sqlState: "57P01", message: "terminating connection due to administrator command")
        let down = JSON.object(ServerLog.line(.unreachable(error: StoreUnreachable(cause)), time: "T"))
        #expect(down["level"]?.string == "error" && down["message"]?.string == "store unreachable")
        #expect(down["sqlState"]?.string == "57P01")
        #expect(down["error"]?.string?.contains("administrator command") == true)
        let back = JSON.object(ServerLog.line(.reachableAgain(downMillis: 10_250, failedReads: 3, failedWrites: 40), time: "T"))
        #expect(back["level"]?.string == "info" && back["message"]?.string == "store reachable again")
        #expect(back["unreachableSeconds"]?.number == 10.25)
        #expect(back["failedReads"]?.number == 3 && back["failedWrites"]?.number == 40)
    }

    @Test(
        "an outcome of an operation that started before the one that decided the state is older news: it neither ends the outage nor starts a new one, and a late failure still counts while unreachable"
    )
    func olderNewsDoesNotFlip() throws {
        let r = StoreReachability()
        // A failure that started at 100 makes it unreachable; a success of an operation that
        // started at 50 (before the outage) reported late changes nothing.
        #expect(r.attempted(reached: false, failed: .read, error: Refused(), started: 100, at: 110) != nil)
        #expect(r.attempted(reached: true, started: 50, at: 120) == nil)
        #expect(!r.isReachable)
        #expect(r.attempted(reached: false, failed: .writes(2), error: Refused(), started: 90, at: 130) == nil)
        // A success that started at 200 ends it; a failure that started at 150, reported at
        // 260, is older than that success: no second outage, no second pair of lines.
        let back = try #require(r.attempted(reached: true, started: 200, at: 250))
        if case .reachableAgain(_, let reads, let writes) = back { #expect(reads == 1 && writes == 2) } else { Issue.record("\(back)") }
        #expect(r.attempted(reached: false, failed: .read, error: Refused(), started: 150, at: 260) == nil)
        #expect(r.isReachable)
        #expect(r.attempted(reached: false, failed: .read, error: Refused(), started: 300, at: 310) != nil)
    }
}

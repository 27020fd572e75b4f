import Testing
@testable import NavSimService

/// The rules behind `/healthz`'s 503 (``StoreReachability``), with times given, not waited for.
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
}

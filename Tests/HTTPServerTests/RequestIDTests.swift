import Dispatch
import Synchronization
import Testing

import HTTPServer

/// Fresh request ids (``RequestIDGenerator``): 15 characters, counting up within an instance, and
/// apart across instances even when two start in the same millisecond.
@Suite struct RequestIDTests {
    /// 2026-12-02T00:00:00Z, a start time for the generators below.
    static let start: UInt64 = 1_796_169_600_000

    static func isWellFormed(_ id: String) -> Bool {
        id.utf8.count == 15 && id.utf8.allSatisfy { RequestIDGenerator.alphabet.contains($0) }
    }

    @Test func twoInstancesStartedInTheSameMillisecondHandOutDifferentIDs() {
        // Before: both counters started at the same value, so both handed out the same ids.
        let a = RequestIDGenerator(startMilliseconds: Self.start, tag: 1)
        let b = RequestIDGenerator(startMilliseconds: Self.start, tag: 2)
        let fromA = (0..<20_000).map { _ in a.next() }
        let fromB = (0..<20_000).map { _ in b.next() }
        #expect(fromA.allSatisfy(Self.isWellFormed) && fromB.allSatisfy(Self.isWellFormed), "\(fromA[0]) \(fromB[0])")
        #expect(Set(fromA).count == fromA.count && Set(fromB).count == fromB.count, "an id repeated within one instance")
        #expect(Set(fromA).isDisjoint(with: fromB), "two instances handed out the same id")
        // The counter part is the same: only the tag (the last five characters) tells them apart.
        #expect(fromA[7].prefix(10) == fromB[7].prefix(10) && fromA[7].suffix(5) != fromB[7].suffix(5), "\(fromA[7]) \(fromB[7])")
    }

    @Test func idsCountUpAsStringsWithinAnInstanceAndAcrossARestart() {
        let first = RequestIDGenerator(startMilliseconds: Self.start, tag: 0x3FFF_FFFF)
        let ids = (0..<5_000).map { _ in first.next() }
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "ids do not sort in the order they were handed out")
        // The next run starts a millisecond later, with another tag: above every id the first
        // handed out (fewer than 2^20), whatever the tags.
        let restarted = RequestIDGenerator(startMilliseconds: Self.start + 1, tag: 0)
        #expect(restarted.next() > ids.last!, "a restart's first id sorts below the previous run's last")
        // Every character of the alphabet is used, and the counter carries from one into the next.
        #expect(RequestIDGenerator.format(63, tag: 0) == "---------z-----")
        #expect(RequestIDGenerator.format(64, tag: 63) == "--------0-----z")
        #expect(RequestIDGenerator.format(1 << 60 - 1, tag: 1 << 30 - 1) == String(repeating: "z", count: 15))
    }

    @Test func generatorsDrawTheirTagAtRandomAndShareNoIDsAcrossThreads() {
        // Two generators made as the process makes its own (a random tag): apart, but for a
        // chance of one in 2^30.
        let a = RequestIDGenerator(startMilliseconds: Self.start), b = RequestIDGenerator(startMilliseconds: Self.start)
        #expect(a.tag != b.tag && a.next() != b.next(), "tags \(a.tag) and \(b.tag)")
        #expect(a.tag < 1 << 30 && b.tag < 1 << 30)
        // One generator from 8 threads at once: every id once.
        let all = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let mine = (0..<2_000).map { _ in a.next() }
            all.withLock { $0 += mine }
        }
        let ids = all.withLock { $0 }
        #expect(ids.count == 16_000 && Set(ids).count == ids.count)
    }
}

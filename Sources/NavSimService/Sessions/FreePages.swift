import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Hands the pages the C allocator keeps free back to the kernel, after the session registry has
/// evicted a batch of sessions (RSS after a restart no larger than before it).
///
/// Why it is needed (measured, docs/deployment.md "Memory"): a loaded session is a few hundred
/// small allocations (its controllers' strings, arrays and dictionaries) made on whichever
/// libmicrohttpd or reader thread loaded it, and glibc serves each thread from one of up to
/// 8 × cores arenas. Eviction frees them in load order, which leaves free holes inside every
/// arena; glibc returns memory to the kernel only from an arena's top, so without help RSS stays
/// at the sum of every arena's high-water mark, not at what is in use. `malloc_trim(0)` walks
/// every arena and releases (`MADV_DONTNEED`) each whole free page inside it.
///
/// It is never called per request: ``SessionRegistry`` asks for it once per
/// ``SessionRegistry/freePagesEvery`` evictions, and it runs on its own serial queue, at most
/// one pass queued at a time and passes at least ``minimumInterval`` apart, so a burst of
/// evictions costs one pass. A pass walks every free chunk of every arena, each arena under its
/// lock, a pause that grows with the heap, which is why it is rationed. On a C library without `malloc_trim` (not glibc) it does nothing.
final class FreePages: Sendable {
    private let queue = DispatchQueue(label: "navsim.free-pages", qos: .utility)
    /// Whether a pass is queued or running.
    private let scheduled = Atomic<Bool>(false)
    /// When the last pass ended.
    private let lastPass = Mutex<ContinuousClock.Instant?>(nil)
    /// The least time from the end of one pass to the start of the next.
    let minimumInterval: Duration
    /// Passes run so far (tests).
    let passes = Atomic<Int>(0)

    /// - Parameter minimumInterval: the least time between two passes; 2 s unless given (tests give zero).
    init(minimumInterval: Duration = .seconds(2)) {
        self.minimumInterval = minimumInterval
    }

    /// Queues one pass unless one is already waiting; returns at once. A pass asked for within
    /// ``minimumInterval`` of the last one waits out the rest of it.
    func schedule() {
        guard !scheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let wait = lastPass.withLock { last in last.map { minimumInterval - (ContinuousClock.now - $0) } } ?? .zero
        let run: @Sendable () -> Void = { [self] in
            // Cleared first: evictions during the pass queue the next one.
            scheduled.store(false, ordering: .releasing)
            Self.releaseFreePages()
            lastPass.withLock { $0 = ContinuousClock.now }
            passes.add(1, ordering: .relaxed)
        }
        if wait > .zero {
            let (seconds, attoseconds) = wait.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: run)
        } else {
            queue.async(execute: run)
        }
    }

    /// Waits until the passes queued so far have run (tests).
    func waitForPasses() { queue.sync {} }

    /// One `malloc_trim(0)` (glibc, malloc.h), looked up at run time because Swift's Glibc module
    /// does not import malloc.h.
    static func releaseFreePages() {
        #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }
}

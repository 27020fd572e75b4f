#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CMicroHTTPD
import Synchronization

/// Fresh request ids (`X-Request-Id`): 15 characters of ``alphabet``, so an id is a small string
/// (Swift keeps up to 15 UTF-8 bytes inline: no heap allocation per request).
///
/// An id is 90 bits, 6 per character, most significant first:
/// - the first 10 characters (60 bits) are a counter that starts at the generator's start time,
///   milliseconds since 2024-01-01T00:00:00Z times 2^20, plus one per id. Within an instance ids
///   never repeat, and they count up: ``alphabet`` is in ASCII order, so a later id sorts after an
///   earlier one as a string. Across restarts they do not repeat either: the next process starts
///   above every id of the one before unless that one averaged more than 2^20 (about a million)
///   ids per millisecond of its life, or the wall clock was set back between the two;
/// - the last 5 characters (30 bits) are the instance's tag, drawn at random when the generator
///   is made. Two instances that run at once (or start in the same millisecond) may reach the
///   same counter value, but their ids differ in the tag, so they coincide only when both drew
///   the same tag: one chance in 2^30 (about a billion) for a pair of instances. The process id
///   would not do: in containers every instance is process 1.
public final class RequestIDGenerator: Sendable {
    /// 64 characters in ASCII order (RFC 4648's base64url set, sorted): `-`, digits, upper case, `_`, lower case.
    public static let alphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)
    /// 2024-01-01T00:00:00Z in milliseconds since 1970.
    public static let epochMilliseconds: UInt64 = 1_704_067_200_000

    private let counter: Atomic<UInt64>
    /// The instance's 30-bit tag, the ids' last 5 characters.
    public let tag: UInt32

    /// A generator whose counter starts at `startMilliseconds` (since 1970) and whose ids end in
    /// `tag` (its low 30 bits); by default a random tag (`SystemRandomNumberGenerator`).
    public init(startMilliseconds: UInt64, tag: UInt32 = UInt32.random(in: 0...(1 << 30) - 1)) {
        counter = Atomic(Self.start(nowMilliseconds: startMilliseconds))
        self.tag = tag & (1 << 30 - 1)
    }

    /// The first id's counter: the start time in milliseconds since ``epochMilliseconds``, shifted left 20 bits (60 bits kept).
    public static func start(nowMilliseconds: UInt64) -> UInt64 {
        ((nowMilliseconds &- epochMilliseconds) << 20) & (1 << 60 - 1)
    }

    /// The next id; any thread.
    public func next() -> String { Self.format(counter.wrappingAdd(1, ordering: .relaxed).oldValue, tag: tag) }

    /// `number`'s low 60 bits as 10 characters, then `tag`'s low 30 bits as 5.
    public static func format(_ number: UInt64, tag: UInt32) -> String {
        String(unsafeUninitializedCapacity: 15) { buffer in
            var z = number
            for i in stride(from: 9, through: 0, by: -1) {
                buffer[i] = alphabet[Int(z & 63)]
                z >>= 6
            }
            var t = tag
            for i in stride(from: 14, through: 10, by: -1) {
                buffer[i] = alphabet[Int(t & 63)]
                t >>= 6
            }
            return 15
        }
    }
}

/// The process's request ids: one ``RequestIDGenerator`` started when first used.
public enum RequestIDs {
    private static let shared: RequestIDGenerator = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return RequestIDGenerator(startMilliseconds: UInt64(now.tv_sec) * 1000 + UInt64(now.tv_nsec) / 1_000_000)
    }()

    /// The next id of this process.
    public static func next() -> String { shared.next() }
}

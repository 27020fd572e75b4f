#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Foundation

/// Times as navsim writes them, in rows (`created_at`, `history.at`) and in log lines: RFC 3339
/// in UTC with milliseconds, `2026-12-01T09:30:00.123Z`. The date comes from the day count
/// (proleptic Gregorian, Howard Hinnant's `civil_from_days`), written as ASCII digits: no
/// formatter (Foundation's ISO 8601 style is slow on every write), and not `gmtime_r`, which
/// takes glibc's time-zone lock on every call.
public enum RFC3339 {
    /// Now, from `clock_gettime(CLOCK_REALTIME)`.
    public static func now() -> String {
        var out: [UInt8] = []
        out.reserveCapacity(24)
        writeNow(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `date` to the nearest millisecond, a half rounded up (later), as Foundation's
    /// `ISO8601DateFormatter` writes it. Not rounded down: a `Date` is a `Double` of seconds
    /// since 2001, so an instant read from `1969-12-31T23:59:59.999Z` may lie a few hundred
    /// nanoseconds before .999, and rounding down wrote it as .998.
    public static func string(_ date: Date) -> String {
        let ms = Int((date.timeIntervalSince1970 * 1000 + 0.5).rounded(.down))
        let (s, m) = ms.quotientAndRemainder(dividingBy: 1000)
        var out: [UInt8] = []
        out.reserveCapacity(24)
        m < 0 ? write(seconds: s - 1, milliseconds: m + 1000, into: &out) : write(seconds: s, milliseconds: m, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends now to `out` (log lines build in place).
    public static func writeNow(into out: inout [UInt8]) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        write(seconds: Int(now.tv_sec), milliseconds: Int(now.tv_nsec) / 1_000_000, into: &out)
    }

    /// The UTC calendar fields of `seconds` since 1970: the one place the day count becomes a
    /// civil date (Howard Hinnant's `civil_from_days`), for every writer of these times.
    public static func fields(seconds: Int) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, inDay / 3600, inDay / 60 % 60, inDay % 60)
    }

    /// Appends `seconds` since 1970 (UTC) and `milliseconds` (0…999) past them.
    public static func write(seconds: Int, milliseconds: Int, into out: inout [UInt8]) {
        let t = fields(seconds: seconds)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            var v = value
            for _ in 0..<count {
                out.append(UInt8(ascii: "0") + UInt8(v / divisor % 10))
                v %= divisor
                divisor /= 10
            }
        }
        digits(t.year, 4)
        out.append(UInt8(ascii: "-"))
        digits(t.month, 2)
        out.append(UInt8(ascii: "-"))
        digits(t.day, 2)
        out.append(UInt8(ascii: "T"))
        digits(t.hour, 2)
        out.append(UInt8(ascii: ":"))
        digits(t.minute, 2)
        out.append(UInt8(ascii: ":"))
        digits(t.second, 2)
        out.append(UInt8(ascii: "."))
        digits(milliseconds, 3)
        out.append(UInt8(ascii: "Z"))
    }
}

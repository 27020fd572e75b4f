import Foundation
import Testing

import NavSimService

/// The one writer of navsim's times (rows and log lines) against Foundation's ISO 8601
/// formatter, over dates that exercise the civil-date arithmetic: leap days, century years,
/// the epoch and before it.
@Suite struct RFC3339Tests {
    /// A formatter of its own per call: `ISO8601DateFormatter` is not `Sendable`.
    static func formatter() -> ISO8601DateFormatter {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        f.timeZone = TimeZone(identifier: "UTC")
        return f
    }

    @Test(arguments: [
        "1970-01-01T00:00:00.000Z", "1969-12-31T23:59:59.000Z", "1969-07-20T20:17:40.000Z", "2000-02-29T12:34:56.789Z",
        "1900-03-01T00:00:00.001Z", "2024-12-31T23:59:59.500Z", "2026-12-01T09:30:00.123Z",
        "2100-02-28T23:59:59.000Z", "1600-02-29T00:00:00.000Z",
    ])
    func writesWhatFoundationReads(_ text: String) throws {
        let date = try #require(Self.formatter().date(from: text))
        #expect(RFC3339.string(date) == text)
        let seconds = Int((date.timeIntervalSince1970 * 1000).rounded()).quotientAndRemainder(dividingBy: 1000)
        let whole = seconds.remainder < 0 ? seconds.quotient - 1 : seconds.quotient
        let f = RFC3339.fields(seconds: whole)
        let parts = text.split(whereSeparator: { "-T:.Z".contains($0) }).map { Int($0)! }
        #expect([f.year, f.month, f.day, f.hour, f.minute, f.second] == Array(parts[0..<6]))
    }

    /// Milliseconds before 1970, from 1600 up to the last one before the epoch: each written as
    /// Foundation writes it, and read back by Foundation and written again unchanged. (Rounded
    /// down, `Date`'s `Double` put some of these, `23:59:59.999` among them, 1 ms early.)
    @Test func millisecondsBefore1970WriteAsFoundationWritesThem() throws {
        let f = Self.formatter()
        // 1600-01-01 is -11_676_096_000 s; a step that is no round number reaches every
        // millisecond digit and time of day; the last ones before 0 are taken one by one.
        let spaced = stride(from: -11_676_096_000_000, to: 0, by: 5_838_047_123)
        for ms in Array(spaced) + Array(-2_000 ... -1) {
            let date = Date(timeIntervalSince1970: Double(ms) / 1000)
            let expected = f.string(from: date)
            #expect(RFC3339.string(date) == expected, "\(ms) ms")
            let read = try #require(f.date(from: expected))
            #expect(RFC3339.string(read) == expected, "\(expected) read back")
        }
    }

    /// Instants between two milliseconds, before 1970 (and a few after): rounded to the nearest
    /// millisecond, a half up (later), as Foundation's formatter rounds them, the carry into the
    /// next second, minute and day included.
    @Test func subMillisecondInstantsRoundAsFoundationRoundsThem() {
        let f = Self.formatter()
        let whole = Array(stride(from: -11_676_096_000_000, to: 0, by: 97_300_017_311)) + [-86_400_000, -60_000, -1_000, -1, 0, 1_000]
        for ms in whole {
            for fraction in [0.0001, 0.25, 0.4999, 0.5001, 0.75, 0.9999] {
                let date = Date(timeIntervalSince1970: (Double(ms) - fraction) / 1000)
                #expect(RFC3339.string(date) == f.string(from: date), "\(ms) ms - \(fraction)")
            }
        }
    }
}

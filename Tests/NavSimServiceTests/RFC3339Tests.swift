import Foundation
import Testing

@testable import NavSimService

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
        let seconds = Int((date.timeIntervalSince1970 * 1000).rounded(.down)).quotientAndRemainder(dividingBy: 1000)
        let whole = seconds.remainder < 0 ? seconds.quotient - 1 : seconds.quotient
        let f = RFC3339.fields(seconds: whole)
        let parts = text.split(whereSeparator: { "-T:.Z".contains($0) }).map { Int($0)! }
        #expect([f.year, f.month, f.day, f.hour, f.minute, f.second] == Array(parts[0..<6]))
    }
}

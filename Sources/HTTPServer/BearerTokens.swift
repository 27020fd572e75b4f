import Synchronization

/// Accepted bearer tokens (RFC 6750) and the check of an `Authorization` field against them.
///
/// Comparison takes the same time whichever token matches and wherever a wrong one differs:
/// every byte of every accepted token is compared, with no early exit. Only the count of tokens
/// and their lengths could be told from timing, never their bytes. A token is never part of
/// `description`, so it cannot reach a log by accident.
public struct BearerTokens: Sendable, CustomStringConvertible {
    /// What an `Authorization` field amounts to.
    public enum Verdict: Sendable, Equatable {
        /// One of the accepted tokens was sent.
        case accepted
        /// No `Authorization: Bearer …` field (RFC 6750 §3.1: answer without an error code).
        case missing
        /// A bearer token was sent, but it is not accepted (RFC 6750 §3.1 `invalid_token`).
        case invalid
    }

    private let tokens: [[UInt8]]

    /// `tokens`: each non-empty after trimming spaces and tabs; empty ones are dropped.
    public init(_ tokens: [String]) {
        self.tokens = tokens.map { Array(Substring($0).trimmed(" \t").utf8) }.filter { !$0.isEmpty }
    }

    /// The tokens of a token file's text: one a line, spaces around it ignored; blank lines
    /// and lines starting with `#` are skipped.
    public static func tokens(inFile text: String) -> [String] {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map { $0.trimmed(" \t") }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// No tokens: authentication is off.
    public var isEmpty: Bool { tokens.isEmpty }

    /// Whether `token` (trimmed of spaces and tabs) can be sent at all: RFC 6750 §2.1's
    /// `b64token`, `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`. A configured
    /// token outside it (a space inside, a quote) could never be accepted.
    public static func isSendable(_ token: String) -> Bool {
        let bytes = Array(Substring(token).trimmed(" \t").utf8)
        let body = bytes.prefix { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                true
            default: false
            }
        }
        return !body.isEmpty && bytes[body.count...].allSatisfy { $0 == UInt8(ascii: "=") }
    }
    public var count: Int { tokens.count }

    public var description: String { "BearerTokens(\(tokens.count) token\(tokens.count == 1 ? "" : "s"))" }

    /// Checks `Authorization` field values (every line the request sent). The scheme name is
    /// case-insensitive (RFC 9110 §11.1); the token is compared exactly.
    public func verdict(authorization values: [String]) -> Verdict {
        var sent: [UInt8]?
        for value in values {
            let bytes = Array(Substring(value).trimmed(" \t").utf8)
            guard bytes.count > 7, HTTPHeaders.sameName(String(decoding: bytes[..<6], as: UTF8.self), "Bearer"),
                bytes[6] == 0x20
            else { continue }
            sent = Array(bytes[7...].drop { $0 == 0x20 })
            break
        }
        guard let sent else { return .missing }
        return accepts(sent) ? .accepted : .invalid
    }

    /// Constant-time membership: compares `candidate` with every token, all bytes, no early exit.
    func accepts(_ candidate: [UInt8]) -> Bool {
        var matched: UInt8 = 0
        for token in tokens {
            var diff: UInt8 = token.count == candidate.count ? 0 : 1
            let n = Swift.max(token.count, candidate.count)
            for i in 0..<n {
                let a = i < token.count ? token[i] : 0
                let b = i < candidate.count ? candidate[i] : 0
                diff |= a ^ b
            }
            matched |= diff == 0 ? 1 : 0
        }
        return matched == 1
    }
}

/// The tokens a server accepts now, replaceable while libmicrohttpd's threads check requests
/// against them (`navsim serve` re-reads its token file on SIGHUP). Each check reads the whole
/// set under the lock, so it sees either the old tokens or the new ones, never a mix.
///
/// Fails closed: once there are tokens, a replacement without any is refused, so a reload can
/// never turn authentication off.
public final class ReloadableTokens: Sendable {
    private let held: Mutex<BearerTokens>

    public init(_ tokens: BearerTokens) { held = Mutex(tokens) }

    /// The tokens accepted at this moment.
    public var current: BearerTokens { held.withLock { $0 } }

    /// Accepts `tokens` from now on, unless they are empty while the current ones are not.
    /// - Returns: whether `tokens` replaced the current ones.
    @discardableResult
    public func replace(with tokens: BearerTokens) -> Bool {
        held.withLock { current in
            guard !tokens.isEmpty || current.isEmpty else { return false }
            current = tokens
            return true
        }
    }
}

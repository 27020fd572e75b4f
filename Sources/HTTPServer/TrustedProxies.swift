#if canImport(Glibc)
import Glibc
#endif
// `in6_addr` reaches Swift through libmicrohttpd's header, which includes <netinet/in.h>.
import CMicroHTTPD

/// The proxies whose `X-Forwarded-For` is believed, as addresses and CIDR blocks
/// (RFC 4632; `10.0.0.0/8`, `2001:db8::/32`, or one address), and the client a request comes
/// from given them.
///
/// `X-Forwarded-For` is a list each proxy appends its peer to, so only its right-most entries,
/// those written by proxies the operator runs, can be believed: anyone can send the header with
/// any text in it. The client is therefore the right-most entry that is not a trusted proxy,
/// reading from the connection's peer leftwards while the hop is trusted (the rule of RFC 7239
/// §5.2's `for` chain, which `X-Forwarded-For` predates). With no trusted proxies, or an untrusted
/// peer, the header is ignored and the client is the peer.
public struct TrustedProxies: Sendable, Equatable {
    /// One address block: the network's bytes (4 for IPv4, 16 for IPv6) and its prefix length.
    struct Block: Sendable, Equatable {
        let network: [UInt8]
        let prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == network.count else { return false }
            var bits = prefix
            for (a, n) in zip(address, network) {
                guard bits > 0 else { return true }
                let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
                if a & mask != n & mask { return false }
                bits -= 8
            }
            return true
        }
    }

    let blocks: [Block]

    /// No proxy is trusted: the client is always the peer.
    public static let none = TrustedProxies(blocks: [])

    init(blocks: [Block]) { self.blocks = blocks }

    /// Parses a comma-separated list of addresses and CIDR blocks (spaces around items allowed,
    /// empty list: none).
    /// - Throws: ``TrustedProxiesError`` naming the first item that is neither.
    public init(parsing list: String) throws(TrustedProxiesError) {
        var blocks: [Block] = []
        for item in list.split(separator: ",") {
            let text = item.trimmingSpaces
            guard !text.isEmpty else { continue }
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let address = Self.address(String(parts[0])) else { throw TrustedProxiesError(item: text) }
            var prefix = address.count * 8
            if parts.count == 2 {
                guard !parts[1].isEmpty, parts[1].allSatisfy(\.isASCIIDigit), let bits = Int(parts[1]),
                    bits <= address.count * 8
                else { throw TrustedProxiesError(item: text) }
                prefix = bits
            }
            blocks.append(Block(network: address, prefix: prefix))
        }
        self.blocks = blocks
    }

    public var isEmpty: Bool { blocks.isEmpty }

    /// Whether `address` (text) is one of the trusted proxies; false for anything not an address.
    public func trusts(_ address: String) -> Bool {
        guard let bytes = Self.address(address) else { return false }
        return blocks.contains { $0.contains(bytes) }
    }

    /// The client of a request from `peer` that carried the `X-Forwarded-For` field lines
    /// `forwardedFor` (several lines are one list, in order, RFC 9110 §5.3): the peer when it is
    /// not trusted; else the right-most entry that is not trusted. An entry that is not an
    /// address (`unknown`, an obfuscated name, garbage) ends the walk: the client is then the
    /// nearest trusted hop, never unchecked text. When every entry is trusted, the left-most.
    public func client(peer: String?, forwardedFor: [String]) -> String? {
        guard let peer, !blocks.isEmpty, !forwardedFor.isEmpty, trusts(peer) else { return peer }
        var client = peer
        for line in forwardedFor.reversed() {
            for entry in line.split(separator: ",").reversed() {
                let text = entry.trimmingSpaces
                if text.isEmpty { continue }
                guard let bytes = Self.address(text) else { return client }
                client = text
                if !blocks.contains(where: { $0.contains(bytes) }) { return client }
            }
        }
        return client
    }

    /// The bytes of an IPv4 (4) or IPv6 (16) address in its text form (`inet_pton`), an
    /// IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) as the IPv4 one it stands for; nil otherwise.
    static func address(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }
}

/// A `--trusted-proxies` item that is neither an IP address nor a CIDR block.
public struct TrustedProxiesError: Error, Sendable, CustomStringConvertible {
    public let item: String
    public var description: String {
        "'\(item)' is not an IPv4 or IPv6 address or a CIDR block (such as 10.0.0.0/8 or fd00::/8)"
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (OWS, RFC 9110 §5.6.3).
    fileprivate var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

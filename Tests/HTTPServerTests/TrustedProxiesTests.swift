import HTTPServer
import Testing

/// `--trusted-proxies` lists and the client they give a request (``TrustedProxies``), through the
/// public API the request log uses.
@Suite struct TrustedProxiesTests {
    @Test func listsOfAddressesAndBlocks() throws {
        let proxies = try TrustedProxies(parsing: " 10.0.0.0/8 ,192.168.1.7,, fd00::/8, 0.0.0.0/0 ")
        #expect(proxies.trusts("10.255.0.1") && proxies.trusts("192.168.1.7") && proxies.trusts("fd12::3"))
        #expect(proxies.trusts("203.0.113.9"), "0.0.0.0/0 is every IPv4 address")
        #expect(!proxies.trusts("2001:db8::1") && !proxies.trusts("not-an-address"))
        #expect(try TrustedProxies(parsing: "").isEmpty)
        // An IPv4-mapped IPv6 address is the IPv4 address it carries.
        #expect(try TrustedProxies(parsing: "127.0.0.1").trusts("::ffff:127.0.0.1"))
        #expect(try TrustedProxies(parsing: "10.1.0.0/16").trusts("10.1.200.3"))
        #expect(try !TrustedProxies(parsing: "10.1.0.0/16").trusts("10.2.0.1"))
        #expect(try TrustedProxies(parsing: "10.0.0.0/13").trusts("10.7.255.255"))
        #expect(try !TrustedProxies(parsing: "10.0.0.0/13").trusts("10.8.0.0"))
        for bad in ["10.0.0.0/33", "::/129", "10.0.0.1/", "10.0.0.1/-1", "10.0.0.1/ 8", "proxy", "10.0.0", "1.2.3.4:80"] {
            #expect(throws: TrustedProxiesError.self, "\(bad)") { try TrustedProxies(parsing: bad) }
        }
    }

    @Test func theClientIsTheRightMostUntrustedHop() throws {
        let proxies = try TrustedProxies(parsing: "10.0.0.0/8")
        #expect(proxies.client(peer: "10.0.0.2", forwardedFor: ["1.1.1.1, 2.2.2.2, 10.0.0.3"]) == "2.2.2.2")
        #expect(proxies.client(peer: "10.0.0.2", forwardedFor: ["1.1.1.1", " 2.2.2.2 ,10.0.0.3"]) == "2.2.2.2")
        #expect(proxies.client(peer: "10.0.0.2", forwardedFor: ["10.0.0.9, 10.0.0.3"]) == "10.0.0.9")
        #expect(proxies.client(peer: "10.0.0.2", forwardedFor: ["1.1.1.1, unknown"]) == "10.0.0.2")
        #expect(proxies.client(peer: "10.0.0.2", forwardedFor: []) == "10.0.0.2")
        // An untrusted peer's header says nothing; none configured, nothing is believed.
        #expect(proxies.client(peer: "203.0.113.1", forwardedFor: ["1.1.1.1"]) == "203.0.113.1")
        #expect(TrustedProxies.none.client(peer: "10.0.0.2", forwardedFor: ["1.1.1.1"]) == "10.0.0.2")
        #expect(proxies.client(peer: nil, forwardedFor: ["1.1.1.1"]) == nil)
    }
}

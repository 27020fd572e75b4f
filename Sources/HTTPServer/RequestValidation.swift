import CMicroHTTPD

/// The framing and routing fields of one request's header section, read in one pass over the
/// fields (no String made): every `Content-Length` line and every `Host` line.
///
/// libmicrohttpd 0.9.75 frames the body by the first `Content-Length` line and ignores the
/// others, and serves an HTTP/1.1 request without `Host`; these checks sit beside the
/// Transfer-Encoding one in the access handler's first call.
struct HeadFields {
    /// `Host` field lines seen.
    var hostLines = 0
    /// `Content-Length` field lines seen.
    var contentLengthLines = 0
    /// The one length every `Content-Length` value agrees on, once one is read.
    var contentLength: Int?
    /// Two values differ, or one is not a number: RFC 9112 §6.3 item 5, unrecoverable.
    var contentLengthConflict = false

    /// Reads `connection`'s header fields.
    init(_ connection: OpaquePointer) {
        withUnsafeMutablePointer(to: &self) { pointer in
            _ = MHD_get_connection_values_n(
                connection, .HEADER_KIND,
                { cls, _, key, keySize, value, valueSize in
                    guard let cls, let key else { return .YES }
                    let fields = cls.assumingMemoryBound(to: HeadFields.self)
                    let name = UnsafeRawBufferPointer(start: key, count: keySize)
                    if HeadFields.named(name, "host") {
                        fields.pointee.hostLines += 1
                    } else if HeadFields.named(name, "content-length") {
                        fields.pointee.addContentLength(UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : valueSize))
                    }
                    return .YES
                }, pointer)
        }
    }

    /// Fields from `(name, value)` pairs (tests).
    init(pairs: [(String, String)]) {
        for (name, value) in pairs {
            var name = name
            var value = value
            name.withUTF8 { name in
                let raw = UnsafeRawBufferPointer(name)
                if Self.named(raw, "host") { hostLines += 1 } else if Self.named(raw, "content-length") { value.withUTF8 { addContentLength(UnsafeRawBufferPointer($0)) } }
            }
        }
    }

    /// Adds one `Content-Length` line: a number, or a comma-separated list of them
    /// (RFC 9110 §5.6.1; RFC 9112 §6.3 item 5 accepts a list only if every member is the same).
    mutating func addContentLength(_ value: UnsafeRawBufferPointer) {
        contentLengthLines += 1
        var number = 0
        var digits = 0
        func close() {
            guard digits > 0 else { contentLengthConflict = true; return }
            if let known = contentLength, known != number { contentLengthConflict = true }
            contentLength = number
        }
        for byte in value {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (times10, o1) = number.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                number = o1 || o2 ? Int.max : next
                digits += 1
            case UInt8(ascii: ","):
                close()
                number = 0
                digits = 0
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                continue
            default:
                contentLengthConflict = true
            }
        }
        close()
    }

    /// The refusal this header section earns, or `nil`.
    ///
    /// - Differing `Content-Length` values: 400, RFC 9112 §6.3 item 5 (the reader cannot know
    ///   where the body ends, so the connection must close). Repeated identical values are
    ///   accepted (§6.3 allows it): libmicrohttpd frames by the first, which is every one.
    /// - An HTTP/1.1 request without `Host`, or any request with more than one: 400, RFC 9112
    ///   §3.2. HTTP/1.0 without `Host` is served.
    func refusal(version: String) -> HTTPResponse? {
        if contentLengthConflict {
            return transportProblem(
                400, "Bad Request",
                "The Content-Length values differ or are not numbers (RFC 9112 §6.3).")
        }
        if hostLines > 1 {
            return transportProblem(400, "Bad Request", "A request must carry one Host field, not several (RFC 9112 §3.2).")
        }
        if hostLines == 0, version != "HTTP/1.0", version != "HTTP/0.9" {
            return transportProblem(400, "Bad Request", "An HTTP/1.1 request must carry a Host field (RFC 9112 §3.2).")
        }
        return nil
    }

    /// ASCII case-insensitive: is `name` the lower-case `expected`?
    static func named(_ name: UnsafeRawBufferPointer, _ expected: StaticString) -> Bool {
        guard name.count == expected.utf8CodeUnitCount else { return false }
        return expected.withUTF8Buffer { wanted in
            for i in 0..<name.count {
                let byte = name[i]
                let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                if lower != wanted[i] { return false }
            }
            return true
        }
    }
}

/// A request target in absolute form (`http://host:port/path`, RFC 9112 §3.2.2), split into the
/// path to route by and the authority that replaces `Host`; `nil` for the origin form (`/path`)
/// and every other form.
func absoluteFormTarget(_ target: String) -> (authority: String, path: String)? {
    var text = target
    return text.withUTF8 { bytes -> (String, String)? in
        let scheme: Int
        if HeadFields.named(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.prefix(7))), "http://") {
            scheme = 7
        } else if HeadFields.named(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.prefix(8))), "https://") {
            scheme = 8
        } else {
            return nil
        }
        var end = scheme
        while end < bytes.count, bytes[end] != UInt8(ascii: "/") { end += 1 }
        let authority = String(decoding: UnsafeBufferPointer(rebasing: bytes[scheme..<end]), as: UTF8.self)
        let path = end < bytes.count ? String(decoding: UnsafeBufferPointer(rebasing: bytes[end...]), as: UTF8.self) : "/"
        return (authority, path)
    }
}

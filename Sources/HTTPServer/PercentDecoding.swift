/// Decodes `%HH` escapes (RFC 3986 §2.1). A `%` not followed by two hex digits stays as written
/// (``malformedPercentEscape(in:)`` finds one, for a handler that refuses it); the bytes are then
/// read as UTF-8 with U+FFFD for invalid sequences, so no input can trap.
func percentDecoded<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
    guard bytes.contains(UInt8(ascii: "%")) else {
        return String(decoding: bytes, as: UTF8.self)
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = bytes.startIndex
    while i != bytes.endIndex {
        let byte = bytes[i]
        if byte == UInt8(ascii: "%") {
            let h = bytes.index(after: i)
            if h != bytes.endIndex, let high = hexValue(bytes[h]) {
                let l = bytes.index(after: h)
                if l != bytes.endIndex, let low = hexValue(bytes[l]) {
                    out.append(high << 4 | low)
                    i = bytes.index(after: l)
                    continue
                }
            }
        }
        out.append(byte)
        i = bytes.index(after: i)
    }
    return String(decoding: out, as: UTF8.self)
}

private func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
    default: nil
    }
}

/// The first `%` in `text` that does not begin an escape of two hex digits (RFC 3986 §2.1: `%zz`,
/// `%4`, a `%` at the end), with the up to two characters after it, as written; nil when every
/// `%` begins one.
public func malformedPercentEscape(in text: String) -> String? {
    var text = text
    return text.withUTF8 { bytes -> String? in
        guard bytes.contains(UInt8(ascii: "%")) else { return nil }
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%") {
                if i + 2 < bytes.count, hexValue(bytes[i + 1]) != nil, hexValue(bytes[i + 2]) != nil {
                    i += 3
                    continue
                }
                let end = min(i + 3, bytes.count)
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self)
            }
            i += 1
        }
        return nil
    }
}

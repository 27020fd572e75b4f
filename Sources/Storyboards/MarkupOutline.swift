/// Where each element of a document sits in its bytes: the element's extent, its start tag, and
/// each attribute's extent with its value, so that a tool can rewrite a few attributes or move
/// whole elements and leave every other byte of the file as it was (docs/refactor.md).
///
/// It reads markup boundaries only, like ``MarkupScan``: tags, quoted attribute values,
/// comments, CDATA, processing instructions and declarations. Build it from bytes that
/// ``StoryboardParser`` accepted, which are then known to be well-formed UTF-8 XML within its
/// limits; anything that does not balance gives nil rather than a wrong outline.
public struct MarkupOutline: Sendable {
    /// One attribute of a start tag.
    public struct Attribute: Sendable, Equatable {
        /// The name as written (`storyboardIdentifier`).
        public var name: String
        /// The value as an XML parser reports it: references replaced, and literal tabs and line
        /// ends turned into spaces (XML 1.0 §3.3.3).
        public var value: String
        /// From the whitespace before the name to just past the closing quote, so that removing
        /// the range removes the attribute cleanly.
        public var range: Range<Int>
        /// The value with its quotes.
        public var valueRange: Range<Int>
    }

    /// One element.
    public struct Element: Sendable {
        /// The name as written.
        public var name: String
        /// From `<` of the start tag to just past `>` of the end tag (or of `/>`).
        public var range: Range<Int>
        /// From `<` to just past `>` of the start tag.
        public var startTag: Range<Int>
        /// Just before the `/>` or `>` that closes the start tag: where an attribute is appended.
        public var attributesEnd: Int
        /// In document order.
        public var attributes: [Attribute]
        /// Index of the enclosing element in ``MarkupOutline/elements``; nil for the root.
        public var parent: Int?
        /// Indices of the child elements, in document order.
        public var children: [Int]

        /// The value of attribute `name`, if the element has it.
        public func attribute(_ name: String) -> String? {
            attributes.first { $0.name == name }?.value
        }
    }

    /// Every element in document order; the root element is at index 0.
    public private(set) var elements: [Element]

    /// Indices of `element`'s descendants (itself included), in document order. Elements are
    /// stored in document order, so they are the indices that follow it inside its range.
    public func subtree(_ element: Int) -> Range<Int> {
        var end = element + 1
        while end < elements.count, elements[end].range.lowerBound < elements[element].range.upperBound { end += 1 }
        return element..<end
    }

    /// Outlines `data`; nil when its tags do not balance or a start tag cannot be read.
    public init?(_ data: [UInt8]) {
        guard let elements = data.withUnsafeBufferPointer({ Self.scan($0) }), !elements.isEmpty else { return nil }
        self.elements = elements
    }

    private static let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), slash = UInt8(ascii: "/")
    private static let bang = UInt8(ascii: "!"), question = UInt8(ascii: "?"), equals = UInt8(ascii: "=")
    private static let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'")

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    private static func scan(_ b: UnsafeBufferPointer<UInt8>) -> [Element]? {
        let n = b.count
        var elements: [Element] = []
        var open: [Int] = []
        var i = 0

        func hasPrefix(_ prefix: StaticString, at position: Int) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard position + count <= n else { return false }
            return prefix.withUTF8Buffer { p in
                for k in 0..<count where b[position + k] != p[k] { return false }
                return true
            }
        }
        func skip(past terminator: StaticString, from: Int) -> Int? {
            var j = from
            while j < n {
                if hasPrefix(terminator, at: j) { return j + terminator.utf8CodeUnitCount }
                j += 1
            }
            return nil
        }
        func name(from start: Int) -> Int {
            var j = start
            while j < n, !isSpace(b[j]), b[j] != gt, b[j] != slash, b[j] != equals { j += 1 }
            return j
        }
        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self)
        }

        while i < n {
            guard b[i] == lt else { i += 1; continue }
            if hasPrefix("<?", at: i) {
                guard let next = skip(past: "?>", from: i + 2) else { return nil }
                i = next
            } else if hasPrefix("<!--", at: i) {
                guard let next = skip(past: "-->", from: i + 4) else { return nil }
                i = next
            } else if hasPrefix("<![CDATA[", at: i) {
                guard let next = skip(past: "]]>", from: i + 9) else { return nil }
                i = next
            } else if i + 1 < n, b[i + 1] == bang {
                guard let next = skip(past: ">", from: i + 2) else { return nil }
                i = next
            } else if i + 1 < n, b[i + 1] == slash {
                let end = name(from: i + 2)
                guard let next = skip(past: ">", from: end), let top = open.popLast(),
                    elements[top].name == text((i + 2)..<end)
                else { return nil }
                elements[top].range = elements[top].range.lowerBound..<next
                i = next
            } else {
                let start = i
                let nameEnd = name(from: i + 1)
                guard nameEnd > i + 1 else { return nil }
                var attributes: [Attribute] = []
                var j = nameEnd
                var closed = false
                var selfClosing = false
                var attributesEnd = j
                while j < n {
                    let spaceStart = j
                    while j < n, isSpace(b[j]) { j += 1 }
                    guard j < n else { return nil }
                    if b[j] == gt {
                        attributesEnd = spaceStart
                        closed = true
                        j += 1
                        break
                    }
                    if b[j] == slash {
                        attributesEnd = spaceStart
                        guard j + 1 < n, b[j + 1] == gt else { return nil }
                        closed = true
                        selfClosing = true
                        j += 2
                        break
                    }
                    guard j > spaceStart else { return nil }  // attributes are separated by whitespace
                    let attributeNameEnd = name(from: j)
                    guard attributeNameEnd > j else { return nil }
                    var k = attributeNameEnd
                    while k < n, isSpace(b[k]) { k += 1 }
                    guard k < n, b[k] == equals else { return nil }
                    k += 1
                    while k < n, isSpace(b[k]) { k += 1 }
                    guard k < n, b[k] == quote || b[k] == apostrophe else { return nil }
                    let delimiter = b[k]
                    var close = k + 1
                    while close < n, b[close] != delimiter { close += 1 }
                    guard close < n else { return nil }
                    attributes.append(
                        Attribute(
                            name: text(j..<attributeNameEnd), value: decode(b, (k + 1)..<close),
                            range: spaceStart..<(close + 1), valueRange: k..<(close + 1)))
                    j = close + 1
                }
                guard closed else { return nil }
                let index = elements.count
                elements.append(
                    Element(
                        name: text((start + 1)..<nameEnd), range: start..<j, startTag: start..<j,
                        attributesEnd: attributesEnd, attributes: attributes, parent: open.last, children: []))
                if let parent = open.last { elements[parent].children.append(index) }
                // A second root element is not XML; the parser refuses it, so refuse it here too.
                if open.isEmpty, index > 0 { return nil }
                if !selfClosing { open.append(index) }
                i = j
            }
        }
        return open.isEmpty ? elements : nil
    }

    /// An attribute value as an XML parser reports it (XML 1.0 §3.3.3): the predefined and
    /// numeric character references replaced, literal whitespace characters turned into spaces.
    private static func decode(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var i = range.lowerBound
        while i < range.upperBound {
            let c = b[i]
            if c == 0x0D {
                out.append(0x20)
                i += (i + 1 < range.upperBound && b[i + 1] == 0x0A) ? 2 : 1
                continue
            }
            if c == 0x09 || c == 0x0A { out.append(0x20); i += 1; continue }
            guard c == UInt8(ascii: "&") else { out.append(c); i += 1; continue }
            var end = i + 1
            while end < range.upperBound, b[end] != UInt8(ascii: ";") { end += 1 }
            let entity = String(decoding: UnsafeBufferPointer(rebasing: b[(i + 1)..<end]), as: UTF8.self)
            var scalar: Unicode.Scalar?
            switch entity {
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "amp": scalar = "&"
            case "quot": scalar = "\""
            case "apos": scalar = "'"
            default:
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if entity.hasPrefix("#") {
                    scalar = UInt32(entity.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
                }
            }
            if let scalar, end < range.upperBound {
                out += Array(String(Character(scalar)).utf8)
                i = end + 1
            } else {
                out.append(c)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A single linear pass over a document's bytes, before the XML library parses it: counts the
/// attributes of every start tag, the elements and their nesting, and finds anything after the
/// root element's end. It only recognises markup boundaries (tags, quoted attribute values,
/// comments, CDATA, processing instructions); well-formedness is left to the XML library, which
/// then parses a document already known to be within ``StoryboardParser/Limits``.
///
/// Why a pre-scan: libxml2 compares each attribute of an element with the ones before it, so an
/// element's cost grows with the square of its attribute count (80,000 attributes: 10.9 s), all
/// before any delegate callback could stop it.
enum MarkupScan {
    /// - Throws: `.limitExceeded` (attributes, elements), `.tooDeeplyNested`, `.contentAfterDocument`.
    static func check(_ data: [UInt8], limits: StoryboardParser.Limits) throws(StoryboardError) {
        let outcome: Result<Void, StoryboardError> = data.withUnsafeBufferPointer { bytes in
            do throws(StoryboardError) {
                try scan(bytes, limits: limits)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try outcome.get()
    }

    private static let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), slash = UInt8(ascii: "/")
    private static let bang = UInt8(ascii: "!"), question = UInt8(ascii: "?"), equals = UInt8(ascii: "=")
    private static let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'")

    private static func scan(_ b: UnsafeBufferPointer<UInt8>, limits: StoryboardParser.Limits) throws(StoryboardError) {
        let n = b.count
        var i = 0
        var depth = 0
        var elements = 0
        var rootClosed = false

        func hasPrefix(_ prefix: StaticString, at position: Int) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard position + count <= n else { return false }
            return prefix.withUTF8Buffer { p in
                for k in 0..<count where b[position + k] != p[k] { return false }
                return true
            }
        }
        /// Index just past the next `terminator` at or after `from` (the end when there is none).
        func skip(past terminator: StaticString, from: Int) -> Int {
            var j = from
            let first = terminator.withUTF8Buffer { $0[0] }
            while j < n {
                if b[j] == first, hasPrefix(terminator, at: j) { return j + terminator.utf8CodeUnitCount }
                j += 1
            }
            return n
        }
        /// 1-based line and column of `offset`, counted only when an error is reported.
        func position(_ offset: Int) -> (line: Int, column: Int) {
            var line = 1, lineStart = 0
            for k in 0..<min(offset, n) where b[k] == UInt8(ascii: "\n") {
                line += 1
                lineStart = k + 1
            }
            return (line, offset - lineStart + 1)
        }
        func after(_ what: String, at offset: Int) -> StoryboardError {
            .contentAfterDocument(what: what, line: position(offset).line, byteOffset: offset)
        }

        while i < n {
            let c = b[i]
            guard c == lt else {
                if rootClosed, c != 0x20, c != 0x09, c != 0x0A, c != 0x0D {
                    throw after(c == 0 ? "a NUL byte" : "text", at: i)
                }
                i += 1
                continue
            }
            let start = i
            if hasPrefix("<?", at: i) {
                i = skip(past: "?>", from: i + 2)
            } else if hasPrefix("<!--", at: i) {
                i = skip(past: "-->", from: i + 4)
            } else if hasPrefix("<![CDATA[", at: i) {
                if rootClosed { throw after("a CDATA section", at: start) }
                i = skip(past: "]]>", from: i + 9)
            } else if i + 1 < n, b[i + 1] == bang {
                // A declaration (<!DOCTYPE is refused by the prolog check before this runs).
                if rootClosed { throw after("a declaration", at: start) }
                i = skip(past: ">", from: i + 2)
            } else if i + 1 < n, b[i + 1] == slash {
                i = skip(past: ">", from: i + 2)
                depth -= 1
                if depth <= 0, elements > 0 { rootClosed = true }
            } else {
                if rootClosed {
                    var end = i + 1
                    while end < n, end - i <= 64, b[end] != gt, b[end] != slash, b[end] > 0x20 { end += 1 }
                    let name = String(decoding: UnsafeBufferPointer(rebasing: b[(i + 1)..<end]), as: UTF8.self)
                    throw after("an element <\(name)>", at: start)
                }
                elements += 1
                if elements > limits.elements {
                    throw .limitExceeded(
                        limit: .elementsPerDocument, max: limits.elements,
                        line: position(start).line, byteOffset: start)
                }
                // The start tag: count `=` outside quoted values, up to the closing `>`.
                var attributes = 0
                var j = i + 1
                var previous: UInt8 = 0
                while j < n, b[j] != gt {
                    let d = b[j]
                    if d == quote || d == apostrophe {
                        j += 1
                        while j < n, b[j] != d { j += 1 }
                    } else if d == equals {
                        attributes += 1
                        if attributes > limits.attributesPerElement {
                            throw .limitExceeded(
                                limit: .attributesPerElement, max: limits.attributesPerElement,
                                line: position(start).line, byteOffset: start)
                        }
                    }
                    if d > 0x20 { previous = d }
                    j += 1
                }
                i = j + 1
                if previous == slash {
                    if depth == 0 { rootClosed = true }
                } else {
                    depth += 1
                    if depth > limits.elementDepth {
                        let (line, column) = position(start)
                        throw .tooDeeplyNested(limit: limits.elementDepth, line: line, column: column)
                    }
                }
            }
        }
    }
}

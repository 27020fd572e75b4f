import Foundation

// embed-text INPUT OUTPUT NAME: writes a Swift file declaring `let NAME: [UInt8]` with INPUT's
// bytes, for the EmbedOpenAPI build plugin (Plugins/EmbedOpenAPI). Text goes in as a raw
// multi-line string literal, which the compiler takes in a moment at any size (an array literal
// of 200,000 numbers takes it minutes); bytes a string literal cannot carry exactly (not UTF-8,
// a carriage return, which a literal turns into a line feed, other control characters) fall
// back to an array literal.

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: embed-text INPUT OUTPUT NAME\n".utf8))
    exit(2)
}
let (input, output, name) = (arguments[1], arguments[2], arguments[3])
guard let data = FileManager.default.contents(atPath: input) else {
    FileHandle.standardError.write(Data("embed-text: cannot read \(input)\n".utf8))
    exit(1)
}
let bytes = [UInt8](data)

var source = "// Generated from \((input as NSString).lastPathComponent) by embed-text at build time; do not edit.\n\n"
let isPlainText =
    String(validating: bytes, as: UTF8.self) != nil
    && bytes.allSatisfy { $0 >= 0x20 && $0 != 0x7F || $0 == 0x0A || $0 == 0x09 }
if isPlainText, let text = String(validating: bytes, as: UTF8.self) {
    // In a raw string with n `#`s only `\` and `"""` followed by n `#`s are special: one more
    // than the longest run of `#` in the text makes every byte literal.
    var longest = 0, run = 0
    for b in bytes {
        run = b == UInt8(ascii: "#") ? run + 1 : 0
        longest = max(longest, run)
    }
    let hashes = String(repeating: "#", count: longest + 1)
    // The line break before the closing delimiter is not part of the value.
    source += "let \(name): [UInt8] = Array(\(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes).utf8)\n"
} else {
    source += "let \(name): [UInt8] = [\n"
    for start in stride(from: 0, to: bytes.count, by: 16) {
        source += "    " + bytes[start..<min(start + 16, bytes.count)].map { "0x" + String($0, radix: 16) }.joined(separator: ", ") + ",\n"
    }
    source += "]\n"
}
do {
    try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("embed-text: cannot write \(output): \(error)\n".utf8))
    exit(1)
}

/// Where an element starts in a storyboard file: 1-based line and column, as XMLParser reports
/// them when it has read the element's start tag (libxml2 gives the position just past the tag's
/// `>`; the line is the one editors and Xcode show for the element when the tag fits on one line).
public struct SourcePosition: Sendable, Equatable, Hashable {
    /// 1-based line.
    public var line: Int
    /// 1-based column (0 when the parser does not know it).
    public var column: Int

    /// Builds a position.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

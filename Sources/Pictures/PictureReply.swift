/// A reply as the pictures read it: a JSON value with ordered object members (RFC 8259). The
/// pictures are drawn from what a route answers, never from core values, so that a picture says
/// what the JSON says (docs/pictures.md); the service's `JSON` conforms as it is.
public protocol PictureReply {
    /// The member named `key` of an object; nil for a missing member or a value that is no object.
    subscript(key: String) -> Self? { get }
    /// The text of a string; nil for any other value.
    var string: String? { get }
    /// The value of a number; nil for any other value.
    var number: Double? { get }
    /// The value of `true` or `false`; nil for any other value.
    var bool: Bool? { get }
    /// The elements of an array; nil for any other value.
    var array: [Self]? { get }
    /// An object's members in the order the reply has them; nil for any other value.
    var object: [(String, Self)]? { get }
}

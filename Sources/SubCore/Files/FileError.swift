/// The one shape of a subfix error: the file it is about (when there is one), where in it when that is known (a
/// line and column such as `42:14`, or a time), and the cause in plain words. `description` is the one way it is
/// written, `file:position: cause`, which the command line prints after `subfix: error: `.
public protocol FileError: Error, Sendable, CustomStringConvertible {
    /// The file, as the user named it.
    var file: String? { get }
    /// Where in the file, when known.
    var position: String? { get }
    /// What went wrong, without the file or the position.
    var cause: String { get }
}

extension FileError {
    public var position: String? { nil }

    public var description: String {
        let place = [file, position].compactMap { $0 }.joined(separator: ":")
        return place.isEmpty ? cause : place + ": " + cause
    }
}

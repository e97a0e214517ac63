import Foundation
import SubCore

/// The environment variables a command reads: the process's own, looked up one by one when asked, or a fixed
/// set (tests, a worker's job). Not a copy of the whole environment: building that dictionary cost a short
/// command such as `search` about half a millisecond.
struct Environment: Sendable, ExpressibleByDictionaryLiteral {
    private let fixed: [String: String]?

    /// The process's environment, read through `getenv` at each lookup.
    static let process = Environment(fixed: nil)

    private init(fixed: [String: String]?) { self.fixed = fixed }

    /// A fixed set of variables.
    init(dictionaryLiteral elements: (String, String)...) {
        fixed = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    /// The variable's value, nil when it is not set. Bytes that are not UTF-8 are kept (`PathBytes`), so a
    /// path in `HOME` or `SUBFIX_DB` still names its file.
    subscript(name: String) -> String? {
        if let fixed { return fixed[name] }
        return getenv(name).map { PathBytes.decode(cString: $0) }
    }
}

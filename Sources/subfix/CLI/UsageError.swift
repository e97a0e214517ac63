/// A command line that cannot be understood, kept as data and turned into text in one place.
enum UsageError: Error, Equatable, Sendable {
    case unknownCommand(String, suggestion: String?)
    case missingCommand
    case unknownOption(String, command: String, suggestion: String?)
    case missingValue(option: String, placeholder: String)
    case unexpectedValue(option: String)
    case missingArgument(command: String, name: String)
    case unexpectedArgument(command: String, argument: String)
    case invalidValue(option: String, value: String, expected: String)
    case conflictingOptions([String])
    case missingOneOf(command: String, options: [String])
    /// An option that means something only together with another one (`--font` without `--fix`).
    case needsOption(String, requires: String)
    /// An option that means nothing in this command line, with what would give it a meaning.
    case meaningless(String, without: String)

    /// The one line printed after `subfix: error: `.
    var message: String {
        switch self {
        case .unknownCommand(let name, let suggestion):
            return "unknown command '\(name)'" + hint(suggestion)
        case .missingCommand:
            return "missing command (see 'subfix --help')"
        case .unknownOption(let option, let command, let suggestion):
            let scope = command.isEmpty ? "" : " for '\(command)'"
            return "unknown option '\(option)'\(scope)" + hint(suggestion)
        case .missingValue(let option, let placeholder):
            return "option '--\(option)' needs a value (\(placeholder))"
        case .unexpectedValue(let option):
            return "option '--\(option)' takes no value"
        case .missingArgument(let command, let name):
            return "'\(command)' needs \(name)"
        case .unexpectedArgument(let command, let argument):
            return "'\(command)' does not take the argument '\(argument)'"
        case .invalidValue(let option, let value, let expected):
            return "invalid value '\(value)' for '--\(option)' (expected \(expected))"
        case .conflictingOptions(let options):
            return "options " + options.map { "'--\($0)'" }.joined(separator: ", ") + " cannot be used together"
        case .missingOneOf(let command, let options):
            return "'\(command)' needs one of " + options.map { "'--\($0)'" }.joined(separator: ", ")
        case .meaningless(let option, let without):
            return "option '--\(option)' means nothing without \(without)"
        case .needsOption(let option, let required):
            return "option '--\(option)' needs '--\(required)'"
        }
    }

    /// `missingOneOf` for typed keys.
    static func missingOneOf(command: String, keys: [OptionKey]) -> UsageError {
        .missingOneOf(command: command, options: keys.map(\.name))
    }

    private func hint(_ suggestion: String?) -> String {
        suggestion.map { " (did you mean '\($0)'?)" } ?? ""
    }
}

/// Suggests the candidate nearest to `word` by edit distance, when it is near enough to be a typo.
func nearestCandidate(to word: String, in candidates: [String]) -> String? {
    let scored = candidates.map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    return best.1 <= max(1, word.count / 3) ? best.0 : nil
}

/// Levenshtein distance over Unicode scalars.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars)
    let b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

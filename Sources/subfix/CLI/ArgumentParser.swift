/// A command line split into tokens before any meaning is given to them.
enum Token: Equatable, Sendable {
    /// `--name` or `--name=value`.
    case long(name: String, value: String?)
    /// `-x`; clusters such as `-hv` are split into one token per letter.
    case short(Character)
    /// Anything else, including everything after `--`.
    case positional(String)
}

/// Splits argv into tokens. `--` ends option parsing; a lone `-` is a positional (standard input).
func tokenize(_ arguments: [String]) -> [Token] {
    var tokens: [Token] = []
    var optionsEnded = false
    for argument in arguments {
        if argument == "-0" && !optionsEnded {
            tokens.append(.short("0"))  // `-0`: NUL-separated paths on standard input, as xargs -0
        } else if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
            tokens.append(.positional(argument))
        } else if argument == "--" {
            optionsEnded = true
        } else if argument.hasPrefix("--") {
            let body = argument.dropFirst(2)
            if let equals = body.firstIndex(of: "=") {
                tokens.append(.long(name: String(body[..<equals]), value: String(body[body.index(after: equals)...])))
            } else {
                tokens.append(.long(name: String(body), value: nil))
            }
        } else if argument.dropFirst().allSatisfy({ $0.isNumber || $0 == "." || $0 == ":" }) {
            tokens.append(.positional(argument))  // a negative number such as -5
        } else {
            for letter in argument.dropFirst() { tokens.append(.short(letter)) }
        }
    }
    return tokens
}

/// The result of parsing one command's arguments against its row of the table.
struct ParsedArguments: Sendable, Equatable {
    var command: String
    var positionals: [String] = []
    /// Values of options in the order given; a flag holds one empty string per occurrence.
    var values: [String: [String]] = [:]
    /// Values from the user's config file (`UserConfig`) for options of this command: `value` and `all` fall back
    /// to them when the option is not given; `has` and `given` do not see them.
    var defaults: [String: [String]] = [:]

    /// Whether a flag (or any option) was given on the command line.
    func has(_ key: OptionKey) -> Bool { values[key.name] != nil }
    /// The value of a single-valued option: the last one given, as in GNU tools, else the config file's.
    func value(_ key: OptionKey) -> String? { values[key.name]?.last ?? defaults[key.name]?.last }
    /// Every value of a repeatable option, in order: the command line's, else the config file's.
    func all(_ key: OptionKey) -> [String] { values[key.name] ?? defaults[key.name] ?? [] }
    /// The value given on the command line only (for an option whose environment variable comes between the
    /// command line and the config file, such as `--db` and `SUBFIX_DB`).
    func given(_ key: OptionKey) -> String? { values[key.name]?.last }
    /// The config file's value only.
    func configured(_ key: OptionKey) -> String? { defaults[key.name]?.last }

    /// The value of an option parsed as a whole number within `range`.
    func integer(_ key: OptionKey, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(key) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw .invalidValue(
                option: key.name, value: text,
                expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// The value of an option that must be one of `choices`.
    func choice(_ key: OptionKey, _ choices: [String]) throws(UsageError) -> String? {
        guard let text = value(key) else { return nil }
        guard choices.contains(text) else {
            throw .invalidValue(option: key.name, value: text, expected: choices.joined(separator: ", "))
        }
        return text
    }

    /// Throws unless at most one of `keys` was given.
    func exclusive(_ keys: [OptionKey]) throws(UsageError) {
        let given = keys.filter(has)
        if given.count > 1 { throw .conflictingOptions(given.map(\.name)) }
    }
}

/// Parses one command's tokens against its spec.
func parse(_ tokens: [Token], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
    var result = ParsedArguments(command: spec.name)
    var index = 0
    // A single-value option given again replaces its value (the last one wins, as in GNU tools).
    func record(_ option: OptionSpec, _ value: String) throws(UsageError) {
        result.values[option.name, default: []].append(value)
    }
    while index < tokens.count {
        let token = tokens[index]
        index += 1
        switch token {
        case .positional(let text):
            result.positionals.append(text)
        case .long(let name, let inlineValue):
            guard let option = spec.option(named: name) else {
                throw .unknownOption(
                    "--" + name, command: spec.name,
                    suggestion: nearestCandidate(to: name, in: spec.options.map(\.name)).map { "--" + $0 })
            }
            switch option.kind {
            case .flag:
                if inlineValue != nil { throw .unexpectedValue(option: name) }
                try record(option, "")
            case .value(let placeholder):
                if let inlineValue {
                    try record(option, inlineValue)
                } else if index < tokens.count, case .positional(let next) = tokens[index] {
                    index += 1
                    try record(option, next)
                } else {
                    throw .missingValue(option: name, placeholder: placeholder)
                }
            }
        case .short(let letter):
            guard let option = spec.option(short: letter) else {
                throw .unknownOption("-" + String(letter), command: spec.name, suggestion: nil)
            }
            switch option.kind {
            case .flag:
                try record(option, "")
            case .value(let placeholder):
                guard index < tokens.count, case .positional(let next) = tokens[index] else {
                    throw .missingValue(option: option.name, placeholder: placeholder)
                }
                index += 1
                try record(option, next)
            }
        }
    }
    if result.has(.help) { return result }
    let minimum = spec.positionals.reduce(0) { $0 + $1.minimum }
    let unbounded = spec.positionals.contains { $0.maximum == nil }
    let maximum = spec.positionals.reduce(0) { $0 + ($1.maximum ?? 0) }
    if result.positionals.count < minimum {
        let missing = spec.positionals.first { $0.minimum > 0 }?.name ?? "an argument"
        throw .missingArgument(command: spec.name, name: missing)
    }
    if !unbounded && result.positionals.count > maximum {
        throw .unexpectedArgument(command: spec.name, argument: result.positionals[maximum])
    }
    return result
}

import Foundation

/// What a shell should offer for the value of an option or for a command's arguments, read from the
/// placeholder the command table shows in `--help` (`DIR`, `FILE.png`, `text|all|cjk|missing`).
enum CompletionValue: Equatable, Sendable {
    /// Free text (`N`, `TEXT`, `NAME`): nothing to offer.
    case none
    /// Folder names.
    case directory
    /// File names (and folders, to walk into).
    case file
    /// These words; `auto|NAME` offers `auto` while still taking any name.
    case choices([String])

    /// The value for `placeholder`.
    init(placeholder: String) {
        let parts = placeholder.split(separator: "|").map(String.init)
        if parts.count > 1 {
            // Literal words only (`text`, `utf8`); `NAME` and anything a shell could read as syntax are free text.
            let words = parts.filter { word in
                word.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || "-._".contains($0)) }
            }
            self = words.isEmpty ? .none : .choices(words)
            return
        }
        let base = placeholder.split(separator: ".").first.map(String.init) ?? placeholder
        switch base {
        case "DIR": self = .directory
        case "FILE", "PATH", "INPUT", "DB": self = .file
        default: self = .none
        }
    }

    /// What an option's value takes (`.none` for a flag, which takes no value).
    init(option: OptionSpec) {
        if case .value(let placeholder) = option.kind {
            self.init(placeholder: placeholder)
        } else {
            self = .none
        }
    }

    /// What a command's arguments take: files for `PATH`, `FILE` and `INPUT`, nothing for a `QUERY`.
    init(arguments spec: CommandSpec) {
        self = spec.positionals.contains { CompletionValue(placeholder: $0.name) == .file } ? .file : .none
    }

    /// The first sentence of a help text, for the one-line descriptions shells show beside each candidate.
    static func shortHelp(_ help: String) -> String {
        var sentence = help
        if let end = help.range(of: ". ") { sentence = String(help[..<end.lowerBound]) }
        if sentence.hasSuffix(".") { sentence.removeLast() }
        return sentence
    }
}

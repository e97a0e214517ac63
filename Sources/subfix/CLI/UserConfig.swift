import Foundation
import SubCore

/// The defaults a user sets once, from `$XDG_CONFIG_HOME/subfix/config` (else `~/.config/subfix/config`): one
/// `key = value` a line, `#` comment lines and blank lines ignored. A value counts for every command that has the
/// option of that name, when the command line does not give it: a flag beats the environment (`SUBFIX_DB`), which
/// beats the file, which beats the built-in default.
///
///     # ~/.config/subfix/config
///     font = Noto Sans CJK TC
///     policy = all
///     db = ~/subs/library.sqlite
///     fonts-dir = ~/fonts        (may be given more than once)
struct UserConfig: Sendable, Equatable {
    /// The keys the file may hold (the options they are defaults for), in the order the man page lists them;
    /// `fonts-dir` may be given more than once, each line adding a folder.
    static let keys: [OptionKey] = [.font, .policy, .db, .fontsDir]

    /// Checks and normalizes the value of `key` (`~/` expanded against `home`).
    static func check(_ key: OptionKey, _ value: String, home: String?) throws(ConfigFileError.Cause) -> String {
        switch key {
        case .font:
            guard RewriteOptions.isValidFont(value) else {
                throw .invalidValue(value, expected: RewriteOptions.fontExpectation)
            }
            return value
        case .policy:
            guard RewriteOptions.policies.contains(value) else {
                throw .invalidValue(value, expected: RewriteOptions.policies.joined(separator: ", "))
            }
            return value
        case .db:
            return PostgresBackend.isURL(value) ? value : try absolutePath(value, home: home)
        case .fontsDir:
            return try absolutePath(value, home: home)
        default:
            return value
        }
    }

    /// The file read, nil when there is none.
    var path: String?
    /// The values by option name, in file order (the last one counts for a single-value option).
    var values: [String: [String]] = [:]

    /// Where the file is: `$XDG_CONFIG_HOME/subfix/config` when that is an absolute path, else
    /// `$HOME/.config/subfix/config`; nil when neither is set.
    static func location(environment: Environment) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/subfix/config" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/subfix/config"
    }

    /// The user's config file, read without blocking (`InputFile`); no file gives empty defaults. A file that
    /// cannot be read (a folder, a FIFO) or holds a malformed line throws. One the user may not read (or under a
    /// home folder they may not read: another user's `$HOME`, a service account's) gives empty defaults, and
    /// `warn` is told why: the command runs as it would without the file.
    static func load(
        environment: Environment, warn: (ConfigFileError) -> Void = { _ in }
    ) throws(ConfigFileError) -> UserConfig {
        guard let path = location(environment: environment) else { return UserConfig() }
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path).bytes
        } catch {
            if case .system(_, let code) = error.problem, code == ENOENT || code == ENOTDIR { return UserConfig() }
            let unreadable = ConfigFileError(path: path, line: nil, cause: .unreadable(error.cause))
            if case .system(_, let code) = error.problem, code == EACCES || code == EPERM {
                warn(unreadable)
                return UserConfig()
            }
            throw unreadable
        }
        return try parse(bytes, path: path, home: environment["HOME"])
    }

    /// The file's lines as defaults; `path` names the file in errors.
    static func parse(_ bytes: [UInt8], path: String, home: String?) throws(ConfigFileError) -> UserConfig {
        var config = UserConfig(path: path)
        for (index, rawLine) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .enumerated()
        {
            let number = index + 1
            guard let text = String(validating: rawLine, as: UTF8.self), !text.contains("\0") else {
                throw ConfigFileError(path: path, line: number, cause: .notUTF8)
            }
            let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigFileError(path: path, line: number, cause: .missingEquals(line))
            }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard let key = keys.first(where: { $0.name == name }) else {
                throw ConfigFileError(path: path, line: number, cause: .unknownKey(name))
            }
            guard !value.isEmpty else { throw ConfigFileError(path: path, line: number, cause: .emptyValue(name)) }
            let checked: String
            do {
                checked = try check(key, value, home: home)
            } catch {
                throw ConfigFileError(path: path, line: number, cause: error)
            }
            if key == .fontsDir {
                config.values[name, default: []].append(checked)
            } else {
                config.values[name] = [checked]
            }
        }
        return config
    }

    /// The values for the options `spec` has, as defaults for its parsed arguments.
    func defaults(for spec: CommandSpec) -> [String: [String]] {
        values.filter { spec.option(named: $0.key) != nil }
    }

    /// `value` as an absolute path: `~/x` is `$HOME/x`; a relative path is refused (relative to what?).
    private static func absolutePath(_ value: String, home: String?) throws(ConfigFileError.Cause) -> String {
        if value.hasPrefix("/") { return value }
        if value.hasPrefix("~/"), let home, !home.isEmpty { return home + value.dropFirst() }
        throw .invalidValue(value, expected: "an absolute path or one starting with ~/")
    }
}

/// A config file that cannot be used: printed as `subfix: error: <file>:<line>: <cause>`, exit 2 (a usage error:
/// nothing runs with defaults the user did not mean).
struct ConfigFileError: Error, Sendable, Equatable {
    /// What is wrong with the file or one of its lines.
    enum Cause: Error, Sendable, Equatable {
        case unreadable(String)
        case notUTF8
        case missingEquals(String)
        case unknownKey(String)
        case emptyValue(String)
        case invalidValue(String, expected: String)
    }

    var path: String
    /// The 1-based line, nil for the whole file.
    var line: Int?
    var cause: Cause

    /// `~/.config/subfix/config:3`
    var location: String { path + (line.map { ":\($0)" } ?? "") }

    /// The cause in words.
    var message: String {
        switch cause {
        case .unreadable(let reason): return reason
        case .notUTF8: return "the line is not text (invalid UTF-8 or a NUL byte)"
        case .missingEquals(let line): return "expected 'key = value', found '\(line)'"
        case .unknownKey(let name):
            return "unknown key '\(name)' (known: " + UserConfig.keys.map(\.name).joined(separator: ", ") + ")"
        case .emptyValue(let name): return "'\(name)' has no value"
        case .invalidValue(let value, let expected): return "invalid value '\(value)' (expected \(expected))"
        }
    }
}

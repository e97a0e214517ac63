import Foundation

/// A JSON value as the tests read subfix's output: integers kept apart from other numbers, object keys in order
/// (a duplicate key is a parse error).
enum ParsedJSON: Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([ParsedJSON])
    case object([(String, ParsedJSON)])

    static func == (lhs: ParsedJSON, rhs: ParsedJSON) -> Bool { "\(lhs)" == "\(rhs)" }

    /// The value of `key` in an object.
    subscript(key: String) -> ParsedJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// Parses one JSON text (one line of `--json` output).
    static func parse(_ text: String) throws -> ParsedJSON {
        var parser = Parser(scalars: Array(text.unicodeScalars))
        let value = try parser.value()
        parser.skipBlanks()
        guard parser.position == parser.scalars.count else { throw parser.failure("trailing characters") }
        return value
    }

    /// A small strict JSON parser: enough to tell `1` from `1.0` and to catch duplicate keys.
    private struct Parser {
        let scalars: [Unicode.Scalar]
        var position = 0

        func failure(_ what: String) -> SchemaFailure { SchemaFailure("JSON: \(what) at \(position)") }

        mutating func skipBlanks() {
            while position < scalars.count, [" ", "\t", "\n", "\r"].contains(scalars[position]) { position += 1 }
        }

        mutating func expect(_ word: String) throws {
            for scalar in word.unicodeScalars {
                guard position < scalars.count, scalars[position] == scalar else { throw failure("expected \(word)") }
                position += 1
            }
        }

        mutating func value() throws -> ParsedJSON {
            skipBlanks()
            guard position < scalars.count else { throw failure("unexpected end") }
            switch scalars[position] {
            case "n":
                try expect("null")
                return .null
            case "t":
                try expect("true")
                return .bool(true)
            case "f":
                try expect("false")
                return .bool(false)
            case "\"": return .string(try string())
            case "[":
                position += 1
                var items: [ParsedJSON] = []
                skipBlanks()
                if position < scalars.count, scalars[position] == "]" {
                    position += 1
                    return .array(items)
                }
                while true {
                    items.append(try value())
                    skipBlanks()
                    guard position < scalars.count else { throw failure("unclosed array") }
                    position += 1
                    if scalars[position - 1] == "]" { return .array(items) }
                    guard scalars[position - 1] == "," else { throw failure("expected , or ]") }
                }
            case "{":
                position += 1
                var members: [(String, ParsedJSON)] = []
                skipBlanks()
                if position < scalars.count, scalars[position] == "}" {
                    position += 1
                    return .object(members)
                }
                while true {
                    skipBlanks()
                    let key = try string()
                    if members.contains(where: { $0.0 == key }) { throw failure("duplicate key \(key)") }
                    skipBlanks()
                    try expect(":")
                    members.append((key, try value()))
                    skipBlanks()
                    guard position < scalars.count else { throw failure("unclosed object") }
                    position += 1
                    if scalars[position - 1] == "}" { return .object(members) }
                    guard scalars[position - 1] == "," else { throw failure("expected , or }") }
                }
            default: return try number()
            }
        }

        mutating func string() throws -> String {
            try expect("\"")
            var out = String.UnicodeScalarView()
            while position < scalars.count {
                let scalar = scalars[position]
                position += 1
                switch scalar {
                case "\"": return String(out)
                case "\\":
                    guard position < scalars.count else { throw failure("unfinished escape") }
                    let escaped = scalars[position]
                    position += 1
                    switch escaped {
                    case "n": out.append("\n")
                    case "t": out.append("\t")
                    case "r": out.append("\r")
                    case "b": out.append("\u{8}")
                    case "f": out.append("\u{C}")
                    case "u":
                        guard position + 4 <= scalars.count,
                            let code = UInt32(
                                String(String.UnicodeScalarView(scalars[position..<position + 4])), radix: 16)
                        else { throw failure("bad \\u escape") }
                        position += 4
                        out.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    default: out.append(escaped)
                    }
                case _ where scalar.value < 0x20: throw failure("raw control character in a string")
                default: out.append(scalar)
                }
            }
            throw failure("unclosed string")
        }

        mutating func number() throws -> ParsedJSON {
            let start = position
            while position < scalars.count, "-+.eE0123456789".unicodeScalars.contains(scalars[position]) {
                position += 1
            }
            let text = String(String.UnicodeScalarView(scalars[start..<position]))
            if let integer = Int64(text) { return .integer(integer) }
            if let number = Double(text), !text.isEmpty { return .number(number) }
            throw failure("not a value: \(text)")
        }
    }
}

/// A mismatch between output and docs/json.md, or a malformed table there.
struct SchemaFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The object types of docs/json.md, per command: `## \`command\`` sections, `### type` (or `### type (nested)`)
/// headings, and `| \`key\` | types | yes/no | meaning |` rows.
struct JSONSchemaDocument {
    /// One key of an object type.
    struct Key {
        var name: String
        /// Alternatives: `string`, `integer`, `number`, `boolean`, `null`, `object`, `array of T`, `"constant"`.
        var types: [String]
        var required: Bool
    }

    /// One object type: its keys in order.
    struct ObjectType {
        var name: String
        var nested: Bool
        var keys: [Key]
    }

    /// Object types by section: the command name, or "" for the section that applies to every command.
    var sections: [String: [ObjectType]] = [:]

    /// The repository's docs/json.md.
    static let path = URL(fileURLWithPath: SubfixBinary.samples).deletingLastPathComponent()
        .appendingPathComponent("docs/json.md").path

    static func load(_ path: String = JSONSchemaDocument.path) throws -> JSONSchemaDocument {
        try JSONSchemaDocument(markdown: String(contentsOfFile: path, encoding: .utf8))
    }

    init(markdown: String) throws {
        var section: String?
        var current: ObjectType?
        func flush() {
            if let current, let section { sections[section, default: []].append(current) }
            current = nil
        }
        var inFence = false
        for raw in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") { inFence.toggle() }
            if inFence { continue }
            if line.hasPrefix("## ") {
                flush()
                let title = line.dropFirst(3)
                section = title.hasPrefix("`") ? title.trimmingCharacters(in: CharacterSet(charactersIn: "`")) : ""
            } else if line.hasPrefix("### ") {
                flush()
                let title = line.dropFirst(4)
                let nested = title.hasSuffix("(nested)")
                let name = title.replacingOccurrences(of: "(nested)", with: "").trimmingCharacters(in: .whitespaces)
                current = ObjectType(name: name, nested: nested, keys: [])
            } else if line.hasPrefix("| `"), current != nil {
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                guard cells.count >= 4 else { throw SchemaFailure("docs/json.md: short row: \(line)") }
                let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                let types = cells[2].components(separatedBy: " or ").map {
                    $0.trimmingCharacters(in: CharacterSet(charactersIn: "` "))
                }
                guard ["yes", "no"].contains(cells[3]) else {
                    throw SchemaFailure("docs/json.md: '\(cells[3])' is neither yes nor no: \(line)")
                }
                current?.keys.append(Key(name: name, types: types, required: cells[3] == "yes"))
            }
        }
        flush()
    }

    /// The printed (not nested) object types of `command`, and of every command.
    func printed(by command: String) -> [ObjectType] {
        ((sections[command] ?? []) + (sections[""] ?? [])).filter { !$0.nested }
    }

    /// The nested type `name`, looked up in `command`'s section first.
    func nested(_ name: String, command: String) -> ObjectType? {
        let all = (sections[command] ?? []) + sections.values.flatMap { $0 }
        return all.first { $0.nested && $0.name == name }
    }

    /// Every mismatch between one line of `command --json` output and the docs (empty when it matches).
    func problems(line: String, command: String) -> [String] {
        let value: ParsedJSON
        do { value = try ParsedJSON.parse(line) } catch { return ["\(command): \(error): \(line)"] }
        guard case .string(let type)? = value["type"] else { return ["\(command): no string `type` key: \(line)"] }
        guard let schema = printed(by: command).first(where: { $0.name == type }) else {
            return ["\(command): object type '\(type)' is not documented: \(line)"]
        }
        return check(value, against: schema, command: command, at: "\(command) \(type)")
    }

    private func check(_ value: ParsedJSON, against schema: ObjectType, command: String, at place: String) -> [String] {
        guard case .object(let members) = value else { return ["\(place): not an object"] }
        var problems: [String] = []
        for key in schema.keys where key.required && !members.contains(where: { $0.0 == key.name }) {
            problems.append("\(place): required key '\(key.name)' is missing")
        }
        for (name, member) in members {
            guard let key = schema.keys.first(where: { $0.name == name }) else {
                problems.append("\(place): key '\(name)' is not documented")
                continue
            }
            let results = key.types.map { matches(member, type: $0, command: command, at: "\(place).\(name)") }
            if !results.contains(where: \.isEmpty) {
                problems.append(
                    "\(place): '\(name)' is \(member), not \(key.types.joined(separator: " or "))"
                        + (results.first { !$0.isEmpty }.map { " (" + $0.joined(separator: "; ") + ")" } ?? ""))
            }
        }
        return problems
    }

    /// Empty when `value` is of `type`; else why not.
    private func matches(_ value: ParsedJSON, type: String, command: String, at place: String) -> [String] {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("integer", .integer), ("number", .integer), ("number", .number),
            ("string", .string), ("object", .object), ("array", .array):
            return []
        case (_, .string(let text)) where type.hasPrefix("\""):
            return "\"\(text)\"" == type ? [] : ["expected \(type)"]
        case (_, .array(let items)) where type.hasPrefix("array of "):
            let element = String(type.dropFirst("array of ".count))
            if ["null", "boolean", "integer", "number", "string", "object"].contains(element) {
                return items.flatMap { matches($0, type: element, command: command, at: place + "[]") }
            }
            guard let nested = nested(element, command: command) else {
                return ["nested type '\(element)' is not documented"]
            }
            return items.flatMap { check($0, against: nested, command: command, at: place + "[]") }
        default:
            return ["not \(type)"]
        }
    }
}

import Foundation

/// A JSON value with object keys kept in the order they were written, so output is stable for scripts.
enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    static func == (lhs: JSON, rhs: JSON) -> Bool { lhs.serialized() == rhs.serialized() }

    /// A Swift `Int` as a JSON integer.
    static func int(_ value: Int) -> JSON { .int(Int64(value)) }
    /// A string, or `null` when nil.
    static func optional(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }
    /// An integer, or `null` when nil.
    static func optional(_ value: Int?) -> JSON { value.map(JSON.int) ?? .null }

    /// A line of `--json` output: an object whose first key, `type`, says which of the object types documented in
    /// docs/json.md it is (`file`, `track`, `summary`, `hit`, `error`, ...).
    static func typed(_ type: String, _ members: [(String, JSON)]) -> JSON {
        .object([("type", .string(type))] + members)
    }

    /// Compact JSON text, with non-ASCII characters written as they are (UTF-8).
    func serialized() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value):
            if value.isFinite {
                if value == value.rounded(), abs(value) < 1e15 {
                    out += String(format: "%.1f", value)
                } else {
                    out += "\(value)"
                }
            } else {
                out += "null"
            }
        case .string(let value): JSON.writeString(value, to: &out)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                JSON.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let s where s.value < 0x20 || s.value == 0x2028 || s.value == 0x2029:
                out += String(format: "\\u%04x", s.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

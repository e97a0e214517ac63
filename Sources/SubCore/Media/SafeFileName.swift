/// Turns a file name taken from a media file (an attachment's `filename` tag: untrusted) into a plain base name
/// that cannot leave the output folder, hide itself or replace anything:
///
///     SafeFileName.make("../../etc/passwd", fallback: "attachment-5")   // "passwd"
///     SafeFileName.make("fonts\\a/b.ttf", fallback: "attachment-5")     // "b.ttf"
///     SafeFileName.make(".hidden", fallback: "attachment-5")            // "hidden"
///     SafeFileName.make("", fallback: "attachment-5")                   // "attachment-5"
package enum SafeFileName {
    /// The longest name produced, in UTF-8 bytes (Linux allows 255; room is left for a numbered suffix).
    package static let maximumBytes = 200

    /// The last path component of `raw` (either separator), without control characters or leading dots and
    /// spaces, cut to `maximumBytes`; `fallback` when nothing is left.
    package static func make(_ raw: String?, fallback: String) -> String {
        let component = (raw ?? "").split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var scalars = String.UnicodeScalarView()
        for scalar in component.unicodeScalars {
            let value = scalar.value
            if value < 0x20 || value == 0x7F || (0x80..<0xA0).contains(value) { continue }
            if scalar == ":" || scalar == "*" || scalar == "?" || scalar == "\"" || scalar == "<" || scalar == ">"
                || scalar == "|"
            {
                scalars.append("_")
                continue
            }
            scalars.append(scalar)
        }
        var name = String(scalars)
        while let first = name.first, first == "." || first == " " || first == "-" { name.removeFirst() }
        while let last = name.last, last == "." || last == " " { name.removeLast() }
        while name.utf8.count > maximumBytes { name.removeLast() }
        return name.isEmpty ? fallback : name
    }

    /// The `number`th alternative to `name` when it is taken: `font.ttf` becomes `font-1.ttf`, `font-2.ttf`, ...
    package static func numbered(_ name: String, _ number: Int) -> String {
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return name[..<dot] + "-\(number)" + name[dot...]
        }
        return name + "-\(number)"
    }
}

import Foundation

/// A font as an ASS style or `\fn` asks for it: a name (maybe `@`-prefixed for vertical text), weight, slant.
public struct FontRequest: Sendable, Hashable {
    /// The name as written, such as `@微软雅黑` or `Arial`.
    public var name: String
    /// 400 regular, 700 bold (libass turns ASS `-1`/`1` into 700), or an explicit `\b100`..`\b900`.
    public var weight: Int
    /// Whether italic was asked for.
    public var isItalic: Bool

    /// A request for `name`, regular or bold, upright or italic.
    public init(name: String, bold: Bool = false, italic: Bool = false) {
        self.init(name: name, weight: bold ? 700 : 400, italic: italic)
    }

    /// A request with an explicit weight.
    public init(name: String, weight: Int, italic: Bool) {
        self.name = name
        self.weight = weight
        self.isItalic = italic
    }

    /// The family libass looks for: whitespace trimmed, a leading `@` (vertical text) dropped.
    public var family: String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        return trimmed.hasPrefix("@") ? String(trimmed.dropFirst()).trimmingCharacters(in: .whitespaces) : trimmed
    }

    /// Whether the name asks for vertical text (`@` prefix).
    public var isVertical: Bool { name.trimmingCharacters(in: .whitespaces).hasPrefix("@") }
}

/// Which face a request resolves to, and through which name.
public struct FontResolution: Sendable, Hashable {
    /// How a request matched a face.
    public enum Match: String, Sendable, Hashable {
        /// A family name (any language), case-insensitive; the closest weight and slant win.
        case family
        /// A full name (TrueType outlines) or PostScript name (CFF outlines), case-insensitive.
        case fullName
        /// Nothing matched: libass falls back (fontconfig's fallback, or nothing in `--no-system-fonts` mode).
        case none
    }

    /// The family, weight and slant asked for, as the script named them.
    public var request: FontRequest
    /// The face libass picks for it, when one matches by name.
    public var face: FontFace?
    /// How it matched.
    public var match: Match
}

extension FontCatalog {
    /// The face libass would pick for `request`, the way its font selector does: ASCII-case-insensitive
    /// over family names (closest weight and slant win, ties keep the earlier face), then full names for
    /// TrueType faces and PostScript names for CFF faces; `code`, when given, must be covered by the face.
    public func resolve(_ request: FontRequest, covering code: Unicode.Scalar? = nil) -> FontResolution {
        let family = request.family
        guard !family.isEmpty else { return FontResolution(request: request, face: nil, match: .none) }
        var best: (face: FontFace, score: Int, match: FontResolution.Match)?
        for face in faces {
            let score: Int
            let match: FontResolution.Match
            if face.matchFamilies.contains(where: { FontCatalog.sameName($0, family) }) {
                score = FontCatalog.similarity(face, request)
                match = .family
            } else if FontCatalog.matchesFullOrPostScriptName(face, family) {
                score = 0
                match = .fullName
            } else {
                continue
            }
            if score < best?.score ?? Int.max {
                if let code, !face.coverage.contains(code) { continue }
                best = (face, score, match)
            }
            if score == 0 { break }
        }
        guard let best else { return FontResolution(request: request, face: nil, match: .none) }
        return FontResolution(request: request, face: best.face, match: best.match)
    }

    /// The characters of `text` libass would leave blank when drawing it with `request`: those that no face
    /// matching the name covers and, with system fonts, that no fontconfig face covers either (libass asks
    /// fontconfig for a fallback per missing glyph; in `--no-system-fonts` mode there is none), and that the
    /// default font, when there is one, lacks too.
    public func missing(in text: String, for request: FontRequest) -> [Unicode.Scalar] {
        var missing: [Unicode.Scalar] = []
        var seen = Set<UInt32>()
        let primary = resolve(request)
        for scalar in text.unicodeScalars where FontCoverage.needsGlyph(scalar) && seen.insert(scalar.value).inserted {
            if let face = primary.face, face.coverage.contains(scalar) { continue }
            if primary.face != nil, resolve(request, covering: scalar).face != nil { continue }
            if setup.systemFonts, faces.contains(where: { $0.origin == .system && $0.coverage.contains(scalar) }) {
                continue
            }
            if let fallback = defaultFace, fallback.coverage.contains(scalar) { continue }
            missing.append(scalar)
        }
        return missing
    }

    /// libass's `strcasecmp`: only ASCII letters fold.
    static func sameName(_ a: String, _ b: String) -> Bool {
        let a = a.utf8
        let b = b.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { fold($0) == fold($1) }
    }

    private static func fold(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }

    /// libass's `font_attributes_similarity`: lower is closer (italic mismatches weigh more when the request
    /// is upright; a regular face is heavier when it would be emboldened).
    static func similarity(_ face: FontFace, _ request: FontRequest) -> Int {
        var score = 0
        if request.isItalic && !face.isItalic {
            score += 1
        } else if !request.isItalic && face.isItalic {
            score += 4
        }
        var weight = face.weight
        if request.weight > face.weight + 150 && face.weight < 600 { weight += 120 }
        score += (73 * abs(weight - request.weight)) / 256
        return score
    }

    /// libass's `matches_full_or_postscript_name`: when only one of the two names matches, CFF faces count
    /// the PostScript name and TrueType faces the full name.
    static func matchesFullOrPostScriptName(_ face: FontFace, _ name: String) -> Bool {
        let full = face.fullNames.contains { sameName($0, name) }
        let postScript = face.postScriptName.map { sameName($0, name) } ?? false
        if full == postScript { return full }
        return face.hasPostScriptOutlines ? postScript : full
    }
}

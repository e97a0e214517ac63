import Foundation

/// What the renderer draws: a script libass can read, and the fonts that travel with it.
///
/// A subtitle file becomes one with `SubtitleInput(contentsOf:)`; a media file's embedded track (its ASS text
/// and font attachments, from the extractor) is handed over with `init(name:assText:attachments:)`.
public struct SubtitleInput: Sendable {
    /// The file (or `movie.mkv#2` for a track) the script came from, for messages.
    public var name: String
    /// The script as ASS text (UTF-8).
    public var assText: String
    /// Fonts that travel with the script (a media file's attachments).
    public var attachments: [FontAttachment]

    /// A script already in ASS form.
    public init(name: String, assText: String, attachments: [FontAttachment] = []) {
        self.name = name
        self.assText = assText
        self.attachments = attachments
    }

    /// Reads an ASS/SSA, SRT or WebVTT file. SRT and WebVTT cues become ASS events with subfix's default style.
    public init(contentsOf path: String) throws(RenderError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(file: path, cause: RenderError.fileCause(error))
        }
        if SubtitleInput.looksLikeMedia(data) { throw .mediaInput(file: path) }
        let text = try SubtitleInput.decodeText(data, file: path)
        let trimmed = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if trimmed.hasPrefix("[Script Info]") || trimmed.lowercased().hasPrefix("[script info]") {
            self.init(name: path, assText: text)
        } else if trimmed.hasPrefix("WEBVTT") {
            self.init(name: path, assText: try CueConverter.assText(fromWebVTT: text, file: path))
        } else if trimmed.first?.isNumber == true || trimmed.contains("-->") {
            self.init(name: path, assText: try CueConverter.assText(fromSRT: text, file: path))
        } else {
            throw .unreadable(file: path, cause: "not a subtitle file (expected ASS/SSA, SRT or WebVTT text)")
        }
    }

    /// Text from UTF-8 (with or without BOM), UTF-16 with a BOM, or a legacy encoding uchardet recognises
    /// (GBK/GB18030, Big5, Shift_JIS, EUC-KR, ...).
    static func decodeText(_ data: Data, file: String) throws(RenderError) -> String {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let little = bytes[0] == 0xFF
            var units: [UInt16] = []
            var index = 2
            while index + 1 < bytes.count {
                units.append(
                    little
                        ? UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
                        : UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
                index += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if let text = String(validating: body, as: UTF8.self) { return text }
        if let (text, _) = LegacyTextDecoder.decode(body) { return text }
        let offset = SubtitleInput.firstInvalidUTF8(body)
        throw .unreadable(
            file: file,
            cause: "not UTF-8 text and no known encoding (invalid byte 0x\(String(format: "%02X", body[offset])) at"
                + " offset \(offset)); convert it to UTF-8 first")
    }

    /// Where UTF-8 decoding first fails (the start of the first malformed sequence).
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length =
                lead < 0x80 ? 1 : lead >> 5 == 0b110 ? 2 : lead >> 4 == 0b1110 ? 3 : lead >> 3 == 0b11110 ? 4 : 0
            guard length > 0, index + length <= bytes.count else { return index }
            for next in 1..<length where bytes[index + next] & 0xC0 != 0x80 { return index }
            index += length
        }
        return 0
    }

    /// Matroska/WebM (EBML), MP4/MOV (`ftyp`), AVI/WAV (RIFF), MPEG-TS, or any binary data (NUL bytes
    /// without a UTF-16 byte order mark): containers, not subtitle text.
    static func looksLikeMedia(_ data: Data) -> Bool {
        let start = [UInt8](data.prefix(4096))
        if !start.starts(with: [0xFF, 0xFE]) && !start.starts(with: [0xFE, 0xFF]) && start.contains(0) { return true }
        let head = [UInt8](data.prefix(12))
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) || head.starts(with: Array("RIFF".utf8)) { return true }
        if head.count >= 8, Array(head[4..<8]) == Array("ftyp".utf8) { return true }
        if head.count > 0, head[0] == 0x47, data.count >= 376, data[data.startIndex + 188] == 0x47 { return true }
        return false
    }
}

extension RenderError {
    /// A short cause for a file-system error (`no such file`, `permission denied`).
    static func fileCause(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code))).lowercased()
        }
        switch nsError.code {
        case NSFileReadNoSuchFileError: return "no such file"
        case NSFileReadNoPermissionError: return "permission denied"
        default: return nsError.localizedDescription
        }
    }
}

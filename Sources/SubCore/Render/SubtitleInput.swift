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

    /// The fonts of the script's `[Fonts]` section, decoded: libass loads them itself when it reads the script,
    /// so a catalog that mirrors it must count them too. Entries whose data cannot be decoded (libass skips
    /// them too) are warnings naming the script.
    public func embeddedFonts() -> (fonts: [FontAttachment], warnings: [FontWarning]) {
        guard assText.lowercased().contains("[fonts]"),
            let document = try? ASSDocument(utf8: Array(assText.utf8), file: name)
        else { return ([], []) }
        let (fonts, undecodable) = document.embeddedFonts()
        return (
            fonts.map { FontAttachment(name: $0.name, data: $0.data) },
            undecodable.map { FontWarning(file: name, cause: "[Fonts] entry '\($0)' is not valid font data; skipped") }
        )
    }

    /// Reads an ASS/SSA, SRT or WebVTT file. SRT and WebVTT cues become ASS events with subfix's default style.
    public init(contentsOf path: String) throws(RenderError) {
        let data: Data
        do {
            data = Data(try InputFile.read(path).bytes)
        } catch {
            throw .unreadable(file: path, cause: RenderError.fileCause(error))
        }
        try self.init(bytes: data, name: path)
    }

    /// Reads a subtitle held in memory (ASS/SSA, SRT or WebVTT bytes in any encoding, such as a fixed script not
    /// yet written), named `name` in messages, as `init(contentsOf:)` reads a file.
    public init(bytes data: Data, name path: String) throws(RenderError) {
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

    /// The text of a subtitle file, decoded by `TextDecoder` (byte order marks, UTF-8, then legacy encodings
    /// such as GBK/GB18030, Big5, Shift_JIS, EUC-KR found through uchardet and iconv).
    static func decodeText(_ data: Data, file: String) throws(RenderError) -> String {
        do {
            return String(decoding: try TextDecoder.decode([UInt8](data), file: file).utf8, as: UTF8.self)
        } catch {
            throw .decoding(error)
        }
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
    /// A short cause for a refused or failed read (`no such file`, `permission denied`, `a FIFO (named pipe), not
    /// a regular file`).
    static func fileCause(_ error: InputFileError) -> String {
        switch error.problem {
        case .system(_, ENOENT): return "no such file"
        case .system(_, let code): return String(cString: strerror(code)).lowercased()
        default: return error.cause
        }
    }

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

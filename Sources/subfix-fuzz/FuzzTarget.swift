import SubCore
import SubDB
import SubfixLibrary

/// One fuzz input through everything that reads untrusted subtitle bytes: the encoding detector, the three
/// parsers, the font rewriter (four policies), the dialogue extraction, the dialogue tokenizer and query
/// parser, the file-name and message escaping, `[Fonts]` data, font files and subsets, the library's SQL, and
/// libavcodec's bitmap subtitle decoders with the OCR preparation. Errors are expected; a trap is a bug. It also
/// checks what the
/// README promises, and traps when a promise breaks:
/// - rewriting keeps every byte outside its edits, and fixing a fixed file changes nothing;
/// - a file name's bytes survive `PathBytes` unchanged; an escaped message has no control character left.
enum FuzzTarget {
    static let rewriters = [
        FontRewriter(policy: .all), FontRewriter(policy: .cjk(also: ["Arial"])),
        FontRewriter(
            policy: .custom { name, text in
                RewriteDecision(rewrite: name.count % 2 == 0 || text.isEmpty, reason: "fuzz")
            }),
        // The defaults: faces chosen by language (from an empty catalog: no font files read), policy text.
        FontRewriter(
            target: .auto(FaceChooser(catalog: FontCatalog(setup: FontSetup(systemFonts: false), faces: []))),
            policy: .text(also: [])),
    ]
    /// One tokenizer for the whole run; the fuzzer calls `run` from one thread only.
    nonisolated(unsafe) static let tokenizer = DialogueTokenizer(foldsChinese: true)

    /// Runs `bytes` through every reader; returns normally unless a promise broke (then it traps).
    static func run(_ bytes: [UInt8]) {
        let decoded = try? TextDecoder.decode(bytes, file: "fuzz")
        let text = decoded?.utf8 ?? bytes
        for format in [SubtitleFormat.ass, .srt, .vtt] {
            guard let document = try? SubtitleDocument(text, format: format, file: "fuzz") else { continue }
            for rewriter in rewriters {
                checkRewrite(rewriter, document: document, format: format)
            }
            if let lines = try? document.dialogueLines() {
                for line in lines.prefix(64) {
                    _ = try? tokenizer.tokenize(document: line.plainText)
                }
            }
        }
        let string = String(decoding: text, as: UTF8.self)
        _ = try? tokenizer.tokenize(document: string)
        _ = try? DialogueQuery(String(string.prefix(256)))
        checkNames(bytes)
        checkFonts(bytes)
        checkLibrary(string)
        BitmapDecodingFuzz.run(bytes)
    }

    /// Edits are sorted, inside the text and apart; a second rewrite of the output finds nothing to do.
    static func checkRewrite(_ rewriter: FontRewriter, document: SubtitleDocument, format: SubtitleFormat) {
        let result = rewriter.rewrite(document)
        let utf8 = document.utf8
        var position = 0
        for edit in result.edits {
            guard edit.range.lowerBound >= position, edit.range.upperBound <= utf8.count else {
                promiseBroken("edit \(edit.range) out of order or outside \(utf8.count) bytes")
            }
            position = edit.range.upperBound
        }
        guard !result.isEmpty else { return }
        let fixed = TextEdit.apply(result.edits, to: utf8)
        guard let again = try? SubtitleDocument(fixed, format: format, file: "fuzz") else {
            promiseBroken("a fixed \(format) file no longer parses")
        }
        let second = rewriter.rewrite(again)
        if !second.isEmpty {
            promiseBroken("fixing a fixed \(format) file changed it again: \(second.edits.count) edits")
        }
    }

    /// `PathBytes` round-trips the bytes as a name; `MessageText` leaves no control character.
    static func checkNames(_ bytes: [UInt8]) {
        let name = Array(bytes.prefix(255).filter { $0 != 0 && $0 != 0x2F })
        let decoded = PathBytes.decode(name)
        if PathBytes.encode(decoded) != name { promiseBroken("PathBytes lost bytes of a name") }
        let escaped = MessageText.escaped(decoded)
        if escaped.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            promiseBroken("an escaped message still holds a control character")
        }
    }

    /// Reports a broken promise and traps, so that the fuzzer (or the mutation loop) keeps the input.
    static func promiseBroken(_ what: String) -> Never {
        preconditionFailure("subfix-fuzz: " + what)
    }
}

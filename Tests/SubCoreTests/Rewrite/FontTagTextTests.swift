import SubCore
import Testing

/// Found by `make fuzz` (the idempotence check): a `</font>` or `>` inside a quoted `face` value ended the text
/// of the tag around it, so rewriting the value changed that text, and a text-dependent policy (`--policy
/// missing`) decided differently on the second run: fixing a fixed file changed it again.
@Suite struct FontTagTextTests {
    /// Rewrites fonts whose name has an even length, or whose text is empty (the fuzz target's policy).
    let rewriter = FontRewriter(
        policy: .custom { name, text in RewriteDecision(rewrite: name.count % 2 == 0 || text.isEmpty, reason: "test") })

    func fix(_ text: String) throws -> String {
        let document = try SRTDocument(utf8: Array(text.utf8), file: "a.srt")
        let result = rewriter.rewrite(SubtitleDocument.srt(document))
        return String(decoding: TextEdit.apply(result.edits, to: document.utf8), as: UTF8.self)
    }

    @Test func quotedTagEndsInValuesDoNotEndTheText() throws {
        let input = "1\n00:00:01,000 --> 00:00:02,000\n<font face=Abc><font face=\"</font>Xy\"></font>字</font>\n"
        let fixed = try fix(input)
        #expect(
            fixed
                == "1\n00:00:01,000 --> 00:00:02,000\n<font face=Abc><font face=\"Noto Sans CJK SC\"></font>字</font>\n")
        #expect(try fix(fixed) == fixed)
    }

    /// Found by `make fuzz` (Tests/Fuzz/unclosed-face-quote.srt): a `<font` after an unclosed quote was rewritten
    /// with a quoted name, which closed the quote, and the next run read a different tag.
    @Test func fontTagsAfterAnUnclosedQuoteAreText() throws {
        let input = "1\n00:00:01,000 --> 00:00:02,000\n<font face=\"<font face=SimHei>字\n"
        let allRewriter = FontRewriter(policy: .all)
        let document = try SRTDocument(utf8: Array(input.utf8), file: "a.srt")
        #expect(allRewriter.rewrite(SubtitleDocument.srt(document)).isEmpty)
    }

    @Test func plainTextSkipsQuotedValues() throws {
        let document = try SRTDocument(
            utf8: Array("1\n00:00:01,000 --> 00:00:02,000\n<font face=\"a>b\">字</font> it's <i>x</i>\n".utf8),
            file: "a.srt")
        #expect(document.dialogueLines().map(\.plainText) == ["字 it's x"])
    }
}

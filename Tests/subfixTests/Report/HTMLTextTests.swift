import Foundation
import SubCore
import Testing

@testable import subfix

/// The escaping every string from a file goes through before it reaches the report page.
@Suite struct HTMLTextTests {
    @Test(arguments: [
        ("<script>window.pwned=1</script>", "&lt;script&gt;window.pwned=1&lt;/script&gt;"),
        ("<img src=x onerror=\"alert('1')\">", "&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;"),
        ("a & b", "a &amp; b"),
        ("&lt;", "&amp;lt;"),
        ("第一行\n\tsecond", "第一行\n\tsecond"),
        ("bell\u{07}esc\u{1B}[31m", "bell\\x07esc\\x1b[31m"),
        ("nul\u{00}del\u{7F}", "nul\\x00del\\x7f"),
        ("sep\u{2028}x", "sep\\u{2028}x"),
        ("evil\u{202E}ssa.exe", "evil\\u{202e}ssa.exe"),
        ("non\u{FFFF}char", "non\\u{ffff}char"),
    ])
    func escapesMarkupQuotesAndControls(_ input: String, _ expected: String) {
        #expect(HTMLText.escaped(input) == expected)
    }

    @Test func rawFileNameBytesShowAsTheTerminalShowsThem() {
        let name = PathBytes.decode([0x62, 0xFF, 0xFE, 0x3C])  // b, two invalid bytes, <
        #expect(HTMLText.escaped(name) == "b\\xff\\xfe&lt;")
    }

    @Test(arguments: [
        ("sub/a.ass", "sub/a.ass"),
        ("a\"><script>x</script>.ass", "a%22%3E%3Cscript%3Ex%3C/script%3E.ass"),
        ("it's <b> & 100%.srt", "it%27s%20%3Cb%3E%20%26%20100%25.srt"),
        ("javascript:alert(1)", "javascript%3Aalert%281%29"),
        ("#frag?q=1", "%23frag%3Fq%3D1"),
        ("字幕.ass", "%E5%AD%97%E5%B9%95.ass"),
        ("/abs/a b.ass", "file:///abs/a%20b.ass"),
        ("", "."),
    ])
    func hrefsPercentEncodeEverythingButPlainNameCharacters(_ path: String, _ expected: String) {
        #expect(HTMLText.href(path) == expected)
    }

    @Test func hrefsKeepRawBytes() {
        #expect(HTMLText.href(PathBytes.decode([0x62, 0xFF])) == "b%FF")
    }

    @Test func relativePathsGoFromThePageFolder() {
        #expect(HTMLText.relativePath("a/b.ass", from: ".", directory: "/w") == "a/b.ass")
        #expect(HTMLText.relativePath("a/b.ass", from: "out", directory: "/w") == "../a/b.ass")
        #expect(HTMLText.relativePath("./a/../c.ass", from: "out/deep/", directory: "/w") == "../../c.ass")
        #expect(HTMLText.relativePath("/w/a.ass", from: "/w", directory: "/elsewhere") == "a.ass")
        #expect(HTMLText.relativePath("/media/a.ass", from: "/home/u", directory: "/w") == "/media/a.ass")
    }
}

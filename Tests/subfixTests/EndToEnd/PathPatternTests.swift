import Foundation
import Testing

/// `search --path` is a GLOB pattern whose `[...]` is a character class, as its help now says; the current
/// folder it is taken from is matched literally, `[Group] Show` included (issue 35, item 7).
@Suite struct PathPatternTests {
    @Test func bracketsAreAClassAndTheCurrentFolderIsLiteral() throws {
        let root = try SubfixBinary.folder("glob")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let show = root + "/[Group] Show"
        try FileManager.default.createDirectory(atPath: show, withIntermediateDirectories: true)
        try SubfixBinary.write("1\n00:00:01,000 --> 00:00:02,000\n你好\n", to: show + "/ep[1].srt")
        let index = try SubfixBinary.run(["index", ".", "--db", root + "/l.sqlite"], in: show)
        try #require(index.status == 0, "\(index.stderr)")
        func search(_ pattern: String) throws -> Int32? {
            try SubfixBinary.run(["search", "你好", "--db", root + "/l.sqlite", "--path", pattern], in: show).status
        }
        // Relative to `[Group] Show`, whose brackets are not a class.
        #expect(try search("ep*") == 0)
        #expect(try search("ep[[]1]*") == 0)
        #expect(try search("ep[[]?]*") == 0)
        // `[1]` is the class of `1`: it matches `ep1`, not `ep[1]`.
        #expect(try search("ep[1]*") == 1)
        #expect(try search("*/ep[^[]*") == 1)
        let help = try SubfixBinary.run(["search", "--help"], in: show)
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("[abc] or [a-z] one of those characters, [^abc] any other; [[] a literal [."))
    }
}

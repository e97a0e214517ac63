import Foundation
import SubDB
import SubfixLibrary
import Testing

@testable import subfix

@Suite struct SearchCommandTests {
    func indexed(_ texts: [String]) throws -> (IndexFixture, String) {
        let fixture = try IndexFixture()
        let file = try fixture.srt("show.ja.srt", texts)
        let (status, _, err) = fixture.run(["index", fixture.path + "/media", "--db", fixture.db])
        #expect(status == .success && err == "")
        return (fixture, file)
    }

    @Test func hitsWithContextAndMarks() throws {
        let (fixture, file) = try indexed(["一", "こんにちは、世界", "二\n三", "こんにちは"])
        let (status, out, err) = fixture.run(["search", "こんにちは", "--db", fixture.db, "--context", "1", "--brackets"])
        #expect(status == .success && err == "")
        #expect(
            out == """
                    00:00:02.000 --> 00:00:02.500  二 / 三
                \(file) [ja] 00:00:03.000 --> 00:00:03.500  [こんにちは]
                --
                    00:00:00.000 --> 00:00:00.500  一
                \(file) [ja] 00:00:01.000 --> 00:00:01.500  [こんにちは]、世界
                    00:00:02.000 --> 00:00:02.500  二 / 三

                """)
        let (_, limited, _) = fixture.run(["search", "こんにちは", "--db", fixture.db, "--limit", "1", "--json"])
        #expect(
            limited.hasPrefix(#"{"type":"hit","file":"\#(file)","track":null,"language":"ja","start":"00:00:03.000""#))
        #expect(limited.split(separator: "\n").count == 1)
    }

    /// `--context` read the hit's whole file for every hit: 1,000 hits in a 200,000-line file took 74 s (issue 35,
    /// item 5). Lines are stored in time order, and a hit's neighbours are read by id through the primary key
    /// (the query plan says so), O(context); an ASS whose events are out of time order still gets its
    /// neighbours in time, at the first and last line of the file too.
    @Test func contextIsReadByIdInTimeOrder() throws {
        let fixture = try IndexFixture()
        let events = [(3, "丙 hit"), (1, "甲 hit"), (4, "丁"), (2, "乙")]
            .map { "Dialogue: 0,0:00:0\($0.0).00,0:00:0\($0.0).50,Default,,0,0,0,,\($0.1)" }.joined(separator: "\n")
        let file = fixture.path + "/media/order.zh.ass"
        try Data(
            ("[Script Info]\nScriptType: v4.00+\n\n[V4+ Styles]\nFormat: Name, Fontname\nStyle: Default,Arial\n\n"
                + "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
                + events + "\n").utf8
        ).write(to: URL(fileURLWithPath: file))
        #expect(fixture.run(["index", fixture.path + "/media", "--db", fixture.db]).0 == .success)
        let (status, out, _) = fixture.run(["search", "hit", "--db", fixture.db, "--context", "1", "--json"])
        #expect(status == .success)
        var contexts: [String: ([String], [String])] = [:]
        for line in out.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let text = try #require(object["text"] as? String)
            let before = object["before"] as? [String] ?? []
            let after = object["after"] as? [String] ?? []
            contexts[text] = (before, after)
        }
        #expect(contexts["甲 hit"]?.0 == [] && contexts["甲 hit"]?.1 == ["乙"])
        #expect(contexts["丙 hit"]?.0 == ["乙"] && contexts["丙 hit"]?.1 == ["丁"])
        let queue = try DatabaseQueue(path: fixture.db)
        let plan = try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    EXPLAIN QUERY PLAN SELECT * FROM dialogue_line
                    WHERE id < 5 AND id >= (SELECT first_line_id FROM subtitle_source WHERE id = 1) ORDER BY id DESC LIMIT 2
                    """
            ).compactMap { $0["detail"] as String? }.joined(separator: " | ")
        }
        #expect(plan.contains("USING INTEGER PRIMARY KEY"), "\(plan)")
        #expect(!plan.contains("SCAN dialogue_line") && !plan.contains("TEMP B-TREE"), "\(plan)")
    }

    /// `--path` is SQLite's GLOB, as its help now says: `[...]` is a set of characters, `[[]` a literal `[`.
    @Test func pathSetsAreCharacterClasses() throws {
        let fixture = try IndexFixture()
        _ = try fixture.srt("ep[1].zh.srt", ["你好世界"])
        _ = try fixture.srt("ep1.zh.srt", ["你好朋友"])
        #expect(fixture.run(["index", fixture.path + "/media", "--db", fixture.db]).0 == .success)
        func files(_ pattern: String) -> [String] {
            let (_, out, _) = fixture.run(["search", "你好", "--db", fixture.db, "--path", pattern, "--json"])
            return out.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["file"] as? String
            }.map { ($0 as NSString).lastPathComponent }.sorted()
        }
        #expect(files("*ep[1].zh.srt") == ["ep1.zh.srt"])
        #expect(files("*ep[[]1].zh.srt") == ["ep[1].zh.srt"])
        #expect(files("*ep?1?.zh.srt") == ["ep[1].zh.srt"])
        let (_, help, _) = fixture.run(["search", "--help"])
        let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("[abc] or [a-z] one of those characters, [^abc] any other; [[] a literal [."))
    }

    /// Colour on a terminal unless NO_COLOR is set, or as --color says; plain text in a pipe, with [ ] only when
    /// asked for.
    @Test func colourOnATerminalOnly() throws {
        let (fixture, file) = try indexed(["你好世界"])
        func search(_ extra: [String], terminal: Bool, environment: Environment = [:]) -> String {
            let captured = CapturedOutput()
            let io = CommandIO(
                stdout: { captured.appendOut($0) }, stderr: { captured.appendErr($0) }, stdoutIsTerminal: terminal,
                environment: environment)
            #expect(SubfixCLI.run(["search", "世界", "--db", fixture.db] + extra, io: io) == .success)
            return captured.stdout
        }
        let head = "\(file) [ja] 00:00:00.000 --> 00:00:00.500  "
        let coloured = head + "你好\u{1B}[1;31m世界\u{1B}[0m\n"
        #expect(search([], terminal: true) == coloured)
        #expect(search([], terminal: true, environment: ["NO_COLOR": "1"]) == head + "你好世界\n")
        #expect(search(["--color", "never"], terminal: true) == head + "你好世界\n")
        #expect(search([], terminal: false) == head + "你好世界\n")
        #expect(search(["--color=always"], terminal: false) == coloured)
        #expect(search(["--brackets"], terminal: false) == head + "你好[世界]\n")
        let captured = CapturedOutput()
        let io = CommandIO(stdout: { captured.appendOut($0) }, stderr: { captured.appendErr($0) })
        #expect(SubfixCLI.run(["search", "世界", "--db", fixture.db, "--color", "rainbow"], io: io) == .usage)
    }

    @Test(arguments: [
        ("\"", "the query has nothing to search for (no letters, digits or CJK characters)"),
        ("OR", "the query has nothing to search for (no letters, digits or CJK characters)"),
        ("-你好", "the query only excludes words: add a word to find"),
        (String(repeating: "a ", count: 100), "the query has more than 64 words"),
    ])
    func queryErrorsAreOneLine(query: String, cause: String) throws {
        let (fixture, _) = try indexed(["你好"])
        let (status, out, err) = fixture.run(["search", "--db", fixture.db, "--", query])
        #expect(status == .usage)  // exit 2: an error, not "nothing matched"
        #expect(out == "")
        #expect(err == "subfix: error: query: \(cause)\n")
    }

    @Test(arguments: [
        "NEAR(", "*", "'; DROP TABLE dialogue_line; --", "a\u{0}b", String(repeating: "你", count: 10_000),
        // Pairs and checked phrases: quotes inside runs, a prefix star on a run, an excluded run, marks and
        // half-width forms that normalization changes, a run of 60 different characters.
        "你\"好", "\"你\"\"好\"", "你好*", "你 -\"你好 drop\"", "東\"京都", "你\u{301}好", "ﾆｯﾎﾟﾝ 你好",
        String((0..<60).compactMap { Unicode.Scalar(0x4E00 + $0 * 7).map(Character.init) }),
    ])
    func hostileQueriesNeverReachSQLite(query: String) throws {
        let (fixture, _) = try indexed(["你好 drop table a b"])
        let (status, _, err) = fixture.run(["search", query, "--db", fixture.db])
        #expect(!err.contains("SQLite"))
        #expect(
            status == .success || (status == .someFailed && err == "")
                || (status == .usage && err.hasPrefix("subfix: error: query: ")))
    }

    @Test func aMissingDatabaseSaysHowToBuildOne() throws {
        let fixture = try IndexFixture()
        let (status, out, err) = fixture.run(["search", "你好", "--db", fixture.db])
        #expect(status == .usage && out == "")
        #expect(err == "subfix: error: \(fixture.db): no library database (build one with `subfix index PATH...`)\n")
        #expect(!FileManager.default.fileExists(atPath: fixture.db))
        let (jobsStatus, _, jobsErr) = fixture.run(["jobs", "--db", fixture.db])
        #expect(jobsStatus == .someFailed)
        #expect(jobsErr == err)
    }

    @Test func exitStatusCountAndFilesWithMatches() throws {
        let fixture = try IndexFixture()
        let a = try fixture.srt("a.zh.srt", ["你好", "你好吗", "再见"])
        let b = try fixture.srt("b.ja.srt", ["你好、世界"])
        var (status, out, err) = fixture.run(["index", fixture.path + "/media", "--db", fixture.db])
        #expect(status == .success && err == "")
        (status, out, err) = fixture.run(["search", "你好", "--db", fixture.db, "--count"])
        #expect(status == .success && err == "")
        #expect(out == "\(a):2\n\(b):1\n")
        (status, out, err) = fixture.run(["search", "你好", "--db", fixture.db, "--count", "--lang", "ja", "--json"])
        #expect(out == #"{"type":"count","file":"\#(b)","count":1}"# + "\n")
        (status, out, err) = fixture.run(["search", "再见 OR 世界", "--db", fixture.db, "--files-with-matches"])
        #expect(status == .success && out == "\(a)\n\(b)\n")
        for extra in [[], ["--count"], ["--files-with-matches"], ["--json"]] {
            (status, out, err) = fixture.run(["search", "明天", "--db", fixture.db] + extra)
            #expect(status == .someFailed && out == "" && err == "")
        }
        (status, out, err) = fixture.run(["search", "--db", fixture.db, "--count", "--", "-你好"])
        #expect(status == .usage && out == "")
        (status, out, err) = fixture.run(["search", "你好", "--db", fixture.path + "/none.sqlite", "--count"])
        #expect(status == .usage && out == "" && err.hasPrefix("subfix: error: "))
    }

    @Test func timestamps() {
        #expect(SearchCommand.timestamp(0) == "00:00:00.000")
        #expect(SearchCommand.timestamp(3_723_004) == "01:02:03.004")
        #expect(SearchCommand.timestamp(360_000_000) == "100:00:00.000")
    }
}

/// `search --limit` stopped at 10,000 with no way to get every hit (issue 16, item 15): `--limit 0` gives all.
@Suite struct SearchLimitTests {
    @Test func limitZeroGivesEveryHit() throws {
        let fixture = try IndexFixture()
        let body = (0..<30).map { "\($0 + 1)\n00:00:\(10 + $0),000 --> 00:00:\(10 + $0),500\n猫 \($0)\n" }
        try Data(body.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: fixture.path + "/media/many.ja.srt"))
        let (status, _, err) = fixture.run(["index", fixture.path + "/media", "--db", fixture.db])
        #expect(status == .success && err == "")
        let (_, all, allErrors) = fixture.run(["search", "猫", "--db", fixture.db, "--limit", "0"])
        #expect(allErrors == "")
        #expect(all.split(separator: "\n").count == 30)
        let (_, some, _) = fixture.run(["search", "猫", "--db", fixture.db, "--limit", "25000"])
        #expect(some.split(separator: "\n").count == 30)
        let (_, twenty, _) = fixture.run(["search", "猫", "--db", fixture.db])
        #expect(twenty.split(separator: "\n").count == 20)
    }

    /// `.webvtt` files were refused; they are WebVTT.
    @Test func webvttFilesAreIndexed() throws {
        let fixture = try IndexFixture()
        try Data("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n犬です\n".utf8)
            .write(to: URL(fileURLWithPath: fixture.path + "/media/a.webvtt"))
        let (status, out, err) = fixture.run(["index", fixture.path + "/media", "--db", fixture.db])
        #expect(status == .success && err == "")
        #expect(out.contains("1 new"))
    }
}

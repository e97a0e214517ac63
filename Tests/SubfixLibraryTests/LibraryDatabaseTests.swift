import Foundation
import SubDB
import TestSupport
import Testing

@testable import SubfixLibrary

@Suite struct LibraryDatabaseTests {
    @Test func findsOneAndTwoCharacterChineseQueriesAndMarksThem() throws {
        let test = try TestLibrary()
        try test.store(path: "/a.srt", texts: ["你好，世界！Hello World", "我说你好吗", "好你", "你，好", "Café au lait"])
        #expect(try Set(test.search("你")) == ["[你]好，世界！Hello World", "我说[你]好吗", "好[你]", "[你]，好"])
        #expect(try test.search("你好").sorted() == ["[你好]，世界！Hello World", "我说[你好]吗"])
        #expect(try test.search("cafe") == ["[Café] au lait"])
        #expect(try test.search("wor*") == ["你好，世界！Hello [World]"])
        #expect(try test.search("好 -你") == [])
        #expect(try test.search("世界 OR 吗").sorted() == ["你好，[世界]！Hello World", "我说你好[吗]"])
    }

    @Test func foldingIsChosenAtIndexTime() throws {
        let plain = try TestLibrary()
        try plain.store(path: "/a.srt", texts: ["電視機很好", "电视"])
        #expect(try plain.search("电视") == ["[电视]"])
        #expect(try plain.library.dialogueIndexFoldsChinese() == false)

        let folded = try TestLibrary(foldsChinese: true)
        try folded.store(path: "/a.srt", texts: ["電視機很好", "电视"])
        #expect(try Set(folded.search("电视")) == ["[電視]機很好", "[电视]"])
        #expect(try Set(folded.search("電視")) == ["[電視]機很好", "[电视]"])
        #expect(try folded.library.dialogueIndexFoldsChinese() == true)

        #expect(throws: LibraryError.foldingMismatch(path: folded.library.path, indexFolds: true)) {
            try folded.library.prepareDialogueIndex(foldsChinese: false)
        }
        let message = "\(LibraryError.foldingMismatch(path: "/x.sqlite", indexFolds: false))"
        #expect(
            message
                == "/x.sqlite: the dialogue index was built without --fold-chinese and cannot be updated with it; "
                + "rebuild it: delete /x.sqlite and run `subfix index` again")
    }

    @Test func replacingAndRemovingFilesKeepsTheIndexInStep() throws {
        let test = try TestLibrary()
        try test.store(path: "/a.srt", texts: ["第一行", "第二行"])
        try test.store(path: "/b.srt", texts: ["第三行"])
        #expect(try test.search("行").count == 3)
        try test.store(path: "/a.srt", texts: ["新的一行"], mtime: 2)
        #expect(try test.search("第").sorted() == ["[第]三行"])
        #expect(try test.search("新").count == 1)
        #expect(try test.library.indexedFiles()["/a.srt"]?.mtime == 2)
        #expect(try test.library.remove(paths: ["/b.srt", "/nowhere.srt"]) == 1)
        #expect(try test.search("行") == ["新的一[行]"])
        let counts = try test.library.counts()
        #expect(counts.files == 1 && counts.sources == 1 && counts.lines == 1)
        // The external-content index agrees with its content table.
        try test.library.pool.write { db in
            try db.execute(sql: "INSERT INTO dialogue_fts(dialogue_fts, rank) VALUES ('integrity-check', 1)")
        }
    }

    @Test func filtersAndContext() throws {
        let test = try TestLibrary()
        try test.store(path: "/shows/a.zh.srt", texts: ["一", "二 你好", "三", "四"], language: "zh-Hans")
        try test.store(path: "/films/b.ja.srt", texts: ["こんにちは 你好"], language: "ja")
        let zh = try test.library.search(
            try DialogueQuery("你好"), options: DialogueSearchOptions(language: "ZH", context: 1))
        #expect(zh.map(\.path) == ["/shows/a.zh.srt"])
        #expect(zh.first?.before.map(\.text) == ["一"])
        #expect(zh.first?.after.map(\.text) == ["三"])
        #expect(zh.first?.snippet == "二 [你好]")
        let films = try test.library.search(
            try DialogueQuery("你好"), options: DialogueSearchOptions(pathPattern: "/films/*"))
        #expect(films.map(\.path) == ["/films/b.ja.srt"])
        #expect(
            try test.library.search(try DialogueQuery("你好"), options: DialogueSearchOptions(language: "z%")).isEmpty)
        #expect(try test.search("你好", options: DialogueSearchOptions(limit: 1)).count == 1)
    }

    @Test func missingDatabaseAndMissingIndexAreClearErrors() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("none/library.sqlite")
        #expect(throws: LibraryError.missing(path: path)) { try LibraryDatabase(path: path, mode: .existing) }
        #expect(!FileManager.default.fileExists(atPath: path))
        let created = try LibraryDatabase(path: path, mode: .create)
        #expect(throws: LibraryError.noDialogueIndex(path: path)) {
            try created.search(try DialogueQuery("x"), options: DialogueSearchOptions())
        }
        #expect(
            "\(LibraryError.missing(path: path))"
                == "\(path): no library database (build one with `subfix index PATH...`)")
    }

    @Test func defaultPathFollowsXDG() {
        #expect(
            LibraryDatabase.defaultPath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"])
                == "/data/subfix/library.sqlite")
        #expect(
            LibraryDatabase.defaultPath(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"])
                == "/home/u/.local/share/subfix/library.sqlite")
        #expect(
            LibraryDatabase.defaultPath(environment: ["HOME": "/home/u"])
                == "/home/u/.local/share/subfix/library.sqlite")
    }

    @Test func jobsAndFontFaces() throws {
        let test = try TestLibrary()
        let started = Date(timeIntervalSince1970: 1_700_000_000)
        let job = JobRecord(
            command: "fix", arguments: ["a.srt"], startedAt: started, finishedAt: started.addingTimeInterval(1),
            status: .failed, counts: ["files": 2, "failed": 1])
        let id = try test.library.record(
            job: job,
            files: [
                JobFileRecord(jobId: 0, path: "a.srt", output: "a.fixed.srt", status: .changed, encoding: "UTF-8"),
                JobFileRecord(jobId: 0, path: "b.srt", status: .failed, error: "b.srt: empty file"),
            ])
        let jobs = try test.library.recentJobs(limit: 5)
        #expect(jobs.count == 1)
        #expect(jobs.first?.counts == ["files": 2, "failed": 1])
        #expect(jobs.first?.startedAt == started)
        #expect(try test.library.files(ofJob: id).map(\.status) == [.changed, .failed])
        let face = FontFaceRecord(
            file: "/f.otf", faceIndex: 0, families: ["Noto Sans CJK SC", "思源黑体"], fullNames: ["Noto"],
            postscriptName: "NotoSansCJKsc-Regular", weight: 400, slant: "roman", coverage: ["han": 7000])
        try test.library.replaceFontFaces(inFile: "/f.otf", with: [face])
        try test.library.replaceFontFaces(inFile: "/f.otf", with: [face])
        #expect(try test.library.fontFaces().map(\.families) == [["Noto Sans CJK SC", "思源黑体"]])
    }

    /// Shorter lines rank first; a line holding the query twice ranks as any line of its length.
    @Test func shorterLinesRankFirstAndRepeatsDoNotCount() throws {
        let test = try TestLibrary()
        try test.store(path: "/a.srt", texts: ["你好你好你好", "你好 abcde", "你好", "x 你好 yz"])
        for options in [DialogueSearchOptions(limit: 10), DialogueSearchOptions(limit: 10, rankWindow: 0)] {
            let hits = try test.library.search(try DialogueQuery("你好"), options: options)
            #expect(hits.map(\.line.text) == ["你好", "你好你好你好", "x 你好 yz", "你好 abcde"])
            #expect(hits.map(\.rank) == [2, 6, 7, 8])
        }
    }

    @Test func rankingWindowRanksTheNewestMatchesOnly() throws {
        let test = try TestLibrary()
        // Lines of different lengths holding 你: shorter ones rank better.
        let texts = (1...30).map { String(repeating: "你", count: $0 % 7 + 1) + String(repeating: "好", count: 8) }
        try test.store(path: "/a.srt", texts: texts)
        let query = try DialogueQuery("你")
        let all = try test.library.search(query, options: DialogueSearchOptions(limit: 30, rankWindow: 0))
        let windowed = try test.library.search(query, options: DialogueSearchOptions(limit: 30))
        // All matches fit in the window: the same order and ranks with and without it.
        #expect(all.map(\.line.id) == windowed.map(\.line.id))
        #expect(all.map(\.rank) == windowed.map(\.rank))
        #expect(all.map { $0.line.text.count } == all.map { $0.line.text.count }.sorted())
        let two = try DialogueQuery("你 好")
        #expect(
            try test.library.search(two, options: DialogueSearchOptions(limit: 30, rankWindow: 0)).map(\.rank)
                == test.library.search(two, options: DialogueSearchOptions(limit: 30)).map(\.rank))
        let newest = try test.library.search(query, options: DialogueSearchOptions(limit: 3, rankWindow: 10))
        #expect(newest.count == 3)
        #expect(newest.allSatisfy { ($0.line.id ?? 0) > 20 })
        #expect(newest.map(\.rank) == newest.map(\.rank).sorted())
    }
}

@Suite struct LibraryConcurrencyTests {
    @Test func aFailedBatchLeavesTheIndexAsItWasAndTheNextRunPicksUp() throws {
        let test = try TestLibrary()
        try test.store(path: "/old.srt", texts: ["旧的"])
        try test.library.pool.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER fail BEFORE INSERT ON media_file WHEN new.path = '/b.srt'
                    BEGIN SELECT RAISE(ABORT, 'disk full'); END
                    """)
        }
        let batch = [TestLibrary.file(path: "/a.srt", texts: ["新的"]), TestLibrary.file(path: "/b.srt", texts: ["新"])]
        #expect(throws: DatabaseError.self) { try test.library.store(batch) }
        #expect(try test.library.indexedFiles().keys.sorted() == ["/old.srt"])
        #expect(try test.search("新").isEmpty)
        try test.library.pool.write { db in
            try db.execute(sql: "DROP TRIGGER fail")
            try db.execute(sql: "INSERT INTO dialogue_fts(dialogue_fts, rank) VALUES ('integrity-check', 1)")
        }
        try test.library.store(batch)
        #expect(try test.search("新").sorted() == ["[新]", "[新]的"])
    }

    @Test func aBatchReplacingTheNewestLinesAndRepeatingAPathIndexesExactlyTheStoredLines() throws {
        let test = try TestLibrary()
        try test.store(path: "/a.srt", texts: ["甲一", "甲二"])
        // /a.srt held the highest ids: the new lines reuse them, and every one of them is indexed once.
        try test.library.store([
            TestLibrary.file(path: "/b.srt", texts: ["乙"]), TestLibrary.file(path: "/a.srt", texts: ["甲三"]),
            TestLibrary.file(path: "/c.srt", texts: ["丙"]), TestLibrary.file(path: "/c.srt", texts: ["丁"]),
        ])
        #expect(try test.search("甲") == ["[甲]三"])
        #expect(try test.search("乙") == ["[乙]"])
        #expect(try test.search("丙").isEmpty)
        #expect(try test.search("丁") == ["[丁]"])
        #expect(try test.library.counts().lines == 3)
        try test.library.pool.write { db in
            try db.execute(sql: "INSERT INTO dialogue_fts(dialogue_fts, rank) VALUES ('integrity-check', 1)")
        }
    }

    @Test func aBatchReplacingMoreFilesThanOneDeleteNamesReplacesEveryOne() throws {
        let test = try TestLibrary()
        // More paths than one DELETE statement names, some with quotes, SQL wildcards and parameter marks.
        let count = LibraryDatabase.pathsPerDelete * 2 + 5
        let paths = (0..<count).map { index in index % 7 == 0 ? "/it's ?\(index)%_.srt" : "/\(index).srt" }
        try test.library.store(paths.map { TestLibrary.file(path: $0, texts: ["旧的\($0)"]) })
        try test.library.store(paths.map { TestLibrary.file(path: $0, texts: ["新的\($0)"], mtime: 2) })
        #expect(try test.search("旧").isEmpty)
        #expect(try test.library.counts().files == count)
        #expect(try test.library.counts().lines == count)
        let every = DialogueSearchOptions(limit: count + 1)
        #expect(try test.library.search(try DialogueQuery("新的"), options: every).count == count)
        try test.library.pool.write { db in
            try db.execute(sql: "INSERT INTO dialogue_fts(dialogue_fts, rank) VALUES ('integrity-check', 1)")
        }
    }

    @Test func theIndexKeepsABatchOfNewTermsInMemoryAlsoWhenCreatedWithoutIt() throws {
        let test = try TestLibrary()
        let hashSize = "SELECT v FROM dialogue_fts_config WHERE k = 'hashsize'"
        #expect(try test.library.pool.read { try Int.fetchOne($0, sql: hashSize) } == 64 << 20)
        try test.library.pool.write { db in
            try db.execute(sql: "DELETE FROM dialogue_fts_config WHERE k = 'hashsize'")
        }
        try test.library.prepareDialogueIndex(foldsChinese: false)
        #expect(try test.library.pool.read { try Int.fetchOne($0, sql: hashSize) } == 64 << 20)
    }

    @Test func aNewLibraryGivesFreePagesBackAtTheCheckpoint() throws {
        let test = try TestLibrary()
        try test.store(path: "/a.srt", texts: (0..<2000).map { "第\($0)行的对白 line \($0)" })
        try test.library.remove(paths: ["/a.srt"])
        let freePages = { try test.library.pool.read { try Int.fetchOne($0, sql: "PRAGMA freelist_count") } }
        #expect(try freePages() ?? 0 > 0)
        try test.library.checkpoint()
        #expect(try freePages() == 0)
        #expect(try test.library.pool.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
    }

    @Test func anotherConnectionSearchesWhileAWriteIsOpen() throws {
        let test = try TestLibrary()
        try test.store(path: "/a.srt", texts: ["你好"])
        let other = try LibraryDatabase(path: test.library.path, mode: .existing)
        try test.library.pool.write { db in
            try LibraryDatabase.store([TestLibrary.file(path: "/b.srt", texts: ["你好吗"])], in: db)
            // The uncommitted file is invisible to the other connection, which is not blocked.
            let hits = try other.search(try DialogueQuery("你好"), options: DialogueSearchOptions())
            #expect(hits.map(\.path) == ["/a.srt"])
        }
        #expect(try other.search(try DialogueQuery("你好"), options: DialogueSearchOptions()).count == 2)
    }
}

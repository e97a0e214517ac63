import Foundation
import TestSupport
import Testing

@testable import subfix

/// `search --context` on both backends: the lines around a hit by time, at the file's start, middle and end,
/// in a file whose lines are not in time order (issue 35, item 5: the neighbours are now read by id, which
/// costs the context, not the file's length).
@Suite struct SearchContextTests {
    /// Seven lines written in the order 3 1 2 7 5 4 6 (seconds); the ones at 1, 4 and 7 s say 你好.
    static func writeShuffled(in fixture: IndexFixture) throws -> String {
        var text = ""
        for (number, second) in [3, 1, 2, 7, 5, 4, 6].enumerated() {
            let words = [1, 4, 7].contains(second) ? "你好" : "天气"
            text += "\(number + 1)\n00:00:0\(second),000 --> 00:00:0\(second),500\n\(words) 第\(second)秒\n\n"
        }
        let path = fixture.path + "/media/o.zh.srt"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func expected(_ path: String) -> String {
        func line(_ second: Int, _ words: String) -> String {
            "00:00:0\(second).000 --> 00:00:0\(second).500  \(words) 第\(second)秒"
        }
        return [
            "\(path) [zh] " + line(1, "你好"), "    " + line(2, "天气"), "    " + line(3, "天气"), "--",
            "    " + line(2, "天气"), "    " + line(3, "天气"), "\(path) [zh] " + line(4, "你好"),
            "    " + line(5, "天气"), "    " + line(6, "天气"), "--", "    " + line(5, "天气"), "    " + line(6, "天气"),
            "\(path) [zh] " + line(7, "你好"),
        ].joined(separator: "\n") + "\n"
    }

    @Test func sqliteShowsTheNeighboursByTime() throws {
        let fixture = try IndexFixture()
        let path = try Self.writeShuffled(in: fixture)
        #expect(PostgresCommandTests.run(["index", fixture.path + "/media", "--db", fixture.db]).0 == .success)
        let (status, stdout, stderr) = PostgresCommandTests.run(["search", "你好", "--context", "2", "--db", fixture.db])
        #expect(status == .success, "\(stderr)")
        #expect(stdout == Self.expected(path))
        // One line each side: the first hit has none before, the last none after.
        let one = PostgresCommandTests.run(["search", "第1秒 OR 第7秒", "--context", "1", "--db", fixture.db]).1
        #expect(one.split(separator: "\n").count == 5, "\(one)")
    }

    @Test func postgresShowsTheSameNeighbours() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.makeDatabase()
        let fixture = try IndexFixture()
        let path = try Self.writeShuffled(in: fixture)
        #expect(PostgresCommandTests.run(["index", fixture.path + "/media", "--db", url]).0 == .success)
        let (status, stdout, stderr) = PostgresCommandTests.run(["search", "你好", "--context", "2", "--db", url])
        #expect(status == .success, "\(stderr)")
        #expect(stdout == Self.expected(path))
    }
}

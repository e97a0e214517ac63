import Foundation
import Testing

@testable import subfix

/// docs/json.md is the contract of `--json`: these tests run every command with `--json` as a built process, on
/// Samples/ and generated files (failures included), and check each printed line against the document's tables.
@Suite struct JSONSchemaTests {
    /// One command line run for the schema check, and the object types it must print.
    struct Case {
        var arguments: [String]
        var expects: Set<String>
    }

    @Test func everyCommandsOutputMatchesTheDocumentedSchema() throws {
        let schema = try JSONSchemaDocument.load()
        let folder = try SubfixBinary.folder("json")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let samples = SubfixBinary.samples
        let input = folder + "/in"
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        for name in ["gbk.srt", "yahei-styles.ass", "cues.vtt"] {
            try FileManager.default.copyItem(atPath: samples + "/" + name, toPath: input + "/" + name)
        }
        try FileManager.default.copyItem(atPath: samples + "/tram.mkv", toPath: input + "/tram.mkv")
        try SubfixBinary.write(
            "1\n00:00:01,000 --> 00:00:02,000\n你好\n\n2\n00:00:03,000 --> 00:00:04,000\n再见\n\n"
                + "3\n00:00:05,000 --> 00:00:06,000\n你好，明天见\n", to: input + "/hello.srt")
        // Not text: fails in fix, check and index, giving file objects with errors and error objects.
        try Data([0x31, 0x0A, 0x00, 0xFF, 0x00, 0x0A]).write(to: URL(fileURLWithPath: input + "/broken.srt"))
        let fonts = samples + "/media-src"
        let db = ["--db", folder + "/library.sqlite"]

        let cases: [Case] = [
            Case(arguments: ["fix", "in", "--dry-run", "--json", "-v"] + db, expects: ["file", "summary", "error"]),
            Case(arguments: ["fix", "in", "--out", "out", "--embed", "--json"] + db, expects: ["file", "summary"]),
            Case(
                arguments: ["fix", "in/yahei-styles.ass", "--dry-run", "--policy", "missing", "--json"] + db,
                expects: ["file", "summary"]),
            Case(
                arguments: ["probe", "in/tram.mkv", samples + "/tram.mp4", "none.mkv", "--json"],
                expects: ["file", "error"]),
            Case(
                arguments: [
                    "extract", "in/tram.mkv", "--all", "--fix", "--embed", "--out", "tracks", "--attachments", "fonts",
                    "--json",
                ] + db, expects: ["track", "attachment"]),
            Case(
                arguments: [
                    "render", samples + "/render-demo.ass", "--at", "1", "--at", "2", "--out-dir", "frames", "--sheet",
                    "sheet.png", "--size", "320x180", "--json",
                ] + db, expects: ["frame", "sheet"]),
            Case(arguments: ["fonts", "--no-system-fonts", "--fonts-dir", fonts, "--json"] + db, expects: ["font"]),
            Case(
                arguments: [
                    "check", "in/yahei-styles.ass", "in/broken.srt", "--no-system-fonts", "--fonts-dir", fonts,
                    "--json",
                ] + db, expects: ["file", "error"]),
            Case(arguments: ["index", "in", "--json"] + db, expects: ["file", "summary", "error"]),
            Case(arguments: ["search", "你好", "--context", "1", "--json"] + db, expects: ["hit"]),
            Case(arguments: ["search", "你好", "--count", "--json"] + db, expects: ["count"]),
            Case(arguments: ["search", "你好", "--files-with-matches", "--json"] + db, expects: ["file"]),
            Case(arguments: ["search", "你好", "--json", "--db", folder + "/none.sqlite"], expects: ["error"]),
            Case(arguments: ["jobs", "--json"] + db, expects: ["job"]),
            Case(
                arguments: ["report", "in/hello.srt", "in/broken.srt", "--out", "report.html", "--json"] + db,
                expects: ["file", "summary", "error"]),
        ]
        var seen: [String: Set<String>] = [:]
        for item in cases {
            let run = try SubfixBinary.run(item.arguments, in: folder)
            let command = item.arguments[0]
            #expect(run.hung == false && (run.status ?? 9) <= 2, "\(item.arguments): \(run.stderr)")
            var types = Set<String>()
            for line in run.stdout.split(separator: "\n").map(String.init) {
                let problems = schema.problems(line: line, command: command)
                #expect(problems.isEmpty, "\(item.arguments.joined(separator: " ")): \(problems)")
                if case .string(let type)? = (try? ParsedJSON.parse(line))?["type"] { types.insert(type) }
            }
            #expect(item.expects.isSubset(of: types), "\(item.arguments) printed only \(types.sorted())")
            seen[command, default: []].formUnion(types)
        }
        // Every documented object type was printed by some run (but queue's and worker's, which need a PostgreSQL
        // server and are checked by PostgresQueueStatusTests and PostgresFixJobTests):
        // a type the commands no longer print is drift too.
        for (command, types) in schema.sections where !command.isEmpty && !["queue", "worker"].contains(command) {
            for type in types where !type.nested {
                #expect(seen[command]?.contains(type.name) == true, "\(command) never printed '\(type.name)'")
            }
        }
    }

    /// Every command with `--json` has a section in docs/json.md, and every section names a command.
    @Test func everyJSONCommandIsDocumented() throws {
        let schema = try JSONSchemaDocument.load()
        let withJSON = Set(commandTable.filter { $0.option(named: "json") != nil }.map(\.name))
        let documented = Set(schema.sections.keys.filter { !$0.isEmpty })
        #expect(withJSON == documented)
        #expect(schema.sections[""]?.contains { $0.name == "error" } == true)
    }

    /// The check fails on drift: an undocumented key, a missing key, a wrong type, an unknown object type, a nested
    /// object with a wrong key.
    @Test func theCheckCatchesDrift() throws {
        let schema = try JSONSchemaDocument.load()
        let good = #"{"type":"count","file":"a.srt","count":2}"#
        #expect(schema.problems(line: good, command: "search").isEmpty)
        let drifted: [(String, String)] = [
            (#"{"type":"count","file":"a.srt","count":2,"extra":1}"#, "key 'extra' is not documented"),
            (#"{"type":"count","file":"a.srt"}"#, "required key 'count' is missing"),
            (#"{"type":"count","file":"a.srt","count":"2"}"#, "'count' is"),
            (#"{"type":"count","file":"a.srt","count":2.5}"#, "'count' is"),
            (#"{"type":"tally","file":"a.srt","count":2}"#, "'tally' is not documented"),
            (#"{"file":"a.srt","count":2}"#, "no string `type` key"),
            (#"{"type":"count","file":"a.srt","file":"b.srt","count":2}"#, "duplicate key"),
        ]
        for (line, expected) in drifted {
            let problems = schema.problems(line: line, command: "search")
            #expect(problems.contains { $0.contains(expected) }, "\(line): \(problems)")
        }
        let nested =
            #"{"type":"file","file":"m.mkv","format":"matroska","duration":1.0,"streams":[{"stream":0}],"attachments":[]}"#
        #expect(schema.problems(line: nested, command: "probe").contains { $0.contains("required key 'kind'") })
    }
}

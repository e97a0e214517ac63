import Foundation
import SubDB
import SubfixLibrary

// search-bench LIBRARY LINES.txt TRIGRAM.sqlite (or - to skip the trigram peer, for the 10M-line corpus)
// Query latency of `LibraryDatabase.search` (20 hits, bm25) for 1-, 2- and 4-character CJK queries and English
// words sampled from the corpus, against SQLite's trigram tokenizer over the same lines (built here, timed).
// Prints one line per measure, `key value` pairs the shell script turns into ratios.

struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func isCJK(_ c: Character) -> Bool {
    guard let scalar = c.unicodeScalars.first, c.unicodeScalars.count == 1 else { return false }
    switch scalar.value {
    case 0x3041...0x30FF, 0x4E00...0x9FFF: return true
    default: return false
    }
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: search-bench LIBRARY LINES.txt TRIGRAM.sqlite\n".utf8))
    exit(2)
}
let (libraryPath, linesPath, trigramPath) = (arguments[1], arguments[2], arguments[3])
// Queries are sampled from (and frequencies counted over) the first million lines: the generator's lines are
// alike throughout, and ten million Swift strings would not fit beside the library's page cache.
let sampleLimit = 1_000_000
var lines: [String] = []
do {
    guard let file = fopen(linesPath, "r") else {
        FileHandle.standardError.write(Data("search-bench: cannot read \(linesPath)\n".utf8))
        exit(1)
    }
    defer { fclose(file) }
    var buffer: UnsafeMutablePointer<CChar>?
    var capacity = 0
    while lines.count < sampleLimit {
        let length = getline(&buffer, &capacity, file)
        guard length > 0, let buffer else { break }
        lines.append(String(decoding: UnsafeRawBufferPointer(start: buffer, count: length - 1), as: UTF8.self))
    }
    free(buffer)
}

// Queries sampled from the corpus, so that they have hits: frequent and rare alike.
var random = Generator(state: 42)
var classes: [(String, [String])] = [("cjk1", []), ("cjk2", []), ("cjk4", []), ("english", [])]
let perClass = 200
while classes.contains(where: { $0.1.count < perClass }) {
    let line = Array(lines[Int.random(in: 0..<lines.count, using: &random)])
    for index in classes.indices where classes[index].1.count < perClass {
        let name = classes[index].0
        if name == "english" {
            let words = String(line).split { !$0.isASCII || !$0.isLetter }.filter { $0.count >= 3 }
            if let word = words.randomElement(using: &random) { classes[index].1.append(String(word).lowercased()) }
            continue
        }
        let length = name == "cjk1" ? 1 : name == "cjk2" ? 2 : 4
        guard line.count >= length else { continue }
        let start = Int.random(in: 0...(line.count - length), using: &random)
        let piece = line[start..<start + length]
        if piece.allSatisfy(isCJK) { classes[index].1.append(String(piece)) }
    }
}

let library = try LibraryDatabase(path: libraryPath, mode: .readOnly)
let options = DialogueSearchOptions(limit: 20)
for (name, queries) in classes {
    // Warm the page cache once per class, then time every query.
    _ = try library.search(try DialogueQuery(queries[0]), options: options)
    var times: [Double] = []
    var hits = 0
    for query in queries {
        let start = now()
        hits += try library.search(try DialogueQuery(query), options: options).count
        times.append((now() - start) * 1000)
    }
    print(
        String(
            format: "subfix %@ p50 %.3f p99 %.3f hits %.1f", name, percentile(times, 0.5),
            percentile(times, 0.99), Double(hits) / Double(queries.count)))
    // The three slowest queries of the class, for whoever looks into a p99.
    let slowest = zip(queries, times).sorted { $0.1 > $1.1 }.prefix(3)
    print("slowest \(name) " + slowest.map { String(format: "%@ %.1f", $0.0, $0.1) }.joined(separator: " "))
}

// The ranking rule's worst case: the CJK character closest to (and at least) 10% of all lines, 20 hits.
var lineCounts: [Character: Int] = [:]
for line in lines {
    for character in Set(line) where isCJK(character) { lineCounts[character, default: 0] += 1 }
}
let tenth = lines.count / 10
if let (frequent, count) = lineCounts.filter({ $0.value >= tenth }).min(by: { $0.value < $1.value }) {
    let query = try DialogueQuery(String(frequent))
    _ = try library.search(query, options: options)
    var times: [Double] = []
    var hits = 0
    for _ in 0..<100 {
        let start = now()
        hits = try library.search(query, options: options).count
        times.append((now() - start) * 1000)
    }
    print(
        String(
            format: "frequent %@ lines %d p50 %.3f p99 %.3f hits %d", String(frequent), count,
            percentile(times, 0.5), percentile(times, 0.99), hits))
}

// The peer: SQLite's trigram tokenizer over the same lines. Queries of 3+ characters use its index (MATCH);
// shorter ones can only scan (LIKE), as trigram cannot index them.
// Queries for the ripgrep peer and the whole-process timings, a few per class.
for (name, queries) in classes {
    print("queries \(name) " + queries.prefix(10).joined(separator: " "))
}
guard trigramPath != "-" else { exit(0) }
try? FileManager.default.removeItem(atPath: trigramPath)
try? FileManager.default.removeItem(atPath: trigramPath + "-wal")
let trigram = try DatabaseQueue(path: trigramPath)
let buildStart = now()
try trigram.write { db in
    try db.execute(sql: "PRAGMA journal_mode = OFF")
}
try trigram.write { db in
    try db.execute(sql: "CREATE VIRTUAL TABLE tri USING fts5(text, tokenize='trigram')")
    let insert = try db.makeStatement(sql: "INSERT INTO tri (text) VALUES (?)")
    for line in lines { try insert.execute(arguments: [line]) }
}
let buildSeconds = now() - buildStart
print(String(format: "trigram build %.3f lines %d", buildSeconds, lines.count))
for (name, queries) in classes {
    var times: [Double] = []
    var hits = 0
    try trigram.read { db in
        for query in queries {
            let start = now()
            if query.count >= 3 {
                let phrase = "\"" + query.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                hits += try Int.fetchAll(
                    db, sql: "SELECT rowid FROM tri WHERE tri MATCH ? ORDER BY rank LIMIT 20", arguments: [phrase]
                ).count
            } else {
                // FTS5's trigram index cannot hold 1- and 2-character queries (MATCH and LIKE find nothing):
                // what is left is scanning its content table.
                hits += try Int.fetchAll(
                    db, sql: "SELECT id FROM tri_content WHERE c0 LIKE ? LIMIT 20", arguments: ["%" + query + "%"]
                ).count
            }
            times.append((now() - start) * 1000)
        }
    }
    print(
        String(
            format: "trigram %@ p50 %.3f p99 %.3f hits %.1f", name, percentile(times, 0.5),
            percentile(times, 0.99), Double(hits) / Double(queries.count)))
}

import Foundation
import SubDB
internal import CSQLite

// Record and FTS5 benchmarks against the raw sqlite3 C API, on the core benchmark's schema and data
// (BenchData in CoreBenchmarks.swift), in the same run.

/// The benchmark row as a Codable record.
private struct Dialogue: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "dialogue"
    var id: Int64
    var name: String
    var score: Int64
    var startMs: Int64
    var text: String

    enum CodingKeys: String, CodingKey {
        case id, name, score
        case startMs = "start_ms"
        case text
    }
}

/// A match of the full-text table.
private struct DialogueMatch: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "dialogue_ft"
    var rowid: Int64
    var text: String
}

private let ftsQueryCount = 200
private let ftsSQL = "SELECT rowid, text FROM dialogue_ft WHERE dialogue_ft MATCH ? ORDER BY rank LIMIT 20"

private func rawInsertRecords(_ connection: RawConnection, _ records: [Dialogue]) {
    connection.exec("BEGIN")
    let statement = connection.prepare(BenchData.insertSQL)
    for record in records {
        sqlite3_bind_int64(statement, 1, record.id)
        record.name.withCString { _ = sqlite3_bind_text(statement, 2, $0, -1, csqlite_transient()) }
        sqlite3_bind_int64(statement, 3, record.score)
        sqlite3_bind_int64(statement, 4, record.startMs)
        record.text.withCString { _ = sqlite3_bind_text(statement, 5, $0, -1, csqlite_transient()) }
        guard sqlite3_step(statement) == SQLITE_DONE else { fatalError("raw C insert failed") }
        sqlite3_reset(statement)
    }
    sqlite3_finalize(statement)
    connection.exec("COMMIT")
}

private func rawFetchRecords(_ connection: RawConnection) -> [Dialogue] {
    let statement = connection.prepare(BenchData.selectSQL)
    defer { sqlite3_finalize(statement) }
    var records: [Dialogue] = []
    while sqlite3_step(statement) == SQLITE_ROW {
        records.append(
            Dialogue(
                id: sqlite3_column_int64(statement, 0),
                name: String(cString: sqlite3_column_text(statement, 1)),
                score: sqlite3_column_int64(statement, 2),
                startMs: sqlite3_column_int64(statement, 3),
                text: String(cString: sqlite3_column_text(statement, 4))))
    }
    return records
}

private func rawFTSQueries(_ connection: RawConnection, _ patterns: [String]) -> Int {
    let statement = connection.prepare(ftsSQL)
    defer { sqlite3_finalize(statement) }
    var count = 0
    for pattern in patterns {
        pattern.withCString { _ = sqlite3_bind_text(statement, 1, $0, -1, csqlite_transient()) }
        while sqlite3_step(statement) == SQLITE_ROW {
            let rowid = sqlite3_column_int64(statement, 0)
            let text = String(cString: sqlite3_column_text(statement, 1))
            count &+= Int(rowid) &+ text.utf8.count
        }
        sqlite3_reset(statement)
    }
    return count
}

/// Runs the record and FTS5 benchmarks and prints ratios to raw C.
func runRecordBenchmarks() throws {
    let records = BenchData.rows.map {
        Dialogue(id: $0.id, name: $0.name, score: $0.score, startMs: $0.startMs, text: $0.text)
    }

    // Codable record insert in one transaction.
    var raw: RawConnection?
    let rawInsert = try measureMedian(setUp: {
        raw = nil
        raw = RawConnection(path: freshDatabasePath("raw-records.sqlite"))
        raw?.exec(BenchData.createTableSQL)
    }) {
        if let raw { rawInsertRecords(raw, records) }
    }
    var dbQueue: DatabaseQueue?
    let subdbInsert = try measureMedian(setUp: {
        dbQueue = nil
        dbQueue = try DatabaseQueue(path: freshDatabasePath("subdb-records.sqlite"))
        try dbQueue?.write { db in try db.execute(sql: BenchData.createTableSQL) }
    }) {
        try dbQueue?.write { db in
            for record in records { try record.insert(db) }
        }
    }
    printComparison("Codable record insert", raw: rawInsert, subdb: subdbInsert, target: 4)

    // Codable fetchAll.
    let rawConnection = RawConnection(path: benchDirectory + "/raw-records.sqlite")
    let queue = try DatabaseQueue(path: benchDirectory + "/subdb-records.sqlite")
    var sink = 0
    let rawFetch = try measureMedian { sink &+= rawFetchRecords(rawConnection).count }
    let subdbFetch = try measureMedian {
        sink &+= try queue.read { db in try Dialogue.fetchAll(db) }.count
    }
    printComparison("Codable record fetchAll", raw: rawFetch, subdb: subdbFetch, target: 2.5)

    // 200 FTS5 queries, top 20 by bm25, on one shared database file.
    try queue.write { db in
        try db.create(virtualTable: "dialogue_ft", using: FTS5()) { t in t.column("text") }
        try db.execute(sql: "INSERT INTO dialogue_ft(rowid, text) SELECT id, text FROM dialogue")
    }
    let rawFTSConnection = RawConnection(path: benchDirectory + "/subdb-records.sqlite")
    let patterns = try (0..<ftsQueryCount).map { index in
        try FTS5Pattern(rawPattern: "\(100 + index * 3)* OR bridge \(index * 487)")
    }
    let rawPatterns = patterns.map(\.rawPattern)
    let rawFTS = try measureMedian { sink &+= rawFTSQueries(rawFTSConnection, rawPatterns) }
    let subdbFTS = try measureMedian {
        sink &+= try queue.read { db in
            var count = 0
            for pattern in patterns {
                let matches = try DialogueMatch.select(Column.rowID, Column("text"))
                    .matching(pattern).order(Column.rank).limit(20).fetchAll(db)
                for match in matches { count &+= Int(match.rowid) &+ match.text.utf8.count }
            }
            return count
        }
    }
    printComparison("200 FTS5 queries, top 20 by bm25", raw: rawFTS, subdb: subdbFTS, target: 1.1)
    if sink == 42 { print("") }  // keeps the results alive
}

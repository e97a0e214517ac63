import Foundation
import SubDB

// `make bench` (Benchmarks/subdb.sh): SubDB against the raw sqlite3 C API, same schema, same data, same run.
// Shared helpers live in CoreBenchmarks.swift: BenchData (rows, SQL), freshDatabasePath, measureMedian,
// printComparison, printMicroseconds.

do {
    try runCoreBenchmarks()
    try runRecordBenchmarks()
    try runObservationBenchmarks()

    // MARK: Records and FTS5 (record/query-interface helper)
    // Add `try runRecordBenchmarks()` here: Codable record insert and fetchAll, and 200 FTS5 queries (top 20 by
    // bm25), in a RecordBenchmarks.swift next to this file.
} catch {
    FileHandle.standardError.write(Data("subdb-bench: error: \(error)\n".utf8))
    exit(1)
}

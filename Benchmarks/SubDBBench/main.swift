import Foundation
import SubDB

// `make bench` (Benchmarks/subdb.sh): SubDB against the raw sqlite3 C API, same schema, same data, same run.
// Shared helpers live in CoreBenchmarks.swift: BenchData (rows, SQL), freshDatabasePath, measureMedian,
// printComparison, printMicroseconds.

// `subdb-bench` runs everything; `subdb-bench core` or `subdb-bench records` runs one group.
let groups = Set(CommandLine.arguments.dropFirst())

do {
    if let profile = groups.first(where: { $0.hasPrefix("profile:") }) {
        let name = String(profile.dropFirst("profile:".count))
        switch name {
        case "fts": try runFTSProfile()
        case "rawFTS": try runFTSProfile(raw: true)
        case "recordFetchAll": try runFTSProfile(recordFetchAll: true)
        case "including": try runObservationBenchmarks(associationProfile: true)
        case "rawIncluding": try runObservationBenchmarks(associationProfile: false)
        default: try runCoreProfile(name)
        }
        exit(0)
    }
    if groups.isEmpty || groups.contains("core") {
        try runCoreBenchmarks()
    }

    // MARK: Records and FTS5 (record/query-interface helper): RecordBenchmarks.swift
    if groups.isEmpty || groups.contains("records") {
        try runRecordBenchmarks()
    }
    if groups.isEmpty || groups.contains("observation") { try runObservationBenchmarks() }
} catch {
    FileHandle.standardError.write(Data("subdb-bench: error: \(error)\n".utf8))
    exit(1)
}

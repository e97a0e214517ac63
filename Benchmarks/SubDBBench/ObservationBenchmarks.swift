import Dispatch
import Foundation
import SubDB
import Synchronization

// Observation and association benchmarks:
// - time from commit to onChange (median, p99) for 1,000 single-row commits with 10 live observations, on a
//   DatabaseQueue and on a DatabasePool;
// - an `including(all:)` request against the hand-written two-query equivalent in raw SQL (the same Codable
//   records, `WHERE authorId IN (...)` and grouping by hand), target within 1.5x.

private let commitCount = 1_000
private let observationCount = 10

private struct BenchAuthor: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "author"
    static let books = hasMany(BenchBook.self)
    var id: Int64
    var name: String
}

private struct BenchBook: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "book"
    var id: Int64
    var authorId: Int64
    var title: String
    var year: Int64
}

private struct BenchAuthorInfo: Decodable, FetchableRecord {
    var author: BenchAuthor
    var books: [BenchBook]
}

/// Median and 99th percentile of `samples`, in microseconds.
private func percentiles(_ samples: [UInt64]) -> (median: Double, p99: Double) {
    let sorted = samples.sorted()
    let median = Double(sorted[sorted.count / 2]) / 1_000
    let p99 = Double(sorted[min(sorted.count - 1, sorted.count * 99 / 100)]) / 1_000
    return (median, p99)
}

/// Records when each transaction commits: registered before the observations, it hears of the commit first.
private final class CommitClock: TransactionObserver, Sendable {
    let lastCommit = Mutex<UInt64>(0)
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) {
        let now = DispatchTime.now().uptimeNanoseconds
        lastCommit.withLock { $0 = now }
    }
    func databaseDidRollback(_ db: Database) {}
}

/// Commits `commitCount` single-row inserts, each waited for by the 10 observations, and returns the
/// latencies from each commit (as the writer connection reports it) to each onChange, and to the last of the 10.
private func measureCommitToChange(_ writer: some DatabaseWriter) throws -> (each: [UInt64], last: [UInt64]) {
    try writer.write { db in try db.execute(sql: "CREATE TABLE event (id INTEGER PRIMARY KEY, payload TEXT)") }
    let clock = CommitClock()
    try writer.writeWithoutTransaction { db in db.add(transactionObserver: clock, extent: .databaseLifetime) }
    let delivery = DispatchQueue(label: "subdb-bench.observation")
    let received = DispatchSemaphore(value: 0)
    let arrivals = Mutex<[UInt64]>([])
    let expected = Mutex<Int64>(0)
    let cancellables = (0..<observationCount).map { _ in
        ValueObservation.tracking { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM event") ?? 0 }
            .start(
                in: writer, scheduling: .async(onQueue: delivery),
                onError: { error in
                    FileHandle.standardError.write(Data("subdb-bench: observation error: \(error)\n".utf8))
                },
                onChange: { value in
                    guard value == expected.withLock({ $0 }) else { return }
                    let now = DispatchTime.now().uptimeNanoseconds
                    arrivals.withLock { $0.append(now) }
                    received.signal()
                })
    }
    for _ in 0..<observationCount { received.wait() }  // initial values
    var each: [UInt64] = []
    var last: [UInt64] = []
    for id in 1...Int64(commitCount) {
        expected.withLock { $0 = id }
        arrivals.withLock { $0.removeAll(keepingCapacity: true) }
        try writer.write { db in
            try db.execute(sql: "INSERT INTO event (id, payload) VALUES (?, 'x')", arguments: [id])
        }
        for _ in 0..<observationCount { received.wait() }
        let committed = clock.lastCommit.withLock { $0 }
        let times = arrivals.withLock { $0 }
        each += times.map { $0 > committed ? $0 - committed : 0 }
        last.append((times.max() ?? committed) > committed ? (times.max() ?? committed) - committed : 0)
    }
    withExtendedLifetime(cancellables) {}
    return (each, last)
}

private func printLatency(_ name: String, _ samples: (each: [UInt64], last: [UInt64])) {
    let each = percentiles(samples.each)
    let last = percentiles(samples.last)
    print(
        name.padding(toLength: 34, withPad: " ", startingAt: 0)
            + String(
                format: "each onChange median %7.1f µs  p99 %7.1f µs   all 10: median %7.1f µs  p99 %7.1f µs",
                each.median, each.p99, last.median, last.p99))
}

/// The hand-written equivalent of `Author.including(all: Author.books)`: two queries and grouping.
private func twoQueries(_ db: Database) throws -> [BenchAuthorInfo] {
    let authors = try BenchAuthor.fetchAll(db, sql: "SELECT * FROM author")
    let ids = authors.map { String($0.id) }.joined(separator: ",")
    let books = try BenchBook.fetchAll(db, sql: "SELECT * FROM book WHERE authorId IN (\(ids))")
    var byAuthor: [Int64: [BenchBook]] = [:]
    for book in books { byAuthor[book.authorId, default: []].append(book) }
    return authors.map { BenchAuthorInfo(author: $0, books: byAuthor[$0.id] ?? []) }
}

/// Runs the observation and association benchmarks and prints the results. `associationProfile` (true: the
/// `including(all:)` side, false: the two-query side) repeats one side of the association benchmark instead.
func runObservationBenchmarks(associationProfile: Bool? = nil) throws {
    if associationProfile == nil {
        print("\nObservation: \(commitCount) single-row commits, \(observationCount) live observations")
        let queue = try DatabaseQueue(path: freshDatabasePath("observation-queue.sqlite"))
        printLatency("commit → onChange (queue)", try measureCommitToChange(queue))
        let pool = try DatabasePool(path: freshDatabasePath("observation-pool.sqlite"))
        printLatency("commit → onChange (pool)", try measureCommitToChange(pool))
    }

    let authorCount = 2_000
    let booksPerAuthor = 10
    print("\nAssociations: \(authorCount) authors, \(authorCount * booksPerAuthor) books")
    let dbQueue = try DatabaseQueue(path: freshDatabasePath("associations.sqlite"))
    try dbQueue.write { db in
        try db.execute(
            sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id),
                                   title TEXT NOT NULL, year INTEGER NOT NULL);
                CREATE INDEX book_authorId ON book(authorId);
                """)
        for authorId in 1...Int64(authorCount) {
            try BenchAuthor(id: authorId, name: "Author \(authorId)").insert(db)
            for index in 0..<Int64(booksPerAuthor) {
                let id = (authorId - 1) * Int64(booksPerAuthor) + index + 1
                try BenchBook(id: id, authorId: authorId, title: "Book \(id)", year: 1900 + id % 120).insert(db)
            }
        }
    }
    let request = BenchAuthor.including(all: BenchAuthor.books).asRequest(of: BenchAuthorInfo.self)
    if let profile = associationProfile {
        // `subdb-bench profile:including` / `profile:rawIncluding`: one side only, repeated for a profiler.
        var count = 0
        for _ in 0..<50 {
            count &+= try dbQueue.read { db in profile ? try request.fetchAll(db) : try twoQueries(db) }.count
        }
        if count == 42 { print("") }
        return
    }
    var handBest = Double.infinity
    var associationBest = Double.infinity
    var sink = 0
    for _ in 0..<7 {
        handBest = min(
            handBest,
            try measureMedian(repetitions: 1) {
                sink &+= try dbQueue.read { db in try twoQueries(db) }.reduce(0) { $0 + $1.books.count }
            })
        associationBest = min(
            associationBest,
            try measureMedian(repetitions: 1) {
                sink &+= try dbQueue.read { db in try request.fetchAll(db) }.reduce(0) { $0 + $1.books.count }
            })
    }
    guard sink == 14 * authorCount * booksPerAuthor else {
        throw DatabaseError(
            message: "association benchmark fetched \(sink) books, expected \(14 * authorCount * booksPerAuthor)")
    }
    let ratio = associationBest / handBest
    print(
        "including(all:) vs 2 raw SQL queries".padding(toLength: 38, withPad: " ", startingAt: 0)
            + String(
                format: "raw SQL %8.2f ms   including(all:) %8.2f ms   ratio %5.2fx   target <= 1.5x   %@",
                handBest * 1000, associationBest * 1000, ratio, ratio <= 1.5 ? "ok" : "MISSED"))
}

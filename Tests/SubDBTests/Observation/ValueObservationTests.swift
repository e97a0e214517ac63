import Dispatch
import Foundation
import SubDB
import Synchronization
import Testing

/// A test recorder's scheduler, as GRDB users write them: it keeps the scheduled deliveries until the test runs
/// them, and counts them.
private final class ManualScheduler: ValueObservationScheduler {
    private let pending = Mutex<[@Sendable () -> Void]>([])
    let immediate: Bool

    init(immediate: Bool) { self.immediate = immediate }

    func immediateInitialValue() -> Bool { immediate }
    func schedule(_ action: @escaping @Sendable () -> Void) { pending.withLock { $0.append(action) } }

    /// The number of deliveries waiting.
    var pendingCount: Int { pending.withLock { $0.count } }

    /// Runs the waiting deliveries, in order.
    func runPending() {
        let actions = pending.withLock { actions in
            defer { actions.removeAll() }
            return actions
        }
        for action in actions { action() }
    }
}

@Suite struct ValueObservationTests {
    let queue = DispatchQueue(label: "ValueObservationTests")

    private func insertPlayer(_ writer: any DatabaseWriter, _ name: String, score: Int = 0) throws {
        try writer.write { db in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: [name, score])
        }
    }

    @Test(arguments: WriterKind.allCases)
    func initialValueThenOneValuePerCommit(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        let observation = ValueObservation.tracking { db in
            try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id")
        }
        let collector = Collector<[String]>()
        let cancellable = observation.start(
            in: database.writer, scheduling: .async(onQueue: queue),
            onError: collector.fail, onChange: collector.append)
        collector.wait(forCount: 1)
        try insertPlayer(database.writer, "Arthur")
        collector.wait(forCount: 2)
        try database.writer.write { db in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Barbara', 1)")
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Craig', 2)")
        }
        let values = collector.wait(forCount: 3)
        #expect(values == [[], ["Arthur"], ["Arthur", "Barbara", "Craig"]])
        #expect(collector.errors.isEmpty)
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases)
    func rollbackAndOtherTablesNotifyNothing(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        let observation = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? -1
        }
        let collector = Collector<Int>()
        let cancellable = observation.start(
            in: database.writer, scheduling: .async(onQueue: queue),
            onError: collector.fail, onChange: collector.append)
        collector.wait(forCount: 1)
        // A rolled-back transaction on the observed table.
        try database.writer.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Ghost', 0)")
                return .rollback
            }
        }
        // A failed write transaction.
        #expect(throws: DatabaseError.self) {
            try database.writer.write { db in
                try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Ghost', 0)")
                try db.execute(sql: "INSERT INTO player (name, score) VALUES (NULL, 0)")
            }
        }
        // Writes to another table.
        try database.writer.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Red')") }
        try database.writer.write { db in try db.execute(sql: "UPDATE team SET name = 'Blue'") }
        // Then one real change: the only value after the initial one.
        try insertPlayer(database.writer, "Arthur")
        collector.wait(forCount: 2)
        try database.writer.write { db in try db.execute(sql: "DELETE FROM team") }
        try insertPlayer(database.writer, "Barbara")
        #expect(collector.wait(forCount: 3) == [0, 1, 2])
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: WriterKind.allCases)
    func updatesOfUnreadColumnsNotifyNothing(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        try insertPlayer(database.writer, "Arthur", score: 10)
        let observation = ValueObservation.tracking { db in
            try String.fetchAll(db, sql: "SELECT name FROM player")
        }
        let regions = Mutex<[String]>([])
        let collector = Collector<[String]>()
        let cancellable =
            observation
            .handleEvents(willTrackRegion: { region in regions.withLock { $0.append(region.description) } })
            .start(
                in: database.writer, scheduling: .async(onQueue: queue), onError: collector.fail,
                onChange: collector.append)
        collector.wait(forCount: 1)
        try database.writer.write { db in try db.execute(sql: "UPDATE player SET score = score + 1") }
        try database.writer.write { db in try db.execute(sql: "UPDATE player SET name = 'Barbara'") }
        #expect(collector.wait(forCount: 2) == [["Arthur"], ["Barbara"]])
        #expect(regions.withLock { $0 } == ["player(name)"])
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: WriterKind.allCases)
    func deleteAllNotifiesDespiteTruncateOptimization(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        try insertPlayer(database.writer, "Arthur")
        let collector = Collector<Int>()
        let cancellable = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? -1
        }
        .start(
            in: database.writer, scheduling: .async(onQueue: queue), onError: collector.fail,
            onChange: collector.append)
        collector.wait(forCount: 1)
        try database.writer.write { db in try db.execute(sql: "DELETE FROM player") }
        #expect(collector.wait(forCount: 2) == [1, 0])
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: WriterKind.allCases)
    func declaredRegions(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        // The fetch reads nothing: only the declared region counts.
        let counter = Mutex(0)
        let observation = ValueObservation.tracking(region: Table("team"), Table("player").all()) { _ in
            counter.withLock { value -> Int in
                value += 1
                return value
            }
        }
        let collector = Collector<Int>()
        let cancellable = observation.start(
            in: database.writer, scheduling: .async(onQueue: queue), onError: collector.fail,
            onChange: collector.append)
        collector.wait(forCount: 1)
        try database.writer.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Red')") }
        collector.wait(forCount: 2)
        try database.writer.write { db in try db.execute(sql: "CREATE TABLE other (x)") }
        try database.writer.write { db in try db.execute(sql: "INSERT INTO other VALUES (1)") }
        try insertPlayer(database.writer, "Arthur")
        #expect(collector.wait(forCount: 3) == [1, 2, 3])
        withExtendedLifetime(cancellable) {}
    }

    @Test func constantRegionKeepsTheFirstRegion() throws {
        let database = try ObservedDatabase(.queue)
        // Reads `team` only on the first fetch: later team changes are not observed.
        let isFirst = Mutex(true)
        let observation = ValueObservation.trackingConstantRegion { db -> Int in
            let first = isFirst.withLock { value in
                defer { value = false }
                return value
            }
            if first { _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team") }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? -1
        }
        let collector = Collector<Int>()
        let cancellable = observation.start(
            in: database.writer, scheduling: .async(onQueue: queue), onError: collector.fail,
            onChange: collector.append)
        collector.wait(forCount: 1)
        try insertPlayer(database.writer, "Arthur")
        collector.wait(forCount: 2)
        try database.writer.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Red')") }
        // The team insert notifies: the first region (team + player) is kept.
        collector.wait(forCount: 3)
        try insertPlayer(database.writer, "Barbara")
        #expect(collector.wait(forCount: 4) == [0, 1, 1, 2])
        withExtendedLifetime(cancellable) {}
    }

    @Test func trackingFollowsTheLatestRegion() throws {
        let database = try ObservedDatabase(.queue)
        // Reads `team` only when a player exists.
        let observation = ValueObservation.tracking { db -> String in
            let players = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0
            if players == 0 { return "no players" }
            return "teams: \(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team") ?? 0)"
        }
        let collector = Collector<String>()
        let cancellable = observation.start(
            in: database.writer, scheduling: .async(onQueue: queue), onError: collector.fail,
            onChange: collector.append)
        collector.wait(forCount: 1)
        try database.writer.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Red')") }
        try insertPlayer(database.writer, "Arthur")
        collector.wait(forCount: 2)
        try database.writer.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Blue')") }
        #expect(collector.wait(forCount: 3) == ["no players", "teams: 1", "teams: 2"])
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: WriterKind.allCases)
    func schemaChangesUpdateTheTrackedColumns(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        let collector = Collector<[Int]>()
        // `SELECT *` reads every column that exists when SQLite compiles it (the value is the first column).
        let regions = Mutex<[String]>([])
        let cancellable = ValueObservation.tracking { db in
            try Int.fetchAll(db, sql: "SELECT * FROM player")
        }
        .handleEvents(willTrackRegion: { region in regions.withLock { $0.append(region.description) } })
        .start(
            in: database.writer, scheduling: .async(onQueue: queue), onError: collector.fail,
            onChange: collector.append)
        collector.wait(forCount: 1)
        try database.writer.write { db in
            try db.execute(sql: "ALTER TABLE player ADD COLUMN bonus INTEGER NOT NULL DEFAULT 0")
        }
        try insertPlayer(database.writer, "Arthur")
        collector.wait(forCount: 2)
        // SQLite recompiled the statement for the new schema: the region now has `bonus`, and updating it
        // notifies (the ids are unchanged, and no duplicates are removed).
        try database.writer.write { db in try db.execute(sql: "UPDATE player SET bonus = 5") }
        #expect(collector.wait(forCount: 3) == [[], [1], [1]])
        #expect(regions.withLock { $0 } == ["player(id,name,score)", "player(bonus,id,name,score)"])
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: WriterKind.allCases)
    func fullTextSearchTablesAreObserved(kind: WriterKind) throws {
        // The update hook does not report virtual tables: their changes are reported after each statement.
        let database = try ObservedDatabase(kind)
        try database.writer.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE line USING fts5(text)")
        }
        let collector = Collector<[String]>()
        let cancellable = ValueObservation.tracking { db in
            try String.fetchAll(db, sql: "SELECT text FROM line WHERE line MATCH 'bridge' ORDER BY rowid")
        }
        .start(
            in: database.writer, scheduling: .async(onQueue: queue), onError: collector.fail,
            onChange: collector.append)
        collector.wait(forCount: 1)
        try database.writer.write { db in
            try db.execute(sql: "INSERT INTO line (rowid, text) VALUES (1, 'meet me at the bridge')")
        }
        collector.wait(forCount: 2)
        try database.writer.write { db in try db.execute(sql: "UPDATE line SET text = 'the old bridge' WHERE rowid = 1")
        }
        collector.wait(forCount: 3)
        try database.writer.write { db in try db.execute(sql: "DELETE FROM line") }
        collector.wait(forCount: 4)
        try database.writer.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('other')") }
        try database.writer.write { db in
            try db.execute(sql: "INSERT INTO line (rowid, text) VALUES (2, 'bridge again')")
        }
        #expect(
            collector.wait(forCount: 5) == [
                [], ["meet me at the bridge"], ["the old bridge"], [], ["bridge again"],
            ])
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: WriterKind.allCases)
    func removeDuplicatesAndMap(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        let observation = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT MAX(score) FROM player") ?? 0
        }
        .removeDuplicates()
        .map { "max \($0)" }
        let collector = Collector<String>()
        let cancellable = observation.start(
            in: database.writer, scheduling: .async(onQueue: queue), onError: collector.fail,
            onChange: collector.append)
        collector.wait(forCount: 1)
        try insertPlayer(database.writer, "Arthur", score: 0)  // max stays 0: skipped
        try insertPlayer(database.writer, "Barbara", score: 0)  // skipped
        try insertPlayer(database.writer, "Craig", score: 5)
        #expect(collector.wait(forCount: 2) == ["max 0", "max 5"])
        try insertPlayer(database.writer, "David", score: 7)
        #expect(collector.wait(forCount: 3) == ["max 0", "max 5", "max 7"])
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: WriterKind.allCases)
    func immediateSchedulingDeliversTheFirstValueBeforeReturning(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        try insertPlayer(database.writer, "Arthur")
        let collector = Collector<Int>()
        let thread = Mutex<Thread?>(nil)
        let cancellable = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? -1
        }
        .start(in: database.writer, scheduling: .immediate, onError: collector.fail) { value in
            if collector.values.isEmpty { thread.withLock { $0 = Thread.current } }
            collector.append(value)
        }
        #expect(collector.values == [1])
        #expect(thread.withLock { $0 } === Thread.current)
        try insertPlayer(database.writer, "Barbara")
        #expect(collector.wait(forCount: 2) == [1, 2])
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: WriterKind.allCases)
    func cancelFromInsideOnChangeStopsForGood(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        let collector = Collector<Int>()
        let box = Mutex<AnyDatabaseCancellable?>(nil)
        let cancellable = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? -1
        }
        .start(in: database.writer, scheduling: .async(onQueue: queue), onError: collector.fail) { value in
            collector.append(value)
            if value == 1 { box.withLock { $0?.cancel() } }
        }
        box.withLock { $0 = cancellable }
        collector.wait(forCount: 1)
        try insertPlayer(database.writer, "Arthur")
        collector.wait(forCount: 2)
        for name in ["Barbara", "Craig", "David"] { try insertPlayer(database.writer, name) }
        // Let any (wrong) late fetch reach the delivery queue before checking.
        try database.writer.write { _ in }
        Thread.sleep(forTimeInterval: 0.2)
        drain(queue)
        #expect(collector.values == [0, 1])
        cancellable.cancel()  // a second cancel does nothing
    }

    @Test(arguments: WriterKind.allCases)
    func fetchErrorsStopTheObservation(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        let collector = Collector<Int>()
        let cancellable = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM missing") ?? -1
        }
        .start(
            in: database.writer, scheduling: .async(onQueue: queue), onError: collector.fail, onChange: collector.append
        )
        #expect(waitUntil { !collector.errors.isEmpty })
        #expect(
            collector.errors == [
                "SQLite error 1: no such table: missing - while executing `SELECT COUNT(*) FROM missing`"
            ])
        #expect(collector.values.isEmpty)
        withExtendedLifetime(cancellable) {}
    }

    @Test(arguments: WriterKind.allCases)
    func theDatabaseDeallocatesOnceTheCancellableIsGone(kind: WriterKind) throws {
        weak var weakWriter: (any DatabaseWriter)?
        let collector = Collector<Int>()
        let directory = try TemporaryDirectory()
        do {
            let writer: any DatabaseWriter =
                kind == .queue
                ? try DatabaseQueue(path: directory.path("db.sqlite"))
                : try DatabasePool(path: directory.path("db.sqlite"))
            weakWriter = writer
            try writer.write { db in try db.execute(sql: "CREATE TABLE t (x)") }
            var cancellable: AnyDatabaseCancellable? = ValueObservation.tracking { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? -1
            }
            .start(in: writer, scheduling: .async(onQueue: queue), onError: collector.fail, onChange: collector.append)
            collector.wait(forCount: 1)
            try writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
            collector.wait(forCount: 2)
            cancellable = nil
            _ = cancellable
        }
        #expect(waitUntil { weakWriter == nil })
        #expect(collector.values == [0, 1])
    }

    @Test(arguments: WriterKind.allCases)
    func observationsWhileFourThreadsWrite(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        let writer = database.writer
        let observers = 3
        let collectors = (0..<observers).map { _ in Collector<Int>() }
        let cancellables = collectors.map { collector in
            ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? -1 }
                .start(
                    in: writer, scheduling: .async(onQueue: queue), onError: collector.fail, onChange: collector.append)
        }
        for collector in collectors { collector.wait(forCount: 1) }
        let perThread = 50
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<perThread {
                do {
                    try writer.write { db in
                        try db.execute(
                            sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["p\(thread)", index])
                        // Other tables, in the same threads: never observed.
                        try db.execute(sql: "INSERT INTO team (name) VALUES ('t')")
                    }
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        for collector in collectors {
            #expect(waitUntil { collector.values.last == 4 * perThread })
            let values = collector.values
            #expect(values.first == 0)
            #expect(values == values.sorted())  // never goes back in time
            #expect(values.count <= 4 * perThread + 1)
            #expect(collector.errors.isEmpty)
        }
        withExtendedLifetime(cancellables) {}
    }

    @Test(arguments: WriterKind.allCases)
    func asyncValuesEndWhenTheTaskIsCancelled(kind: WriterKind) async throws {
        let database = try ObservedDatabase(kind)
        let writer = database.writer
        let observation = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? -1
        }
        let received = Collector<Int>()
        let task = Task {
            for try await count in observation.values(in: writer) {
                received.append(count)
            }
            return "ended"
        }
        // Poll without blocking a thread of the cooperative pool, which runs the iterating task.
        func waitForCount(_ count: Int) async throws {
            for _ in 0..<2000 where received.values.count < count { try await Task.sleep(for: .milliseconds(10)) }
        }
        try await waitForCount(1)
        try await writer.write { db in try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Arthur', 1)") }
        try await waitForCount(2)
        task.cancel()
        #expect(try await task.value == "ended")
        #expect(received.values == [0, 1])
    }

    @Test func regionsOfRequestsAndSQL() throws {
        let database = try ObservedDatabase(.queue)
        try database.writer.read { (db: Database) throws in
            #expect(
                try db.region(readBy: "SELECT name FROM player WHERE score > 1").description == "player(name,score)")
            #expect(try db.region(readBy: "SELECT COUNT(*) FROM team").description == "team(*)")
            #expect(try db.region(readBy: "SELECT 1").isEmpty)
            let request = Table("player").all().select(Column("id")).filter(Column("name") == "x")
            #expect(try request.databaseRegion(db).description == "player(id,name)")
            let error = #expect(throws: DatabaseError.self) { try db.region(readBy: "SELECT * FROM nowhere") }
            #expect(
                error?.description == "SQLite error 1: no such table: nowhere - while executing `SELECT * FROM nowhere`"
            )
        }
        var region = DatabaseRegion(table: "Player", columns: ["Score"])
        #expect(region.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["score"])))
        #expect(!region.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["name"])))
        #expect(region.isModified(byEventsOfKind: .update(tableName: "player", columnNames: [])))
        #expect(region.isModified(byEventsOfKind: .delete(tableName: "PLAYER")))
        #expect(!region.isModified(byEventsOfKind: .insert(tableName: "team")))
        region.formUnion(DatabaseRegion(table: "player"))
        #expect(region.description == "player(*)")
        #expect(DatabaseRegion.fullDatabase.isModified(byEventsOfKind: .insert(tableName: "any")))
    }

    @Test(arguments: WriterKind.allCases)
    func customSchedulersReceiveEveryDelivery(kind: WriterKind) throws {
        let database = try ObservedDatabase(kind)
        let scheduler = ManualScheduler(immediate: false)
        let collector = Collector<Int>()
        let cancellable = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? -1
        }
        .start(in: database.writer, scheduling: scheduler, onError: collector.fail, onChange: collector.append)
        #expect(waitUntil { scheduler.pendingCount == 1 })
        #expect(collector.values.isEmpty)  // nothing is delivered until the scheduler runs it
        scheduler.runPending()
        #expect(collector.values == [0])
        try insertPlayer(database.writer, "Arthur")
        #expect(waitUntil { scheduler.pendingCount == 1 })
        scheduler.runPending()
        #expect(collector.values == [0, 1])
        withExtendedLifetime(cancellable) {}
    }

    @Test func customImmediateSchedulerDeliversTheFirstValueInStart() throws {
        let database = try ObservedDatabase(.queue)
        let scheduler = ManualScheduler(immediate: true)
        let collector = Collector<Int>()
        let cancellable = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? -1
        }
        .start(in: database.writer, scheduling: scheduler, onError: collector.fail, onChange: collector.append)
        #expect(collector.values == [0])
        #expect(scheduler.pendingCount == 0)
        try insertPlayer(database.writer, "Arthur")
        #expect(waitUntil { scheduler.pendingCount == 1 })
        scheduler.runPending()
        #expect(collector.values == [0, 1])
        withExtendedLifetime(cancellable) {}
    }
}

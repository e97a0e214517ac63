import Foundation
import SubDB
import Synchronization
import Testing

private struct MaxLength: DatabaseAggregate {
    var maxLength: Int = 0

    mutating func step(_ dbValues: [DatabaseValue]) {
        guard let string = String.fromDatabaseValue(dbValues[0]) else { return }
        maxLength = max(maxLength, string.count)
    }

    func finalize() -> (any DatabaseValueConvertible)? { maxLength }
}

private struct FailingAggregate: DatabaseAggregate {
    mutating func step(_ dbValues: [DatabaseValue]) throws {
        throw DatabaseError(message: "cannot aggregate \(dbValues[0])")
    }

    func finalize() -> (any DatabaseValueConvertible)? { nil }
}

/// Counts the finalize calls made after a step threw: GRDB never makes one.
private let finalizesAfterAFailedStep = Mutex<Int>(0)

/// Throws at its second step; counts a finalize made afterwards.
private struct SecondStepFails: DatabaseAggregate {
    var steps = 0
    mutating func step(_ dbValues: [DatabaseValue]) throws {
        steps += 1
        if steps == 2 { throw DatabaseError(message: "second step") }
    }

    func finalize() -> (any DatabaseValueConvertible)? {
        if steps >= 2 { finalizesAfterAFailedStep.withLock { $0 += 1 } }
        return steps
    }
}

@Suite struct FunctionAndTraceTests {
    /// Issue #31: finalize() is not called once step() threw.
    @Test func aggregatesAreNotFinalizedAfterAFailedStep() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db: Database) throws in
            db.add(aggregate: DatabaseFunction("secondFails", argumentCount: 1, aggregate: SecondStepFails.self))
            #expect(try Int.fetchOne(db, sql: "SELECT secondFails(1)") == 1)
            let error = #expect(throws: DatabaseError.self) {
                try Int.fetchOne(db, sql: "SELECT secondFails(x) FROM (SELECT 1 AS x UNION ALL SELECT 2)")
            }
            #expect(error?.message == "second step")
        }
        #expect(finalizesAfterAFailedStep.withLock { $0 } == 0)
    }

    @Test func customFunctionsFromTheReadme() throws {
        let reverse = DatabaseFunction("reverse", argumentCount: 1, pure: true) { (values: [DatabaseValue]) in
            guard let string = String.fromDatabaseValue(values[0]) else { return nil }
            return String(string.reversed())
        }
        let averageOf = DatabaseFunction("averageOf", pure: true) { (values: [DatabaseValue]) in
            let doubles = values.compactMap { Double.fromDatabaseValue($0) }
            return doubles.reduce(0, +) / Double(doubles.count)
        }
        let sqrt = DatabaseFunction("sqrt", argumentCount: 1, pure: true) { (values: [DatabaseValue]) in
            guard let double = Double.fromDatabaseValue(values[0]) else { return nil }
            guard double >= 0 else { throw DatabaseError(message: "invalid negative number") }
            return double.squareRoot()
        }
        let maxLength = DatabaseFunction("maxLength", argumentCount: 1, pure: true, aggregate: MaxLength.self)
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(function: reverse)
            db.add(function: averageOf)
            db.add(function: sqrt)
            db.add(function: maxLength)
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.execute(
                sql: "CREATE TABLE player (name TEXT); INSERT INTO player VALUES ('Arthur'), ('Barbara'), (NULL)")
        }
        try dbQueue.read { (db: Database) throws in
            #expect(try String.fetchOne(db, sql: "SELECT reverse('foo')") == "oof")
            #expect(try String.fetchOne(db, sql: "SELECT reverse(NULL)") == nil)
            #expect(try Double.fetchOne(db, sql: "SELECT averageOf(1, 2, 3)") == 2.0)
            #expect(try Double.fetchOne(db, sql: "SELECT sqrt(4)") == 2.0)
            let error = #expect(throws: DatabaseError.self) { try Double.fetchOne(db, sql: "SELECT sqrt(-1)") }
            #expect(error?.description == "SQLite error 1: invalid negative number - while executing `SELECT sqrt(-1)`")
            #expect(try Int.fetchOne(db, sql: "SELECT maxLength(name) FROM player") == 7)
            #expect(try Int.fetchOne(db, sql: "SELECT maxLength(name) FROM player WHERE 0") == 0)
            let wrongCount = #expect(throws: DatabaseError.self) {
                try String.fetchOne(db, sql: "SELECT reverse('a', 'b')")
            }
            #expect(wrongCount?.message == "wrong number of arguments to function reverse()")
        }
    }

    @Test func nonDatabaseErrorsAndAggregateErrors() throws {
        struct Oops: Error, CustomStringConvertible { var description: String { "oops" } }
        let failing = DatabaseFunction("failing", argumentCount: 0) { _ in throw Oops() }
        let failingAggregate = DatabaseFunction("failingAgg", argumentCount: 1, aggregate: FailingAggregate.self)
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db: Database) throws in
            db.add(function: failing)
            db.add(aggregate: failingAggregate)
            let error = #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT failing()") }
            #expect(error?.message == "oops")
            let aggregateError = #expect(throws: DatabaseError.self) {
                try Int.fetchOne(db, sql: "SELECT failingAgg(1)")
            }
            #expect(aggregateError?.message == "cannot aggregate 1")
            db.remove(function: failing)
            let removed = #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT failing()") }
            #expect(removed?.message == "no such function: failing")
        }
    }

    /// As in GRDB: descriptions hide arguments unless they are public; expandedDescription shows them.
    @Test(arguments: [false, true]) func traceDescriptionsShowArgumentsWhenPublic(publicArguments: Bool) throws {
        var configuration = Configuration()
        configuration.publicStatementArguments = publicArguments
        let dbQueue = try DatabaseQueue(configuration: configuration)
        var descriptions: [String] = []
        var expanded: [String] = []
        try dbQueue.inDatabase { db in
            db.trace {
                descriptions.append($0.description)
                expanded.append($0.expandedDescription)
            }
            _ = try Int.fetchOne(db, sql: "SELECT ?", arguments: ["secret"])
        }
        #expect(descriptions == [publicArguments ? "SELECT 'secret'" : "SELECT ?"])
        #expect(expanded == ["SELECT 'secret'"])
    }

    @Test func traceGivesExpandedSQL() throws {
        let dbQueue = try DatabaseQueue()
        var statements: [String] = []
        var profiled: [String] = []
        try dbQueue.inDatabase { db in
            db.trace { statements.append($0.expandedDescription) }
            try db.execute(sql: "CREATE TABLE t (a, b)")
            try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [1, "it's"])
            _ = try Row.fetchAll(db, sql: "SELECT * FROM t WHERE a = :a", arguments: ["a": 1])
            db.trace(options: .profile) { event in
                if case .profile(let statement, let duration) = event, duration >= 0 { profiled.append(statement.sql) }
            }
            _ = try Int.fetchOne(db, sql: "SELECT ?", arguments: [2])
            db.trace()
            try db.execute(sql: "DELETE FROM t")
        }
        #expect(
            statements == ["CREATE TABLE t (a, b)", "INSERT INTO t VALUES (1, 'it''s')", "SELECT * FROM t WHERE a = 1"])
        #expect(profiled == ["SELECT ?"])
    }

    @Test func traceFromPrepareDatabase() throws {
        let recorder = SQLRecorder()
        var config = Configuration()
        config.prepareDatabase { db in
            db.trace { recorder.record("SQL: \($0)") }
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        _ = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
        #expect(recorder.sql.contains("SQL: SELECT 1"))
        #expect(recorder.sql.contains("SQL: BEGIN DEFERRED TRANSACTION"))
    }
}

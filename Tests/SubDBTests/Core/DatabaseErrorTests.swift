import Foundation
import SubDB
import Testing

@Suite struct DatabaseErrorTests {
    @Test func syntaxError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            let error = #expect(throws: DatabaseError.self) { try db.execute(sql: "SELEC 1") }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "near \"SELEC\": syntax error")
            #expect(error?.sql == "SELEC 1")
            #expect(error?.description == "SQLite error 1: near \"SELEC\": syntax error - while executing `SELEC 1`")
        }
    }

    @Test func syntaxErrorInALaterStatement() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1,; SELECT 1")
            }
            #expect(error?.message == "near \";\": syntax error")
            #expect(error?.sql == "INSERT INTO t VALUES (1,; SELECT 1")
        }
    }

    @Test func uniqueConstraintMatchesPrimaryAndExtendedCodes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (name TEXT UNIQUE)")
            try db.execute(sql: "INSERT INTO t (name) VALUES (?)", arguments: ["Arthur"])
        }
        var matchedExtended = false
        do {
            try dbQueue.write { (db: Database) throws in
                try db.execute(sql: "INSERT INTO t (name) VALUES (?)", arguments: ["Arthur"])
            }
        } catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE {
            matchedExtended = true
        }
        #expect(matchedExtended)

        var matchedPrimary = false
        do {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (name) VALUES ('Arthur')") }
        } catch DatabaseError.SQLITE_CONSTRAINT {
            matchedPrimary = true
        }
        #expect(matchedPrimary)

        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (name) VALUES (?)", arguments: ["Arthur"]) }
        }
        #expect(error?.resultCode == .SQLITE_CONSTRAINT)
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
        // Arguments stay out of errors unless the configuration makes them public, as in GRDB.
        #expect(error?.arguments == nil)
        #expect(
            error?.description
                == "SQLite error 19: UNIQUE constraint failed: t.name - while executing `INSERT INTO t (name) VALUES (?)`"
        )
        #expect(!(ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY ~= (error as (any Error)?)!))
    }

    @Test func foreignKeysAreEnforcedByDefault() throws {
        let dbQueue = try DatabaseQueue()
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { (db: Database) throws in
                try db.execute(
                    sql: """
                        CREATE TABLE team (id INTEGER PRIMARY KEY);
                        CREATE TABLE player (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id));
                        INSERT INTO player (teamId) VALUES (42);
                        """)
            }
        }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(error?.message == "FOREIGN KEY constraint failed")
        // The failed write rolled back: no table was created.
        #expect(try dbQueue.read { try $0.tableExists("team") } == false)
    }

    @Test func notADatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.txt")
        try Data(String(repeating: "This is not an SQLite database.\n", count: 100).utf8).write(
            to: URL(fileURLWithPath: path))
        let error = #expect(throws: DatabaseError.self) { try DatabaseQueue(path: path) }
        #expect(error?.resultCode == .SQLITE_NOTADB)
        #expect(error?.message == "file is not a database: \(path)")
        #expect(
            error?.description
                == "SQLite error 26: file is not a database: \(path) - while executing `SELECT * FROM sqlite_master LIMIT 1`"
        )
        let poolError = #expect(throws: DatabaseError.self) { try DatabasePool(path: path) }
        #expect(poolError?.resultCode == .SQLITE_NOTADB)
    }

    @Test func missingDirectory() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("missing/db.sqlite")
        let error = #expect(throws: DatabaseError.self) { try DatabaseQueue(path: path) }
        #expect(error?.resultCode == .SQLITE_CANTOPEN)
        #expect(error?.message == "unable to open database file: \(path)")
    }

    @Test func readOnlyConfigurationRejectsWrites() throws {
        let test = try TestDatabase()
        try test.dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        var config = Configuration()
        config.readonly = true
        let readOnly = try DatabaseQueue(path: test.path, configuration: config)
        let error = #expect(throws: DatabaseError.self) {
            try readOnly.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
        #expect(error?.message == "attempt to write a readonly database")
    }

    /// A file opened read-only (`Configuration.readonly`, which holds for root too, where file permissions do not).
    @Test func readOnlyFileOpenedForWriting() throws {
        let test = try TestDatabase()
        try test.dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        var configuration = Configuration()
        configuration.readonly = true
        let dbQueue = try DatabaseQueue(path: test.path, configuration: configuration)
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
        #expect(error?.message == "attempt to write a readonly database")
    }

    @Test func lockedDatabaseFailsImmediately() throws {
        let test = try TestDatabase()
        try test.dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let other = try DatabaseQueue(path: test.path)
        try other.writeWithoutTransaction { (db: Database) throws in
            try db.beginTransaction(.immediate)
            defer { try? db.rollback() }
            let error = #expect(throws: DatabaseError.self) {
                try test.dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
            }
            #expect(error?.resultCode == .SQLITE_BUSY)
            #expect(error?.message == "database is locked")
            #expect(error?.sql == "BEGIN IMMEDIATE TRANSACTION")
        }
    }

    @Test func lockedDatabaseWaitsForTheTimeout() throws {
        let test = try TestDatabase()
        try test.dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        var config = Configuration()
        config.busyMode = .timeout(0.2)
        let waiting = try DatabaseQueue(path: test.path, configuration: config)
        let other = try DatabaseQueue(path: test.path)
        try other.writeWithoutTransaction { (db: Database) throws in
            try db.beginTransaction(.immediate)
            defer { try? db.rollback() }
            let start = Date()
            let error = #expect(throws: DatabaseError.self) {
                try waiting.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
            }
            #expect(error?.resultCode == .SQLITE_BUSY)
            #expect(Date().timeIntervalSince(start) >= 0.15)
        }
        // Once the lock is released, the write goes through.
        try waiting.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try waiting.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "needs the sqlite3 shell"))
    func lockedByAnotherProcess() throws {
        let sqlite3 = "/usr/bin/sqlite3"
        let test = try TestDatabase()
        try test.dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sqlite3)
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.arguments = [test.path]
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        input.fileHandleForWriting.write(Data("BEGIN IMMEDIATE;\nSELECT 'locked';\n".utf8))
        // Wait until the other process holds the lock.
        var buffer = Data()
        while !String(decoding: buffer, as: UTF8.self).contains("locked") {
            buffer.append(output.fileHandleForReading.availableData)
        }
        let error = #expect(throws: DatabaseError.self) {
            try test.dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        #expect(error?.resultCode == .SQLITE_BUSY)
        #expect(error?.message == "database is locked")
        input.fileHandleForWriting.write(Data("ROLLBACK;\n.quit\n".utf8))
    }

    @Test func truncatedDatabaseFile() throws {
        let test = try TestDatabase()
        try test.dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a TEXT)")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES (?)")
            for index in 0..<2000 {
                try statement.execute(arguments: [String(repeating: "x", count: 100) + "\(index)"])
            }
        }
        let directory = try TemporaryDirectory()
        let truncated = directory.path("truncated.sqlite")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: test.path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        let error = #expect(throws: DatabaseError.self) { try DatabaseQueue(path: truncated) }
        #expect(error?.resultCode == .SQLITE_CORRUPT)
        #expect(error?.message == "database disk image is malformed: \(truncated)")
    }

    @Test func emptyFileIsAnEmptyDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let dbQueue = try DatabaseQueue(path: path)
        #expect(try dbQueue.read { db in try db.tableExists("t") } == false)
    }

    @Test func hostileText() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            // Embedded NUL survives the round trip.
            let withNul = "before\u{0}after"
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [withNul]) == withNul)
            #expect(try Row.fetchOne(db, sql: "SELECT ?", arguments: [withNul])?[0] == withNul)
            // Invalid UTF-8 read as text is repaired, never a crash.
            let repaired = try String.fetchOne(db, sql: "SELECT CAST(x'61ff62' AS TEXT)")
            #expect(repaired == "a\u{FFFD}b")
        }
    }
}

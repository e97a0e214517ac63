import Foundation
import SubDB
import Testing

/// A GRDB-style `Record` subclass, written as GRDB's documentation shows.
private final class Place: Record {
    var id: Int64?
    var title: String
    var favorite: Bool

    init(id: Int64? = nil, title: String, favorite: Bool = false) {
        self.id = id
        self.title = title
        self.favorite = favorite
        super.init()
    }

    override class var databaseTableName: String { "place" }

    required init(row: Row) throws {
        id = row["id"]
        title = row["title"]
        favorite = row["favorite"]
        try super.init(row: row)
    }

    override func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["title"] = title
        container["favorite"] = favorite
    }

    override func didInsert(_ inserted: InsertionSuccess) {
        super.didInsert(inserted)
        id = inserted.rowID
    }
}

/// A subclass without a table name: derived from the class name.
private final class TouristSpot: Record {}

@Suite struct RecordClassTests {
    private func makeDatabase() throws -> TestDatabase {
        let test = try TestDatabase()
        try test.dbQueue.write { db in
            try db.execute(
                sql: "CREATE TABLE place (id INTEGER PRIMARY KEY, title TEXT NOT NULL, favorite BOOLEAN NOT NULL)")
        }
        test.recorder.clear()
        return test
    }

    @Test func insertFetchAndTrackChanges() throws {
        let test = try makeDatabase()
        try test.dbQueue.write { db in
            let place = Place(title: "Paris")
            #expect(place.hasDatabaseChanges)  // never saved
            try place.insert(db)
            #expect(place.id == 1)
            #expect(!place.hasDatabaseChanges)
            place.title = "Paris, France"
            #expect(place.databaseChanges == ["title": "Paris".databaseValue])
            test.recorder.clear()
            #expect(try place.updateChanges(db))
            #expect(test.recorder.sql == [#"UPDATE "place" SET "title"='Paris, France' WHERE "id"=1"#])
            #expect(try !place.updateChanges(db))
            let fetched = try #require(try Place.fetchOne(db, key: 1))
            #expect(fetched.title == "Paris, France")
            #expect(!fetched.hasDatabaseChanges)
            let copy = fetched.copy()
            #expect(copy !== fetched && copy.title == fetched.title && !copy.hasDatabaseChanges)
            copy.hasDatabaseChanges = true
            #expect(copy.databaseChanges.count == 3)
            #expect(try Place.fetchCount(db) == 1)
            #expect(try fetched.delete(db))
            #expect(fetched.hasDatabaseChanges)
            #expect(try Place.fetchCount(db) == 0)
        }
        #expect(TouristSpot.databaseTableName == "touristSpot")
        #expect(Place.databaseTableName == "place")
    }

    /// Issue #31, item 3: a record made from a row built by hand has no reference row, so every column counts as
    /// changed and `updateChanges` writes them (the update used to be lost). Rows read from the database, even
    /// through a cursor or an adapter, remain references.
    @Test func recordsFromRowsBuiltByHandHaveEveryColumnChanged() throws {
        let test = try makeDatabase()
        try test.dbQueue.write { db in
            try db.execute(sql: "INSERT INTO place (id, title, favorite) VALUES (1, 'Paris', 0)")
            let place = try Place(row: Row(["id": 1, "title": "Rome", "favorite": true]))
            #expect(place.hasDatabaseChanges)
            #expect(Set(place.databaseChanges.keys) == ["id", "title", "favorite"])
            #expect(try place.updateChanges(db))
            #expect(try String.fetchOne(db, sql: "SELECT title FROM place WHERE id = 1") == "Rome")
            #expect(!place.hasDatabaseChanges)
            let values = [1.databaseValue, "Rome".databaseValue, true.databaseValue]
            let built = Row(columnNames: ["id", "title", "favorite"], databaseValues: values)
            #expect(try Place(row: built).hasDatabaseChanges)

            let fetchedRow = try #require(try Row.fetchOne(db, sql: "SELECT * FROM place"))
            #expect(try !Place(row: fetchedRow).hasDatabaseChanges)
            let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM place")
            while let row = try cursor.next() { #expect(try !Place(row: row).hasDatabaseChanges) }
            #expect(try Place.fetchAll(db).allSatisfy { !$0.hasDatabaseChanges })
        }
    }

    @Test func saveInsertsThenUpdates() throws {
        let test = try makeDatabase()
        try test.dbQueue.write { db in
            let place = Place(title: "Lyon")
            try place.save(db)
            place.favorite = true
            try place.save(db)
            let all = try Place.order(Column("id")).fetchAll(db)
            #expect(all.map { "\($0.id ?? 0) \($0.title) \($0.favorite)" } == ["1 Lyon true"])
        }
    }
}

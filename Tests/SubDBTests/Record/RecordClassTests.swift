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

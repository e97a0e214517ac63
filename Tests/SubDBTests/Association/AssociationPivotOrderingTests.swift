import Foundation
import SubDB
import Testing

// A movie's cast, in billing order: the order lives in the pivot (`role.position`).
private struct Movie: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var title: String
    static let roles = hasMany(Role.self).order(Column("position"))
    static let actors = hasMany(Actor.self, through: roles, using: Role.actor)
}

private struct Role: Codable, FetchableRecord, PersistableRecord {
    var movieId: Int64
    var actorId: Int64
    var position: Int
    static let actor = belongsTo(Actor.self)
}

private struct Actor: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
}

private struct MovieWithActors: Decodable, FetchableRecord {
    var movie: Movie
    var actors: [Actor]
}

/// Issue #31, item 4: `hasMany(_:through:using:)` kept the destination's ordering but dropped the pivot's.
@Suite struct AssociationPivotOrderingTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE movie (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
                    CREATE TABLE actor (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE role (
                        movieId INTEGER NOT NULL REFERENCES movie(id), actorId INTEGER NOT NULL REFERENCES actor(id),
                        position INTEGER NOT NULL);
                    INSERT INTO movie VALUES (1, 'Alien'), (2, 'Heat');
                    INSERT INTO actor VALUES (1, 'Ash'), (2, 'Brett'), (3, 'Dallas'), (4, 'Eady');
                    INSERT INTO role VALUES (1, 1, 3), (1, 3, 1), (1, 2, 2), (2, 4, 2), (2, 2, 1);
                    """)
        }
        return dbQueue
    }

    @Test func thePivotOrderingOrdersRequestsForARecord() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let alien = try #require(try Movie.fetchOne(db, key: 1))
            #expect(try alien.request(for: Movie.actors).fetchAll(db).map(\.name) == ["Dallas", "Brett", "Ash"])
            // The destination's own ordering comes first; the pivot's breaks ties.
            let byLength = try alien.request(for: Movie.actors.order(length(Column("name")))).fetchAll(db)
            #expect(byLength.map(\.name) == ["Ash", "Brett", "Dallas"])
        }
    }

    /// Issue #31: orderByPrimaryKey(), reversed() and unordered() on associations, as in GRDB.
    @Test func associationsOrderByPrimaryKeyReverseAndUnorder() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let alien = try #require(try Movie.fetchOne(db, key: 1))
            let byKey = try alien.request(for: Movie.actors.order(Column("name").desc).orderByPrimaryKey()).fetchAll(db)
            #expect(byKey.map(\.id) == [1, 2, 3])
            let reversed = try alien.request(for: Movie.actors.orderByPrimaryKey().reversed()).fetchAll(db)
            #expect(reversed.map(\.id) == [3, 2, 1])
            let roles = try alien.request(for: Movie.roles.reversed()).fetchAll(db)
            #expect(roles.map(\.position) == [3, 2, 1])
            let unordered = try alien.request(for: Movie.roles.unordered()).fetchAll(db)
            #expect(unordered.map(\.position).sorted() == [1, 2, 3])
        }
    }

    @Test func thePivotOrderingOrdersPrefetchedRows() throws {
        let dbQueue = try makeDatabase()
        let movies = try dbQueue.read { db in
            try Movie.including(all: Movie.actors).order(Column("id")).asRequest(of: MovieWithActors.self)
                .fetchAll(db)
        }
        #expect(movies.map { $0.actors.map(\.name) } == [["Dallas", "Brett", "Ash"], ["Brett", "Eady"]])
    }

    @Test func thePivotOrderingOrdersJoinedRows() throws {
        let dbQueue = try makeDatabase()
        let names = try dbQueue.read { db in
            let actor = TableAlias()
            return try Movie.filter(Column("id") == 1).joining(required: Movie.actors.aliased(actor))
                .select(actor[Column("name")]).asRequest(of: String.self).fetchAll(db)
        }
        #expect(names == ["Dallas", "Brett", "Ash"])
    }
}

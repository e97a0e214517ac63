import Foundation
import SubDB
import Testing

private struct Club: Codable, Equatable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    static let members = hasMany(Member.self)
}

private struct Member: Codable, Equatable, FetchableRecord, PersistableRecord {
    var id: Int64
    var clubId: Int64
    var name: String
    static let club = belongsTo(Club.self)
}

private struct MemberInfo: Decodable, FetchableRecord, Equatable {
    var member: Member
    var club: Club
}

private struct ClubInfo: Decodable, FetchableRecord, Equatable {
    var club: Club
    var members: [Member]
}

/// Issue #31, item 5: tables that live only in an attached database are found, as SQLite finds them, for
/// introspection, records and associations (they used to fail with "no such table").
@Suite struct AttachedDatabaseAssociationTests {
    private func makeDatabase() throws -> (TestDatabase, DatabaseQueue) {
        let test = try TestDatabase()
        let league = try DatabaseQueue(path: test.directory.path("league.sqlite"))
        try league.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE club (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE member (
                        id INTEGER PRIMARY KEY, clubId INTEGER NOT NULL REFERENCES club, name TEXT NOT NULL)
                        WITHOUT ROWID;
                    INSERT INTO club VALUES (1, 'Red'), (2, 'Blue');
                    INSERT INTO member VALUES (1, 1, 'Arthur'), (2, 2, 'Barbara'), (3, 1, 'Craig');
                    """)
        }
        try test.dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS league", arguments: [test.directory.path("league.sqlite")])
        }
        return (test, league)
    }

    @Test func introspectionFindsAttachedTables() throws {
        let (test, _) = try makeDatabase()
        try test.dbQueue.read { (db: Database) throws in
            #expect(try db.tableExists("club"))
            #expect(try db.tableExists("member", in: "league"))
            #expect(try !db.tableExists("member", in: "main"))
            #expect(try db.primaryKey("club").rowIDColumn == "id")
            // WITHOUT ROWID, read from the attached schema: no rowid column.
            #expect(try db.primaryKey("member").rowIDColumn == nil)
            #expect(try db.foreignKeys(on: "member").map(\.destinationTable) == ["club"])
        }
    }

    @Test func associationsJoinAttachedTables() throws {
        let (test, _) = try makeDatabase()
        try test.dbQueue.read { db in
            let infos = try Member.including(required: Member.club).order(Column("id")).asRequest(of: MemberInfo.self)
                .fetchAll(db)
            #expect(infos.map { "\($0.member.name):\($0.club.name)" } == ["Arthur:Red", "Barbara:Blue", "Craig:Red"])
            let teams = try Club.including(all: Club.members.order(Column("name"))).order(Column("id"))
                .asRequest(of: ClubInfo.self).fetchAll(db)
            #expect(teams.map { $0.members.map(\.name) } == [["Arthur", "Craig"], ["Barbara"]])
            let red = try #require(try Club.fetchOne(db, key: 1))
            #expect(try red.request(for: Club.members).fetchCount(db) == 2)
        }
        try test.dbQueue.write { db in
            var player = try #require(try Member.fetchOne(db, key: 2))
            player.name = "Barbara B."
            try player.update(db)
            #expect(try Member.fetchOne(db, key: 2)?.name == "Barbara B.")
        }
    }
}

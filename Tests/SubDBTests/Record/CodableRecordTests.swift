import Foundation
import SubDB
import Testing

private let myContextKey: CodingUserInfoKey = {
    guard let key = CodingUserInfoKey(rawValue: "myContext") else { preconditionFailure("invalid user info key") }
    return key
}()

@Suite("Codable records")
struct CodableRecordTests {
    // MARK: Snake case

    struct SnakePlayer: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "player"
        static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
        static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
        var playerId: Int64?
        var firstName: String
        var lastName: String
        var teamId: Int64
        mutating func didInsert(_ inserted: InsertionSuccess) { playerId = inserted.rowID }
    }

    @Test("Snake case strategies map playerId to player_id both ways")
    func snakeCase() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player (player_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, team_id INTEGER)
                    """)
            let trace = TracedSQL(db)
            var player = SnakePlayer(playerId: nil, firstName: "Arthur", lastName: "Dent", teamId: 42)
            try player.insert(db)
            #expect(
                trace.last
                    == #"INSERT INTO "player" ("player_id", "first_name", "last_name", "team_id") VALUES (?,?,?,?)"#)
            #expect(player.playerId == 1)
            let fetched = try #require(try SnakePlayer.fetchOne(db))
            #expect(fetched.firstName == "Arthur" && fetched.lastName == "Dent" && fetched.teamId == 42)
        }
    }

    // MARK: Custom keys, enums, optionals

    enum PlayerStatus: String, Codable {
        case active, inactive, suspended
    }

    struct KeyedPlayer: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "player"
        var id: Int64?
        var name: String
        var nickname: String?
        var status: PlayerStatus
        var teamId: Int64
        var metadata: [String: String]?
        enum CodingKeys: String, CodingKey {
            case id, name, nickname, status, metadata
            case teamId = "team_id"
        }
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test("CodingKeys name columns, enums store their raw value, nil optionals store NULL")
    func keysEnumsOptionals() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, nickname TEXT, status TEXT, team_id INTEGER,
                                         metadata TEXT)
                    """)
            var player = KeyedPlayer(
                id: nil, name: "Arthur", nickname: nil, status: .active, teamId: 3, metadata: nil)
            try player.insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM player"))
            #expect(row["status"] as String == "active")
            #expect(row["team_id"] as Int == 3)
            #expect((row["nickname"] as DatabaseValue).isNull)
            #expect((row["metadata"] as DatabaseValue).isNull)
            let active = try KeyedPlayer.filter(Column("status") == PlayerStatus.active.rawValue).fetchAll(db)
            #expect(active.map(\.name) == ["Arthur"])
            #expect(active.first?.nickname == nil && active.first?.metadata == nil)
            try db.execute(sql: "UPDATE player SET status = 'retired'")
            #expect(throws: (any Error).self) { try KeyedPlayer.fetchAll(db) }
        }
    }

    // MARK: JSON columns

    struct Settings: Codable, Equatable {
        var theme: String
        var language: String
        var notifications: Bool
    }

    struct User: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "user"
        var id: Int64?
        var username: String
        var settings: Settings
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Team: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "team"
        var id: Int64?
        var name: String
        var tags: [String]
        var scores: [Int]
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test("Nested structs, arrays and dictionaries are stored as JSON text (the seeds' JSON columns)")
    func jsonColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE user (id INTEGER PRIMARY KEY AUTOINCREMENT, username TEXT NOT NULL, settings TEXT NOT NULL);
                    CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT, tags TEXT, scores TEXT);
                    """)
            var user = User(
                id: nil, username: "arthur", settings: Settings(theme: "dark", language: "en", notifications: true))
            try user.insert(db)
            #expect(
                try String.fetchOne(db, sql: "SELECT settings FROM user")
                    == #"{"language":"en","notifications":true,"theme":"dark"}"#)
            let fetched = try User.fetchOne(db, id: user.id)
            #expect(fetched?.settings.theme == "dark")

            var team = Team(id: nil, name: "Warriors", tags: ["sports", "basketball"], scores: [95, 102])
            try team.insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT tags FROM team") == #"["sports","basketball"]"#)
            let fetchedTeam = try Team.fetchOne(db, id: team.id)
            #expect(fetchedTeam?.tags == ["sports", "basketball"])
            #expect(fetchedTeam?.scores == [95, 102])

            try db.execute(sql: "UPDATE team SET tags = 'not json'")
            #expect(throws: DecodingError.self) { try Team.fetchAll(db) }
        }
    }

    // MARK: Dates and data

    struct Event: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "event"
        var id: Int64?
        var name: String
        var timestamp: Date
        var createdAt: Date
        var millis: Date
        var isoDate: Date

        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
            switch column {
            case "timestamp": return .timeIntervalSince1970
            case "millis": return .millisecondsSince1970
            case "isoDate": return .iso8601
            default: return .deferredToDate
            }
        }
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
            switch column {
            case "timestamp": return .timeIntervalSince1970
            case "millis": return .millisecondsSince1970
            case "isoDate": return .iso8601
            default: return .deferredToDate
            }
        }
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test("Per-column date strategies (the seeds' Event)")
    func dates() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE event (id INTEGER PRIMARY KEY, name TEXT, timestamp REAL, createdAt TEXT, millis INTEGER,
                                        isoDate TEXT)
                    """)
            let date = Date(timeIntervalSince1970: 1_000_000_000.25)
            var event = Event(id: nil, name: "launch", timestamp: date, createdAt: date, millis: date, isoDate: date)
            try event.insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM event"))
            #expect(row["timestamp"] as Double == 1_000_000_000.25)
            #expect(row["createdAt"] as String == "2001-09-09 01:46:40.250")
            #expect(row["millis"] as Int64 == 1_000_000_000_250)
            #expect(row["isoDate"] as String == "2001-09-09T01:46:40Z")
            let fetched = try #require(try Event.fetchOne(db))
            #expect(fetched.timestamp == date)
            #expect(fetched.createdAt == date)
            #expect(fetched.millis == date)
            #expect(fetched.isoDate == Date(timeIntervalSince1970: 1_000_000_000))
        }
    }

    struct Document: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "document"
        var id: Int64?
        var title: String
        var content: Data
        static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
            .custom { dbValue in
                guard let base64String = String.fromDatabaseValue(dbValue) else { return nil }
                return Data(base64Encoded: base64String)
            }
        }
        static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
            .custom { data, container in
                container[column] = data.base64EncodedString()
            }
        }
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test("Custom data strategies as written in the seeds (base64 text)")
    func data() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE document (id INTEGER PRIMARY KEY, title TEXT, content TEXT)")
            var document = Document(id: nil, title: "t", content: Data([0, 1, 2, 255]))
            try document.insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT content FROM document") == "AAEC/w==")
            #expect(try Document.fetchOne(db)?.content == Data([0, 1, 2, 255]))
            try db.execute(sql: "UPDATE document SET content = '%%%'")
            #expect(throws: RowDecodingError.self) { try Document.fetchAll(db) }
        }
    }

    @Test("UUID strategies: 16-byte blob by default, text on demand")
    func uuids() throws {
        struct Token: Codable, PersistableRecord, FetchableRecord {
            var id: UUID
            var other: UUID
            static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
                column == "other" ? .uppercaseString : .deferredToUUID
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE token (id BLOB, other TEXT)")
            let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
            try Token(id: uuid, other: uuid).insert(db)
            #expect(try Int.fetchOne(db, sql: "SELECT length(id) FROM token") == 16)
            #expect(try String.fetchOne(db, sql: "SELECT other FROM token") == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
            let token = try #require(try Token.fetchOne(db))
            #expect(token.id == uuid && token.other == uuid)
        }
    }

    // MARK: Partial records, custom coding, user info

    struct NewPlayer: Encodable, MutablePersistableRecord {
        static let databaseTableName = "player"
        var name: String
        var email: String
    }

    struct FullPlayer: Decodable, FetchableRecord {
        static let databaseTableName = "player"
        var id: Int64
        var name: String
        var email: String
        var createdAt: Date
        var score: Int
    }

    @Test("Partial records: insert a minimal type, fetch the complete one")
    func partialRecords() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("email", .text).notNull().unique()
                t.column("createdAt", .datetime).notNull().defaults(sql: "CURRENT_TIMESTAMP")
                t.column("score", .integer).notNull().defaults(to: 0)
            }
            var newPlayer = NewPlayer(name: "Arthur", email: "arthur@example.com")
            try newPlayer.insert(db)
            let players = try FullPlayer.fetchAll(db, sql: "SELECT * FROM player")
            #expect(players.count == 1)
            #expect(players.first?.score == 0 && players.first?.id == 1)
            let error = #expect(throws: DatabaseError.self) { try newPlayer.insert(db) }
            #expect(error?.message == "UNIQUE constraint failed: player.email")
        }
    }

    struct ValidatedPlayer: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "player"
        var id: Int64?
        var name: String
        var score: Int
        init(id: Int64?, name: String, score: Int) {
            self.id = id
            self.name = name
            self.score = score
        }
        init(from decoder: Decoder) throws {
            if let context = decoder.userInfo[myContextKey] as? String {
                #expect(context == "database")
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(Int64.self, forKey: .id)
            name = try container.decode(String.self, forKey: .name)
            let scoreValue = try container.decode(Int.self, forKey: .score)
            guard scoreValue >= 0 else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: [CodingKeys.score], debugDescription: "Score must be non-negative"))
            }
            score = scoreValue
        }
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(id, forKey: .id)
            try container.encode(name.trimmingCharacters(in: .whitespaces), forKey: .name)
            try container.encode(score, forKey: .score)
        }
        enum CodingKeys: String, CodingKey { case id, name, score }
        static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [myContextKey: "database"] }
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test("Custom init(from:)/encode(to:) run, with user info; their errors surface")
    func customCoding() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            var player = ValidatedPlayer(id: nil, name: "  Arthur  ", score: 10)
            try player.insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == "Arthur")
            #expect(try ValidatedPlayer.fetchOne(db)?.score == 10)
            try db.execute(sql: "UPDATE player SET score = -1")
            let error = #expect(throws: DecodingError.self) { try ValidatedPlayer.fetchAll(db) }
            if case .dataCorrupted(let context) = error {
                #expect(context.debugDescription == "Score must be non-negative")
            } else {
                Issue.record("expected dataCorrupted, got \(String(describing: error))")
            }
        }
    }

    @Test("Decoding errors name the column and the value instead of trapping")
    func decodingErrors() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 10)")
            // SQLite converts text to numbers as GRDB does ('20 small cigars' is 20), but NULL is no Int.
            let error = #expect(throws: RowDecodingError.self) {
                try Player.fetchAll(db, sql: "SELECT id, name, NULL AS score FROM player")
            }
            #expect(
                error?.message
                    == #"could not decode Int from database value NULL - column: "score", column index: 2, row: [id:1 name:"Arthur" score:NULL]"#
            )
            let missing = #expect(throws: RowDecodingError.self) {
                try Player.fetchAll(db, sql: "SELECT id, name FROM player")
            }
            #expect(missing?.message == #"column not found: "score", row: [id:1 name:"Arthur"]"#)
        }
    }

    @Test("Cursors, sets and statements decode the same records; rows from arrays too")
    func fetchingPaths() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            for index in 0..<5 { _ = try Player(id: nil, name: "P\(index)", score: index).inserted(db) }
            let cursor = try Player.fetchCursor(db, sql: "SELECT * FROM player ORDER BY id")
            var names: [String] = []
            while let player = try cursor.next() { names.append(player.name) }
            #expect(names == ["P0", "P1", "P2", "P3", "P4"])
            let statement = try db.makeStatement(sql: "SELECT * FROM player WHERE score >= ?")
            #expect(try Player.fetchAll(statement, arguments: [3]).count == 2)
            #expect(try Player.fetchSet(db).count == 5)
            let rows = try Row.fetchAll(db, sql: "SELECT score, name, id FROM player ORDER BY id DESC")
            #expect(try rows.map { try Player(row: $0) }.map(\.name) == ["P4", "P3", "P2", "P1", "P0"])
            #expect(try Player.fetchOne(db, literal: "SELECT * FROM player WHERE name = \("P2")")?.score == 2)
        }
    }

    @Test("databaseDictionary and databaseChanges compare encoded values")
    func dictionaries() throws {
        let player = Player(id: 1, name: "Arthur", score: 5)
        #expect(
            try player.databaseDictionary == [
                "id": 1.databaseValue, "name": "Arthur".databaseValue, "score": 5.databaseValue,
            ])
        var changed = player
        changed.score = 6
        #expect(try changed.databaseChanges(from: player) == ["score": 5.databaseValue])
        #expect(try player.databaseEquals(player))
    }
}

@Suite("Codable records sharing rows")
struct SharedRowTests {
    struct Name: Decodable, FetchableRecord { var name: String }
    struct Score: Decodable, FetchableRecord { var score: Int }
    struct Both: FetchableRecord {
        var name: Name
        var score: Score
        init(row: Row) throws {
            name = try Name(row: row)
            score = try Score(row: row)
        }
    }

    @Test("A record built from several Decodable records of the same row")
    func severalRecordsPerRow() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { (db: Database) throws in
            for index in 0..<3 { _ = try Player(id: nil, name: "P\(index)", score: index).inserted(db) }
            let both = try Both.fetchAll(db, sql: "SELECT * FROM player ORDER BY id")
            #expect(both.map(\.name.name) == ["P0", "P1", "P2"])
            #expect(both.map(\.score.score) == [0, 1, 2])
            let cursor = try Both.fetchCursor(db, sql: "SELECT * FROM player ORDER BY id DESC")
            var names: [String] = []
            while let element = try cursor.next() { names.append(element.name.name) }
            #expect(names == ["P2", "P1", "P0"])
        }
    }
}

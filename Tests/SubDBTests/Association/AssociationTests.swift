import CSQLite
import Foundation
import Testing

@testable import SubDB

private struct Author: Codable, Equatable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    static let books = hasMany(Book.self)
    static let biography = hasOne(Biography.self)
}

private struct Book: Codable, Equatable, FetchableRecord, PersistableRecord {
    var id: Int64
    var authorId: Int64?
    var title: String
    var year: Int
    static let author = belongsTo(Author.self)
    static let biography = hasOne(Biography.self, through: author, using: Author.biography)
}

private struct Biography: Codable, Equatable, FetchableRecord, PersistableRecord {
    var id: Int64
    var authorId: Int64
    var text: String
}

// The seeds' many-to-many example, with explicit foreign keys and plural table names.
private struct Post: Codable, Equatable, FetchableRecord, PersistableRecord {
    var id: String
    var title: String
    static let databaseTableName = "posts"
    static let postTags = hasMany(PostTag.self, using: ForeignKey(["postId"]))
    static let tags = hasMany(Tag.self, through: postTags, using: PostTag.tag)
}

private struct Tag: Codable, Equatable, FetchableRecord, PersistableRecord {
    var id: String
    var name: String
    static let databaseTableName = "tags"
    static let postTags = hasMany(PostTag.self, using: ForeignKey(["tagId"]))
    static let posts = hasMany(Post.self, through: postTags, using: PostTag.post)
}

private struct PostTag: Codable, Equatable, FetchableRecord, PersistableRecord {
    var postId: String
    var tagId: String
    static let databaseTableName = "post_tags"
    static let post = belongsTo(Post.self, using: ForeignKey(["postId"]))
    static let tag = belongsTo(Tag.self, using: ForeignKey(["tagId"]))
}

private struct BookInfo: Decodable, FetchableRecord, Equatable {
    var book: Book
    var author: Author
}

private struct OptionalBookInfo: Decodable, FetchableRecord, Equatable {
    var book: Book
    var author: Author?
}

private struct AuthorInfo: Decodable, FetchableRecord, Equatable {
    var author: Author
    var books: [Book]
}

private struct PostInfo: Decodable, FetchableRecord, Equatable {
    var post: Post
    var tag: Tag
}

private struct PostWithTags: Decodable, FetchableRecord, Equatable {
    var post: Post
    var tags: [Tag]
}

/// Empty author and book tables, as in `makeLibrary()`.
private func createAuthorsAndBooks(_ db: Database) throws {
    try db.execute(
        sql: """
            CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE book (
                id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT NOT NULL, year INTEGER);
            """)
}

/// A library of authors and books, and the seeds' posts and tags, with every statement recorded.
private func makeLibrary() throws -> TestDatabase {
    let test = try TestDatabase()
    try test.dbQueue.write { db in
        try db.execute(
            sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE book (
                    id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT NOT NULL, year INTEGER);
                CREATE TABLE biography (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id), text TEXT);
                INSERT INTO author VALUES (1, 'Jules Verne'), (2, 'Mary Shelley'), (3, 'Nobody');
                INSERT INTO book VALUES
                    (1, 1, 'Vingt mille lieues', 1870), (2, 1, 'De la Terre à la Lune', 1865),
                    (3, 2, 'Frankenstein', 1818), (4, NULL, 'Anonymous', 1900);
                INSERT INTO biography VALUES (1, 2, 'Born 1797');
                CREATE TABLE posts (id TEXT PRIMARY KEY, title TEXT NOT NULL);
                CREATE TABLE tags (id TEXT PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE post_tags (postId TEXT NOT NULL, tagId TEXT NOT NULL, PRIMARY KEY (postId, tagId));
                INSERT INTO posts VALUES ('p1', 'Swift'), ('p2', 'SQLite'), ('p3', 'Empty');
                INSERT INTO tags VALUES ('t1', 'lang'), ('t2', 'db'), ('t3', 'unused');
                INSERT INTO post_tags VALUES ('p1', 't1'), ('p2', 't2'), ('p2', 't1');
                """)
    }
    test.recorder.clear()
    return test
}

extension TestDatabase {
    /// The SELECT statements run so far, without schema introspection.
    fileprivate var selects: [String] {
        recorder.sql.filter { $0.hasPrefix("SELECT") && !$0.contains("sqlite_master") }
    }
}

@Suite struct AssociationTests {
    @Test func belongsToIncludingRequired() throws {
        let test = try makeLibrary()
        let request = Book.including(required: Book.author).order(Column("id")).asRequest(of: BookInfo.self)
        let infos = try test.dbQueue.read { db in try request.fetchAll(db) }
        #expect(
            test.selects.last == """
                SELECT "book".*, "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" \
                ORDER BY "book"."id"
                """)
        #expect(
            infos.map { "\($0.book.title) by \($0.author.name)" } == [
                "Vingt mille lieues by Jules Verne", "De la Terre à la Lune by Jules Verne",
                "Frankenstein by Mary Shelley",
            ])
        // The base record alone, and the scopes of the row.
        let (books, row) = try test.dbQueue.read { db in
            (
                try Book.including(required: Book.author).fetchAll(db),
                try Book.including(required: Book.author).filter(Column("id") == 3).asRequest(of: Row.self).fetchOne(db)
            )
        }
        #expect(books.map(\.id) == [1, 2, 3])
        let author = try #require(row?.scopes["author"])
        #expect(author == ["id": 2, "name": "Mary Shelley"])
        #expect(row?.scopes.names == ["author"])
        #expect(row?.hasColumn("name") == false)
    }

    @Test func includingOptionalDecodesNil() throws {
        let test = try makeLibrary()
        let infos = try test.dbQueue.read { db in
            try Book.including(optional: Book.author).order(Column("id")).asRequest(of: OptionalBookInfo.self)
                .fetchAll(db)
        }
        #expect(test.selects.last?.contains("LEFT JOIN \"author\" ON") == true)
        #expect(infos.map { $0.author?.name ?? "-" } == ["Jules Verne", "Jules Verne", "Mary Shelley", "-"])
    }

    @Test func includingAllRunsOneQueryPerAssociation() throws {
        let test = try makeLibrary()
        let request = Author.including(all: Author.books.order(Column("year"))).order(Column("id"))
            .asRequest(of: AuthorInfo.self)
        let infos = try test.dbQueue.read { db in try request.fetchAll(db) }
        #expect(
            test.selects == [
                "SELECT * FROM \"author\" ORDER BY \"id\"",
                "SELECT \"book\".\"authorId\" AS \"subdb_key_0\", \"book\".* FROM \"book\" "
                    + "WHERE \"book\".\"authorId\" IN (1, 2, 3) ORDER BY \"book\".\"year\"",
            ])
        #expect(infos.map(\.author.name) == ["Jules Verne", "Mary Shelley", "Nobody"])
        #expect(
            infos.map { $0.books.map(\.title) } == [
                ["De la Terre à la Lune", "Vingt mille lieues"], ["Frankenstein"], [],
            ])
        let rows = try test.dbQueue.read { db in
            try Author.including(all: Author.books).asRequest(of: Row.self).fetchAll(db)
        }
        #expect(rows.map { $0.prefetchedRows["books"]?.count } == [2, 1, 0])
        #expect(rows.first?.prefetchedRows.keys == ["books"])
    }

    @Test func includingAllWithMoreRowsThanOneValueBlock() throws {
        let test = try TestDatabase()
        try test.dbQueue.write { db in
            try createAuthorsAndBooks(db)
            try db.execute(sql: "INSERT INTO author VALUES (1, 'many'), (2, 'few'), (3, 'none')")
            // Rows are read into blocks of 1,024: 2,500 books for one author span three blocks.
            let statement = try db.makeStatement(sql: "INSERT INTO book VALUES (?, ?, ?, ?)")
            for id in 1...2_510 {
                try statement.execute(arguments: [id, id <= 2_500 ? 1 : 2, "t\(id)", id % 7])
            }
        }
        let infos = try test.dbQueue.read { db in
            try Author.including(all: Author.books.order(Column("id"))).order(Column("id"))
                .asRequest(of: AuthorInfo.self).fetchAll(db)
        }
        #expect(infos.map(\.author.name) == ["many", "few", "none"])
        #expect(infos.map(\.books.count) == [2_500, 10, 0])
        #expect(infos[0].books.map(\.id) == Array(1...2_500))
        #expect(infos[1].books.map(\.title) == (2_501...2_510).map { "t\($0)" })
        #expect(infos[0].books[1_024] == Book(id: 1_025, authorId: 1, title: "t1025", year: 1_025 % 7))
    }

    @Test func aPrefetchedRecordThatFailsToDecodeThrows() throws {
        let test = try TestDatabase()
        try test.dbQueue.write { db in
            try createAuthorsAndBooks(db)
            try db.execute(
                sql: """
                    INSERT INTO author VALUES (1, 'a');
                    INSERT INTO book VALUES (1, 1, 'ok', 1900), (2, 1, 'no year', NULL), (3, 1, 'ok', 1901);
                    """)
        }
        let error = #expect(throws: RowDecodingError.self) {
            try test.dbQueue.read { db in
                try Author.including(all: Author.books).asRequest(of: AuthorInfo.self).fetchAll(db)
            }
        }
        #expect(
            error?.description
                == "could not decode Int64 from database value NULL - column: \"year\", column index: 3, "
                + "row: [id:2 authorId:1 title:\"no year\" year:NULL]")
    }

    @Test func includingAllChunksUnderTheVariableLimit() throws {
        let test = try TestDatabase()
        try test.dbQueue.write { db in
            try createAuthorsAndBooks(db)
            for id in 1...5_000 {
                try db.execute(sql: "INSERT INTO author VALUES (?, 'a')", arguments: [id])
                try db.execute(sql: "INSERT INTO book VALUES (?, ?, 't', 0)", arguments: [id, id])
            }
        }
        test.recorder.clear()
        let infos = try test.dbQueue.read { db in
            // SQLite's historical limit of 999 variables: 499 keys per query.
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, 999)
            #expect(db.maximumVariableCount == 999)
            return try Author.including(all: Author.books).asRequest(of: AuthorInfo.self).fetchAll(db)
        }
        // One query for the authors, then ceil(5000 / 499) = 11 for the books: never one per row.
        #expect(test.selects.count == 12)
        #expect(test.selects.dropFirst().allSatisfy { $0.hasPrefix("SELECT \"book\".\"authorId\" AS \"subdb_key_0\"") })
        #expect(infos.count == 5_000)
        #expect(infos.allSatisfy { $0.books.map(\.id) == [$0.author.id] })
    }

    @Test func hasManyThroughAsInTheSeeds() throws {
        let test = try makeLibrary()
        let infos = try test.dbQueue.read { db in
            try PostTag.including(required: PostTag.tag).including(required: PostTag.post)
                .order(Column("postId"), Column("tagId")).asRequest(of: PostInfo.self).fetchAll(db)
        }
        #expect(infos.map { "\($0.post.title):\($0.tag.name)" } == ["Swift:lang", "SQLite:lang", "SQLite:db"])

        let tagged = try test.dbQueue.read { db in
            try Post.joining(required: Post.tags.filter(Column("id") == "t1")).order(Column("id")).fetchAll(db)
        }
        #expect(
            test.selects.last == """
                SELECT "posts".* FROM "posts" JOIN "post_tags" ON "post_tags"."postId" = "posts"."id" \
                JOIN "tags" ON ("tags"."id" = "post_tags"."tagId") AND ("tags"."id" = 't1') ORDER BY "posts"."id"
                """)
        #expect(tagged.map(\.id) == ["p1", "p2"])

        let withTags = try test.dbQueue.read { db in
            try Post.including(all: Post.tags.order(Column("name"))).order(Column("id"))
                .asRequest(of: PostWithTags.self).fetchAll(db)
        }
        #expect(withTags.map { $0.tags.map(\.name) } == [["lang"], ["db", "lang"], []])
        #expect(
            test.selects.last == """
                SELECT "post_tags"."postId" AS "subdb_key_0", "tags".* FROM "tags" \
                JOIN "post_tags" ON ("post_tags"."tagId" = "tags"."id") \
                AND ("post_tags"."postId" IN ('p1', 'p2', 'p3')) ORDER BY "tags"."name"
                """)
    }

    @Test func requestForARecord() throws {
        let test = try makeLibrary()
        try test.dbQueue.read { db in
            let verne = try #require(try Author.fetchOne(db, key: 1))
            #expect(try verne.request(for: Author.books).order(Column("id")).fetchAll(db).map(\.id) == [1, 2])
            let frankenstein = try #require(try Book.fetchOne(db, key: 3))
            #expect(try frankenstein.request(for: Book.author).fetchOne(db)?.name == "Mary Shelley")
            let anonymous = try #require(try Book.fetchOne(db, key: 4))
            #expect(try anonymous.request(for: Book.author).fetchOne(db) == nil)
            let post = try #require(try Post.fetchOne(db, key: "p2"))
            #expect(try post.request(for: Post.tags).order(Column("id")).fetchAll(db).map(\.id) == ["t1", "t2"])
            #expect(try post.request(for: Post.tags).fetchCount(db) == 2)
            let tag = try #require(try Tag.fetchOne(db, key: "t1"))
            #expect(
                try tag.request(for: Tag.posts).order(Column("id")).fetchAll(db).map(\.title) == ["Swift", "SQLite"])
            #expect(try frankenstein.request(for: Book.biography).fetchOne(db)?.text == "Born 1797")
        }
    }

    @Test func hasOneForKeyAndCounts() throws {
        let test = try makeLibrary()
        struct AuthorBio: Decodable, FetchableRecord {
            var author: Author
            var bio: Biography?
        }
        try test.dbQueue.read { db in
            let bios = try Author.including(optional: Author.biography.forKey("bio")).order(Column("id"))
                .asRequest(of: AuthorBio.self).fetchAll(db)
            #expect(bios.map { $0.bio?.text ?? "-" } == ["-", "Born 1797", "-"])
            #expect(try Author.joining(required: Author.biography).fetchCount(db) == 1)
            #expect(try Book.joining(required: Book.author.filter(Column("name") == "Jules Verne")).fetchCount(db) == 2)
            // Joining a to-many association repeats the origin rows, as SQL does.
            #expect(try Author.joining(required: Author.books).fetchCount(db) == 3)
            #expect(try Author.joining(optional: Author.books).fetchCount(db) == 4)
        }
    }

    @Test func foreignKeysThatCannotBeInferred() throws {
        let test = try makeLibrary()
        struct Loan: TableRecord, FetchableRecord, Decodable {
            var id: Int64
            static let author = belongsTo(Author.self)
        }
        try test.dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE loan (id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author, editorId INTEGER REFERENCES author)
                    """)
            let error = #expect(throws: DatabaseError.self) { try Loan.including(required: Loan.author).fetchAll(db) }
            #expect(
                error?.message == """
                    could not infer foreign key from loan to author: 2 foreign keys in table loan reference author; \
                    use ForeignKey([...])
                    """)
            let missing = #expect(throws: DatabaseError.self) {
                try Author.including(all: Author.hasMany(Loan.self, key: "x").forKey("y")).fetchAll(db)
            }
            #expect(
                missing?.message == """
                    could not infer foreign key from author to loan: 2 foreign keys in table loan reference author; \
                    use ForeignKey([...])
                    """)
            let none = #expect(throws: DatabaseError.self) {
                try Book.including(required: Book.belongsTo(Post.self)).fetchAll(db)
            }
            #expect(
                none?.message == """
                    could not infer foreign key from book to posts: no foreign key in table book references posts; \
                    use ForeignKey([...])
                    """)
        }
    }

    @Test func decodingAndSelectionErrors() throws {
        let test = try makeLibrary()
        struct Mistyped: Decodable, FetchableRecord {
            var book: Book
            var author: Date
        }
        try test.dbQueue.read { (db: Database) throws in
            let mistyped = #expect(throws: RowDecodingError.self) {
                try Book.including(required: Book.author).asRequest(of: Mistyped.self).fetchAll(db)
            }
            #expect(
                mistyped.map { String(describing: $0) }?.hasPrefix(
                    "association \"author\" cannot be decoded as Date: use a FetchableRecord type "
                        + "(an array for including(all:))") == true)
            let noKey = #expect(throws: DatabaseError.self) {
                try Author.select(Column("name")).including(all: Author.books).asRequest(of: Row.self).fetchAll(db)
            }
            #expect(noKey?.message == "including(all: books) needs the column id of author in the selection")
            let cursor = #expect(throws: DatabaseError.self) {
                try Book.including(required: Book.author).asRequest(of: BookInfo.self).fetchCursor(db)
            }
            #expect(
                cursor?.message == "fetchCursor does not support requests with associations: use fetchAll or fetchOne")
            #expect(try Book.all().fetchCursor(db).next()?.id == 1)
            let nested = #expect(throws: DatabaseError.self) {
                try Book.including(required: Book.author.including(all: Author.books)).fetchAll(db)
            }
            #expect(
                nested?.message
                    == "including(all: books) is not supported inside a joined association; "
                    + "prefetch from the request's own records instead")
        }
    }

    @Test func inflections() {
        #expect(Author.books.key == "books")
        #expect(Book.author.key == "author")
        #expect(Post.tags.key == "tags")
        #expect(PostTag.tag.key == "tag")
        #expect(Tag.posts.key == "posts")
        #expect(Author.hasMany(Biography.self).forKey("bios").key == "bios")
    }

    @Test func theSameAssociationTwiceIsOneJoin() throws {
        let test = try makeLibrary()
        let authorJoin = #"JOIN "author" ON "author"."id" = "book"."authorId""#
        try test.dbQueue.read { db in
            let twice = try Book.including(required: Book.author).including(required: Book.author)
                .order(Column("id")).asRequest(of: BookInfo.self).fetchAll(db)
            #expect(twice.map(\.author.name) == ["Jules Verne", "Jules Verne", "Mary Shelley"])
            #expect(
                test.selects.last == #"SELECT "book".*, "author".* FROM "book" "# + authorJoin
                    + #" ORDER BY "book"."id""#)
            // Joined and included: one JOIN, selected; required wins over optional.
            _ = try Book.joining(optional: Book.author).including(required: Book.author).fetchAll(db)
            #expect(test.selects.last == #"SELECT "book".*, "author".* FROM "book" "# + authorJoin)
            _ = try Book.including(optional: Book.author).joining(required: Book.author).fetchAll(db)
            #expect(test.selects.last == #"SELECT "book".*, "author".* FROM "book" "# + authorJoin)
            // The filters of both uses apply to the one join.
            let verne = try Book.joining(required: Book.author.filter(Column("name") == "Jules Verne"))
                .including(optional: Book.author).order(Column("id")).asRequest(of: OptionalBookInfo.self).fetchAll(db)
            #expect(verne.map(\.book.id) == [1, 2])
            #expect(
                test.selects.last == """
                    SELECT "book".*, "author".* FROM "book" JOIN "author" ON ("author"."id" = "book"."authorId") \
                    AND ("author"."name" = 'Jules Verne') ORDER BY "book"."id"
                    """)
            // Associations with different keys stay apart.
            _ = try Book.including(required: Book.author).including(optional: Book.author.forKey("writer")).fetchAll(db)
            #expect(test.selects.last?.contains(#"LEFT JOIN "author" "author2""#) == true)
        }
    }

    @Test func includingInsideJoiningIsSelected() throws {
        struct BookBio: Decodable, FetchableRecord {
            var book: Book
            var biography: Biography?
        }
        let test = try makeLibrary()
        let (infos, row) = try test.dbQueue.read { db in
            let request = Book.joining(required: Book.author.including(optional: Author.biography)).order(Column("id"))
            return (
                try request.asRequest(of: BookBio.self).fetchAll(db), try request.asRequest(of: Row.self).fetchAll(db)
            )
        }
        #expect(
            test.selects.last == """
                SELECT "book".*, "biography".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" \
                LEFT JOIN "biography" ON "biography"."authorId" = "author"."id" ORDER BY "book"."id"
                """)
        #expect(infos.map { "\($0.book.id):\($0.biography?.text ?? "-")" } == ["1:-", "2:-", "3:Born 1797"])
        // The joined association is an empty scope that holds the included one, as in GRDB.
        let bookRow = try #require(row.last)
        #expect(bookRow.scopes["author"]?.count == 0)
        #expect(bookRow.scopes["author"]?.scopes["biography"] == ["id": 1, "authorId": 2, "text": "Born 1797"])
        #expect(bookRow.scopesTree["biography"] == ["id": 1, "authorId": 2, "text": "Born 1797"])
    }

    @Test func requestForAChainedAssociationFiltersInTheJoin() throws {
        let test = try makeLibrary()
        try test.dbQueue.read { db in
            let post = try #require(try Post.fetchOne(db, key: "p2"))
            #expect(try post.request(for: Post.tags).order(Column("id")).fetchAll(db).map(\.id) == ["t1", "t2"])
            #expect(
                test.selects.last == """
                    SELECT "tags".* FROM "tags" JOIN "post_tags" ON ("post_tags"."tagId" = "tags"."id") \
                    AND ("post_tags"."postId" = 'p2') ORDER BY "tags"."id"
                    """)
            let frankenstein = try #require(try Book.fetchOne(db, key: 3))
            #expect(try frankenstein.request(for: Book.biography).fetchOne(db)?.text == "Born 1797")
            #expect(
                test.selects.last == """
                    SELECT "biography".* FROM "biography" JOIN "author" ON ("author"."id" = "biography"."authorId") \
                    AND ("author"."id" = 2) LIMIT 1
                    """)
            // A direct association filters in WHERE.
            let verne = try #require(try Author.fetchOne(db, key: 1))
            #expect(try verne.request(for: Author.books).fetchCount(db) == 2)
            #expect(test.selects.last?.contains(#"FROM "book" WHERE "book"."authorId" = 1"#) == true)
        }
    }

    @Test func tableAliases() throws {
        let test = try makeLibrary()
        try test.dbQueue.read { db in
            // Compare a book with its author: books published after 1860 by authors named "Jules Verne".
            let authorAlias = TableAlias()
            let books = try Book.joining(required: Book.author.aliased(authorAlias))
                .filter(Column("year") > 1860 && authorAlias[Column("name")] == "Jules Verne")
                .order(authorAlias[Column("name")], Column("id")).fetchAll(db)
            #expect(books.map(\.id) == [1, 2])
            #expect(
                test.selects.last == """
                    SELECT "book".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" \
                    WHERE ("book"."year" > 1860) AND ("author"."name" = 'Jules Verne') \
                    ORDER BY "author"."name", "book"."id"
                    """)
            // Named aliases are the aliases of the SQL, and work in raw SQL snippets.
            let bookAlias = TableAlias(name: "myBook")
            let writer = TableAlias(name: "myAuthor")
            let titles = try Book.aliased(bookAlias)
                .joining(
                    required: Book.author.aliased(writer).filter(sql: "myAuthor.name = ?", arguments: ["Mary Shelley"])
                )
                .filter(sql: "myBook.year < 1900").fetchAll(db).map(\.title)
            #expect(titles == ["Frankenstein"])
            #expect(
                test.selects.last == """
                    SELECT "myBook".* FROM "book" "myBook" JOIN "author" "myAuthor" \
                    ON ("myAuthor"."id" = "myBook"."authorId") AND (myAuthor.name = 'Mary Shelley') \
                    WHERE myBook.year < 1900
                    """)
            // An alias of the request's own table qualifies its columns.
            let own = TableAlias()
            #expect(try Book.aliased(own).filter(own[Column("id")] == 3).fetchOne(db)?.title == "Frankenstein")
            #expect(test.selects.last == #"SELECT "book".* FROM "book" WHERE "book"."id" = 3 LIMIT 1"#)
        }
    }
}

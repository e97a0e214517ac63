import Foundation
import SubDB

/// subfix's library: indexed media and subtitle files, their dialogue with a full-text index, the job log and
/// the font catalog, in one SQLite file opened as a WAL ``DatabasePool`` (searches from other processes run
/// while an index is being written), or, for searching and listing, as one read-only connection that never
/// migrates (a library on read-only media can be searched).
///
///     let library = try LibraryDatabase(path: LibraryDatabase.defaultPath(environment: env), mode: .create)
///     try library.prepareDialogueIndex(foldsChinese: false)
///     let hits = try library.search(try DialogueQuery("你好"), options: DialogueSearchOptions(limit: 20))
public final class LibraryDatabase: Sendable {
    /// How to open the database.
    public enum OpenMode: Sendable {
        /// Create the file (and its folders) when missing.
        case create
        /// Fail with ``LibraryError/missing(path:)`` when the file does not exist.
        case existing
        /// An existing file, read through one read-only connection; never migrated. A schema older than this
        /// subfix's is ``LibraryError/olderSchema(path:)`` (once a migration another process is running ends).
        case readOnly
    }

    /// The path of the database file.
    public let path: String
    /// True when the library was opened read-only as an immutable file, because WAL's shared memory could not be
    /// made next to it (a folder the user cannot write): what another process changes while it is open is not
    /// seen.
    public let isImmutableSnapshot: Bool
    /// The WAL pool that writes; nil when opened read-only.
    private let writerPool: DatabasePool?
    /// Where reads go: the pool, or the read-only connection.
    let reader: any DatabaseReader

    /// The pool that writes; a library opened read-only throws ``LibraryError/readOnly(path:)``.
    var pool: DatabasePool {
        get throws(LibraryError) {
            guard let writerPool else { throw .readOnly(path: path) }
            return writerPool
        }
    }

    /// Opens (or creates) the library at `path`; writable modes apply the schema migrations, one process at a
    /// time (each migration re-checks, inside its write transaction, whether another process applied it).
    public init(path: String, mode: OpenMode) throws {
        self.path = path
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw LibraryError.isFolder(path: path)
        }
        switch mode {
        case .existing, .readOnly:
            guard manager.fileExists(atPath: path) else { throw LibraryError.missing(path: path) }
        case .create:
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty && !manager.fileExists(atPath: folder) {
                // mkdir -p, with the system's reason on failure (Foundation's error would print its domain).
                var made = folder.hasPrefix("/") ? "/" : ""
                for component in folder.split(separator: "/") {
                    made += (made.isEmpty || made.hasSuffix("/") ? "" : "/") + component
                    if manager.fileExists(atPath: made) { continue }
                    if mkdir(made, 0o777) != 0 && errno != EEXIST {
                        throw LibraryError.cannotCreateFolder(
                            path: path, folder: folder, cause: String(cString: strerror(errno)))
                    }
                }
            }
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.label = "subfix.library"
        let readOnly = mode == .readOnly
        configuration.readonly = readOnly
        configuration.prepareDatabase { db in
            db.add(tokenizer: DialogueTokenizer.self)
            if readOnly { return }
            // A new file gives its free pages back (`incremental_vacuum` after indexing): FTS5's last merges free
            // up to 2% of the file. Only possible before the first page is written.
            if try Int.fetchOne(db, sql: "PRAGMA page_count") == 0 {
                try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
            }
            // 32 MB of page cache: FTS5 merges its segments through it while indexing.
            try db.execute(sql: "PRAGMA cache_size = -32768")
            // Checkpoint every 64 MB of log rather than 4 MB while indexing (the index command checkpoints at
            // its end).
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 16384")
        }
        let migrator = LibraryDatabase.migrator
        if readOnly {
            let queue: DatabaseQueue
            (queue, isImmutableSnapshot) = try LibraryDatabase.openReading(path: path, configuration: configuration)
            writerPool = nil
            reader = queue
            if try !LibraryDatabase.schemaIsCurrent(queue, migrator, path: path) {
                // Another process may be creating or migrating it: wait for its write to end, then look again.
                LibraryDatabase.waitForWriter(path: path)
                if try !LibraryDatabase.schemaIsCurrent(queue, migrator, path: path) {
                    throw LibraryError.olderSchema(path: path)
                }
            }
            return
        }
        isImmutableSnapshot = false
        let pool = try DatabasePool(path: path, configuration: configuration)
        writerPool = pool
        reader = pool
        try reader.read { db in
            if try migrator.hasBeenSuperseded(db) { throw LibraryError.newerSchema(path: path) }
        }
        try migrator.migrate(pool)
    }

    /// The one connection of a library opened read-only, and whether it is immutable. A file the user may write
    /// is opened read-write with every write refused (`PRAGMA query_only`): SQLite deletes the `-wal` and `-shm`
    /// files when the last connection closes only if that connection may write, and a read-only one would leave
    /// the two it made behind. A file the user may not write is opened read-only. When either fails because WAL's
    /// shared memory cannot be made (`-shm` in a folder the user cannot write: SQLITE_READONLY or
    /// SQLITE_CANTOPEN), the file is opened immutable (`immutable=1`), which needs no `-shm`.
    private static func openReading(
        path: String, configuration: Configuration
    ) throws -> (DatabaseQueue, immutable: Bool) {
        var configuration = configuration
        if access(path, W_OK) == 0 {
            configuration.readonly = false
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = ON") }
        }
        do {
            return (try DatabaseQueue(path: path, configuration: configuration), false)
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN
        {
            configuration.readonly = true
            configuration.immutable = true
            return (try DatabaseQueue(path: path, configuration: configuration), true)
        }
    }

    /// Whether the library's schema is this subfix's; a newer one throws.
    private static func schemaIsCurrent(
        _ reader: some DatabaseReader, _ migrator: DatabaseMigrator, path: String
    ) throws -> Bool {
        return try reader.read { db in
            if try migrator.hasBeenSuperseded(db) { throw LibraryError.newerSchema(path: path) }
            return try migrator.hasCompletedMigrations(db)
        }
    }

    /// Waits (up to the busy timeout) until no other connection holds the write lock, by taking and releasing
    /// it; returns at once when the file cannot be opened for writing (read-only media: nobody writes there).
    private static func waitForWriter(path: String) {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return }
        try? queue.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "ROLLBACK")
        }
    }

    /// `$XDG_DATA_HOME/subfix/library.sqlite`, else `~/.local/share/subfix/library.sqlite`.
    public static func defaultPath(environment: [String: String]) -> String {
        defaultPath { environment[$0] }
    }

    /// `defaultPath(environment:)`, with each variable read through `variable` (such as a `getenv` lookup).
    public static func defaultPath(variable: (String) -> String?) -> String {
        if let data = variable("XDG_DATA_HOME"), data.hasPrefix("/") {
            return data + "/subfix/library.sqlite"
        }
        let home = variable("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/subfix/library.sqlite"
    }

    // MARK: Schema

    /// The named schema migrations, in order.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("library-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE media_file (
                        id INTEGER PRIMARY KEY,
                        path TEXT NOT NULL UNIQUE,
                        size INTEGER NOT NULL,
                        mtime INTEGER NOT NULL,
                        duration REAL
                    );
                    CREATE TABLE subtitle_source (
                        id INTEGER PRIMARY KEY,
                        media_file_id INTEGER NOT NULL REFERENCES media_file(id) ON DELETE CASCADE,
                        kind TEXT NOT NULL CHECK (kind IN ('sidecar', 'embedded')),
                        codec TEXT NOT NULL,
                        language TEXT,
                        title TEXT,
                        player_index INTEGER,
                        subtitle_index INTEGER,
                        encoding TEXT
                    );
                    CREATE INDEX subtitle_source_on_media_file ON subtitle_source(media_file_id);
                    CREATE INDEX subtitle_source_on_language ON subtitle_source(language);
                    CREATE TABLE dialogue_line (
                        id INTEGER PRIMARY KEY,
                        source_id INTEGER NOT NULL REFERENCES subtitle_source(id) ON DELETE CASCADE,
                        start_ms INTEGER NOT NULL,
                        end_ms INTEGER NOT NULL,
                        style TEXT NOT NULL,
                        text TEXT NOT NULL
                    );
                    CREATE INDEX dialogue_line_on_source ON dialogue_line(source_id, start_ms);
                    CREATE TABLE job (
                        id INTEGER PRIMARY KEY,
                        command TEXT NOT NULL,
                        arguments TEXT NOT NULL,
                        started_at REAL NOT NULL,
                        finished_at REAL,
                        status TEXT NOT NULL,
                        counts TEXT NOT NULL
                    );
                    CREATE INDEX job_on_started_at ON job(started_at);
                    CREATE TABLE job_file (
                        id INTEGER PRIMARY KEY,
                        job_id INTEGER NOT NULL REFERENCES job(id) ON DELETE CASCADE,
                        path TEXT NOT NULL,
                        output TEXT,
                        status TEXT NOT NULL,
                        encoding TEXT,
                        counts TEXT NOT NULL,
                        error TEXT
                    );
                    CREATE INDEX job_file_on_job ON job_file(job_id);
                    CREATE TABLE font_face (
                        id INTEGER PRIMARY KEY,
                        file TEXT NOT NULL,
                        face_index INTEGER NOT NULL,
                        families TEXT NOT NULL,
                        full_names TEXT NOT NULL,
                        postscript_name TEXT,
                        weight INTEGER NOT NULL,
                        slant TEXT NOT NULL,
                        coverage TEXT NOT NULL,
                        UNIQUE (file, face_index)
                    );
                    """)
        }
        // subfix 0.1's library, made smaller for issue 18 (2.9x the raw text at 10M lines; `docs/search-index.md`):
        // - a source's lines, inserted together, are named by their id range (`first_line_id`, `last_line_id`)
        //   instead of the `dialogue_line(source_id, start_ms)` index (0.36x the text) and its foreign-key
        //   cascade, which needed that index; a trigger deletes a source's range with the source;
        // - the dialogue index keeps no positions and indexes adjacent CJK characters in pairs, and no per-line
        //   token counts (`columnsize=0`: 0.21x; ranking reads the line's length instead).
        // An existing library's lines are copied into the new table (ids kept) and its index made again from
        // them, folding as it did: about the time `subfix index` took to build it.
        migrator.registerMigration("library-v2-compact") { db in
            let folds = try indexFolding(db)
            try db.execute(
                sql: """
                    ALTER TABLE subtitle_source ADD COLUMN first_line_id INTEGER;
                    ALTER TABLE subtitle_source ADD COLUMN last_line_id INTEGER;
                    UPDATE subtitle_source SET
                        first_line_id = (SELECT min(id) FROM dialogue_line WHERE source_id = subtitle_source.id),
                        last_line_id = (SELECT max(id) FROM dialogue_line WHERE source_id = subtitle_source.id);
                    DROP TRIGGER IF EXISTS dialogue_line_ad;
                    DROP TRIGGER IF EXISTS dialogue_line_au;
                    DROP TABLE IF EXISTS dialogue_fts;
                    CREATE TABLE dialogue_line_compact (
                        id INTEGER PRIMARY KEY,
                        source_id INTEGER NOT NULL,
                        start_ms INTEGER NOT NULL,
                        end_ms INTEGER NOT NULL,
                        style TEXT NOT NULL,
                        text TEXT NOT NULL
                    );
                    INSERT INTO dialogue_line_compact (id, source_id, start_ms, end_ms, style, text)
                        SELECT id, source_id, start_ms, end_ms, style, text FROM dialogue_line ORDER BY id;
                    DROP TABLE dialogue_line;
                    ALTER TABLE dialogue_line_compact RENAME TO dialogue_line;
                    CREATE TRIGGER subtitle_source_ad AFTER DELETE ON subtitle_source BEGIN
                        DELETE FROM dialogue_line WHERE id BETWEEN old.first_line_id AND old.last_line_id;
                    END;
                    """)
            guard let folds else { return }
            try createDialogueIndex(foldsChinese: folds, in: db)
            try db.execute(sql: "INSERT INTO dialogue_fts(dialogue_fts) VALUES ('rebuild')")
        }
        // A file indexed again with the same sources and line counts is updated in place (`store(_:)`): a line
        // whose times or style changed, but not its text, keeps its index entries.
        migrator.registerMigration("library-v3-text-update-trigger") { db in
            guard try indexFolding(db) != nil else { return }
            try db.execute(
                sql: "DROP TRIGGER IF EXISTS dialogue_line_au; \(textUpdateTrigger)")
        }
        // Each source keeps its lines' lengths (`line_lengths`, one byte a line), so that ranking a search's
        // candidates reads one row per source instead of one per line (`rankedCandidates`); filled here from the
        // stored lines.
        migrator.registerMigration("library-v3-line-lengths") { db in
            try db.execute(
                sql: """
                    ALTER TABLE subtitle_source ADD COLUMN line_lengths BLOB;
                    CREATE INDEX subtitle_source_on_first_line ON subtitle_source(first_line_id);
                    """)
            let sources = try Row.fetchAll(
                db, sql: "SELECT id, first_line_id, last_line_id FROM subtitle_source WHERE first_line_id IS NOT NULL")
            let lengths = try db.cachedStatement(
                sql: "SELECT text FROM dialogue_line WHERE id BETWEEN ? AND ? ORDER BY id")
            let update = try db.cachedStatement(sql: "UPDATE subtitle_source SET line_lengths = ? WHERE id = ?")
            for source in sources {
                let (id, first, last): (Int64, Int64, Int64) = (source[0], source[1], source[2])
                let texts = try String.fetchAll(lengths, arguments: [first, last])
                try update.execute(arguments: [LineLengths.encode(texts), id])
            }
        }
        return migrator
    }

    /// The name of the full-text table.
    static let ftsTable = "dialogue_fts"

    /// The most bytes of new terms FTS5 holds in memory before writing a segment: 64 MB, more than a batch of
    /// the index command makes.
    static let ftsHashSize = 64 << 20

    /// Whether the dialogue index folds Chinese; nil when there is no dialogue index yet.
    public func dialogueIndexFoldsChinese() throws -> Bool? {
        try reader.read { db in try Self.indexFolding(db) }
    }

    /// Reads the folding choice from the `tokenize` option stored in the table's SQL.
    static func indexFolding(_ db: Database) throws -> Bool? {
        guard
            let sql = try String.fetchOne(
                db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [ftsTable])
        else { return nil }
        return sql.contains(foldingOption)
    }

    /// `DialogueTokenizer.descriptor(foldsChinese: true).sqlOptionValue`, written out: computing it goes through
    /// Foundation's string bridging, whose first use costs a command-line search 0.3 ms (a test keeps the two
    /// equal).
    static let foldingOption = "'subfix fold'"

    /// Creates the dialogue index with the folding choice if there is none; throws
    /// ``LibraryError/foldingMismatch(path:indexFolds:)`` when one exists with the other choice.
    ///
    /// `dialogue_fts` is an external-content FTS5 table over `dialogue_line`. New lines are indexed by
    /// ``store(_:)`` in the same transaction with one `INSERT ... SELECT` (3.5x less CPU than an AFTER INSERT
    /// trigger at 200,000 lines: 1.4 s against 5.0 s); deletions and updates are kept in step by triggers.
    ///
    /// FTS5 keeps up to ``ftsHashSize`` bytes of new terms in memory before it writes them as a segment (1 MB by
    /// default), so that a batch of lines becomes one segment and there are fewer segments to merge.
    public func prepareDialogueIndex(foldsChinese: Bool) throws {
        try pool.write { db in
            if let folds = try Self.indexFolding(db) {
                guard folds == foldsChinese else { throw LibraryError.foldingMismatch(path: path, indexFolds: folds) }
                let hashSize = try Int.fetchOne(db, sql: "SELECT v FROM dialogue_fts_config WHERE k = 'hashsize'")
                if hashSize != Self.ftsHashSize {
                    try db.execute(
                        sql: "INSERT INTO dialogue_fts(dialogue_fts, rank) VALUES ('hashsize', \(Self.ftsHashSize))")
                }
                return
            }
            try Self.createDialogueIndex(foldsChinese: foldsChinese, in: db)
        }
    }

    /// Creates `dialogue_fts` (no positions: `detail=none`, see ``DialogueTokenizer``; no per-line token counts:
    /// `columnsize=0`) and the triggers that keep it in step with deleted lines and lines whose text is updated.
    static func createDialogueIndex(foldsChinese: Bool, in db: Database) throws {
        let tokenize = DialogueTokenizer.descriptor(foldsChinese: foldsChinese).sqlOptionValue
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE dialogue_fts USING fts5(
                    text, content='dialogue_line', content_rowid='id', tokenize=\(tokenize), detail=none,
                    columnsize=0);
                INSERT INTO dialogue_fts(dialogue_fts, rank) VALUES ('automerge', 8);
                INSERT INTO dialogue_fts(dialogue_fts, rank) VALUES ('hashsize', \(ftsHashSize));
                CREATE TRIGGER dialogue_line_ad AFTER DELETE ON dialogue_line BEGIN
                    INSERT INTO dialogue_fts(dialogue_fts, rowid, text) VALUES ('delete', old.id, old.text);
                END;
                \(textUpdateTrigger)
                """)
    }

    /// The trigger that indexes a line again when its text changes (only then: new times or styles keep the
    /// line's entries).
    static let textUpdateTrigger = """
        CREATE TRIGGER dialogue_line_au AFTER UPDATE OF text ON dialogue_line BEGIN
            INSERT INTO dialogue_fts(dialogue_fts, rowid, text) VALUES ('delete', old.id, old.text);
            INSERT INTO dialogue_fts(rowid, text) VALUES (new.id, new.text);
        END;
        """
}

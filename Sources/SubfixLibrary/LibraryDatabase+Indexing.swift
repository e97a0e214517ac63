internal import CSQLite
import Foundation
import SubDB

/// A file ready to be stored: its identity on disk and its sources with their lines.
public struct IndexedFile: Sendable, Equatable {
    /// The path as indexed (absolute).
    public var path: String
    /// The size in bytes.
    public var size: Int64
    /// The modification time in nanoseconds since 1970.
    public var mtime: Int64
    /// The duration in seconds, for media files.
    public var duration: Double?
    /// The sidecar, or the embedded text tracks.
    public var sources: [IndexedSource]

    public init(path: String, size: Int64, mtime: Int64, duration: Double? = nil, sources: [IndexedSource]) {
        self.path = path
        self.size = size
        self.mtime = mtime
        self.duration = duration
        self.sources = sources
    }

    /// The number of lines of all sources.
    public var lineCount: Int { sources.reduce(0) { $0 + $1.lines.count } }
}

/// A source ready to be stored: its description (ids are filled in when stored) and its lines.
public struct IndexedSource: Sendable, Equatable {
    /// The source; `id` and `mediaFileId` are ignored.
    public var source: SubtitleSourceRecord
    /// The lines, in file order.
    public var lines: [IndexedLine]

    public init(source: SubtitleSourceRecord, lines: [IndexedLine]) {
        self.source = source
        self.lines = lines
    }
}

/// A line ready to be stored.
public struct IndexedLine: Sendable, Equatable {
    /// Start time in milliseconds.
    public var startMs: Int
    /// End time in milliseconds.
    public var endMs: Int
    /// The ASS style, empty for other formats.
    public var style: String
    /// The plain text.
    public var text: String

    public init(startMs: Int, endMs: Int, style: String, text: String) {
        self.startMs = startMs
        self.endMs = endMs
        self.style = style
        self.text = text
    }
}

/// What the library knows of a file, to decide whether to index it again.
public struct IndexedFileState: Sendable, Equatable {
    public var id: Int64
    /// The size when indexed.
    public var size: Int64
    /// The modification time when indexed, in nanoseconds since 1970.
    public var mtime: Int64
}

extension LibraryDatabase {
    /// Every indexed file by path.
    public func indexedFiles() throws -> [String: IndexedFileState] {
        try reader.read { db in
            var states: [String: IndexedFileState] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT id, path, size, mtime FROM media_file")
            while let row = try rows.next() {
                states[row["path"]] = IndexedFileState(id: row["id"], size: row["size"], mtime: row["mtime"])
            }
            return states
        }
    }

    /// Stores `files` in one transaction, each replacing what the library held for its path (its sources and
    /// lines, and their index entries); of two files with the same path the later one wins. Call
    /// ``prepareDialogueIndex(foldsChinese:)`` first.
    ///
    /// A file the library holds with the same number of sources and of lines in each (a subtitle whose fonts
    /// were fixed, whose timing was shifted or a few lines corrected) is updated in place: only the lines that
    /// differ are written, and only those whose text differs are indexed again (``LineChanges``). Deleting and
    /// re-indexing every line instead made re-indexing 1% of a library's files cost 2.5% of indexing it all.
    ///
    /// The old files are deleted first, then every line is inserted, then all the new lines are indexed with one
    /// `INSERT ... SELECT`: FTS5 writes its pending terms to a new segment at the start of every statement that
    /// writes to it (its `xSavepoint`), so one statement per batch makes one segment where one per source made
    /// hundreds, each to be merged again (index CPU 7.2 s -> 5.9 s for 1,000,000 lines).
    public func store(_ files: [IndexedFile]) throws {
        try pool.write { db in try Self.store(files, in: db) }
    }

    /// How many paths one `DELETE` names (well under SQLite's 32,766 bound parameters).
    static let pathsPerDelete = 1000

    /// Stores `files` inside the current transaction, as ``store(_:)`` does.
    static func store(_ files: [IndexedFile], in db: Database) throws {
        var latest: [String: Int] = [:]
        for (index, file) in files.enumerated() { latest[file.path] = index }
        var kept: [IndexedFile] = []
        var changes = LineChanges()
        for file in files.indices.filter({ latest[files[$0].path] == $0 }).map({ files[$0] }) {
            if try !updateInPlace(file, changes: &changes, in: db) { kept.append(file) }
        }
        try changes.apply(in: db)
        // One statement per 1,000 paths, not one per path: like an insert, each statement that deletes indexed
        // lines leaves FTS5 a new segment of tombstones to merge (re-indexing 10 changed files of a 1,000,000-line
        // library: 11 segments -> 2).
        let paths = kept.map(\.path)
        for start in stride(from: 0, to: paths.count, by: Self.pathsPerDelete) {
            let chunk = paths[start..<min(start + Self.pathsPerDelete, paths.count)]
            let placeholders = repeatElement("?", count: chunk.count).joined(separator: ",")
            try db.execute(
                sql: "DELETE FROM media_file WHERE path IN (\(placeholders))", arguments: StatementArguments(chunk))
        }
        // No line is deleted from here on: the new lines are exactly those above the highest id left.
        let lastID = try Int64.fetchOne(db, sql: "SELECT max(id) FROM dialogue_line") ?? 0
        for file in kept { try insert(file, in: db) }
        try db.cachedStatement(
            sql: "INSERT INTO dialogue_fts(rowid, text) SELECT id, text FROM dialogue_line WHERE id > ?"
        ).execute(arguments: [lastID])
    }

    /// Updates the stored `file` in place when the library holds its path with the same number of sources and of
    /// lines in each, adding the lines that differ to `changes`; false (and nothing changed) otherwise.
    static func updateInPlace(_ file: IndexedFile, changes: inout LineChanges, in db: Database) throws -> Bool {
        guard
            let mediaID = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM media_file WHERE path = ?"), arguments: [file.path])
        else { return false }
        let sources = try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT id, first_line_id, last_line_id FROM subtitle_source WHERE media_file_id = ? ORDER BY id"),
            arguments: [mediaID])
        guard sources.count == file.sources.count else { return false }
        var ranges: [(source: Int64, lines: ClosedRange<Int64>?)] = []
        for (row, indexed) in zip(sources, file.sources) {
            let first: Int64? = row[1]
            let last: Int64? = row[2]
            let range = first.flatMap { first in last.flatMap { first <= $0 ? first...$0 : nil } }
            guard (range?.count ?? 0) == indexed.lines.count else { return false }
            ranges.append((row[0], range))
        }
        var found = LineChanges()
        let read = try db.cachedStatement(
            sql: "SELECT id, start_ms, end_ms, style, text FROM dialogue_line WHERE id BETWEEN ? AND ? ORDER BY id")
        for ((_, range), indexed) in zip(ranges, file.sources) {
            guard let range else { continue }
            let rows = try Row.fetchCursor(read, arguments: [range.lowerBound, range.upperBound])
            var index = 0
            while let row = try rows.next() {
                // A gap in the ids (a library damaged by hand): stored again from scratch.
                guard index < indexed.lines.count, row[0] == range.lowerBound + Int64(index) else { return false }
                let line = indexed.lines[index]
                let id: Int64 = row[0]
                if row[4] != line.text {
                    found.texts.append((id, line))
                } else if row[1] != line.startMs || row[2] != line.endMs || row[3] != line.style {
                    found.timings.append((id, line))
                }
                index += 1
            }
            guard index == indexed.lines.count else { return false }
        }
        let updateSource = try db.cachedStatement(
            sql: """
                UPDATE subtitle_source SET kind = ?, codec = ?, language = ?, title = ?, player_index = ?,
                    subtitle_index = ?, encoding = ?, line_lengths = ?
                WHERE id = ?
                """)
        for ((sourceID, range), indexed) in zip(ranges, file.sources) {
            let source = indexed.source
            let lengths = range == nil ? nil : LineLengths.encode(indexed.lines.map(\.text))
            try updateSource.execute(arguments: [
                source.kind.rawValue, source.codec, source.language, source.title, source.playerIndex,
                source.subtitleIndex, source.encoding, lengths, sourceID,
            ])
        }
        try db.cachedStatement(sql: "UPDATE media_file SET size = ?, mtime = ?, duration = ? WHERE id = ?")
            .execute(arguments: [file.size, file.mtime, file.duration, mediaID])
        changes.texts += found.texts
        changes.timings += found.timings
        return true
    }

    /// Lines to update in place, written with one statement for those whose text changed (FTS5 makes one
    /// segment of the whole batch through the update trigger) and one for those whose times or style changed
    /// only (not indexed again).
    struct LineChanges {
        var texts: [(id: Int64, line: IndexedLine)] = []
        var timings: [(id: Int64, line: IndexedLine)] = []

        func apply(in db: Database) throws {
            guard !texts.isEmpty || !timings.isEmpty else { return }
            try db.execute(
                sql: """
                    CREATE TEMP TABLE IF NOT EXISTS changed_line (
                        id INTEGER PRIMARY KEY, start_ms INTEGER NOT NULL, end_ms INTEGER NOT NULL,
                        style TEXT NOT NULL, text TEXT NOT NULL)
                    """)
            for (lines, columns) in [(texts, "start_ms, end_ms, style, text"), (timings, "start_ms, end_ms, style")]
            where !lines.isEmpty {
                try db.execute(sql: "DELETE FROM temp.changed_line")
                let insert = try db.cachedStatement(
                    sql: "INSERT INTO temp.changed_line (id, start_ms, end_ms, style, text) VALUES (?, ?, ?, ?, ?)")
                for (id, line) in lines {
                    try insert.execute(arguments: [id, line.startMs, line.endMs, line.style, line.text])
                }
                // Row by row through the changed lines' ids (`UPDATE ... FROM` scanned every line).
                try db.execute(
                    sql: """
                        UPDATE dialogue_line
                        SET (\(columns)) = (SELECT \(columns) FROM temp.changed_line AS c WHERE c.id = dialogue_line.id)
                        WHERE id IN (SELECT id FROM temp.changed_line)
                        """)
            }
            try db.execute(sql: "DELETE FROM temp.changed_line")
        }
    }

    /// Removes these paths and everything indexed from them, in one transaction. Returns how many were removed.
    @discardableResult
    public func remove(paths: [String]) throws -> Int {
        try pool.write { db in
            var removed = 0
            let statement = try db.cachedStatement(sql: "DELETE FROM media_file WHERE path = ?")
            for path in paths {
                try statement.execute(arguments: [path])
                removed += db.changesCount
            }
            return removed
        }
    }

    /// Inserts one file, its sources and lines (not yet indexed) inside the current transaction.
    static func insert(_ file: IndexedFile, in db: Database) throws {
        var media = MediaFileRecord(path: file.path, size: file.size, mtime: file.mtime, duration: file.duration)
        try media.insert(db)
        guard let mediaID = media.id else { return }
        let insertSource = try db.cachedStatement(
            sql: """
                INSERT INTO subtitle_source
                    (media_file_id, kind, codec, language, title, player_index, subtitle_index, encoding)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
        let insertLine = try db.cachedStatement(
            sql: "INSERT INTO dialogue_line (source_id, start_ms, end_ms, style, text) VALUES (?, ?, ?, ?, ?)")
        for indexed in file.sources {
            let source = indexed.source
            try insertSource.execute(arguments: [
                mediaID, source.kind.rawValue, source.codec, source.language, source.title, source.playerIndex,
                source.subtitleIndex, source.encoding,
            ])
            let sourceID = db.lastInsertedRowID
            var first: Int64?
            for line in indexed.lines {
                // The hot path: bound straight from the values, without building StatementArguments.
                try insertLine.bindLine(sourceID: sourceID, line)
                try insertLine.executeBound()
                if first == nil { first = db.lastInsertedRowID }
            }
            // The source's lines are the ids from the first to the last inserted here (one writer, in a row).
            if let first {
                try db.cachedStatement(
                    sql: "UPDATE subtitle_source SET first_line_id = ?, last_line_id = ?, line_lengths = ? WHERE id = ?"
                ).execute(arguments: [
                    first, db.lastInsertedRowID, LineLengths.encode(indexed.lines.map(\.text)), sourceID,
                ])
            }
        }
    }

    /// Gives the free pages back (libraries created with `auto_vacuum`), copies the write-ahead log into the
    /// database file and empties it (after a large index run).
    public func checkpoint() throws {
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA incremental_vacuum")
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    // MARK: Counting

    /// The number of indexed files, sources and lines.
    public func counts() throws -> (files: Int, sources: Int, lines: Int) {
        try reader.read { db in
            let files = try Int.fetchOne(db, sql: "SELECT count(*) FROM media_file") ?? 0
            let sources = try Int.fetchOne(db, sql: "SELECT count(*) FROM subtitle_source") ?? 0
            let lines = try Int.fetchOne(db, sql: "SELECT count(*) FROM dialogue_line") ?? 0
            return (files, sources, lines)
        }
    }
}

extension Statement {
    /// Binds `(source_id, start_ms, end_ms, style, text)`. The corresponding C functions are `sqlite3_bind_*`.
    func bindLine(sourceID: Int64, _ line: IndexedLine) throws {
        resetIfNeeded()
        var code = sqlite3_bind_int64(sqliteStatement, 1, sourceID)
        if code == SQLITE_OK { code = sqlite3_bind_int64(sqliteStatement, 2, Int64(line.startMs)) }
        if code == SQLITE_OK { code = sqlite3_bind_int64(sqliteStatement, 3, Int64(line.endMs)) }
        if code == SQLITE_OK { code = bindText(line.style, at: 4) }
        if code == SQLITE_OK { code = bindText(line.text, at: 5) }
        if code != SQLITE_OK { throw DatabaseError.connectionError(sqliteConnection, code: code, sql: sql) }
    }

    private func bindText(_ text: String, at index: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                guard let base = chars.baseAddress else {
                    return sqlite3_bind_text(sqliteStatement, index, "", 0, csqlite_static())
                }
                return sqlite3_bind_text(sqliteStatement, index, base, Int32(chars.count), csqlite_transient())
            }
        }
    }
}

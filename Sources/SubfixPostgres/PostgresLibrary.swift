import Foundation
import SubfixLibrary

/// subfix's library on a PostgreSQL server: the same files, sources and dialogue lines as the SQLite
/// `LibraryDatabase`, searched through a GIN-indexed `tsvector` of ``DialogueSegmenter`` tokens.
///
///     let library = try PostgresLibrary(url: try PostgresURL("postgresql://me@db/subfix"))
///     try library.prepareDialogueIndex(foldsChinese: false)
public final class PostgresLibrary {
    /// The connection (one per library value; use one library per thread).
    public let connection: PostgresConnection

    /// Connects and migrates the schema to the latest version.
    public init(url: PostgresURL) throws {
        connection = try PostgresConnection(url: url)
        try PostgresMigrations.migrate(connection)
    }

    /// Connects to a library created before and migrates it; nil when the database holds no subfix schema yet (a
    /// dry run is logged in a library that exists and never creates one, as on SQLite).
    public init?(existing url: PostgresURL) throws {
        connection = try PostgresConnection(url: url)
        let created = try connection.execute("SELECT to_regclass('subfix_migrations') IS NOT NULL").text(0, 0)
        guard created == "t" else { return nil }
        try PostgresMigrations.migrate(connection)
    }

    /// Whether the dialogue index folds Traditional Chinese to Simplified; nil before anything was indexed.
    public func foldsChinese() throws -> Bool? {
        let result = try connection.execute("SELECT value FROM library_setting WHERE name = 'fold_chinese'")
        return result.count == 0 ? nil : result.text(0, 0) == "1"
    }

    /// Records the folding choice the first time; throws `LibraryError.foldingMismatch` when the index was
    /// created with the other choice.
    public func prepareDialogueIndex(foldsChinese: Bool) throws {
        try connection.execute(
            "INSERT INTO library_setting (name, value) VALUES ('fold_chinese', $1) ON CONFLICT (name) DO NOTHING",
            [foldsChinese ? "1" : "0"])
        if let stored = try self.foldsChinese(), stored != foldsChinese {
            throw LibraryError.foldingMismatch(path: connection.url.description, indexFolds: stored)
        }
    }

    /// The segmenter the index was built with (not folding when nothing was indexed yet).
    func segmenter() throws -> DialogueSegmenter {
        DialogueSegmenter(foldsChinese: try foldsChinese() ?? false)
    }

    /// Every indexed file's size and modification time, by path.
    public func indexedFiles() throws -> [String: (size: Int64, mtime: Int64)] {
        let result = try connection.execute("SELECT path, size, mtime FROM media_file")
        var files: [String: (size: Int64, mtime: Int64)] = [:]
        for row in 0..<result.count {
            guard let path = result.text(row, 0) else { continue }
            files[path] = (try result.int(row, 1), try result.int(row, 2))
        }
        return files
    }

    /// The most lines inserted by one statement (6 parameters each, below PostgreSQL's 65,535).
    static let linesPerStatement = 1000

    /// Replaces what the library holds for `file.path` with `file`, in one transaction (idempotent: storing the
    /// same file twice leaves the same rows). Returns whether the library held the path before.
    @discardableResult
    public func store(_ file: IndexedFile) throws -> Bool {
        let segmenter = try segmenter()
        return try connection.transaction {
            let replaced =
                try connection.execute("DELETE FROM media_file WHERE path = $1", [file.path]).affectedRows > 0
            let fileId = try connection.execute(
                "INSERT INTO media_file (path, size, mtime, duration) VALUES ($1, $2, $3, $4) RETURNING id",
                [file.path, String(file.size), String(file.mtime), file.duration.map { String($0) }]
            ).int(0, 0)
            for indexed in file.sources {
                let source = indexed.source
                let sourceId = try connection.execute(
                    """
                    INSERT INTO subtitle_source (media_file_id, kind, codec, language, title, player_index,
                                                 subtitle_index, encoding)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id
                    """,
                    [
                        String(fileId), source.kind.rawValue, source.codec, source.language, source.title,
                        source.playerIndex.map(String.init), source.subtitleIndex.map(String.init), source.encoding,
                    ]
                ).int(0, 0)
                var start = 0
                while start < indexed.lines.count {
                    let chunk = indexed.lines[start..<min(start + Self.linesPerStatement, indexed.lines.count)]
                    var placeholders: [String] = []
                    var parameters: [String?] = []
                    for line in chunk {
                        let base = parameters.count
                        placeholders.append(
                            "($\(base + 1)::bigint, $\(base + 2)::integer, $\(base + 3)::integer, $\(base + 4), "
                                + "$\(base + 5), $\(base + 6)::tsvector)")
                        let text = Self.storable(line.text)
                        parameters += [
                            String(sourceId), String(line.startMs), String(line.endMs), Self.storable(line.style),
                            text, PostgresTextSearch.vector(of: text, segmenter: segmenter),
                        ]
                    }
                    try connection.execute(
                        "INSERT INTO dialogue_line (source_id, start_ms, end_ms, style, text, tokens) VALUES "
                            + placeholders.joined(separator: ", "), parameters)
                    start += Self.linesPerStatement
                }
            }
            return replaced
        }
    }

    /// PostgreSQL's text cannot hold NUL: it is dropped.
    static func storable(_ text: String) -> String {
        text.contains("\u{0}") ? text.replacingOccurrences(of: "\u{0}", with: "") : text
    }

    /// Removes the files at `paths` with their sources and lines; returns how many were known.
    @discardableResult
    public func remove(paths: [String]) throws -> Int {
        var removed = 0
        for path in paths {
            removed += try connection.execute("DELETE FROM media_file WHERE path = $1", [path]).affectedRows
        }
        return removed
    }

    /// Files, sources and lines stored.
    public func counts() throws -> (files: Int, sources: Int, lines: Int) {
        let result = try connection.execute(
            """
            SELECT (SELECT count(*) FROM media_file), (SELECT count(*) FROM subtitle_source),
                   (SELECT count(*) FROM dialogue_line)
            """)
        return (Int(try result.int(0, 0)), Int(try result.int(0, 1)), Int(try result.int(0, 2)))
    }

    /// Lines matching `text` (the query language of ``DialogueQuery``), best `ts_rank` first, with the same
    /// filters, limit, context and rank window (``DialogueSearchOptions/rankWindow``: without filters, only the
    /// most recently indexed matches are ranked) as the SQLite search. Throws `LibraryError.query` for a query with
    /// nothing to search and `LibraryError.noDialogueIndex` when nothing was indexed yet.
    public func search(_ text: String, options: DialogueSearchOptions) throws -> [DialogueHit] {
        var hits: [DialogueHit] = []
        try search(text, options: options) { hits.append($0) }
        return hits
    }

    /// The rows a search's cursor hands over at a time.
    static let searchBatch = 1000

    /// Hands `body` each line matching `text`, best `ts_rank` first, as ``search(_:options:)`` finds them, read
    /// through a cursor `searchBatch` rows at a time: memory holds one batch, however many match (`search
    /// --limit 0` over a million hits held them all, 1.1 GB).
    public func search(_ text: String, options: DialogueSearchOptions, each body: (DialogueHit) throws -> Void)
        throws
    {
        guard let folds = try foldsChinese() else {
            throw LibraryError.noDialogueIndex(path: connection.url.description)
        }
        let segmenter = DialogueSegmenter(foldsChinese: folds)
        let query: PostgresTextSearch.Query
        do {
            query = try PostgresTextSearch.Query(text, segmenter: segmenter)
        } catch {
            throw LibraryError.query(error)
        }
        var parameters: [String?] = [query.tsquery]
        let filters = Self.filterClauses(options, parameters: &parameters)
        let limit = max(0, min(options.limit, Int(Int32.max)))
        guard limit > 0 else { return }
        // The lines ranked: every match that passes the filters, or (without filters) the `rankWindow` most
        // recently indexed matches, as on SQLite; the planner then reads the primary key backwards and stops early
        // for a common character instead of ranking every line that holds it.
        let matches: String
        if filters.isEmpty && options.rankWindow > 0 {
            parameters.append(String(max(options.rankWindow, limit)))
            matches = """
                (SELECT * FROM dialogue_line WHERE tokens @@ $1::tsquery ORDER BY id DESC LIMIT $\(parameters.count))
                """
        } else {
            matches = "dialogue_line"
        }
        parameters.append(String(limit))
        try connection.transaction {
            try connection.execute(
                """
                DECLARE subfix_hits NO SCROLL CURSOR FOR
                SELECT l.id, l.source_id, l.start_ms, l.end_ms, l.style, l.text,
                       s.media_file_id, s.kind, s.codec, s.language, s.title, s.player_index, s.subtitle_index,
                       s.encoding, f.path, ts_rank(l.tokens, q.query) AS rank
                FROM (SELECT $1::tsquery AS query) q
                JOIN \(matches) l ON l.tokens @@ q.query
                JOIN subtitle_source s ON s.id = l.source_id
                JOIN media_file f ON f.id = s.media_file_id
                WHERE true\(filters)
                ORDER BY rank DESC, l.id
                LIMIT $\(parameters.count)
                """, parameters)
            while true {
                let result = try connection.execute("FETCH \(Self.searchBatch) FROM subfix_hits")
                for row in 0..<result.count {
                    try body(try hit(result, row: row, query: query, segmenter: segmenter, context: options.context))
                }
                if result.count < Self.searchBatch { break }
            }
            try connection.execute("CLOSE subfix_hits")
        }
    }

    /// The hit in row `row` of a search's result, with its context read.
    private func hit(
        _ result: PostgresResult, row: Int, query: PostgresTextSearch.Query, segmenter: DialogueSegmenter,
        context: Int
    ) throws -> DialogueHit {
        let line = DialogueLineRecord(
            id: try result.int(row, 0), sourceId: try result.int(row, 1), startMs: Int(try result.int(row, 2)),
            endMs: Int(try result.int(row, 3)), style: result.text(row, 4) ?? "", text: result.text(row, 5) ?? "")
        let source = SubtitleSourceRecord(
            id: line.sourceId, mediaFileId: try result.int(row, 6),
            kind: SubtitleSourceRecord.Kind(rawValue: result.text(row, 7) ?? "") ?? .sidecar,
            codec: result.text(row, 8) ?? "", language: result.text(row, 9), title: result.text(row, 10),
            playerIndex: result.text(row, 11).flatMap { Int($0) },
            subtitleIndex: result.text(row, 12).flatMap { Int($0) }, encoding: result.text(row, 13))
        var before: [DialogueLineRecord] = []
        var after: [DialogueLineRecord] = []
        if context > 0 { (before, after) = try neighbours(of: line, count: context) }
        return DialogueHit.make(
            line: line, path: result.text(row, 14) ?? "", source: source,
            segments: PostgresTextSearch.segments(of: line.text, query: query, segmenter: segmenter),
            snippet: PostgresTextSearch.snippet(of: line.text, query: query, segmenter: segmenter),
            rank: -(Double(result.text(row, 15) ?? "0") ?? 0), before: before, after: after)
    }

    /// The lines just before and after `line` in its source, by time.
    func neighbours(of line: DialogueLineRecord, count: Int) throws
        -> (before: [DialogueLineRecord], after: [DialogueLineRecord])
    {
        // Through the (source_id, start_ms, id) index: O(count). Lines are stored in time order, so this is the
        // id order SQLite reads (`LibraryDatabase.neighbours`).
        let parameters = [String(line.sourceId), String(line.startMs), String(line.id ?? 0), String(count)]
        let before = try lines(
            """
            SELECT id, source_id, start_ms, end_ms, style, text FROM dialogue_line
            WHERE source_id = $1 AND (start_ms, id) < ($2::integer, $3::bigint) ORDER BY start_ms DESC, id DESC LIMIT $4
            """, parameters)
        let after = try lines(
            """
            SELECT id, source_id, start_ms, end_ms, style, text FROM dialogue_line
            WHERE source_id = $1 AND (start_ms, id) > ($2::integer, $3::bigint) ORDER BY start_ms, id LIMIT $4
            """, parameters)
        return (before.reversed(), after)
    }

    private func lines(_ sql: String, _ parameters: [String?]) throws -> [DialogueLineRecord] {
        let result = try connection.execute(sql, parameters)
        return try (0..<result.count).map { row in
            DialogueLineRecord(
                id: try result.int(row, 0), sourceId: try result.int(row, 1), startMs: Int(try result.int(row, 2)),
                endMs: Int(try result.int(row, 3)), style: result.text(row, 4) ?? "", text: result.text(row, 5) ?? "")
        }
    }

    /// The SQL after the match condition for `--lang` and `--path` (` AND ...` over `s` and `f`), its values
    /// appended to `parameters`: the same filters as the SQLite library's.
    static func filterClauses(_ options: DialogueSearchOptions, parameters: inout [String?]) -> String {
        var filters = ""
        if let language = options.language {
            var clauses: [String] = []
            for code in PostgresTextSearch.languageCodes(language) {
                parameters.append(code)
                let exact = parameters.count
                parameters.append(Self.likeEscaped(code) + "-%")
                clauses.append("lower(s.language) = $\(exact) OR lower(s.language) LIKE $\(exact + 1)")
            }
            filters += " AND (" + clauses.joined(separator: " OR ") + ")"
        }
        if let pattern = options.pathPattern {
            parameters.append(Self.regex(glob: pattern))
            filters += " AND f.path ~ $\(parameters.count)"
        }
        return filters
    }

    /// `text` with LIKE's `%`, `_` and `\` escaped.
    static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }

    /// SQLite's GLOB (`*`, `?`, `[...]`, case-sensitive) as an anchored POSIX regular expression.
    static func regex(glob: String) -> String {
        var regex = "^"
        var inClass = false
        for character in glob {
            if inClass {
                if character == "]" { inClass = false }
                regex += character == "\\" ? "\\\\" : String(character)
                continue
            }
            switch character {
            case "*": regex += ".*"
            case "?": regex += "."
            case "[":
                inClass = true
                regex += "["
            default:
                if "\\.^$+(){}|".contains(character) { regex += "\\" }
                regex.append(character)
            }
        }
        if inClass { return "^" + NSRegularExpression.escapedPattern(for: glob) + "$" }
        return regex + "$"
    }
}

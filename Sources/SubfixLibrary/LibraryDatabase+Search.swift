import Foundation
import SubCore
import SubDB

/// Filters and limits of a dialogue search.
public struct DialogueSearchOptions: Sendable, Equatable {
    /// Only sources in this language (`zh` also matches `zh-Hans`; case does not matter).
    public var language: String?
    /// Only files whose path matches this GLOB pattern (SQLite's GLOB: `*`, `?` and `[...]` sets, case-sensitive).
    public var pathPattern: String?
    /// The most hits returned.
    public var limit: Int
    /// How many lines before and after each hit, from the same source.
    public var context: Int
    /// Without filters, at most this many matching lines (the most recently indexed; never fewer than `limit`)
    /// are ranked, so that a character found in a third of a million lines still answers in milliseconds;
    /// 0 ranks every match. Ranking reads candidates' lengths from their sources (`line_lengths`, one lookup per
    /// source).
    public var rankWindow: Int = 1000

    public init(
        language: String? = nil, pathPattern: String? = nil, limit: Int = 20, context: Int = 0, rankWindow: Int = 1000
    ) {
        self.language = language
        self.pathPattern = pathPattern
        self.limit = limit
        self.context = context
        self.rankWindow = rankWindow
    }
}

/// One line that matched a search.
public struct DialogueHit: Sendable, Equatable {
    /// A run of the line's text, matched or not.
    public struct Segment: Sendable, Equatable {
        public var text: String
        /// Whether the query matched it.
        public var isMatch: Bool

        public init(text: String, isMatch: Bool) {
            self.text = text
            self.isMatch = isMatch
        }
    }

    /// The matched line.
    public var line: DialogueLineRecord
    /// The file it comes from.
    public var path: String
    /// The sidecar or track it comes from.
    public var source: SubtitleSourceRecord
    /// The line's text cut into matched and unmatched runs (their concatenation is `line.text`).
    public var segments: [Segment]
    /// A short excerpt with matches in `[...]`.
    public var snippet: String
    /// The rank, lower is better: the line's length in characters on SQLite (shorter lines first), minus
    /// `ts_rank` on PostgreSQL.
    public var rank: Double
    /// Lines before, oldest first (with `context`).
    public var before: [DialogueLineRecord]
    /// Lines after (with `context`).
    public var after: [DialogueLineRecord]
}

/// A matching line's id and rank (a struct rather than a tuple: sorting tuples instantiates their metadata at
/// run time, a cost every command-line search paid).
struct RankedLine {
    var rowid: Int64
    var rank: Double

    /// The ranking order: lower rank first, then the older (lower) id.
    static func precedes(_ a: RankedLine, _ b: RankedLine) -> Bool {
        a.rank != b.rank ? a.rank < b.rank : a.rowid < b.rowid
    }
}

extension LibraryDatabase {
    /// Markers `highlight()` puts around matches; removed from texts that contain them.
    static let matchStart = "\u{2}"
    static let matchEnd = "\u{3}"

    /// Lines matching `query`, best bm25 rank first. Throws ``LibraryError/noDialogueIndex(path:)`` when nothing
    /// was indexed yet.
    public func search(_ query: DialogueQuery, options: DialogueSearchOptions) throws -> [DialogueHit] {
        var hits: [DialogueHit] = []
        try search(query, options: options) { hits.append($0) }
        return hits
    }

    /// Hands each hit to `body` as soon as it is read, best first, holding only the ranked ids (16 bytes a match)
    /// and one hit at a time: `--limit 0` over a million matches no longer builds them all first. Returns how many
    /// hits there were.
    @discardableResult
    public func search(
        _ query: DialogueQuery, options: DialogueSearchOptions, each body: (DialogueHit) throws -> Void
    ) throws -> Int {
        try reader.read { db in
            guard let folds = try Self.indexFolding(db) else { throw LibraryError.noDialogueIndex(path: path) }
            return try Self.search(query, options: options, foldsChinese: folds, in: db, each: body)
        }
    }

    /// Ranks the matches (``rankedCandidates(_:options:foldsChinese:in:)``), then reads the best `limit` lines with their
    /// source and file, and marks them in Swift (``DialogueHighlighter``), never through FTS5 again.
    static func search(_ query: DialogueQuery, options: DialogueSearchOptions, foldsChinese: Bool, in db: Database)
        throws -> [DialogueHit]
    {
        var hits: [DialogueHit] = []
        try search(query, options: options, foldsChinese: foldsChinese, in: db) { hits.append($0) }
        return hits
    }

    /// `search`, handing each hit to `body` as it is built; returns how many there were.
    @discardableResult
    static func search(
        _ query: DialogueQuery, options: DialogueSearchOptions, foldsChinese: Bool, in db: Database,
        each body: (DialogueHit) throws -> Void
    ) throws -> Int {
        let candidates = try rankedCandidates(query, options: options, foldsChinese: foldsChinese, in: db)
        guard !candidates.isEmpty else { return 0 }
        let statement = try db.cachedStatement(
            sql: """
                SELECT l.id, l.source_id, l.start_ms, l.end_ms, l.style, l.text,
                       s.media_file_id, s.kind, s.codec, s.language, s.title, s.player_index, s.subtitle_index,
                       s.encoding, f.path
                FROM dialogue_line l
                JOIN subtitle_source s ON s.id = l.source_id
                JOIN media_file f ON f.id = s.media_file_id
                WHERE l.id = ?
                """)
        let highlighter = DialogueHighlighter(
            phrases: query.phrases, segmenter: DialogueSegmenter(foldsChinese: foldsChinese))
        var count = 0
        for candidate in candidates {
            guard let row = try Row.fetchOne(statement, arguments: [candidate.rowid]) else { continue }
            let line = DialogueLineRecord(
                id: row["id"], sourceId: row["source_id"], startMs: row["start_ms"], endMs: row["end_ms"],
                style: row["style"], text: row["text"])
            let source = SubtitleSourceRecord(
                id: row["source_id"], mediaFileId: row["media_file_id"],
                kind: SubtitleSourceRecord.Kind(rawValue: row["kind"]) ?? .sidecar, codec: row["codec"],
                language: row["language"], title: row["title"], playerIndex: row["player_index"],
                subtitleIndex: row["subtitle_index"], encoding: row["encoding"])
            let marked = highlighter.highlight(line.text, open: matchStart, close: matchEnd)
            var hit = DialogueHit(
                line: line, path: row["path"], source: source, segments: segments(marked: marked, text: line.text),
                snippet: highlighter.snippet(line.text, open: "[", close: "]", ellipsis: "…", tokenCount: 24),
                rank: candidate.rank, before: [], after: [])
            if options.context > 0 {
                (hit.before, hit.after) = try neighbours(of: line, count: options.context, in: db)
            }
            try body(hit)
            count += 1
        }
        return count
    }

    /// The best `limit` matching line ids with their ranks, best first (ties: oldest line first).
    ///
    /// Ranked by the line's length in characters, shorter first: bm25's length normalization with each term
    /// counted once and no IDF orders lines the same, and the index keeps neither positions nor per-line token
    /// counts (``DialogueTokenizer``; counting repeats meant tokenizing every candidate again). Without filters, and
    /// with a `rankWindow`, only the `rankWindow` most recently indexed matches are ranked (FTS5 reads the doclists
    /// from their end and stops once it has them), their lengths read from their sources (``StoredLengths``). With
    /// `--lang` or `--path`, every match that passes the filters is ranked. When the query
    /// ``DialogueQuery/needsVerification``, candidates whose text does not hold it are skipped
    /// (``DialogueMatcher``) and do not count towards the window.
    static func rankedCandidates(
        _ query: DialogueQuery, options: DialogueSearchOptions, foldsChinese: Bool, in db: Database
    ) throws -> [RankedLine] {
        let limit = max(0, options.limit)
        guard limit > 0 else { return [] }
        let matcher =
            query.needsVerification
            ? DialogueMatcher(query: query, segmenter: DialogueSegmenter(foldsChinese: foldsChinese)) : nil
        let (filters, filterArguments) = filterClauses(options)
        var candidates: [RankedLine] = []
        if filters.isEmpty && options.rankWindow > 0 {
            let window = max(options.rankWindow, limit)
            if let matcher {
                // Checked candidates need their text, and how many are read is not known in advance: no LIMIT.
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT rowid, length(text), text FROM dialogue_fts WHERE dialogue_fts MATCH ?
                        ORDER BY rowid DESC
                        """,
                    arguments: [query.expression])
                while candidates.count < window, let row = try rows.next() {
                    if matcher.matches(row[2]) { candidates.append(RankedLine(rowid: row[0], rank: row[1])) }
                }
            } else {
                let ids = try Int64.fetchAll(
                    db.cachedStatement(
                        sql: "SELECT rowid FROM dialogue_fts WHERE dialogue_fts MATCH ? ORDER BY rowid DESC LIMIT ?"),
                    arguments: [query.expression, window])
                var lengths = try StoredLengths(db)
                for id in ids {
                    guard let characters = try lengths.length(ofLine: id) else { continue }
                    candidates.append(RankedLine(rowid: id, rank: Double(characters)))
                }
            }
            candidates.sort(by: RankedLine.precedes)
            return Array(candidates.prefix(limit))
        }
        var arguments: StatementArguments = [query.expression] + filterArguments
        if matcher == nil { arguments += [limit] }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT l.id, length(l.text) AS rank, l.text
                FROM dialogue_fts
                JOIN dialogue_line l ON l.id = dialogue_fts.rowid
                JOIN subtitle_source s ON s.id = l.source_id
                JOIN media_file f ON f.id = s.media_file_id
                WHERE dialogue_fts MATCH ?\(filters)
                ORDER BY rank, l.id\(matcher == nil ? " LIMIT ?" : "")
                """, arguments: arguments)
        while candidates.count < limit, let row = try rows.next() {
            if let matcher, !matcher.matches(row[2]) { continue }
            candidates.append(RankedLine(rowid: row[0], rank: row[1]))
        }
        return candidates
    }

    /// Lines' lengths for ranking, read from their sources' `line_lengths` (one row per source, where a window of
    /// candidates reading each line cost a command-line search of a common character about 7 ms of its 25: 650
    /// pages of `dialogue_line` read from the OS cache), else from the line itself.
    struct StoredLengths {
        let source: Statement
        let line: Statement
        /// The last source read: its first and last line ids and lengths.
        var current: (first: Int64, last: Int64, lengths: Data?)?

        init(_ db: Database) throws {
            source = try db.cachedStatement(
                sql: """
                    SELECT first_line_id, last_line_id, line_lengths FROM subtitle_source
                    WHERE first_line_id <= ? ORDER BY first_line_id DESC LIMIT 1
                    """)
            line = try db.cachedStatement(sql: "SELECT length(text) FROM dialogue_line WHERE id = ?")
        }

        /// The length of line `id` in characters; nil when there is no such line.
        mutating func length(ofLine id: Int64) throws -> Int? {
            if current.map({ !($0.first...$0.last).contains(id) }) ?? true {
                current = try Row.fetchOne(source, arguments: [id]).flatMap { row in
                    guard let first: Int64 = row[0], let last: Int64 = row[1], first <= last else { return nil }
                    return (first, last, row[2])
                }
            }
            if let current, let lengths = current.lengths, lengths.count == Int(current.last - current.first + 1),
                id <= current.last
            {
                let stored = lengths[lengths.startIndex + Int(id - current.first)]
                if stored < LineLengths.saturated { return Int(stored) }
            }
            return try Int.fetchOne(line, arguments: [id])
        }
    }

    /// The number of lines matching `query` in each file, by path: every match that passes the filters (no
    /// ranking window, no limit), for `search --count` and `--files-with-matches`.
    public func matchCounts(_ query: DialogueQuery, options: DialogueSearchOptions) throws
        -> [(path: String, count: Int)]
    {
        try reader.read { db in
            guard let folds = try Self.indexFolding(db) else { throw LibraryError.noDialogueIndex(path: path) }
            let (filters, arguments) = Self.filterClauses(options)
            guard query.needsVerification else {
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT f.path, count(*)
                        FROM dialogue_fts
                        JOIN dialogue_line l ON l.id = dialogue_fts.rowid
                        JOIN subtitle_source s ON s.id = l.source_id
                        JOIN media_file f ON f.id = s.media_file_id
                        WHERE dialogue_fts MATCH ?\(filters)
                        GROUP BY f.path ORDER BY f.path
                        """, arguments: [query.expression] + arguments)
                var counts: [(path: String, count: Int)] = []
                while let row = try rows.next() { counts.append((row[0], row[1])) }
                return counts
            }
            // Every candidate's text is checked; the lines come grouped by path.
            let matcher = DialogueMatcher(query: query, segmenter: DialogueSegmenter(foldsChinese: folds))
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT f.path, l.text
                    FROM dialogue_fts
                    JOIN dialogue_line l ON l.id = dialogue_fts.rowid
                    JOIN subtitle_source s ON s.id = l.source_id
                    JOIN media_file f ON f.id = s.media_file_id
                    WHERE dialogue_fts MATCH ?\(filters)
                    ORDER BY f.path
                    """, arguments: [query.expression] + arguments)
            var counts: [(path: String, count: Int)] = []
            while let row = try rows.next() {
                guard matcher.matches(row[1]) else { continue }
                let path: String = row[0]
                if let last = counts.last, last.path == path {
                    counts[counts.count - 1].count += 1
                } else {
                    counts.append((path, 1))
                }
            }
            return counts
        }
    }

    /// The SQL after `MATCH ?` for `--lang` and `--path` (` AND ...` over `s` and `f`), and its arguments.
    static func filterClauses(_ options: DialogueSearchOptions) -> (sql: String, arguments: StatementArguments) {
        var filters = ""
        var arguments: StatementArguments = []
        if let language = options.language {
            var clauses: [String] = []
            for code in languageAliases(language) {
                clauses.append("lower(s.language) = ? OR lower(s.language) LIKE ? ESCAPE '\\'")
                let escaped = code.replacingOccurrences(of: "\\", with: "\\\\")
                    .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
                arguments += [code, escaped + "-%"]
            }
            filters += " AND (" + clauses.joined(separator: " OR ") + ")"
        }
        if let pattern = options.pathPattern {
            filters += " AND f.path GLOB ?"
            arguments += [pattern]
        }
        return (filters, arguments)
    }

    /// The two- and three-letter codes of a language (`ja`, `jpn`), lowercased (`ISO639.codes(of:)`); other
    /// codes stand for themselves.
    static func languageAliases(_ language: String) -> [String] { ISO639.codes(of: language) }

    /// Cuts highlighted text into segments; a text that already holds the markers is returned unmarked.
    static func segments(marked: String, text: String) -> [DialogueHit.Segment] {
        if text.contains(matchStart) || text.contains(matchEnd) || marked.isEmpty {
            return [DialogueHit.Segment(text: text, isMatch: false)]
        }
        var segments: [DialogueHit.Segment] = []
        var current = ""
        var inMatch = false
        for scalar in marked.unicodeScalars {
            if scalar == "\u{2}" || scalar == "\u{3}" {
                if !current.isEmpty { segments.append(DialogueHit.Segment(text: current, isMatch: inMatch)) }
                current = ""
                inMatch = scalar == "\u{2}"
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        if !current.isEmpty { segments.append(DialogueHit.Segment(text: current, isMatch: inMatch)) }
        return segments
    }

    /// The lines shown just before and after `line` in its source, by time.
    static func neighbours(of line: DialogueLineRecord, count: Int, in db: Database) throws
        -> (before: [DialogueLineRecord], after: [DialogueLineRecord])
    {
        // A source's lines are stored in time order as one id range: the neighbours are the ids next to the
        // line's, read through the primary key (O(count), whatever the file's length).
        let before = try DialogueLineRecord.fetchAll(
            db,
            sql: """
                SELECT * FROM dialogue_line
                WHERE id < ? AND id >= (SELECT first_line_id FROM subtitle_source WHERE id = ?)
                ORDER BY id DESC LIMIT ?
                """, arguments: [line.id, line.sourceId, count])
        let after = try DialogueLineRecord.fetchAll(
            db,
            sql: """
                SELECT * FROM dialogue_line
                WHERE id > ? AND id <= (SELECT last_line_id FROM subtitle_source WHERE id = ?)
                ORDER BY id LIMIT ?
                """, arguments: [line.id, line.sourceId, count])
        return (before.reversed(), after)
    }
}

import SubfixLibrary

extension PostgresLibrary {
    /// The number of lines matching `text` in each file, by path in byte order (as SQLite sorts them): every
    /// match that passes the filters, with no rank window and no limit, for `search --count` and
    /// `--files-with-matches`. Throws as ``search(_:options:)`` does.
    public func matchCounts(_ text: String, options: DialogueSearchOptions) throws -> [(path: String, count: Int)] {
        guard let folds = try foldsChinese() else {
            throw LibraryError.noDialogueIndex(path: connection.url.description)
        }
        let query: PostgresTextSearch.Query
        do {
            query = try PostgresTextSearch.Query(text, segmenter: DialogueSegmenter(foldsChinese: folds))
        } catch {
            throw LibraryError.query(error)
        }
        var parameters: [String?] = [query.tsquery]
        let filters = Self.filterClauses(options, parameters: &parameters)
        let result = try connection.execute(
            """
            SELECT f.path, count(*)
            FROM dialogue_line l
            JOIN subtitle_source s ON s.id = l.source_id
            JOIN media_file f ON f.id = s.media_file_id
            WHERE l.tokens @@ $1::tsquery\(filters)
            GROUP BY f.path ORDER BY f.path COLLATE "C"
            """, parameters)
        return try (0..<result.count).map { row in
            (result.text(row, 0) ?? "", Int(try result.int(row, 1)))
        }
    }
}

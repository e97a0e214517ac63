internal import CSQLite
import Foundation
import SubDB

/// `subfix_rank(dialogue_fts)`: bm25 (k1 = 1.2, b = 0.75) with each line's terms counted once and without IDF,
/// negated like FTS5's `bm25()` so that lower is better: among the matches, shorter lines rank higher.
///
/// The index keeps no positions (``DialogueTokenizer``): FTS5 can count a term's occurrences in a line only by
/// tokenizing the line again, which `bm25()` does for every candidate (a character in 10% of a million lines:
/// 12 ms instead of 4). Dialogue lines are short and hold a query term about once, so the count is taken as one.
/// The IDF factor is the same for every line that holds all the terms, and FTS5 computes it by running each
/// term's query once more. What is left is bm25's length normalization, read from FTS5's stored line lengths.
enum DialogueRank {
    /// The SQL name of the function.
    static let name = "subfix_rank"

    /// Registers `subfix_rank` on `db`. The corresponding C function is `fts5_api.xCreateFunction`.
    static func register(on db: Database) throws {
        let api = try db.fts5API()
        guard let xCreateFunction = api.pointee.xCreateFunction else {
            throw DatabaseError(message: "FTS5 cannot register auxiliary functions")
        }
        let code = xCreateFunction(
            api, name, nil,
            { api, fts, context, _, _ in
                guard let api, let context else { return }
                var length: Int32 = 0
                var rows: Int64 = 0
                var total: Int64 = 0
                guard let xColumnSize = api.pointee.xColumnSize, let xRowCount = api.pointee.xRowCount,
                    let xColumnTotalSize = api.pointee.xColumnTotalSize,
                    xColumnSize(fts, -1, &length) == SQLITE_OK, xRowCount(fts, &rows) == SQLITE_OK,
                    xColumnTotalSize(fts, -1, &total) == SQLITE_OK
                else {
                    sqlite3_result_error(context, "subfix_rank: FTS5 did not answer", -1)
                    return
                }
                let k1 = 1.2
                let b = 0.75
                let average = rows > 0 ? Double(total) / Double(rows) : 1
                let score = (k1 + 1) / (1 + k1 * (1 - b + b * Double(length) / max(average, 1)))
                sqlite3_result_double(context, -score)
            }, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot register \(name)")
        }
    }
}

internal import CSQLite
import Foundation
import SubDB

/// `subfix_rank(dialogue_fts)`: FTS5's bm25 for queries of a single phrase (``DialogueQuery/isSinglePhrase``),
/// without the phrase's IDF factor.
///
/// bm25 multiplies each phrase's term-frequency part by its IDF; with one phrase that factor is the same for
/// every row, so the order is bm25's, but FTS5 computes the IDF by running the whole phrase query once more
/// (for a character found in a third of a million lines, 15 ms of the 16). The value is the rest of bm25's
/// formula (k1 = 1.2, b = 0.75), negated like bm25 so that lower is better. Queries of several phrases use
/// FTS5's own `bm25()`, whose IDFs do change the order.
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
                var instances: Int32 = 0
                guard let xColumnSize = api.pointee.xColumnSize, let xRowCount = api.pointee.xRowCount,
                    let xColumnTotalSize = api.pointee.xColumnTotalSize, let xInstCount = api.pointee.xInstCount,
                    xColumnSize(fts, -1, &length) == SQLITE_OK, xRowCount(fts, &rows) == SQLITE_OK,
                    xColumnTotalSize(fts, -1, &total) == SQLITE_OK, xInstCount(fts, &instances) == SQLITE_OK
                else {
                    sqlite3_result_error(context, "subfix_rank: FTS5 did not answer", -1)
                    return
                }
                let k1 = 1.2
                let b = 0.75
                let average = rows > 0 ? Double(total) / Double(rows) : 1
                let frequency = Double(instances)
                let score = frequency * (k1 + 1) / (frequency + k1 * (1 - b + b * Double(length) / max(average, 1)))
                sqlite3_result_double(context, -score)
            }, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot register \(name)")
        }
    }
}

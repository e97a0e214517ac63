import Foundation
import SubfixLibrary
import SubfixPostgres

/// `subfix search QUERY --db postgresql://…`: the same options and output as the SQLite search, ranked by
/// `ts_rank`.
enum PostgresSearchCommand {
    static func run(_ arguments: ParsedArguments, io: CommandIO, url: PostgresURL) throws -> ExitStatus {
        let options = try SearchCommand.searchOptions(arguments, unlimited: Int(Int32.max))
        let context = options.context
        let text = arguments.positionals.first ?? ""
        do {
            _ = try DialogueQuery(text)
        } catch {
            io.error(LibraryError.query(error))
            return SearchCommand.error
        }
        let colour = try SearchCommand.colours(arguments, io: io)
        guard let library = PostgresBackend.open(url, io: io) else { return SearchCommand.error }
        if arguments.has(.count) || arguments.has(.filesWithMatches) {
            do {
                let counts = try library.matchCounts(text, options: options)
                return SearchCommand.printCounts(counts, arguments: arguments, io: io)
            } catch {
                io.error(PostgresBackend.message(error))
                return SearchCommand.error
            }
        }
        let hits: [DialogueHit]
        do {
            hits = try library.search(text, options: options)
        } catch {
            io.error(PostgresBackend.message(error))
            return SearchCommand.error
        }
        let json = arguments.has(.json)
        let directory = FileManager.default.currentDirectoryPath
        for (number, hit) in hits.enumerated() {
            if json {
                io.printJSON(SearchCommand.json(hit, from: directory))
            } else {
                if context > 0 && number > 0 { io.print("--") }
                for line in hit.before { io.print(SearchCommand.contextLine(line)) }
                let marked = SearchCommand.marked(hit.segments, colour: colour, brackets: arguments.has(.brackets))
                io.print(SearchCommand.header(hit, from: directory) + "  " + marked)
                for line in hit.after { io.print(SearchCommand.contextLine(line)) }
            }
        }
        return hits.isEmpty ? SearchCommand.nothingMatched : SearchCommand.matched
    }
}

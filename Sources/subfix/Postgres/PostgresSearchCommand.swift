import Foundation
import SubfixLibrary
import SubfixPostgres

/// `subfix search QUERY --db postgresql://…`: the same options and output as the SQLite search, ranked by
/// `ts_rank`.
enum PostgresSearchCommand {
    static func run(_ arguments: ParsedArguments, io: CommandIO, url: PostgresURL) throws -> ExitStatus {
        let options = try SearchCommand.searchOptions(arguments, unlimited: Int(Int32.max))
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
        var printer = SearchCommand.HitPrinter(
            io: io, json: arguments.has(.json), context: options.context, colour: colour,
            brackets: arguments.has(.brackets), directory: FileManager.default.currentDirectoryPath)
        do {
            // Each hit printed as the cursor hands it over (`--limit 0` over a million hits).
            try library.search(text, options: options) { printer.print($0) }
        } catch {
            printer.flush()
            io.error(PostgresBackend.message(error))
            return SearchCommand.error
        }
        printer.flush()
        return printer.count == 0 ? SearchCommand.nothingMatched : SearchCommand.matched
    }
}

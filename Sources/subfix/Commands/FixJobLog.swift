/// Records a `subfix fix` run in the library database's job log.
///
/// Wired to SubDB's job log at merge: SubDB (job and file records, `DatabaseMigrator`) is being written in
/// parallel, so for now this does nothing, and `fix` has no `--db` option yet. At merge it opens `databasePath`
/// (default `$XDG_DATA_HOME/subfix/library.sqlite`), writes one job record and one record per file, and turns
/// a database that cannot be opened into `io.warning(...)`, never a failure of the fix.
func recordJob(_ result: FixRunResult, io: CommandIO, databasePath: String?) {
    _ = (result, io, databasePath)
}

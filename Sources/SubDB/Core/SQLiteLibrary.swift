internal import CSQLite

/// Facts about the SQLite library SubDB is linked against.
///
///     print(SQLiteLibrary.version)   // "3.40.1"
public enum SQLiteLibrary {
    /// The version string of the linked SQLite. The corresponding C function is `sqlite3_libversion`.
    public static var version: String { String(cString: sqlite3_libversion()) }

    /// The version as a number, such as 3040001. The corresponding C function is `sqlite3_libversion_number`.
    public static var versionNumber: Int { Int(sqlite3_libversion_number()) }
}

extension Database {
    /// The version of the linked SQLite as a number, such as 3040001, as GRDB names it. The corresponding C
    /// function is `sqlite3_libversion_number`.
    public static var sqliteLibVersionNumber: CInt { sqlite3_libversion_number() }
}

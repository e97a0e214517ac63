import SubDB

// Placeholder until the SubDB benchmark lands (issue 3); prints the linked SQLite so the target builds.
print("subdb-bench: SQLite \(SQLiteLibrary.version)")

import Foundation

extension Database {
    /// The kind of lock a transaction takes when it begins.
    public enum TransactionKind: String, Sendable {
        /// Locks on first read or write (`BEGIN DEFERRED`).
        case deferred = "DEFERRED"
        /// Takes the write lock at once (`BEGIN IMMEDIATE`).
        case immediate = "IMMEDIATE"
        /// Takes an exclusive lock at once (`BEGIN EXCLUSIVE`).
        case exclusive = "EXCLUSIVE"
    }

    /// How a transaction or savepoint block ends.
    public enum TransactionCompletion: Sendable {
        /// Commit the changes.
        case commit
        /// Roll the changes back.
        case rollback
    }

    /// Begins a transaction. The default kind is deferred.
    public func beginTransaction(_ kind: TransactionKind? = nil) throws {
        currentTransactionDate = nil
        switch kind ?? .deferred {
        case .deferred: try cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
        case .immediate: try cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
        case .exclusive: try cachedStatement(sql: "BEGIN EXCLUSIVE TRANSACTION").execute()
        }
    }

    /// Commits the current transaction.
    public func commit() throws {
        defer { if !isInsideTransaction { currentTransactionDate = nil } }
        try cachedStatement(sql: "COMMIT TRANSACTION").execute()
    }

    /// Rolls back the current transaction, if any.
    public func rollback() throws {
        clearSchemaCache()
        currentTransactionDate = nil
        guard isInsideTransaction else { return }
        try cachedStatement(sql: "ROLLBACK TRANSACTION").execute()
    }

    /// Runs `operations` in a transaction that commits or rolls back as the block says; a thrown error rolls
    /// back and is rethrown.
    ///
    ///     try db.inTransaction {
    ///         try db.execute(sql: "INSERT ...")
    ///         return .commit
    ///     }
    public func inTransaction(_ kind: TransactionKind? = nil, _ operations: () throws -> TransactionCompletion)
        throws
    {
        try beginTransaction(kind)
        let completion: TransactionCompletion
        do {
            completion = try operations()
        } catch {
            try? rollback()
            throw error
        }
        switch completion {
        case .commit:
            do {
                try commit()
            } catch {
                try? rollback()
                throw error
            }
        case .rollback:
            try rollback()
        }
    }

    /// Runs `operations` in a savepoint (a nested transaction); outside a transaction it is a transaction
    /// (`BEGIN DEFERRED`), as in GRDB, so that `.rollback` there is a rollback for transaction observers.
    ///
    ///     try db.inSavepoint {
    ///         try db.execute(sql: "INSERT ...")
    ///         return .rollback   // undoes only this block
    ///     }
    public func inSavepoint(_ operations: () throws -> TransactionCompletion) throws {
        guard isInsideTransaction else { return try inTransaction(nil, operations) }
        try cachedStatement(sql: "SAVEPOINT grdb").execute()
        let completion: TransactionCompletion
        do {
            completion = try operations()
        } catch {
            rollbackSavepoint()
            throw error
        }
        switch completion {
        case .commit:
            do {
                try cachedStatement(sql: "RELEASE SAVEPOINT grdb").execute()
            } catch {
                rollbackSavepoint()
                throw error
            }
        case .rollback:
            rollbackSavepoint()
        }
    }

    private func rollbackSavepoint() {
        clearSchemaCache()
        guard isInsideTransaction else { return }
        try? cachedStatement(sql: "ROLLBACK TRANSACTION TO SAVEPOINT grdb").execute()
        try? cachedStatement(sql: "RELEASE SAVEPOINT grdb").execute()
    }

    /// Runs `body` in an IMMEDIATE transaction (the transaction of `write { }`): commits on return, rolls back
    /// on error.
    func inWriteTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try beginTransaction(.immediate)
        let result: T
        do {
            result = try body(self)
        } catch {
            try? rollback()
            throw error
        }
        do {
            if isInsideTransaction { try commit() }
        } catch {
            try? rollback()
            throw error
        }
        return result
    }

    /// Runs `body` in a DEFERRED transaction that is always ended (the transaction of a pool's `read { }`).
    func inReadTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try beginTransaction(.deferred)
        defer { endReadTransaction() }
        return try body(self)
    }

    /// Ends a read transaction, whatever happens: a COMMIT that fails (an interrupt from another thread) is
    /// followed by a ROLLBACK, so that the connection never stays in a transaction.
    private func endReadTransaction() {
        for _ in 0..<3 where isInsideTransaction {
            if (try? commit()) != nil { return }
            try? rollback()
        }
    }

    /// Runs `body` read-only and isolated, as GRDB's `read { }` of a queue: in a DEFERRED transaction, or in a
    /// savepoint when a transaction is already open. Every statement of `body` sees one committed state: in WAL
    /// mode the first read takes a snapshot; in rollback-journal mode the SHARED lock stays until the end, so
    /// other connections cannot commit meanwhile (they get `SQLITE_BUSY`).
    ///
    /// Read-only mode begins before the transaction, so that ending the transaction is not seen as a write.
    func isolatedRead<T>(_ body: (Database) throws -> T) throws -> T {
        try readOnly {
            guard isInsideTransaction else { return try inReadTransaction(body) }
            var result: T?
            try inSavepoint {
                result = try body(self)
                return .commit
            }
            guard let result else { throw DatabaseError.misuse("the savepoint of a read ended without a result") }
            return result
        }
    }
}

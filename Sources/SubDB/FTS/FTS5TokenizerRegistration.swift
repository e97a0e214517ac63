package import CSQLite
import Foundation

/// Makes the tokenizers of one registered Swift type. Owned by FTS5 (retained when registered, released by
/// `xDestroy` when the connection closes); it does not retain the connection, which owns FTS5.
private final class TokenizerFactory {
    weak var database: Database?
    let make: (Database, [String]) throws -> any FTS5Tokenizer

    init(database: Database, make: @escaping (Database, [String]) throws -> any FTS5Tokenizer) {
        self.database = database
        self.make = make
    }
}

/// One tokenizer instance handed to FTS5 as its `Fts5Tokenizer *`; released by `xDelete`.
private final class TokenizerInstance {
    let tokenizer: any FTS5Tokenizer
    init(_ tokenizer: any FTS5Tokenizer) { self.tokenizer = tokenizer }
}

/// A tokenizer made by FTS5 (SQLite's own, or any registered one) through `xFindTokenizer` and `xCreate`.
/// Owns its `Fts5Tokenizer *` and deletes it with `xDelete` in `deinit`. Its functions are static code, so it
/// stays valid on its own; only make it tokenize while the connection that made it is open.
final class FTS5LoadedTokenizer: FTS5Tokenizer {
    private let handle: OpaquePointer
    private let xTokenize:
        @convention(c) (
            OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32,
            (@convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, Int32, Int32) -> Int32)?
        ) -> Int32
    private let xDelete: @convention(c) (OpaquePointer?) -> Void

    fileprivate init(module: fts5_tokenizer, context: UnsafeMutableRawPointer?, descriptor: FTS5TokenizerDescriptor)
        throws
    {
        guard let xCreate = module.xCreate, let xTokenize = module.xTokenize, let xDelete = module.xDelete else {
            throw DatabaseError(message: "tokenizer \(descriptor.name) is incomplete")
        }
        let arguments = descriptor.arguments.map { strdup($0) }
        defer { arguments.forEach { free($0) } }
        var argv: [UnsafePointer<CChar>?] = arguments.map { $0.map { UnsafePointer($0) } }
        var handle: OpaquePointer?
        let code = argv.withUnsafeMutableBufferPointer { buffer in
            xCreate(context, buffer.baseAddress, Int32(buffer.count), &handle)
        }
        guard code == SQLITE_OK, let handle else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: "cannot create tokenizer \(descriptor.components.joined(separator: " "))")
        }
        self.handle = handle
        self.xTokenize = xTokenize
        self.xDelete = xDelete
    }

    deinit { xDelete(handle) }

    func tokenize(
        context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization, pText: UnsafePointer<CChar>?,
        nText: Int32, tokenCallback: FTS5TokenCallback
    ) -> Int32 {
        xTokenize(handle, context, tokenization.rawValue, pText, nText, tokenCallback)
    }
}

/// The pointer type of `SELECT fts5(?1)`, as a C string that lives as long as the process: SQLite keeps the
/// pointer given to `sqlite3_bind_pointer` (it does not copy the string) and compares it when FTS5 reads the
/// value, so a temporary Swift-to-C string would be gone by then and FTS5 would see no `fts5_api_ptr`.
nonisolated(unsafe) private let fts5APIPointerType: UnsafePointer<CChar> = {
    let bytes = "fts5_api_ptr".utf8CString
    let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
    pointer.initialize(repeating: 0, count: bytes.count)
    for (index, byte) in bytes.enumerated() { pointer[index] = byte }
    return UnsafePointer(pointer)
}()

extension Database {
    /// The connection's `fts5_api`, fetched with `SELECT fts5(?1)` and `sqlite3_bind_pointer`. Throws when
    /// SQLite was built without FTS5.
    package func fts5API() throws -> UnsafeMutablePointer<fts5_api> {
        var statement: OpaquePointer?
        var code = sqlite3_prepare_v2(sqliteConnection, "SELECT fts5(?1)", -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw DatabaseError.connectionError(sqliteConnection, code: code, sql: "SELECT fts5(?1)")
        }
        defer { sqlite3_finalize(statement) }
        var api: UnsafeMutablePointer<fts5_api>?
        code = withUnsafeMutablePointer(to: &api) { pointer in
            sqlite3_bind_pointer(statement, 1, UnsafeMutableRawPointer(pointer), fts5APIPointerType, nil)
            return sqlite3_step(statement)
        }
        guard code == SQLITE_ROW || code == SQLITE_DONE, let api else {
            throw DatabaseError(message: "FTS5 is not available in this SQLite library", sql: "SELECT fts5(?1)")
        }
        return api
    }

    /// Registers a Swift tokenizer on this connection under `Tokenizer.name`, for as long as the connection
    /// is open. Use `Configuration.prepareDatabase` to register it on every connection of a pool.
    ///
    ///     db.add(tokenizer: DialogueTokenizer.self)
    ///     try db.execute(sql: "CREATE VIRTUAL TABLE t USING fts5(text, tokenize='subfix')")
    ///
    /// It does not throw, as in GRDB: when SQLite has no FTS5, the tokenizer stays unknown and the statements that
    /// use it throw SQLite's own error (`no such tokenizer`). The corresponding C function is
    /// `fts5_api.xCreateTokenizer`.
    public func add<Tokenizer: FTS5CustomTokenizer>(tokenizer: Tokenizer.Type) {
        guard let api = try? fts5API(), let xCreateTokenizer = api.pointee.xCreateTokenizer else { return }
        let factory = TokenizerFactory(database: self) { db, arguments in try Tokenizer(db: db, arguments: arguments) }
        let context = Unmanaged.passRetained(factory).toOpaque()
        var module = fts5_tokenizer(
            xCreate: { context, argv, argc, out in
                guard let context, let out else { return SQLITE_MISUSE }
                let factory = Unmanaged<TokenizerFactory>.fromOpaque(context).takeUnretainedValue()
                guard let database = factory.database else { return SQLITE_MISUSE }
                var arguments: [String] = []
                if let argv, argc > 0 {
                    for index in 0..<Int(argc) {
                        if let argument = argv[index] { arguments.append(String(cString: argument)) }
                    }
                }
                do {
                    let instance = TokenizerInstance(try factory.make(database, arguments))
                    out.pointee = OpaquePointer(Unmanaged.passRetained(instance).toOpaque())
                    return SQLITE_OK
                } catch {
                    return SQLITE_ERROR
                }
            },
            xDelete: { handle in
                guard let handle else { return }
                Unmanaged<TokenizerInstance>.fromOpaque(UnsafeRawPointer(handle)).release()
            },
            xTokenize: { handle, context, flags, pText, nText, xToken in
                guard let handle, let xToken else { return SQLITE_MISUSE }
                let instance = Unmanaged<TokenizerInstance>.fromOpaque(UnsafeRawPointer(handle))
                    .takeUnretainedValue()
                return instance.tokenizer.tokenize(
                    context: context, tokenization: FTS5Tokenization(rawValue: flags), pText: pText, nText: nText,
                    tokenCallback: xToken)
            })
        let code = xCreateTokenizer(api, Tokenizer.name, context, &module) { context in
            if let context { Unmanaged<TokenizerFactory>.fromOpaque(context).release() }
        }
        if code != SQLITE_OK {
            // FTS5 keeps nothing when it fails: the factory is ours to release, and the tokenizer stays unknown.
            Unmanaged<TokenizerFactory>.fromOpaque(context).release()
        }
    }

    /// A tokenizer known to this connection (SQLite's `unicode61`, `ascii`, `porter`, `trigram`, or one added
    /// with ``add(tokenizer:)``), for wrapper tokenizers and tests. Throws for an unknown name or bad arguments.
    ///
    ///     let unicode61 = try db.makeTokenizer(.unicode61())
    ///
    /// The corresponding C functions are `fts5_api.xFindTokenizer` and `fts5_tokenizer.xCreate`.
    public func makeTokenizer(_ descriptor: FTS5TokenizerDescriptor) throws -> any FTS5Tokenizer {
        let api = try fts5API()
        guard let xFindTokenizer = api.pointee.xFindTokenizer else {
            throw DatabaseError(message: "FTS5 cannot find tokenizers")
        }
        var context: UnsafeMutableRawPointer?
        var module = fts5_tokenizer()
        let code = xFindTokenizer(api, descriptor.name, &context, &module)
        guard code == SQLITE_OK else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: "no such tokenizer: \(descriptor.name)")
        }
        return try FTS5LoadedTokenizer(module: module, context: context, descriptor: descriptor)
    }
}

extension FTS5TokenizerDescriptor {
    /// The value of the `tokenize` option as an SQL string literal, for tables created with raw SQL:
    /// `'porter unicode61'`. FTS5 reads each component as a bareword or a `'quoted'` literal, and the whole is
    /// single-quoted again.
    ///
    ///     try db.execute(sql: "CREATE VIRTUAL TABLE t USING fts5(text, tokenize=\(descriptor.sqlOptionValue))")
    public var sqlOptionValue: String {
        let fts5 = components.map { component -> String in
            let isBareword =
                !component.isEmpty
                && component.utf8.allSatisfy { byte in
                    byte >= 0x80 || byte == 0x5F || (byte >= 0x30 && byte <= 0x39)
                        || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                }
            return isBareword ? component : "'" + component.replacingOccurrences(of: "'", with: "''") + "'"
        }.joined(separator: " ")
        return "'" + fts5.replacingOccurrences(of: "'", with: "''") + "'"
    }
}

internal import CSQLite
import Foundation

/// A string comparison written in Swift, registered on a connection with ``Database/add(collation:)`` and used
/// in SQL (`ORDER BY name COLLATE localizedCompare`) or with `collating(_:)`, as in GRDB.
///
///     let byLength = DatabaseCollation("byLength") { lhs, rhs in
///         lhs.count < rhs.count ? .orderedAscending : lhs.count == rhs.count ? .orderedSame : .orderedDescending
///     }
///     db.add(collation: byLength)
///     let names = try Player.order(Column("name").collating(byLength)).fetchAll(db)
///
/// The corresponding C function is `sqlite3_create_collation_v2`.
public final class DatabaseCollation: Sendable {
    /// The name of the collation in SQL.
    public let name: String
    let compare: @Sendable (String, String) -> ComparisonResult

    /// A collation named `name` that orders strings with `function`.
    public init(_ name: String, function: @escaping @Sendable (String, String) -> ComparisonResult) {
        self.name = name
        self.compare = function
    }

    /// Unicode code point order (`String` comparison), as `unicodeCompare` in GRDB.
    public static let unicodeCompare = DatabaseCollation("unicodeCompare") { lhs, rhs in
        lhs < rhs ? .orderedAscending : lhs == rhs ? .orderedSame : .orderedDescending
    }

    /// `caseInsensitiveCompare(_:)`.
    public static let caseInsensitiveCompare = DatabaseCollation("swiftCaseInsensitiveCompare") { lhs, rhs in
        lhs.caseInsensitiveCompare(rhs)
    }

    /// `localizedCaseInsensitiveCompare(_:)`.
    public static let localizedCaseInsensitiveCompare = DatabaseCollation("swiftLocalizedCaseInsensitiveCompare") {
        lhs, rhs in lhs.localizedCaseInsensitiveCompare(rhs)
    }

    /// `localizedCompare(_:)`.
    public static let localizedCompare = DatabaseCollation("swiftLocalizedCompare") { lhs, rhs in
        lhs.localizedCompare(rhs)
    }

    /// `localizedStandardCompare(_:)` (Finder-like: numbers compare by value).
    public static let localizedStandardCompare = DatabaseCollation("swiftLocalizedStandardCompare") { lhs, rhs in
        lhs.localizedStandardCompare(rhs)
    }
}

extension Database {
    /// Registers (or replaces) a collation on this connection. Use `Configuration.prepareDatabase` to register
    /// it on every connection of a pool.
    public func add(collation: DatabaseCollation) {
        let context = Unmanaged.passRetained(collation).toOpaque()
        let code = sqlite3_create_collation_v2(
            sqliteConnection, collation.name, SQLITE_UTF8, context,
            { context, length1, bytes1, length2, bytes2 in
                guard let context else { return 0 }
                let collation = Unmanaged<DatabaseCollation>.fromOpaque(context).takeUnretainedValue()
                let lhs = collationString(bytes1, length1)
                let rhs = collationString(bytes2, length2)
                return Int32(collation.compare(lhs, rhs).rawValue)
            },
            { context in
                if let context { Unmanaged<DatabaseCollation>.fromOpaque(context).release() }
            })
        if code != SQLITE_OK {
            // SQLite did not keep the context: ours to release. The collation stays unknown to SQL.
            Unmanaged<DatabaseCollation>.fromOpaque(context).release()
        }
    }

    /// Unregisters a collation.
    public func remove(collation: DatabaseCollation) {
        sqlite3_create_collation_v2(sqliteConnection, collation.name, SQLITE_UTF8, nil, nil, nil)
    }
}

/// A UTF-8 string handed to a collation by SQLite (not NUL-terminated).
private func collationString(_ bytes: UnsafeRawPointer?, _ length: Int32) -> String {
    guard let bytes, length > 0 else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(length)), as: UTF8.self)
}

extension SQLSpecificExpressible {
    /// `self COLLATE name` for a Swift collation: `Column("name").collating(.localizedCompare)`.
    public func collating(_ collation: DatabaseCollation) -> SQLExpression {
        SQLExpression(.collated(sqlExpression, collation: collation.name))
    }
}

import Foundation

/// Where ``Database/transactionDate`` comes from, as in GRDB: ``DefaultTransactionClock`` (the system time) or a
/// ``CustomTransactionClock`` (tests that need fixed dates). Set it with ``Configuration/transactionClock``.
///
///     var config = Configuration()
///     config.transactionClock = .custom { _ in Date(timeIntervalSince1970: 0) }
public protocol TransactionClock: Sendable {
    /// The date of the transaction that starts (or of the moment, outside of a transaction).
    func now(_ db: Database) throws -> Date
}

extension TransactionClock where Self == DefaultTransactionClock {
    /// The system clock.
    public static var `default`: Self { DefaultTransactionClock() }
}

extension TransactionClock where Self == CustomTransactionClock {
    /// A clock that asks `now`.
    public static func custom(_ now: @escaping @Sendable (Database) throws -> Date) -> Self {
        CustomTransactionClock(now)
    }
}

/// The system clock: `Date()`.
public struct DefaultTransactionClock: TransactionClock {
    /// The system clock.
    public init() {}

    /// `Date()`.
    public func now(_ db: Database) throws -> Date { Date() }
}

/// A clock that calls a closure.
public struct CustomTransactionClock: TransactionClock {
    private let nowClosure: @Sendable (Database) throws -> Date

    /// A clock that asks `now`.
    public init(_ now: @escaping @Sendable (Database) throws -> Date) { nowClosure = now }

    /// The closure's date.
    public func now(_ db: Database) throws -> Date { try nowClosure(db) }
}

extension Database {
    /// The date of the current transaction: the same for every access within one transaction (so that all the
    /// rows it stamps agree), from the configuration's ``Configuration/transactionClock``; outside of a
    /// transaction, the clock's current date.
    ///
    ///     try dbQueue.write { db in
    ///         player.creationDate = try db.transactionDate
    ///     }
    public var transactionDate: Date {
        get throws {
            guard isInsideTransaction else {
                currentTransactionDate = nil
                return try configuration.transactionClock.now(self)
            }
            if let currentTransactionDate { return currentTransactionDate }
            let date = try configuration.transactionClock.now(self)
            currentTransactionDate = date
            return date
        }
    }
}

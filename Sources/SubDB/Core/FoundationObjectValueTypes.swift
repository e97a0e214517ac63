import Foundation

// Foundation's reference types store and decode like their Swift value types, as in GRDB: NSNull is NULL,
// NSString is TEXT, NSData is a BLOB, NSDate, NSURL and NSUUID follow Date, URL and UUID. (NSNumber and
// NSDecimalNumber are in FoundationValueTypes.swift.)

extension NSNull: DatabaseValueConvertible {
    /// NULL.
    public var databaseValue: DatabaseValue { .null }

    /// An `NSNull` for NULL; nil for any other value.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        dbValue.isNull ? NSNull() as? Self : nil
    }
}

extension NSString: DatabaseValueConvertible {
    /// TEXT.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(String(describing: self))) }

    /// The text, as `String` decodes it; nil otherwise.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        guard let string = String.fromDatabaseValue(dbValue) else { return nil }
        return NSString(string: string) as? Self
    }
}

extension NSData: DatabaseValueConvertible {
    /// A BLOB.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .blob(Data(referencing: self))) }

    /// The bytes, as `Data` decodes them; nil otherwise.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        guard let data = Data.fromDatabaseValue(dbValue) else { return nil }
        return NSData(data: data) as? Self
    }
}

extension NSDate: DatabaseValueConvertible {
    /// The date as `Date` stores it.
    public var databaseValue: DatabaseValue { (self as Date).databaseValue }

    /// The date, as `Date` decodes it; nil otherwise.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        guard let date = Date.fromDatabaseValue(dbValue) else { return nil }
        return NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate) as? Self
    }
}

extension NSURL: DatabaseValueConvertible {
    /// The URL as `URL` stores it.
    public var databaseValue: DatabaseValue { (self as URL).databaseValue }

    /// The URL, as `URL` decodes it; nil otherwise.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        guard let url = URL.fromDatabaseValue(dbValue) else { return nil }
        return url as NSURL as? Self
    }
}

extension NSUUID: DatabaseValueConvertible {
    /// The UUID as `UUID` stores it (a 16-byte BLOB).
    public var databaseValue: DatabaseValue { (self as UUID).databaseValue }

    /// The UUID, as `UUID` decodes it; nil otherwise.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        guard let uuid = UUID.fromDatabaseValue(dbValue) else { return nil }
        return uuid as NSUUID as? Self
    }
}

extension DatabaseValue {
    /// The database value of any value: a ``DatabaseValueConvertible`` value, nil or `NSNull` (NULL); nil for
    /// anything else.
    ///
    ///     DatabaseValue(value: NSDate())   // TEXT
    ///     DatabaseValue(value: NSObject()) // nil
    public init?(value: Any) {
        if let convertible = value as? any DatabaseValueConvertible {
            self = convertible.databaseValue
        } else if case Optional<Any>.none = value {
            self = .null
        } else {
            return nil
        }
    }
}

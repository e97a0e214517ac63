import Foundation

/// A sequence whose iteration may throw, such as the rows of an SQLite statement. Cursors are consumed once,
/// on the database access they come from.
///
///     let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
///     while let name = try names.next() { print(name) }
///
///     let count = try Row.fetchCursor(db, sql: "SELECT * FROM player").filter { $0["score"] > 100 }.reduce(0) { n, _ in n + 1 }
public protocol Cursor<Element>: AnyObject {
    /// The type of the elements.
    associatedtype Element

    /// The next element, or nil when the cursor is exhausted.
    func next() throws -> Element?

    /// Calls `body` on each remaining element. A customization point: wrapping cursors (`map`, `filter`,
    /// `enumerated`) forward it to their base.
    func forEach(_ body: (Element) throws -> Void) throws
}

/// A cursor built from a closure.
///
///     var n = 0
///     let numbers = AnyCursor<Int> { n += 1; return n <= 3 ? n : nil }
public final class AnyCursor<Element>: Cursor {
    private let nextElement: () throws -> Element?
    /// The `forEach` of a wrapped cursor, nil for a closure.
    private let baseForEach: (((Element) throws -> Void) throws -> Void)?

    /// Wraps a closure that returns the next element, or nil at the end.
    public init(_ next: @escaping () throws -> Element?) {
        nextElement = next
        baseForEach = nil
    }

    /// Wraps another cursor (its `forEach` included).
    public init<C: Cursor>(_ base: C) where C.Element == Element {
        nextElement = { try base.next() }
        baseForEach = { body in try base.forEach(body) }
    }

    /// Iterates a sequence.
    public convenience init<S: Sequence>(_ sequence: S) where S.Element == Element {
        self.init(iterator: sequence.makeIterator())
    }

    /// Iterates an iterator: `AnyCursor(iterator: [1, 2, 3].makeIterator())`.
    public convenience init<I: IteratorProtocol>(iterator: I) where I.Element == Element {
        var iterator = iterator
        self.init { iterator.next() }
    }

    /// The next element.
    public func next() throws -> Element? { try nextElement() }

    /// Calls `body` on each remaining element, through the wrapped cursor's `forEach` if there is one.
    public func forEach(_ body: (Element) throws -> Void) throws {
        if let baseForEach { return try baseForEach(body) }
        while let element = try nextElement() { try body(element) }
    }
}

/// A cursor of mapped elements (``Cursor/map(_:)``).
public final class MapCursor<Base: Cursor, Element>: Cursor {
    private let base: Base
    private let transform: (Base.Element) throws -> Element

    init(_ base: Base, _ transform: @escaping (Base.Element) throws -> Element) {
        self.base = base
        self.transform = transform
    }

    /// The next transformed element.
    public func next() throws -> Element? {
        guard let element = try base.next() else { return nil }
        return try transform(element)
    }

    /// Calls `body` on each remaining transformed element, through the base cursor's `forEach`.
    public func forEach(_ body: (Element) throws -> Void) throws {
        try base.forEach { try body(transform($0)) }
    }
}

/// A cursor of (offset, element) pairs (``Cursor/enumerated()``).
public final class EnumeratedCursor<Base: Cursor>: Cursor {
    private let base: Base
    private var offset = 0

    init(_ base: Base) { self.base = base }

    /// The next pair.
    public func next() throws -> (offset: Int, element: Base.Element)? {
        guard let element = try base.next() else { return nil }
        defer { offset += 1 }
        return (offset, element)
    }

    /// Calls `body` on each remaining pair, through the base cursor's `forEach`.
    public func forEach(_ body: ((offset: Int, element: Base.Element)) throws -> Void) throws {
        try base.forEach { element in
            defer { offset += 1 }
            try body((offset, element))
        }
    }
}

/// A cursor of the elements that satisfy a predicate (``Cursor/filter(_:)``).
public final class FilterCursor<Base: Cursor>: Cursor {
    private let base: Base
    private let isIncluded: (Base.Element) throws -> Bool

    init(_ base: Base, _ isIncluded: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.isIncluded = isIncluded
    }

    /// The next included element.
    public func next() throws -> Base.Element? {
        while let element = try base.next() {
            if try isIncluded(element) { return element }
        }
        return nil
    }

    /// Calls `body` on each remaining included element, through the base cursor's `forEach`.
    public func forEach(_ body: (Base.Element) throws -> Void) throws {
        try base.forEach { element in
            if try isIncluded(element) { try body(element) }
        }
    }
}

extension Cursor {
    /// The transformed elements, lazily.
    public func map<T>(_ transform: @escaping (Element) throws -> T) -> MapCursor<Self, T> {
        MapCursor(self, transform)
    }

    /// The elements that satisfy `isIncluded`, lazily.
    public func filter(_ isIncluded: @escaping (Element) throws -> Bool) -> FilterCursor<Self> {
        FilterCursor(self, isIncluded)
    }

    /// The non-nil transformed elements, lazily.
    public func compactMap<T>(_ transform: @escaping (Element) throws -> T?) -> AnyCursor<T> {
        AnyCursor {
            while let element = try self.next() {
                if let value = try transform(element) { return value }
            }
            return nil
        }
    }

    /// The concatenated elements of the sequences returned by `transform`, lazily.
    public func flatMap<S: Sequence>(_ transform: @escaping (Element) throws -> S) -> AnyCursor<S.Element> {
        var current: S.Iterator?
        return AnyCursor {
            while true {
                if let element = current?.next() { return element }
                guard let base = try self.next() else { return nil }
                current = try transform(base).makeIterator()
            }
        }
    }

    /// The concatenated elements of the cursors returned by `transform`, lazily.
    public func flatMap<C: Cursor>(_ transform: @escaping (Element) throws -> C) -> AnyCursor<C.Element> {
        var current: C?
        return AnyCursor {
            while true {
                if let element = try current?.next() { return element }
                guard let base = try self.next() else { return nil }
                current = try transform(base)
            }
        }
    }

    /// Calls `body` on each element.
    public func forEach(_ body: (Element) throws -> Void) throws {
        while let element = try next() { try body(element) }
    }

    /// Combines the elements.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Element) throws -> T) throws -> T {
        var result = initialResult
        while let element = try next() { result = try nextPartialResult(result, element) }
        return result
    }

    /// Combines the elements into a mutable accumulator.
    public func reduce<T>(into initialResult: T, _ updateAccumulatingResult: (inout T, Element) throws -> Void)
        throws -> T
    {
        var result = initialResult
        while let element = try next() { try updateAccumulatingResult(&result, element) }
        return result
    }

    /// True when an element satisfies the predicate (consumes elements up to it).
    public func contains(where predicate: (Element) throws -> Bool) throws -> Bool {
        while let element = try next() {
            if try predicate(element) { return true }
        }
        return false
    }

    /// True when every element satisfies the predicate.
    public func allSatisfy(_ predicate: (Element) throws -> Bool) throws -> Bool {
        while let element = try next() {
            if try !predicate(element) { return false }
        }
        return true
    }

    /// The first element that satisfies the predicate.
    public func first(where predicate: (Element) throws -> Bool) throws -> Element? {
        while let element = try next() {
            if try predicate(element) { return element }
        }
        return nil
    }

    /// True when the cursor has no element (consumes the first one).
    public var isEmpty: Bool {
        get throws { try next() == nil }
    }

    /// The smallest element according to `areInIncreasingOrder`.
    public func min(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
        guard var result = try next() else { return nil }
        while let element = try next() {
            if try areInIncreasingOrder(element, result) { result = element }
        }
        return result
    }

    /// The largest element according to `areInIncreasingOrder`.
    public func max(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
        guard var result = try next() else { return nil }
        while let element = try next() {
            if try areInIncreasingOrder(result, element) { result = element }
        }
        return result
    }

    /// Pairs of (offset, element), lazily.
    public func enumerated() -> EnumeratedCursor<Self> {
        EnumeratedCursor(self)
    }

    /// At most the first `maxLength` elements, lazily.
    public func prefix(_ maxLength: Int) -> AnyCursor<Element> {
        var remaining = maxLength
        return AnyCursor {
            guard remaining > 0 else { return nil }
            remaining -= 1
            return try self.next()
        }
    }

    /// The leading elements that satisfy the predicate, lazily.
    public func prefix(while predicate: @escaping (Element) throws -> Bool) -> AnyCursor<Element> {
        var done = false
        return AnyCursor {
            guard !done, let element = try self.next() else { return nil }
            if try predicate(element) { return element }
            done = true
            return nil
        }
    }

    /// All but the first `k` elements, lazily.
    public func dropFirst(_ k: Int = 1) -> AnyCursor<Element> {
        var toDrop = k
        return AnyCursor {
            while toDrop > 0 {
                toDrop -= 1
                if try self.next() == nil { return nil }
            }
            return try self.next()
        }
    }

    /// The elements after the leading ones that satisfy the predicate, lazily.
    public func drop(while predicate: @escaping (Element) throws -> Bool) -> AnyCursor<Element> {
        var dropping = true
        return AnyCursor {
            while let element = try self.next() {
                if dropping, try predicate(element) { continue }
                dropping = false
                return element
            }
            return nil
        }
    }

    /// All but the last `k` elements.
    public func dropLast(_ k: Int = 1) throws -> [Element] {
        let all = try Array(self)
        return Array(all.dropLast(k))
    }

    /// The last `maxLength` elements.
    public func suffix(_ maxLength: Int) throws -> [Element] {
        let all = try Array(self)
        return Array(all.suffix(maxLength))
    }
}

extension Cursor where Element: Equatable {
    /// True when the cursor contains `element` (consumes elements up to it).
    public func contains(_ element: Element) throws -> Bool {
        try contains { $0 == element }
    }
}

extension Cursor where Element: Comparable {
    /// The smallest element.
    public func min() throws -> Element? { try min(by: <) }

    /// The largest element.
    public func max() throws -> Element? { try max(by: <) }
}

extension Cursor where Element: Sequence {
    /// The concatenated elements of the sequences, lazily.
    public func joined() -> AnyCursor<Element.Element> {
        flatMap { $0 }
    }
}

extension Cursor where Element: Cursor {
    /// The concatenated elements of the cursors, lazily.
    public func joined() -> AnyCursor<Element.Element> {
        flatMap { $0 }
    }
}

extension Cursor where Element: StringProtocol {
    /// The strings joined with a separator.
    public func joined(separator: String = "") throws -> String {
        var result = ""
        var isFirst = true
        while let element = try next() {
            if !isFirst { result += separator }
            result += element
            isFirst = false
        }
        return result
    }
}

extension RangeReplaceableCollection {
    /// The elements of a cursor: `let names = try Array(String.fetchCursor(db, sql: "SELECT name FROM player"))`.
    public init<C: Cursor>(_ cursor: C, minimumCapacity: Int = 0) throws where C.Element == Element {
        self.init()
        if minimumCapacity > 0 { reserveCapacity(minimumCapacity) }
        while let element = try cursor.next() { append(element) }
    }
}

extension Set {
    /// The elements of a cursor: `let ids = try Set(Int.fetchCursor(db, sql: "SELECT id FROM player"))`.
    public init<C: Cursor>(_ cursor: C, minimumCapacity: Int = 0) throws where C.Element == Element {
        self.init(minimumCapacity: minimumCapacity)
        while let element = try cursor.next() { insert(element) }
    }
}

extension Dictionary {
    /// Groups the elements of a cursor by key.
    ///
    ///     let byTeam = try Dictionary(grouping: Player.fetchCursor(db), by: { $0.teamID })
    public init<C: Cursor>(grouping cursor: C, by keyForValue: (C.Element) throws -> Key) throws
    where Value == [C.Element] {
        self.init()
        while let element = try cursor.next() {
            try self[keyForValue(element), default: []].append(element)
        }
    }

    /// A dictionary from a cursor of unique (key, value) pairs; a duplicate key is a programmer error.
    public init<C: Cursor>(uniqueKeysWithValues keysAndValues: C) throws where C.Element == (Key, Value) {
        self.init()
        while let (key, value) = try keysAndValues.next() {
            let previous = updateValue(value, forKey: key)
            precondition(previous == nil, "Dictionary(uniqueKeysWithValues:): duplicate key \(key)")
        }
    }

    /// A dictionary from a cursor of (key, value) pairs, combining the values of duplicate keys.
    public init<C: Cursor>(_ keysAndValues: C, uniquingKeysWith combine: (Value, Value) throws -> Value) throws
    where C.Element == (Key, Value) {
        self.init()
        while let (key, value) = try keysAndValues.next() {
            if let existing = self[key] {
                self[key] = try combine(existing, value)
            } else {
                self[key] = value
            }
        }
    }
}

import Foundation

/// The pieces of an SQLite date or time string, parsed from UTF-8 bytes without Foundation formatters.
///
/// Accepted: `YYYY-MM-DD`, `YYYY-MM-DD HH:MM`, `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD HH:MM:SS.SSS` (any number of
/// fraction digits), the same with a `T` separator, `HH:MM`, `HH:MM:SS`, `HH:MM:SS.SSS`, each optionally
/// followed by `Z` or `[+-]HH:MM` (with or without a space before it).
struct SQLiteDateTime: Equatable {
    var year: Int?
    var month: Int?
    var day: Int?
    var hour: Int?
    var minute: Int?
    var second: Int?
    var nanosecond: Int?
    /// Offset from UTC in seconds, when the string has one.
    var utcOffset: Int?

    /// Parses bytes, or returns nil when they are not an SQLite date format.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        var i = 0
        let n = bytes.count

        func digits(_ count: Int) -> Int? {
            guard i + count <= n else { return nil }
            var value = 0
            for k in 0..<count {
                let c = bytes[i + k]
                guard c >= 0x30 && c <= 0x39 else { return nil }
                value = value * 10 + Int(c - 0x30)
            }
            i += count
            return value
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < n, bytes[i] == c else { return false }
            i += 1
            return true
        }

        // Date part, or a time directly.
        if n >= 10, n > 4, bytes[4] == 0x2D {  // "YYYY-"
            guard let y = digits(4), expect(0x2D), let mo = digits(2), expect(0x2D), let d = digits(2),
                (1...12).contains(mo), (1...31).contains(d)
            else { return nil }
            year = y
            month = mo
            day = d
            if i == n { return }
            guard bytes[i] == 0x20 || bytes[i] == 0x54 else { return nil }  // ' ' or 'T'
            i += 1
        }
        guard let h = digits(2), expect(0x3A), let mi = digits(2), h < 24, mi < 60 else { return nil }
        hour = h
        minute = mi
        if expect(0x3A) {
            guard let s = digits(2), s < 60 else { return nil }
            second = s
            if expect(0x2E) {
                var fraction = 0
                var scale = 0
                let start = i
                while i < n, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                    if scale < 9 {
                        fraction = fraction * 10 + Int(bytes[i] - 0x30)
                        scale += 1
                    }
                    i += 1
                }
                guard i > start else { return nil }
                while scale < 9 {
                    fraction *= 10
                    scale += 1
                }
                nanosecond = fraction
            }
        }
        // Time zone.
        if i < n, bytes[i] == 0x20 { i += 1 }
        if i == n { return }
        if bytes[i] == 0x5A || bytes[i] == 0x7A {  // Z
            i += 1
            utcOffset = 0
        } else if bytes[i] == 0x2B || bytes[i] == 0x2D {
            let sign = bytes[i] == 0x2D ? -1 : 1
            i += 1
            guard let oh = digits(2), expect(0x3A), let om = digits(2), oh < 24, om < 60 else { return nil }
            utcOffset = sign * (oh * 3600 + om * 60)
        }
        guard i == n else { return nil }
    }

    /// Parses a string.
    init?(_ string: String) {
        var string = string
        guard let parsed = string.withUTF8({ SQLiteDateTime($0) }) else { return nil }
        self = parsed
    }

    /// The date, when the string has a date part. Times without offset are UTC.
    var date: Date? {
        guard let year, let month, let day else { return nil }
        let days = daysFromCivil(year, month, day)
        var seconds = Double(days * 86400 + (hour ?? 0) * 3600 + (minute ?? 0) * 60 + (second ?? 0))
        seconds -= Double(utcOffset ?? 0)
        seconds += Double(nanosecond ?? 0) / 1e9
        return Date(timeIntervalSince1970: seconds)
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146097 + doe - 719468
}

/// The (year, month, day) of a number of days since 1970-01-01.
func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719468
    let era = (z >= 0 ? z : z - 146096) / 146097
    let doe = z - era * 146097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
}

/// Zero-padded decimal digits appended to a byte buffer.
func appendPadded(_ value: Int, width: Int, to bytes: inout [UInt8]) {
    var digits = [UInt8](repeating: 0x30, count: width)
    var v = abs(value)
    var k = width - 1
    while k >= 0 {
        digits[k] = UInt8(0x30 + v % 10)
        v /= 10
        k -= 1
    }
    if value < 0 { bytes.append(0x2D) }
    bytes.append(contentsOf: digits)
}

/// `YYYY-MM-DD HH:MM:SS.SSS` in UTC, rounded to the millisecond.
func sqliteDateString(_ date: Date) -> String {
    let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
    var days = Int(totalMilliseconds / 86_400_000)
    var remainder = Int(totalMilliseconds % 86_400_000)
    if remainder < 0 {
        remainder += 86_400_000
        days -= 1
    }
    let (year, month, day) = civilFromDays(days)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(23)
    appendPadded(year, width: 4, to: &bytes)
    bytes.append(0x2D)
    appendPadded(month, width: 2, to: &bytes)
    bytes.append(0x2D)
    appendPadded(day, width: 2, to: &bytes)
    bytes.append(0x20)
    appendPadded(remainder / 3_600_000, width: 2, to: &bytes)
    bytes.append(0x3A)
    appendPadded(remainder / 60_000 % 60, width: 2, to: &bytes)
    bytes.append(0x3A)
    appendPadded(remainder / 1000 % 60, width: 2, to: &bytes)
    bytes.append(0x2E)
    appendPadded(remainder % 1000, width: 3, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

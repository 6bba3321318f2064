import Foundation

/// Reads HTTP dates (RFC 9110 5.6.7): the IMF-fixdate every server should send, and the
/// obsolete RFC 850 and asctime forms a recipient must still accept.
///
/// Written by hand rather than with `DateFormatter`: it runs several times for every cached
/// response, needs no locale, and must turn any garbage into `nil`, never into a wrong date. It
/// reads the UTF-8 bytes in place, with no allocation: every form is ASCII, and a byte outside
/// ASCII is no date.
///
/// The grammar it accepts, loosely, as the three forms share it: tokens separated by spaces,
/// tabs, commas and hyphens; a weekday name, only as the first token; one month name; one
/// `hh:mm:ss`; `GMT` or `UTC` anywhere; and exactly two numbers, the day (one or two digits)
/// then the year (two or four), in whatever order the other tokens come. Names are read without
/// regard to case.
enum HTTPDate {
    /// The date `text` names, or `nil` when it is not an HTTP date.
    static func parse(_ text: String) -> Date? {
        guard text.utf8.count <= 64 else { return nil }
        var text = text
        return text.withUTF8(parse(bytes:))
    }

    /// The date of `bytes`, the UTF-8 of the text; `nil` when it is not an HTTP date.
    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var fields = Fields()
        var position = 0
        var start = 0
        while start < bytes.count {
            guard !isSeparator(bytes[start]) else {
                start += 1
                continue
            }
            var end = start + 1
            while end < bytes.count, !isSeparator(bytes[end]) {
                end += 1
            }
            guard fields.read(Token(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end])), at: position) else {
                return nil
            }
            position += 1
            start = end
        }
        return fields.date
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "\t")
    }

    /// What the tokens read so far said.
    private struct Fields {
        var month: Int?
        var time: (hour: Int, minute: Int, second: Int)?
        /// The two numbers, day then year, with their number of digits.
        var day: (value: Int?, digits: Int)?
        var year: (value: Int?, digits: Int)?

        /// Takes in the token at `position`; `false` when it cannot belong to a date.
        mutating func read(_ token: Token, at position: Int) -> Bool {
            if position == 0, token.isWeekday {
                return true
            }
            if let index = token.monthIndex {
                guard month == nil else { return false }
                month = index + 1
            } else if token.contains(UInt8(ascii: ":")) {
                guard time == nil, let clock = token.clock else { return false }
                time = clock
            } else if token.equalsLowercased("gmt") || token.equalsLowercased("utc") {
                return true
            } else if token.isDigits {
                if day == nil {
                    day = (token.number, token.bytes.count)
                } else if year == nil {
                    year = (token.number, token.bytes.count)
                } else {
                    // Only two numbers make a date.
                    return false
                }
            } else {
                return false
            }
            return true
        }

        /// The date, once every token has been read.
        var date: Date? {
            // Day first, then year, in all three forms.
            guard let month, let time, let day, let year, day.digits <= 2, let dayOfMonth = day.value,
                let rawYear = year.value, year.digits == 2 || year.digits == 4
            else { return nil }
            // RFC 850's two-digit years: RFC 9110 reads those that look more than 50 years
            // ahead as past; for dates a server sends now, 70 and above is the 1900s.
            let fullYear = year.digits == 2 ? (rawYear >= 70 ? 1900 + rawYear : 2000 + rawYear) : rawYear
            guard fullYear >= 1601, (1...HTTPDate.daysIn(month: month, year: fullYear)).contains(dayOfMonth) else {
                return nil
            }
            let days = HTTPDate.daysSinceEpoch(year: fullYear, month: month, day: dayOfMonth)
            let seconds = days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
    }

    /// One token's bytes, never empty.
    private struct Token {
        let bytes: UnsafeBufferPointer<UInt8>

        private static let months: [StaticString] = [
            "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
        ]
        private static let weekdays: [StaticString] = [
            "mon", "tue", "wed", "thu", "fri", "sat", "sun",
            "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        ]

        var isWeekday: Bool {
            for weekday in Self.weekdays where equalsLowercased(weekday) {
                return true
            }
            return false
        }

        /// The month's index from 0, when the token names one.
        var monthIndex: Int? {
            for (index, month) in Self.months.enumerated() where equalsLowercased(month) {
                return index
            }
            return nil
        }

        /// Whether the token is `word` (lower-case ASCII), whatever the case of its letters.
        func equalsLowercased(_ word: StaticString) -> Bool {
            guard word.utf8CodeUnitCount == bytes.count else { return false }
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            for (byte, wanted) in zip(bytes, expected) {
                let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
                guard lowered == wanted else { return false }
            }
            return true
        }

        func contains(_ byte: UInt8) -> Bool {
            bytes.contains(byte)
        }

        var isDigits: Bool {
            bytes.allSatisfy(Self.isDigit)
        }

        /// The token's digits as a number; `nil` when there are too many to be a day or a year.
        var number: Int? {
            guard bytes.count <= 4 else { return nil }
            return bytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }

        /// `hh:mm:ss`, and nothing else.
        var clock: (hour: Int, minute: Int, second: Int)? {
            guard bytes.count == 8, bytes[2] == UInt8(ascii: ":"), bytes[5] == UInt8(ascii: ":") else { return nil }
            func pair(_ at: Int) -> Int? {
                guard Self.isDigit(bytes[at]), Self.isDigit(bytes[at + 1]) else { return nil }
                return Int(bytes[at] - UInt8(ascii: "0")) * 10 + Int(bytes[at + 1] - UInt8(ascii: "0"))
            }
            guard let hour = pair(0), let minute = pair(3), let second = pair(6),
                hour < 24, minute < 60, second <= 60
            else { return nil }
            return (hour, minute, second)
        }

        private static func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

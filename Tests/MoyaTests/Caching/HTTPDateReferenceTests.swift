import Foundation
import Testing

@testable import Moya

/// `HTTPDate` reads its bytes in place; it must accept and refuse exactly what the parser it
/// replaced did, which split Unicode characters. That parser is kept here as the reference,
/// and both read the same strings: the three forms with random parts, and mutations of them
/// with the characters most likely to tell a byte apart from a character (combining marks,
/// non-ASCII digits, letters whose lower case is ASCII, CR LF).
@Suite("HTTP dates against the reference parser")
struct HTTPDateReferenceTests {
    @Test func everyGeneratedStringReadsAsTheReferenceReadsIt() {
        var random = SeededRandom(seed: 0x5EED_DA7E)
        var checked = 0
        for _ in 0..<20_000 {
            var text = Self.dateLike(&random)
            for _ in 0..<Int(random.next() % 4) {
                text = Self.mutated(text, &random)
            }
            let expected = ReferenceHTTPDate.parse(text)
            #expect(HTTPDate.parse(text) == expected, "\(text.debugDescription)")
            if expected != nil {
                checked += 1
            }
        }
        // Enough of them are dates for the comparison to mean something.
        #expect(checked > 1_000)
    }

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        "SUN, 06 NOV 1994 08:49:37 UTC", "06 Nov 1994 08:49:37", "Nov 06 08:49:37 1994 gmt gmt",
        "Sun, 06 Nov 1994 08:49:37 GMT\r\n", "Sun,\u{301} 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 GMT\u{301}",
        "Sun, \u{0661}6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08\u{FF1A}49:37 GMT",
        "\u{212A}Sun, 06 Nov 1994 08:49:37",
        "Sun, 06\u{A0}Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:60 GMT", "Sun, 06 Nov 1994 8:49:37 GMT",
        "Sun, 06 Nov 01994 08:49:37 GMT", "Sun, 6 Nov 99999999999999999999 08:49:37 GMT",
        "Mon, 06 Nov 1600 08:49:37 GMT",
        "Tue Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 GMT 1", ",,,Sun,,06,Nov,1994,08:49:37",
        "Sun\t06\tNov\t69\t00:00:00", "Sun 06 Nov 70 00:00:00", "sep 30 2000 23:59:59",
        "Wednesday, 31-Dec-99 23:59:59 GMT",
    ])
    func edgeCasesReadAsTheReferenceReadsThem(text: String) {
        #expect(HTTPDate.parse(text) == ReferenceHTTPDate.parse(text))
    }

    // MARK: Generation

    private static let weekdays = ["Sun", "Mon", "Tuesday", "wed", "THU", "Friday", "sat", "sunday"]
    private static let months = [
        "Jan", "feb", "MAR", "Apr", "May", "jun", "Jul", "aug", "Sep", "OCT", "Nov", "dec", "Foo",
    ]
    private static let pieces = [
        " ", ",", "-", "\t", ":", "0", "1", "9", "GMT", "utc", "\r\n", "\u{301}", "é", "\u{0661}", "\u{212A}",
        "\u{130}", "\u{A0}", "\u{FF11}", "x", "Nov", "Mon", "00:00:00", "\u{1F600}",
    ]

    private static func pick<T>(_ items: [T], _ random: inout SeededRandom) -> T {
        items[Int(random.next() % UInt64(items.count))]
    }

    private static func digits(_ count: Int, below limit: Int, _ random: inout SeededRandom) -> String {
        let value = Int(random.next() % UInt64(limit))
        let text = String(value)
        return text.count >= count ? text : String(repeating: "0", count: count - text.count) + text
    }

    /// One of the three forms, with random names, numbers and separators.
    private static func dateLike(_ random: inout SeededRandom) -> String {
        let day = digits(Int(random.next() % 3) + 1, below: 40, &random)
        let year = random.next() % 3 == 0 ? digits(2, below: 100, &random) : digits(4, below: 2_200, &random)
        let time =
            "\(digits(2, below: 26, &random)):\(digits(2, below: 62, &random)):\(digits(2, below: 62, &random))"
        let weekday = pick(weekdays, &random)
        let month = pick(months, &random)
        switch random.next() % 3 {
        case 0:
            return "\(weekday), \(day) \(month) \(year) \(time) GMT"
        case 1:
            return "\(weekday), \(day)-\(month)-\(year) \(time) GMT"
        default:
            return "\(weekday) \(month) \(day) \(time) \(year)"
        }
    }

    /// `text` with one piece inserted, or one character removed or replaced.
    private static func mutated(_ text: String, _ random: inout SeededRandom) -> String {
        var characters = Array(text)
        let index = characters.isEmpty ? 0 : Int(random.next() % UInt64(characters.count))
        switch random.next() % 3 {
        case 0:
            characters.insert(contentsOf: pick(pieces, &random), at: index)
        case 1:
            if !characters.isEmpty { characters.remove(at: index) }
        default:
            if !characters.isEmpty { characters.replaceSubrange(index...index, with: pick(pieces, &random)) }
        }
        return String(characters)
    }
}

/// The parser `HTTPDate` replaced, unchanged: tokens of Unicode characters.
private enum ReferenceHTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let weekdays: Set<String> = [
        "mon", "tue", "wed", "thu", "fri", "sat", "sun",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    ]

    static func parse(_ text: String) -> Date? {
        guard text.utf8.count <= 64 else { return nil }
        let tokens = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" || $0 == "\t" })
        var month: Int?
        var time: (Int, Int, Int)?
        var numbers: [Substring] = []
        for (position, token) in tokens.enumerated() {
            if position == 0, weekdays.contains(String(token)) {
                continue
            }
            if let index = months.firstIndex(of: String(token)) {
                guard month == nil else { return nil }
                month = index + 1
            } else if token.contains(":") {
                guard time == nil, let parsed = clock(token) else { return nil }
                time = parsed
            } else if token == "gmt" || token == "utc" {
                continue
            } else if token.allSatisfy({ $0.isASCII && $0.isNumber }) {
                numbers.append(token)
            } else {
                return nil
            }
        }
        guard let month, let time, numbers.count == 2, numbers[0].count <= 2,
            let day = Int(numbers[0]), let rawYear = Int(numbers[1]), numbers[1].count == 2 || numbers[1].count == 4
        else { return nil }
        let year = numbers[1].count == 2 ? (rawYear >= 70 ? 1900 + rawYear : 2000 + rawYear) : rawYear
        guard year >= 1601, (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + time.0 * 3_600 + time.1 * 60 + time.2
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func clock(_ token: Substring) -> (Int, Int, Int)? {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy({ $0.isASCII && $0.isNumber }) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), let second = Int(parts[2]),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        return (hour, minute, second)
    }

    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

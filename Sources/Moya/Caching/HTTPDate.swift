import Foundation

/// Reads HTTP dates (RFC 9110 5.6.7): the IMF-fixdate every server should send, and the
/// obsolete RFC 850 and asctime forms a recipient must still accept.
///
/// Written by hand rather than with `DateFormatter`: it runs for every cached response, needs no
/// locale, and must turn any garbage into `nil`, never into a wrong date.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let weekdays: Set<String> = [
        "mon", "tue", "wed", "thu", "fri", "sat", "sun",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    ]

    /// The date `text` names, or `nil` when it is not an HTTP date.
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
            } else if token.allSatisfy(\.isASCIIDigit) {
                numbers.append(token)
            } else {
                return nil
            }
        }
        // Day first, then year, in all three forms.
        guard let month, let time, numbers.count == 2, numbers[0].count <= 2,
            let day = Int(numbers[0]), let rawYear = Int(numbers[1]), numbers[1].count == 2 || numbers[1].count == 4
        else { return nil }
        // RFC 850's two-digit years: RFC 9110 reads those that look more than 50 years ahead
        // as past; for dates a server sends now, 70 and above is the 1900s.
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

    /// `hh:mm:ss`.
    private static func clock(_ token: Substring) -> (Int, Int, Int)? {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), let second = Int(parts[2]),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        return (hour, minute, second)
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

extension Character {
    /// `0` to `9`, and nothing else that `isNumber` accepts.
    fileprivate var isASCIIDigit: Bool {
        isASCII && isNumber
    }
}

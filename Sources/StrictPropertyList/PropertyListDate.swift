/// Calendar arithmetic for `<date>` (`SPEC.md` §1.2): property-list dates are seconds since 2001-01-01 00:00:00
/// UTC, written in XML as `YYYY-MM-DDTHH:MM:SSZ` in the proleptic Gregorian calendar (no leap seconds).
enum PropertyListDate {
    /// Days from 1970-01-01 to 2001-01-01.
    private static let referenceDay: Int64 = 11_323

    /// Whether `year` is a Gregorian leap year.
    static func isLeap(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days of `month` (1 … 12) in `year`.
    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Seconds since the reference date of a valid civil date and time (H. Hinnant's `days_from_civil`).
    static func seconds(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) -> Double {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468 - referenceDay
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + second)
    }

    /// The civil date and time of `seconds` since the reference date, rounded down to a whole second
    /// (H. Hinnant's `civil_from_days`); nil when it is not finite or its year is outside 0 … 9999.
    static func civil(_ seconds: Double) -> (
        year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64,
        second: Int64
    )? {
        // 0001 … 9999 spans about ±3.2e11 s around 2001; the bound keeps the conversion to Int64 exact.
        guard seconds.isFinite, abs(seconds) < 4e11 else { return nil }
        let whole = Int64(seconds.rounded(.down))
        let (dayCount, secondOfDay) = floorDivide(whole, 86_400)
        let days = dayCount + referenceDay + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        guard year >= 0, year <= 9_999 else { return nil }
        return (year, month, day, secondOfDay / 3_600, secondOfDay / 60 % 60, secondOfDay % 60)
    }

    /// `value / divisor` rounded down, and the non-negative remainder.
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor
        let remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}

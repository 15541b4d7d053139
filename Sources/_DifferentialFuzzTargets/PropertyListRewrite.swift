import StrictPropertyList

/// Any list our reader accepts, written again by our writers, reads back as the same values (`SPEC.md` §1.1,
/// §1.2): what `selection-plist` checks on the whole tree, so that every value kind the readers know (integers of
/// each width, reals, dates, UIDs, data, strings) goes through both writers, not only the ones a selection holds.
///
/// Rule: binary keeps every value exactly. XML keeps every value except what it cannot hold, which is then not
/// compared: UIDs (written as `CF$UID` dictionaries), integers above `Int64.max`, dates that are not whole seconds
/// in years 0000–9999, and strings with a character XML 1.0 forbids.
enum PropertyListRewrite {
    /// The first value that did not survive a rewrite in `format`, or `nil`.
    static func check(_ top: PropertyListNode) -> HarnessFailure? {
        let binary = PropertyListWriter.binary(top)
        switch Result(catching: { () throws(PropertyListError) in try PropertyListReader.read(binary, as: .binary) }) {
        case .failure(let error): return HarnessFailure("our binary writer's output does not read back", "\(error)")
        case .success(let back):
            if !same(back.value, top.value) { return HarnessFailure("our binary writer changed a value") }
        }
        guard xmlHolds(top.value) else { return nil }
        let xml = PropertyListWriter.xml(top)
        switch Result(catching: { () throws(PropertyListError) in try PropertyListReader.read(xml, as: .xml) }) {
        case .failure(let error): return HarnessFailure("our XML writer's output does not read back", "\(error)")
        case .success(let back):
            if !same(back.value, top.value) { return HarnessFailure("our XML writer changed a value") }
        }
        return nil
    }

    /// Values equal ignoring offsets; reals by bit pattern (NaN equals itself, -0 is not 0), dates by value.
    static func same(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
        switch (a, b) {
        case (.dictionary(let x), .dictionary(let y)):
            return x.count == y.count
                && zip(x, y).allSatisfy { same($0.key.value, $1.key.value) && same($0.value.value, $1.value.value) }
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0.value, $1.value) }
        case (.real(let x), .real(let y)):
            return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case (.date(let x), .date(let y)):
            return x == y || (x.isNaN && y.isNaN)  // -0 and 0 are the same instant
        case (.string(let x), .string(let y)):
            return Array(x.unicodeScalars) == Array(y.unicodeScalars)
        default:
            return a == b
        }
    }

    /// Whether XML can hold every value of `value` as it is.
    static func xmlHolds(_ value: PropertyListValue) -> Bool {
        switch value {
        case .dictionary(let members):
            return members.allSatisfy { xmlHolds($0.key.value) && xmlHolds($0.value.value) }
        case .array(let elements): return elements.allSatisfy { xmlHolds($0.value) }
        case .uid, .unsignedInteger: return false
        case .date(let seconds):
            // Whole seconds from 0000-01-01 (-63113904000) to 9999-12-31T23:59:59Z (252423993599).
            return seconds.rounded() == seconds && seconds >= -63_113_904_000 && seconds <= 252_423_993_599
        case .string(let text): return text.unicodeScalars.allSatisfy(PropertyListWriter.xmlCanHold)
        case .real(let number): return !number.isNaN || number.bitPattern == Double.nan.bitPattern
        default: return true
        }
    }
}

import StrictJSON

/// Reads a selection in one pass over the JSON, checking all of its syntax, and remembers the first schema and
/// the first token problem so that a later syntax error still wins (`json` before `schema` before `token`).
struct SelectionReader {
    var scanner: JSONScanner
    var schemaProblem: SelectionDecodingError?
    var tokenProblem: SelectionDecodingError?

    /// Every accepted token's `data` text (unescaped), end to end in document order; `arenaCount` bytes used.
    let arena: UnsafeMutableBufferPointer<UInt8>
    var arenaCount = 0
    /// Where the tokens are in ``arena``, with their kinds, in document order (duplicates included): the first
    /// `recordCount` of `records`, a scratch buffer as long as the call. Their decoded byte counts follow from the
    /// (canonical) texts, so the report works them out instead of keeping them.
    let records: UnsafeMutableBufferPointer<TokenText>
    var recordCount = 0
    var tokenTexts: UnsafeMutableBufferPointer<TokenText>.SubSequence { records[..<recordCount] }
    /// The token arrays met, one bit per kind (a `Set` of the kind would hash its raw `String` value).
    var seenTokenArrays: UInt8 = 0
    var includeEntireCategory: Bool?
    /// The `untokenized*Identifiers`, in the order of ``SelectionDecoder/knownKeys`` (three arrays, not an array
    /// of three: empty ones allocate nothing).
    var untokenizedApplications: [UntokenizedIdentifier] = []
    var untokenizedCategories: [UntokenizedIdentifier] = []
    var untokenizedWebDomains: [UntokenizedIdentifier] = []
    /// How many distinct top-level keys are not among the seven. Hostile documents are full of them, so they are
    /// not kept: the report (a valid document) reads them again.
    var unknownKeyCount = 0

    init(
        scanner: JSONScanner, arena: UnsafeMutableBufferPointer<UInt8>, records: UnsafeMutableBufferPointer<TokenText>
    ) {
        self.records = records
        self.scanner = scanner
        self.arena = arena
    }

    // The details are built only for the first problem of each code (most hostile documents have many).
    mutating func schema(_ offset: Int, _ detail: @autoclosure () -> String) {
        if schemaProblem == nil { schemaProblem = SelectionDecodingError(.schema, at: offset, detail: detail()) }
    }

    mutating func token(_ offset: Int, _ detail: @autoclosure () -> String) {
        if tokenProblem == nil { tokenProblem = SelectionDecodingError(.token, at: offset, detail: detail()) }
    }

    /// Reads the whole document: throws its first syntax error (`json`), else returns its first `schema`
    /// problem, else its first `token` problem, else `nil`. (A thrown error is typed, so nothing is boxed.)
    mutating func read() throws(JSONParseError) -> SelectionDecodingError? {
        try scanner.beginDocument()
        let start = scanner.index
        if try scanner.peek() == UInt8(ascii: "{") {
            try readTopLevelObject()
        } else {
            try scanner.skipValue()
            schema(start, "the top level is not an object")
        }
        try scanner.endDocument()

        if let duplicate = scanner.firstDuplicate { schema(duplicate, "a key is repeated in one object") }
        for kind in SelectionTokenKind.allCases where seenTokenArrays & Self.bit(kind) == 0 {
            schema(scanner.index, Self.details[Self.keyIndex(kind)].missing)
        }
        return earliestSchemaProblem() ?? tokenProblem
    }

    /// The selection and the facts about its encoding (after ``read()`` succeeded).
    func report() -> SelectionDecoder.Report {
        let applicationTexts = texts(of: .application)
        let categoryTexts = texts(of: .category)
        let webDomainTexts = texts(of: .webDomain)
        let applications = tokens(applicationTexts, as: Application.self)
        let categories = tokens(categoryTexts, as: ActivityCategory.self)
        let webDomains = tokens(webDomainTexts, as: WebDomain.self)
        var selection = FamilyActivitySelection(includeEntireCategory: includeEntireCategory ?? false)
        let applicationSizes: [Int]
        let categorySizes: [Int]
        let webDomainSizes: [Int]
        (selection.applicationTokens, applicationSizes) = Self.distinct(applications, byteCounts(applicationTexts))
        (selection.categoryTokens, categorySizes) = Self.distinct(categories, byteCounts(categoryTexts))
        (selection.webDomainTokens, webDomainSizes) = Self.distinct(webDomains, byteCounts(webDomainTexts))
        selection.untokenizedApplicationIdentifiers = Set(untokenizedApplications)
        selection.untokenizedCategoryIdentifiers = Set(untokenizedCategories)
        selection.untokenizedWebDomainIdentifiers = Set(untokenizedWebDomains)
        return SelectionDecoder.Report(
            selection: selection,
            writtenTokenCounts: [
                .application: applications.count, .category: categories.count, .webDomain: webDomains.count,
            ],
            tokenByteCounts: [.application: applicationSizes, .category: categorySizes, .webDomain: webDomainSizes],
            unknownKeys: unknownKeyCount == 0 ? [] : unknownKeyStrings(),
            includeEntireCategoryMissing: includeEntireCategory == nil)
    }

    /// The distinct top-level keys that are not among the seven, in document order: read again from the
    /// document, which has proved valid.
    func unknownKeyStrings() -> [String] {
        var again = JSONScanner(buffer: scanner.buffer, maxDepth: scanner.maxDepth)
        var seen = ObjectKeys()
        var keys: [String] = []
        do throws(JSONParseError) {
            try again.beginDocument()
            guard try again.openContainer(UInt8(ascii: "{"), close: UInt8(ascii: "}")) else { return [] }
            repeat {
                let (key, _) = try again.parseMemberKeyBytes()
                if again.withBytes(of: key, { Self.knownKeyIndex($0) }) == nil, seen.insert(key, of: again) {
                    keys.append(again.string(key))
                }
                try again.skipValue()
            } while try again.consumeSeparator(close: UInt8(ascii: "}"))
        } catch {
            return keys  // cannot happen: the document was read without error
        }
        return keys
    }

    /// Where one kind's tokens are in the arena, in document order.
    func texts(of kind: SelectionTokenKind) -> [Range<Int>] {
        var texts: [Range<Int>] = []
        for token in tokenTexts where token.kind == kind {
            if texts.isEmpty { texts.reserveCapacity(tokenTexts.count) }
            texts.append(token.text)
        }
        return texts
    }

    /// The decoded byte counts of the tokens whose texts are at `texts` in the arena.
    func byteCounts(_ texts: [Range<Int>]) -> [Int] {
        texts.map { Base64.decodedByteCount(of: UnsafeBufferPointer(rebasing: arena[$0])) }
    }

    /// Tokens made from their texts in the arena.
    func tokens<Kind>(_ texts: [Range<Int>], as kind: Kind.Type) -> [Token<Kind>] {
        texts.map { Token(validatedData: String(decoding: UnsafeBufferPointer(rebasing: arena[$0]), as: UTF8.self)) }
    }

    /// The canonical stored string (after ``read()`` succeeded), written from the token texts in the arena:
    /// each kind's sorted by their bytes (the order of ``Token``'s `<`) without duplicates.
    func canonicalForm() -> SelectionDecoder.CanonicalForm {
        let texts = UnsafeBufferPointer(arena)
        func distinctSorted(_ kind: SelectionTokenKind) -> [Range<Int>] {
            var ranges = self.texts(of: kind)
            CanonicalWriter.sortByBytesRemovingDuplicates(&ranges, in: texts)
            return ranges
        }
        let writer = CanonicalWriter(
            applications: distinctSorted(.application), categories: distinctSorted(.category),
            webDomains: distinctSorted(.webDomain), includeEntireCategory: includeEntireCategory ?? false,
            identifiers: (
                CanonicalWriter.strings(untokenizedApplications), CanonicalWriter.strings(untokenizedCategories),
                CanonicalWriter.strings(untokenizedWebDomains)
            ))
        return SelectionDecoder.CanonicalForm(
            base64: writer.base64(texts: texts), applicationCount: writer.applications.count,
            categoryCount: writer.categories.count, webDomainCount: writer.webDomains.count,
            includeEntireCategory: writer.includeEntireCategory)
    }

    /// The distinct tokens as a set, and their byte counts in stable order: one sort, then duplicates (adjacent
    /// once sorted) are dropped, so each distinct token is hashed once.
    static func distinct<Kind>(_ tokens: [Token<Kind>], _ byteCounts: [Int]) -> (Set<Token<Kind>>, [Int]) {
        if tokens.isEmpty { return ([], []) }
        if let size = byteCounts.first, byteCounts.allSatisfy({ $0 == size }) {
            // One size for all (device tokens are all 128 bytes): the sizes in stable order need no sort.
            let set = Set(tokens)
            return (set, Array(repeating: size, count: set.count))
        }
        var pairs = Array(zip(tokens, byteCounts))
        pairs.sort { $0.0 < $1.0 }
        var set = Set<Token<Kind>>(minimumCapacity: tokens.count)
        var sizes: [Int] = []
        sizes.reserveCapacity(tokens.count)
        var previous: Token<Kind>?
        for (token, size) in pairs where token != previous {
            set.insert(token)
            sizes.append(size)
            previous = token
        }
        return (set, sizes)
    }

    /// Schema problems are recorded as met, but a duplicate key is only known after the fact: pick the earliest.
    func earliestSchemaProblem() -> SelectionDecodingError? {
        guard var problem = schemaProblem else { return nil }
        if let duplicate = scanner.firstDuplicate, duplicate < problem.offset {
            problem = SelectionDecodingError(.schema, at: duplicate, detail: "a key is repeated in one object")
        }
        return problem
    }

    mutating func readTopLevelObject() throws(JSONParseError) {
        guard try scanner.openContainer(UInt8(ascii: "{"), close: UInt8(ascii: "}")) else {
            scanner.leave()
            return
        }
        // The seven known keys are recognised from their bytes and remembered by bit; the others are kept as
        // read, by code point ("Café" in NFC and NFD are two keys). No String is built for a key here.
        var knownSeen: UInt8 = 0
        var unknownSeen = ObjectKeys()
        repeat {
            let (key, keyOffset) = try scanner.parseMemberKeyBytes()
            let isNew: Bool
            let known = scanner.withBytes(of: key) { Self.knownKeyIndex($0) }
            if let bit = known {
                isNew = knownSeen & (1 << bit) == 0
                knownSeen |= 1 << bit
            } else {
                isNew = unknownSeen.insert(key, of: scanner)
            }
            if !isNew {
                if scanner.firstDuplicate == nil { scanner.firstDuplicate = keyOffset }
                try scanner.skipValue()  // the first occurrence stands; the document is invalid anyway
                continue
            }
            // By index into knownKeys (code-point match above), not by String pattern (canonical equivalence).
            switch known {
            case 0?: try readTokenArray(.application)  // applicationTokens
            case 1?: try readTokenArray(.category)  // categoryTokens
            case 6?: try readTokenArray(.webDomain)  // webDomainTokens
            case 2?:  // includeEntireCategory
                let offset = scanner.index
                switch try scanner.peek() {
                case UInt8(ascii: "t"):
                    try scanner.literal("true")
                    includeEntireCategory = true
                case UInt8(ascii: "f"):
                    try scanner.literal("false")
                    includeEntireCategory = false
                default:
                    try scanner.skipValue()
                    schema(offset, "\"includeEntireCategory\" is not a boolean")
                }
            case 3?: untokenizedApplications = try readStringArray(3)  // untokenizedApplicationIdentifiers
            case 4?: untokenizedCategories = try readStringArray(4)  // untokenizedCategoryIdentifiers
            case 5?: untokenizedWebDomains = try readStringArray(5)  // untokenizedWebDomainIdentifiers
            default:
                unknownKeyCount += 1
                try scanner.skipValue()
            }
        } while try scanner.consumeSeparator(close: UInt8(ascii: "}"))
        scanner.leave()
    }

    /// The index in ``SelectionDecoder/knownKeys`` of the key with exactly these bytes (code points), or `nil`.
    /// The seven keys differ in length, so the length picks the one candidate and one byte comparison decides.
    static func knownKeyIndex(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let index: Int
        switch bytes.count {
        case 17: index = 0  // applicationTokens
        case 14: index = 1  // categoryTokens
        case 21: index = 2  // includeEntireCategory
        case 33: index = 3  // untokenizedApplicationIdentifiers
        case 30: index = 4  // untokenizedCategoryIdentifiers
        case 31: index = 5  // untokenizedWebDomainIdentifiers
        case 15: index = 6  // webDomainTokens
        default: return nil
        }
        return knownKeyBytes[index].withUnsafeBufferPointer { UTF8Bytes.equal($0, bytes) } ? index : nil
    }

    /// The UTF-8 of ``SelectionDecoder/knownKeys``.
    static let knownKeyBytes: [[UInt8]] = SelectionDecoder.knownKeys.map { Array($0.utf8) }

    /// Opens the array that is `key`'s value; `false` (nothing left to read) when it is empty, or when it is not
    /// an array, which is a schema problem and is skipped.
    mutating func openArray(_ keyIndex: Int) throws(JSONParseError) -> Bool {
        let offset = scanner.index
        guard try scanner.peek() == UInt8(ascii: "[") else {
            try scanner.skipValue()
            schema(offset, Self.details[keyIndex].notAnArray)
            return false
        }
        guard try scanner.openContainer(UInt8(ascii: "["), close: UInt8(ascii: "]")) else {
            scanner.leave()
            return false
        }
        return true
    }

    /// Reads the array of strings that is the value of known key number `keyIndex` (each key is read once: a
    /// repeated one is skipped).
    mutating func readStringArray(_ keyIndex: Int) throws(JSONParseError) -> [UntokenizedIdentifier] {
        var identifiers: [UntokenizedIdentifier] = []
        guard try openArray(keyIndex) else { return identifiers }
        repeat {
            scanner.skipWhitespace()
            let elementOffset = scanner.index
            if try scanner.peek() == UInt8(ascii: "\"") {
                identifiers.append(UntokenizedIdentifier(try scanner.parseString()))
            } else {
                try scanner.skipValue()
                schema(elementOffset, Self.details[keyIndex].notAString)
            }
        } while try scanner.consumeSeparator(close: UInt8(ascii: "]"))
        scanner.leave()
        return identifiers
    }

    /// The schema details that name a known key, made once (per document, building them was an allocation or
    /// two of every failing decode).
    static let details: [(missing: String, notAnArray: String, notAString: String)] =
        SelectionDecoder.knownKeys.map { key in
            (
                "the \"\(key)\" array is missing", "\"\(key)\" is not an array",
                "\"\(key)\" holds something other than a string"
            )
        }

    /// The index in ``SelectionDecoder/knownKeys`` of a kind's token array.
    static func keyIndex(_ kind: SelectionTokenKind) -> Int {
        switch kind {
        case .application: 0
        case .category: 1
        case .webDomain: 6
        }
    }

    static func bit(_ kind: SelectionTokenKind) -> UInt8 {
        switch kind {
        case .application: 1
        case .category: 2
        case .webDomain: 4
        }
    }

    mutating func readTokenArray(_ kind: SelectionTokenKind) throws(JSONParseError) {
        seenTokenArrays |= Self.bit(kind)
        guard try openArray(Self.keyIndex(kind)) else { return }
        var index = 0
        repeat {
            scanner.skipWhitespace()
            if let text = try readToken(kind, index: index) {
                arenaCount = text.upperBound
                if recordCount < records.count {
                    records.initializeElement(at: recordCount, to: TokenText(kind: kind, text: text))
                    recordCount += 1
                } else {
                    // Cannot happen (see `read`: one token per 15 bytes at most); never dropped silently.
                    token(scanner.index, "more tokens than the document can hold")
                }
            }
            index += 1
        } while try scanner.consumeSeparator(close: UInt8(ascii: "]"))
        scanner.leave()
    }

    /// Reads one `{"data": "…"}` element; returns where its checked `data` text is in the arena (written at
    /// ``arenaCount``, which the caller moves past it), or `nil` after recording a problem.
    mutating func readToken(_ kind: SelectionTokenKind, index: Int) throws(JSONParseError) -> Range<Int>? {
        let offset = scanner.index
        func place(_ rest: String) -> String { Self.tokenDetail(kind, index, rest) }
        guard try scanner.peek() == UInt8(ascii: "{") else {
            try scanner.skipValue()
            token(offset, place(" is not an object"))
            return nil
        }
        var data: Range<Int>?
        var check: Result<Int, Base64.DecodingFailure> = .success(0)
        var dataOffset = offset
        var dataIsString = false
        var keys = KeySet()
        /// Reads a `"data"` value that is a string (the scanner is at its opening quote).
        func readData() throws(JSONParseError) {
            dataOffset = scanner.index
            if let (text, result) = scanTokenData() {
                data = text
                check = result
            } else {
                let text = try scanner.parseString()
                check = Self.validateBase64(text)
                // Only accepted text is kept: canonical base64 is ASCII and no longer than its JSON.
                data = arenaCount..<arenaCount
                if case .success = check { data = store(text) }
            }
            dataIsString = true
        }
        var more: Bool
        if startsWithDataKey() {
            // `{"data":"` as iOS writes it: the same steps as `openContainer` and `parseMemberKey` would take
            // (the depth check at the `{`, the key recorded as seen), without building the key.
            try scanner.enter()
            scanner.index += 8  // at the value's opening quote
            keys.insertData()
            try readData()
            more = try scanner.consumeSeparator(close: UInt8(ascii: "}"))
        } else {
            more = try scanner.openContainer(UInt8(ascii: "{"), close: UInt8(ascii: "}"))
        }
        while more {
            let (key, keyOffset) = try scanner.parseMemberKeyBytes()
            let isData = scanner.withBytes(of: key, Self.isDataKey)
            if !keys.insert(key, isData: isData, of: scanner) {
                if scanner.firstDuplicate == nil { scanner.firstDuplicate = keyOffset }
                try scanner.skipValue()
            } else if isData, try scanner.peek() == UInt8(ascii: "\"") {
                try readData()
            } else {
                if isData { dataOffset = scanner.index }
                try scanner.skipValue()
            }
            more = try scanner.consumeSeparator(close: UInt8(ascii: "}"))
        }
        scanner.leave()
        guard dataIsString, let data else {
            token(dataOffset, place(keys.containsData ? ".data is not a string" : " has no \"data\""))
            return nil
        }
        switch check {
        case .failure(let failure):
            token(dataOffset, Self.tokenDetail(kind, index, ".data is not canonical base64: ", failure.reason.rawValue))
            return nil
        case .success(let byteCount):
            if byteCount == 0 {
                token(dataOffset, place(".data is empty"))
                return nil
            }
            if byteCount > ApplicationToken.maximumByteCount {
                token(dataOffset, place(".data is \(byteCount) bytes, over \(ApplicationToken.maximumByteCount)"))
                return nil
            }
            return data
        }
    }

    /// A token problem's detail: where (`applicationTokens[3]`), then `rest` and `more`. Built in one allocation
    /// (interpolating the place into the sentence took two or three).
    static func tokenDetail(_ kind: SelectionTokenKind, _ index: Int, _ rest: String, _ more: String = "") -> String {
        let key = kind.jsonKey
        let digits = String(index)
        let count = key.utf8.count + digits.utf8.count + 2 + rest.utf8.count + more.utf8.count
        return String(unsafeUninitializedCapacity: count) { out in
            var i = 0
            func put(_ part: String) {
                for byte in part.utf8 {
                    out[i] = byte
                    i += 1
                }
            }
            put(key)
            put("[")
            put(digits)
            put("]")
            put(rest)
            put(more)
            return i
        }
    }

    /// Whether a key's bytes are `data`.
    static func isDataKey(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        key.count == 4 && key[0] == UInt8(ascii: "d") && key[1] == UInt8(ascii: "a") && key[2] == UInt8(ascii: "t")
            && key[3] == UInt8(ascii: "a")
    }

    /// Whether the scanner is at the exact bytes `{"data":"` (a token object as iOS writes it).
    func startsWithDataKey() -> Bool {
        let buffer = scanner.buffer
        let i = scanner.index
        guard buffer.count - i >= 9 else { return false }
        // `{"data":"` is 9 bytes: compare the first 8 as one word, then the last.
        let pattern: UInt64 = 0x3A22_6174_6164_227B  // {"data": (little-endian, as `SWAR.load` reads)
        return SWAR.load(buffer, i) == pattern && buffer[i + 8] == UInt8(ascii: "\"")
    }

    /// Copies `text` into the arena at ``arenaCount``; returns where it is.
    func store(_ text: String) -> Range<Int> {
        var n = 0
        for byte in text.utf8 where arenaCount + n < arena.count {
            arena[arenaCount + n] = byte
            n += 1
        }
        return arenaCount..<(arenaCount + n)
    }

    static func validateBase64(_ text: String) -> Result<Int, Base64.DecodingFailure> {
        var text = text
        return text.withUTF8 { Base64.validate($0) }
    }

    /// The fast path for a token's `data` string as iOS writes it: printable ASCII whose only escape is `\/`.
    /// Copies the text into the arena at ``arenaCount`` and checks its base64 on the way, giving exactly what
    /// `parseString` and ``validateBase64(_:)`` give. Returns `nil`, without moving, for any other string
    /// (other escapes, controls, non-ASCII, no closing quote), which the general path then reads.
    mutating func scanTokenData() -> (Range<Int>, Result<Int, Base64.DecodingFailure>)? {
        let buffer = scanner.buffer
        let start = scanner.index + 1  // after the opening quote
        // The text goes to the arena at `arenaCount`, which is before `start` (the texts before this one came from
        // the JSON before it, and are no longer than it); writing at most at the read position plus 8 stays
        // inside the arena, which holds the JSON's length plus 16 bytes.
        guard arenaCount < start, let arenaBase = arena.baseAddress else { return nil }
        let target = arenaBase + arenaCount
        // One pass: find the closing quote and copy the text (`\/` as `/`). Words of eight alphabet characters
        // are checked with four pair lookups and stored whole; a word with anything else is read byte by byte.
        // On the way, note what base64 needs: `=` (how many, the last one) and whether any other character
        // outside the alphabet was seen.
        var i = start
        var o = 0
        var equals = 0
        var lastEquals = -1
        var irregular = false
        let found: Bool = Base64.pairValues.withUnsafeBufferPointer { pairs in
            guard let p = pairs.baseAddress else { return false }  // a static, non-empty table
            let out = UnsafeMutableRawPointer(target)
            while true {
                while i &+ 8 <= buffer.count {
                    let w = SWAR.load(buffer, i)
                    let flags =
                        p[Int(truncatingIfNeeded: w & 0xFFFF)] | p[Int(truncatingIfNeeded: (w >> 16) & 0xFFFF)]
                        | p[Int(truncatingIfNeeded: (w >> 32) & 0xFFFF)] | p[Int(truncatingIfNeeded: w >> 48)]
                    if flags & 0x8000 != 0 { break }
                    out.storeBytes(of: w.littleEndian, toByteOffset: o, as: UInt64.self)
                    i &+= 8
                    o &+= 8
                }
                // Up to eight bytes one at a time (an escape may take the last step one byte further).
                let stop = min(i &+ 8, buffer.count)
                if i >= stop { return false }  // no closing quote
                while i < stop {
                    let c = buffer[i]
                    if Base64.value(c) != 0xFF {
                        target[o] = c
                        i &+= 1
                    } else if c == UInt8(ascii: "\"") {
                        return true
                    } else if c == UInt8(ascii: "\\") {
                        guard i &+ 1 < buffer.count, buffer[i &+ 1] == UInt8(ascii: "/") else { return false }
                        target[o] = UInt8(ascii: "/")
                        i &+= 2
                    } else {
                        guard c >= 0x20, c < 0x80 else { return false }
                        if c == UInt8(ascii: "=") {
                            equals &+= 1
                            lastEquals = i
                        } else {
                            irregular = true
                        }
                        target[o] = c
                        i &+= 1
                    }
                    o &+= 1
                }
            }
        }
        guard found else { return nil }
        let end = i
        let length = o
        // Canonical base64, known from the pass: only alphabet characters, a length that is a multiple of 4,
        // `=` only as the last one or two, and zero pad bits in the character before them. (The raw byte before
        // the padding is that character: an escape's `/` or a plain one, never a backslash.) Text that is not
        // canonical is checked again, for the failure's reason and offset.
        var check: Result<Int, Base64.DecodingFailure>?
        if !irregular, length % 4 == 0 {
            if equals == 0 {
                check = .success(length / 4 * 3)
            } else if length >= 4, lastEquals == end - 1,
                equals == 1 || (equals == 2 && buffer[end - 2] == UInt8(ascii: "="))
            {
                let last = Base64.value(buffer[end - equals - 1])
                if last & (equals == 2 ? 0x0F : 0x03) == 0 { check = .success(length / 4 * 3 - equals) }
            }
        }
        if check == nil { check = Base64.validate(UnsafeBufferPointer(start: target, count: length)) }
        scanner.index = end + 1
        return (arenaCount..<(arenaCount + length), check ?? .success(0))
    }
}

/// Where one accepted token's text is in the reader's arena, and its kind.
struct TokenText {
    var kind: SelectionTokenKind
    var text: Range<Int>
}

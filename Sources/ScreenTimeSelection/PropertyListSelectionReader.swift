import StrictPropertyList

/// Reads a selection from a property list that has proved well formed (`SPEC.md` §1.1, "The property-list
/// formats"): the seven keys of §1 with plist types, a token being a dictionary whose `data` member is a data
/// object of 1…1024 bytes.
///
/// Rule: the first `schema` problem met in a depth-first walk (members in stored order) wins over any `token`
/// problem; a key repeated in any dictionary is `schema`. Source: Apple: PropertyListEncoder (`Data` is written as
/// a data object); Definition (the walk order).
struct PropertyListSelectionReader {
    private var schemaProblem: SelectionDecodingError?
    private var tokenProblem: SelectionDecodingError?
    private var selection = FamilyActivitySelection()
    private var writtenCounts: [SelectionTokenKind: Int] = [.application: 0, .category: 0, .webDomain: 0]
    private var byteCounts: [SelectionTokenKind: [Int]] = [.application: [], .category: [], .webDomain: []]
    private var unknownKeys: [String] = []
    private var includeEntireCategoryMissing = true

    /// The selection in `top`, or its first problem.
    static func read(_ top: PropertyListNode) -> Result<SelectionDecoder.Report, SelectionDecodingError> {
        var reader = PropertyListSelectionReader()
        reader.readTop(top)
        if let problem = reader.schemaProblem ?? reader.tokenProblem { return .failure(problem) }
        return .success(
            SelectionDecoder.Report(
                selection: reader.selection, writtenTokenCounts: reader.writtenCounts,
                tokenByteCounts: reader.byteCounts, unknownKeys: reader.unknownKeys,
                includeEntireCategoryMissing: reader.includeEntireCategoryMissing))
    }

    private mutating func schema(_ offset: Int, _ detail: @autoclosure () -> String) {
        if schemaProblem == nil {
            schemaProblem = SelectionDecodingError(.schema, at: offset, detail: detail(), in: .propertyList)
        }
    }

    private mutating func token(_ offset: Int, _ detail: @autoclosure () -> String) {
        if tokenProblem == nil {
            tokenProblem = SelectionDecodingError(.token, at: offset, detail: detail(), in: .propertyList)
        }
    }

    private mutating func readTop(_ top: PropertyListNode) {
        guard case .dictionary(let members) = top.value else {
            schema(top.offset, "the top level is not a dictionary")
            checkRepeatedKeys(in: top)
            return
        }
        var seen: Set<String> = []
        var seenArrays: Set<SelectionTokenKind> = []
        for member in members {
            let key = member.keyText
            if !seen.insert(key).inserted {
                schema(member.key.offset, "the key \"\(key)\" is repeated in one dictionary")
            }
            switch key {
            case "applicationTokens":
                seenArrays.insert(.application)
                readTokens(member.value, .application)
            case "categoryTokens":
                seenArrays.insert(.category)
                readTokens(member.value, .category)
            case "webDomainTokens":
                seenArrays.insert(.webDomain)
                readTokens(member.value, .webDomain)
            case "includeEntireCategory":
                includeEntireCategoryMissing = false
                if case .bool(let value) = member.value.value {
                    selection.includeEntireCategory = value
                } else {
                    schema(member.value.offset, "includeEntireCategory is not a boolean")
                    checkRepeatedKeys(in: member.value)
                }
            case "untokenizedApplicationIdentifiers":
                selection.untokenizedApplicationIdentifiers = readStrings(member.value, key)
            case "untokenizedCategoryIdentifiers":
                selection.untokenizedCategoryIdentifiers = readStrings(member.value, key)
            case "untokenizedWebDomainIdentifiers":
                selection.untokenizedWebDomainIdentifiers = readStrings(member.value, key)
            default:
                if !unknownKeys.contains(key) { unknownKeys.append(key) }
                checkRepeatedKeys(in: member.value)
            }
        }
        for (kind, name) in [
            (SelectionTokenKind.application, "applicationTokens"), (.category, "categoryTokens"),
            (.webDomain, "webDomainTokens"),
        ] where !seenArrays.contains(kind) {
            schema(top.offset, "the top-level dictionary has no \(name)")
        }
    }

    private mutating func readTokens(_ node: PropertyListNode, _ kind: SelectionTokenKind) {
        let name = kind.jsonKey
        guard case .array(let elements) = node.value else {
            schema(node.offset, "\(name) is not an array")
            checkRepeatedKeys(in: node)
            return
        }
        for (index, element) in elements.enumerated() {
            guard case .dictionary(let members) = element.value else {
                token(element.offset, "\(name)[\(index)] is not a dictionary")
                checkRepeatedKeys(in: element)
                continue
            }
            var seen: Set<String> = []
            var data: PropertyListNode?
            for member in members {
                let key = member.keyText
                if !seen.insert(key).inserted {
                    schema(member.key.offset, "the key \"\(key)\" is repeated in one dictionary")
                }
                if key == "data", data == nil { data = member.value } else { checkRepeatedKeys(in: member.value) }
            }
            guard let data else {
                token(element.offset, "\(name)[\(index)] has no data member")
                continue
            }
            guard case .data(let bytes) = data.value else {
                token(data.offset, "\(name)[\(index)].data is not a data object")
                checkRepeatedKeys(in: data)
                continue
            }
            if bytes.isEmpty {
                token(data.offset, "\(name)[\(index)].data holds no bytes")
                continue
            }
            if bytes.count > ApplicationToken.maximumByteCount {
                token(
                    data.offset,
                    "\(name)[\(index)].data is \(bytes.count) bytes, over \(ApplicationToken.maximumByteCount)")
                continue
            }
            writtenCounts[kind, default: 0] += 1
            let inserted: Bool
            switch kind {
            case .application: inserted = selection.applicationTokens.insert(ApplicationToken(bytes: bytes)).inserted
            case .category: inserted = selection.categoryTokens.insert(ActivityCategoryToken(bytes: bytes)).inserted
            case .webDomain: inserted = selection.webDomainTokens.insert(WebDomainToken(bytes: bytes)).inserted
            }
            if inserted { byteCounts[kind, default: []].append(bytes.count) }
        }
    }

    private mutating func readStrings(_ node: PropertyListNode, _ key: String) -> Set<UntokenizedIdentifier> {
        guard case .array(let elements) = node.value else {
            schema(node.offset, "\(key) is not an array of strings")
            checkRepeatedKeys(in: node)
            return []
        }
        var strings: Set<UntokenizedIdentifier> = []
        for element in elements {
            guard case .string(let text) = element.value else {
                schema(element.offset, "\(key) holds a value that is not a string")
                checkRepeatedKeys(in: element)
                continue
            }
            strings.insert(UntokenizedIdentifier(text))
        }
        return strings
    }

    /// Reports a key repeated in any dictionary inside `node` (`schema`, anywhere in the list).
    private mutating func checkRepeatedKeys(in node: PropertyListNode) {
        switch node.value {
        case .dictionary(let members):
            var seen: Set<String> = []
            for member in members {
                if !seen.insert(member.keyText).inserted {
                    schema(member.key.offset, "the key \"\(member.keyText)\" is repeated in one dictionary")
                }
                checkRepeatedKeys(in: member.value)
            }
        case .array(let elements):
            for element in elements { checkRepeatedKeys(in: element) }
        default:
            break
        }
    }
}

import ScreenTimeReference
import StrictJSON

extension OperationTable {
    /// `selection.decode`, `selection.equal`, `selection.order`, `selection.combine` (`SPEC.md` §5), read and
    /// written through ``SelectionWire``.
    static var selectionOperations: [Operation] {
        [
            Operation(
                name: "selection.decode", summary: "decode a stored selection in any format: counts and canonical form"
            ) {
                input in
                guard input.has("format") else {
                    // The direct canonical path: the same decoding and the same answer as through the selection's
                    // sets (SelectionDirectCanonicalTests), without building them.
                    return SelectionWire.output(try SelectionWire.canonicalForm(try input.string("base64")))
                }
                let format = try SelectionWire.format(input)
                return try SelectionWire.decodeOutput(try SelectionWire.storedValue(input, format), format)
            },
            Operation(name: "selection.equal", summary: "whether two stored selections hold the same sets") {
                (input: InputReader) throws -> JSONValue in
                let textA = try input.string("a")
                let textB: String
                do {
                    textB = try input.string("b")
                } catch {
                    _ = try SelectionWire.canonicalForm(textA)  // `a`'s decoding error comes before a missing `b`
                    throw error
                }
                do throws(SelectionDecodingError) {
                    return SelectionWire.equalOutput(
                        try SelectionDecoder.sameSelection(Array(textA.utf8), Array(textB.utf8)))
                } catch {
                    throw WireErrorCode(error.code.rawValue)
                }
            },
            Operation(name: "selection.order", summary: "one kind's token data strings in stable order") { input in
                let text = try input.string("base64")
                let kind = try SelectionWire.kind(input)
                let selection = try SelectionWire.selection(text)
                return SelectionWire.orderOutput(selection.orderedTokenData(of: kind))
            },
            Operation(name: "selection.encode", summary: "write a selection in a storage format") { input in
                let selection = try SelectionWire.selection(try input.string("selection"))
                let format = try SelectionWire.format(input)
                guard input.has("format"), format != .jsonDocument else {
                    throw BadInput("format must name a format of one selection, not \"json-document\"")
                }
                return try SelectionWire.encodeOutput(selection, format)
            },
            Operation(name: "selection.combine", summary: "union, intersection, difference or symmetric difference") {
                input in
                let operation = try SelectionWire.setOperation(input)
                let a = try SelectionWire.selection(try input.string("a"))
                let b = try SelectionWire.selection(try input.string("b"))
                return SelectionWire.output(a.combined(with: b, operation))
            },
        ]
    }
}

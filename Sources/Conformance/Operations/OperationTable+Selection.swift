import ScreenTimeReference
import StrictJSON

extension OperationTable {
    /// `selection.decode`, `selection.equal`, `selection.order`, `selection.combine` (`SPEC.md` §5), read and
    /// written through ``SelectionWire``.
    static var selectionOperations: [Operation] {
        [
            Operation(name: "selection.decode", summary: "decode a stored selection string: counts and canonical form")
            {
                input in
                // The direct canonical path: the same decoding and the same answer as through the selection's
                // sets (SelectionDirectCanonicalTests), without building them.
                SelectionWire.output(try SelectionWire.canonicalForm(try input.string("base64")))
            },
            Operation(name: "selection.equal", summary: "whether two stored selections hold the same sets") { input in
                let textA = try input.string("a")
                let a = try SelectionWire.canonicalForm(textA)
                let textB = try input.string("b")
                // The same bytes decode to the same selection (a failure would have been thrown for `a`
                // already), and a selection equals itself: one decode is enough.
                if CodePointString(textA) == CodePointString(textB) { return SelectionWire.equalOutput(true) }
                // Two selections are equal exactly when their canonical strings are (SPEC §1).
                return SelectionWire.equalOutput(a.base64 == (try SelectionWire.canonicalForm(textB)).base64)
            },
            Operation(name: "selection.order", summary: "one kind's token data strings in stable order") { input in
                let text = try input.string("base64")
                let kind = try SelectionWire.kind(input)
                let selection = try SelectionWire.selection(text)
                return SelectionWire.orderOutput(selection.orderedTokenData(of: kind))
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

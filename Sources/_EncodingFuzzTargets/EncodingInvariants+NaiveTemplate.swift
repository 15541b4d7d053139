extension EncodingInvariants {
    /// A second shield-text template implementation, written for clarity: at each `{`, look at the text up to
    /// the next brace; if that brace is `}` and the text is `key` or `key|fallback` with a valid key, it is a
    /// placeholder; otherwise the `{` is literal. Pieces are ranges of the template's bytes.
    struct NaiveTemplate {
        enum Piece {
            case literal(Range<Int>)
            case placeholder(key: Range<Int>, fallback: Range<Int>?)
        }

        static func isKeyByte(_ c: UInt8) -> Bool {
            isUnreserved(c) && c != UInt8(ascii: "~")
        }

        static let keyByteTable: [Bool] = table(isKeyByte)

        /// The pieces of template `t`, in order.
        struct Pieces: IteratorProtocol {
            let t: UnsafeBufferPointer<UInt8>
            /// The next `{` to look at, or `t.count`.
            var i: Int
            /// Where the current literal began.
            var literalStart = 0
            /// A placeholder found after a literal, returned next.
            var pending: Piece?

            init(_ t: UnsafeBufferPointer<UInt8>) {
                self.t = t
                i = firstIndex(of: UInt8(ascii: "{"), in: t, from: 0)
            }

            mutating func next() -> Piece? {
                if let piece = pending {
                    pending = nil
                    return piece
                }
                while i < t.count {  // t[i] is a `{`
                    let start = i
                    let nextOpen = firstIndex(of: UInt8(ascii: "{"), in: t, from: i + 1)
                    // The first `{` after this one, so also the first after a placeholder that ends before it.
                    i = nextOpen
                    // The next brace is a `}` when there is one before the next `{`.
                    let close = firstIndex(
                        of: UInt8(ascii: "}"), in: UnsafeBufferPointer(rebasing: t[..<nextOpen]), from: start + 1)
                    guard close < nextOpen else { continue }
                    let bar = firstIndex(
                        of: UInt8(ascii: "|"), in: UnsafeBufferPointer(rebasing: t[..<close]), from: start + 1)
                    let key = UnsafeBufferPointer(rebasing: t[(start + 1)..<bar])
                    guard !key.isEmpty,
                        keyByteTable.withUnsafeBufferPointer({ isKey in key.allSatisfy { isKey[Int($0)] } })
                    else { continue }
                    let placeholder = Piece.placeholder(
                        key: (start + 1)..<bar, fallback: bar < close ? (bar + 1)..<close : nil)
                    let literal = literalStart..<start
                    literalStart = close + 1
                    if literal.isEmpty { return placeholder }
                    pending = placeholder
                    return .literal(literal)
                }
                guard literalStart < t.count else { return nil }
                defer { literalStart = t.count }
                return .literal(literalStart..<t.count)
            }
        }

        /// Template `t` with the key of each placeholder for which `newName` gives a name replaced by that name
        /// (at most `longestName` bytes).
        static func unparse(
            _ t: UnsafeBufferPointer<UInt8>, longestName: Int, _ newName: (String) -> String?
        ) -> String {
            // A placeholder is at least 3 bytes and its key at least 1: renaming adds at most `longestName - 1`
            // bytes to each.
            let capacity = t.count + (t.count / 3) * max(longestName - 1, 0)
            if capacity == 0 { return "" }
            return String(unsafeUninitializedCapacity: capacity) { out in
                var o = 0
                var pieces = Pieces(t)
                while let piece = pieces.next() {
                    switch piece {
                    case .literal(let range): o = write(t[range], to: out, at: o)
                    case .placeholder(let keyRange, let fallback):
                        out[o] = UInt8(ascii: "{")
                        o += 1
                        if let name = newName(
                            String(decoding: UnsafeBufferPointer(rebasing: t[keyRange]), as: UTF8.self))
                        {
                            o = withUTF8(name) { write($0[...], to: out, at: o) }
                        } else {
                            o = write(t[keyRange], to: out, at: o)
                        }
                        if let fallback {
                            out[o] = UInt8(ascii: "|")
                            o = write(t[fallback], to: out, at: o + 1)
                        }
                        out[o] = UInt8(ascii: "}")
                        o += 1
                    }
                }
                return o
            }
        }

        /// Copies `part` to `out` at `o`; the offset after it.
        static func write(
            _ part: Slice<UnsafeBufferPointer<UInt8>>, to out: UnsafeMutableBufferPointer<UInt8>, at o: Int
        ) -> Int {
            guard let base = part.base.baseAddress, let target = out.baseAddress, !part.isEmpty else { return o }
            UnsafeMutableRawPointer(target + o).copyMemory(from: base + part.startIndex, byteCount: part.count)
            return o + part.count
        }

        // The same, as lists: for the tests and for saying what differs once a check failed.

        let bytes: [UInt8]
        let pieces: [Piece]
        /// The placeholder keys in order of first appearance, each once.
        let keys: [String]

        init(_ t: [UInt8]) {
            bytes = t
            var pieces: [Piece] = []
            var keys: [String] = []
            t.withUnsafeBufferPointer { t in
                var iterator = Pieces(t)
                while let piece = iterator.next() {
                    pieces.append(piece)
                    if case .placeholder(let key, _) = piece {
                        let name = String(decoding: UnsafeBufferPointer(rebasing: t[key]), as: UTF8.self)
                        if !keys.contains(name) { keys.append(name) }
                    }
                }
            }
            self.pieces = pieces
            self.keys = keys
        }

        func render(_ values: [String: String?]) -> (text: [UInt8], missing: [String]) {
            var text: [UInt8] = []
            var missing: [String] = []
            for piece in pieces {
                switch piece {
                case .literal(let range): text += bytes[range]
                case .placeholder(let keyRange, let fallback):
                    let key = String(decoding: bytes[keyRange], as: UTF8.self)
                    if !hasNoValue(key, values), let entry = values[key], let value = entry {
                        text += value.utf8
                    } else {
                        if !missing.contains(key) { missing.append(key) }
                        if let fallback { text += bytes[fallback] }
                    }
                }
            }
            return (text, missing)
        }
    }
}

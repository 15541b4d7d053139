#if STC_PLANTED_BUGS
    import StrictJSON

    // What the planted encoding bugs answer (StrictJSON's PlantedBug; bug-finding benchmark builds only).
    extension PercentEncoding {
        /// The planted encoding of `bytes` (UTF-8), or `nil` to go on as the reference does:
        /// `.alphanumericsEncoding` keeps every letter and digit of any script, as
        /// `addingPercentEncoding(withAllowedCharacters: .alphanumerics)` does, and escapes `-._~`;
        /// `.lowercaseHex` writes escapes in lower-case hex; `.plusForSpace` writes a space as `+`.
        static func plantedEncodeComponent(_ bytes: [UInt8]) -> String? {
            let alphanumerics = PlantedBug.isActive(.alphanumericsEncoding)
            let lowercase = PlantedBug.isActive(.lowercaseHex)
            let plus = PlantedBug.isActive(.plusForSpace)
            guard alphanumerics || lowercase || plus else { return nil }
            let digits = Array((lowercase ? "0123456789abcdef" : "0123456789ABCDEF").utf8)
            var out: [UInt8] = []
            func escape(_ byte: UInt8) {
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            }
            for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
                let utf8 = Array(String(scalar).utf8)
                if plus, scalar == " " {
                    out.append(UInt8(ascii: "+"))
                } else if alphanumerics {
                    let kept = scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                    if kept { out += utf8 } else { utf8.forEach(escape) }
                } else if utf8.count == 1, isUnreserved(utf8[0]) {
                    out += utf8
                } else {
                    utf8.forEach(escape)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
#endif

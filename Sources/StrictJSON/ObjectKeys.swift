/// The keys met so far in one JSON object, to find a repeated one: keys compare by code point (their UTF-8
/// bytes), as in JSON.
///
/// Built for validating objects that are not kept (``JSONScanner/skipValue()``, decoders reading a known shape):
/// plain keys stay byte ranges of the scanner's buffer (no `String`), and the first four keys are compared
/// directly, so a small object allocates nothing. From the fifth key on, all go into a hashed set, so an object
/// with many keys stays linear.
package struct ObjectKeys {
    private var small: (JSONScanner.MemberKey?, JSONScanner.MemberKey?, JSONScanner.MemberKey?, JSONScanner.MemberKey?)
    private var count = 0
    private var large: Set<Key> = []

    package init() {}

    /// Adds `key`, read by `scanner`; returns whether it was new.
    package mutating func insert(_ key: JSONScanner.MemberKey, of scanner: JSONScanner) -> Bool {
        let buffer = scanner.buffer
        if count < 4 {
            for i in 0..<count { if let k = stored(i), Self.equal(k, key, buffer) { return false } }
            switch count {
            case 0: small.0 = key
            case 1: small.1 = key
            case 2: small.2 = key
            default: small.3 = key
            }
            count += 1
            return true
        }
        if count == 4 {
            large.reserveCapacity(8)
            for i in 0..<4 { if let k = stored(i) { large.insert(Key(key: k, buffer: buffer)) } }
        }
        count += 1
        return large.insert(Key(key: key, buffer: buffer)).inserted
    }

    private func stored(_ i: Int) -> JSONScanner.MemberKey? {
        switch i {
        case 0: small.0
        case 1: small.1
        case 2: small.2
        default: small.3
        }
    }

    static func equal(_ a: JSONScanner.MemberKey, _ b: JSONScanner.MemberKey, _ buffer: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        a.withBytes(in: buffer) { x in b.withBytes(in: buffer) { y in UTF8Bytes.equal(x, y) } }
    }

    /// A key with the buffer its range refers to (valid while the scanner's buffer is).
    private struct Key: Hashable {
        let key: JSONScanner.MemberKey
        let buffer: UnsafeBufferPointer<UInt8>

        static func == (a: Key, b: Key) -> Bool { ObjectKeys.equal(a.key, b.key, a.buffer) }

        func hash(into hasher: inout Hasher) {
            key.withBytes(in: buffer) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            hasher.combine(0xFF as UInt8)  // terminator: UTF-8 never holds 0xFF
        }
    }
}

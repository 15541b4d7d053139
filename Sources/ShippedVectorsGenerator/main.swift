// Writes the Swift file that builds the shipped conformance suites into the ShippedVectors module. The build-tool
// plugin Plugins/EmbedShippedVectors runs it at build time over every corpus/conformance/*.json; nothing else
// should need to.
//
//     ShippedVectorsGenerator OUTPUT.swift SUITE.json...
//
// Each file becomes `EmbeddedFile(name:utf8:)` with its text as one string literal (escaped so that the literal's
// UTF-8 is exactly the file's bytes), or `EmbeddedFile(name:bytes:)` when the file is not UTF-8, so that what is
// built in is always the file itself, and the suite loader reports what is wrong with it.
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ShippedVectorsGenerator: \(message)\n".utf8))
    exit(1)
}

/// The Swift string literal (quotes included) whose value is `text`.
func literal(_ text: String) -> String {
    var out = "\""
    out.reserveCapacity(text.utf8.count + text.utf8.count / 8 + 2)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            out += "\\u{" + String(scalar.value, radix: 16) + "}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else { fail("usage: ShippedVectorsGenerator OUTPUT.swift SUITE.json...") }
var code = """
    // Generated at build time by ShippedVectorsGenerator from \(arguments.count - 1) file(s) of corpus/conformance.
    // Do not edit: edit the files (or scripts/make-vectors.py, which writes them) and build again.

    extension ShippedVectors {
        static let embeddedFiles: [EmbeddedFile] = [

    """
for path in arguments.dropFirst() {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    let name = literal(URL(fileURLWithPath: path).lastPathComponent)
    if let text = String(validating: data, as: UTF8.self) {
        code += "        EmbeddedFile(name: \(name), utf8: \(literal(text))),\n"
    } else {
        code += "        EmbeddedFile(name: \(name), bytes: [\(data.map { String($0) }.joined(separator: ","))]),\n"
    }
}
code += "    ]\n}\n"
do {
    try Data(code.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    fail("cannot write \(output): \(error)")
}

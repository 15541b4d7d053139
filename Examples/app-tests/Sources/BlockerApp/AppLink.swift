import Foundation

/// The links the shield's button opens: `blocker://open?app=<name>`.
public enum AppLink {
    public static func open(app name: String) -> URL? {
        URL(string: "blocker://open?app=" + encode(name))
    }

    /// The name with every character that is not a letter or a digit written as `%XX` escapes of its UTF-8 bytes.
    public static func encode(_ name: String) -> String {
        var encoded = ""
        for scalar in name.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                encoded.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 { encoded += String(format: "%%%02X", byte) }
            }
        }
        return encoded
    }

    public static func decode(_ component: String) throws -> String {
        guard let text = component.removingPercentEncoding else { throw AppLinkError.malformed(component) }
        return text
    }
}

public enum AppLinkError: Error, Equatable {
    case malformed(String)
}

/// Writes property lists (stub until the writers land).
public enum PropertyListWriter {
    public static func binary(_ node: PropertyListNode) -> [UInt8] { [] }
    public static func xml(_ node: PropertyListNode) -> [UInt8] { [] }
}

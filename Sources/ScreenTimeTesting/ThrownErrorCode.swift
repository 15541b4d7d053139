import Conformance

/// How an error thrown by one of an implementation's closures becomes the answer's error code.
///
/// Rule: the implementation's own mapping first; then the codes of the reference's errors and the wire's
/// (`WireErrorCode.code(of:)`: `SelectionDecodingError`, `SelectionEncodingError`, `PercentDecodingError`, `ShieldLimitExceeded`, any
/// `CodedError`, `BadInput`), and a `DeviceActivityCenter.MonitoringError` by its case's name; any other error is `unknown error: ` and what was thrown, a code no expectation
/// names. Source: `SPEC.md` §5 (the codes); the unknown code is the kit's own (assumption: an adapter answers
/// only the spec's codes, so an unmapped error is always a deviation worth seeing).
///
/// ```swift
/// let call = ThrownErrorCode(mapping: { ($0 as? LinkError).map { _ in "invalidPercentEncoding" } })
/// try call { try DeepLink.decode(text) }   // a LinkError is rethrown as the code invalidPercentEncoding
/// ThrownErrorCode.code(of: MyError.foo, mapping: { _ in nil })   // "unknown error: MyError.foo"
/// ```
struct ThrownErrorCode: Sendable {
    let mapping: ScreenTimeImplementation.ErrorCodeMapping

    /// `body`'s result; an error it throws is rethrown as a `WireErrorCode` holding its code.
    func callAsFunction<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw WireErrorCode(Self.code(of: error, mapping: mapping))
        }
    }

    static func code(of error: any Error, mapping: ScreenTimeImplementation.ErrorCodeMapping) -> String {
        if let code = mapping(error) { return code }
        if let code = WireErrorCode.code(of: error) { return code }
        if let error = error as? DeviceActivityCenter.MonitoringError { return String(describing: error) }
        return "unknown error: " + describe(error)
    }

    /// `TYPE.CASE` for an enum case (`MyError.foo`, `MyError.bad(3)`), the description itself when it starts with
    /// the type's name (`Oops(line: 3)`), else `TYPE.description`.
    static func describe(_ error: any Error) -> String {
        let type = String(describing: Swift.type(of: error))
        let text = String(describing: error)
        return text.hasPrefix(type) ? text : type + "." + text
    }
}

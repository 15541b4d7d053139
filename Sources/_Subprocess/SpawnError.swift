#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a child process could not be started.
///
/// ```swift
/// do { _ = try Subprocess.run(Command("no-such-tool")) } catch .executableNotFound(let name) { print(name) }
/// ```
public enum SpawnError: Error, Equatable, CustomStringConvertible {
    /// No such file, or no such name in `PATH`.
    case executableNotFound(String)
    /// The file exists and cannot be run (`posix_spawn`'s error number).
    case cannotExecute(String, errno: Int32)
    /// The working directory does not exist or is not a directory.
    case noSuchDirectory(String)
    /// A file named for standard input or output could not be opened.
    case cannotOpen(String, errno: Int32)
    /// A system call failed (`pipe`, `posix_spawn`).
    case system(String, errno: Int32)

    public var description: String {
        switch self {
        case .executableNotFound(let name): return "\(name): no such executable"
        case .cannotExecute(let path, let number): return "cannot run \(path): \(Self.text(number))"
        case .noSuchDirectory(let path): return "\(path): no such directory"
        case .cannotOpen(let path, let number): return "cannot open \(path): \(Self.text(number))"
        case .system(let call, let number): return "\(call): \(Self.text(number))"
        }
    }

    static func text(_ number: Int32) -> String { String(cString: strerror(number)) }
}

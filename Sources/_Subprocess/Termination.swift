#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a child process ended: its exit code, or the signal that killed it.
///
/// ```swift
/// Termination.exited(1).description      // "exit status 1"
/// Termination.signaled(11).description   // "killed by signal 11 (SIGSEGV)"
/// ```
public enum Termination: Sendable, Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)
    /// `waitpid` failed (something else reaped the child): how it ended is not known.
    case unknown(errno: Int32)

    /// Decodes a `waitpid` status.
    ///
    /// - Parameter status: What `waitpid` stored.
    public init(waitStatus status: Int32) {
        let low = status & 0x7F
        self = low == 0 ? .exited((status >> 8) & 0xFF) : .signaled(low)
    }

    /// The status a shell's `$?` shows: the exit code, or 128 plus the signal (-1 when unknown).
    public var shellStatus: Int32 {
        switch self {
        case .exited(let code): return code
        case .signaled(let signal): return 128 + signal
        case .unknown: return -1
        }
    }

    /// "exit status 1", "killed by signal 11 (SIGSEGV)"; an exit status above 128 says it is how a shell reports
    /// a child killed by a signal.
    public var description: String {
        switch self {
        case .exited(let code) where code > 128:
            return
                "exit status \(code) (a shell reports a child killed by signal \(code - 128)\(Self.signalName(code - 128)))"
        case .exited(let code):
            return "exit status \(code)"
        case .signaled(let signal):
            return "killed by signal \(signal)\(Self.signalName(signal))"
        case .unknown(let number):
            return "could not be reaped (\(String(cString: strerror(number))))"
        }
    }

    /// " (SIGSEGV)" for the signals a crash or a kill sends, "" for the others.
    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGSEGV: return " (SIGSEGV)"
        case SIGABRT: return " (SIGABRT)"
        case SIGILL: return " (SIGILL)"
        case SIGTRAP: return " (SIGTRAP, a Swift trap)"
        case SIGBUS: return " (SIGBUS)"
        case SIGFPE: return " (SIGFPE)"
        case SIGKILL: return " (SIGKILL)"
        case SIGTERM: return " (SIGTERM)"
        case SIGPIPE: return " (SIGPIPE)"
        default: return ""
        }
    }
}

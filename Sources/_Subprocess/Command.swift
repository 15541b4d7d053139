import Foundation

/// A program to start: its executable, arguments, environment, working directory and process group.
///
/// Rule: an `executable` without a `/` is looked up in the `PATH` of the command's environment, as a shell does;
/// a relative path with a `/` is taken from this process's working directory, not from `directory`.
///
/// ```swift
/// let build = Command("swift", ["build"], directory: "/path/to/package")
/// let script = Command.shell("python3 adapter.py | tee log")
/// ```
public struct Command: Sendable, Equatable {
    /// A path, or a name looked up in `PATH`.
    public var executable: String
    public var arguments: [String]
    /// The child's whole environment (by default this process's, as it was when the command was made).
    public var environment: [String: String]
    /// The child's working directory; nil: this process's.
    public var directory: String?
    /// Whether the child leads a process group of its own (the default).
    ///
    /// Why: a program may start children of its own (`/bin/sh -c` forks the real program; `swift test` starts
    /// test processes), and killing a hung or timed-out run must kill them too, or they keep its pipes open and
    /// the run never sees end of file. A group of its own also means a terminal's Ctrl-C does not reach the
    /// child: a command that runs a foreground job for a user (a build, a fuzzer) sets this to false, and a time
    /// limit then kills the child alone.
    public var newProcessGroup: Bool

    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        directory: String? = nil, newProcessGroup: Bool = true
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment ?? ProcessInfo.processInfo.environment
        self.directory = directory
        self.newProcessGroup = newProcessGroup
    }

    /// `/bin/sh -c script`.
    public static func shell(
        _ script: String, environment: [String: String]? = nil, directory: String? = nil, newProcessGroup: Bool = true
    ) -> Command {
        Command(
            "/bin/sh", ["-c", script], environment: environment, directory: directory,
            newProcessGroup: newProcessGroup)
    }

    /// This command with environment variables set, or removed where the value is nil.
    public func setting(_ changes: [String: String?]) -> Command {
        var copy = self
        for (name, value) in changes { copy.environment[name] = value }
        return copy
    }

    /// `text` as one word for `/bin/sh`: bare when it holds only characters the shell leaves alone, else in
    /// single quotes.
    public static func shellQuoted(_ text: String) -> String {
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_./=:,+@%^".contains($0)) })
        {
            return text
        }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The first executable file called `name` in the directories of `path` (by default this process's `PATH`).
    public static func which(_ name: String, path: String? = nil) -> String? {
        let directories = (path ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in directories {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The path `posix_spawn` gets: `executable` resolved as the type's rule says.
    func resolvedExecutable() throws(SpawnError) -> String {
        if executable.contains("/") {
            let path =
                executable.hasPrefix("/")
                ? executable : FileManager.default.currentDirectoryPath + "/" + executable
            guard FileManager.default.fileExists(atPath: path) else { throw .executableNotFound(executable) }
            return path
        }
        guard !executable.isEmpty, let found = Self.which(executable, path: environment["PATH"] ?? "/usr/bin:/bin")
        else { throw .executableNotFound(executable) }
        return found
    }
}

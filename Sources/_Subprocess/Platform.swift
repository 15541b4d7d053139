import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system calls `SpawnedProcess` needs that not every platform's Swift module declares.
///
/// Rule: a child gets no descriptor of this process but 0, 1 and 2, even when several threads spawn at once.
/// Darwin's `POSIX_SPAWN_CLOEXEC_DEFAULT` does that in one flag. glibc has `posix_spawn_file_actions_addclosefrom_np`
/// (2.34), `posix_spawn_file_actions_addchdir_np` (2.29) and `pipe2`, which its Swift module leaves out (they are
/// declared for `_GNU_SOURCE` only), so they are looked up with `dlsym`. Where one is missing (an older glibc,
/// a static musl binary), pipes are made close-on-exec under a lock that every spawn of this module takes, and a
/// shell changes the working directory.
enum Platform {
    #if canImport(Darwin)
        typealias FileActions = posix_spawn_file_actions_t?
    #else
        typealias FileActions = posix_spawn_file_actions_t
    #endif
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<FileActions>, Int32) -> Int32
    typealias AddChangeDirectory = @convention(c) (UnsafeMutablePointer<FileActions>, UnsafePointer<CChar>) -> Int32
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

    static func symbol<T>(_ name: String, as type: T.Type) -> T? {
        #if canImport(Darwin)
            return nil
        #else
            guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, name) else { return nil }
            return unsafeBitCast(address, to: type)
        #endif
    }

    static let addCloseFrom = symbol("posix_spawn_file_actions_addclosefrom_np", as: AddCloseFrom.self)
    static let addChangeDirectory = symbol(
        "posix_spawn_file_actions_addchdir_np", as: AddChangeDirectory.self)
    static let pipe2 = symbol("pipe2", as: Pipe2.self)

    /// Where a child could inherit a descriptor another thread opened without close-on-exec yet, making a pipe
    /// and spawning take this lock, so that no spawn falls between a `pipe` and its `fcntl`.
    static let pipeLock = NSLock()

    #if canImport(Darwin)
        static let closeOthersFlag = Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        static let canChangeDirectoryInSpawn = true
    #else
        static let closeOthersFlag: Int32 = 0
        static var canChangeDirectoryInSpawn: Bool { addChangeDirectory != nil }
    #endif

    /// The child could inherit a stray descriptor: nothing closes the others in it.
    static var needsPipeLock: Bool { closeOthersFlag == 0 && addCloseFrom == nil }

    /// Runs `body` under ``pipeLock`` where ``needsPipeLock``.
    static func locked<T>(_ body: () -> T) -> T {
        guard needsPipeLock else { return body() }
        pipeLock.lock()
        defer { pipeLock.unlock() }
        return body()
    }

    /// Closes every descriptor above 2 in the child, after the `dup2` actions (Linux; Darwin uses the flag).
    static func closeOthers(_ actions: inout FileActions) {
        if let addCloseFrom { _ = addCloseFrom(&actions, 3) }
    }

    static func changeDirectory(_ actions: inout FileActions, _ directory: String) {
        #if canImport(Darwin)
            _ = posix_spawn_file_actions_addchdir_np(&actions, directory)
        #else
            if let addChangeDirectory { _ = addChangeDirectory(&actions, directory) }
        #endif
    }

    /// A pipe (read end, write end) whose ends are both close-on-exec; nil with `errno` set when it fails.
    static func makePipe() -> (Int32, Int32)? {
        var fds: [Int32] = [-1, -1]
        if let pipe2 {
            guard pipe2(&fds, O_CLOEXEC) == 0 else { return nil }
            return (fds[0], fds[1])
        }
        return locked {
            guard pipe(&fds) == 0 else { return nil }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return (fds[0], fds[1])
        }
    }

    /// Ignores `SIGPIPE` in this process once, so that writing to a child that closed its stdin returns `EPIPE`
    /// instead of killing this process.
    static func ignoreSIGPIPE() { _ = ignoredSIGPIPE }

    private static let ignoredSIGPIPE: Bool = {
        signal(SIGPIPE, SIG_IGN)
        return true
    }()
}

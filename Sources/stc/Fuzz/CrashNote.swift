import _CommandSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Prints which input was running if a harness body traps during an in-process replay.
enum CrashNote {
    nonisolated(unsafe) private static var note: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var installed = false

    static func set(_ text: String) {
        if !installed {
            installed = true
            for sig in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE] {
                signal(sig, crashNoteHandler)
            }
        }
        let old = note
        note = strdup(text)
        free(old)
    }

    fileprivate static func write(_ sig: Int32) {
        guard let note else { return }
        _ = writeToDescriptor(2, note, strlen(note))
    }
}

private func writeToDescriptor(_ fd: Int32, _ p: UnsafePointer<CChar>, _ n: Int) -> Int {
    write(fd, p, n)
}

private func crashNoteHandler(_ sig: Int32) {
    CrashNote.write(sig)
    signal(sig, SIG_DFL)
    raise(sig)
}

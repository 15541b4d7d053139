import Foundation
import _CommandSupport
import _FuzzCorpus

/// Child processes: the Fuzz build and the fuzzer binaries.
enum FuzzProcess {
    struct Output {
        var status: Int32
        var crashedBySignal: Bool
        var text: String
    }

    /// The environment for fuzzer binaries: Swift's backtracer off, or traps look like ASan reports and
    /// libFuzzer never writes the crashing input.
    ///
    /// `throughput`: the ASan options for fuzzing (not for replaying a crash), ``throughputASanDefaults``.
    static func fuzzerEnvironment(throughput: Bool = false) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        if throughput { env["ASAN_OPTIONS"] = FuzzDefaults.throughputASanOptions(env["ASAN_OPTIONS"]) }
        return env
    }

    /// Runs `executable` with `arguments`; stdout and stderr are merged and passed line by line to `onLine`
    /// (and collected, up to `keep` bytes from the end).
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: String? = nil, keep: Int = 1 << 20, onLine: (String) -> Void = { _ in }
    ) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let reader = pipe.fileHandleForReading
        var pending: [UInt8] = []
        var collected: [UInt8] = []
        func emit(_ line: ArraySlice<UInt8>) {
            onLine(String(decoding: line, as: UTF8.self))
        }
        while true {
            let data = reader.availableData
            if data.isEmpty { break }
            collected.append(contentsOf: data)
            if collected.count > keep * 2 { collected.removeFirst(collected.count - keep) }
            pending.append(contentsOf: data)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                emit(pending[..<newline])
                pending.removeSubrange(...newline)
            }
        }
        if !pending.isEmpty { emit(pending[...]) }
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, crashedBySignal: process.terminationReason == .uncaughtSignal,
            text: String(decoding: collected.suffix(keep), as: UTF8.self))
    }

    /// Runs `executable` to the end with its standard output and standard error kept apart (for a command whose
    /// output is read, such as `swift package dump-package`).
    static func capture(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil
    ) throws -> (status: Int32, stdout: [UInt8], stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read standard error on another thread, so that neither pipe can fill up and block the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, [UInt8](outData), String(decoding: errData, as: UTF8.self))
    }

    /// Whether the libFuzzer in `binary` knows `flag` (its `-help=1` lists it). An older libFuzzer warns about a
    /// flag it does not know and carries on without it: a merge flag it ignores would start a fuzzing run.
    static func accepts(_ binary: String, flag: String) throws -> Bool {
        let help = try run(binary, ["-help=1"], environment: fuzzerEnvironment())
        return help.text.split(separator: "\n").contains { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) == flag
        }
    }

    /// `swift` on the PATH (SwiftPM itself).
    static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

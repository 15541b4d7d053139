import Conformance

/// An implementation served over the adapter protocol (`SPEC.md` §5), so that `stc conformance --adapter` and
/// `stc explore --adapter` test it in a process of its own.
///
/// Rule: the same answers as the in-process checks give (the same wire parsing and writing, the same error
/// codes), for every operation with a closure, those in `mayTrap` included; the others answer `unsupported`. A
/// trap costs one request, not the run: on Linux the adapter is a fork server (`SPEC.md` §5.4), whose worker
/// answers the requests and is forked again after a trap, so the runner records `crash` for the request that
/// trapped and goes on without starting a process. Elsewhere (Darwin, or `STC_FORK_SERVER=0`) a trap ends the
/// adapter; each answer is written as soon as it is made, so the runner still blames the right request, restarts
/// the adapter and goes on. Use it for code that may trap, and to run the vectors from CI with the reports
/// `stc conformance` writes.
///
/// ```swift
/// // Sources/my-adapter/main.swift
/// import ScreenTimeTesting
/// ScreenTimeAdapter.serve(app)
/// ```
/// then `stc conformance --adapter .build/debug/my-adapter --name mine`.
public enum ScreenTimeAdapter {
    /// Answers requests on standard input until it ends.
    ///
    /// - Parameter implementation: The code served, every closure's operation included (`mayTrap` too).
    public static func serve(_ implementation: ScreenTimeImplementation) {
        AdapterServer.serveSurvivingTraps(perform: WireOperations(implementation).perform)
    }
}

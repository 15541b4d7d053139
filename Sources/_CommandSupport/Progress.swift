import Foundation

/// Progress on stderr for long runs: redrawn in place on a terminal (at most 10 times a second); elsewhere one
/// line every 10 s with the seconds so far, and only once a run has lasted 10 s (short runs in CI logs print
/// nothing).
///
/// ```swift
/// let progress = Progress(enabled: !quiet)
/// progress.show("reference: 120/563 cases")
/// progress.finish()
/// ```
public final class Progress {
    public let enabled: Bool
    public let terminal = Console.stderrIsTerminal
    public let clock = ContinuousClock()
    public let start: ContinuousClock.Instant
    public var lastDraw: ContinuousClock.Instant?
    public var drewLine = false

    public init(enabled: Bool) {
        self.enabled = enabled
        start = clock.now
    }

    /// Shows `text` (built only when it is shown) if the last line is old enough, or at once when `final`.
    public func show(_ text: @autoclosure () -> String, final: Bool = false) {
        guard enabled else { return }
        let now = clock.now
        if terminal {
            guard lastDraw.map({ now - $0 >= .milliseconds(100) }) ?? true || final else { return }
            lastDraw = now
            Console.write("\r\u{1B}[K\(text())", to: 2)
            drewLine = true
        } else {
            guard now - start >= .seconds(10), lastDraw.map({ now - $0 >= .seconds(10) }) ?? true else { return }
            lastDraw = now
            Console.write("\(text()) (\((now - start).components.seconds) s)\n", to: 2)
        }
    }

    /// Clears the line drawn on a terminal.
    public func finish() {
        if drewLine { Console.write("\r\u{1B}[K", to: 2) }
        drewLine = false
    }
}

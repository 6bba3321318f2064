import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the demo writes: standard output when run, a buffer in tests.
///
/// Steps write through this rather than `print`, so that tests can read what they said.
public struct DemoOutput: Sendable {
    /// Whether the output is a terminal, where a progress bar may redraw itself in place.
    public let isTerminal: Bool
    private let sink: @Sendable (String) -> Void

    /// Creates an output that hands every piece of text to `write`.
    public init(isTerminal: Bool, write: @escaping @Sendable (String) -> Void) {
        self.isTerminal = isTerminal
        self.sink = write
    }

    /// Standard output, unbuffered so that progress and results appear as they happen.
    public static var standardOutput: DemoOutput {
        DemoOutput(isTerminal: isatty(STDOUT_FILENO) == 1) { text in
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }

    /// Writes `text` as it is, without a line break.
    public func write(_ text: String) {
        sink(text)
    }

    /// Writes `text` and a line break.
    public func line(_ text: String = "") {
        sink(text + "\n")
    }

    /// Writes `text` wrapped to 80 columns.
    public func paragraph(_ text: String) {
        for line in TextLayout.wrap(text) {
            self.line(line)
        }
    }
}

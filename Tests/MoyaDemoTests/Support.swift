import Foundation
import MoyaDemoKit
import NIOConcurrencyHelpers

/// Collects what the demo writes, for tests to read.
final class CapturedOutput: Sendable {
    private let text = NIOLockedValueBox("")
    let output: DemoOutput

    init(isTerminal: Bool = false) {
        let text = self.text
        output = DemoOutput(isTerminal: isTerminal) { piece in
            text.withLockedValue { $0 += piece }
        }
    }

    /// Everything written so far.
    var contents: String { text.withLockedValue { $0 } }

    /// The lines as a terminal would show them, a carriage return starting a line too.
    var lines: [Substring] { contents.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" } }
}

/// One embedded server for the whole test run, started by the first test that needs it.
enum SharedServer {
    private static let running = _Concurrency.Task { try await DemoServer.start() }

    /// Starts the server if needed and points the demo's target at it.
    static func use() async throws {
        DemoConfiguration.baseURL = try await running.value.url
    }
}

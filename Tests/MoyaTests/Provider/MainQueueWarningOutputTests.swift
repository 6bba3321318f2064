import Foundation
import Logging
import Testing

@testable import Moya

/// The main-queue warning is printed once: through swift-log, whose default handler already
/// writes to standard error, and not straight to standard error as well.
@Suite("The main-queue warning's output")
struct MainQueueWarningOutputTests {
    /// Runs `body` with standard error sent to a file; returns what was written there.
    private func standardError(during body: () -> Void) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("moya-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        fflush(nil)
        let saved = dup(STDERR_FILENO)
        dup2(handle.fileDescriptor, STDERR_FILENO)
        body()
        fflush(nil)
        dup2(saved, STDERR_FILENO)
        close(saved)
        try handle.close()
        return try String(contentsOf: file, encoding: .utf8)
    }

    @Test func theWarningIsOneLogRecordAndNothingWrittenStraightToStandardError() throws {
        let records = Synchronized<[Logger.Metadata]>([])
        let logger = Logger(label: "watchdog") { _ in MetadataRecordingLogHandler(records: records) }
        let written = try standardError {
            MainQueueWatchdog.warn(MainQueueWatchdog.message, to: logger)
        }
        #expect(records.update { $0.count } == 1)
        #expect(!written.contains("dispatchMain()"), "printed on standard error besides the log: \(written)")
    }
}

import Foundation
import NIOConcurrencyHelpers
import NIOHTTP1

/// Tells a transfer's progress listener how far the upload or the download got.
///
/// Runs `StateMachine`'s rules; builds a `Progress` only when someone listens, since most
/// requests have no listener and a `Progress` per chunk is not free.
final class ProgressReporter: Sendable {
    private let state: NIOLockedValueBox<StateMachine>
    private let wantsProgress: @Sendable () -> Bool
    private let onProgress: @Sendable (Progress) -> Void

    /// - Parameter uploadLength: the request body's size for an upload task, which reports
    ///   upload progress; `nil` for the others, which report download progress.
    init(
        uploadLength: Int64?,
        wantsProgress: @escaping @Sendable () -> Bool,
        onProgress: @escaping @Sendable (Progress) -> Void
    ) {
        self.state = NIOLockedValueBox(StateMachine(uploadLength: uploadLength))
        self.wantsProgress = wantsProgress
        self.onProgress = onProgress
    }

    func sent(_ count: Int) {
        report(state.withLockedValue { $0.sent(count) })
    }

    func receivedHead(_ head: HTTPResponseHead) {
        let contentLength = head.headers.first(name: "Content-Length").flatMap { Int64($0) }
        state.withLockedValue { $0.receivedHead(contentLength: contentLength) }
    }

    func received(_ count: Int) {
        report(state.withLockedValue { $0.received(count) })
    }

    private func report(_ report: StateMachine.Report?) {
        guard let report, wantsProgress() else { return }
        let progress = Progress(totalUnitCount: report.total)
        progress.completedUnitCount = report.completed
        onProgress(progress)
    }
}

import Foundation
import NIOHTTP1

/// Tells a transfer's progress listener how far the upload or the download got.
///
/// The counts live in a `StateMachine` that the transfer keeps under the lock it already
/// holds for the response (see `TransferDelegate`), rather than behind a lock of their own:
/// that is one object and one lock fewer per request. This part only delivers reports, and
/// builds a `Progress` only when someone listens, since most requests have no listener and a
/// `Progress` per chunk is not free.
struct ProgressReporter: Sendable {
    private let wantsProgress: @Sendable () -> Bool
    private let onProgress: @Sendable (Progress) -> Void

    init(
        wantsProgress: @escaping @Sendable () -> Bool,
        onProgress: @escaping @Sendable (Progress) -> Void
    ) {
        self.wantsProgress = wantsProgress
        self.onProgress = onProgress
    }

    /// The `Content-Length` of a response head, for `StateMachine.receivedHead(contentLength:)`.
    static func contentLength(of head: HTTPResponseHead) -> Int64? {
        head.headers.first(name: "Content-Length").flatMap { Int64($0) }
    }

    /// Hands `report` to the listener, if there is a report and someone listens. Call it
    /// outside the lock that guards the state machine: the listener's code runs here.
    func deliver(_ report: StateMachine.Report?) {
        guard let report, wantsProgress() else { return }
        let progress = Progress(totalUnitCount: report.total)
        progress.completedUnitCount = report.completed
        onProgress(progress)
    }
}

import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// Receives one response: keeps the body in memory or writes it to a temporary file, reports
/// progress, and fails the request when no bytes move for the idle timeout.
///
/// Delegate calls arrive on the request's event loop; the lock guards against the calls made
/// from the thread that started the request.
final class TransferDelegate: HTTPClientResponseDelegate {
    /// What the transfer produced.
    struct Outcome: Sendable {
        var head: HTTPResponseHead
        var url: URL
        var body: ByteBuffer
        var downloadedFile: URL?
    }

    enum Sink {
        case memory
        /// A new file in the given directory.
        case temporaryFile(in: URL)
    }

    private struct State {
        var url: URL?
        var head: HTTPResponseHead?
        var body = ByteBuffer()
        var temporaryFile: URL?
        var fileHandle: FileHandle?
        var uploaded: Int64 = 0
        var downloaded: Int64 = 0
        /// The response's `Content-Length`, or -1 when it has none.
        var expectedLength: Int64 = -1
        var idleTimer: Scheduled<Void>?
        var idleTimerStarted = false
        /// When bytes last moved: the idle timer checks it instead of being rescheduled for
        /// every chunk.
        var lastActivity = NIODeadline.now()
        var finished = false
    }

    typealias Response = Outcome

    private let sink: Sink
    /// Moya reports upload progress for upload tasks and download progress for the others.
    private let uploadLength: Int64?
    private let idleTimeout: TimeAmount
    private let wantsProgress: @Sendable () -> Bool
    private let onProgress: @Sendable (Progress) -> Void
    private let state = NIOLockedValueBox(State())

    init(
        sink: Sink,
        uploadLength: Int64?,
        idleTimeout: TimeAmount,
        wantsProgress: @escaping @Sendable () -> Bool,
        onProgress: @escaping @Sendable (Progress) -> Void
    ) {
        self.sink = sink
        self.uploadLength = uploadLength
        self.idleTimeout = idleTimeout
        self.wantsProgress = wantsProgress
        self.onProgress = onProgress
    }

    /// The temporary file a download wrote, to remove when the request fails.
    var temporaryFile: URL? {
        state.withLockedValue { $0.temporaryFile }
    }

    // MARK: Idle timeout

    /// Records that bytes moved; starts the idle timer on the first call.
    private func touch(_ task: HTTPClient.Task<Response>) {
        let start = state.withLockedValue { state -> Bool in
            state.lastActivity = .now()
            guard !state.idleTimerStarted, !state.finished else { return false }
            state.idleTimerStarted = true
            return true
        }
        if start {
            scheduleIdleCheck(task, at: NIODeadline.now() + idleTimeout)
        }
    }

    /// At `deadline`, fails the request if nothing moved for the idle timeout, or checks again
    /// when it would be.
    private func scheduleIdleCheck(_ task: HTTPClient.Task<Response>, at deadline: NIODeadline) {
        let timeout = idleTimeout
        let timer = task.eventLoop.scheduleTask(deadline: deadline) {
            let next = self.state.withLockedValue { state -> NIODeadline? in
                guard !state.finished else { return nil }
                return state.lastActivity + timeout
            }
            guard let next else { return }
            if next <= .now() {
                task.fail(reason: TransferTimeout(seconds: Double(timeout.nanoseconds) / 1e9).asURLError)
            } else {
                self.scheduleIdleCheck(task, at: next)
            }
        }
        let stale = state.withLockedValue { state -> Bool in
            guard !state.finished else { return true }
            state.idleTimer = timer
            return false
        }
        if stale {
            timer.cancel()
        }
    }

    private func stopTimer() {
        let timer = state.withLockedValue { state -> Scheduled<Void>? in
            state.finished = true
            defer { state.idleTimer = nil }
            return state.idleTimer
        }
        timer?.cancel()
    }

    // MARK: Upload

    func didSendRequestHead(task: HTTPClient.Task<Response>, _ head: HTTPRequestHead) {
        touch(task)
    }

    func didSendRequestPart(task: HTTPClient.Task<Response>, _ part: IOData) {
        touch(task)
        guard let uploadLength else { return }
        let sent = state.withLockedValue { state in
            state.uploaded += Int64(part.readableBytes)
            return state.uploaded
        }
        guard wantsProgress() else { return }
        let progress = Progress(totalUnitCount: uploadLength)
        progress.completedUnitCount = sent
        onProgress(progress)
    }

    // MARK: Download

    func didVisitURL(task: HTTPClient.Task<Response>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
        state.withLockedValue { $0.url = request.url }
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        touch(task)
        state.withLockedValue { state in
            state.head = head
            state.expectedLength = head.headers.first(name: "Content-Length").flatMap { Int64($0) } ?? -1
        }
        guard case .temporaryFile(let directory) = sink, (200..<300).contains(head.status.code) else {
            return task.eventLoop.makeSucceededVoidFuture()
        }
        return BlockingIO.run(on: task.eventLoop) { () -> TemporaryFile in
            try TemporaryFile.create(in: directory)
        }.map { file in
            // The request may have failed (a cancel, a timeout) while the file was being created:
            // then nobody will clean it up later, so it goes now.
            let adopted = self.state.withLockedValue { state -> Bool in
                guard !state.finished else { return false }
                state.temporaryFile = file.url
                state.fileHandle = file.handle
                return true
            }
            if !adopted {
                file.discard()
            }
        }
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        touch(task)
        let (handle, received, expected) = state.withLockedValue { state -> (FileHandle?, Int64, Int64) in
            state.downloaded += Int64(buffer.readableBytes)
            if state.fileHandle == nil {
                var buffer = buffer
                state.body.writeBuffer(&buffer)
            }
            return (state.fileHandle, state.downloaded, state.expectedLength)
        }
        if uploadLength == nil, wantsProgress() {
            let progress = Progress(totalUnitCount: expected)
            progress.completedUnitCount = received
            onProgress(progress)
        }

        guard let handle else {
            return task.eventLoop.makeSucceededVoidFuture()
        }
        let writer = FileWriter(handle: handle)
        let data = Data(buffer: buffer, byteTransferStrategy: .automatic)
        return BlockingIO.run(on: task.eventLoop) {
            try writer.write(data)
        }
    }

    func didReceiveError(task: HTTPClient.Task<Response>, _ error: Error) {
        stopTimer()
        closeFile()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        stopTimer()
        closeFile()
        let (url, head, body, file) = state.withLockedValue { ($0.url, $0.head, $0.body, $0.temporaryFile) }
        guard let head else {
            throw TransferError.noResponseHead
        }
        return Outcome(head: head, url: url ?? URL(fileURLWithPath: "/"), body: body, downloadedFile: file)
    }

    private func closeFile() {
        let handle = state.withLockedValue { state -> FileHandle? in
            defer { state.fileHandle = nil }
            return state.fileHandle
        }
        if let handle {
            FileWriter(handle: handle).close()
        }
    }
}

/// A new, empty file for a download in flight.
///
/// - Note: `@unchecked Sendable` because `FileHandle` is not annotated `Sendable`; the file is
///   handed over once, from the thread pool to the delegate, and then used by one write at a time.
private struct TemporaryFile: @unchecked Sendable {
    let url: URL
    let handle: FileHandle

    static func create(in directory: URL) throws -> TemporaryFile {
        let url = directory.appendingPathComponent("moya-download-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        return TemporaryFile(url: url, handle: try FileHandle(forWritingTo: url))
    }

    /// Closes and removes the file.
    func discard() {
        try? handle.close()
        try? FileManager.default.removeItem(at: url)
    }
}

/// Writes a download's chunks, one at a time.
///
/// - Note: `@unchecked Sendable`: AsyncHTTPClient asks for the next body part only after the
///   previous write's future completed, so the handle is never used by two threads at once.
private struct FileWriter: @unchecked Sendable {
    let handle: FileHandle

    func write(_ data: Data) throws {
        try handle.write(contentsOf: data)
    }

    func close() {
        try? handle.close()
    }
}

/// A response produced no head: the connection ended first.
enum TransferError: Error {
    case noResponseHead
}

/// No bytes moved for the idle timeout.
struct TransferTimeout {
    let seconds: Double

    /// The error URLSession reports for the same situation.
    var asURLError: NSError {
        NSError(domain: NSURLErrorDomain, code: NSURLErrorTimedOut, userInfo: [
            NSLocalizedDescriptionKey: "The request timed out: no data for \(seconds) seconds.",
        ])
    }
}

import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// Receives one response: keeps the body in memory or writes it to a temporary file, reports
/// progress, and fails the request when no bytes move for the idle timeout.
///
/// A download is written in blocks of `writeBlockSize`: one trip to the thread pool per block
/// rather than per network read, which is what bounds a download's throughput.
///
/// Delegate calls arrive on the request's event loop; the lock guards against the calls made
/// from the thread that started the request.
final class TransferDelegate: HTTPClientResponseDelegate {
    /// What the transfer produced.
    struct Outcome: Sendable {
        var head: HTTPResponseHead
        var url: URL
        var body: ByteBuffer
        var download: DownloadedFile?
    }

    /// How many downloaded bytes are gathered before they are written out.
    static let writeBlockSize = 1 << 20

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
        /// Downloaded bytes not yet handed to the file.
        var unwritten = ByteBuffer()
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
    /// How long the whole transfer may take, and so when it must have ended.
    private let requestTimeout: TimeAmount?
    private let requestDeadline: NIODeadline?
    private let wantsProgress: @Sendable () -> Bool
    private let onProgress: @Sendable (Progress) -> Void
    private let state = NIOLockedValueBox(State())

    init(
        sink: Sink,
        uploadLength: Int64?,
        idleTimeout: TimeAmount,
        requestTimeout: TimeAmount?,
        wantsProgress: @escaping @Sendable () -> Bool,
        onProgress: @escaping @Sendable (Progress) -> Void
    ) {
        self.sink = sink
        self.uploadLength = uploadLength
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.requestDeadline = requestTimeout.map { NIODeadline.now() + $0 }
        self.wantsProgress = wantsProgress
        self.onProgress = onProgress
    }

    /// The temporary file a download wrote, to remove when the request fails.
    var temporaryFile: URL? {
        state.withLockedValue { $0.temporaryFile }
    }

    // MARK: Timeouts

    /// Records that bytes moved; starts the timer on the first call.
    ///
    /// One timer per transfer watches both limits: it fires when nothing moved for the idle
    /// timeout or at the request's deadline, whichever comes first, and re-arms itself
    /// otherwise, instead of being rescheduled for every chunk.
    private func touch(_ task: HTTPClient.Task<Response>) {
        let start = state.withLockedValue { state -> Bool in
            state.lastActivity = .now()
            guard !state.idleTimerStarted, !state.finished else { return false }
            state.idleTimerStarted = true
            return true
        }
        if start {
            scheduleTimeoutCheck(task, at: nextCheck(idleUntil: NIODeadline.now() + idleTimeout))
        }
    }

    private func nextCheck(idleUntil: NIODeadline) -> NIODeadline {
        guard let requestDeadline else { return idleUntil }
        return min(idleUntil, requestDeadline)
    }

    /// At `deadline`, fails the request if one of its timeouts has passed, or checks again
    /// when one would.
    private func scheduleTimeoutCheck(_ task: HTTPClient.Task<Response>, at deadline: NIODeadline) {
        let timer = task.eventLoop.scheduleTask(deadline: deadline) {
            let idleUntil = self.state.withLockedValue { state -> NIODeadline? in
                guard !state.finished else { return nil }
                return state.lastActivity + self.idleTimeout
            }
            guard let idleUntil else { return }
            let now = NIODeadline.now()
            if let requestDeadline = self.requestDeadline, let requestTimeout = self.requestTimeout,
                requestDeadline <= now
            {
                task.fail(
                    reason: TransferTimeout(limit: .wholeRequest, seconds: Double(requestTimeout.nanoseconds) / 1e9)
                        .asURLError
                )
            } else if idleUntil <= now {
                task.fail(
                    reason: TransferTimeout(limit: .idle, seconds: Double(self.idleTimeout.nanoseconds) / 1e9)
                        .asURLError
                )
            } else {
                self.scheduleTimeoutCheck(task, at: self.nextCheck(idleUntil: idleUntil))
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
        let (block, received, expected) = state.withLockedValue { state -> (FileBlock?, Int64, Int64) in
            state.downloaded += Int64(buffer.readableBytes)
            var buffer = buffer
            guard let handle = state.fileHandle else {
                state.body.writeBuffer(&buffer)
                return (nil, state.downloaded, state.expectedLength)
            }
            state.unwritten.writeBuffer(&buffer)
            guard state.unwritten.readableBytes >= Self.writeBlockSize else {
                return (nil, state.downloaded, state.expectedLength)
            }
            defer { state.unwritten = ByteBuffer() }
            return (
                FileBlock(writer: FileWriter(handle: handle), bytes: state.unwritten), state.downloaded,
                state.expectedLength
            )
        }
        if uploadLength == nil, wantsProgress() {
            let progress = Progress(totalUnitCount: expected)
            progress.completedUnitCount = received
            onProgress(progress)
        }

        // AsyncHTTPClient reads on only once the returned future completes: at most one block
        // is in memory while the previous one is written.
        guard let block else {
            return task.eventLoop.makeSucceededVoidFuture()
        }
        return BlockingIO.run(on: task.eventLoop) {
            try block.writer.write(block.bytes)
        }
    }

    func didReceiveError(task: HTTPClient.Task<Response>, _ error: Error) {
        stopTimer()
        closeFile()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        stopTimer()
        let (url, head, body) = state.withLockedValue { ($0.url, $0.head, $0.body) }
        guard let head else {
            closeFile()
            throw TransferError.noResponseHead
        }
        // The file stays open for its last bytes, which the completion writes off the event loop.
        let download = state.withLockedValue { state -> DownloadedFile? in
            defer {
                state.fileHandle = nil
                state.unwritten = ByteBuffer()
            }
            guard let file = state.temporaryFile, let handle = state.fileHandle else { return nil }
            return DownloadedFile(
                url: file,
                last: FileBlock(writer: FileWriter(handle: handle), bytes: state.unwritten)
            )
        }
        return Outcome(head: head, url: url ?? URL(fileURLWithPath: "/"), body: body, download: download)
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

/// A downloaded file whose last block is still to be written.
struct DownloadedFile: Sendable {
    /// Where the file is.
    let url: URL
    fileprivate let last: FileBlock

    /// Writes the last block and closes the file. Blocks: run it on the thread pool.
    func complete() throws {
        defer { last.writer.close() }
        try last.writer.write(last.bytes)
    }

    /// Closes and removes the file.
    func discard() {
        last.writer.close()
        try? FileManager.default.removeItem(at: url)
    }
}

/// Bytes on their way to a download's file.
private struct FileBlock: Sendable {
    let writer: FileWriter
    let bytes: ByteBuffer
}

/// Writes a download's blocks, one at a time.
///
/// - Note: `@unchecked Sendable`: AsyncHTTPClient asks for the next body part only after the
///   previous write's future completed, and the last block is written after the transfer
///   ended, so the handle is never used by two threads at once.
private struct FileWriter: @unchecked Sendable {
    let handle: FileHandle

    func write(_ bytes: ByteBuffer) throws {
        guard bytes.readableBytes > 0 else { return }
        try handle.write(contentsOf: Data(buffer: bytes, byteTransferStrategy: .noCopy))
    }

    func close() {
        try? handle.close()
    }
}

/// A response produced no head: the connection ended first.
enum TransferError: Error {
    case noResponseHead
}

/// One of a transfer's time limits ran out.
struct TransferTimeout {
    enum Limit {
        /// No bytes moved for this long.
        case idle
        /// The whole request took this long.
        case wholeRequest
    }

    let limit: Limit
    let seconds: Double

    /// The error URLSession reports for the same situation, saying which limit ran out.
    var asURLError: NSError {
        let reason: String
        switch limit {
        case .idle:
            reason = "no data arrived for \(seconds) seconds (the idle timeout)"
        case .wholeRequest:
            reason = "it did not finish within \(seconds) seconds (the whole-request timeout)"
        }
        return NSError(
            domain: NSURLErrorDomain,
            code: NSURLErrorTimedOut,
            userInfo: [
                NSLocalizedDescriptionKey: "The request timed out: \(reason)."
            ]
        )
    }
}

import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Where a response body goes: memory, or for a successful download a temporary file, written
/// in blocks of `writeBlockSize` on the thread pool.
///
/// One trip to the thread pool per block rather than per network read, which is what bounds
/// a download's throughput. Runs `StateMachine`'s rules; calls come from the request's event
/// loop and from the thread that started the request, hence the lock.
final class DownloadSink: Sendable {
    /// Where the body is to go.
    enum Destination: Sendable {
        case memory
        /// A new file in the given directory.
        case temporaryFile(in: URL)
    }

    /// How many downloaded bytes are gathered before they are written out.
    static let writeBlockSize = 1 << 20

    private let destination: Destination
    private let state = NIOLockedValueBox(StateMachine(blockSize: DownloadSink.writeBlockSize))

    init(destination: Destination) {
        self.destination = destination
    }

    /// The temporary file a download wrote, to remove when the request fails.
    var temporaryFile: URL? {
        state.withLockedValue { $0.temporaryFile }
    }

    /// The response's head arrived. A successful download's file is created now; the body
    /// follows once the returned future completes.
    func receivedHead(_ head: HTTPResponseHead, on eventLoop: EventLoop) -> EventLoopFuture<Void> {
        guard case .temporaryFile(let directory) = destination, (200..<300).contains(head.status.code) else {
            return eventLoop.makeSucceededVoidFuture()
        }
        return BlockingIO.run(on: eventLoop) { () -> TemporaryFile in
            try TemporaryFile.create(in: directory)
        }.map { file in
            let action = self.state.withLockedValue {
                $0.fileCreated(url: file.url, writer: FileWriter(handle: file.handle))
            }
            if action == .discard {
                file.discard()
            }
        }
    }

    /// A body part arrived. AsyncHTTPClient reads on only once the returned future completes:
    /// at most one block is in memory while the previous one is written.
    func received(_ buffer: ByteBuffer, on eventLoop: EventLoop) -> EventLoopFuture<Void> {
        switch state.withLockedValue({ $0.received(buffer) }) {
        case .none:
            return eventLoop.makeSucceededVoidFuture()
        case .write(let block):
            return BlockingIO.run(on: eventLoop) {
                try block.writer.write(block.bytes)
            }
        }
    }

    /// The transfer failed: the file is closed, and stays for the transport to remove.
    func failed() {
        switch state.withLockedValue({ $0.failed() }) {
        case .none:
            break
        case .close(let writer):
            writer.close()
        }
    }

    /// The response is complete: its body, or its file with the last block still to write.
    func finished() -> StateMachine.Finished {
        state.withLockedValue { $0.finished() }
    }
}

import Foundation
import NIOCore

extension DownloadSink {
    /// Where a response's bytes go, apart from files and threads so that the rules can be
    /// tested alone: memory until a download's file is adopted, then blocks for the file.
    ///
    /// At most one block waits in memory: a full block is handed out to be written, and
    /// AsyncHTTPClient passes on the next body part only once that write completed. The file
    /// is created off the event loop, so the transfer may fail meanwhile; a file that arrives
    /// after the end is refused, since nobody would remove it later.
    struct StateMachine {
        private enum State {
            /// The bytes stay in memory: the body is not a download's, or its file is not open.
            case memory
            /// The download's file is open.
            case file(url: URL, writer: FileWriter)
            /// The transfer ended. The file stays known so that a failed transfer's file can
            /// be removed.
            case ended(file: URL?)
        }

        /// What the caller does with a file it has just created.
        enum FileCreatedAction: Equatable {
            /// Keep it: the body goes there.
            case adopt
            /// Close and remove it: the transfer ended meanwhile.
            case discard
        }

        /// What the caller does with a body part.
        enum ReceiveAction {
            case none
            /// Write a full block to the file before asking for more.
            case write(FileBlock)
        }

        /// What the caller does when the transfer failed.
        enum FailAction {
            case none
            /// Close the file; the transport removes it.
            case close(FileWriter)
        }

        /// What a finished transfer produced.
        struct Finished {
            /// The body, when it stayed in memory.
            var body: ByteBuffer
            /// The file, when the body went to one.
            var download: DownloadedFile?
        }

        let blockSize: Int
        private var state = State.memory
        /// The body so far while it stays in memory; once a file is open, the bytes not yet
        /// written to it. One buffer outside `state`, so that appending never copies it.
        private var buffered = ByteBuffer()

        init(blockSize: Int) {
            self.blockSize = blockSize
        }

        /// The file the download was writing, if any: to remove when the transfer failed.
        var temporaryFile: URL? {
            switch state {
            case .memory, .ended(file: nil):
                return nil
            case .file(let url, _), .ended(file: .some(let url)):
                return url
            }
        }

        mutating func fileCreated(url: URL, writer: FileWriter) -> FileCreatedAction {
            switch state {
            case .memory:
                state = .file(url: url, writer: writer)
                return .adopt
            case .file, .ended:
                return .discard
            }
        }

        mutating func received(_ buffer: ByteBuffer) -> ReceiveAction {
            switch state {
            case .memory:
                append(buffer)
                return .none
            case .file(_, let writer):
                append(buffer)
                guard buffered.readableBytes >= blockSize else { return .none }
                defer { buffered = ByteBuffer() }
                return .write(FileBlock(writer: writer, bytes: buffered))
            case .ended:
                return .none
            }
        }

        private mutating func append(_ buffer: ByteBuffer) {
            buffered.appendPart(buffer)
        }

        mutating func failed() -> FailAction {
            switch state {
            case .memory:
                state = .ended(file: nil)
                return .none
            case .file(let url, let writer):
                state = .ended(file: url)
                buffered = ByteBuffer()
                return .close(writer)
            case .ended:
                return .none
            }
        }

        /// The response is complete. A download's file stays open for its last block, which
        /// the caller writes off the event loop.
        mutating func finished() -> Finished {
            defer { buffered = ByteBuffer() }
            switch state {
            case .memory:
                state = .ended(file: nil)
                return Finished(body: buffered, download: nil)
            case .file(let url, let writer):
                state = .ended(file: url)
                return Finished(
                    body: ByteBuffer(),
                    download: DownloadedFile(url: url, last: FileBlock(writer: writer, bytes: buffered))
                )
            case .ended:
                return Finished(body: ByteBuffer(), download: nil)
            }
        }
    }
}

extension ByteBuffer {
    /// Appends a part of a body; the first part is kept as it is, so that a body that arrives
    /// in one part (most do) is never copied.
    mutating func appendPart(_ part: ByteBuffer) {
        if readableBytes == 0 {
            self = part
        } else {
            writeImmutableBuffer(part)
        }
    }
}

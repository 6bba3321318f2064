import Foundation
import NIOCore
import NIOFoundationCompat

/// A downloaded file whose last block is still to be written.
struct DownloadedFile: Sendable {
    /// Where the file is.
    let url: URL
    let last: FileBlock

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
struct FileBlock: Sendable {
    let writer: FileWriter
    let bytes: ByteBuffer
}

/// Writes a download's blocks, one at a time.
///
/// - Note: `@unchecked Sendable`: AsyncHTTPClient asks for the next body part only after the
///   previous write's future completed, and the last block is written after the transfer
///   ended, so the handle is never used by two threads at once.
struct FileWriter: @unchecked Sendable {
    let handle: FileHandle

    /// Blocks: run it on the thread pool.
    func write(_ bytes: ByteBuffer) throws {
        guard bytes.readableBytes > 0 else { return }
        try handle.write(contentsOf: Data(buffer: bytes, byteTransferStrategy: .noCopy))
    }

    func close() {
        try? handle.close()
    }
}

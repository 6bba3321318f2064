#if OpenAPI
import Foundation
import Moya
import NIOConcurrencyHelpers
import NIOPosix

/// A temporary file holding a request body, removed when the last reference goes away.
///
/// The operation's target refers to it, and through the target every attempt the provider
/// makes (retries read it again), and a streamed response's body holds the target until it is
/// released, so the file lives exactly as long as the request may still read it.
final class SpooledFile: Sendable {
    /// Where the file is.
    let url: URL

    /// Open for writing until `close()`; `nil` after.
    private let handle: NIOLockedValueBox<FileHandle?>

    /// Creates an empty file with a unique name in `directory`. Blocks on the disk: call it on
    /// a thread that may block.
    init(directory: URL) throws {
        let file = try TemporaryFile.create(in: directory, prefix: "moya-openapi-body")
        self.url = file.url
        self.handle = NIOLockedValueBox(file.handle)
    }

    /// Appends `data`, on NIO's blocking thread pool.
    func write(_ data: Data) async throws {
        try await NIOThreadPool.singleton.runIfActive { [handle] in
            try handle.withLockedValue { handle in
                try handle?.write(contentsOf: data)
            }
        }
    }

    /// Flushes and closes the file, on NIO's blocking thread pool.
    func close() async throws {
        try await NIOThreadPool.singleton.runIfActive { [handle] in
            try handle.withLockedValue { handle in
                defer { handle = nil }
                try handle?.close()
            }
        }
    }

    /// Removes the file. An unlink does not wait on data, so it is done here rather than handed
    /// to a thread pool that a process shutting down may already have stopped.
    deinit {
        handle.withLockedValue { handle in
            try? handle?.close()
        }
        try? FileManager.default.removeItem(at: url)
    }
}
#endif

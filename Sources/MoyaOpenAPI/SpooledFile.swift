#if OpenAPI
import Foundation
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
        let url = directory.appendingPathComponent("moya-openapi-body-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        self.url = url
        self.handle = NIOLockedValueBox(try FileHandle(forWritingTo: url))
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

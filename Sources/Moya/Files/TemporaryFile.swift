import Foundation

/// A new, empty file with a unique name, open for writing: a download in flight, a request body
/// spooled to disk.
///
/// - Note: `@unchecked Sendable` because `FileHandle` is not annotated `Sendable`; each file is
///   handed over once (from the thread pool to its writer) and then used by one write at a time.
package struct TemporaryFile: @unchecked Sendable {
    package let url: URL
    package let handle: FileHandle

    /// Creates the file `<prefix>-<UUID>` in `directory`. Blocks: run it where blocking is fine.
    package static func create(in directory: URL, prefix: String = "moya-download") throws -> TemporaryFile {
        let url = directory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        return TemporaryFile(url: url, handle: try FileHandle(forWritingTo: url))
    }

    /// Closes and removes the file.
    package func discard() {
        try? handle.close()
        try? FileManager.default.removeItem(at: url)
    }
}

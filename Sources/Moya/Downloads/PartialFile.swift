import Foundation

/// The file a resumable download writes into: opened at the offset the transfer resumes from,
/// cut there first so that bytes nothing vouches for never stay behind, then appended to.
///
/// - Note: `@unchecked Sendable` because `FileHandle` is not annotated. One download owns it
///   and writes its chunks strictly one after another, from one task, so it is never used
///   concurrently.
final class PartialFile: @unchecked Sendable {
    let url: URL
    private let handle: FileHandle
    /// How many bytes the file holds.
    private(set) var length: Int64

    /// Opens (creating it if needed) `url`, keeping its first `offset` bytes.
    init(url: URL, keeping offset: Int64) throws {
        if !FileManager.default.fileExists(atPath: url.path) {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
        let handle = try FileHandle(forWritingTo: url)
        do {
            try handle.truncate(atOffset: UInt64(offset))
            try handle.seek(toOffset: UInt64(offset))
        } catch {
            try? handle.close()
            throw error
        }
        self.url = url
        self.handle = handle
        self.length = offset
    }

    /// Appends `chunk`. Writes go to the page cache, a few microseconds each: cheaper than a
    /// hop to a thread pool for every chunk.
    func append(_ chunk: Data) throws {
        try handle.write(contentsOf: chunk)
        length += Int64(chunk.count)
    }

    /// Flushes and closes the file.
    func close() {
        try? handle.synchronize()
        try? handle.close()
    }

    /// The size of the file at `url`; `nil` when there is none.
    static func size(of url: URL) -> Int64? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            let size = attributes[.size] as? NSNumber
        else { return nil }
        return size.int64Value
    }
}

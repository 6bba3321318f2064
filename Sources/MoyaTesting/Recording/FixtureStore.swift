import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and writes fixture files below one directory.
///
/// A file is written to a temporary name in its folder, then renamed over the final name, so a
/// reader (in this process or another) sees the old file or the new one, never half of one.
/// Writes from this process are serialised, which makes "write only if missing" exact.
final class FixtureStore: Sendable {
    let directory: URL
    private let lock = NIOLock()

    init(directory: URL) {
        self.directory = directory
    }

    func fileURL(for name: FixtureName) -> URL {
        directory.appendingPathComponent(name.relativePath, isDirectory: false)
    }

    func exists(_ name: FixtureName) -> Bool {
        FileManager.default.fileExists(atPath: fileURL(for: name).path)
    }

    /// Reads a fixture, failing with `.missing` when there is no file.
    func read(_ name: FixtureName, for requestDescription: String) throws(FixtureError) -> Fixture {
        let url = fileURL(for: name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw FixtureError(kind: .missing, fileURL: url, reason: requestDescription)
        }
        do {
            return try Fixture.decoded(from: Data(contentsOf: url))
        } catch {
            throw FixtureError(kind: .unreadable, fileURL: url, reason: "\(error)")
        }
    }

    /// Writes a fixture atomically. With `onlyIfMissing`, an existing file is left alone.
    ///
    /// - Returns: Whether the file was written.
    @discardableResult
    func write(_ fixture: Fixture, to name: FixtureName, onlyIfMissing: Bool) throws(FixtureError) -> Bool {
        let url = fileURL(for: name)
        do {
            return try lock.withLock {
                if onlyIfMissing, FileManager.default.fileExists(atPath: url.path) {
                    return false
                }
                let folder = url.deletingLastPathComponent()
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
                try fixture.encoded().write(to: temporary)
                guard rename(temporary.path, url.path) == 0 else {
                    let code = errno
                    try? FileManager.default.removeItem(at: temporary)
                    throw POSIXFailure(operation: "rename", code: code)
                }
                return true
            }
        } catch {
            throw FixtureError(kind: .unwritable, fileURL: url, reason: "\(error)")
        }
    }
}

/// A failed system call, named with its `errno` message.
private struct POSIXFailure: Error, CustomStringConvertible {
    let operation: String
    let code: Int32

    var description: String {
        "\(operation) failed: \(String(cString: strerror(code)))"
    }
}

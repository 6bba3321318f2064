import Foundation
import NIOConcurrencyHelpers

/// Responses in files in one directory, within a byte budget, the least recently used evicted
/// first; they survive a restart.
///
/// Each entry is one file named after the SHA-256 of its key (`CacheKey.digest`), so that no
/// URL, query or secret shows in a name, written to a temporary file and renamed into place,
/// so that a reader never sees half an entry. A file that does not decode in full
/// (`CachedResponse(decoding:keyDigest:)`) is removed, never trusted. Files that are not
/// entries are left alone. Every failure of its own I/O is reported to `failures`: the
/// request goes on without the cache, and the user hears why.
final class DiskCacheStore: HTTPCacheStore {
    /// Why a directory cannot hold a cache.
    struct DirectoryError: Error, LocalizedError, CustomStringConvertible {
        let path: String
        let reason: String

        var errorDescription: String? { "The HTTP cache cannot use \(path): \(reason)" }
        var description: String { errorDescription ?? reason }
    }

    static let fileExtension = "entry"
    static let temporaryPrefix = ".tmp-"

    let directory: URL
    private let failures: CacheFailureLog
    private let index: NIOLockedValueBox<LRUIndex<String>>
    private let registeredPath: String

    /// Directories a store of this process uses: two stores on one directory would each
    /// believe its own budget and evict the other's entries.
    private static let directoriesInUse = NIOLockedValueBox<Set<String>>([])

    /// Opens (creating it if needed) the cache in `directory`, with what earlier runs stored.
    init(directory: URL, maxBytes: Int, failures: CacheFailureLog = CacheFailureLog()) throws {
        let manager = FileManager.default
        let path = directory.standardizedFileURL.resolvingSymlinksInPath().path
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DirectoryError(path: path, reason: "it could not be created (\(error.localizedDescription)).")
        }
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DirectoryError(path: path, reason: "it is not a directory.")
        }
        let inserted = Self.directoriesInUse.withLockedValue { $0.insert(path).inserted }
        guard inserted else {
            throw DirectoryError(
                path: path,
                reason: "another HTTPCache of this process uses it. Share that cache, or give each its own directory."
            )
        }
        self.directory = URL(fileURLWithPath: path, isDirectory: true)
        self.registeredPath = path
        self.failures = failures
        self.index = NIOLockedValueBox(Self.scan(self.directory, maxBytes: maxBytes))
    }

    deinit {
        let path = registeredPath
        Self.directoriesInUse.withLockedValue { _ = $0.remove(path) }
    }

    var performsIO: Bool { true }

    var totalBytes: Int {
        index.withLockedValue { $0.totalSize }
    }

    var entryCount: Int {
        index.withLockedValue { $0.count }
    }

    func entry(for key: CacheKey) -> CachedResponse? {
        let name = key.digest
        guard index.withLockedValue({ $0.contains(name) }) else { return nil }
        let file = url(of: name)
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            // Gone with its directory, or unreadable: forgotten, and the user told.
            failures.record(.read, reason: "\(file.path): \(Self.describe(error))")
            discard(name)
            return nil
        }
        guard let entry = CachedResponse(decoding: data, keyDigest: Self.digestBytes(name)) else {
            // Corrupt or truncated: never trusted, and removed.
            failures.record(.damagedEntry, reason: "\(file.path) did not decode (\(data.count) bytes)")
            discard(name)
            return nil
        }
        index.withLockedValue { $0.touch(name) }
        // The file's date keeps the order of use across restarts.
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
        return entry
    }

    func store(_ entry: CachedResponse, for key: CacheKey) {
        let name = key.digest
        let data = entry.encoded(keyDigest: Self.digestBytes(name))
        guard data.count <= index.withLockedValue({ $0.capacity }) else {
            discard(name)
            return
        }
        let temporary = directory.appendingPathComponent(Self.temporaryPrefix + UUID().uuidString)
        do {
            try data.write(to: temporary)
            guard rename(temporary.path, url(of: name).path) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        } catch {
            failures.record(.write, reason: "\(directory.path): \(Self.describe(error))")
            try? FileManager.default.removeItem(at: temporary)
            discard(name)
            return
        }
        let evicted = index.withLockedValue { $0.insert(name, size: data.count) }
        for victim in evicted {
            try? FileManager.default.removeItem(at: url(of: victim))
        }
    }

    func remove(_ key: CacheKey) {
        discard(key.digest)
    }

    func removeAll() {
        let names = index.withLockedValue { index in
            defer { index.removeAll() }
            return index.keysOldestFirst
        }
        for name in names {
            try? FileManager.default.removeItem(at: url(of: name))
        }
    }

    /// The most specific text an I/O error has: Foundation's `CocoaError` keeps the POSIX
    /// reason (`No space left on device`, `Not a directory`) in its underlying error.
    private static func describe(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError {
            return "\(nsError.localizedDescription) (\(underlying.localizedDescription))"
        }
        return nsError.localizedDescription
    }

    private func discard(_ name: String) {
        index.withLockedValue { _ = $0.remove(name) }
        try? FileManager.default.removeItem(at: url(of: name))
    }

    private func url(of name: String) -> URL {
        directory.appendingPathComponent(name + "." + Self.fileExtension)
    }

    /// The digest's 32 bytes, from its hexadecimal name.
    static func digestBytes(_ name: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var iterator = name.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            bytes.append(hexValue(high) << 4 | hexValue(low))
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: 0
        }
    }

    /// The index of the entries already in `directory`, oldest use first, within budget; the
    /// temporary files of an interrupted write are removed.
    private static func scan(_ directory: URL, maxBytes: Int) -> LRUIndex<String> {
        let manager = FileManager.default
        var found: [(name: String, size: Int, used: Date)] = []
        let files = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
        for file in files {
            let url = directory.appendingPathComponent(file)
            if file.hasPrefix(temporaryPrefix) {
                try? manager.removeItem(at: url)
                continue
            }
            let name = (file as NSString).deletingPathExtension
            guard file.hasSuffix("." + fileExtension), isDigest(name),
                let attributes = try? manager.attributesOfItem(atPath: url.path),
                attributes[.type] as? FileAttributeType == .typeRegular
            else { continue }
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            found.append((name, size, attributes[.modificationDate] as? Date ?? .distantPast))
        }
        var index = LRUIndex<String>(capacity: maxBytes)
        for entry in found.sorted(by: { $0.used < $1.used }) {
            for victim in index.insert(entry.name, size: entry.size) {
                try? manager.removeItem(at: directory.appendingPathComponent(victim + "." + fileExtension))
            }
        }
        return index
    }

    private static func isDigest(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { hexValue($0) != 0 || $0 == UInt8(ascii: "0") }
    }
}

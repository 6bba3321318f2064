import Foundation
import Testing

@testable import Moya

@Suite("Cache stores")
struct CacheStoreTests {
    private func key(_ path: String) -> CacheKey {
        CacheKey.get(URL(string: "https://api.example.test\(path)"))!
    }

    private func entry(
        _ body: String,
        headers: [(String, String)] = [("Cache-Control", "max-age=60")]
    ) -> CachedResponse {
        var stored = CacheFixture.response(headers, body: body)
        stored.variant = RequestVariant(salt: [1, 2, 3], entries: [.init(name: "authorization", digest: nil)])
        return stored
    }

    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("moya-cache-\(UUID().uuidString)")
    }

    // MARK: LRU

    @Test func touchingTheNewestKeyLeavesTheOrderAndTouchingAnotherMakesItNewest() {
        var index = LRUIndex<String>(capacity: 12)
        _ = index.insert("a", size: 4)
        _ = index.insert("b", size: 4)
        index.touch("b")
        #expect(index.keysOldestFirst == ["a", "b"])
        index.touch("a")
        index.touch("missing")
        #expect(index.keysOldestFirst == ["b", "a"])
        #expect(index.insert("c", size: 8) == ["b"])
    }

    @Test func aKeyLeavesOutTheFragmentAndKeepsTheQuery() throws {
        let key = try #require(CacheKey.get(URL(string: "https://api.example.test/a?q=1#part")))
        #expect(key.url == "https://api.example.test/a?q=1")
        #expect(key == CacheKey.get(URL(string: "https://api.example.test/a?q=1")))
        let encoded = CacheKey.get(URL(string: "https://api.example.test/é?x=#"))
        #expect(encoded?.url == "https://api.example.test/%C3%A9?x=")
    }

    @Test func theLRUIndexEvictsTheLeastRecentlyUsedFirstToStayWithinBudget() {
        var index = LRUIndex<String>(capacity: 10)
        #expect(index.insert("a", size: 4).isEmpty)
        #expect(index.insert("b", size: 4).isEmpty)
        index.touch("a")
        #expect(index.insert("c", size: 4) == ["b"])
        #expect(index.keysOldestFirst == ["a", "c"])
        #expect(index.totalSize == 8)
        #expect(index.insert("a", size: 9) == ["c"])
        #expect(index.totalSize == 9)
        let removed = index.remove("a")
        #expect(removed)
        #expect(index.totalSize == 0 && index.count == 0)
    }

    // MARK: Memory

    @Test func theMemoryStoreIsBoundedInBytesAndEvictsTheLeastRecentlyUsed() {
        let sample = entry(String(repeating: "x", count: 1000))
        let store = MemoryCacheStore(maxBytes: sample.byteCount * 2 + 10)
        store.store(sample, for: key("/1"))
        store.store(sample, for: key("/2"))
        _ = store.entry(for: key("/1"))
        store.store(sample, for: key("/3"))
        #expect(store.entry(for: key("/1")) == sample)
        #expect(store.entry(for: key("/2")) == nil)
        #expect(store.entry(for: key("/3")) == sample)
        #expect(store.totalBytes <= sample.byteCount * 2 + 10)
    }

    @Test func anEntryLargerThanTheBudgetIsNotStored() {
        let store = MemoryCacheStore(maxBytes: 100)
        store.store(entry(String(repeating: "x", count: 500)), for: key("/big"))
        #expect(store.entry(for: key("/big")) == nil)
        #expect(store.totalBytes == 0)
    }

    // MARK: Disk format

    @Test func anEntryRoundTripsThroughItsDiskFormat() {
        var stored = entry("body")
        stored.finalURL = URL(string: "https://api.example.test/moved")
        let digest = DiskCacheStore.digestBytes(key("/a").digest)
        let data = stored.encoded(keyDigest: digest)
        #expect(CachedResponse(decoding: data, keyDigest: digest) == stored)
    }

    @Test func everyTruncationAndEveryFlippedByteIsRefused() {
        let digest = DiskCacheStore.digestBytes(key("/a").digest)
        let data = entry("some body").encoded(keyDigest: digest)
        for length in 0..<data.count {
            #expect(CachedResponse(decoding: data.prefix(length), keyDigest: digest) == nil)
        }
        for index in stride(from: 0, to: data.count, by: 7) {
            var corrupt = data
            corrupt[index] ^= 0x40
            #expect(CachedResponse(decoding: corrupt, keyDigest: digest) == nil)
        }
        #expect(CachedResponse(decoding: data, keyDigest: DiskCacheStore.digestBytes(key("/b").digest)) == nil)
    }

    // MARK: Disk

    @Test func theDiskStoreSurvivesARestartAndNamesFilesByHashOnly() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let secretKey = CacheKey.get(URL(string: "https://api.example.test/items?api_key=SECRET-KEY"))!
        do {
            let store = try DiskCacheStore(directory: directory, maxBytes: 1 << 20)
            store.store(entry("persisted"), for: secretKey)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.count == 1)
        #expect(names.allSatisfy { $0.hasSuffix(".entry") && !$0.contains("SECRET") && $0.count == 64 + 6 })
        let file = try Data(contentsOf: directory.appendingPathComponent(names[0]))
        #expect(file.range(of: Data("SECRET-KEY".utf8)) == nil)

        let reopened = try DiskCacheStore(directory: directory, maxBytes: 1 << 20)
        #expect(reopened.entry(for: secretKey)?.body == Data("persisted".utf8))
    }

    @Test(arguments: ["truncated", "garbage", "empty"])
    func aCorruptEntryIsIgnoredAndRemoved(damage: String) throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DiskCacheStore(directory: directory, maxBytes: 1 << 20)
        store.store(entry("fine"), for: key("/x"))
        let file = directory.appendingPathComponent(key("/x").digest + ".entry")
        let original = try Data(contentsOf: file)
        switch damage {
        case "truncated": try original.prefix(original.count - 5).write(to: file)
        case "garbage": try Data(repeating: 0x41, count: original.count).write(to: file)
        default: try Data().write(to: file)
        }
        #expect(store.entry(for: key("/x")) == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(store.totalBytes == 0)
    }

    @Test func theDiskStoreIsBoundedInBytesAcrossRestartsAndLeavesNoTemporaryFiles() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sample = entry(String(repeating: "y", count: 2000))
        let size = sample.encoded(keyDigest: DiskCacheStore.digestBytes(key("/1").digest)).count
        do {
            let store = try DiskCacheStore(directory: directory, maxBytes: size * 3)
            for index in 1...5 {
                store.store(sample, for: key("/\(index)"))
            }
            #expect(store.totalBytes == size * 3)
            #expect(store.entry(for: key("/1")) == nil)
            #expect(store.entry(for: key("/5")) != nil)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == 3)
        #expect(!files.contains { $0.hasPrefix(".tmp-") })
        // A smaller budget on reopening evicts down to it.
        let smaller = try DiskCacheStore(directory: directory, maxBytes: size)
        #expect(smaller.totalBytes == size)
    }

    @Test func leftoversOfAnInterruptedWriteAreRemovedAndOtherFilesKept() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("half".utf8).write(to: directory.appendingPathComponent(".tmp-interrupted"))
        try Data("mine".utf8).write(to: directory.appendingPathComponent("notes.txt"))
        _ = try DiskCacheStore(directory: directory, maxBytes: 1 << 20)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files == ["notes.txt"])
    }

    @Test func oneDirectoryServesOneCacheAtATime() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let first = try HTTPCache.disk(directory: directory, maxBytes: 1 << 20)
            #expect(throws: MoyaError.self) {
                _ = try HTTPCache.disk(directory: directory, maxBytes: 1 << 20)
            }
            withExtendedLifetime(first) {}
        }
        // Released, the directory is free again.
        #expect(throws: Never.self) {
            _ = try HTTPCache.disk(directory: directory, maxBytes: 1 << 20)
        }
    }

    @Test func aFileWhereTheDirectoryShouldBeIsAClearError() throws {
        let file = temporaryDirectory()
        try Data().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: MoyaError.self) {
            _ = try HTTPCache.disk(directory: file, maxBytes: 1 << 20)
        }
    }
}

import NIOConcurrencyHelpers

/// Responses in memory, within a byte budget, the least recently used evicted first.
final class MemoryCacheStore: HTTPCacheStore {
    private struct State {
        var entries: [CacheKey: CachedResponse] = [:]
        var index: LRUIndex<CacheKey>
    }

    private let state: NIOLockedValueBox<State>

    init(maxBytes: Int) {
        state = NIOLockedValueBox(State(index: LRUIndex(capacity: maxBytes)))
    }

    var performsIO: Bool { false }

    var totalBytes: Int {
        state.withLockedValue { $0.index.totalSize }
    }

    var entryCount: Int {
        state.withLockedValue { $0.index.count }
    }

    func entry(for key: CacheKey) -> CachedResponse? {
        state.withLockedValue { state in
            guard let entry = state.entries[key] else { return nil }
            state.index.touch(key)
            return entry
        }
    }

    func store(_ entry: CachedResponse, for key: CacheKey) {
        let size = entry.byteCount
        state.withLockedValue { state in
            guard size <= state.index.capacity else {
                state.entries[key] = nil
                state.index.remove(key)
                return
            }
            state.entries[key] = entry
            for evicted in state.index.insert(key, size: size) {
                state.entries[evicted] = nil
            }
        }
    }

    func remove(_ key: CacheKey) {
        state.withLockedValue { state in
            state.entries[key] = nil
            state.index.remove(key)
        }
    }

    func removeAll() {
        state.withLockedValue { state in
            state.entries = [:]
            state.index.removeAll()
        }
    }
}

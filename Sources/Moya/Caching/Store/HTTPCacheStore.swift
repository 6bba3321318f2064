/// Where an `HTTPCache` keeps its responses.
///
/// Calls may come from any thread; a store guards its own state. A store that does file I/O
/// says so with `performsIO`, and the cache then calls it away from the event loops.
protocol HTTPCacheStore: Sendable {
    /// Whether calls block on I/O.
    var performsIO: Bool { get }

    /// The response stored under `key`, if any, marked as just used. A store never returns
    /// an entry it cannot fully trust; it removes it instead.
    func entry(for key: CacheKey) -> CachedResponse?

    /// Stores `entry` under `key`, replacing any, evicting the least recently used entries to
    /// stay within budget. An entry larger than the whole budget is not stored.
    func store(_ entry: CachedResponse, for key: CacheKey)

    /// Removes the entry under `key`, if any.
    func remove(_ key: CacheKey)

    /// Removes every entry.
    func removeAll()

    /// What the entries take, in bytes.
    var totalBytes: Int { get }

    /// How many entries there are.
    var entryCount: Int { get }
}

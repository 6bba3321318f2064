import Foundation

/// An HTTP cache for a session's requests: a private cache as RFC 9111 describes, in memory or
/// on disk. Turn it on with one line:
///
/// ```swift
/// let session = Session(configuration: .init(cache: .memory(maxBytes: 20 << 20)))
/// let provider = MoyaProvider<GitHub>(session: session)
/// ```
///
/// Responses are stored and reused as their `Cache-Control`, `Expires`, `ETag` and
/// `Last-Modified` headers allow; every `Response` says where it came from in
/// `Response/cacheStatus`. A target can choose its own policy with
/// `RequestPolicies/cachePolicy`. The Caching article lists the rules implemented.
///
/// A cache belongs to the sessions it is configured on: no cache is shared by default, and a
/// session without one never sees cached responses. Call `removeAll()` when the user signs out.
public final class HTTPCache: Sendable {
    /// How requests use the cache, unless their target says otherwise.
    public let policy: CachePolicy

    /// Whether responses to requests carrying `Authorization` are stored even when they do not
    /// say they may be (RFC 9111 3.5 allows them with `public`, `must-revalidate` or
    /// `s-maxage`). Such a response is only ever served to requests with the same
    /// `Authorization`, whatever the setting.
    public let storesAuthorizedResponses: Bool

    let store: HTTPCacheStore

    /// Where the store's own failures go (see `health`).
    let failures: CacheFailureLog

    /// Where a disk store's I/O runs, off the event loops; `nil` for a memory store, whose
    /// work is done where the request is.
    let ioQueue: DispatchQueue?

    /// The clock freshness is judged by; replaced in tests.
    let now: @Sendable () -> Date

    init(
        store: HTTPCacheStore,
        policy: CachePolicy,
        storesAuthorizedResponses: Bool,
        failures: CacheFailureLog = CacheFailureLog(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.failures = failures
        self.policy = policy
        self.storesAuthorizedResponses = storesAuthorizedResponses
        self.ioQueue = store.performsIO ? DispatchQueue(label: "moya.http-cache.io") : nil
        self.now = now
    }

    /// A cache in memory, holding at most `maxBytes` of responses (bodies and headers); the
    /// least recently used are evicted first. It lasts as long as the cache object.
    public static func memory(
        maxBytes: Int,
        policy: CachePolicy = .useProtocol,
        storesAuthorizedResponses: Bool = false
    ) -> HTTPCache {
        HTTPCache(
            store: MemoryCacheStore(maxBytes: maxBytes),
            policy: policy,
            storesAuthorizedResponses: storesAuthorizedResponses
        )
    }

    /// A cache in `directory` (created if needed), holding at most `maxBytes` of files; the
    /// least recently used are evicted first. What it holds survives a restart; an entry that
    /// is truncated or corrupt is removed, never served. When the directory is removed or the
    /// disk fills up later, requests go on over the network and `health` says why.
    ///
    /// - Throws: `MoyaError.underlying` when the directory cannot be created, or when another
    ///   cache of this process already uses it.
    public static func disk(
        directory: URL,
        maxBytes: Int,
        policy: CachePolicy = .useProtocol,
        storesAuthorizedResponses: Bool = false
    ) throws -> HTTPCache {
        let failures = CacheFailureLog()
        let store: DiskCacheStore
        do {
            store = try DiskCacheStore(directory: directory, maxBytes: maxBytes, failures: failures)
        } catch {
            throw MoyaError.underlying(error, nil)
        }
        return HTTPCache(
            store: store,
            policy: policy,
            storesAuthorizedResponses: storesAuthorizedResponses,
            failures: failures
        )
    }

    /// What the stored responses take, in bytes.
    public var currentBytes: Int {
        store.totalBytes
    }

    /// Removes every stored response: for example when the user signs out.
    public func removeAll() {
        store.removeAll()
    }

    /// Removes the stored response to a `GET` of `url`, if any.
    public func removeResponse(for url: URL) {
        guard let key = CacheKey.get(url) else { return }
        store.remove(key)
    }

    /// Whether `perform` runs its work at once (a memory store), so that a caller may run it
    /// itself without building a closure to hand over.
    var performsInline: Bool {
        ioQueue == nil
    }

    /// Runs `work` where the store's I/O belongs: at once for memory, else on the I/O queue.
    func perform(_ work: @escaping @Sendable () -> Void) {
        if let ioQueue {
            ioQueue.async(execute: work)
        } else {
            work()
        }
    }
}

import Dispatch
import Foundation
import Logging
import NIOConcurrencyHelpers

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session's way into a cookie storage: lookups that never wait for a write, and writes
/// off the event loops.
///
/// Foundation on Linux rewrites the storage's file for every cookie stored, under the lock
/// its lookups take too (storing 2,500 cookies took 21 seconds), so storing where a response
/// completes held that event loop, and every request sharing it, for as long, and a lookup
/// made while it wrote waited as long. Here a response's changes go to a writer on a queue of
/// the jar's own, one response at a time; until it is done, lookups read `State`'s mirror,
/// which already holds them, so the next request carries the cookies just set.
///
/// One jar per storage in the process (`jar(for:)`), so that every session using a storage
/// sees the same pending changes.
final class CookieJar: Sendable {
    let storage: HTTPCookieStorage
    private let state: NIOLockedValueBox<State>
    private let writer: DispatchQueue
    /// Applies one change to the storage; tests hold it back to watch a write in progress.
    private let apply: @Sendable (CookieChange, HTTPCookieStorage) -> Void

    init(
        storage: HTTPCookieStorage,
        capacity: Int = 3000,
        apply: @escaping @Sendable (CookieChange, HTTPCookieStorage) -> Void = CookieJar.write
    ) {
        self.storage = storage
        self.state = NIOLockedValueBox(State(capacity: capacity))
        self.writer = DispatchQueue(label: "moya.cookie-jar", qos: .utility)
        self.apply = apply
    }

    /// The jar every session using `storage` shares.
    static func jar(for storage: HTTPCookieStorage) -> CookieJar {
        registry.withLockedValue { jars in
            let key = ObjectIdentifier(storage)
            if let jar = jars[key]?.jar, jar.storage === storage {
                return jar
            }
            jars = jars.filter { $0.value.jar != nil }
            let jar = CookieJar(storage: storage)
            jars[key] = WeakJar(jar: jar)
            return jar
        }
    }

    /// The stored cookies whose domain matches `url`'s host, expired ones included (the
    /// caller matches path, security and expiry).
    ///
    /// Most of a lookup's cost is reading `url`'s host (Foundation's `cookies(for:)` reads it
    /// again), so an empty storage, the common case for a service calling an API, answers
    /// before either: the storage cannot be asked for a count, and nothing tells the jar of
    /// cookies set on the storage directly (Foundation on Linux posts no change notification),
    /// so its `cookies` is read every time, which is cheap while it holds none.
    func cookies(for url: URL) -> [HTTPCookie] {
        if state.withLockedValue({ $0.isWriting }), let host = url.host,
            let mirrored = state.withLockedValue({ $0.cookies(forHost: host) })
        {
            return mirrored
        }
        guard storage.cookies?.isEmpty == false else { return [] }
        return storage.cookies(for: url) ?? []
    }

    /// Stores what `fields`, the `Set-Cookie` values of a response from `url`, set, and calls
    /// `written` once it is in the storage (at once when they set nothing).
    func store(fields: [String], from url: URL, logger: Logger?, written: (@Sendable () -> Void)? = nil) {
        let parsed = SetCookieFields(fields, from: url)
        if parsed.dropped > 0 {
            logger?.warning(
                "A response set more cookies than one response may: the rest were not stored",
                metadata: [
                    "url": "\(url.absoluteString)", "limit": "\(SetCookieFields.defaultLimit)",
                    "dropped": "\(parsed.dropped)",
                ]
            )
        }
        guard !parsed.changes.isEmpty else {
            written?()
            return
        }
        let (action, full) = state.withLockedValue { state in
            state.enqueue(Batch(changes: parsed.changes, written: written)) { storage.cookies ?? [] }
        }
        if full > 0 {
            logger?.warning(
                "The cookie storage is full: a response's new cookies were not stored",
                metadata: ["url": "\(url.absoluteString)", "dropped": "\(full)"]
            )
        }
        if action == .startWriter {
            writer.async { self.drain() }
        }
    }

    /// Writes batch after batch until none is left.
    private func drain() {
        while let batch = state.withLockedValue({ $0.nextBatch() }) {
            for change in batch.changes {
                apply(change, storage)
            }
            batch.written?()
        }
    }

    /// Applies `change` to `storage`, under its accept policy for a cookie from that URL as
    /// the main document's, as URLSession does for a request an app makes itself.
    @Sendable static func write(_ change: CookieChange, to storage: HTTPCookieStorage) {
        switch change {
        case .store(let cookie, let url):
            storage.setCookies([cookie], for: url, mainDocumentURL: url)
        case .remove(let cookie):
            for stored in storage.cookies ?? [] where CookieKey(stored) == CookieKey(cookie) {
                storage.deleteCookie(stored)
            }
        }
    }

    private struct WeakJar {
        weak var jar: CookieJar?
    }

    private static let registry = NIOLockedValueBox<[ObjectIdentifier: WeakJar]>([:])
}

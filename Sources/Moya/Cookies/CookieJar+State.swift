import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One change a response asks of the cookie storage.
enum CookieChange: @unchecked Sendable {
    // `@unchecked`: `HTTPCookie` is immutable once made but not marked `Sendable` on Linux.

    /// Store `cookie`, received from `url` (the storage's accept policy judges it by that URL).
    case store(HTTPCookie, from: URL)
    /// Remove the stored cookie with `cookie`'s name, domain and path: it expired.
    case remove(HTTPCookie)

    var cookie: HTTPCookie {
        switch self {
        case .store(let cookie, _), .remove(let cookie): return cookie
        }
    }
}

/// What makes two cookies the same cookie in a storage (RFC 6265 5.3, step 11): a new one with
/// the same name, domain and path replaces the old one.
struct CookieKey: Hashable {
    let name: String
    let domain: String
    let path: String

    init(_ cookie: HTTPCookie) {
        self.name = cookie.name
        self.domain = cookie.domain.lowercased()
        self.path = cookie.path
    }
}

extension CookieJar {
    /// The changes of one response, and what to run once they are in the storage.
    struct Batch: Sendable {
        let changes: [CookieChange]
        /// Runs on the writer's queue once every change is written.
        let written: (@Sendable () -> Void)?
    }

    /// Which cookies a lookup reads, and what waits to be written, apart from any storage,
    /// lock or queue so that it can be tested alone.
    ///
    /// While nothing waits to be written, the storage is the truth: a lookup reads it, and sees
    /// what the app itself set there. While changes wait, the storage may be busy writing one
    /// (Foundation on Linux rewrites its file for every cookie, under its own lock), so a lookup
    /// reads the mirror instead: the storage as it was when the writing started, with every
    /// change received since applied to it. The mirror is dropped when the writer is done.
    struct State {
        /// The most cookies the jar lets the storage hold (RFC 6265 6.1 asks for at least
        /// 3,000); a response's new cookies past it are not stored.
        let capacity: Int
        private var pending: [Batch] = []
        private var mirror: [CookieKey: HTTPCookie]?

        init(capacity: Int) {
            self.capacity = capacity
        }

        /// What the caller does after `enqueue`.
        enum EnqueueAction: Equatable {
            /// The writer is already at work and will reach this batch.
            case none
            /// Start the writer.
            case startWriter
        }

        /// Whether changes wait to be written (a lookup then reads the mirror).
        var isWriting: Bool { mirror != nil }

        /// Queues `batch` for the writer and applies it to the mirror, so that lookups see it
        /// at once. `snapshot` reads the storage's cookies, when the mirror starts.
        ///
        /// - Returns: What to do next, and how many new cookies were left out because the
        ///   storage is full.
        mutating func enqueue(_ batch: Batch, snapshot: () -> [HTTPCookie]) -> (EnqueueAction, dropped: Int) {
            let starting = mirror == nil
            var cookies = mirror ?? Self.index(snapshot())
            var kept: [CookieChange] = []
            kept.reserveCapacity(batch.changes.count)
            var dropped = 0
            for change in batch.changes {
                let key = CookieKey(change.cookie)
                switch change {
                case .store(let cookie, _):
                    guard cookies[key] != nil || cookies.count < capacity else {
                        dropped += 1
                        continue
                    }
                    cookies[key] = cookie
                case .remove:
                    cookies[key] = nil
                }
                kept.append(change)
            }
            mirror = cookies
            pending.append(Batch(changes: kept, written: batch.written))
            return (starting ? .startWriter : .none, dropped)
        }

        /// The writer's next batch; `nil` when none is left, which ends the writing: lookups
        /// read the storage again.
        mutating func nextBatch() -> Batch? {
            guard !pending.isEmpty else {
                mirror = nil
                return nil
            }
            return pending.removeFirst()
        }

        /// The mirrored cookies whose domain `host` matches, or `nil` when lookups read the
        /// storage itself.
        func cookies(forHost host: String) -> [HTTPCookie]? {
            guard let mirror else { return nil }
            let host = host.lowercased()
            return mirror.values.filter { Self.domain($0.domain, matches: host) }
        }

        /// RFC 6265 5.1.3: the host is the cookie's domain, or, for a cookie set with a
        /// `Domain` attribute (stored with a leading dot), ends with it after a dot.
        static func domain(_ domain: String, matches host: String) -> Bool {
            let domain = domain.lowercased()
            guard domain.hasPrefix(".") else { return host == domain }
            let bare = domain.dropFirst()
            return host == bare || host.hasSuffix(domain)
        }

        private static func index(_ cookies: [HTTPCookie]) -> [CookieKey: HTTPCookie] {
            var index: [CookieKey: HTTPCookie] = [:]
            index.reserveCapacity(cookies.count)
            for cookie in cookies {
                index[CookieKey(cookie)] = cookie
            }
            return index
        }
    }
}

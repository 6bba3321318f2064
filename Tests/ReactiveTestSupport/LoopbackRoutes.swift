import Foundation
import Hummingbird
import Moya
import NIOConcurrencyHelpers

/// A target on a server whose address is known at run time.
public struct LocalTarget: TargetType {
    /// The server's address.
    public var baseURL: URL
    /// One of `LoopbackRoutes`'s paths.
    public var path: String
    /// Every route answers `GET`.
    public var method: Moya.Method { .get }
    /// No body, no parameters.
    public var task: Moya.Task { .requestPlain }
    /// No headers of its own.
    public var headers: [String: String]? { nil }

    /// A target for `path` on the server at `baseURL`.
    public init(baseURL: URL, path: String) {
        self.baseURL = baseURL
        self.path = path
    }
}

/// The routes of the tests against the loopback server.
///
/// - `/zen`: a short text; `/users/:name`: a user's JSON; `/missing`: 404;
/// - `/bytes`: `bodySize` bytes, enough for several progress events;
/// - `/count`: how many requests this route has received, this one included;
/// - `/stall`: reports each arrival on `arrivals` and answers only once `release` finishes.
public struct LoopbackRoutes: Sendable {
    /// The size of `/bytes`'s body.
    public static let bodySize = 256 * 1024

    private let hits = NIOLockedValueBox(0)
    private let arrivals: AsyncStream<Void>.Continuation?
    private let release: AsyncStream<Void>?

    /// Routes whose `/stall` reports to `arrivals` and waits for `release` to finish.
    public init(arrivals: AsyncStream<Void>.Continuation? = nil, release: AsyncStream<Void>? = nil) {
        self.arrivals = arrivals
        self.release = release
    }

    /// Adds the routes to `router`.
    public func add(to router: Router<BasicRequestContext>) {
        router.get("zen") { _, _ in "Practicality beats purity." }
        router.get("users/:name") { _, context in
            let name = context.parameters.get("name") ?? ""
            return #"{"login": "\#(name)", "id": 1}"#
        }
        router.get("missing") { _, _ in Hummingbird.Response(status: .notFound) }
        router.get("bytes") { _, _ in String(repeating: "a", count: Self.bodySize) }
        router.get("count") { [hits] _, _ in
            String(
                hits.withLockedValue { count in
                    count += 1
                    return count
                }
            )
        }
        router.get("stall") { [arrivals, release] _, _ -> String in
            arrivals?.yield()
            if let release {
                for await _ in release {}
            }
            return "late"
        }
    }
}

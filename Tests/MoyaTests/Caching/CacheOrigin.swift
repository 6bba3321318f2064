import Foundation
import HTTPTypes
import Hummingbird
import LoopbackServer
import NIOCore

@testable import Moya

/// A loopback origin server for the cache tests: each route counts the requests it answers and
/// keeps the headers of the last one, so that a test can tell a cache hit (no request) from a
/// validation (a conditional request) from a fetch.
final class CacheOrigin: Sendable {
    /// What a route answers.
    struct Reply: Sendable {
        var status: HTTPResponse.Status = .ok
        var headers: [(String, String)] = []
        var body = ""
    }

    private let hits = Synchronized<[String: Int]>([:])
    private let lastHeaders = Synchronized<[String: HTTPFields]>([:])

    /// How many requests reached `path`.
    func hits(_ path: String) -> Int {
        hits.update { $0[path, default: 0] }
    }

    /// A header of the last request to `path`.
    func lastHeader(_ name: String, at path: String) -> String? {
        lastHeaders.update { $0[path]?[HTTPField.Name(name)!] }
    }

    /// Adds a route for `method` at `path`; `reply` receives the request's headers and the
    /// number of the request (1 for the first).
    func route(
        _ router: Router<BasicRequestContext>,
        _ path: String,
        method: HTTPRequest.Method = .get,
        reply: @escaping @Sendable (HTTPFields, Int) async throws -> Reply
    ) {
        router.on(RouterPath(path), method: method) { request, _ -> Hummingbird.Response in
            let number = self.hits.update { hits in
                hits[path, default: 0] += 1
                return hits[path, default: 0]
            }
            self.lastHeaders.update { $0[path] = request.headers }
            let answer = try await reply(request.headers, number)
            var headers = HTTPFields()
            for (name, value) in answer.headers {
                headers.append(HTTPField(name: HTTPField.Name(name)!, value: value))
            }
            return Hummingbird.Response(
                status: answer.status,
                headers: headers,
                body: .init(byteBuffer: ByteBuffer(string: answer.body))
            )
        }
    }
}

/// A target for the cache tests, with its own cache policy and timeout.
struct CacheTarget: TargetType, RequestPolicies {
    var baseURL: URL
    var path: String
    var method: Moya.Method = .get
    var headers: [String: String]? = nil
    var makeTask: @Sendable () -> Moya.Task = { .requestPlain }
    var cachePolicy: CachePolicy? = nil
    var timeoutInterval: TimeInterval? = nil

    var task: Moya.Task { makeTask() }
}

/// A clock for the cache that stands still at the moment it was made, plus whatever a test
/// adds to it: a response's age moves only when the test says so, never because a loaded
/// machine (a sanitizer run beside the storm tests) took seconds between two requests.
final class CacheClock: Sendable {
    private let start = Date()
    private let offset = Synchronized<TimeInterval>(0)

    func advance(_ seconds: TimeInterval) {
        offset.update { $0 += seconds }
    }

    func now() -> Date {
        start.addingTimeInterval(offset.update { $0 })
    }
}

extension HTTPCache {
    /// A memory cache on a test clock.
    static func memory(
        clock: CacheClock,
        policy: CachePolicy = .useProtocol,
        storesAuthorizedResponses: Bool = false
    ) -> HTTPCache {
        HTTPCache(
            store: MemoryCacheStore(maxBytes: 1 << 20),
            policy: policy,
            storesAuthorizedResponses: storesAuthorizedResponses,
            now: { clock.now() }
        )
    }
}

/// A provider on a session with `cache`.
///
/// Without cookies: a request's `Cookie` is part of the variant a response is stored for, and
/// the shared storage would carry the cookies any test's server set for 127.0.0.1 (every port
/// matches) into these tests' requests.
func cachingProvider(_ cache: HTTPCache?, plugins: [PluginType] = []) -> MoyaProvider<CacheTarget> {
    MoyaProvider<CacheTarget>(
        session: Session(configuration: .init(cache: cache, cookieStorage: nil)),
        plugins: plugins
    )
}

extension CacheStatus {
    /// Whether the status is `.revalidated`, whatever the age.
    var isRevalidated: Bool {
        if case .revalidated = self { return true }
        return false
    }
}

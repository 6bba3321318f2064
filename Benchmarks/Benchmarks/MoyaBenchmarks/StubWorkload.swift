import Benchmark
import Foundation
import Moya
import NIOConcurrencyHelpers

/// The stub workload as users' unit tests run it, beside its floor: the same `URLRequest` built
/// by hand, which is all a test without Moya would need to make before handing it to a fake.
///
/// Moya's side: a target with two URL-encoded query parameters and an `Accept` header, a plugin
/// that sets `Authorization` in `prepare`, a plugin that observes `willSend` and `didReceive`,
/// `MoyaProvider(stubClosure: MoyaProvider.immediatelyStub)` with no callback queue, and the
/// callback API, whose completion then runs inside `request`, as in Moya 15.
func stubWorkloadBenchmarks(_ configuration: Benchmark.Configuration) {
    let batch = 50000
    let name = "Stub workload: 2 query parameters, 2 plugins, callback API"

    Benchmark("\(name) · Moya", configuration: configuration) { benchmark, fixture in
        benchmark.measurement(requestsMetric, batch)
        let before = fixture.spy.received
        for _ in 0..<batch {
            fixture.provider.request(SearchTarget()) { result in
                blackHole(result)
            }
        }
        // Every completion must have run, inside `request`: otherwise the batch measured less
        // than it claims.
        let received = fixture.spy.received - before
        guard received == batch else { throw BenchmarkFailure("\(received) stubbed answers instead of \(batch)") }
    } setup: {
        try StubWorkload()
    }

    Benchmark("\(name) · URLRequest by hand", configuration: configuration) { benchmark in
        benchmark.measurement(requestsMetric, batch)
        for _ in 0..<batch {
            blackHole(try StubWorkload.handBuiltRequest())
        }
    }
}

/// The provider of the stub workload, with its observing plugin, checked once against the
/// hand-built request.
struct StubWorkload: Sendable {
    let provider: MoyaProvider<SearchTarget>
    let spy: SpyPlugin

    init() throws {
        spy = SpyPlugin()
        provider = MoyaProvider<SearchTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [HeaderPlugin(), spy]
        )
        // The floor must build the request Moya sends: same URL, same header fields.
        let moya = HeaderPlugin().prepare(try provider.endpoint(SearchTarget()).urlRequest(), target: SearchTarget())
        let hand = try Self.handBuiltRequest()
        guard moya.url == hand.url, moya.allHTTPHeaderFields == hand.allHTTPHeaderFields else {
            throw BenchmarkFailure(
                "The hand-built request differs from Moya's: \(String(describing: hand.url)) "
                    + "\(hand.allHTTPHeaderFields ?? [:]) against \(String(describing: moya.url)) "
                    + "\(moya.allHTTPHeaderFields ?? [:])"
            )
        }
    }

    /// The request without Moya: the URL and its query through `URLComponents`, two header
    /// fields set on the `URLRequest`.
    static func handBuiltRequest() throws -> URLRequest {
        guard var components = URLComponents(string: "https://api.example.com/v1/search") else {
            throw BenchmarkFailure("Invalid URL")
        }
        components.queryItems = [URLQueryItem(name: "page", value: "2"), URLQueryItem(name: "q", value: "swift")]
        guard let url = components.url else { throw BenchmarkFailure("Invalid query") }
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("Bearer benchmark", forHTTPHeaderField: "Authorization")
        return request
    }
}

/// A search endpoint as an app declares it: two query parameters, an `Accept` header.
struct SearchTarget: TargetType {
    private static let base: URL = {
        guard let url = URL(string: "https://api.example.com") else { fatalError("Invalid base URL") }
        return url
    }()

    var baseURL: URL { Self.base }
    var path: String { "/v1/search" }
    var method: Moya.Method { .get }
    var task: Moya.Task {
        .requestParameters(parameters: ["page": 2, "q": "swift"], encoding: URLEncoding.queryString)
    }
    var headers: [String: String]? { ["Accept": "application/json"] }
    var sampleData: Data { Payloads.json1KB }
}

/// Observes each request's start and end as a test's spy plugin does: counts them under a lock,
/// keeping the last URL sent and the last status code received.
final class SpyPlugin: PluginType, Sendable {
    private struct Seen {
        var sent = 0
        var received = 0
        var lastURL: URL?
        var lastStatusCode: Int?
    }

    private let seen = NIOLockedValueBox(Seen())

    /// How many results the plugin has seen.
    var received: Int {
        seen.withLockedValue { $0.received }
    }

    func willSend(_ request: RequestType, target: TargetType) {
        let url = request.request?.url
        seen.withLockedValue { seen in
            seen.sent += 1
            seen.lastURL = url
        }
    }

    func didReceive(_ result: Result<Moya.Response, MoyaError>, target: TargetType) {
        let statusCode = try? result.get().statusCode
        seen.withLockedValue { seen in
            seen.received += 1
            seen.lastStatusCode = statusCode
        }
    }
}

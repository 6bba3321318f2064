// swift-format-ignore-file
// Moya 15 app code, kept exactly as apps write it: not formatted.
import Foundation
import Moya

/// Providers configured the ways Moya's documentation shows.
enum Providers {
    static func stubbed(plugins: [PluginType] = []) -> MoyaProvider<GitHub> {
        let endpointClosure = { (target: GitHub) -> Endpoint in
            let defaultEndpoint = MoyaProvider.defaultEndpointMapping(for: target)
            return defaultEndpoint.adding(newHTTPHeaderFields: ["APP_NAME": "MY_AWESOME_APP"])
        }
        let requestClosure = { (endpoint: Endpoint, done: MoyaProvider.RequestResultClosure) in
            do {
                var request = try endpoint.urlRequest()
                request.httpShouldHandleCookies = false
                done(.success(request))
            } catch {
                done(.failure(MoyaError.underlying(error, nil)))
            }
        }
        return MoyaProvider<GitHub>(
            endpointClosure: endpointClosure,
            requestClosure: requestClosure,
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: plugins
        )
    }

    static func customEndpoints() -> MoyaProvider<GitHub> {
        let endpointClosure = { (target: GitHub) -> Endpoint in
            Endpoint(
                url: URL(target: target).absoluteString,
                sampleResponseClosure: { .networkResponse(200, target.sampleData) },
                method: target.method,
                task: target.task,
                httpHeaderFields: target.headers
            )
        }
        return MoyaProvider<GitHub>(endpointClosure: endpointClosure, stubClosure: MoyaProvider.immediatelyStub)
    }

    static func delayed() -> MoyaProvider<GitHub> {
        MoyaProvider<GitHub>(stubClosure: MoyaProvider.delayedStub(0.01))
    }

    static func downloadDestination(into directory: URL) -> DownloadDestination {
        return { _, response in
            let file = directory.appendingPathComponent(response.suggestedFilename ?? "file")
            return (file, [.removePreviousFile, .createIntermediateDirectories])
        }
    }
}

/// A provider subclass, as Moya's own demo writes one.
///
/// The one line Moya code must change: `MoyaProvider` is `Sendable` here (so Swift 6 code can
/// share a provider between tasks), and Swift asks every subclass of an `@unchecked Sendable`
/// class to restate that conformance. See the README's "What differs from Moya".
final class OnlineProvider<Target>: MoyaProvider<Target>, @unchecked Sendable where Target: Moya.TargetType {
    var requestsMade = 0

    override func request(
        _ target: Target,
        callbackQueue: DispatchQueue? = .none,
        progress: ProgressBlock? = .none,
        completion: @escaping Completion
    ) -> Cancellable {
        requestsMade += 1
        return super.request(target, callbackQueue: callbackQueue, progress: progress, completion: completion)
    }
}

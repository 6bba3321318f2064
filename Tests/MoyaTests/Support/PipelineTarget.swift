import Foundation
import Moya
import NIOConcurrencyHelpers
import Testing

/// A small API used by the provider pipeline tests.
enum PipelineTarget: TargetType {
    case zen
    case user(String)
    case validated(statusCode: Int)
    case headerInjection

    var baseURL: URL { URL(string: "https://api.example.test")! }

    var path: String {
        switch self {
        case .zen, .validated, .headerInjection: return "/zen"
        case .user(let name): return "/users/\(name)"
        }
    }

    var method: Moya.Method { .get }

    var sampleData: Data {
        switch self {
        case .zen, .validated, .headerInjection: return Data("Half measures are as bad as nothing at all.".utf8)
        case .user(let name): return Data("{\"login\": \"\(name)\", \"id\": 100}".utf8)
        }
    }

    var task: Task { .requestPlain }

    var validationType: ValidationType {
        if case .validated = self { return .successCodes }
        return .none
    }

    var headers: [String: String]? {
        if case .headerInjection = self { return ["X-Evil": "value\r\nInjected: yes"] }
        return nil
    }
}

extension MoyaProvider {
    /// Sends a request through the callback API and waits for its completion.
    ///
    /// The result crosses to the waiting task in a lock as well as through the continuation:
    /// ThreadSanitizer does not always see the continuation's hand-off (when it is resumed before
    /// the task has suspended, the runtime's uninstrumented atomics carry it), and then reports
    /// the response's fields, written on the completion's thread, as raced.
    func requestAndWait(_ target: Target, callbackQueue: DispatchQueue) async -> Result<Response, MoyaError> {
        let handOver = NIOLockedValueBox<Result<Response, MoyaError>?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            request(target, callbackQueue: callbackQueue) { result in
                handOver.withLockedValue { $0 = result }
                continuation.resume()
            }
        }
        guard let result = handOver.withLockedValue({ $0 }) else {
            Issue.record("the completion resumed the waiting task without a result")
            return .failure(MoyaError.underlying(CancellationError(), nil))
        }
        return result
    }
}

/// A plugin that records each call it receives.
struct RecordingPlugin: PluginType {
    let name: String
    let log: EventLog

    func prepare(_ request: URLRequest, target: TargetType) -> URLRequest {
        log.record("\(name).prepare")
        return request
    }

    func willSend(_ request: RequestType, target: TargetType) {
        log.record("\(name).willSend")
    }

    func didReceive(_ result: Result<Response, MoyaError>, target: TargetType) {
        log.record("\(name).didReceive")
    }

    func process(_ result: Result<Response, MoyaError>, target: TargetType) -> Result<Response, MoyaError> {
        log.record("\(name).process")
        return result
    }
}

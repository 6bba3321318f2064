import Foundation
import Moya
import NIOConcurrencyHelpers

/// A plugin that captures every request a provider sends, stubbed or not, for a test to
/// assert on.
///
/// ```swift
/// let requests = RequestRecorder()
/// let provider = MoyaProvider<API>(stubClosure: MoyaProvider.immediatelyStub, plugins: [requests])
/// _ = try await provider.request(.createUser(name: "moya"))
/// let sent = try #require(requests.last)
/// #expect(sent.method == .post)
/// #expect(sent.header("Content-Type") == "application/json")
/// ```
///
/// A request is captured in `willSend`, which the provider calls once every plugin's `prepare`
/// has run, so the capture includes headers that plugins (`AccessTokenPlugin`, say) added.
/// Requests that fail before being sent (an invalid URL, say) are not captured.
public final class RequestRecorder: PluginType, Sendable {
    private let captured = NIOLockedValueBox<[SentRequest]>([])

    /// Creates an empty recorder.
    public init() {}

    /// Every request captured so far, in the order they were sent.
    public var requests: [SentRequest] {
        captured.withLockedValue { $0 }
    }

    /// The request sent last.
    public var last: SentRequest? {
        captured.withLockedValue { $0.last }
    }

    /// The requests sent to a URL with this path.
    public func requests(toPath path: String) -> [SentRequest] {
        requests.filter { $0.path == path }
    }

    /// Forgets every captured request.
    public func removeAll() {
        captured.withLockedValue { $0.removeAll() }
    }

    /// Captures the request.
    public func willSend(_ request: RequestType, target: TargetType) {
        guard let urlRequest = request.request else { return }
        let sent = SentRequest(request: urlRequest, target: target, sessionHeaders: request.sessionHeaders)
        captured.withLockedValue { $0.append(sent) }
    }
}

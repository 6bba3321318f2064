import Foundation
import Moya
import Testing

@Suite("NetworkActivityPlugin")
struct NetworkActivityPluginTests {
    private let queue = DispatchQueue(label: "network-activity-tests")

    /// A plugin that records `began <target>` and `ended <target>`.
    private func activityPlugin(_ log: EventLog) -> NetworkActivityPlugin {
        NetworkActivityPlugin { change, target in
            switch change {
            case .began: log.record("began \(target)")
            case .ended: log.record("ended \(target)")
            }
        }
    }

    @Test func willSendReportsBeganAndDidReceiveReportsEnded() {
        let log = EventLog()
        let plugin = activityPlugin(log)
        plugin.willSend(StubRequest(nil), target: PipelineTarget.zen)
        #expect(log.all == ["began zen"])
        plugin.didReceive(.success(Response(statusCode: 200, data: Data())), target: PipelineTarget.zen)
        #expect(log.all == ["began zen", "ended zen"])
    }

    @Test func aFailureEndsTheActivityToo() {
        let log = EventLog()
        activityPlugin(log).didReceive(.failure(.requestMapping("x")), target: PipelineTarget.user("ada"))
        #expect(log.all == ["ended user(\"ada\")"])
    }

    @Test func aStubbedRequestBeginsThenEndsBeforeItsCompletion() async throws {
        let log = EventLog()
        let provider = MoyaProvider<PipelineTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [activityPlugin(log)]
        )
        _ = try await provider.requestAndWait(.user("ada"), callbackQueue: queue).get()
        log.record("completion")
        #expect(log.all == ["began user(\"ada\")", "ended user(\"ada\")", "completion"])
    }

    @Test func aStubbedNetworkErrorBeginsThenEnds() async {
        let log = EventLog()
        let provider = MoyaProvider<PipelineTarget>(
            endpointClosure: { target in
                Endpoint(
                    url: URL(target: target).absoluteString,
                    sampleResponseClosure: {
                        .networkError(NSError(domain: NSURLErrorDomain, code: NSURLErrorNotConnectedToInternet))
                    },
                    method: target.method,
                    task: target.task,
                    httpHeaderFields: target.headers
                )
            },
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [activityPlugin(log)]
        )
        let result = await provider.requestAndWait(.zen, callbackQueue: queue)
        guard case .failure(.underlying(_, _)) = result else {
            Issue.record("expected the stubbed network error, got \(result)")
            return
        }
        #expect(log.all == ["began zen", "ended zen"])
    }

    @Test func everyRequestReportsItsOwnPair() async throws {
        let log = EventLog()
        let provider = MoyaProvider<PipelineTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            plugins: [activityPlugin(log)]
        )
        _ = try await provider.requestAndWait(.zen, callbackQueue: queue).get()
        _ = try await provider.requestAndWait(.user("b"), callbackQueue: queue).get()
        #expect(log.all == ["began zen", "ended zen", "began user(\"b\")", "ended user(\"b\")"])
    }
}

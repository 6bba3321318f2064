import CombineMoya
import Foundation
import Moya
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// `streamPublisher(_:)` and `eventsPublisher(_:reconnect:)` on stubbed streams: values only
/// against demand, then the completion; cancelling ends the stream.
@Suite("Stream publishers")
struct StreamPublisherTests {
    private struct Feed: TargetType {
        var baseURL: URL { URL(string: "https://api.example.test")! }
        var path: String { "/feed" }
        var method: Moya.Method { .get }
        var task: Moya.Task { .requestPlain }
        var headers: [String: String]? { nil }
    }

    private func provider(_ stream: SampleStream) -> MoyaProvider<Feed> {
        MoyaProvider<Feed>(
            endpointClosure: { target in
                let endpoint = MoyaProvider.defaultEndpointMapping(for: target)
                return Endpoint(
                    url: endpoint.url,
                    sampleResponseClosure: endpoint.sampleResponseClosure,
                    method: endpoint.method,
                    task: endpoint.task,
                    sampleStreamClosure: { stream }
                )
            },
            stubClosure: MoyaProvider.immediatelyStub
        )
    }

    @Test(.timeLimit(.minutes(1)))
    func eventsArriveOnlyAgainstDemandThenTheStreamFinishes() async {
        let events = (1...3).map { ServerSentEvent(data: "event \($0)") }
        let recorder = Recorder<ServerSentEvent>(initialDemand: .max(1))
        provider(.events(events)).eventsPublisher(Feed()).subscribe(recorder)
        await recorder.waitForValues(1)
        #expect(recorder.values == [events[0]])
        #expect(recorder.ending == nil)
        recorder.request(.max(2))
        await recorder.waitForEnding()
        #expect(recorder.values == events)
        #expect(recorder.endings.count == 1)
        #expect(recorder.ending?.error == nil)
        #expect(recorder.contractViolations == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func chunksArriveInOrderAndAFailureEndsThePublisher() async {
        let chunks = [Data("a".utf8), Data("b".utf8)]
        let stream = SampleStream.chunks(chunks).failing(with: URLError(.networkConnectionLost))
        let recorder = Recorder<Data>(initialDemand: .unlimited)
        provider(stream).streamPublisher(Feed()).subscribe(recorder)
        await recorder.waitForEnding()
        #expect(recorder.values == chunks)
        guard case .underlying(let error, _)? = recorder.ending?.error else {
            Issue.record("expected the played failure, got \(String(describing: recorder.ending))")
            return
        }
        #expect((error as? URLError)?.code == .networkConnectionLost)
    }
}

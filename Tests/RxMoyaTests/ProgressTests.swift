#if RxMoya
import Foundation
import Moya
import ReactiveTestSupport
@testable import RxMoya
// RxSwift has no Sendable annotations; the tests share nothing mutable outside recorders.
@preconcurrency import RxSwift
import Testing

@Suite("provider.rx.requestWithProgress", .timeLimit(.minutes(1)))
struct ProgressTests {
    @Test func stubEndsWithOneCompletedEventThenCompletes() async throws {
        let recorder = await stubProvider().rx.requestWithProgress(.zen).record()

        let completed = recorder.values.filter(\.completed)
        #expect(completed.count == 1)
        #expect(try #require(recorder.values.last).response?.data == StubAPI.zen.sampleData)
        #expect(recorder.completed)
    }

    @Test func errorEndsTheSequenceWithTheMoyaError() async {
        let recorder = await failingStubProvider(code: 7).rx.requestWithProgress(.zen).record()

        #expect(recorder.values.allSatisfy { !$0.completed })
        guard case .underlying(let error, _) = recorder.error as? MoyaError else {
            Issue.record("expected .underlying, got \(recorder.events)")
            return
        }
        #expect((error as NSError).code == 7)
    }

    @Test func filterCompletedPassesOnTheResponseOnly() async {
        let recorder = await stubProvider().rx.requestWithProgress(.user).filterCompleted().record()

        #expect(recorder.values.map(\.data) == [StubAPI.user.sampleData])
        #expect(recorder.completed)
    }

    @Test func filterProgressDropsTheCompletedEvent() async {
        let observable = Observable.from([
            ProgressResponse(progress: progress(1, of: 4)),
            ProgressResponse(progress: progress(3, of: 4)),
            ProgressResponse(response: Response(statusCode: 200, data: Data())),
        ])
        let recorder = await observable.filterProgress().record()

        #expect(recorder.values == [0.25, 0.75])
    }

    @Test func relayCarriesTheLastProgressIntoEventsWithoutOne() async {
        let recorder = await relayed { relay in
            relay.progress(ProgressResponse(progress: progress(1, of: 2)))
            relay.progress(ProgressResponse(response: Response(statusCode: 200, data: Data())))
            relay.end(.success(Response(statusCode: 200, data: Data())))
        }

        #expect(recorder.values.map { $0.progressObject?.completedUnitCount } == [1, 1])
        #expect(recorder.values.map(\.completed) == [false, true])
        #expect(recorder.completed)
    }

    @Test func relaySendsTheResponseOnceWhenTheProviderSentItAlready() async {
        let response = Response(statusCode: 200, data: Data("a".utf8))
        let recorder = await relayed { relay in
            relay.progress(ProgressResponse(response: response))
            relay.progress(ProgressResponse(progress: progress(1, of: 1)))
            relay.end(.success(response))
        }

        #expect(recorder.values.map(\.completed) == [true])
        #expect(recorder.events.count == 2)
    }

    @Test func relaySendsTheResponseItselfWhenTheProviderDidNot() async {
        let recorder = await relayed { relay in
            relay.end(.success(Response(statusCode: 201, data: Data())))
            relay.end(.failure(.requestMapping("ignored")))
        }

        #expect(recorder.values.map { $0.response?.statusCode } == [201])
        #expect(recorder.completed)
        #expect(recorder.error == nil)
    }

    /// A `Progress` with `completed` of `total` units.
    private func progress(_ completed: Int64, of total: Int64) -> Progress {
        let progress = Progress(totalUnitCount: total)
        progress.completedUnitCount = completed
        return progress
    }

    /// What an observer of a `ProgressRelay` receives when `drive` feeds it.
    private func relayed(_ drive: @escaping (ProgressRelay) -> Void) async -> EventRecorder<ProgressResponse> {
        await Observable<ProgressResponse>.create { observer in
            drive(ProgressRelay(observer: observer))
            return Disposables.create()
        }
        .record()
    }
}
#endif

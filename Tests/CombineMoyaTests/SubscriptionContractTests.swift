import Foundation
import Moya
import Testing

@testable import CombineMoya

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// A request the test answers by hand, through the sink the publisher gave it.
///
/// - Note: `@unchecked Sendable` because every stored `var` is read and written under `lock`.
final class ManualRequest: @unchecked Sendable {
    /// Values from this one on are final.
    static let finalValue = 100

    private let lock = NSLock()
    private var sinks: [RequestEventSink<Int>] = []
    private var cancellations = 0
    private let onStart: @Sendable (RequestEventSink<Int>) -> Void
    private let callbackQueue: DispatchQueue?

    /// - Parameters:
    ///   - callbackQueue: The queue the request answers on, as a provider's callback queue.
    ///   - onStart: Runs inside `start`, before it returns.
    init(callbackQueue: DispatchQueue? = nil, onStart: @escaping @Sendable (RequestEventSink<Int>) -> Void = { _ in }) {
        self.callbackQueue = callbackQueue
        self.onStart = onStart
    }

    var publisher: AnyPublisher<Int, MoyaError> {
        RequestPublisher<Int>(isFinal: { $0 >= Self.finalValue }, callbackQueue: callbackQueue) { sink in
            self.lock.withLock { self.sinks.append(sink) }
            self.onStart(sink)
            return CancellableToken { self.lock.withLock { self.cancellations += 1 } }
        }
        .eraseToAnyPublisher()
    }

    var starts: Int { lock.withLock { sinks.count } }
    var cancels: Int { lock.withLock { cancellations } }
    var sink: RequestEventSink<Int>? { lock.withLock { sinks.first } }
}

@Suite("Request subscription contract")
struct SubscriptionContractTests {
    /// A fresh request, started by a recorder that asks for `demand`, with the sink it answers through.
    private func startedRequest(
        demand: Subscribers.Demand = .unlimited,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (request: ManualRequest, recorder: Recorder<Int>, sink: RequestEventSink<Int>) {
        let request = ManualRequest()
        let recorder = Recorder<Int>(initialDemand: demand)
        request.publisher.subscribe(recorder)
        return (request, recorder, try #require(request.sink, sourceLocation: sourceLocation))
    }

    @Test func startsOnceOnTheFirstDemand() throws {
        let request = ManualRequest()
        let recorder = Recorder<Int>(initialDemand: .none)
        request.publisher.subscribe(recorder)
        #expect(request.starts == 0)

        recorder.request(.max(1))
        recorder.request(.max(1))
        #expect(request.starts == 1)
    }

    @Test func valueWaitsForDemandAndFinishedWaitsForTheValue() throws {
        let (_, recorder, sink) = try startedRequest(demand: .max(1))

        sink.send(1)
        sink.send(2)
        sink.send(ManualRequest.finalValue)
        sink.finish()
        #expect(recorder.values == [1])
        #expect(recorder.endings.isEmpty)

        recorder.request(.max(1))
        #expect(recorder.values == [1, ManualRequest.finalValue])
        #expect(recorder.endings.count == 1)
        #expect(recorder.ending?.error == nil)
    }

    @Test func nothingCountsAfterTheFinalValue() throws {
        let (_, recorder, sink) = try startedRequest(demand: .max(1))

        sink.send(ManualRequest.finalValue)
        sink.send(3)
        sink.finish()
        #expect(recorder.values == [ManualRequest.finalValue])
        #expect(recorder.endings.count == 1)
    }

    @Test func failureArrivesWithoutDemandAndDropsTheWaitingValue() throws {
        let (_, recorder, sink) = try startedRequest(demand: .max(1))

        sink.send(1)
        sink.send(2)
        sink.fail(.requestMapping("boom"))
        #expect(recorder.values == [1])
        guard case .requestMapping("boom") = recorder.ending?.error else {
            Issue.record("expected the failure, got \(recorder.endings)")
            return
        }
    }

    @Test func onlyTheFirstEndCounts() throws {
        let (_, recorder, sink) = try startedRequest()

        sink.finish()
        sink.fail(.requestMapping("late"))
        sink.send(1)
        sink.finish()
        #expect(recorder.values.isEmpty)
        #expect(recorder.endings.count == 1)
        #expect(recorder.ending?.error == nil)
    }

    @Test func cancelCancelsTheRequestOnceAndSilencesIt() throws {
        let (request, recorder, sink) = try startedRequest()

        recorder.cancel()
        recorder.cancel()
        sink.send(ManualRequest.finalValue)
        sink.finish()
        #expect(request.cancels == 1)
        #expect(recorder.values.isEmpty)
        #expect(recorder.endings.isEmpty)
    }

    @Test func cancelAfterTheEndDoesNotCancelTheRequest() throws {
        let (request, recorder, sink) = try startedRequest()

        sink.send(ManualRequest.finalValue)
        sink.finish()
        recorder.cancel()
        #expect(request.cancels == 0)
        #expect(recorder.endings.count == 1)
    }

    @Test func cancelBeforeDemandNeverStarts() {
        let request = ManualRequest()
        let recorder = Recorder<Int>(initialDemand: .none)
        request.publisher.subscribe(recorder)

        recorder.cancel()
        recorder.request(.unlimited)
        #expect(request.starts == 0)
        #expect(request.cancels == 0)
    }

    @Test func answerInsideStartIsDeliveredAfterReceiveSubscriptionReturns() {
        let request = ManualRequest { sink in
            sink.send(ManualRequest.finalValue)
            sink.finish()
        }
        let recorder = Recorder<Int>()
        request.publisher.subscribe(recorder)

        #expect(recorder.values == [ManualRequest.finalValue])
        #expect(recorder.endings.count == 1)
        #expect(recorder.contractViolations == 0)
    }

    @Test func answerDuringReceiveSubscriptionFromAnotherThreadIsDeliveredOnceOnThatThread() async {
        // The answer comes from another queue, possibly while the subscriber is still in
        // `receive(subscription:)`: it must be delivered once, after that call returns, on the
        // queue that answered.
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "answering-queue")
        queue.setSpecific(key: key, value: "answering")
        for _ in 0..<200 {
            let request = ManualRequest(callbackQueue: queue) { sink in
                queue.async {
                    sink.send(ManualRequest.finalValue)
                    sink.finish()
                }
            }
            let recorder = Recorder<String>()
            request.publisher
                .map { _ in DispatchQueue.getSpecific(key: key) ?? "elsewhere" }
                .subscribe(recorder)
            await recorder.waitForEnding()
            #expect(recorder.values == ["answering"])
            #expect(recorder.endings.count == 1)
            #expect(recorder.contractViolations == 0)
        }
    }

    @Test func concurrentValuesDemandAndCancelNeverOverlapOrDeliverTwice() async {
        for round in 0..<200 {
            let request = ManualRequest()
            let recorder = Recorder<Int>(initialDemand: .max(1))
            request.publisher.subscribe(recorder)
            guard let sink = request.sink else {
                Issue.record("the request did not start")
                return
            }
            await withTaskGroup(of: Void.self) { group in
                for value in 0..<4 {
                    group.addTask { sink.send(value) }
                }
                group.addTask { recorder.request(.max(2)) }
                group.addTask {
                    sink.send(ManualRequest.finalValue)
                    sink.finish()
                }
                if round.isMultiple(of: 2) {
                    group.addTask { recorder.cancel() }
                }
            }
            recorder.request(.unlimited)

            #expect(recorder.contractViolations == 0)
            #expect(recorder.endings.count <= 1)
            #expect(recorder.values.filter { $0 >= ManualRequest.finalValue }.count <= 1)
            if !round.isMultiple(of: 2) {
                // Not cancelled: it finished, and the final value came last.
                #expect(recorder.endings.count == 1)
                #expect(recorder.values.last == ManualRequest.finalValue)
            }
        }
    }
}

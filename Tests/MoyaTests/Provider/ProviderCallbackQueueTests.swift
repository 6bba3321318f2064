import Foundation
import Moya
import Testing

@Suite("Provider callback queues")
struct ProviderCallbackQueueTests {
    private static let key = DispatchSpecificKey<String>()

    private func labelledQueue(_ label: String) -> DispatchQueue {
        let queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.key, value: label)
        return queue
    }

    @Test func completionAndPluginsRunOnThePerCallQueue() async {
        let providerQueue = labelledQueue("provider")
        let callQueue = labelledQueue("call")
        let log = EventLog()
        let plugin = QueueRecordingPlugin(key: Self.key, log: log)
        let provider = MoyaProvider<PipelineTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            callbackQueue: providerQueue,
            plugins: [plugin]
        )
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            provider.request(.zen, callbackQueue: callQueue) { _ in
                log.record("completion@\(DispatchQueue.getSpecific(key: Self.key) ?? "none")")
                continuation.resume()
            }
        }
        #expect(log.all == ["didReceive@call", "process@call", "completion@call"])
    }

    @Test func completionRunsOnTheProviderQueueWhenTheCallNamesNone() async {
        let providerQueue = labelledQueue("provider")
        let provider = MoyaProvider<PipelineTarget>(
            stubClosure: MoyaProvider.immediatelyStub,
            callbackQueue: providerQueue
        )
        let label: String? = await withCheckedContinuation { continuation in
            provider.request(.zen) { _ in
                continuation.resume(returning: DispatchQueue.getSpecific(key: Self.key))
            }
        }
        #expect(label == "provider")
    }

    @Test func progressRunsOnTheCallbackQueueAndEndsCompleted() async {
        let callQueue = labelledQueue("progress")
        let log = EventLog()
        let provider = MoyaProvider<PipelineTarget>(stubClosure: MoyaProvider.immediatelyStub)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            provider.request(
                .zen,
                callbackQueue: callQueue,
                progress: { progress in
                    log.record("progress \(progress.completed)@\(DispatchQueue.getSpecific(key: Self.key) ?? "none")")
                },
                completion: { _ in
                    continuation.resume()
                }
            )
        }
        #expect(log.all == ["progress true@progress"])
    }

    @Test func immediateStubNeverCompletesInsideRequest() async {
        let provider = MoyaProvider<PipelineTarget>(stubClosure: MoyaProvider.immediatelyStub)
        let queue = DispatchQueue(label: "immediate")
        let returned = Counter()
        // `request` is called on the callback queue itself, so an asynchronous completion can only
        // run after the calling block, which marks the return, has finished.
        let returnedBeforeCompletion: Bool = await withCheckedContinuation { continuation in
            queue.async {
                provider.request(.zen, callbackQueue: queue) { _ in
                    continuation.resume(returning: returned.count == 1)
                }
                returned.increment()
            }
        }
        #expect(returnedBeforeCompletion)
    }
}

private struct QueueRecordingPlugin: PluginType {
    let key: DispatchSpecificKey<String>
    let log: EventLog

    func didReceive(_ result: Result<Response, MoyaError>, target: TargetType) {
        log.record("didReceive@\(DispatchQueue.getSpecific(key: key) ?? "none")")
    }

    func process(_ result: Result<Response, MoyaError>, target: TargetType) -> Result<Response, MoyaError> {
        log.record("process@\(DispatchQueue.getSpecific(key: key) ?? "none")")
        return result
    }
}

#if RxMoya
import ReactiveTestSupport
// RxSwift has no Sendable annotations; see `EventRecorder`.
@preconcurrency import RxSwift

extension ObservableConvertibleType {
    /// Subscribes, waits for the end, and returns what was received.
    func record() async -> EventRecorder<Element> {
        let recorder = EventRecorder<Element>()
        recorder.subscribe(to: self, queueName: currentQueueName)
        await recorder.waitForEnd()
        return recorder
    }

    /// Subscribes and returns the recorder at once, without waiting.
    func startRecording() -> EventRecorder<Element> {
        let recorder = EventRecorder<Element>()
        recorder.subscribe(to: self, queueName: currentQueueName)
        return recorder
    }
}
#endif

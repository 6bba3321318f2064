import Foundation
import Moya
import Testing

/// Cancels `recorder`'s subscription, then expects the provider to see its request end as
/// cancelled while the cancelled subscriber hears nothing of it.
func cancelAndExpectSilentCancellation<Input>(
    _ recorder: Recorder<Input>,
    counter: RequestCounter,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    recorder.cancel()
    await counter.waitForResult()
    await drain(callbackQueue)

    guard case .failure(let error) = counter.receivedResults.first else {
        Issue.record("expected the cancelled error, got \(counter.receivedResults)", sourceLocation: sourceLocation)
        return
    }
    #expect(error.isCancellation, sourceLocation: sourceLocation)
    #expect(recorder.values.isEmpty, sourceLocation: sourceLocation)
    #expect(recorder.endings.isEmpty, sourceLocation: sourceLocation)
}

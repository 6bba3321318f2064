import Foundation
import Moya

/// A provider whose stubs wait until `gate` opens (and stay open) and count their answers.
func gatedTrackingProvider<Target: TargetType>(
    _: Target.Type = Target.self,
    answers: Counter,
    gate: DispatchSemaphore
) -> MoyaProvider<Target> {
    MoyaProvider<Target>(
        endpointClosure: { target in
            Endpoint(
                url: URL(target: target).absoluteString,
                sampleResponseClosure: {
                    gate.wait()
                    gate.signal()
                    answers.increment()
                    return .networkResponse(200, target.sampleData)
                },
                method: target.method,
                task: target.task,
                httpHeaderFields: target.headers
            )
        },
        stubClosure: MoyaProvider.delayedStub(0),
        trackInflights: true
    )
}

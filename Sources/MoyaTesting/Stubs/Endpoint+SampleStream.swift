import Foundation
import Moya

extension Endpoint {
    /// A copy of the endpoint whose stubbed streams (`stream(_:)`, `events(_:reconnect:)`)
    /// play `sampleStream`: chunks or events, with delays, and perhaps a failure at the end.
    ///
    /// ```swift
    /// let provider = MoyaProvider<API>(
    ///     endpointClosure: { target in
    ///         MoyaProvider.defaultEndpointMapping(for: target).replacing(
    ///             sampleStream: .events([ServerSentEvent(data: "Hello"), ServerSentEvent(data: "world")], interval: 0.05)
    ///         )
    ///     },
    ///     stubClosure: MoyaProvider.immediatelyStub
    /// )
    /// for try await event in provider.events(.chat) { print(event.data) }
    /// ```
    public func replacing(sampleStream: SampleStream) -> Endpoint {
        replacing(sampleStreamClosure: { sampleStream })
    }

    /// A copy of the endpoint whose stubbed streams play what `sampleStreamClosure` returns
    /// for each request; `nil` lets the sample response answer instead.
    public func replacing(sampleStreamClosure: @escaping SampleStreamClosure) -> Endpoint {
        copy(sampleStreamClosure: sampleStreamClosure)
    }
}

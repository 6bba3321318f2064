import Foundation
import Moya

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

extension MoyaProvider {
    /// A publisher that sends `target`'s request when a subscriber first asks for a value, and
    /// emits the body of its response chunk by chunk (see `stream(_:)`), then finishes; or
    /// fails with the `MoyaError` that ended it.
    ///
    /// Chunks are emitted only against demand: a subscriber asking for one at a time slows
    /// the transfer. Cancelling the subscription ends the request. Values arrive on the
    /// stream's task, not on a callback queue: use `receive(on:)` to move them.
    public func streamPublisher(_ target: Target) -> AnyPublisher<Data, MoyaError> {
        StreamPublisher<Data> { emit throws(MoyaError) in
            let streamed = try await self.stream(target)
            for try await chunk in streamed.chunks {
                guard await emit(chunk) else { return }
            }
        }
        .eraseToAnyPublisher()
    }

    /// A publisher that opens `target`'s event stream when a subscriber first asks for a value,
    /// and emits its server-sent events (see `events(_:reconnect:maximumEventSize:)`), then
    /// finishes; or fails with the `MoyaError` that ended it.
    ///
    /// Events are emitted only against demand. Cancelling the subscription ends the request.
    /// Values arrive on the stream's task: use `receive(on:)` to move them.
    public func eventsPublisher(
        _ target: Target,
        reconnect: EventStreamReconnectPolicy = .never
    ) -> AnyPublisher<ServerSentEvent, MoyaError> {
        let events = self.events(target, reconnect: reconnect)
        return StreamPublisher<ServerSentEvent> { emit throws(MoyaError) in
            for try await event in events {
                guard await emit(event) else { return }
            }
        }
        .eraseToAnyPublisher()
    }
}

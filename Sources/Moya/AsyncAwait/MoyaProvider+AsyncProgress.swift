import Foundation
import NIOConcurrencyHelpers

extension MoyaProvider {
    /// Sends a request and streams its progress, ending with an event that carries the response.
    ///
    /// The request starts at once. The stream finishes after the completed event, or throws a
    /// `MoyaError`. When the consumer stops iterating early (it breaks out of the loop, or its
    /// task is cancelled) the request is cancelled.
    ///
    /// Progress events are snapshots: a consumer slower than the transfer sees only the most
    /// recent ones, never an unbounded backlog; the completed event is never dropped.
    public func requestWithProgress(_ target: Target) -> AsyncThrowingStream<ProgressResponse, Error> {
        let (stream, continuation) = AsyncThrowingStream<ProgressResponse, Error>.makeStream(
            bufferingPolicy: .bufferingNewest(32)
        )
        let lastProgress = ProgressMemo()
        // Through the overridable method, as `request(_:)` does.
        let token = ResultDelivery.$requestedBySurface.withValue(.inPlace) {
            request(
                target,
                callbackQueue: nil,
                progress: { event in
                    // The completed event is sent below, with the response plugins processed.
                    guard !event.completed else { return }
                    lastProgress.record(event.progressObject)
                    continuation.yield(event)
                },
                completion: { result in
                    // Holds the provider until the request ends: a released provider cancels its
                    // requests, and the stream must not depend on the caller keeping it.
                    withExtendedLifetime(self) {
                        switch result {
                        case .success(let response):
                            continuation.yield(ProgressResponse(progress: lastProgress.value, response: response))
                            continuation.finish()
                        case .failure(let error):
                            continuation.finish(throwing: error)
                        }
                    }
                }
            )
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination {
                token.cancel()
            }
        }
        return stream
    }

    /// Sends a request and decodes its body, as `Response.map(_:atKeyPath:using:failsOnEmptyData:)`
    /// does.
    ///
    /// - Throws: `MoyaError`: the request's error, or `.jsonMapping`/`.objectMapping` when the
    ///   body does not decode.
    ///
    /// Runs on the caller's actor, as `request(_:)` does, so that `D` need not be `Sendable`; the
    /// body is decoded there.
    nonisolated(nonsending)
        public func request<D: Decodable>(
            _ target: Target,
            as type: D.Type,
            atKeyPath keyPath: String? = nil,
            using decoder: JSONDecoder = JSONDecoder(),
            failsOnEmptyData: Bool = true
        ) async throws(MoyaError) -> D
    {
        let response = try await request(target)
        do {
            return try response.map(type, atKeyPath: keyPath, using: decoder, failsOnEmptyData: failsOnEmptyData)
        } catch let error as MoyaError {
            throw error
        } catch {
            throw MoyaError.objectMapping(error, response)
        }
    }
}

/// The last `Progress` a request reported, kept for its completed event.
private final class ProgressMemo: Sendable {
    private let progress = NIOLockedValueBox<Progress?>(nil)

    func record(_ value: Progress?) {
        progress.withLockedValue { $0 = value }
    }

    var value: Progress? {
        progress.withLockedValue { $0 }
    }
}

import Moya

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

extension AnyPublisher where Output == ProgressResponse, Failure == MoyaError {
    /// Keeps only the completed event and passes on its response.
    public func filterCompleted() -> AnyPublisher<Response, MoyaError> {
        compactMap(\.response).eraseToAnyPublisher()
    }

    /// Keeps only the events before completion and passes on their progress, from 0.0 to 1.0.
    public func filterProgress() -> AnyPublisher<Double, MoyaError> {
        filter { !$0.completed }.map(\.progress).eraseToAnyPublisher()
    }
}

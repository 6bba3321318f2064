#if RxMoya
import Moya
// RxSwift has no Sendable annotations; these operators only chain synchronous transforms.
@preconcurrency import RxSwift

extension ObservableType where Element == ProgressResponse {
    /// Keeps only the completed event and passes on its response.
    public func filterCompleted() -> Observable<Response> {
        compactMap(\.response)
    }

    /// Keeps only the events before completion and passes on their progress, from 0.0 to 1.0.
    public func filterProgress() -> Observable<Double> {
        filter { !$0.completed }.map(\.progress)
    }
}
#endif

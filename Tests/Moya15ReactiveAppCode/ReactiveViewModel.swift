// swift-format-ignore-file
// Moya 15 app code, kept exactly as apps write it: not formatted.
#if ReactiveMoya
import Foundation
import Moya
import ReactiveMoya
import ReactiveSwift

/// A view model as ReactiveMoya apps write one: it keeps the disposable of what it started.
final class ReactiveUserViewModel {
    private let provider: MoyaProvider<GitHub>
    private var disposable: Disposable?
    var user: User?
    var error: MoyaError?

    init(provider: MoyaProvider<GitHub>) {
        self.provider = provider
    }

    func load(_ name: String) {
        disposable = provider.reactive.request(.userProfile(name))
            .filterSuccessfulStatusCodes()
            .map(User.self)
            .observe(on: UIScheduler())
            .startWithResult { [weak self] result in
                switch result {
                case let .success(user):
                    self?.user = user
                case let .failure(error):
                    self?.error = error
                }
            }
    }

    func zen() -> SignalProducer<String, MoyaError> {
        provider.reactive.request(.zen).mapString()
    }

    deinit {
        disposable?.dispose()
    }
}
#endif

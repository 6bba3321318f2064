// swift-format-ignore-file
// Moya 15 app code, kept exactly as apps write it: not formatted.
#if RxMoya
import Foundation
import Moya
import RxMoya
import RxSwift

/// A view model as RxMoya apps write one: it keeps its subscriptions in a dispose bag.
final class UserViewModel {
    private let provider: MoyaProvider<GitHub>
    private let disposeBag = DisposeBag()
    var user: User?
    var error: Error?
    var progress: [Double] = []

    init(provider: MoyaProvider<GitHub>) {
        self.provider = provider
    }

    func load(_ name: String) {
        provider.rx.request(.userProfile(name))
            .filterSuccessfulStatusCodes()
            .map(User.self)
            .subscribe(onSuccess: { [weak self] user in
                self?.user = user
            }, onFailure: { [weak self] error in
                self?.error = error
            })
            .disposed(by: disposeBag)
    }

    func zen() -> Observable<String> {
        provider.rx.request(.zen)
            .asObservable()
            .mapString()
    }

    func download() {
        provider.rx.requestWithProgress(.zen)
            .filterProgress()
            .subscribe(onNext: { [weak self] value in
                self?.progress.append(value)
            })
            .disposed(by: disposeBag)
    }
}

/// A main-actor view model that moves results to the main thread, as the threading chapter shows.
@MainActor
final class MainUserViewModel {
    let provider: MoyaProvider<GitHub>
    let disposeBag = DisposeBag()
    var login: String?

    init(provider: MoyaProvider<GitHub>) {
        self.provider = provider
    }

    func load(_ name: String) {
        provider.rx.request(.userProfile(name))
            .map(User.self)
            .observe(on: MainScheduler.instance)
            .subscribe { [weak self] event in
                switch event {
                case .success(let user):
                    self?.login = user.login
                case .failure:
                    self?.login = nil
                }
            }
            .disposed(by: disposeBag)
    }
}
#endif

// swift-format-ignore-file
// Moya 15 app code, kept exactly as apps write it: not formatted.
import Foundation
import Moya
import XCTest
#if RxMoya
import RxMoya
import RxSwift
#endif
#if ReactiveMoya
import ReactiveMoya
import ReactiveSwift
#endif

/// Unit tests as RxMoya and ReactiveMoya users write them: immediate stubs, read on the next line.
final class ReactiveAppCodeTests: XCTestCase {
    #if RxMoya
    func testTheViewModelHoldsTheUserOfAnImmediateStub() {
        let viewModel = UserViewModel(provider: stubbingProvider)
        viewModel.load("moya")
        XCTAssertEqual(viewModel.user?.login, "moya")
        XCTAssertNil(viewModel.error)
    }

    func testRequestWithProgressEndsWithTheResponse() {
        var responses: [Response] = []
        var completed = false
        _ = stubbingProvider.rx.requestWithProgress(.zen)
            .filterCompleted()
            .subscribe(onNext: { responses.append($0) }, onCompleted: { completed = true })
        XCTAssertEqual(responses.count, 1)
        XCTAssertTrue(completed)
    }

    func testAStringOfTheObservable() {
        var zen: String?
        _ = UserViewModel(provider: stubbingProvider).zen().subscribe(onNext: { zen = $0 })
        XCTAssertEqual(zen, "Half measures are as bad as nothing at all.")
    }
    #endif

    #if ReactiveMoya
    func testAProducerOfAnImmediateStubSendsBeforeStartReturns() {
        var zen: String?
        ReactiveUserViewModel(provider: stubbingProvider).zen().startWithResult { zen = try? $0.get() }
        XCTAssertEqual(zen, "Half measures are as bad as nothing at all.")
    }
    #endif
}

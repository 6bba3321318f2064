#if RxMoya
import Foundation
import Moya
import ReactiveTestSupport
import RxMoya
// RxSwift has no Sendable annotations; the tests share nothing mutable outside recorders.
@preconcurrency import RxSwift
import Testing

/// The response operators on `Single` and on `Observable`, over stubs.
@Suite("Rx response operators", .timeLimit(.minutes(1)))
struct ResponseOperatorTests {
    private let provider = stubProvider()

    private func statusCode(of error: Swift.Error?) -> Int? {
        guard case .statusCode(let response) = error as? MoyaError else { return nil }
        return response.statusCode
    }

    @Test func singleFilterStatusCodesPassesInsideAndFailsOutsideTheRange() async {
        let inside = await provider.rx.request(.status(204)).filter(statusCodes: 200...204).record()
        let outside = await provider.rx.request(.status(205)).filter(statusCodes: 200...204).record()

        #expect(inside.values.map(\.statusCode) == [204])
        #expect(statusCode(of: outside.error) == 205)
    }

    @Test func singleFilterStatusCodePassesOnlyThatCode() async {
        let same = await provider.rx.request(.status(201)).filter(statusCode: 201).record()
        let other = await provider.rx.request(.status(200)).filter(statusCode: 201).record()

        #expect(same.values.map(\.statusCode) == [201])
        #expect(statusCode(of: other.error) == 200)
    }

    @Test func singleSuccessfulFiltersTellRedirectsApart() async {
        let redirect = await provider.rx.request(.status(302)).filterSuccessfulStatusCodes().record()
        let allowed = await provider.rx.request(.status(302)).filterSuccessfulStatusAndRedirectCodes().record()
        let clientError = await provider.rx.request(.status(404)).filterSuccessfulStatusAndRedirectCodes().record()

        #expect(statusCode(of: redirect.error) == 302)
        #expect(allowed.values.map(\.statusCode) == [302])
        #expect(statusCode(of: clientError.error) == 404)
    }

    @Test func singleMapJSONParsesAndFailsOnEmptyDataUnlessAllowed() async {
        let json = await provider.rx.request(.user).mapJSON().record()
        let empty = await provider.rx.request(.empty).mapJSON().record()
        let allowedEmpty = await provider.rx.request(.empty).mapJSON(failsOnEmptyData: false).record()

        #expect((json.values.first as? [String: Any])?["message"] as? String == "hello")
        guard case .jsonMapping = empty.error as? MoyaError else {
            Issue.record("expected .jsonMapping, got \(empty.events)")
            return
        }
        #expect(allowedEmpty.values.first is NSNull)
    }

    @Test func singleMapStringReadsTheBodyOrAKeyPath() async {
        let body = await provider.rx.request(.zen).mapString().record()
        let atKeyPath = await provider.rx.request(.user).mapString(atKeyPath: "message").record()

        #expect(body.values == ["Half measures are as bad as nothing at all."])
        #expect(atKeyPath.values == ["hello"])
    }

    @Test func singleMapDecodesAtAKeyPathWithTheGivenDecoder() async {
        struct Account: Decodable, Equatable {
            let userName: String
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase

        let user = await provider.rx.request(.user).map(User.self, atKeyPath: "data.user").record()
        let account = await provider.rx.request(.snakeCase).map(Account.self, using: decoder).record()
        let wrong = await provider.rx.request(.zen).map(User.self).record()

        #expect(user.values == [User(login: "octocat", id: 583231)])
        #expect(account.values == [Account(userName: "octocat")])
        guard case .objectMapping = wrong.error as? MoyaError else {
            Issue.record("expected .objectMapping, got \(wrong.events)")
            return
        }
    }

    @Test func observableOperatorsMatchTheSingleOnes() async {
        let observable = provider.rx.request(.user).asObservable()

        let filtered = await observable.filter(statusCodes: 200..<300).filter(statusCode: 200)
            .filterSuccessfulStatusCodes().filterSuccessfulStatusAndRedirectCodes().record()
        let failed = await provider.rx.request(.status(500)).asObservable().filterSuccessfulStatusCodes().record()
        let json = await observable.mapJSON().record()
        let string = await observable.mapString(atKeyPath: "message").record()
        let user = await observable.map(User.self, atKeyPath: "data.user").record()

        #expect(filtered.values.map(\.statusCode) == [200])
        #expect(statusCode(of: failed.error) == 500)
        #expect((json.values.first as? [String: Any])?["message"] as? String == "hello")
        #expect(string.values == ["hello"])
        #expect(user.values == [User(login: "octocat", id: 583231)])
        #expect(user.completed)
    }
}
#endif

#if ReactiveMoya
import Foundation
import Moya
import ReactiveMoya
import ReactiveTestSupport
// ReactiveSwift has no Sendable annotations; the tests share nothing mutable outside recorders.
@preconcurrency import ReactiveSwift
import Testing

/// The response operators on `SignalProducer`, over stubs.
@Suite("ReactiveSwift response operators", .timeLimit(.minutes(1)))
struct ResponseOperatorTests {
    private let provider = stubProvider()

    private func statusCode(of error: MoyaError?) -> Int? {
        guard case .statusCode(let response) = error else { return nil }
        return response.statusCode
    }

    @Test func producerFilterStatusCodesPassesInsideAndFailsOutsideTheRange() async {
        let inside = await provider.reactive.request(.status(204)).filter(statusCodes: 200...204).record()
        let outside = await provider.reactive.request(.status(205)).filter(statusCodes: 200...204).record()

        #expect(inside.values.map(\.statusCode) == [204])
        #expect(statusCode(of: outside.error) == 205)
    }

    @Test func producerFilterStatusCodePassesOnlyThatCode() async {
        let same = await provider.reactive.request(.status(201)).filter(statusCode: 201).record()
        let other = await provider.reactive.request(.status(200)).filter(statusCode: 201).record()

        #expect(same.values.map(\.statusCode) == [201])
        #expect(statusCode(of: other.error) == 200)
    }

    @Test func producerSuccessfulFiltersTellRedirectsApart() async {
        let redirect = await provider.reactive.request(.status(302)).filterSuccessfulStatusCodes().record()
        let allowed = await provider.reactive.request(.status(302)).filterSuccessfulStatusAndRedirectCodes().record()
        let clientError = await provider.reactive.request(.status(404)).filterSuccessfulStatusAndRedirectCodes()
            .record()

        #expect(statusCode(of: redirect.error) == 302)
        #expect(allowed.values.map(\.statusCode) == [302])
        #expect(statusCode(of: clientError.error) == 404)
    }

    @Test func producerMapJSONParsesAndFailsOnEmptyDataUnlessAllowed() async {
        let json = await provider.reactive.request(.user).mapJSON().record()
        let empty = await provider.reactive.request(.empty).mapJSON().record()
        let allowedEmpty = await provider.reactive.request(.empty).mapJSON(failsOnEmptyData: false).record()

        #expect((json.values.first as? [String: Any])?["message"] as? String == "hello")
        guard case .jsonMapping = empty.error else {
            Issue.record("expected .jsonMapping, got \(empty.events)")
            return
        }
        #expect(allowedEmpty.values.first is NSNull)
    }

    @Test func producerMapStringReadsTheBodyOrAKeyPath() async {
        let body = await provider.reactive.request(.zen).mapString().record()
        let atKeyPath = await provider.reactive.request(.user).mapString(atKeyPath: "message").record()

        #expect(body.values == ["Half measures are as bad as nothing at all."])
        #expect(atKeyPath.values == ["hello"])
    }

    @Test func producerMapDecodesAtAKeyPathWithTheGivenDecoder() async {
        struct Account: Decodable, Equatable {
            let userName: String
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase

        let user = await provider.reactive.request(.user).map(User.self, atKeyPath: "data.user").record()
        let account = await provider.reactive.request(.snakeCase).map(Account.self, using: decoder).record()
        let wrong = await provider.reactive.request(.zen).map(User.self).record()

        #expect(user.values == [User(login: "octocat", id: 583231)])
        #expect(account.values == [Account(userName: "octocat")])
        guard case .objectMapping = wrong.error else {
            Issue.record("expected .objectMapping, got \(wrong.events)")
            return
        }
    }

    @Test func operatorsChainOnAnyProducerOfResponses() async {
        let producer = SignalProducer<Response, MoyaError>(
            value: Response(statusCode: 200, data: StubAPI.user.sampleData)
        )

        let filtered = await producer.filter(statusCodes: 200..<300).filter(statusCode: 200)
            .filterSuccessfulStatusCodes().filterSuccessfulStatusAndRedirectCodes().record()
        let user = await producer.map(User.self, atKeyPath: "data.user").record()

        #expect(filtered.values.map(\.statusCode) == [200])
        #expect(user.values == [User(login: "octocat", id: 583231)])
        #expect(user.completed)
    }
}
#endif

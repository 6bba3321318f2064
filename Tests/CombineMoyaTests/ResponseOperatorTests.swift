import CombineMoya
import Foundation
import Moya
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

@Suite("Response operators")
struct ResponseOperatorTests {
    let provider = stubProvider()

    /// The one value a publisher sends, or the error it fails with.
    private func outcome<T>(_ publisher: AnyPublisher<T, MoyaError>) async -> Result<T, MoyaError>? {
        let recorder = await publisher.record()
        #expect(recorder.endings.count == 1)
        switch recorder.ending {
        case .finished:
            #expect(recorder.values.count == 1)
            return recorder.values.first.map { .success($0) }
        case .failure(let error):
            #expect(recorder.values.isEmpty)
            return .failure(error)
        case nil:
            return nil
        }
    }

    /// The status code of the response a `.statusCode` error carries, or `nil` for any other outcome.
    private func rejectedStatusCode<T>(_ result: Result<T, MoyaError>?) -> Int? {
        guard case .failure(.statusCode(let response)) = result else { return nil }
        return response.statusCode
    }

    @Test(arguments: [200, 204, 299])
    func filterStatusCodesPassesCodesInTheRange(code: Int) async throws {
        let result = await outcome(provider.requestPublisher(.status(code)).filter(statusCodes: 200...299))
        #expect(try result?.get().statusCode == code)
    }

    @Test(arguments: [199, 300, 404])
    func filterStatusCodesRejectsCodesOutsideTheRange(code: Int) async {
        let result = await outcome(provider.requestPublisher(.status(code)).filter(statusCodes: 200..<300))
        #expect(rejectedStatusCode(result) == code)
    }

    @Test func filterStatusCodePassesOnlyThatCode() async throws {
        let accepted = await outcome(provider.requestPublisher(.status(201)).filter(statusCode: 201))
        #expect(try accepted?.get().statusCode == 201)

        let rejected = await outcome(provider.requestPublisher(.status(200)).filter(statusCode: 201))
        #expect(rejectedStatusCode(rejected) == 200)
    }

    @Test func filterSuccessfulStatusCodesRejectsRedirects() async throws {
        let accepted = await outcome(provider.requestPublisher(.status(200)).filterSuccessfulStatusCodes())
        #expect(try accepted?.get().statusCode == 200)

        let rejected = await outcome(provider.requestPublisher(.status(302)).filterSuccessfulStatusCodes())
        #expect(rejectedStatusCode(rejected) == 302)
    }

    @Test func filterSuccessfulStatusAndRedirectCodesPassesRedirectsAndRejectsClientErrors() async throws {
        let redirect = await outcome(provider.requestPublisher(.status(302)).filterSuccessfulStatusAndRedirectCodes())
        #expect(try redirect?.get().statusCode == 302)

        let rejected = await outcome(provider.requestPublisher(.status(404)).filterSuccessfulStatusAndRedirectCodes())
        #expect(rejectedStatusCode(rejected) == 404)
    }

    @Test func mapJSONParsesTheBody() async throws {
        let result = await outcome(provider.requestPublisher(.user).mapJSON())
        let json = try #require(try result?.get() as? [String: Any])
        #expect(json["message"] as? String == "hello")
    }

    @Test func mapJSONFailsWithJSONMappingOnInvalidJSON() async {
        let result = await outcome(provider.requestPublisher(.notJSON).mapJSON())
        guard case .failure(.jsonMapping(let response)) = result else {
            Issue.record("expected .jsonMapping, got \(String(describing: result))")
            return
        }
        #expect(response.data == StubAPI.notJSON.sampleData)
    }

    @Test func mapJSONOfEmptyDataIsNullWhenAllowed() async throws {
        let allowed = await outcome(provider.requestPublisher(.empty).mapJSON(failsOnEmptyData: false))
        #expect(try allowed?.get() is NSNull)

        let refused = await outcome(provider.requestPublisher(.empty).mapJSON())
        guard case .failure(.jsonMapping) = refused else {
            Issue.record("expected .jsonMapping, got \(String(describing: refused))")
            return
        }
    }

    @Test func mapStringReturnsTheBody() async throws {
        let result = await outcome(provider.requestPublisher(.zen).mapString())
        #expect(try result?.get() == "Half measures are as bad as nothing at all.")
    }

    @Test func mapStringAtKeyPathReadsNestedJSON() async throws {
        let result = await outcome(provider.requestPublisher(.user).mapString(atKeyPath: "data.user.login"))
        #expect(try result?.get() == "octocat")
    }

    @Test func mapStringAtAMissingKeyPathFailsWithStringMapping() async {
        let result = await outcome(provider.requestPublisher(.user).mapString(atKeyPath: "data.nobody"))
        guard case .failure(.stringMapping) = result else {
            Issue.record("expected .stringMapping, got \(String(describing: result))")
            return
        }
    }

    @Test func mapDecodesAtAKeyPath() async throws {
        let result = await outcome(provider.requestPublisher(.user).map(User.self, atKeyPath: "data.user"))
        #expect(try result?.get() == User(login: "octocat", id: 583231))
    }

    @Test func mapUsesTheGivenDecoder() async throws {
        struct Account: Decodable { let userName: String }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let result = await outcome(provider.requestPublisher(.snakeCase).map(Account.self, using: decoder))
        #expect(try result?.get().userName == "octocat")

        let withDefaultDecoder = await outcome(provider.requestPublisher(.snakeCase).map(Account.self))
        guard case .failure(.objectMapping) = withDefaultDecoder else {
            Issue.record("expected .objectMapping, got \(String(describing: withDefaultDecoder))")
            return
        }
    }

    @Test func mapFailsWithObjectMappingWhenTheTypeDoesNotMatch() async {
        let result = await outcome(provider.requestPublisher(.user).map(User.self))
        guard case .failure(.objectMapping(let error, let response)) = result else {
            Issue.record("expected .objectMapping, got \(String(describing: result))")
            return
        }
        #expect(error is DecodingError)
        #expect(response.data == StubAPI.user.sampleData)
    }

    @Test func mapOfEmptyDataFailsUnlessAllowed() async throws {
        struct Optionals: Decodable { let name: String? }
        let refused = await outcome(provider.requestPublisher(.empty).map(Optionals.self))
        guard case .failure(.objectMapping) = refused else {
            Issue.record("expected .objectMapping, got \(String(describing: refused))")
            return
        }

        let allowed = await outcome(provider.requestPublisher(.empty).map(Optionals.self, failsOnEmptyData: false))
        #expect(try allowed?.get().name == nil)
    }

    @Test func operatorsChainOnAFailedRequestWithoutRunning() async {
        let result = await outcome(
            provider.requestPublisher(.status(500))
                .filterSuccessfulStatusCodes()
                .map(User.self, atKeyPath: "data.user")
        )
        #expect(rejectedStatusCode(result) == 500)
    }
}
